//! A router stepped on its own, outside a simulation (unit tests, benches).

use super::model::{MoveCounters, StepCtx};
use crate::dest_set::DestSets;
use crate::packet::{Packet, Slab};
use crate::queue_view::QueueView;
use crate::routing::Routing;
use crate::time::Cycle;
use crate::topology::Topology;
use crate::wheel::{Wheel, ROUTERS, TERMINALS};

/// What a [`StepCtx`] borrows, owned.
pub struct Alone {
    pub topo: Topology,
    pub routing: Routing,
    pub packets: Slab<Packet>,
    pub sets: DestSets,
    pub wheel: Wheel,
    pub credits: Vec<u32>,
    pub counters: MoveCounters,
    /// Other routers' queues (UGAL-G): none recorded here, a router stepped alone reads 0.
    pub view: QueueView,
}

impl Alone {
    /// `topo` routed by `routing`, every lane's counter from `credits`, no packet yet.
    pub fn new(topo: Topology, routing: Routing, credits: Vec<u32>) -> Alone {
        let sets = DestSets::new(topo.terminals());
        let wheel = Wheel::new(topo.latency.iter().copied().max().unwrap_or(1) + 16);
        let view = QueueView::new(&topo, routing.reads_anywhere());
        Alone { topo, routing, packets: Slab::default(), sets, wheel, credits, counters: MoveCounters::default(), view }
    }

    /// One cycle at `now`: `step` runs with a context; the flits sent leave (nobody receives them) and
    /// the credits due arrive.
    pub fn cycle(&mut self, now: Cycle, step: impl FnOnce(&mut StepCtx)) {
        let mut ctx = StepCtx {
            now,
            topo: &self.topo,
            routing: &self.routing,
            packets: &self.packets,
            sets: &self.sets,
            wheel: &mut self.wheel,
            credits: &mut self.credits,
            counters: &mut self.counters,
            measuring: false,
            view: &self.view,
        };
        step(&mut ctx);
        for part in [ROUTERS, TERMINALS] {
            let due = self.wheel.take(now, part);
            self.wheel.recycle(due, part);
        }
        self.wheel.deliver_credits(now, &mut self.credits);
    }
}
