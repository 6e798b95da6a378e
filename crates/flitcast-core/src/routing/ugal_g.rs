//! UGAL-G on a dragonfly (Kim, Dally, Scott & Abts, ISCA 2008, §4: UGAL with global knowledge of the
//! queues, the paper's reference for UGAL-L): at the source router, minimal or Valiant by the queues of
//! the global channels the two paths leave the source group by, wherever in the group they are, times
//! the paths' hops; on three virtual-channel classes. Routed by `dragonfly.rs`; docs/models/dragonfly.md.

use super::algorithm::Algorithm;
use super::algorithm::{variant_streams, Facts};
use super::dragonfly::{on_dragonfly, on_wire_part, ugal_unfit, DragonflyRouting, GlobalQueue, Mode, DRAGONFLY};
use crate::error::Error;
use crate::params::{params, Kind, Problem};
use crate::queue_view::QueueView;
use crate::sizing::{Part, Sizing};
use crate::topology::Topology;

params! {
    /// UGAL-G.
    pub struct Params {
        /// Flits of bias toward the minimal path: minimal when q_min · H_min <= q_nm · H_nm + this (q the
        /// flits the credits of the path's global channel out of the source group show downstream, H the
        /// hops of the path; 0 by default; below 0 a bias toward the non-minimal path).
        ugal_threshold: i64 = 0, range(-1_000_000, 1_000_000), unit("flits");
        /// What a global channel's queue counts: `whole`, the flits waiting for the channel in its
        /// router's input buffers and those waiting in the next router's buffers (as the channel's router
        /// knows them); `downstream`, the latter alone (docs/models/dragonfly.md, "Routing").
        global_queue: GlobalQueue = GlobalQueue::Whole;
    }
}

/// Universal globally adaptive load-balanced routing with global information.
pub struct UgalG;

impl Kind for UgalG {
    const NAME: &'static str = "ugal_g";
    const DOC: &'static str = "dragonfly UGAL-G: minimal or Valiant at the source by the two paths' global channel \
                               queues x hops, known globally (three VC classes, needs switch.vcs >= 3 and credit \
                               flow control)";
    type Params = Params;
}

impl Algorithm for UgalG {
    type Runtime = DragonflyRouting;

    fn networks(_: &Params) -> &'static [&'static str] {
        DRAGONFLY
    }

    fn build(p: &Params, vcs: u8, topo: &Topology) -> Result<DragonflyRouting, Error> {
        on_dragonfly(Self::NAME, topo, vcs, Mode::Ugal { threshold: p.ugal_threshold, global: Some(p.global_queue) })
    }

    /// Each source's stream of intermediate groups, each router output's sends on the wire (as UGAL-L),
    /// and the view of every output's queue (`queue_view.rs`).
    fn bytes(_: &Params, n: &Sizing) -> Vec<Part> {
        let view =
            Part { what: "every output's queue", bytes: QueueView::bytes(n.ports), keys: n.network_keys.to_string() };
        vec![variant_streams(n), on_wire_part(n), view]
    }

    fn needs(_: &Params) -> &'static str {
        "`switch.vcs >= 3` (one virtual-channel class per hop class); it decides by credits, so not \
         `switch.flow_control = \"stop_go\"`"
    }

    fn unfit(_: &Params, f: &Facts) -> Vec<Problem> {
        ugal_unfit(Self::NAME, "channels", f)
    }

    fn adaptive(_: &Params) -> bool {
        true
    }
}
