//! One simulation on several threads (`run.threads`; docs/engine.md, "Regions").
//!
//! The routers are cut into regions of consecutive ids, balanced by ports, and the terminals' NICs
//! into chunks of consecutive terminals, one per region. A region owns its routers, the credit
//! counters of their output lanes, its NIC chunk (with its injection lanes) and a timing wheel for
//! what its routers and NICs send. Each cycle has two parallel phases and two short serial ones:
//!
//! - **deliver** (parallel): every region reads every wheel's flits and credits due now and takes
//!   those for its own routers and lanes;
//! - **hosts** (serial, the engine's thread): ejections from all wheels in region order, the programs'
//!   timers, and the stop/go thresholds;
//! - **step** (parallel): every region steps its NICs, then its routers, reading packets and
//!   destination sets that nobody writes meanwhile;
//! - **collect** (serial): what the NICs did (packets started, tails sent) and the regions' counters.
//!
//! Everything crosses regions through the wheels, at least one cycle later, so a region never sees
//! another's state mid-cycle; the rest of the order is fixed by region and terminal order, so the
//! results are those of one thread to the bit.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::thread::JoinHandle;

use crate::bitset::IdSet;
use crate::credits::{LaneSlice, Lanes};
use crate::dest_set::DestSets;
use crate::error::Error;
use crate::host::nics::{lock, NicChunk, NicStep};
use crate::packet::{Packet, Slab};
use crate::routing::Routing;
use crate::switch::{MoveCounters, Router, StepCtx};
use crate::time::Cycle;
use crate::topology::Topology;
use crate::wheel::{Arrival, Wheel};

/// What the packets and destination sets are while the regions step: shared, read-only.
pub struct World {
    pub packets: Slab<Packet>,
    pub sets: DestSets,
}

/// What every region reads, and how they keep in step.
pub struct Shared {
    pub topo: Arc<Topology>,
    pub routing: Arc<Routing>,
    /// Each region's wheel: written by its own region while it steps, read by all while they deliver.
    pub wheels: Vec<RwLock<Wheel>>,
    pub world: RwLock<World>,
    /// Stop/go signals due this cycle (the engine keeps the thresholds; each region sets its lanes).
    pub signals: RwLock<Vec<(u32, u32)>>,
    /// Under stop/go, returned slots go to the engine rather than to the counters.
    pub stop_go: bool,
    /// What each region reports after stepping: its counters and whether it still holds flits.
    pub reports: Vec<Mutex<Report>>,
    gate: Gate,
}

#[derive(Debug, Default)]
pub struct Report {
    pub counters: MoveCounters,
    pub busy: bool,
    pub error: Option<Error>,
}

/// What a phase asks of every region.
#[derive(Debug, Clone, Copy)]
enum Phase {
    Deliver(Cycle),
    Step(NicStep),
    Stop,
}

/// The engine's thread starts a phase by bumping `generation`; each other region does its part and
/// counts itself `done`. Waiting spins a little, then yields the core: the machine may be shared.
struct Gate {
    generation: AtomicU64,
    phase: Mutex<Phase>,
    done: AtomicUsize,
    /// A region's thread failed (panicked): nobody waits for it any longer.
    broken: AtomicBool,
}

const SPINS: u32 = 4_000;

fn wait(mut ready: impl FnMut() -> bool) {
    let mut spins = 0;
    while !ready() {
        if spins < SPINS {
            std::hint::spin_loop();
            spins += 1;
        } else {
            std::thread::yield_now();
        }
    }
}

/// One region: routers `first ..`, their output lanes from `lane_base`, a NIC chunk.
pub struct Region {
    index: usize,
    first: u32,
    routers: Vec<Router>,
    /// Its routers that hold flits, by position in the region.
    active: IdSet,
    lane_base: u32,
    lanes: Vec<u32>,
    nics: Arc<Mutex<NicChunk>>,
    counters: MoveCounters,
}

/// A run of lane counters from lane `base` on.
struct Counters<'a> {
    base: u32,
    lanes: &'a mut [u32],
}

/// The counter of `lane` if one of `runs` holds it.
fn counter<'a>(runs: &'a mut [Counters], lane: u32) -> Option<&'a mut u32> {
    runs.iter_mut().find_map(|run| run.lanes.get_mut(lane.wrapping_sub(run.base) as usize))
}

impl Region {
    /// Takes the credits, stop/go signals and flits due at `now` that are its own.
    fn deliver(&mut self, now: Cycle, shared: &Shared) -> Result<(), Error> {
        let Region { first, routers, active, lane_base, lanes, nics, .. } = self;
        let mut chunk = lock(nics);
        let chunk = &mut *chunk;
        let (own, injection) =
            (Counters { base: *lane_base, lanes }, Counters { base: chunk.lane_base, lanes: &mut chunk.lanes });
        let mut counters = [own, injection];
        for &(lane, value) in read(&shared.signals).iter() {
            if let Some(c) = counter(&mut counters, lane) {
                *c = value;
            }
        }
        for wheel in &shared.wheels {
            let wheel = read(wheel);
            if !shared.stop_go {
                for &lane in wheel.due_credits(now) {
                    if let Some(c) = counter(&mut counters, lane) {
                        *c += 1;
                    }
                }
            }
            for &Arrival { dest, port, vc, hops, flit } in wheel.due(now) {
                // (a terminal's id is marked far above every router's: `TO_TERMINAL`)
                let r = dest.wrapping_sub(*first) as usize;
                if r >= routers.len() {
                    continue;
                }
                if !routers[r].accept_flit(port, vc, flit, hops, now) {
                    return Err(Error::Internal {
                        message: format!("buffer overflow at router {dest} port {port} vc {vc} (credit protocol)"),
                    });
                }
                active.insert(r);
            }
        }
        Ok(())
    }

    /// Steps its NICs, then its routers, into its own wheel.
    fn step(&mut self, at: NicStep, shared: &Shared) {
        let world = read(&shared.world);
        let mut wheel = shared.wheels[self.index].write().unwrap_or_else(|p| p.into_inner());
        let (topo, routing) = (&*shared.topo, &*shared.routing);
        {
            let mut chunk = lock(&self.nics);
            let mut lanes = std::mem::take(&mut chunk.lanes);
            let mut credits = LaneSlice::new(chunk.lane_base as usize, &mut lanes);
            chunk.step(at, &world.packets, routing, topo, &mut credits, &mut wheel);
            chunk.lanes = lanes;
        }
        let Region { first, routers, active, lane_base, lanes, counters, .. } = self;
        let mut ctx = StepCtx {
            now: at.now,
            topo,
            routing,
            packets: &world.packets,
            sets: &world.sets,
            wheel: &mut wheel,
            credits: LaneSlice::new(*lane_base as usize, lanes),
            counters,
            measuring: at.measuring,
        };
        active.retain(|r| {
            let router = &mut routers[r];
            router.step(*first + r as u32, &mut ctx);
            router.flits() > 0
        });
    }

    fn report(&self) -> Report {
        Report { counters: self.counters.clone(), busy: !self.active.is_empty(), error: None }
    }

    /// Runs `phase`; false once told to stop.
    fn run(&mut self, phase: Phase, shared: &Shared) -> bool {
        let result = match phase {
            Phase::Deliver(now) => self.deliver(now, shared),
            Phase::Step(at) => {
                self.step(at, shared);
                Ok(())
            }
            Phase::Stop => return false,
        };
        let mut report = shared.reports[self.index].lock().unwrap_or_else(|p| p.into_inner());
        *report = Report { error: result.err().or(report.error.take()), ..self.report() };
        true
    }
}

fn read<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|p| p.into_inner())
}

fn write<T>(lock: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(|p| p.into_inner())
}

/// A region's thread: waits for each phase, runs its part, and gives its region back at the end.
fn work(mut region: Region, shared: Arc<Shared>) -> Region {
    let mut seen = 0;
    loop {
        wait(|| shared.gate.generation.load(Ordering::Acquire) != seen);
        seen = shared.gate.generation.load(Ordering::Acquire);
        let phase = *shared.gate.phase.lock().unwrap_or_else(|p| p.into_inner());
        let go_on = region.run(phase, &shared);
        shared.gate.done.fetch_add(1, Ordering::AcqRel);
        if !go_on {
            return region;
        }
    }
}

impl Drop for Team {
    /// A run that ends in a panic still stops its threads.
    fn drop(&mut self) {
        if !self.threads.is_empty() {
            *self.shared.gate.phase.lock().unwrap_or_else(|p| p.into_inner()) = Phase::Stop;
            self.shared.gate.generation.fetch_add(1, Ordering::AcqRel);
        }
    }
}

/// Where the routers are cut: `n + 1` router ids, each region holding about as many ports.
pub fn cuts(topo: &Topology, n: usize) -> Vec<u32> {
    let ports = topo.links.len() as u64;
    let routers = topo.routers() as u32;
    let mut cuts = vec![0];
    for i in 1..n as u64 {
        let want = ports * i / n as u64;
        let from = *cuts.last().expect("starts with 0");
        let at = (from..routers).find(|&r| topo.port_base[r as usize] as u64 >= want).unwrap_or(routers);
        cuts.push(at);
    }
    cuts.push(routers);
    cuts
}

/// The regions of a running simulation and the threads that step all but the first.
pub struct Team {
    pub shared: Arc<Shared>,
    /// Region 0, stepped by the engine's own thread.
    own: Option<Region>,
    threads: Vec<JoinHandle<Region>>,
}

/// What the engine lends the regions for a run, and gets back at its end.
pub struct Parts<'a> {
    pub topo: &'a Arc<Topology>,
    pub routing: &'a Arc<Routing>,
    pub routers: &'a mut Vec<Router>,
    pub active: &'a mut IdSet,
    pub credits: &'a mut [u32],
    pub vcs: u32,
    pub chunks: &'a [Arc<Mutex<NicChunk>>],
    pub counters: &'a MoveCounters,
    pub wheel_latency: u32,
    pub stop_go: bool,
}

impl Team {
    /// Cuts the network into `chunks.len()` regions and starts a thread for each but the first.
    pub fn start(parts: Parts) -> Team {
        let Parts { topo, routing, routers, active, credits, vcs, chunks, counters, wheel_latency, stop_go } = parts;
        let n = chunks.len();
        let cuts = cuts(topo, n);
        let lanes = Lanes::new(topo, vcs);
        let mut rest = std::mem::take(routers).into_iter();
        let mut regions: Vec<Region> = (0..n)
            .map(|i| {
                let (first, end) = (cuts[i], cuts[i + 1]);
                let lane_base = topo.port_base[first as usize] * vcs;
                let lane_end = topo.port_base[end as usize] * vcs;
                let mut own = IdSet::new((end - first) as usize);
                for r in first..end {
                    if active.contains(r as usize) {
                        own.insert((r - first) as usize);
                    }
                }
                let mut chunk = lock(&chunks[i]);
                chunk.lane_base = lanes.injection(chunk.base);
                let from = chunk.lane_base as usize;
                chunk.lanes = credits[from..from + (chunk.len() * vcs) as usize].to_vec();
                Region {
                    index: i,
                    first,
                    routers: rest.by_ref().take((end - first) as usize).collect(),
                    active: own,
                    lane_base,
                    lanes: credits[lane_base as usize..lane_end as usize].to_vec(),
                    nics: chunks[i].clone(),
                    counters: if i == 0 { counters.clone() } else { MoveCounters::default() },
                }
            })
            .collect();
        let shared = Arc::new(Shared {
            topo: topo.clone(),
            routing: routing.clone(),
            wheels: (0..n).map(|_| RwLock::new(Wheel::new(wheel_latency))).collect(),
            world: RwLock::new(World { packets: Slab::default(), sets: DestSets::new(0) }),
            signals: RwLock::new(Vec::new()),
            stop_go,
            reports: regions.iter().map(|r| Mutex::new(r.report())).collect(),
            gate: Gate {
                generation: AtomicU64::new(0),
                phase: Mutex::new(Phase::Stop),
                done: AtomicUsize::new(0),
                broken: AtomicBool::new(false),
            },
        });
        let own = regions.remove(0);
        let threads = regions
            .into_iter()
            .map(|region| {
                let shared = shared.clone();
                std::thread::Builder::new()
                    .name(format!("flitcast region {}", region.index))
                    .spawn(move || work(region, shared))
                    .expect("the system starts a thread")
            })
            .collect();
        Team { shared, own: Some(own), threads }
    }

    /// Runs `phase` on every region (the first on this thread) and waits for all of them.
    fn phase(&mut self, phase: Phase) -> Result<(), Error> {
        let gate = &self.shared.gate;
        *gate.phase.lock().unwrap_or_else(|p| p.into_inner()) = phase;
        gate.done.store(0, Ordering::Release);
        gate.generation.fetch_add(1, Ordering::AcqRel);
        if let Some(own) = &mut self.own {
            own.run(phase, &self.shared);
        }
        let others = self.threads.len();
        let threads = &self.threads;
        wait(|| {
            if threads.iter().any(|t| t.is_finished()) && !matches!(phase, Phase::Stop) {
                gate.broken.store(true, Ordering::Release);
                return true;
            }
            gate.done.load(Ordering::Acquire) == others
        });
        if gate.broken.load(Ordering::Acquire) {
            return Err(Error::Internal { message: "a region's thread failed".into() });
        }
        for report in &self.shared.reports {
            if let Some(e) = report.lock().unwrap_or_else(|p| p.into_inner()).error.take() {
                return Err(e);
            }
        }
        Ok(())
    }

    /// Every region takes what is due at `now`.
    pub fn deliver(&mut self, now: Cycle) -> Result<(), Error> {
        self.phase(Phase::Deliver(now))
    }

    /// Every region steps its NICs and routers.
    pub fn step(&mut self, at: NicStep) -> Result<(), Error> {
        self.phase(Phase::Step(at))
    }

    /// The routers' counters over every region.
    pub fn counters(&self) -> MoveCounters {
        let mut total = MoveCounters::default();
        for report in &self.shared.reports {
            let c = &report.lock().unwrap_or_else(|p| p.into_inner()).counters;
            total.flit_hops += c.flit_hops;
            total.copied_flits += c.copied_flits;
            total.last_progress = total.last_progress.max(c.last_progress);
        }
        total
    }

    /// No router holds a flit and nothing is on a channel or about to signal.
    pub fn quiet(&self) -> bool {
        self.shared.reports.iter().all(|r| !r.lock().unwrap_or_else(|p| p.into_inner()).busy)
            && self.shared.wheels.iter().all(|w| read(w).is_empty())
            && read(&self.shared.signals).is_empty()
    }

    /// Read access to region `i`'s wheel (ejections, stop/go).
    pub fn wheel(&self, i: usize) -> RwLockReadGuard<'_, Wheel> {
        read(&self.shared.wheels[i])
    }

    /// Drops what was due at `now` from every wheel, once delivered.
    pub fn clear_due(&self, now: Cycle) {
        for w in &self.shared.wheels {
            write(w).clear_due(now);
        }
    }

    /// Lends `packets` and `sets` to the regions (give them back with the same call).
    pub fn swap_world(&self, packets: &mut Slab<Packet>, sets: &mut DestSets) {
        let mut world = write(&self.shared.world);
        std::mem::swap(packets, &mut world.packets);
        std::mem::swap(sets, &mut world.sets);
    }

    pub fn set_signals(&self, due: Vec<(u32, u32)>) {
        *write(&self.shared.signals) = due;
    }

    pub fn regions(&self) -> usize {
        self.threads.len() + 1
    }

    /// Stops the threads and gives everything back: routers, active set, lane counters, and what is
    /// still on the channels into `wheel`.
    pub fn finish(mut self, routers: &mut Vec<Router>, active: &mut IdSet, credits: &mut [u32], wheel: &mut Wheel) {
        let _ = self.phase(Phase::Stop);
        let mut regions: Vec<Region> = self.own.take().into_iter().collect();
        for t in std::mem::take(&mut self.threads) {
            match t.join() {
                Ok(region) => regions.push(region),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        for region in regions {
            for r in 0..region.routers.len() {
                if region.active.contains(r) {
                    active.insert(region.first as usize + r);
                }
            }
            let base = region.lane_base as usize;
            credits[base..base + region.lanes.len()].copy_from_slice(&region.lanes);
            let mut chunk = lock(&region.nics);
            let base = chunk.lane_base as usize;
            let lanes = std::mem::take(&mut chunk.lanes);
            credits[base..base + lanes.len()].copy_from_slice(&lanes);
            routers.extend(region.routers);
        }
        for w in &self.shared.wheels {
            wheel.absorb(&mut write(w));
        }
    }
}
