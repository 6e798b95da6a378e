//! The 128-node SP network of study 002 Fig. 3 (§3, §4.2).
//!
//! Eight node switch boards (NSB b = 0…7; 0–3 on the left, 4–7 on the right), each the 16-node board
//! of `sp16.rs` with 16 nodes, and four intermediate switch boards (ISB q = 0…3) in the middle.
//! Chips (router ids):
//! * N(b,i) = 4b + i — node chips, nodes on ports 0–3 (node 16b + the 16-node numbering of chip i);
//! * U(b,u) = 32 + 4b + u — the board's other four chips;
//! * L(q,u) = 64 + 4q + u — ISB chips facing the left half; R(q,v) = 80 + 4q + v — facing the right.
//!
//! Wiring (the reconstruction in docs/models/sp_networks.md; it satisfies every statement of the
//! study, including that all LCAs of a pair have the same downward view, and keeps the intermediate
//! boards connected as Fig. 3 suggests — a variant that sends all four links of a U chip into one ISB
//! also fits the text but splits the upper stages into four disconnected planes):
//! * N(b,i) port 4+u ↔ U(b,u) port 4+i (inside each board, as on the 16-node board);
//! * U(b,u) port q ↔ L(q,u) port b for the left boards b = 0…3;
//! * U(4+b,v) port q ↔ R(q,v) port b for the right boards;
//! * L(q,u) port 4+v ↔ R(q,v) port 4+u (inside each ISB).
//!
//! A route between the halves crosses six chips — N, U, L, R, U, N — with four choices at each of the
//! first three (4·4·4 = 64 minimal routes); between boards of one half five chips (L is the LCA, 16
//! routes); inside a board three chips (4 routes); on one chip one.

use super::graph::{Builder, Geometry, PortLink, Topology};
use super::sp16::{node_at, NodeNumbering, Params};
use crate::error::Error;
use crate::params::Kind;

pub struct Sp128;

impl Kind for Sp128 {
    const NAME: &'static str = "sp128";
    const DOC: &'static str = "the 128-node SP network of study 002 Fig. 3 (8 node and 4 intermediate switch boards)";
    type Params = Params;
}

impl Builder for Sp128 {
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
        Some(128)
    }
    fn radix(_: &Params) -> u32 {
        8
    }
}

pub const fn node_chip(b: u32, i: u32) -> u32 {
    4 * b + i
}
pub const fn upper_chip(b: u32, u: u32) -> u32 {
    32 + 4 * b + u
}
pub const fn left_isb_chip(q: u32, u: u32) -> u32 {
    64 + 4 * q + u
}
pub const fn right_isb_chip(q: u32, v: u32) -> u32 {
    80 + 4 * q + v
}

pub fn build(numbering: NodeNumbering, latency: u32) -> Result<Topology, Error> {
    let (routers, radix) = (96u32, 8u32);
    let mut links = vec![PortLink::Unused; (routers * radix) as usize];
    let mut wire = |a: u32, pa: u32, b: u32, pb: u32| {
        links[(a * radix + pa) as usize] = PortLink::Router { router: b, port: pb as u8 };
        links[(b * radix + pb) as usize] = PortLink::Router { router: a, port: pa as u8 };
    };
    for b in 0..8 {
        for i in 0..4 {
            for u in 0..4 {
                wire(node_chip(b, i), 4 + u, upper_chip(b, u), 4 + i);
            }
        }
        for u in 0..4 {
            for q in 0..4 {
                let isb = if b < 4 { left_isb_chip(q, u) } else { right_isb_chip(q, u) };
                wire(upper_chip(b, u), q, isb, b % 4);
            }
        }
    }
    for q in 0..4 {
        for u in 0..4 {
            for v in 0..4 {
                wire(left_isb_chip(q, u), 4 + v, right_isb_chip(q, v), 4 + u);
            }
        }
    }
    for b in 0..8 {
        for i in 0..4 {
            for p in 0..4 {
                let terminal = 16 * b + node_at(numbering, i, p);
                links[(node_chip(b, i) * radix + p) as usize] = PortLink::Terminal { terminal };
            }
        }
    }
    Topology::new(
        "SP 128-node network".to_string(),
        Geometry::Bmin,
        (0..=routers).map(|r| r * radix).collect(),
        links.clone(),
        vec![latency; links.len()],
        vec![latency; 128],
    )
}
