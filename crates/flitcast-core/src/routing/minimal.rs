//! Minimal routing on a dragonfly (Kim, Dally, Scott & Abts, ISCA 2008, §4): local, global, local
//! hop, each where the route needs it, on two virtual-channel classes. Routed by `dragonfly.rs`;
//! docs/models/dragonfly.md.

use super::algorithm::Algorithm;
use super::algorithm::Facts;
use super::dragonfly::{on_dragonfly, too_few_classes, DragonflyRouting, Mode, DRAGONFLY};
use crate::error::Error;
use crate::params::{Kind, NoParams, Problem};
use crate::topology::Topology;

/// Minimal (local-global-local) routing on a dragonfly.
pub struct Minimal;

impl Kind for Minimal {
    const NAME: &'static str = "minimal";
    const DOC: &'static str =
        "dragonfly minimal routing: local, global, local hop (two VC classes, needs switch.vcs >= 2)";
    type Params = NoParams;
}

impl Algorithm for Minimal {
    type Runtime = DragonflyRouting;

    fn networks(_: &NoParams) -> &'static [&'static str] {
        DRAGONFLY
    }

    fn build(_: &NoParams, vcs: u8, topo: &Topology) -> Result<DragonflyRouting, Error> {
        on_dragonfly(Self::NAME, topo, vcs, Mode::Minimal)
    }

    fn needs(_: &NoParams) -> &'static str {
        "`switch.vcs >= 2` (one virtual-channel class per hop class)"
    }

    fn unfit(_: &NoParams, f: &Facts) -> Vec<Problem> {
        too_few_classes(Self::NAME, 2, f).into_iter().collect()
    }
}
