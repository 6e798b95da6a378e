//! Valiant routing on a dragonfly (Kim, Dally, Scott & Abts, ISCA 2008, §4; Valiant & Brebner,
//! "Universal Schemes for Parallel Communication", STOC 1981): minimal to an intermediate group drawn
//! at random per packet, then minimal to the destination, on three virtual-channel classes. Routed by
//! `dragonfly.rs`; docs/models/dragonfly.md. On a Slim Fly, through an intermediate router
//! (`graph_routing.rs`, docs/models/slim_fly.md).

use super::algorithm::Algorithm;
use super::algorithm::{variant_streams, Facts};
use super::dragonfly::Mode;
use super::graph_routing::{self, OnNetwork};
use crate::error::Error;
use crate::params::{choice, params, Kind, Problem};
use crate::sizing::{Part, Sizing};
use crate::topology::Topology;

choice! {
    /// Which groups Valiant routing draws a packet's intermediate group from.
    pub enum IntermediateGroups {
        /// The g − 2 groups that are neither the source's nor the destination's (every packet between
        /// two groups takes two global hops).
        Others = "others",
        /// All g groups, either end group meaning the minimal route (Valiant & Brebner's draw over all
        /// nodes; BookSim 2's dragonfly).
        All = "all",
    }
}

params! {
    /// Valiant routing.
    pub struct Params {
        /// Where a packet's intermediate group is drawn, uniformly: `others`, among the groups that are
        /// neither its source's nor its destination's; `all`, among all g groups, an end group meaning
        /// the minimal route (docs/models/dragonfly.md, "Routing").
        intermediate_groups: IntermediateGroups = IntermediateGroups::Others;
    }
}

/// Valiant routing through a random intermediate group.
pub struct Valiant;

impl Kind for Valiant {
    const NAME: &'static str = "valiant";
    const DOC: &'static str = "Valiant routing: minimal to a random intermediate group (dragonfly) or router (Slim \
                               Fly), then minimal (needs switch.vcs >= 3 on a dragonfly, 4 on a Slim Fly)";
    type Params = Params;
}

impl Algorithm for Valiant {
    type Runtime = OnNetwork;

    fn networks(_: &Params) -> &'static [&'static str] {
        graph_routing::NETWORKS
    }

    fn build(p: &Params, vcs: u8, topo: &Topology) -> Result<OnNetwork, Error> {
        let mode = Mode::Valiant { all_groups: p.intermediate_groups == IntermediateGroups::All };
        graph_routing::build(Self::NAME, topo, vcs, mode)
    }

    /// Each source's stream of intermediate groups.
    fn bytes(_: &Params, n: &Sizing) -> Vec<Part> {
        vec![variant_streams(n)]
    }

    fn needs(_: &Params) -> &'static str {
        "`switch.vcs >= 3` on a dragonfly (one virtual-channel class per hop class), `switch.vcs >= 4` on a Slim \
         Fly (one per hop of its two minimal legs) of at most 255 routers (`network.q` ≤ 11: its intermediate \
         router travels in the packet's 8-bit route variant)"
    }

    fn unfit(_: &Params, f: &Facts) -> Vec<Problem> {
        graph_routing::too_few(Self::NAME, true, f).into_iter().collect()
    }
}
