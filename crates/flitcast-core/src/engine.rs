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
use crate::host::program::Site as ProgramSite;
use crate::host::programs::Programs;
use crate::host::Nic;
use crate::memory;
use crate::packet::{Packet, Slab};
use crate::routing::variants::Variants;
use crate::routing::Routing;
use crate::scenario::{SaturationStop, Scenario};
use crate::stats::{Collector, Finish, RunResult};
use crate::stop_go::{self, StopGo};
use crate::switch::{FlowControl, MoveCounters, Router, Site, StepCtx};
use crate::time::Cycle;
use crate::topology::Topology;
use crate::wheel::{Arrival, Wheel, TO_TERMINAL};
use crate::workload::Shape;

/// Largest number of blocked channels a deadlock report lists.
const MAX_BLOCKED_REPORTED: usize = 32;

pub struct Simulation {
    pub(crate) scenario: Scenario,
    pub(crate) topo: Topology,
    routing: Routing,
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
    /// With stop/go flow control: the receivers' buffer counts (`stop_go.rs`).
    stop_go: Option<StopGo>,
    pub(crate) stats: Collector,
    counters: MoveCounters,
    pub(crate) now: Cycle,
    /// Cycles jumped over because nothing in the network had work.
    skipped: u64,
}

impl Simulation {
    pub fn build(scenario: &Scenario) -> Result<Simulation, Error> {
        scenario.validate()?;
        let (net, run) = (&scenario.network, &scenario.run);
        let topo = scenario.topology()?;
        memory::estimate(scenario, &topo).check(memory::limit_bytes(run.memory_limit_mb), run.memory_limit_mb)?;
        let (sw, program) = (&scenario.switch.model, &scenario.workload.program);
        let vcs = sw.vcs();
        let routing = scenario.routing(&topo)?;
        check::routes::verify(&topo, &routing, vcs as u8, scenario.routing.check_deadlock_free)?;
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
        let limits = Limits {
            packet_flits,
            vct: sw.flow_control() == FlowControl::Vct,
            input_delay: sw.input_delay() as Cycle,
            max_live_packets: memory::max_live_packets(scenario, terminals as u64),
            max_live_operations: memory::max_live_operations_of(scenario, terminals as u64),
        };
        let site = ProgramSite {
            topo: &topo,
            shape: Shape { nodes: terminals as u32, digits: net.topology.digits() },
            wraps: net.topology.wraps(),
            hop_cycles: net.channel_latency_cycles + sw.router_delay_cycles(),
            seed: run.seed,
            message_flits,
            packet_flits,
            header_flits: scenario.header_flits(),
        };
        Ok(Simulation {
            hosts: Hosts::new(Programs::build(program, &site), nics, limits),
            stats: Collector::new(run.warmup_cycles, run.measure_cycles, run.batches).for_run(
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
            scenario: scenario.clone(),
            routing,
            routers,
            packets: Slab::default(),
            dest_sets: DestSets::new(terminals),
            topo,
            now: 0,
            skipped: 0,
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
            self.cycle()?;
            if self.in_network() > 0 && self.now - self.counters.last_progress >= run.watchdog_cycles {
                return Err(self.deadlock(run.watchdog_cycles));
            }
            if let Some(e) = self.hosts.buffer_deadlock(self.now, run.watchdog_cycles, self.stats.worms_refused_total) {
                return Err(e);
            }
            self.now += 1;
            let done = self.now >= window_end && self.stats.outstanding == 0;
            if !done && self.wheel.is_empty() && self.hosts.idle() && self.active_routers.is_empty() {
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
        self.check_conservation()?;
        let stats_bytes = self.stats.heap_bytes();
        Ok((self.finish(drained), stats_bytes))
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
        let events = self.wheel.take(now);
        for &Arrival { dest, port, vc, hops, flit } in &events {
            if dest & TO_TERMINAL != 0 {
                // (the ejection channel is not a router-to-router hop: `StepCtx::send_flit`)
                self.with_hosts(|hosts, net| hosts.eject(net, dest & !TO_TERMINAL, flit, hops - 1))?;
                continue;
            }
            if !self.routers[dest as usize].accept_flit(port, vc, flit, hops, now) {
                return Err(Error::Internal {
                    message: format!("buffer overflow at router {dest} port {port} vc {vc} (credit protocol)"),
                });
            }
            self.active_routers.insert(dest as usize);
        }
        if let Some(sg) = &mut self.stop_go {
            sg.arrivals(now, &events, &self.topo, &mut self.wheel);
        }
        self.wheel.recycle(events);
        self.with_hosts(|hosts, net| {
            hosts.fire_timers(net)?;
            hosts.step_nics(net)
        })?;
        self.step_routers();
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
            channel_flits: flits,
            program: self.hosts.programs().report(),
        })
    }
}
