//! Where a router's VC allocation sits in its pipeline (`switch.vc_allocation` of the input-buffered
//! router, docs/models/input_buffered.md "Allocation"), and the output-VC arbitration of the stage
//! of its own.

use crate::params::choice;

choice! {
    /// Whether a head is granted its output VC in the cycle it is granted the switch.
    pub enum VcAllocation {
        /// In one cycle with switch allocation: no cycle between a packet's VC and its first crossing.
        Combined = "combined",
        /// A stage of its own before switch allocation (BookSim 2's input-queued router): one cycle
        /// more per router for each packet.
        Separate = "separate",
    }
}

/// One input VC's request for one output VC (`separate` VC allocation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct VcRequest {
    /// The output port and its VC asked for (first: requests for one output VC sort together).
    pub port: u8,
    pub vc: u8,
    /// The input port and VC whose head asks.
    pub in_port: u8,
    pub in_vc: u8,
}

/// One cycle's requests for output VCs, and the grants made of them (kept between cycles, empty, so
/// that no cycle allocates).
#[derive(Debug, Clone, Default)]
pub struct VcRequests {
    asked: Vec<VcRequest>,
    granted: Vec<VcRequest>,
}

impl VcRequests {
    pub fn push(&mut self, request: VcRequest) {
        self.asked.push(request);
    }

    /// Each output VC asked for goes to one asking input port: `winner(port, mask of asking input
    /// ports)` picks it (and moves that output's arbiter); of the winning port's VCs that asked, the
    /// lowest. Returns the grants and forgets the requests.
    pub fn grants(&mut self, mut winner: impl FnMut(u8, u64) -> usize) -> &[VcRequest] {
        self.granted.clear();
        self.asked.sort_unstable();
        for group in self.asked.chunk_by(|a, b| (a.port, a.vc) == (b.port, b.vc)) {
            let mask = group.iter().fold(0u64, |m, r| m | 1 << r.in_port);
            let port = winner(group[0].port, mask) as u8;
            self.granted.extend(group.iter().find(|r| r.in_port == port));
        }
        self.asked.clear();
        &self.granted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_output_vc_goes_to_one_asker_the_winning_ports_lowest_vc() {
        let mut r = VcRequests::default();
        for (port, vc, in_port, in_vc) in [(1, 0, 3, 1), (1, 0, 2, 0), (1, 0, 3, 0), (1, 1, 2, 1), (0, 0, 5, 0)] {
            r.push(VcRequest { port, vc, in_port, in_vc });
        }
        let mut asked = Vec::new();
        let granted = r.grants(|port, mask| {
            asked.push((port, mask));
            63 - mask.leading_zeros() as usize // the highest port wins here
        });
        let pairs: Vec<_> = granted.iter().map(|g| (g.port, g.vc, g.in_port, g.in_vc)).collect();
        assert_eq!(pairs, [(0, 0, 5, 0), (1, 0, 3, 0), (1, 1, 2, 1)]);
        assert_eq!(asked, [(0, 1 << 5), (1, (1 << 2) | (1 << 3)), (1, 1 << 2)]);
        assert!(r.grants(|_, _| unreachable!()).is_empty(), "the requests are forgotten");
    }
}
