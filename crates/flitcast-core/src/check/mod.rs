//! Build-time checks of a network and its routing (docs/engine.md, "Invariants checked on every run"),
//! and the InfiniBand subnet manager's tables the mesh's multicast routing is checked against (`check/subnet/`);
//! a routing that passed is checked once per process (`verified.rs`).

pub mod fan_out;
pub mod routes;
pub mod subnet;
pub mod verified;
