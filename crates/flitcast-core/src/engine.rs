//! The activity-driven cycle engine (docs/engine.md).
//!
//! Each cycle: (1) deliver the flits and credits the timing wheel holds for this cycle (a flit
//! reaching a terminal goes to its host: `host/hosts.rs`), (2) fire the host programs' timers that are
//! due, (3) step the NICs that have something to inject, (4) step the routers that hold flits.
//! Everything a component sends lands in the wheel at least one cycle later, so the order in which
//! components are visited cannot change a result. When no router, NIC or channel has work, time jumps
//! to the next timer (idle skipping).

use crate::bitset::IdSet;
use crate::check;
use crate::control::Control;
use crate::credits::Lanes;
use crate::dest_set::DestSets;
use crate::error::Error;
use crate::host::hosts::{Hosts, Limits, Net};
use crate::host::programs::Programs;
use crate::host::Nic;
use crate::memory;
use crate::packet::{Packet, Slab};
use crate::queue_view::QueueView;
use crate::regions::{regions_for, Parts, Team};
use crate::routing::variants::Variants;
use crate::routing::Routing;
use crate::scenario::{SaturationStop, Scenario};
use crate::stats::{Collector, Finish, RunResult};
use crate::stop_go::{self, StopGo};
use crate::switch::visit::{accept_arrivals, step_active};
use crate::switch::{FlowControl, MoveCounters, Router, Site, StepCtx};
use crate::time::Cycle;
use crate::topology::min_hops::MinHops;
use crate::topology::{PortLink, Topology, TERMINAL_CLASS};
use crate::wheel::{Arrival, Wheel, ROUTERS, TERMINALS, TO_TERMINAL};
use std::cmp::Reverse;
use std::sync::Arc;

/// Largest number of blocked channels a deadlock report lists.
const MAX_BLOCKED_REPORTED: usize = 32;

pub struct Simulation {
    pub(crate) scenario: Scenario,
    /// (shared with the regions' threads when a run is split: `regions.rs`)
    pub(crate) topo: Arc<Topology>,
    routing: Arc<Routing>,
    routers: Vec<Router>,
    /// Routers that hold flits: those are stepped, in id order.
    active_routers: IdSet,
    pub(crate) hosts: Hosts,
    packets: Slab<Packet>,
    /// Destination sets of multicast packets (the bit-string headers) and of their pending destinations.
    dest_sets: DestSets,
    /// Picks each new packet's route among its pair's alternatives (O4, torus ties).
    variants: Variants,
    wheel: Wheel,
    /// Every channel's credit counters, by lane (`credits.rs`).
    credits: Vec<u32>,
    /// Every router output's queue as the cycle began, where the routing reads other routers' (UGAL-G).
    view: Arc<QueueView>,
    /// With stop/go flow control: the receivers' buffer counts (`stop_go.rs`).
    stop_go: Option<StopGo>,
    pub(crate) stats: Collector,
    counters: MoveCounters,
    pub(crate) now: Cycle,
    /// Cycles jumped over because nothing in the network had work.
    skipped: u64,
    /// On a team of regions: the flits reaching terminals this cycle (kept to reuse the vector).
    ejecting: Vec<Arrival>,
    /// Each terminal's ejection channel latency, where they differ (a team orders ejections by it).
    eject_latency: Option<Vec<u32>>,
}

/// How the cycle loop ended.
enum Ended {
    Run {
        drained: bool,
    },
    /// No flit moved for `idle` cycles (reported once the regions have given their routers back).
    Deadlock {
        idle: Cycle,
    },
}

impl Simulation {
    pub fn build(scenario: &Scenario) -> Result<Simulation, Error> {
        scenario.validate()?;
        let run = &scenario.run;
        let topo = scenario.topology()?;
        memory::check(scenario, &topo)?;
        // (a set-up of seconds stops at Ctrl-C between its phases, and inside the long ones)
        crate::control::building_interrupted()?;
        let (sw, program) = (&scenario.switch.model, &scenario.workload.program);
        let vcs = sw.vcs();
        let routing = scenario.routing(&topo)?;
        // (once per process for a network and routing: a sweep's points share it, `check/verified.rs`)
        let multidestination = program.multidestination();
        let checked = check::verified::key(&topo, &(&scenario.routing, vcs, multidestination));
        check::verified::once(checked, || {
            check::routes::verify(&topo, &routing, vcs as u8, scenario.routing.check_deadlock_free)
        })?;
        crate::control::building_interrupted()?;
        let terminals = topo.terminals();
        let site = scenario.switch_site(&topo, &routing);
        let routers = (0..topo.routers() as u32)
            .map(|router| {
                let site = Site { router, ..site.clone() };
                Router::build(sw, &site)
            })
            .collect();
        let lanes = Lanes::new(&topo, vcs);
        let nics = (0..terminals as u32).map(|t| Nic::new(lanes.injection(t))).collect();
        let stop_go = (sw.flow_control() == FlowControl::StopGo).then(|| {
            let (stop, go) = scenario.stop_go_thresholds();
            StopGo::wire(&topo, &lanes, vcs, stop, go)
        });
        // (under stop/go every sender starts in GO, `stop_go.rs`)
        let credits = lanes.initial(&topo, if stop_go.is_some() { stop_go::GO } else { sw.buffer_flits() });
        // (the longest a flit or credit is in flight: a channel plus a whole router pipeline)
        let max_latency =
            topo.latency.iter().chain(&topo.terminal_latency).copied().max().unwrap_or(1) + sw.router_delay_cycles();
        let (packet_flits, message_flits) = (scenario.packet_flits(), scenario.message_flits());
        let eject_latency: Vec<u32> =
            topo.terminal_at.iter().map(|&(r, p)| topo.latency[topo.port_index(r, p)]).collect();
        let eject_latency = eject_latency.iter().any(|&l| l != eject_latency[0]).then_some(eject_latency);
        let limits = Limits {
            packet_flits,
            vct: sw.flow_control() == FlowControl::Vct,
            input_delay: sw.input_delay() as Cycle,
            max_live_packets: memory::max_live_packets(scenario, terminals as u64),
            max_live_operations: memory::max_live_operations_of(scenario, terminals as u64),
        };
        let site = scenario.program_site(&topo);
        let programs = Programs::build(program, &site);
        crate::control::building_interrupted()?;
        Ok(Simulation {
            hosts: Hosts::new(programs, nics, regions_for(run.threads), limits),
            stats: Collector::new(run.warmup_cycles, run.measure_cycles, run.batches)
                .with_min_hops(MinHops::of(&topo))
                .for_run(
                    run.saturation_stop == SaturationStop::Backlog,
                    terminals as u32,
                    program.load(),
                    message_flits,
                    program.closed(),
                ),
            variants: Variants::build(&routing, terminals, run.seed),
            counters: MoveCounters::default(),
            stop_go,
            active_routers: IdSet::new(topo.routers()),
            wheel: Wheel::new(max_latency),
            credits,
            view: Arc::new(QueueView::new(&topo, routing.reads_anywhere())),
            scenario: scenario.clone(),
            routing: Arc::new(routing),
            routers,
            packets: Slab::default(),
            dest_sets: DestSets::new(terminals),
            topo: Arc::new(topo),
            now: 0,
            skipped: 0,
            ejecting: Vec::new(),
            eject_latency,
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
        let mut team = (self.scenario.run.threads > 1).then(|| self.start_team());
        let ended = self.run_loop(control, &mut team);
        if let Some(team) = team {
            self.finish_team(team);
        }
        let drained = match ended? {
            Ended::Run { drained } => drained,
            Ended::Deadlock { idle } => return Err(self.deadlock(idle)),
        };
        self.check_conservation()?;
        let stats_bytes = self.stats.heap_bytes();
        Ok((self.finish(drained), stats_bytes))
    }

    /// The cycle loop: warm-up, window and drain, on one thread or on a team of regions.
    fn run_loop(&mut self, control: &Control, team: &mut Option<Team>) -> Result<Ended, Error> {
        let run = self.scenario.run.clone();
        let (window_start, window_end) = (run.warmup_cycles, run.warmup_cycles + run.measure_cycles);
        let hard_end = window_end + run.drain_max_cycles;
        control.start(window_end);
        self.with_hosts(|hosts, net| hosts.start(net))?;
        let interval = self.stats.early.interval;
        let mut next_sample = window_start;
        let drained = loop {
            if self.now == window_start {
                self.stats.backlog_at_start = Some(self.hosts.source_backlog());
            }
            if self.now == window_end {
                self.stats.backlog_at_end = Some(self.hosts.source_backlog());
            }
            // Checkpoints of the early-stop test; idle skipping may pass one, but the backlog cannot
            // change while nothing happens, so sampling at the next visited cycle reads the same value.
            while self.now >= next_sample && next_sample < window_end {
                let backlog = self.hosts.source_backlog();
                if let Some(why) = self.stats.early.sample(backlog, self.stats.accepted_flits) {
                    self.stats.stop_early(self.now, backlog, why);
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
            match team {
                None => self.cycle()?,
                Some(team) => self.cycle_on(team)?,
            }
            if self.in_network() > 0 && self.now - self.counters.last_progress >= run.watchdog_cycles {
                return Ok(Ended::Deadlock { idle: run.watchdog_cycles });
            }
            if let Some(e) = self.hosts.buffer_deadlock(self.now, run.watchdog_cycles, self.stats.worms_refused_total) {
                return Err(e);
            }
            self.now += 1;
            let done = self.now >= window_end && self.stats.outstanding == 0;
            let quiet = self.wheel.is_empty()
                && self.hosts.idle()
                && self.active_routers.is_empty()
                && team.as_ref().is_none_or(|t| t.quiet());
            if !done && quiet {
                // Idle: jump to the next arrival, but stop at the window edges to sample there.
                let mut target = self.hosts.next_timer().unwrap_or(Cycle::MAX).min(hard_end);
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
        Ok(Ended::Run { drained })
    }

    /// Splits the routers, their lanes and the NICs into regions on `run.threads` threads.
    fn start_team(&mut self) -> Team {
        let vcs = self.scenario.switch.model.vcs();
        let wheel_latency = self.wheel.latency();
        let chunks = self.hosts.nic_chunks().to_vec();
        Team::start(Parts {
            topo: &self.topo,
            routing: &self.routing,
            routers: &mut self.routers,
            active: &mut self.active_routers,
            credits: &self.credits,
            view: &self.view,
            vcs,
            chunks: &chunks,
            counters: &self.counters,
            wheel_latency,
            stop_go: self.stop_go.is_some(),
            threads: self.scenario.run.threads as usize,
        })
    }

    /// Takes everything back from the regions.
    fn finish_team(&mut self, team: Team) {
        team.finish(&mut self.routers, &mut self.active_routers, &mut self.credits, &mut self.wheel);
    }

    /// Flits injected + flits copied by replicating switches − flits delivered: in buffers or on channels.
    fn in_network(&self) -> u64 {
        self.hosts.injected_flits() + self.counters.copied_flits - self.hosts.ejected_flits()
    }

    /// Calls `f` with the hosts and the part of the network they touch.
    pub(crate) fn with_hosts<T>(&mut self, f: impl FnOnce(&mut Hosts, &mut Net) -> T) -> T {
        let mut net = Net {
            now: self.now,
            topo: &self.topo,
            routing: &self.routing,
            variants: &mut self.variants,
            packets: &mut self.packets,
            sets: &mut self.dest_sets,
            wheel: &mut self.wheel,
            credits: &mut self.credits,
            counters: &mut self.counters,
            stats: &mut self.stats,
        };
        f(&mut self.hosts, &mut net)
    }

    pub(crate) fn cycle(&mut self) -> Result<(), Error> {
        let now = self.now;
        match &mut self.stop_go {
            Some(sg) => sg.signals(now, &mut self.wheel, &mut self.credits),
            None => self.wheel.deliver_credits(now, &mut self.credits),
        }
        let events = self.wheel.take(now, ROUTERS);
        accept_arrivals(&mut self.routers, &mut self.active_routers, 0, &events, now)?;
        let ejected = self.wheel.take(now, TERMINALS);
        self.eject(&ejected)?;
        if let Some(sg) = &mut self.stop_go {
            sg.arrivals(now, &events, &self.topo, &mut self.wheel);
        }
        self.wheel.recycle(events, ROUTERS);
        self.wheel.recycle(ejected, TERMINALS);
        self.with_hosts(|hosts, net| {
            hosts.fire_timers(net)?;
            hosts.step_nics(net)
        })?;
        self.step_routers();
        Ok(())
    }

    fn step_routers(&mut self) {
        let (now, measuring) = (self.now, self.stats.in_window(self.now));
        let Simulation {
            routers,
            active_routers,
            packets,
            dest_sets,
            routing,
            wheel,
            credits,
            view,
            topo,
            counters,
            ..
        } = self;
        // (every router's queues first, idle ones too: their outputs may still owe credits)
        if view.wanted() {
            for (r, router) in routers.iter().enumerate() {
                router.record_queues(r as u32, now, credits, view);
            }
        }
        let view = &**view;
        let mut ctx =
            StepCtx { now, topo, routing, packets, sets: dest_sets, wheel, credits, counters, measuring, view };
        step_active(routers, active_routers, 0, &mut ctx);
    }

    /// One cycle on a team of regions (`regions.rs`): the same work as [`cycle`](Self::cycle), the
    /// delivery and the stepping of NICs and routers on every region's thread, the hosts on this one.
    fn cycle_on(&mut self, team: &Team) -> Result<(), Error> {
        let now = self.now;
        // (the hosts' part runs on this thread while the others deliver: it reads the wheels, writes
        // neither the routers nor the lanes)
        team.deliver(now, || {
            self.eject_from(team)?;
            if let Some(sg) = &mut self.stop_go {
                for i in 0..team.regions() {
                    for part in 0..team.regions() {
                        sg.arrivals(now, team.wheel(i).due(now, part), &self.topo, &mut self.wheel);
                    }
                }
            }
            self.with_hosts(|hosts, net| hosts.fire_timers(net))
        })?;
        team.clear_due(now);
        let at = self.hosts.nic_step(now, self.stats.in_window(now));
        team.swap_world(&mut self.packets, &mut self.dest_sets);
        let stepped = team.step(at);
        team.swap_world(&mut self.packets, &mut self.dest_sets);
        stepped?;
        self.with_hosts(|hosts, net| hosts.nics_stepped(net))?;
        let routers = team.counters();
        self.counters.flit_hops = routers.flit_hops;
        self.counters.copied_flits = routers.copied_flits;
        self.counters.last_progress = self.counters.last_progress.max(routers.last_progress);
        if let Some(sg) = &mut self.stop_go {
            // (the slots freed this cycle are counted before the next one, whose signals they may set)
            for i in 0..team.regions() {
                for part in 0..team.regions() {
                    sg.freed(now + 1, team.wheel(i).due_credits(now + 1, part), &mut self.wheel);
                }
            }
            team.set_signals(self.wheel.take_signals(now + 1));
        }
        Ok(())
    }

    /// The flits reaching terminals now, from every region's wheel, to the hosts in the order one
    /// thread delivers them: by the cycle they were sent, then by router.
    fn eject_from(&mut self, team: &Team) -> Result<(), Error> {
        let now = self.now;
        let mut due = std::mem::take(&mut self.ejecting);
        for i in 0..team.regions() {
            due.extend(team.wheel(i).due(now, team.hosts_part()));
        }
        if let Some(latency) = &self.eject_latency {
            // (stable: the same sending cycle keeps region, then router, order)
            due.sort_by_key(|a| Reverse(latency[(a.dest & !TO_TERMINAL) as usize]));
        }
        let result = self.eject(&due);
        due.clear();
        self.ejecting = due;
        result
    }

    /// Hands flits reaching terminals to the hosts, in order (on one thread or a team: one call
    /// site, so the hosts' ejection is inlined here once).
    #[inline(never)]
    fn eject(&mut self, arrivals: &[Arrival]) -> Result<(), Error> {
        #[cfg(feature = "worm_counts")]
        crate::worm_counts::with(|c| c.ejections += arrivals.len() as u64);
        for &Arrival { dest, hops, flit, .. } in arrivals {
            // (the ejection channel is not a router-to-router hop: `StepCtx::send_flit`)
            self.with_hosts(|hosts, net| hosts.eject(net, dest & !TO_TERMINAL, flit, hops - 1))?;
        }
        Ok(())
    }

    /// Flits injected + flits copied by replicating switches = flits delivered + flits in buffers
    /// (a stored flit counts once per output still to read it) + flits on channels, and every
    /// router's own bookkeeping holds.
    pub(crate) fn check_conservation(&self) -> Result<(), Error> {
        for (r, router) in self.routers.iter().enumerate() {
            router.check_accounting().map_err(|e| Error::Conservation { message: format!("router {r}: {e}") })?;
        }
        let buffered: u64 = self.routers.iter().map(|r| r.flits() as u64).sum();
        let on_channels = self.wheel.flits() as u64;
        let (injected, ejected, copied) =
            (self.hosts.injected_flits(), self.hosts.ejected_flits(), self.counters.copied_flits);
        if injected + copied != ejected + buffered + on_channels {
            return Err(Error::Conservation {
                message: format!(
                    "{injected} flits injected and {copied} copied but {ejected} delivered, {buffered} buffered and \
                     {on_channels} on channels"
                ),
            });
        }
        Ok(())
    }

    pub(crate) fn deadlock(&self, idle: Cycle) -> Error {
        let blocked = (0..self.routers.len() as u32)
            .filter(|&r| self.active_routers.contains(r as usize))
            .flat_map(|r| self.routers[r as usize].blocked(r, &self.credits))
            .take(MAX_BLOCKED_REPORTED)
            .collect();
        Error::Deadlock { cycle: self.now, idle, blocked }
    }

    fn finish(mut self, drained: bool) -> RunResult {
        let mut names = Vec::new();
        let mut classes = Vec::new();
        let mut flits = Vec::new();
        let mut link_flits = Vec::new();
        for r in 0..self.topo.routers() as u32 {
            for p in 0..self.topo.radix(r) as u8 {
                if let Some(name) = self.topo.channel_name(r, p) {
                    let carried = self.routers[r as usize].window_flits(p);
                    if matches!(self.topo.link(r, p), PortLink::Router { .. }) {
                        link_flits.push(carried);
                    }
                    names.push(name);
                    classes.push(self.topo.classes[self.topo.class[self.topo.port_index(r, p)] as usize].clone());
                    flits.push(carried);
                }
            }
        }
        for (t, &(r, _)) in self.topo.terminal_at.iter().enumerate() {
            names.push(format!("t{t}->r{r}"));
            classes.push(TERMINAL_CLASS.to_string());
            flits.push(self.hosts.injection_flits(t));
        }
        let run = &self.scenario.run;
        self.stats.finish(Finish {
            nodes: self.topo.terminals() as u32,
            message_flits: self.scenario.message_flits(),
            drained,
            drain_max_cycles: run.drain_max_cycles,
            cycles: self.now,
            cycles_skipped: self.skipped,
            seed: run.seed,
            flit_hops: self.counters.flit_hops,
            channel_names: names,
            channel_classes: classes,
            channel_flits: flits,
            link_flits,
            program: self.hosts.programs().report(),
        })
    }
}
