//! Hosts: their network interfaces (`nic.rs`), the programs that decide what they send
//! (`program.rs`, one program per file), and the accounting of what they receive (`delivery.rs`).
//! docs/engine.md, "Hosts".

pub mod adapter;
pub mod batch;
pub mod delivery;
pub mod hardware_multicast;
pub mod nic;
pub mod open_loop;
pub mod operations;
pub mod program;
pub mod rooted_tree;
pub mod software_torus;
pub mod torus_multicast;
pub mod u_min;

pub use nic::Nic;
