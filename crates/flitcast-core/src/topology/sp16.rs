//! The 16-node SP switch board of study 002 Fig. 2 (and the 16-node BMIN of study 000).
//!
//! Eight 8-port chips, numbered as in the SP switch-board manual: SW0–SW3 on the right-hand side and
//! the node switch chips SW4–SW7 on the left. Router r is chip SWr. Node chip SW(4+i) has its nodes
//! on ports 0–3 and links port 4+j to port 4+i of SWj. Ports 0–3 of SW0–SW3 are unused (they lead
//! to other boards in larger systems). This is the 4-ary 2-tree up to port and node numbering.
//!
//! Node numbering (`network.node_numbering`):
//! * `sp` (default) — the SP numbering of Fig. 2, "an artifact of the wiring layout": SW4 holds
//!   P13, P12, P9, P8 on ports 0–3; SW5 P5, P4, P1, P0; SW6 P2, P3, P6, P7; SW7 P10, P11, P14, P15.
//!   Only N14 (P13) on SW4 port 0 and N16 (P15) on SW7 port 3 are documented (IBM manual); the rest
//!   is the reconstruction of docs/models/sp_networks.md, which satisfies every path the study states
//!   (P13→P8 through one chip, P13→P6 through three).
//! * `plain` — P4i … P4i+3 on SW(4+i) ports 0–3.

use super::graph::{Builder, Geometry, PortLink, Topology};
use crate::error::Error;
use crate::params::{choice, params, Kind};

choice! {
    /// How the SP networks number their nodes.
    pub enum NodeNumbering {
        /// The SP numbering of study 002 Fig. 2 ("an artifact of the wiring layout").
        Sp = "sp",
        /// Node chip i holds nodes 4i … 4i+3.
        Plain = "plain",
    }
}

params! {
    /// An SP network (study 002 Figs. 2 and 3).
    pub struct Params {
        /// Node numbering: `sp` (the SP numbering of study 002 Fig. 2, an artifact of the wiring) or
        /// `plain` (node chip i holds nodes 4i..4i+3). Matters for permutation patterns.
        node_numbering: NodeNumbering = NodeNumbering::Sp;
    }
}

pub struct Sp16;

impl Kind for Sp16 {
    const NAME: &'static str = "sp16";
    const DOC: &'static str = "the 16-node SP board of study 002 Fig. 2 (SP or plain node numbering)";
    type Params = Params;
}

impl Builder for Sp16 {
    fn sized_by(_: &Params) -> &'static str {
        "network.topology"
    }

    fn multistage(_: &Params) -> bool {
        true
    }
    fn graph(p: &Params, latency: u32) -> Result<Topology, Error> {
        build(p.node_numbering, latency)
    }
    fn nodes(_: &Params) -> Option<u64> {
        Some(16)
    }
    fn radix(_: &Params) -> u32 {
        8
    }
}

/// SP numbering: the node on port p of node chip SW(4+i) is `SP16_NODES[i][p]`.
pub const SP16_NODES: [[u32; 4]; 4] = [[13, 12, 9, 8], [5, 4, 1, 0], [2, 3, 6, 7], [10, 11, 14, 15]];

/// Node on port `port` of node chip `chip` (0–3) under `numbering`.
pub fn node_at(numbering: NodeNumbering, chip: u32, port: u32) -> u32 {
    match numbering {
        NodeNumbering::Sp => SP16_NODES[chip as usize][port as usize],
        NodeNumbering::Plain => 4 * chip + port,
    }
}

pub fn build(numbering: NodeNumbering, latency: u32) -> Result<Topology, Error> {
    let radix = 8u32;
    let mut links = vec![PortLink::Unused; 64];
    for i in 0..4u32 {
        let node_chip = 4 + i;
        for p in 0..4 {
            links[(node_chip * radix + p) as usize] = PortLink::Terminal { terminal: node_at(numbering, i, p) };
        }
        for j in 0..4u32 {
            links[(node_chip * radix + 4 + j) as usize] = PortLink::Router { router: j, port: (4 + i) as u8 };
            links[(j * radix + 4 + i) as usize] = PortLink::Router { router: node_chip, port: (4 + j) as u8 };
        }
    }
    Topology::new(
        "SP 16-node board".to_string(),
        Geometry::Bmin,
        (0..=8).map(|r| r * radix).collect(),
        links.clone(),
        vec![latency; links.len()],
        vec![latency; 16],
    )
}
