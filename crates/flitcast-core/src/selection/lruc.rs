//! LRUC (study 002 §4.3): one LRU list per switch chip, shared and updated by every input port — a
//! chip-wide balance that the study finds, counter-intuitively, worse than per-input LRU.

use super::function::{Function, Request, Site};
use crate::arbiter::Recency;
use crate::params::{Kind, NoParams};

#[derive(Debug, Clone)]
pub struct Lruc {
    list: Recency,
}

impl Kind for Lruc {
    const NAME: &'static str = "lruc";
    const DOC: &'static str = "least recently used granted output, one list per switch chip (study 002 §4.3)";
    type Params = NoParams;
}

impl Function for Lruc {
    fn bytes(_: &NoParams, radix: u64, _: u64) -> u64 {
        radix * 2
    }
    fn new(_: &NoParams, site: Site) -> Self {
        Lruc { list: Recency::new(site.radix) }
    }
    fn pick(&mut self, _: Request, granted: u64) -> u8 {
        self.list.least_recent(granted)
    }
    fn commit(&mut self, _: Request, port: u8) {
        self.list.touch(port);
    }
}
