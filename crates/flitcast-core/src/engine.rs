//! The activity-driven cycle engine (docs/engine.md).
//!
//! Each cycle: (1) deliver the flits and credits the timing wheel holds for this cycle (a message
//! completed at a host calls that host's program), (2) fire the host programs' timers that are due
//! (an open-loop source's next message), (3) step the NICs that have something to inject, (4) step
//! the routers that hold flits. Everything a component sends lands in the wheel at least one cycle
//! later, so the order in which components are visited cannot change a result. When no router, NIC
//! or channel has work, time jumps to the next timer (idle skipping).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::bitset::IdSet;
use crate::check;
use crate::control::Control;
use crate::credits::Lanes;
use crate::dest_set::DestSets;
use crate::error::Error;
use crate::host::adapter::Adapter;
use crate::host::batch::Batch;
use crate::host::delivery::Deliveries;
use crate::host::hardware_multicast::HardwareMulticast;
use crate::host::open_loop::OpenLoop;
use crate::host::operations::Operations;
use crate::host::program::{Arriving, Delivered, Outbox, Priority, Programs, Send, Serves, Target};
use crate::host::software_torus::SoftwareTorus;
use crate::host::u_min::UMin;
use crate::host::Nic;
use crate::memory;
use crate::packet::{Dest, Flit, Packet, Slab};
use crate::routing::variants::Variants;
use crate::routing::Routing;
use crate::scenario::{FlowControl, MulticastScheme, SaturationStop, Scenario};
use crate::stats::{Collector, EarlyStop, Finish, RunResult};
use crate::stop_go::{self, StopGo};
use crate::switch::{MoveCounters, Router, Site, StepCtx};
use crate::topology::Topology;
use crate::wheel::{Arrival, Wheel, TO_TERMINAL};
use crate::workload::{self, Pattern};
use crate::Cycle;

/// Largest number of blocked channels a deadlock report lists.
const MAX_BLOCKED_REPORTED: usize = 32;

/// The operation of a message that serves none (`Serves::Nothing`).
const NO_OPERATION: u32 = u32::MAX;

/// Outcome of a zero-load probe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probe {
    pub latency: u64,
    pub hops: u32,
}

pub struct Simulation {
    scenario: Scenario,
    topo: Topology,
    routing: Routing,
    routers: Vec<Router>,
    nics: Vec<Nic>,
    packets: Slab<Packet>,
    /// Destination sets of multicast packets (the bit-string headers) and of their pending destinations.
    dest_sets: DestSets,
    /// What the hosts sent and what it serves (`host/delivery.rs`).
    deliveries: Deliveries,
    programs: Programs,
    /// Requests of the program call being carried out (kept to reuse its vectors).
    outbox: Outbox,
    /// The operation the last message sent serves (`Serves::Previous`).
    last_operation: u32,
    wheel: Wheel,
    /// Every channel's credit counters, by lane (`credits.rs`).
    credits: Vec<u32>,
    /// The programs' timers: (when, host, tag), earliest first (ties by host: deterministic).
    timers: BinaryHeap<Reverse<(Cycle, u32, u32)>>,
    message_flits: u32,
    packet_flits: u32,
    /// Routers that hold flits: those are stepped, in id order.
    active_routers: IdSet,
    /// Terminals whose NIC has something to inject.
    active_nics: IdSet,
    stats: Collector,
    counters: MoveCounters,
    /// With stop/go flow control: the receivers' buffer counts (`stop_go.rs`).
    stop_go: Option<StopGo>,
    /// Flits sent on each terminal's injection channel during the window.
    injection_flits: Vec<u64>,
    now: Cycle,
    /// Flits created but not yet injected (source queues).
    backlog: u64,
    /// Past this many live packets the run stops, saturated (`memory::max_live_packets`).
    max_live_packets: u64,
    /// Past this many incomplete operations the run stops, saturated (`memory::max_live_operations`;
    /// `u64::MAX` for open-loop unicasts, every one of which holds a live packet until it completes).
    max_live_operations: u64,
    injected_flits: u64,
    ejected_flits: u64,
    /// Cycles jumped over because nothing in the network had work.
    skipped: u64,
    /// Picks each new packet's route among its pair's alternatives (O4, torus ties).
    variants: Variants,
    vct: bool,
    /// (terminal, packet): arriving packets a host refused (`Programs::on_head`); their flits are
    /// drained and dropped.
    refused: Vec<(u32, u32)>,
    /// Tails that left NICs this cycle, for programs that want to know (`Programs::on_sent`).
    sent_tails: Vec<(u32, u32)>,
    /// The last cycle an operation served a destination, or was opened with none pending (the host
    /// adapters' deadlock watchdog).
    last_served: Cycle,
}

impl Simulation {
    pub fn build(scenario: &Scenario) -> Result<Simulation, Error> {
        scenario.validate()?;
        let topo = Topology::build(&scenario.network)?;
        memory::estimate(scenario, &topo)
            .check(memory::limit_bytes(scenario.run.memory_limit_mb), scenario.run.memory_limit_mb)?;
        let mut routing = Routing::build(&scenario.routing, scenario.switch.vcs as u8, &topo)?;
        if scenario.workload.hardware_multicast() {
            routing = routing.with_multicast(&topo)?;
        }
        check::routes::verify(&topo, &routing, scenario.switch.vcs as u8, scenario.routing.check_deadlock_free)?;
        let (sw, r, wl) = (&scenario.switch, &scenario.routing, &scenario.workload);
        let largest_worm = routing
            .multicast()
            .map(|_| wl.packet_flits.min(wl.message_flits) + wl.header_flits(topo.terminals() as u32));
        let routers: Vec<Router> = (0..topo.routers() as u32)
            .map(|router| {
                let site = Site {
                    router,
                    topo: &topo,
                    routing: &routing,
                    selection: r.selection,
                    history: r.selection_history,
                    seed: scenario.run.seed,
                    largest_worm,
                };
                Router::build(sw, &site)
            })
            .collect();
        let terminals = topo.terminals();
        let lanes = Lanes::new(&topo, scenario.switch.vcs);
        let nics = (0..terminals as u32).map(|t| Nic::new(lanes.injection(t))).collect();
        let stop_go = scenario.switch.flow_control == FlowControl::StopGo;
        // (under stop/go every sender starts in GO, `stop_go.rs`)
        let credits = lanes.initial(&topo, if stop_go { stop_go::GO } else { scenario.switch.buffer_flits });
        let stop_go = stop_go.then(|| {
            let (stop, go) = scenario.stop_go_thresholds();
            let mut sg = StopGo::new(stop, go, credits.len());
            for r in 0..topo.routers() as u32 {
                for p in 0..topo.radix(r) as u8 {
                    let lane = lanes.feeding(&topo, topo.input(r, p));
                    sg.feeding.push(lane);
                    if lane != u32::MAX {
                        for vc in 0..scenario.switch.vcs {
                            sg.latency[(lane + vc) as usize] = topo.feeding_latency(r, p);
                        }
                    }
                }
            }
            sg
        });
        let delay = scenario.switch.router_delay_cycles;
        let max_latency = topo.latency.iter().chain(&topo.terminal_latency).copied().max().unwrap_or(1) + delay;
        // (the longest a flit or credit is in flight: a channel plus a whole router pipeline)
        let run = &scenario.run;
        let variants = Variants::build(&routing, terminals, run.seed);
        let mut stats = Collector::new(run.warmup_cycles, run.measure_cycles, run.batches);
        let wl = &scenario.workload;
        // The end-of-run backlog limit of the whole window (rule 2 of stats/mod.rs), offered traffic
        // taken as expected from the load.
        let window_offered = wl.load * terminals as f64 * run.measure_cycles as f64;
        let threshold = (0.01 * window_offered).max(2.0 * terminals as f64 * wl.message_flits as f64);
        // (a closed batch is no steady state: it has no saturation, only its completion)
        stats.closed = wl.batch_sources > 0.0 || wl.multicast_group_size > 0;
        let early = run.saturation_stop == SaturationStop::Backlog && !stats.closed;
        stats.early = EarlyStop::new(early, run.measure_cycles, threshold, terminals as u32, wl.load);
        Ok(Simulation {
            max_live_packets: memory::max_live_packets(scenario, terminals as u64),
            max_live_operations: if wl.multicast_destinations > 0 || !wl.multicast_group.is_empty() {
                let m = wl.multicast_destinations.max(wl.multicast_group.len() as u32);
                memory::max_live_operations(m as u64, terminals as u64)
            } else {
                u64::MAX
            },
            programs: if wl.multicast_group_size > 0 {
                Programs::SoftwareTorus(Box::new(SoftwareTorus::of(scenario)))
            } else if !wl.multicast_group.is_empty() {
                Programs::Adapter(Box::new(Adapter::new(scenario, &topo)))
            } else if wl.batch_sources > 0.0 {
                Programs::Batch(Batch::new(
                    terminals as u32,
                    wl.batch_sources,
                    wl.batch_group,
                    wl.multicast_scheme,
                    wl.message_flits,
                    scenario.worm_header_flits(terminals as u32),
                    run.seed,
                ))
            } else if wl.multicast_destinations == 0 {
                Programs::OpenLoop(OpenLoop::new(
                    Pattern::build(wl, &scenario.network, terminals as u32),
                    workload::sources(wl, run.seed, terminals as u32),
                    wl.message_flits,
                ))
            } else {
                // (load is the effective applied load m·B_i: operations.rs sets their rate)
                let operations = Operations::new(wl, run.seed, terminals as u32);
                match wl.multicast_scheme {
                    MulticastScheme::Software => {
                        Programs::UMin(UMin::new(operations, wl.message_flits, wl.multicast_forward_cycles))
                    }
                    MulticastScheme::Hardware => Programs::Hardware(HardwareMulticast::new(
                        operations,
                        wl.message_flits,
                        scenario.worm_header_flits(terminals as u32),
                    )),
                    other => {
                        unreachable!("{other:?} is for closed batches or fixed groups (validate.rs refuses it here)")
                    }
                }
            },
            last_operation: 0,
            outbox: Outbox::default(),
            deliveries: Deliveries::default(),
            message_flits: wl.message_flits,
            packet_flits: wl.packet_flits,
            stats,
            counters: MoveCounters::default(),
            stop_go,
            injection_flits: vec![0; terminals],
            active_routers: IdSet::new(topo.routers()),
            active_nics: IdSet::new(terminals),
            wheel: Wheel::new(max_latency),
            credits,
            vct: scenario.switch.flow_control == FlowControl::Vct,
            scenario: scenario.clone(),
            topo,
            routing,
            routers,
            nics,
            packets: Slab::default(),
            dest_sets: DestSets::new(terminals),
            timers: BinaryHeap::new(),
            now: 0,
            backlog: 0,
            injected_flits: 0,
            ejected_flits: 0,
            skipped: 0,
            variants,
            refused: Vec::new(),
            sent_tails: Vec::new(),
            last_served: 0,
        })
    }

    pub fn topology(&self) -> &Topology {
        &self.topo
    }

    /// Runs warm-up, measurement and drain, and returns the statistics.
    pub fn run(self) -> Result<RunResult, Error> {
        self.run_with(&Control::default())
    }

    /// [`run`](Self::run), stopping with [`Error::Interrupted`] at the first cycle after `control`
    /// is interrupted, and reporting the cycle reached to it.
    pub fn run_with(self, control: &Control) -> Result<RunResult, Error> {
        Ok(self.run_reporting(control)?.0)
    }

    /// [`run`](Self::run), also returning the heap bytes the statistics hold at the end of the run
    /// (which must not depend on the run's length: docs/results.md).
    pub fn run_reporting_stats_bytes(self) -> Result<(RunResult, usize), Error> {
        self.run_reporting(&Control::default())
    }

    fn run_reporting(mut self, control: &Control) -> Result<(RunResult, usize), Error> {
        let run = self.scenario.run.clone();
        let (window_start, window_end) = (run.warmup_cycles, run.warmup_cycles + run.measure_cycles);
        let hard_end = window_end + run.drain_max_cycles;
        control.start(window_end);
        self.programs.start(&mut self.outbox);
        self.carry_out()?;
        let interval = self.stats.early.interval;
        let mut next_sample = window_start;
        let drained = loop {
            if self.now == window_start {
                self.stats.backlog_at_start = Some(self.source_backlog());
            }
            if self.now == window_end {
                self.stats.backlog_at_end = Some(self.source_backlog());
            }
            // Checkpoints of the early-stop test; idle skipping may pass one, but the backlog cannot
            // change while nothing happens, so sampling at the next visited cycle reads the same value.
            while self.now >= next_sample && next_sample < window_end {
                if let Some(why) = self.stats.early.sample(self.source_backlog(), self.stats.accepted_flits) {
                    self.stop_early(why);
                }
                next_sample += interval;
            }
            if self.stats.stopped.is_some() {
                break false;
            }
            if self.now >= window_end && self.stats.outstanding == 0 {
                break true;
            }
            if self.now >= hard_end {
                break false;
            }
            if control.interrupted() {
                return Err(Error::Interrupted { cycle: self.now });
            }
            control.reached(self.now);
            self.cycle()?;
            let in_network = self.injected_flits + self.counters.copied_flits - self.ejected_flits;
            if in_network > 0 && self.now - self.counters.last_progress >= run.watchdog_cycles {
                return Err(self.deadlock(run.watchdog_cycles));
            }
            if self.programs.reacts_to_flits()
                && !self.deliveries.operations.is_empty()
                && self.now - self.last_served >= run.watchdog_cycles
            {
                return Err(self.adapter_deadlock(run.watchdog_cycles));
            }
            self.now += 1;
            let done = self.now >= window_end && self.stats.outstanding == 0;
            if !done && self.wheel.is_empty() && self.active_nics.is_empty() && self.active_routers.is_empty() {
                // Idle: jump to the next arrival, but stop at the window edges to sample there.
                let next = self.timers.peek().map_or(Cycle::MAX, |Reverse((t, ..))| *t);
                let mut target = next.min(hard_end);
                for edge in [window_start, window_end] {
                    if edge >= self.now {
                        target = target.min(edge);
                    }
                }
                if target > self.now {
                    self.skipped += target - self.now;
                    self.now = target;
                }
            }
        };
        self.check_conservation()?;
        let stats_bytes = self.stats.heap_bytes();
        Ok((self.finish(drained)?, stats_bytes))
    }

    /// Zero-load probe: one message from `src` to `dst` created at cycle 0 on an idle network,
    /// nothing else. Returns its latency (creation to tail delivery) and its hop count.
    pub fn probe(self, src: u32, dst: u32) -> Result<Probe, Error> {
        Ok(self.probe_many(&[(0, src, dst)])?[0])
    }

    /// Scripted probe: messages (creation cycle, source, destination) on an otherwise idle network.
    /// Returns each message's latency and hop count, in the order given.
    pub fn probe_many(mut self, script: &[(Cycle, u32, u32)]) -> Result<Vec<Probe>, Error> {
        let terminals = self.topo.terminals() as u32;
        for &(_, src, dst) in script {
            for (key, v) in [("probe.src", src), ("probe.dst", dst)] {
                if v >= terminals {
                    return Err(Error::config(key, v, format!("a terminal id from 0 to {}", terminals - 1)));
                }
            }
        }
        let mut order: Vec<usize> = (0..script.len()).collect();
        order.sort_by_key(|&i| script[i].0);
        let last = script.iter().map(|s| s.0).max().unwrap_or(0);
        // Measure everything created up to the last scripted message, one batch per message.
        self.stats = Collector::keeping_each(0, last + 1);
        let limit = last + self.scenario.run.watchdog_cycles;
        let mut results = vec![Probe { latency: 0, hops: 0 }; script.len()];
        let mut next = 0;
        let mut ids = vec![u32::MAX; script.len()];
        while next < order.len() || self.stats.outstanding > 0 {
            while next < order.len() && script[order[next]].0 == self.now {
                let (_, src, dst) = script[order[next]];
                ids[order[next]] = self.stats.operations_opened as u32;
                let flits = self.message_flits;
                self.send(Send {
                    src,
                    target: Target::One(dst),
                    flits,
                    header_flits: 0,
                    serves: Serves::NewOperation,
                    tag: 0,
                    priority: Priority::Unicast,
                    cut_through: None,
                })?;
                next += 1;
            }
            if self.now > limit {
                return Err(self.deadlock(limit));
            }
            self.cycle()?;
            self.now += 1;
        }
        self.check_conservation()?;
        for (i, id) in ids.into_iter().enumerate() {
            let (latency, hops) = self.stats.delivered(id).expect("every probe message is delivered");
            results[i] = Probe { latency, hops };
        }
        Ok(results)
    }

    /// Zero-load probe of one multicast, software or hardware as the scenario says: `src` starts it
    /// to `dests` at cycle 0 on an idle network (the scenario's `workload.multicast_destinations`
    /// must be at least 1). Returns its latency by definition (a), the last destination, and (b), the
    /// mean over its destinations.
    pub fn probe_multicast(mut self, src: u32, dests: &[u32]) -> Result<(u64, f64), Error> {
        let terminals = self.topo.terminals() as u32;
        let mut sorted = dests.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.is_empty() || sorted.len() != dests.len() || sorted.contains(&src) || src >= terminals {
            return Err(Error::config(
                "probe.dests",
                format!("{dests:?} from {src}"),
                format!("distinct terminal ids below {terminals}, other than the source"),
            ));
        }
        self.stats = Collector::keeping_each(0, 1);
        match &mut self.programs {
            Programs::UMin(program) => program.begin(src, sorted, &mut self.outbox),
            Programs::Hardware(program) => program.begin(src, sorted, &mut self.outbox),
            Programs::OpenLoop(_) | Programs::Batch(_) | Programs::Adapter(_) | Programs::SoftwareTorus(_) => {
                return Err(Error::config(
                    "workload.multicast_destinations",
                    0,
                    "at least 1 to probe a multicast (a multicast program)",
                ))
            }
        }
        self.carry_out()?;
        let limit = self.scenario.run.watchdog_cycles * (dests.len() as u64 + 1);
        while self.stats.outstanding > 0 {
            if self.now > limit {
                return Err(self.deadlock(limit));
            }
            self.cycle()?;
            self.now += 1;
        }
        self.check_conservation()?;
        let (latency, _) = self.stats.delivered(0).expect("the probed operation completed");
        Ok((latency, self.stats.delivered_dest_mean(0).expect("the probed operation completed")))
    }

    fn cycle(&mut self) -> Result<(), Error> {
        let now = self.now;
        if self.stop_go.is_some() {
            self.stop_go_signals();
        } else {
            self.wheel.deliver_credits(now, &mut self.credits);
        }
        let events = self.wheel.take(now);
        for &Arrival { dest, port, vc, hops, flit } in &events {
            if dest & TO_TERMINAL != 0 {
                // (the ejection channel is not a router-to-router hop: `StepCtx::send_flit`)
                self.eject(dest & !TO_TERMINAL, flit, hops - 1)?;
                continue;
            }
            let router = dest;
            if !self.routers[router as usize].accept_flit(port, vc, flit, hops, now) {
                return Err(Error::Internal {
                    message: format!("buffer overflow at router {router} port {port} vc {vc} (credit protocol)"),
                });
            }
            self.active_routers.insert(router as usize);
        }
        if self.stop_go.is_some() {
            self.stop_go_arrivals(&events);
        }
        self.wheel.recycle(events);

        while let Some(&Reverse((t, host, tag))) = self.timers.peek() {
            if t > now {
                break;
            }
            self.timers.pop();
            self.programs.on_timer(host, tag, now, &mut self.outbox);
            self.carry_out()?;
        }

        self.step_nics()?;
        self.step_routers();
        Ok(())
    }

    /// Stop/go, start of a cycle: the slots freed last cycle are counted, a buffer drained to GO sends
    /// GO over the rest of its channel's latency, and the signals due now take effect.
    fn stop_go_signals(&mut self) {
        let now = self.now;
        let sg = self.stop_go.as_mut().expect("stop/go");
        for lane in self.wheel.take_credits(now) {
            if sg.left(lane).is_some() {
                self.wheel.schedule_signal(now + sg.latency[lane as usize] as Cycle - 1, lane, stop_go::GO);
            }
        }
        self.wheel.deliver_signals(now, &mut self.credits);
    }

    /// Stop/go: the flits that entered router buffers this cycle are counted; a buffer filled to STOP
    /// sends STOP over its channel's latency.
    fn stop_go_arrivals(&mut self, events: &[Arrival]) {
        let sg = self.stop_go.as_mut().expect("stop/go");
        for ev in events.iter().filter(|ev| ev.dest & TO_TERMINAL == 0) {
            let lane = sg.feeding[self.topo.port_index(ev.dest, ev.port)] + ev.vc as u32;
            if sg.arrived(lane).is_some() {
                self.wheel.schedule_signal(self.now + sg.latency[lane as usize] as Cycle, lane, 0);
            }
        }
    }

    /// Carries out what the last program call asked for: its messages, then its timers.
    #[inline]
    fn carry_out(&mut self) -> Result<(), Error> {
        if self.outbox.is_empty() {
            return Ok(());
        }
        self.carry_out_requests()
    }

    fn carry_out_requests(&mut self) -> Result<(), Error> {
        // (opening calls the program back, which may ask for more: carried out before its sends)
        while !self.outbox.opens.is_empty() {
            let opens = std::mem::take(&mut self.outbox.opens);
            for (host, tag, destinations, flits) in opens {
                let operation = self.open_operation(&destinations, flits);
                self.programs.on_opened(host, tag, operation, self.now, &mut self.outbox);
            }
        }
        let mut sends = std::mem::take(&mut self.outbox.sends);
        for send in sends.drain(..) {
            self.send(send)?;
        }
        self.outbox.sends = sends;
        for (at, host, tag) in self.outbox.timers.drain(..) {
            self.timers.push(Reverse((at, host, tag)));
        }
        Ok(())
    }

    /// A new operation of `flits` flits to `destinations`, measured if created in the window.
    fn open_operation(&mut self, destinations: &[u32], flits: u32) -> u32 {
        if self.deliveries.operations.is_empty() {
            // (the watchdog times waits from here: nothing was pending before)
            self.last_served = self.now;
        }
        let measured = self.stats.operation_opened(self.now, flits, destinations.len() as u32);
        self.deliveries.open(destinations, flits, self.now, measured, &mut self.dest_sets)
    }

    /// A host sends a message: the statistics and the delivery accounting learn of it, and its NIC
    /// queues its packets.
    fn send(&mut self, send: Send) -> Result<(), Error> {
        let now = self.now;
        let Send { src, target, flits, header_flits, serves, tag, priority, cut_through } = send;
        let one;
        let dests: &[u32] = match &target {
            Target::One(d) => {
                one = [*d];
                &one
            }
            Target::Set(members) => members,
        };
        self.stats.message_sent(now, flits);
        let operation = match serves {
            Serves::NewOperation => self.open_operation(dests, flits),
            Serves::Open(members) => self.open_operation(&members, flits),
            Serves::Previous => self.last_operation,
            Serves::Operation(op) => op,
            Serves::Nothing => NO_OPERATION,
        };
        self.last_operation = operation;
        let count = Nic::packets_of(flits, self.packet_flits);
        let message = self.deliveries.record(src, flits, operation, tag, count, dests);
        let measured = self.stats.in_window(now);
        let (packet_flits, packets, sets, variants, routing) =
            (self.packet_flits, &mut self.packets, &mut self.dest_sets, &mut self.variants, &self.routing);
        self.nics[src as usize].queue_message(
            src,
            dests,
            message,
            flits,
            header_flits,
            packet_flits,
            now,
            measured,
            packets,
            sets,
            variants,
            routing,
            priority,
            cut_through,
        )?;
        self.backlog += flits as u64 + (header_flits * count) as u64;
        self.active_nics.insert(src as usize);
        if self.packets.len() as u64 > self.max_live_packets && self.stats.stopped.is_none() {
            self.stop_early(format!(
                "stopped at cycle {now}: more than {} packets alive (source queues growing without bound; the \
                 network accepts far less than is offered)",
                self.max_live_packets
            ));
        }
        // Operations can also pile up with few packets alive: a host program slower than its arrivals
        // (a software multicast whose relays wait workload.multicast_forward_cycles each)
        if self.deliveries.operations.len() as u64 > self.max_live_operations && self.stats.stopped.is_none() {
            self.stop_early(format!(
                "stopped at cycle {now}: more than {} operations incomplete (they arrive faster than the hosts \
                 complete them)",
                self.max_live_operations
            ));
        }
        Ok(())
    }

    /// Flits created and not yet injected: in the NICs' source queues, and in queues a host program
    /// keeps before its NIC (a host adapter's transmission queue).
    fn source_backlog(&self) -> u64 {
        self.backlog + self.programs.queued_flits()
    }

    /// Ends the run at this cycle, saturated, for `why`.
    fn stop_early(&mut self, why: String) {
        self.stats.backlog_at_end = Some(self.source_backlog());
        self.stats.stopped = Some((self.now, why));
    }

    fn step_nics(&mut self) -> Result<(), Error> {
        let (now, vct, delay) = (self.now, self.vct, self.scenario.switch.input_delay() as Cycle);
        let measuring = self.stats.in_window(now);
        let Simulation { nics, active_nics, packets, routing, wheel, credits, topo, counters, injection_flits, .. } =
            self;
        let mut sent = 0u64;
        let (sent_tails, tell) = (&mut self.sent_tails, self.programs.reacts_to_flits());
        active_nics.retain(|t| {
            let nic = &mut nics[t];
            if let Some(inj) = nic.step(now, packets, |p| routing.injection_vcs(p), vct, credits) {
                if tell && inj.flit.tail() {
                    sent_tails.push((t as u32, packets[inj.flit.packet()].header.message));
                }
                let (router, port) = topo.terminal_at[t];
                // Into the router's input FIFO once the channel and the router pipeline are passed.
                let at = now + topo.terminal_latency[t] as Cycle + delay;
                wheel.schedule_flit(at, Arrival { dest: router, port, vc: inj.vc, hops: 0, flit: inj.flit });
                counters.last_progress = now;
                sent += 1;
                injection_flits[t] += measuring as u64;
            }
            nic.busy()
        });
        self.injected_flits += sent;
        self.backlog -= sent;
        if !self.sent_tails.is_empty() {
            self.tell_sent()?;
        }
        Ok(())
    }

    /// Tells the programs which of their messages have left their hosts this cycle.
    fn tell_sent(&mut self) -> Result<(), Error> {
        let mut tails = std::mem::take(&mut self.sent_tails);
        for &(host, message) in &tails {
            let tag = self.deliveries.messages[message].tag;
            self.programs.on_sent(host, tag, self.now, &mut self.outbox);
            self.carry_out()?;
        }
        tails.clear();
        self.sent_tails = tails;
        Ok(())
    }

    fn step_routers(&mut self) {
        let (now, measuring) = (self.now, self.stats.in_window(self.now));
        let Simulation { routers, active_routers, packets, dest_sets, routing, wheel, credits, topo, counters, .. } =
            self;
        let mut ctx = StepCtx { now, topo, routing, packets, sets: dest_sets, wheel, credits, counters, measuring };
        active_routers.retain(|r| {
            let router = &mut routers[r];
            router.step(r as u32, &mut ctx);
            router.flits() > 0
        });
    }

    /// A flit reaches `terminal`, its copy having made `hops` router-to-router hops. Every
    /// destination of a packet is served exactly once: a flit for a terminal that is not one of
    /// its destinations, or that has already received its tail, is a conservation error.
    fn eject(&mut self, terminal: u32, flit: Flit, hops: u16) -> Result<(), Error> {
        let now = self.now;
        let p = &mut self.packets[flit.packet()];
        if !p.pending.contains(terminal, &self.dest_sets) {
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
        self.stats.flit_ejected(now);
        if self.programs.reacts_to_flits() {
            return self.eject_to_adapter(terminal, flit, hops);
        }
        if !flit.tail() {
            return Ok(());
        }
        self.eject_tail(terminal, flit, hops, false)
    }

    /// [`eject`](Self::eject) for programs that see heads arrive and may refuse a message.
    fn eject_to_adapter(&mut self, terminal: u32, flit: Flit, hops: u16) -> Result<(), Error> {
        let packet = flit.packet();
        if flit.head() {
            let header = self.packets[packet].header;
            let message = &self.deliveries.messages[header.message];
            let arriving = Arriving {
                src: message.src,
                flits: message.flits,
                operation: message.operation,
                tag: message.tag,
                handle: packet,
            };
            if !self.programs.on_head(terminal, &arriving, self.now, &mut self.outbox) {
                self.refused.push((terminal, packet));
                self.stats.worm_refused(self.now);
            }
            self.carry_out()?;
        }
        if !flit.tail() {
            return Ok(());
        }
        self.nics[terminal as usize].open_gates(packet);
        let refused = match self.refused.iter().position(|&r| r == (terminal, packet)) {
            Some(i) => {
                self.refused.swap_remove(i);
                true
            }
            None => false,
        };
        self.eject_tail(terminal, flit, hops, refused)
    }

    /// A packet's tail reached `terminal`: the packet, its message and the operation it serves learn of
    /// it (a `refused` message serves nobody), and so does the host's program.
    fn eject_tail(&mut self, terminal: u32, flit: Flit, hops: u16, refused: bool) -> Result<(), Error> {
        let now = self.now;
        let p = &mut self.packets[flit.packet()];
        p.pending.take(terminal, &mut self.dest_sets);
        let (header, injected, hops) = (p.header, p.injected, hops as u32);
        if header.measured {
            self.stats.packet_delivered(now, header.created, injected, hops);
        }
        if p.pending.left() == 0 {
            let destinations = match header.dest {
                Dest::One(_) => 1,
                Dest::Set(set) => self.dest_sets.count(set),
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
                self.dest_sets.remove(set);
            }
            p.pending.release(&mut self.dest_sets);
            self.packets.remove(flit.packet());
        }
        let message = &self.deliveries.messages[header.message];
        let delivered =
            Delivered { src: message.src, flits: message.flits, operation: message.operation, tag: message.tag };
        if !self.deliveries.tail(header.message, terminal) || refused {
            return Ok(());
        }
        if delivered.operation != NO_OPERATION {
            self.last_served = now;
            if let Some(done) = self.deliveries.serve(delivered.operation, terminal, now, &mut self.dest_sets)? {
                self.stats.operation_done(now, done.flits, done.destinations);
                if let Some(id) = done.measured {
                    self.stats.operation_completed(now, done.created, id, hops, done.mean_latency, done.destinations);
                }
            }
        }
        self.programs.on_delivered(terminal, &delivered, now, &mut self.outbox);
        self.carry_out()
    }

    /// Flits injected + flits copied by replicating switches = flits delivered + flits in buffers
    /// (a stored flit counts once per output still to read it) + flits on channels, and every
    /// router's own bookkeeping holds.
    fn check_conservation(&self) -> Result<(), Error> {
        for (r, router) in self.routers.iter().enumerate() {
            router.check_accounting().map_err(|e| Error::Conservation { message: format!("router {r}: {e}") })?;
        }
        let buffered: u64 = self.routers.iter().map(|r| r.flits() as u64).sum();
        let on_channels = self.wheel.flits() as u64;
        let copied = self.counters.copied_flits;
        if self.injected_flits + copied != self.ejected_flits + buffered + on_channels {
            return Err(Error::Conservation {
                message: format!(
                    "{} flits injected and {copied} copied but {} delivered, {} buffered and {} on channels",
                    self.injected_flits, self.ejected_flits, buffered, on_channels
                ),
            });
        }
        Ok(())
    }

    /// The host adapters' watchdog fired: operations wait, yet no destination was served for `idle`
    /// cycles (flits may still move: refused worms and their retransmissions).
    fn adapter_deadlock(&self, idle: Cycle) -> Error {
        Error::AdapterDeadlock {
            cycle: self.now,
            idle,
            pending: self.deliveries.operations.len() as u64,
            refused: self.stats.worms_refused_total,
        }
    }

    fn deadlock(&self, idle: Cycle) -> Error {
        let blocked = (0..self.routers.len() as u32)
            .filter(|&r| self.active_routers.contains(r as usize))
            .flat_map(|r| self.routers[r as usize].blocked(r, &self.credits))
            .take(MAX_BLOCKED_REPORTED)
            .collect();
        Error::Deadlock { cycle: self.now, idle, blocked }
    }

    fn finish(mut self, drained: bool) -> Result<RunResult, Error> {
        let mut names = Vec::new();
        let mut flits = Vec::new();
        for r in 0..self.topo.routers() as u32 {
            for p in 0..self.topo.radix(r) as u8 {
                if let Some(name) = self.topo.channel_name(r, p) {
                    names.push(name);
                    flits.push(self.routers[r as usize].window_flits(p));
                }
            }
        }
        for (t, &(r, _)) in self.topo.terminal_at.iter().enumerate() {
            names.push(format!("t{t}->r{r}"));
            flits.push(self.injection_flits[t]);
        }
        let run = &self.scenario.run;
        Ok(self.stats.finish(Finish {
            nodes: self.topo.terminals() as u32,
            message_flits: self.message_flits,
            drained,
            drain_max_cycles: run.drain_max_cycles,
            cycles: self.now,
            cycles_skipped: self.skipped,
            seed: run.seed,
            flit_hops: self.counters.flit_hops,
            channel_names: names,
            channel_flits: flits,
            program: self.programs.report(),
        }))
    }
}
