//! Valiant routing on a dragonfly (Kim, Dally, Scott & Abts, ISCA 2008, §4; Valiant & Brebner,
//! "Universal Schemes for Parallel Communication", STOC 1981): minimal to an intermediate group drawn
//! at random per packet, then minimal to the destination, on three virtual-channel classes. Routed by
//! `dragonfly.rs`; docs/models/dragonfly.md.

use super::algorithm::Algorithm;
use super::algorithm::{variant_streams, Facts};
use super::dragonfly::{on_dragonfly, too_few_classes, DragonflyRouting, Mode, DRAGONFLY};
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
    const DOC: &'static str = "dragonfly Valiant routing: minimal to a random intermediate group, then minimal \
                               (three VC classes, needs switch.vcs >= 3)";
    type Params = Params;
}

impl Algorithm for Valiant {
    type Runtime = DragonflyRouting;

    fn networks(_: &Params) -> &'static [&'static str] {
        DRAGONFLY
    }

    fn build(p: &Params, vcs: u8, topo: &Topology) -> Result<DragonflyRouting, Error> {
        let mode = Mode::Valiant { all_groups: p.intermediate_groups == IntermediateGroups::All };
        on_dragonfly(Self::NAME, topo, vcs, mode)
    }

    /// Each source's stream of intermediate groups.
    fn bytes(_: &Params, n: &Sizing) -> Vec<Part> {
        vec![variant_streams(n)]
    }

    fn needs(_: &Params) -> &'static str {
        "`switch.vcs >= 3` (one virtual-channel class per hop class)"
    }

    fn unfit(_: &Params, f: &Facts) -> Vec<Problem> {
        too_few_classes(Self::NAME, 3, f).into_iter().collect()
    }
}
