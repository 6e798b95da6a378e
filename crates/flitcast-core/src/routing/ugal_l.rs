//! UGAL-L on a dragonfly (Kim, Dally, Scott & Abts, ISCA 2008, §4; Singh's UGAL with local queue
//! information): at the source router, minimal or Valiant by the occupancy of the two first outputs
//! times the hops of the two paths, on three virtual-channel classes. Routed by `dragonfly.rs`;
//! docs/models/dragonfly.md.

use super::algorithm::Algorithm;
use super::algorithm::{variant_streams, Facts};
use super::dragonfly::{on_dragonfly, on_wire_part, ugal_unfit, DragonflyRouting, Mode, DRAGONFLY};
use crate::error::Error;
use crate::params::{params, Kind, Problem};
use crate::sizing::{Part, Sizing};
use crate::topology::Topology;

params! {
    /// UGAL-L.
    pub struct Params {
        /// Flits of bias toward the minimal path: minimal when q_min · H_min <= q_nm · H_nm + this (q the
        /// flits waiting in the next router's buffers of the first output, H the hops of the path; 0, the
        /// paper's rule, by default; below 0 a bias toward the non-minimal path).
        ugal_threshold: i64 = 0, range(-1_000_000, 1_000_000), unit("flits");
    }
}

/// Universal globally adaptive load-balanced routing with local information.
pub struct UgalL;

impl Kind for UgalL {
    const NAME: &'static str = "ugal_l";
    const DOC: &'static str = "dragonfly UGAL-L: minimal or Valiant at the source by queue x hops (three VC \
                               classes, needs switch.vcs >= 3 and credit flow control)";
    type Params = Params;
}

impl Algorithm for UgalL {
    type Runtime = DragonflyRouting;

    fn networks(_: &Params) -> &'static [&'static str] {
        DRAGONFLY
    }

    fn build(p: &Params, vcs: u8, topo: &Topology) -> Result<DragonflyRouting, Error> {
        on_dragonfly(Self::NAME, topo, vcs, Mode::Ugal { threshold: p.ugal_threshold, global: None })
    }

    /// Each source's stream of intermediate groups; and each router output's sends still on the wire.
    fn bytes(_: &Params, n: &Sizing) -> Vec<Part> {
        vec![variant_streams(n), on_wire_part(n)]
    }

    fn needs(_: &Params) -> &'static str {
        "`switch.vcs >= 3` (one virtual-channel class per hop class); it decides by its outputs' credits, so not \
         `switch.flow_control = \"stop_go\"`"
    }

    fn unfit(_: &Params, f: &Facts) -> Vec<Problem> {
        ugal_unfit(Self::NAME, "outputs", f)
    }

    fn adaptive(_: &Params) -> bool {
        true
    }
}
