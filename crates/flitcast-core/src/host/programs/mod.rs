//! The host programs, one per file implementing [`Program`] (`host/program.rs`); this file is their
//! registry. Every host of a simulation runs the same program (docs/engine.md, "Hosts").
//!
//! * `open_loop`: every open-network unicast workload — a Poisson or Bernoulli source per host, a
//!   traffic pattern;
//! * `software_multicast`: m-way multicasts as unicasts along the binomial U-Min tree (study 000 §7);
//! * `hardware_multicast`: m-way multicasts as multidestination worms (study 000 §3–5);
//! * `batch`: a closed batch of multicasts from cycle 0 (study 003 §4);
//! * `host_adapter`: a fixed group's reliable multicast at the host adapters (study 001);
//! * `torus_multicast`: one software multicast on a unidirectional torus (study 004);
//! * `collective`: one collective operation over a group of hosts (docs/models/collectives.md).

pub mod batch;
pub mod collective;
pub mod hardware_multicast;
pub mod host_adapter;
pub mod multiway;
pub mod open_loop;
pub mod software_multicast;
pub mod torus_multicast;

use crate::facts::{needs_text, Facts};
use crate::family::family;
use crate::host::program::{Arriving, Delivered, Outbox, Program, Site};
use crate::params::Problem;
use crate::sizing::{Part, Sizing};
use crate::stats::Report;
use crate::time::Cycle;

family! {
    /// The program every host runs.
    pub enum Programs: Program {
        OpenLoop(open_loop::OpenLoop),
        SoftwareMulticast(software_multicast::SoftwareMulticast),
        HardwareMulticast(hardware_multicast::HardwareMulticast),
        Batch(batch::Batch),
        HostAdapter(host_adapter::HostAdapter),
        TorusMulticast(torus_multicast::TorusMulticast),
        Collective(collective::Collective),
    }
    mut {
        fn start(out: &mut Outbox);
        fn on_timer(host: u32, tag: u32, now: Cycle, out: &mut Outbox);
        fn on_delivered(host: u32, message: &Delivered, now: Cycle, out: &mut Outbox);
        fn on_head(host: u32, message: &Arriving, now: Cycle, out: &mut Outbox) -> bool;
        fn on_sent(host: u32, tag: u64, now: Cycle, out: &mut Outbox);
        fn on_opened(host: u32, tag: u64, operation: u32, now: Cycle, out: &mut Outbox);
        fn begin_multicast(src: u32, dests: Vec<u32>, out: &mut Outbox) -> bool;
    }
    ref {
        fn sees_flits() -> bool;
        fn queued_flits() -> u64;
        fn report() -> Option<Report>;
    }
    params
    /// The program every host runs, and its parameters.
    pub enum ProgramKind tag "program"
    static {
        fn load() -> f64;
        fn closed() -> bool;
        fn multidestination() -> bool;
        fn multicast_degree() -> Option<u32>;
        fn header_flits() -> Option<u32>;
        fn header_bytes() -> (u32, u32);
        fn bytes(sizing: &Sizing) -> Vec<Part>;
        fn live_packets(sizing: &Sizing) -> Option<u64>;
        fn needs() -> &'static str;
        fn unfit(facts: &Facts) -> Vec<Problem>;
    }
    build(site: &Site<'_>);
}

/// What each program needs of the rest of the scenario, as the kinds declare it (`Program::needs`).
pub fn needs() -> String {
    needs_text(ProgramKind::NAMES, |name| ProgramKind::of_name(name).expect("a registered name").needs())
}
