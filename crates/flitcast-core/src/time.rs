//! Simulated time.

/// Simulated time, in cycles.
pub type Cycle = u64;
