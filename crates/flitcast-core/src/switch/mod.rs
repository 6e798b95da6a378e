//! Switch microarchitectures, one per file implementing [`Model`] (`model.rs`); this file is their
//! registry. A router receives flits and credits from the timing wheel and, each cycle it is active,
//! decides what moves (docs/engine.md).

pub mod alone;
pub mod central_buffer;
pub mod flit_fifo;
pub mod infiniband;
pub mod input_buffered;
pub mod input_fifo;
pub mod model;
pub mod on_wire;
pub mod vc_allocation;
pub mod visit;

pub use alone::Alone;
pub use model::{
    links_of, selection_request, FlowControl, InLink, Model, MoveCounters, OutLink, Site, StepCtx, Timing,
};

use crate::error::BlockedChannel;
use crate::facts::{grouped, needs_text, union_of, Facts};
use crate::family::family;
use crate::packet::Flit;
use crate::params::{or_list_marked, Problem};
use crate::queue_view::QueueView;
use crate::time::Cycle;
use crate::topology::Topology;

family! {
    /// One router: the switch model of the scenario.
    pub enum Router: Model {
        InputBuffered(input_buffered::InputBuffered),
        CentralBuffer(central_buffer::CentralBuffer),
        InputFifo(input_fifo::InputFifo),
        Infiniband(infiniband::Infiniband),
    }
    mut {
        fn step(me: u32, ctx: &mut StepCtx<'_>);
        fn accept_flit(port: u8, vc: u8, flit: Flit, hops: u16, now: Cycle) -> bool;
    }
    ref {
        fn flits() -> u32;
        fn check_accounting() -> Result<(), String>;
        fn window_flits(port: u8) -> u64;
        fn blocked(me: u32, credits: &[u32]) -> Vec<BlockedChannel>;
        fn record_queues(me: u32, now: Cycle, credits: &[u32], view: &QueueView);
    }
    params
    /// The switch model of every router, and its parameters.
    pub enum SwitchKind tag "model"
    static {
        fn flow_control() -> FlowControl;
        fn vcs() -> u32;
        fn buffer_flits() -> u32;
        fn router_delay_cycles() -> u32;
        fn input_delay() -> u32;
        fn bytes(topo: &Topology) -> (u64, u64);
        fn sized_by() -> &'static str;
        fn replicates_on() -> &'static [&'static str];
        fn needs() -> &'static str;
        fn unfit(facts: &Facts) -> Vec<Problem>;
    }
    build(site: &Site<'_>);
}

/// Which switches replicate multidestination worms on which networks, as the kinds declare it
/// (`Model::replicates_on`): "'central_buffer' or 'input_fifo' on a fat_tree or sp16, 'infiniband' on a
/// mesh", the switches' names between `kind_marks` and the networks' between `network_marks`.
pub fn replicating(kind_marks: (&str, &str), network_marks: (&str, &str)) -> String {
    let of = |name| SwitchKind::of_name(name).expect("a registered name").replicates_on();
    let groups = grouped(SwitchKind::NAMES, of);
    let each = groups.iter().filter(|(networks, _)| !networks.is_empty()).map(|(networks, kinds)| {
        format!("{} on a {}", or_list_marked(kinds, kind_marks), or_list_marked(networks, network_marks))
    });
    each.collect::<Vec<_>>().join(", ")
}

/// The networks on which some switch replicates multidestination worms.
pub fn replicating_networks() -> Vec<&'static str> {
    union_of(SwitchKind::NAMES, |name| SwitchKind::of_name(name).expect("a registered name").replicates_on().to_vec())
}

/// What each switch needs of the rest of the scenario, as the kinds declare it (`Model::needs`).
pub fn needs() -> String {
    needs_text(SwitchKind::NAMES, |name| SwitchKind::of_name(name).expect("a registered name").needs())
}
