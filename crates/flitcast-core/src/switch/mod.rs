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
pub mod visit;

pub use alone::Alone;
pub use model::{
    links_of, selection_request, FlowControl, InLink, Model, MoveCounters, OutLink, Site, StepCtx, Timing,
};

use crate::error::BlockedChannel;
use crate::family::family;
use crate::packet::Flit;
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
    }
    build(site: &Site<'_>);
}
