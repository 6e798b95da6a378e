//! Build-time checks of a network and its routing (docs/engine.md, "Invariants checked on every run").

pub mod fan_out;
pub mod routes;
