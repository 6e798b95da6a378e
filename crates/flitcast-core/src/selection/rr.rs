//! RR (study 002 §4.3): each input port has a register RRID holding the most recently used output;
//! granted outputs are considered "in round robin fashion starting with the last output port number
//! plus 1 (mod 8)" and RRID takes the winner. No other history (log2 n latches in hardware). RRID
//! starts at the last port, so the first search begins at port 0.

use super::function::{Function, Request, Site};
use crate::arbiter::RoundRobin;
use crate::params::{Kind, NoParams};

#[derive(Debug, Clone)]
pub struct Rr {
    rrid: Vec<RoundRobin>,
}

impl Kind for Rr {
    const NAME: &'static str = "rr";
    const DOC: &'static str = "round robin from the last output used by the input + 1 (study 002 §4.3)";
    type Params = NoParams;
}

impl Function for Rr {
    fn bytes(_: &NoParams, radix: u64, _: u64) -> u64 {
        radix * 2
    }
    fn new(_: &NoParams, site: Site) -> Self {
        Rr { rrid: vec![RoundRobin::default(); site.radix] }
    }
    fn pick(&mut self, req: Request, granted: u64) -> u8 {
        self.rrid[req.in_port as usize].first(granted) as u8
    }
    fn commit(&mut self, req: Request, port: u8) {
        let radix = self.rrid.len();
        self.rrid[req.in_port as usize].served(port as usize, radix);
    }
}
