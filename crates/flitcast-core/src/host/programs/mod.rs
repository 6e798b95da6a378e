//! The host programs, one per file implementing [`Program`] (`host/program.rs`); this file is their
//! registry. Every host of a simulation runs the same program (docs/engine.md, "Hosts").
//!
//! * `open_loop`: every open-network unicast workload — a Poisson or Bernoulli source per host, a
//!   traffic pattern;
//! * `software_multicast`: m-way multicasts as unicasts along the binomial U-Min tree (study 000 §7);
//! * `hardware_multicast`: m-way multicasts as multidestination worms (study 000 §3–5);
//! * `batch`: a closed batch of multicasts from cycle 0 (study 003 §4);
//! * `host_adapter`: a fixed group's reliable multicast at the host adapters (study 001);
//! * `torus_multicast`: one software multicast on a unidirectional torus (study 004).

pub mod batch;
pub mod hardware_multicast;
pub mod host_adapter;
pub mod open_loop;
pub mod software_multicast;
pub mod torus_multicast;

use crate::family::family;
use crate::host::program::{Arriving, Delivered, Outbox, Program, Report};
use crate::scenario::{MulticastScheme, Scenario};
use crate::topology::Topology;
use crate::workload::operations::Operations;
use crate::workload::{self, Pattern};
use crate::Cycle;

family! {
    /// The program every host runs.
    pub enum Programs: Program {
        OpenLoop(open_loop::OpenLoop),
        SoftwareMulticast(software_multicast::SoftwareMulticast),
        HardwareMulticast(hardware_multicast::HardwareMulticast),
        Batch(batch::Batch),
        HostAdapter(host_adapter::HostAdapter),
        TorusMulticast(torus_multicast::TorusMulticast),
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
}

impl Programs {
    /// The program of scenario `s` on the network `topo`.
    pub fn build(s: &Scenario, topo: &Topology) -> Programs {
        let (wl, seed, nodes) = (&s.workload, s.run.seed, topo.terminals() as u32);
        if wl.multicast_group_size > 0 {
            return Programs::TorusMulticast(torus_multicast::TorusMulticast::of(s));
        }
        if !wl.multicast_group.is_empty() {
            return Programs::HostAdapter(host_adapter::HostAdapter::new(s, topo));
        }
        if wl.batch_sources > 0.0 {
            return Programs::Batch(batch::Batch::new(
                nodes,
                wl.batch_sources,
                wl.batch_group,
                wl.multicast_scheme,
                wl.message_flits,
                s.worm_header_flits(nodes),
                seed,
            ));
        }
        if wl.multicast_destinations == 0 {
            return Programs::OpenLoop(open_loop::OpenLoop::new(
                Pattern::build(wl, &s.network, nodes),
                workload::sources(wl, seed, nodes),
                wl.message_flits,
            ));
        }
        // (load is the effective applied load m·B_i: operations.rs sets their rate)
        let operations = Operations::new(wl, seed, nodes);
        match wl.multicast_scheme {
            MulticastScheme::Software => Programs::SoftwareMulticast(software_multicast::SoftwareMulticast::new(
                operations,
                wl.message_flits,
                wl.multicast_forward_cycles,
            )),
            MulticastScheme::Hardware => Programs::HardwareMulticast(hardware_multicast::HardwareMulticast::new(
                operations,
                wl.message_flits,
                s.worm_header_flits(nodes),
            )),
            other => unreachable!("{other:?} is for closed batches or fixed groups (validate.rs refuses it here)"),
        }
    }
}
