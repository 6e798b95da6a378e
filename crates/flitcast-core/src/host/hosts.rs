//! The hosts of a simulation: their NICs (`nic.rs`), the program they all run (`programs/`), their
//! timers, and the accounting of what they send and receive (`delivery.rs`; docs/engine.md, "Hosts").
//!
//! The engine calls the hosts at three points of a cycle: a flit reaching a terminal
//! ([`Hosts::eject`]), the timers due ([`Hosts::fire_timers`]) and the NICs' injection
//! ([`Hosts::step_nics`]). Whatever a program asks for in a call — messages, timers, operations to open —
//! is carried out right after it, so the program of one host never sees another's state mid-call.
//!
//! When a run is split across threads (`regions.rs`), the regions step the NICs (`nics.rs`) and
//! [`Hosts::nics_stepped`] takes what they did; every other call still runs on the engine's thread
//! alone, in the order one thread makes it — which keeps packet and message ids, the programs' calls and
//! the statistics the same for any thread count (docs/engine.md, "Regions").

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Arc, Mutex};

use super::delivery::Deliveries;
use super::nic::Nic;
use super::nics::{lock, NicChunk, NicStep, Nics};
use super::program::{Arriving, Delivered, Outbox, Send, Serves, Target};
use super::programs::Programs;
use crate::dest_set::DestSets;
use crate::error::Error;
use crate::packet::{Dest, Flit, Packet, Slab};
use crate::routing::variants::Variants;
use crate::routing::Routing;
use crate::stats::Collector;
use crate::switch::MoveCounters;
use crate::time::Cycle;
use crate::topology::Topology;
use crate::wheel::Wheel;

/// The operation of a message that serves none (`Serves::Nothing`).
const NO_OPERATION: u32 = u32::MAX;

/// What the hosts touch of the simulation during a call: the network's shared state, borrowed.
pub struct Net<'a> {
    pub now: Cycle,
    pub topo: &'a Topology,
    pub routing: &'a Routing,
    pub variants: &'a mut Variants,
    pub packets: &'a mut Slab<Packet>,
    pub sets: &'a mut DestSets,
    pub wheel: &'a mut Wheel,
    pub credits: &'a mut [u32],
    pub counters: &'a mut MoveCounters,
    pub stats: &'a mut Collector,
}

/// How the hosts' NICs inject and what bounds a run's live state.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub packet_flits: u32,
    /// Virtual cut-through: a head leaves only with room downstream for its whole packet.
    pub vct: bool,
    /// Cycles from a flit's arrival at a router until it may leave its input FIFO.
    pub input_delay: Cycle,
    /// Past this many live packets the run stops, saturated (`memory::max_live_packets`).
    pub max_live_packets: u64,
    /// Past this many incomplete operations the run stops, saturated (`memory::max_live_operations`).
    pub max_live_operations: u64,
}

#[derive(Debug)]
pub struct Hosts {
    /// The NICs, in chunks of terminals (one per region when regions run on threads).
    nics: Nics,
    programs: Programs,
    /// The program sees heads arrive and its messages leave (`Program::sees_flits`), read per flit.
    sees_flits: bool,
    /// What the hosts sent and what it serves.
    deliveries: Deliveries,
    /// Requests of the program call being carried out (kept to reuse its vectors).
    outbox: Outbox,
    /// The programs' timers: (when, host, tag), earliest first (ties by host: deterministic).
    timers: BinaryHeap<Reverse<(Cycle, u32, u32)>>,
    /// The operation the last message sent serves (`Serves::Previous`).
    last_operation: u32,
    /// (terminal, packet): arriving packets a host refused; their flits are drained and dropped.
    refused: Vec<(u32, u32)>,
    /// Tails that left NICs this cycle, for programs that want to know.
    sent_tails: Vec<(u32, u32)>,
    /// By class (unicast, multicast): operations pending, and the last cycle one of them served a
    /// destination or was opened with none of its class pending (the hosts' buffer-deadlock watchdog:
    /// background unicasts moving must not hide stalled multicasts).
    pending: [u64; 2],
    last_served: [Cycle; 2],
    /// Flits created but not yet injected (source queues).
    backlog: u64,
    injected_flits: u64,
    ejected_flits: u64,
    limits: Limits,
}

impl Hosts {
    /// `programs` on every terminal of `topo`, each NIC's injection channel on its credit lanes, the
    /// NICs in `chunks` chunks (`nics.rs`).
    pub fn new(programs: Programs, nics: Vec<Nic>, chunks: usize, limits: Limits) -> Hosts {
        Hosts {
            sees_flits: programs.sees_flits(),
            programs,
            nics: Nics::new(nics, chunks),
            deliveries: Deliveries::default(),
            outbox: Outbox::default(),
            timers: BinaryHeap::new(),
            last_operation: 0,
            refused: Vec::new(),
            sent_tails: Vec::new(),
            pending: [0; 2],
            last_served: [0; 2],
            backlog: 0,
            injected_flits: 0,
            ejected_flits: 0,
            limits,
        }
    }

    pub fn programs(&self) -> &Programs {
        &self.programs
    }

    /// Every host's first timers.
    pub fn start(&mut self, net: &mut Net) -> Result<(), Error> {
        self.programs.start(&mut self.outbox);
        self.carry_out(net)
    }

    /// `src` starts a multicast to `dests` as its program sends them (zero-load probes); false if the
    /// program has none.
    pub fn begin_multicast(&mut self, net: &mut Net, src: u32, dests: Vec<u32>) -> Result<bool, Error> {
        if !self.programs.begin_multicast(src, dests, &mut self.outbox) {
            return Ok(false);
        }
        self.carry_out(net)?;
        Ok(true)
    }

    /// Nothing for the NICs to inject and no timer: the next cycle anything happens at the hosts.
    pub fn next_timer(&self) -> Option<Cycle> {
        self.timers.peek().map(|Reverse((t, ..))| *t)
    }

    pub fn idle(&self) -> bool {
        self.nics.idle()
    }

    pub fn injected_flits(&self) -> u64 {
        self.injected_flits
    }

    pub fn ejected_flits(&self) -> u64 {
        self.ejected_flits
    }

    /// Flits terminal `t` sent on its injection channel during the window.
    pub fn injection_flits(&self, t: usize) -> u64 {
        self.nics.window_flits(t as u32)
    }

    /// Flits created and not yet injected: in the NICs' source queues, and in queues a program keeps
    /// before its NIC (a host adapter's transmission queue).
    pub fn source_backlog(&self) -> u64 {
        self.backlog + self.programs.queued_flits()
    }

    /// The hosts' watchdog: operations wait at hosts that wait on each other's reception buffers, yet
    /// no destination was served for `idle` cycles (flits may still move: refused worms and their
    /// retransmissions) — or no multicast destination was, while unicasts still flow. Multicasts go
    /// before unicasts at every NIC (study 001 §5), so unicasts cannot starve them: stalled multicasts
    /// are a deadlock, while unicasts that wait behind saturating multicasts are not. Only programs that
    /// see flits wait on buffers this way.
    pub fn buffer_deadlock(&self, now: Cycle, idle: Cycle, refused: u64) -> Option<Error> {
        let pending = self.pending[0] + self.pending[1];
        let any = pending > 0 && now - self.last_served[0].max(self.last_served[1]) >= idle;
        let multicast = self.pending[1] > 0 && now - self.last_served[1] >= idle;
        (self.sees_flits && (any || multicast)).then(|| Error::AdapterDeadlock {
            cycle: now,
            idle,
            multicast,
            pending: if multicast { self.pending[1] } else { pending },
            refused,
        })
    }

    /// Fires the timers due at `net.now`.
    pub fn fire_timers(&mut self, net: &mut Net) -> Result<(), Error> {
        while let Some(&Reverse((t, host, tag))) = self.timers.peek() {
            if t > net.now {
                break;
            }
            self.timers.pop();
            self.programs.on_timer(host, tag, net.now, &mut self.outbox);
            self.carry_out(net)?;
        }
        Ok(())
    }

    /// Carries out what the last program call asked for: its operations, its messages, its timers.
    #[inline]
    fn carry_out(&mut self, net: &mut Net) -> Result<(), Error> {
        if self.outbox.is_empty() {
            return Ok(());
        }
        self.carry_out_requests(net)
    }

    fn carry_out_requests(&mut self, net: &mut Net) -> Result<(), Error> {
        // (opening calls the program back, which may ask for more: carried out before its sends)
        while !self.outbox.opens.is_empty() {
            let opens = std::mem::take(&mut self.outbox.opens);
            for open in opens {
                let operation = self.open_operation(net, &open.destinations, open.flits, open.delivers, true);
                self.programs.on_opened(open.host, open.tag, operation, net.now, &mut self.outbox);
            }
        }
        let mut sends = std::mem::take(&mut self.outbox.sends);
        for send in sends.drain(..) {
            self.send(net, send)?;
        }
        self.outbox.sends = sends;
        for (at, host, tag) in self.outbox.timers.drain(..) {
            self.timers.push(Reverse((at, host, tag)));
        }
        let mut served = std::mem::take(&mut self.outbox.served);
        for (host, operation) in served.drain(..) {
            self.serve(net, operation, host, 0)?;
        }
        self.outbox.served = served;
        Ok(())
    }

    /// `host` is served for `operation` now, its last packet having made `hops` hops: the delivery
    /// accounting, the watchdog and the statistics learn of it.
    fn serve(&mut self, net: &mut Net, operation: u32, host: u32, hops: u32) -> Result<(), Error> {
        let now = net.now;
        let served = self.deliveries.serve(operation, host, now, net.sets)?;
        let class = served.multicast as usize;
        self.last_served[class] = now;
        if served.measured {
            net.stats.destination_served(served.latency);
        }
        if let Some(done) = served.done {
            self.pending[class] -= 1;
            net.stats.operation_done(now, done.flits, done.multicast);
            if let Some(id) = done.measured {
                net.stats.operation_completed(now, done.created, id, hops, done.mean_latency, done.multicast);
            }
        }
        Ok(())
    }

    /// A new operation of `flits` flits to `destinations` (a `multicast` or a unicast), delivering
    /// `delivers` flits in all, measured if created in the window.
    fn open_operation(
        &mut self,
        net: &mut Net,
        destinations: &[u32],
        flits: u32,
        delivers: u64,
        multicast: bool,
    ) -> u32 {
        let class = multicast as usize;
        if self.pending[class] == 0 {
            // (the watchdog times waits from here: nothing of its class was pending before)
            self.last_served[class] = net.now;
        }
        self.pending[class] += 1;
        let measured = net.stats.operation_opened(net.now, flits, delivers, multicast);
        self.deliveries.open(destinations, flits, net.now, measured, multicast, net.sets)
    }

    /// A host sends a message: the statistics and the delivery accounting learn of it, and its NIC
    /// queues its packets.
    pub fn send(&mut self, net: &mut Net, send: Send) -> Result<(), Error> {
        let now = net.now;
        let Send { src, target, flits, header_flits, serves, tag, priority, cut_through } = send;
        let one;
        let dests: &[u32] = match &target {
            Target::One(d) => {
                one = [*d];
                &one
            }
            Target::Set(members) => members,
        };
        net.stats.message_sent(now, flits);
        let operation = match serves {
            Serves::NewOperation => {
                let delivers = u64::from(flits) * dests.len() as u64;
                self.open_operation(net, dests, flits, delivers, matches!(target, Target::Set(_)))
            }
            Serves::Open(members) => {
                let delivers = u64::from(flits) * members.len() as u64;
                self.open_operation(net, &members, flits, delivers, true)
            }
            Serves::Previous => self.last_operation,
            Serves::Operation(op) => op,
            Serves::Nothing => NO_OPERATION,
        };
        self.last_operation = operation;
        let limits = self.limits;
        let count = Nic::packets_of(flits, limits.packet_flits);
        let message = self.deliveries.record(src, flits, operation, tag, count, dests);
        let measured = net.stats.in_window(now);
        let mut chunk = self.nics.chunk_of(src);
        chunk.nic(src).queue_message(
            src,
            dests,
            message,
            flits,
            header_flits,
            limits.packet_flits,
            now,
            measured,
            net.packets,
            net.sets,
            net.variants,
            net.routing,
            priority,
            cut_through,
        )?;
        self.backlog += flits as u64 + (header_flits * count) as u64;
        chunk.activate(src);
        drop(chunk);
        if net.packets.len() as u64 > limits.max_live_packets && net.stats.stopped.is_none() {
            let why = format!(
                "stopped at cycle {now}: more than {} packets alive (source queues growing without bound; the \
                 network accepts far less than is offered)",
                limits.max_live_packets
            );
            net.stats.stop_early(now, self.source_backlog(), why);
        }
        // Operations can also pile up with few packets alive: a host program slower than its arrivals
        // (a software multicast whose relays wait workload.forward_cycles each)
        if self.deliveries.operations.len() as u64 > limits.max_live_operations && net.stats.stopped.is_none() {
            let why = format!(
                "stopped at cycle {now}: more than {} operations incomplete (they arrive faster than the hosts \
                 complete them)",
                limits.max_live_operations
            );
            net.stats.stop_early(now, self.source_backlog(), why);
        }
        Ok(())
    }

    /// Each NIC with something to inject puts at most one flit on its injection channel (`nics.rs`).
    pub fn step_nics(&mut self, net: &mut Net) -> Result<(), Error> {
        let at = self.nic_step(net.now, net.stats.in_window(net.now));
        for chunk in self.nics.chunks() {
            lock(chunk).step(at, net.packets, net.routing, net.topo, net.credits, net.wheel);
        }
        self.nics_stepped(net)
    }

    /// What the NICs need to know to step at `now`.
    pub fn nic_step(&self, now: Cycle, measuring: bool) -> NicStep {
        let limits = self.limits;
        NicStep { now, measuring, vct: limits.vct, input_delay: limits.input_delay, sees_flits: self.sees_flits }
    }

    /// The NICs have stepped: the packets they started are stamped, their flits counted, and the
    /// program told of the messages that left, in terminal order whatever the chunks.
    pub fn nics_stepped(&mut self, net: &mut Net) -> Result<(), Error> {
        let now = net.now;
        let mut sent = 0;
        for chunk in self.nics.chunks() {
            let mut chunk = lock(chunk);
            for p in chunk.started.drain(..) {
                net.packets[p].injected = now;
            }
            sent += std::mem::take(&mut chunk.sent);
            self.sent_tails.append(&mut chunk.sent_tails);
        }
        if sent > 0 {
            net.counters.last_progress = now;
        }
        self.injected_flits += sent;
        self.backlog -= sent;
        if !self.sent_tails.is_empty() {
            self.tell_sent(net)?;
        }
        Ok(())
    }

    /// The NIC chunks (regions on threads step theirs: `regions.rs`).
    pub fn nic_chunks(&self) -> &[Arc<Mutex<NicChunk>>] {
        self.nics.chunks()
    }

    /// Tells the program which of its messages have left their hosts this cycle.
    fn tell_sent(&mut self, net: &mut Net) -> Result<(), Error> {
        let mut tails = std::mem::take(&mut self.sent_tails);
        for &(host, message) in &tails {
            let tag = self.deliveries.messages[message].tag;
            self.programs.on_sent(host, tag, net.now, &mut self.outbox);
            self.carry_out(net)?;
        }
        tails.clear();
        self.sent_tails = tails;
        Ok(())
    }

    /// A flit reaches `terminal`, its copy having made `hops` router-to-router hops. Every
    /// destination of a packet is served exactly once: a flit for a terminal that is not one of
    /// its destinations, or that has already received its tail, is a conservation error.
    pub fn eject(&mut self, net: &mut Net, terminal: u32, flit: Flit, hops: u16) -> Result<(), Error> {
        let p = &mut net.packets[flit.packet()];
        if !p.pending.contains(terminal, net.sets) {
            return Err(Error::Conservation {
                message: format!(
                    "a flit of packet {} ({:?}) reached terminal {terminal}, which is not one of its destinations \
                     still to serve",
                    flit.packet(),
                    p.header.dest
                ),
            });
        }
        p.delivered += 1;
        self.ejected_flits += 1;
        net.stats.flit_ejected(net.now);
        if self.sees_flits {
            return self.eject_seen(net, terminal, flit, hops);
        }
        if !flit.tail() {
            return Ok(());
        }
        self.eject_tail(net, terminal, flit, hops, false)
    }

    /// [`eject`](Self::eject) for programs that see heads arrive and may refuse a message.
    fn eject_seen(&mut self, net: &mut Net, terminal: u32, flit: Flit, hops: u16) -> Result<(), Error> {
        let packet = flit.packet();
        if flit.head() {
            let header = net.packets[packet].header;
            let message = &self.deliveries.messages[header.message];
            let arriving = Arriving {
                src: message.src,
                flits: message.flits,
                operation: message.operation,
                tag: message.tag,
                handle: packet,
            };
            if !self.programs.on_head(terminal, &arriving, net.now, &mut self.outbox) {
                self.refused.push((terminal, packet));
                net.stats.worm_refused(net.now);
            }
            self.carry_out(net)?;
        }
        if !flit.tail() {
            return Ok(());
        }
        self.nics.chunk_of(terminal).nic(terminal).open_gates(packet);
        let refused = match self.refused.iter().position(|&r| r == (terminal, packet)) {
            Some(i) => {
                self.refused.swap_remove(i);
                true
            }
            None => false,
        };
        self.eject_tail(net, terminal, flit, hops, refused)
    }

    /// A packet's tail reached `terminal`: the packet, its message and the operation it serves learn of
    /// it (a `refused` message serves nobody), and so does the host's program.
    fn eject_tail(&mut self, net: &mut Net, terminal: u32, flit: Flit, hops: u16, refused: bool) -> Result<(), Error> {
        let now = net.now;
        let p = &mut net.packets[flit.packet()];
        p.pending.take(terminal, net.sets);
        let (header, injected, hops) = (p.header, p.injected, hops as u32);
        if header.measured {
            let ends = match header.dest {
                Dest::One(d) => Some((net.topo.terminal_at[header.src as usize].0, net.topo.terminal_at[d as usize].0)),
                Dest::Set(_) => None,
            };
            net.stats.packet_delivered(now, header.created, injected, hops, ends);
        }
        if p.pending.left() == 0 {
            let destinations = match header.dest {
                Dest::One(_) => 1,
                Dest::Set(set) => net.sets.count(set),
            };
            if p.delivered != header.flits * destinations {
                return Err(Error::Conservation {
                    message: format!(
                        "packet {} delivered {} flits to its {destinations} destinations, not {} each",
                        flit.packet(),
                        p.delivered,
                        header.flits
                    ),
                });
            }
            if let Dest::Set(set) = header.dest {
                net.sets.remove(set);
            }
            p.pending.release(net.sets);
            net.packets.remove(flit.packet());
        }
        let message = &self.deliveries.messages[header.message];
        let delivered =
            Delivered { src: message.src, flits: message.flits, operation: message.operation, tag: message.tag };
        if !self.deliveries.tail(header.message, terminal) || refused {
            return Ok(());
        }
        if delivered.operation != NO_OPERATION {
            self.serve(net, delivered.operation, terminal, hops)?;
        }
        self.programs.on_delivered(terminal, &delivered, now, &mut self.outbox);
        self.carry_out(net)
    }
}
