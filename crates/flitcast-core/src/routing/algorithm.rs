//! What a routing algorithm a scenario names implements (the registry is `mod.rs`).

use crate::params::Kind;
use crate::selection::{SelectionHistory, SelectionKind};

/// A routing algorithm a scenario names (`routing.algorithm`), one per file.
pub trait Algorithm: Kind {
    /// The selection function among the granted candidates.
    fn selection(_: &Self::Params) -> SelectionKind {
        SelectionKind::FirstFree(Default::default())
    }
    /// Which hops update the selection function's history.
    fn selection_history(_: &Self::Params) -> SelectionHistory {
        SelectionHistory::EveryHop
    }
}
