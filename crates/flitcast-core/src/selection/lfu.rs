//! LFU: the granted output this input port has sent the fewest packets through, the lowest port among
//! ties. Not one of study 002's functions (§4.3): where LRU favours the output unused longest, LFU
//! evens out each input's long-run share of its outputs, a port that was busy for a while catching up
//! on all it missed rather than winning once.

use super::function::{Function, Request, Site};
use crate::arbiter::least_served;
use crate::bitset::ones;
use crate::params::{Kind, NoParams};

#[derive(Debug, Clone)]
pub struct Lfu {
    /// Packets committed per (input port, output port), `radix` outputs per input.
    used: Vec<u64>,
    radix: usize,
}

impl Kind for Lfu {
    const NAME: &'static str = "lfu";
    const DOC: &'static str =
        "least frequently used granted output, one count per input and output port (not in study 002)";
    type Params = NoParams;
}

impl Function for Lfu {
    fn new(_: &NoParams, site: Site) -> Self {
        Lfu { used: vec![0; site.radix * site.radix], radix: site.radix }
    }
    fn bytes(_: &NoParams, radix: u64, _: u64) -> u64 {
        radix * radix * 8
    }
    fn pick(&mut self, req: Request, granted: u64) -> u8 {
        let counts = &self.used[req.in_port as usize * self.radix..][..self.radix];
        least_served(ones(granted), |p| counts[p]).expect("at least two granted ports") as u8
    }
    fn commit(&mut self, req: Request, port: u8) {
        self.used[req.in_port as usize * self.radix + port as usize] += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_used_granted_port_wins_and_ties_go_to_the_lowest() {
        let mut f = Lfu::new(&NoParams, Site { router: 0, radix: 8, switches: 1, seed: 1 });
        let req = Request { in_port: 2, dst_switch: 0 };
        assert_eq!(f.pick(req, 0b1010_0000), 5, "a tie: the lowest port");
        f.commit(req, 5);
        f.commit(req, 5);
        f.commit(req, 7);
        assert_eq!(f.pick(req, 0b1010_0000), 7, "port 7 carried one packet, port 5 two");
        f.commit(req, 7);
        f.commit(req, 7);
        assert_eq!(f.pick(req, 0b1010_0000), 5, "now port 5 is behind");
        let other = Request { in_port: 3, dst_switch: 0 };
        assert_eq!(f.pick(other, 0b1010_0000), 5, "each input port counts its own packets");
    }
}
