//! Uniform random (Dally & Towles §3.2): each message to a node drawn uniformly among the others (or among all nodes with
//! `workload.uniform_include_self`).

use super::pattern::{uniform_destination, Shape, TrafficPattern};
use crate::params::{params, Kind};
use crate::rng::Stream;

params! {
    /// Uniform random destinations.
    pub struct Params {
        /// A node may also pick itself as destination.
        uniform_include_self: bool = false;
    }
}

#[derive(Debug, Clone)]
pub struct Uniform {
    nodes: u32,
    include_self: bool,
}

impl Kind for Uniform {
    const NAME: &'static str = "uniform";
    const DOC: &'static str =
        "uniform random over the other nodes (workload.uniform_include_self to include the source)";
    type Params = Params;
}

impl TrafficPattern for Uniform {
    fn new(p: &Params, shape: &Shape) -> Self {
        Uniform { nodes: shape.nodes, include_self: p.uniform_include_self }
    }

    fn destination(&self, src: u32, rng: &mut Stream) -> u32 {
        uniform_destination(src, self.nodes, self.include_self, rng)
    }
}
