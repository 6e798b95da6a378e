//! Host programs: what each host does when one of its timers fires or a message reaches it
//! (docs/engine.md, "Hosts"). A program never touches the network: it asks its host to send
//! messages and to set timers through an [`Outbox`], and the engine carries the requests out after
//! the call, so programs of different hosts cannot see each other's state.
//!
//! Programs, one per file: `open_loop.rs` (every open-network unicast workload: a Poisson or
//! Bernoulli source per host, a traffic pattern), `u_min.rs` (software multicast along the
//! binomial U-Min tree) and `hardware_multicast.rs` (multidestination worms); the multicast
//! programs draw their operations from `operations.rs`. Further host protocols (reliable multicast with retransmission timers) are
//! more programs behind the same calls.

use super::batch::Batch;
use super::hardware_multicast::HardwareMulticast;
use super::open_loop::OpenLoop;
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
}

/// The programs of all hosts (one kind per simulation).
#[derive(Debug, Clone)]
pub enum Programs {
    OpenLoop(OpenLoop),
    UMin(UMin),
    Hardware(HardwareMulticast),
    Batch(Batch),
}

impl Programs {
    /// Every host's first timers.
    pub fn start(&mut self, out: &mut Outbox) {
        match self {
            Programs::OpenLoop(p) => p.start(out),
            Programs::UMin(p) => p.start(out),
            Programs::Hardware(p) => p.start(out),
            Programs::Batch(p) => p.start(out),
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
        }
    }
}
