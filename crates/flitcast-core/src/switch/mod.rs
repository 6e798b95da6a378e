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

pub use alone::Alone;
pub use model::{links_of, steering_terminal, InLink, Model, MoveCounters, OutLink, Site, StepCtx};

use crate::error::BlockedChannel;
use crate::family::family;
use crate::packet::Flit;
use crate::scenario::{Switch, SwitchModel};
use crate::topology::Topology;
use crate::Cycle;

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
}

impl Router {
    /// Router `site.router`: the switch `sw`.
    pub fn build(sw: &Switch, site: &Site) -> Router {
        match sw.model {
            SwitchModel::InputBuffered => Router::InputBuffered(Model::new(sw, site)),
            SwitchModel::CentralBuffer => Router::CentralBuffer(Model::new(sw, site)),
            SwitchModel::InputFifo => Router::InputFifo(Model::new(sw, site)),
            SwitchModel::Infiniband => Router::Infiniband(Model::new(sw, site)),
        }
    }

    /// Bytes all routers of `topo` need with the switch `sw`: (flit buffers, everything else).
    pub fn bytes(sw: &Switch, topo: &Topology) -> (u64, u64) {
        match sw.model {
            SwitchModel::InputBuffered => <input_buffered::InputBuffered as Model>::bytes(sw, topo),
            SwitchModel::CentralBuffer => <central_buffer::CentralBuffer as Model>::bytes(sw, topo),
            SwitchModel::InputFifo => <input_fifo::InputFifo as Model>::bytes(sw, topo),
            SwitchModel::Infiniband => <infiniband::Infiniband as Model>::bytes(sw, topo),
        }
    }
}
