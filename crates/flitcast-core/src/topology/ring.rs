//! A k-node ring: the 1-dimensional torus of `torus.rs`, bidirectional or unidirectional.

use super::graph::{Builder, Topology};
use super::torus;
use crate::error::Error;
use crate::params::{params, Kind};

params! {
    /// A k-node ring.
    pub struct Params {
        /// Routers on the ring.
        k: u32 = 8, range(2, 1024);
        /// Links in one direction only.
        unidirectional: bool = false;
    }
}

pub struct Ring;

impl Kind for Ring {
    const NAME: &'static str = "ring";
    const DOC: &'static str = "k-node ring = 1-dimensional torus, bidirectional or unidirectional";
    type Params = Params;
}

impl Builder for Ring {
    fn size_key(p: &Params) -> Option<(&'static str, String)> {
        Some(("network.k", p.k.to_string()))
    }
    fn sized_by(_: &Params) -> &'static str {
        "network.k"
    }

    fn dimensions(_: &Params) -> Option<u32> {
        Some(1)
    }
    fn unidirectional(p: &Params) -> bool {
        p.unidirectional
    }
    fn wraps(_: &Params) -> bool {
        true
    }
    fn graph(p: &Params, latency: u32) -> Result<Topology, Error> {
        torus::build(p.k, 1, !p.unidirectional, latency)
    }
    fn nodes(p: &Params) -> Option<u64> {
        Some(p.k as u64)
    }
    fn digits(p: &Params) -> Option<(u32, u32)> {
        Some((p.k, 1))
    }
    fn radix(p: &Params) -> u32 {
        if p.unidirectional {
            2
        } else {
            3
        }
    }
}
