//! LRUD (study 002 §4.3): in every chip one LRU list per *node switch* of the network (the chip a
//! destination is attached to), shared by all inputs; the list of the packet's destination switch is
//! used and updated, spreading traffic to one destination switch over all LCAs.

use super::function::{Function, Request, Site};
use crate::arbiter::Recency;
use crate::params::{Kind, NoParams};

#[derive(Debug, Clone)]
pub struct Lrud {
    lists: Vec<Recency>,
}

impl Kind for Lrud {
    const NAME: &'static str = "lrud";
    const DOC: &'static str =
        "least recently used granted output, one list per destination node switch (study 002 §4.3)";
    type Params = NoParams;
}

impl Function for Lrud {
    fn bytes(_: &NoParams, radix: u64, switches: u64) -> u64 {
        switches * radix * 2
    }
    fn new(_: &NoParams, site: Site) -> Self {
        Lrud { lists: (0..site.switches.max(1)).map(|_| Recency::new(site.radix)).collect() }
    }
    fn pick(&mut self, req: Request, granted: u64) -> u8 {
        self.lists[req.dst_switch as usize].least_recent(granted)
    }
    fn commit(&mut self, req: Request, port: u8) {
        self.lists[req.dst_switch as usize].touch(port);
    }
    fn keys_on_destination(&self) -> bool {
        true
    }
}
