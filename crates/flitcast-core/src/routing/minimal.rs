//! Minimal routing on a dragonfly (Kim, Dally, Scott & Abts, ISCA 2008, §4): local, global, local
//! hop, each where the route needs it, on two virtual-channel classes. Routed by `dragonfly.rs`;
//! docs/models/dragonfly.md. On a Slim Fly, every hop one closer to the destination's router, one
//! virtual-channel class per hop (`graph_routing.rs`, docs/models/slim_fly.md).

use super::algorithm::Algorithm;
use super::algorithm::Facts;
use super::dragonfly::Mode;
use super::graph_routing::{self, OnNetwork};
use crate::error::Error;
use crate::params::{Kind, NoParams, Problem};
use crate::topology::Topology;

/// Minimal (local-global-local) routing on a dragonfly.
pub struct Minimal;

impl Kind for Minimal {
    const NAME: &'static str = "minimal";
    const DOC: &'static str =
        "minimal routing: a dragonfly's local, global, local hop, a Slim Fly's shortest paths (two VC classes, \
         needs switch.vcs >= 2)";
    type Params = NoParams;
}

impl Algorithm for Minimal {
    type Runtime = OnNetwork;

    fn networks(_: &NoParams) -> &'static [&'static str] {
        graph_routing::NETWORKS
    }

    fn build(_: &NoParams, vcs: u8, topo: &Topology) -> Result<OnNetwork, Error> {
        graph_routing::build(Self::NAME, topo, vcs, Mode::Minimal)
    }

    fn needs(_: &NoParams) -> &'static str {
        "`switch.vcs >= 2` (one virtual-channel class per hop class on a dragonfly, per hop of the diameter-2 \
         route on a Slim Fly)"
    }

    fn unfit(_: &NoParams, f: &Facts) -> Vec<Problem> {
        graph_routing::too_few(Self::NAME, false, f).into_iter().collect()
    }
}
