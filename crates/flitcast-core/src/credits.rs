//! Credit counters of every channel's virtual channels, in one flat array owned by the simulation.
//!
//! A sender holds, per virtual channel of each channel it drives, a count of the free slots it knows
//! of in the receiver's buffer (credit-based flow control, Dally & Towles §13.3). It spends one per
//! flit sent; the receiver returns one when the flit leaves its buffer, and the credit travels back
//! over the channel's latency on the timing wheel's credit lane.
//!
//! Keeping every counter in one array, indexed by a *lane* (channel · vcs + vc), lets a returned
//! credit be a bare `u32` on the wheel that lands with one increment — no event decoding, no
//! dispatch to the sending router or NIC. Channels are numbered as in [`Topology`]: first every
//! router output port (`Topology::port_index`), then the injection channel of each terminal.

use crate::topology::{PortLink, Topology};

/// Counter of an output that feeds a terminal: terminals sink every flit at once, so ejection
/// never waits for a credit (senders do not spend these).
pub const SINK: u32 = u32::MAX;

/// Lane numbering of one network.
#[derive(Debug, Clone, Copy)]
pub struct Lanes {
    vcs: u32,
    router_ports: u32,
}

impl Lanes {
    pub fn new(topo: &Topology, vcs: u32) -> Lanes {
        Lanes { vcs, router_ports: topo.links.len() as u32 }
    }
    /// Lanes in all: every router output's virtual channels, then every injection channel's.
    pub fn count(&self, topo: &Topology) -> usize {
        self.injection(topo.terminals() as u32) as usize
    }
    /// Lane of virtual channel 0 of the channel leaving (router, port).
    pub fn router_output(&self, topo: &Topology, router: u32, port: u8) -> u32 {
        topo.port_index(router, port) as u32 * self.vcs
    }
    /// Lane of virtual channel 0 of terminal `t`'s injection channel.
    pub fn injection(&self, terminal: u32) -> u32 {
        (self.router_ports + terminal) * self.vcs
    }
    /// Lane of virtual channel 0 of the channel feeding `feeder`'s far end (where a receiver
    /// returns its credits).
    pub fn feeding(&self, topo: &Topology, feeder: PortLink) -> u32 {
        match feeder {
            PortLink::Router { router, port } => self.router_output(topo, router, port),
            PortLink::Terminal { terminal } => self.injection(terminal),
            PortLink::Unused => u32::MAX,
        }
    }

    /// Every lane's initial count: `buffer_flits` free slots downstream of each router-to-router
    /// and injection channel, [`SINK`] on ejection channels, 0 on unconnected ports.
    pub fn initial(&self, topo: &Topology, buffer_flits: u32) -> Vec<u32> {
        let per_channel = topo.links.iter().map(|link| match link {
            PortLink::Router { .. } => buffer_flits,
            PortLink::Terminal { .. } => SINK,
            PortLink::Unused => 0,
        });
        let injection = std::iter::repeat_n(buffer_flits, topo.terminals());
        per_channel.chain(injection).flat_map(|c| std::iter::repeat_n(c, self.vcs as usize)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    #[test]
    fn lanes_number_router_ports_then_injection_channels() {
        let s = Scenario::default();
        let topo = s.topology().unwrap();
        let lanes = Lanes::new(&topo, 2);
        let bank = lanes.initial(&topo, 8);
        assert_eq!(bank.len(), (topo.links.len() + topo.terminals()) * 2);
        assert_eq!(lanes.router_output(&topo, 1, 0), topo.port_index(1, 0) as u32 * 2);
        assert_eq!(lanes.injection(0) as usize, topo.links.len() * 2);
        // Router 0 of the mesh: its terminal port sinks, its -x port is unconnected.
        let (r, p) = topo.terminal_at[0];
        assert_eq!(bank[lanes.router_output(&topo, r, p) as usize], SINK);
        assert_eq!(bank[lanes.router_output(&topo, 0, 1) as usize], 0);
        assert_eq!(bank[lanes.injection(0) as usize + 1], 8);
    }
}
