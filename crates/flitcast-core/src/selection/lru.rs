//! LRU (study 002 §4.3): "every input port keeps an ordered list of all the output ports … ordered
//! based on the last time an output port is used by a message entering from this input port";
//! among the granted ports the least recently used wins. Ports that were busy keep ageing, so they
//! win as soon as they are granted again. Switch2 implements this function.

use super::function::{Function, Request, Site};
use crate::arbiter::Recency;
use crate::params::{Kind, NoParams};

#[derive(Debug, Clone)]
pub struct Lru {
    lists: Vec<Recency>,
}

impl Kind for Lru {
    const NAME: &'static str = "lru";
    const DOC: &'static str = "least recently used granted output, one list per input port (study 002 §4.3; Switch2)";
    type Params = NoParams;
}

impl Function for Lru {
    fn bytes(_: &NoParams, radix: u64, _: u64) -> u64 {
        radix * radix * 2
    }
    fn new(_: &NoParams, site: Site) -> Self {
        Lru { lists: (0..site.radix).map(|_| Recency::new(site.radix)).collect() }
    }
    fn pick(&mut self, req: Request, granted: u64) -> u8 {
        self.lists[req.in_port as usize].least_recent(granted)
    }
    fn commit(&mut self, req: Request, port: u8) {
        self.lists[req.in_port as usize].touch(port);
    }
}
