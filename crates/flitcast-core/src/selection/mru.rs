//! MRU (study 002 §4.3): the LRU lists of each input port, but the most recently used granted port
//! wins — to test whether concentrating a multi-packet message on one output helps (it does not).

use super::function::{Function, Request, Site};
use crate::arbiter::Recency;
use crate::params::{Kind, NoParams};

#[derive(Debug, Clone)]
pub struct Mru {
    lists: Vec<Recency>,
}

impl Kind for Mru {
    const NAME: &'static str = "mru";
    const DOC: &'static str = "most recently used granted output, one list per input port (study 002 §4.3)";
    type Params = NoParams;
}

impl Function for Mru {
    fn bytes(_: &NoParams, radix: u64, _: u64) -> u64 {
        radix * radix * 2
    }
    fn new(_: &NoParams, site: Site) -> Self {
        Mru { lists: (0..site.radix).map(|_| Recency::new(site.radix)).collect() }
    }
    fn pick(&mut self, req: Request, granted: u64) -> u8 {
        self.lists[req.in_port as usize].most_recent(granted)
    }
    fn commit(&mut self, req: Request, port: u8) {
        self.lists[req.in_port as usize].touch(port);
    }
}
