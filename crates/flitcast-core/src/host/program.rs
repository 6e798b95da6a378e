//! Host programs: what each host does when one of its timers fires or a message reaches it
//! (docs/engine.md, "Hosts"). A program never touches the network: it asks its host to send
//! messages and to set timers through an [`Outbox`], and the engine carries the requests out after
//! the call, so programs of different hosts cannot see each other's state.
//!
//! Programs, one per file: `open_loop.rs` (every open-network unicast workload: a Poisson or
//! Bernoulli source per host, a traffic pattern), `u_min.rs` (software multicast along the
//! binomial U-Min tree) and `hardware_multicast.rs` (multidestination worms); the multicast
//! programs draw their operations from `operations.rs`; `adapter.rs` is the reliable multicast of
//! study 001's host adapters, which also sees each message's head arrive (and may refuse it), learns
//! when its own messages have left, forwards in cut-through, and opens operations before it sends.

use super::adapter::Adapter;
use super::batch::Batch;
use super::hardware_multicast::HardwareMulticast;
use super::open_loop::OpenLoop;
use super::software_torus::{Report, SoftwareTorus};
use super::u_min::UMin;
use crate::Cycle;

/// Where a message goes: one host, or every member of a list (a multicast message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    One(u32),
    Set(Vec<u32>),
}

/// The statistics operation a message serves (docs/results.md, "Operations").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Serves {
    /// A new operation whose destinations are the message's own (an open-loop message, a
    /// hardware multicast): it completes when each of them has received the message.
    NewOperation,
    /// A new operation with these destinations, of which the message reaches some (the first
    /// unicast of a software multicast).
    Open(Vec<u32>),
    /// The operation the previous message of the same program call serves.
    Previous,
    /// An operation begun earlier (a relay of a software multicast): each host it reaches counts as
    /// one of that operation's destinations.
    Operation(u32),
    /// No operation: protocol traffic (study 001's ACK, NACK and READY control worms).
    Nothing,
}

/// Which of a host's queues a message waits in: its NIC sends the oldest message of the most urgent
/// non-empty queue next, never interrupting a message under way (study 001 §5: "multicast transmission
/// and multicast worm forwarding have priority over local unicast transmissions").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    Control = 0,
    Multicast = 1,
    Unicast = 2,
}

/// A message a program asks its host to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Send {
    pub src: u32,
    pub target: Target,
    /// Payload flits (the loads count these).
    pub flits: u32,
    /// Extra header flits each of its packets carries (a multidestination worm's bit string).
    pub header_flits: u32,
    pub serves: Serves,
    /// The program's own payload, handed back with the message on delivery.
    pub tag: u64,
    pub priority: Priority,
    /// Forward in cut-through: the message copies one arriving at this host (its [`Arriving::handle`]),
    /// and none of its flits leaves before the same flit of that one has arrived.
    pub cut_through: Option<u32>,
}

/// A message whose head has just reached a host (the host may refuse it: [`Programs::on_head`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arriving {
    pub src: u32,
    pub flits: u32,
    pub operation: u32,
    pub tag: u64,
    /// Names the arriving message for [`Send::cut_through`] until its tail has arrived.
    pub handle: u32,
}

/// A message as its destination host receives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delivered {
    pub src: u32,
    pub flits: u32,
    pub operation: u32,
    pub tag: u64,
}

/// What programs asked for during one call.
#[derive(Debug, Default)]
pub struct Outbox {
    pub sends: Vec<Send>,
    /// (when, host, tag): the host's program is called back with `tag` at `when`.
    pub timers: Vec<(Cycle, u32, u32)>,
    /// (host, tag, destinations, flits): open an operation now and call the host's program back with
    /// its id ([`Programs::on_opened`]): an operation that starts before its first message leaves.
    pub opens: Vec<(u32, u64, Vec<u32>, u32)>,
}

impl Outbox {
    pub fn is_empty(&self) -> bool {
        self.sends.is_empty() && self.timers.is_empty() && self.opens.is_empty()
    }
}

/// The programs of all hosts (one kind per simulation).
#[derive(Debug, Clone)]
pub enum Programs {
    OpenLoop(OpenLoop),
    UMin(UMin),
    Hardware(HardwareMulticast),
    Batch(Batch),
    Adapter(Box<Adapter>),
    SoftwareTorus(Box<SoftwareTorus>),
}

impl Programs {
    /// Every host's first timers.
    pub fn start(&mut self, out: &mut Outbox) {
        match self {
            Programs::OpenLoop(p) => p.start(out),
            Programs::UMin(p) => p.start(out),
            Programs::Hardware(p) => p.start(out),
            Programs::Batch(p) => p.start(out),
            Programs::Adapter(p) => p.start(out),
            Programs::SoftwareTorus(p) => p.start(out),
        }
    }

    /// What a program measured beyond the engine's statistics (study 004's metrics).
    pub fn report(&self) -> Option<Report> {
        match self {
            Programs::SoftwareTorus(p) => Some(p.report()),
            _ => None,
        }
    }

    /// True for programs that see heads arrive and their messages leave (`on_head`, `on_sent`).
    #[inline]
    pub fn reacts_to_flits(&self) -> bool {
        matches!(self, Programs::Adapter(_))
    }

    /// The head of `message` reached `host`: false refuses it (its flits are drained and dropped,
    /// and it serves nobody).
    pub fn on_head(&mut self, host: u32, message: &Arriving, now: Cycle, out: &mut Outbox) -> bool {
        match self {
            Programs::Adapter(p) => p.on_head(host, message, now, out),
            _ => true,
        }
    }

    /// The last flit of `host`'s message `tag` left its NIC.
    pub fn on_sent(&mut self, host: u32, tag: u64, now: Cycle, out: &mut Outbox) {
        if let Programs::Adapter(p) = self {
            p.on_sent(host, tag, now, out);
        }
    }

    /// The operation `host` asked to open with `tag` has id `operation`.
    pub fn on_opened(&mut self, host: u32, tag: u64, operation: u32, now: Cycle, out: &mut Outbox) {
        match self {
            Programs::Adapter(p) => p.on_opened(host, tag, operation, now, out),
            Programs::SoftwareTorus(p) => p.on_opened(host, tag, operation, now, out),
            _ => {}
        }
    }

    /// Flits the programs hold that their hosts have not handed to their NICs yet (a source queue
    /// kept by the program).
    pub fn queued_flits(&self) -> u64 {
        match self {
            Programs::Adapter(p) => p.queued_flits(),
            _ => 0,
        }
    }

    /// `host`'s timer `tag` fired at `now`.
    #[inline]
    pub fn on_timer(&mut self, host: u32, tag: u32, now: Cycle, out: &mut Outbox) {
        match self {
            Programs::OpenLoop(p) => p.on_timer(host, tag, now, out),
            Programs::UMin(p) => p.on_timer(host, tag, now, out),
            Programs::Hardware(p) => p.on_timer(host, out),
            Programs::Batch(p) => p.on_timer(host, out),
            Programs::Adapter(p) => p.on_timer(host, tag, now, out),
            Programs::SoftwareTorus(p) => p.on_timer(host, tag, now, out),
        }
    }

    /// A whole message reached `host` at `now`.
    #[inline]
    pub fn on_delivered(&mut self, host: u32, message: &Delivered, now: Cycle, out: &mut Outbox) {
        match self {
            Programs::OpenLoop(_) | Programs::Hardware(_) | Programs::Batch(_) => {
                let _ = (host, message, now, out); // open-loop sources do not react to deliveries
            }
            Programs::UMin(p) => p.on_delivered(host, message, now, out),
            Programs::Adapter(p) => p.on_delivered(host, message, now, out),
            Programs::SoftwareTorus(p) => p.on_delivered(host, message, now, out),
        }
    }
}
