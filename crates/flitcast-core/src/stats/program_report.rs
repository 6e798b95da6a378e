//! What a host program measured beyond the engine's statistics (the program's `report`, carried in a
//! run's result; docs/results.md).

use crate::time::Cycle;

/// What a program measured beyond the engine's statistics (study 004's software multicast;
/// docs/results.md). Each is None until reached: a multicast that did not finish has no concurrency,
/// a root that did not finish sending no busy time.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Report {
    /// Cycles the root's processor spent sending, once it has sent its last message.
    pub root_busy: Option<Cycle>,
    /// Link visits / links used, and the most messages in transit at once (from the sender's overhead
    /// to the receiver's), once every destination has received.
    pub link_concentration: Option<f64>,
    pub concurrency: Option<u64>,
    /// A collective's α-β-γ estimate of its completion, in cycles (`collective/estimate.rs`).
    pub estimate: Option<u64>,
}
