//! Switch microarchitectures, one per file. A router receives flits and credits from the timing
//! wheel, and each cycle it is active it decides what moves and sends flits and credits back into
//! the wheel through a [`StepCtx`]. It reads only its own state, so visit order cannot leak into
//! results.

pub mod input_buffered;

use crate::error::BlockedChannel;
use crate::packet::{Flit, Packet, Slab};
use crate::routing::Routing;
use crate::scenario::Scenario;
use crate::topology::{PortLink, Topology};
use crate::wheel::{Event, Wheel};
use crate::Cycle;

/// Counters routers update as flits move.
#[derive(Debug, Clone, Default)]
pub struct MoveCounters {
    /// Flit router traversals over the whole run.
    pub flit_hops: u64,
    /// Last cycle any flit moved (deadlock watchdog).
    pub last_progress: Cycle,
    /// Flits sent on each router output channel during the measurement window (per port index).
    pub channel_flits: Vec<u64>,
}

/// What a router may touch while it steps: read-only shared structure, and the outbox.
pub struct StepCtx<'a> {
    pub now: Cycle,
    pub topo: &'a Topology,
    pub routing: &'a Routing,
    pub packets: &'a mut Slab<Packet>,
    pub wheel: &'a mut Wheel,
    pub counters: &'a mut MoveCounters,
    pub measuring: bool,
}

impl StepCtx<'_> {
    /// Sends `flit` out of (`router`, `port`) on virtual channel `vc`.
    #[inline]
    pub fn send_flit(&mut self, router: u32, port: u8, vc: u8, flit: Flit) {
        let idx = self.topo.port_index(router, port);
        let at = self.now + self.topo.latency[idx] as Cycle;
        self.counters.flit_hops += 1;
        self.counters.last_progress = self.now;
        if self.measuring {
            self.counters.channel_flits[idx] += 1;
        }
        match self.topo.links[idx] {
            PortLink::Router { router: to, port: in_port } => {
                if flit.head() {
                    self.packets[flit.packet()].hops += 1;
                }
                self.wheel.schedule_flit(at, Event::FlitToRouter { router: to, port: in_port, vc, flit });
            }
            PortLink::Terminal { terminal } => self.wheel.schedule_flit(at, Event::FlitToTerminal { terminal, vc, flit }),
            PortLink::Unused => unreachable!("routing chose an unconnected port r{router}.p{port}"),
        }
    }

    /// Returns a credit for a freed slot of input (`router`, `port`, `vc`) to whoever feeds it.
    #[inline]
    pub fn send_credit(&mut self, router: u32, port: u8, vc: u8) {
        let idx = self.topo.port_index(router, port);
        match self.topo.inputs[idx] {
            PortLink::Router { router: up, port: up_port } => {
                // Credits travel back over the feeding channel's wires, with its latency.
                let at = self.now + self.topo.latency[self.topo.port_index(up, up_port)] as Cycle;
                self.wheel.schedule(at, Event::CreditToRouter { router: up, port: up_port, vc })
            }
            PortLink::Terminal { terminal } => {
                let at = self.now + self.topo.terminal_latency[terminal as usize] as Cycle;
                self.wheel.schedule(at, Event::CreditToTerminal { terminal, vc })
            }
            PortLink::Unused => unreachable!("flit arrived on an unconnected port"),
        }
    }
}

#[derive(Debug, Clone)]
pub enum Router {
    InputBuffered(input_buffered::InputBuffered),
}

impl Router {
    pub fn build(s: &Scenario, topo: &Topology, router: u32) -> Router {
        Router::InputBuffered(input_buffered::InputBuffered::new(s, topo, router))
    }

    #[inline]
    pub fn step(&mut self, me: u32, ctx: &mut StepCtx) {
        match self {
            Router::InputBuffered(r) => r.step(me, ctx),
        }
    }
    /// A flit arrives on (`port`, `vc`); false if the buffer overflowed (a flow-control bug).
    #[inline]
    pub fn accept_flit(&mut self, now: Cycle, port: u8, vc: u8, flit: Flit) -> bool {
        match self {
            Router::InputBuffered(r) => r.accept_flit(now, port, vc, flit),
        }
    }
    #[inline]
    pub fn accept_credit(&mut self, port: u8, vc: u8) {
        match self {
            Router::InputBuffered(r) => r.accept_credit(port, vc),
        }
    }
    /// Flits held in this router's buffers.
    #[inline]
    pub fn flits(&self) -> u32 {
        match self {
            Router::InputBuffered(r) => r.flits(),
        }
    }
    /// Every non-empty buffer and why its head cannot move (for the deadlock report).
    pub fn blocked(&self, me: u32, now: Cycle) -> Vec<BlockedChannel> {
        match self {
            Router::InputBuffered(r) => r.blocked(me, now),
        }
    }
}
