//! What a routing algorithm a scenario names implements (the registry is `mod.rs`).

use crate::params::Kind;
use crate::selection::{SelectionHistory, SelectionKind};

/// A routing algorithm a scenario names (`routing.algorithm`), one per file.
pub trait Algorithm: Kind {
    /// The selection function among the granted candidates.
    fn selection(_: &Self::Params) -> SelectionKind {
        SelectionKind::FirstFree(Default::default())
    }
    /// Whether a hop may offer several outputs for the selection function to choose among (a switch
    /// that forwards by table, one output per destination, cannot take such a routing).
    fn adaptive(_: &Self::Params) -> bool {
        false
    }
    /// Which hops update the selection function's history.
    fn selection_history(_: &Self::Params) -> SelectionHistory {
        SelectionHistory::EveryHop
    }
}
