//! Hosts: their network interfaces (`nic.rs`), the programs that decide what they send (the vocabulary
//! in `program.rs`, one program per file in `programs/`), the accounting of what they receive
//! (`delivery.rs`), and the hosts of a simulation as one component the engine steps (`hosts.rs`).
//! docs/engine.md, "Hosts".

pub mod delivery;
pub mod hosts;
pub mod nic;
pub mod nics;
pub mod program;
pub mod programs;

pub use nic::Nic;
