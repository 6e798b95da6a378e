//! Hosts and network interfaces. Now: the open-network NIC with an infinite source queue and
//! immediate ejection. Host multicast programs (studies 000, 001, 004) arrive as `programs/`.

pub mod nic;

pub use nic::Nic;
