//! One simulation on several threads (`run.threads`; docs/engine.md, "Regions").
//!
//! The routers are cut into regions of consecutive ids, balanced by ports, and the terminals' NICs
//! into chunks of consecutive terminals, one per region. A region owns its routers, the credit
//! counters of their output lanes and of its NICs' injection lanes, and a timing wheel for what its
//! routers and NICs send. Each cycle has two parallel phases, in which the threads take regions one at a
//! time until none is left:
//!
//! - **deliver**: each region takes, from every region's wheel, the flits and credits due now for its
//!   own routers and lanes; meanwhile the engine's thread does the hosts' part of the cycle (ejections,
//!   in region order; the programs' timers), then joins in;
//! - **step**: each region steps its NICs, then its routers, reading packets and destination sets that
//!   nobody writes meanwhile;
//!
//! and what the NICs did is collected on the engine's thread after the step. Everything crosses regions
//! through the wheels, at least one cycle later, so a region never sees another's state mid-cycle; the
//! rest of the order is fixed by region and terminal order, never by which thread ran what, so the
//! results are those of one thread to the bit.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::thread::JoinHandle;

use crate::bitset::IdSet;
use crate::credits::Lanes;
use crate::dest_set::DestSets;
use crate::error::Error;
use crate::host::nics::{lock, NicChunk, NicStep};
use crate::packet::{Packet, Slab};
use crate::queue_view::QueueView;
use crate::routing::Routing;
use crate::switch::visit::{accept_arrivals, step_active};
use crate::switch::{MoveCounters, Router, StepCtx};
use crate::time::Cycle;
use crate::topology::Topology;
use crate::wheel::{Split, Wheel};

/// Regions per thread: more regions than threads let a thread that finishes early take another, and
/// let the others deliver while the engine's thread does the hosts' work.
const REGIONS_PER_THREAD: usize = 2;

/// Regions (and NIC chunks) of a run on `threads` threads; 1 on one thread.
pub fn regions_for(threads: u32) -> usize {
    if threads > 1 {
        threads as usize * REGIONS_PER_THREAD
    } else {
        1
    }
}

/// What the packets and destination sets are while the regions step: shared, read-only.
struct World {
    packets: Slab<Packet>,
    sets: DestSets,
}

/// What every thread reads, and how they keep in step.
struct Shared {
    topo: Arc<Topology>,
    routing: Arc<Routing>,
    /// Every router output's queue as the cycle began (UGAL-G): each region records its routers' at the
    /// end of its delivery, and every region reads any entry while it steps.
    view: Arc<QueueView>,
    regions: Vec<Mutex<Region>>,
    /// Each region's wheel: written by its own region while it steps, read by all while they deliver.
    wheels: Vec<RwLock<Wheel>>,
    world: RwLock<World>,
    /// Stop/go signals due this cycle (the engine keeps the thresholds; each region sets its lanes).
    signals: RwLock<Vec<(u32, u32)>>,
    /// Under stop/go, returned slots go to the engine rather than to the counters.
    stop_go: bool,
    gate: Gate,
}

/// What a phase asks of every region.
#[derive(Debug, Clone, Copy)]
enum Phase {
    Deliver(Cycle),
    Step(NicStep),
    Stop,
}

/// The engine's thread starts a phase by bumping `generation`; every thread takes regions until none
/// is left, and the phase ends when all are `finished` — so if the other threads are slow to wake (a
/// busy machine), the engine's thread does the work alone rather than wait for them. A region is taken
/// with a ticket of the phase's generation and the region's index (`next`), so a thread that wakes late
/// cannot take a region of the next phase for the last one. Waiting spins a little, then yields the
/// core.
struct Gate {
    generation: AtomicU64,
    phase: Mutex<Phase>,
    /// generation << 32 | the next region to take.
    next: AtomicU64,
    finished: AtomicUsize,
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

/// One region: routers `first ..`, NIC chunk `nics`, its copy of every lane's counter (of which it owns
/// `owned`: its routers' outputs and its NICs' injection channels), and what it reports after each
/// phase. (A whole copy, so that routers index counters by lane as on one thread.)
struct Region {
    index: usize,
    first: u32,
    routers: Vec<Router>,
    /// Its routers that hold flits, by position in the region.
    active: IdSet,
    lanes: Vec<u32>,
    owned: [std::ops::Range<usize>; 2],
    nics: Arc<Mutex<NicChunk>>,
    /// Where its routers and NICs send, poured into its part of the shared wheels after each step.
    sent: Wheel,
    counters: MoveCounters,
    error: Option<Error>,
}

impl Region {
    /// Takes the credits, stop/go signals and flits due at `now` that are its own.
    fn deliver(&mut self, now: Cycle, shared: &Shared) -> Result<(), Error> {
        let Region { index, first, routers, active, lanes, owned, .. } = self;
        for &(lane, value) in read(&shared.signals).iter() {
            if owned.iter().any(|o| o.contains(&(lane as usize))) {
                lanes[lane as usize] = value;
            }
        }
        // (every wheel keeps what is for this region apart: `Split`)
        for wheel in &shared.wheels {
            let wheel = read(wheel);
            if !shared.stop_go {
                for &lane in wheel.due_credits(now, *index) {
                    lanes[lane as usize] += 1;
                }
            }
            accept_arrivals(routers, active, *first, wheel.due(now, *index), now)?;
        }
        if shared.view.wanted() {
            for (i, router) in routers.iter().enumerate() {
                router.record_queues(*first + i as u32, now, lanes, &shared.view);
            }
        }
        Ok(())
    }

    /// Steps its NICs, then its routers, into its own wheel.
    fn step(&mut self, at: NicStep, shared: &Shared) {
        let world = read(&shared.world);
        let (topo, routing) = (&*shared.topo, &*shared.routing);
        lock(&self.nics).step(at, &world.packets, routing, topo, &mut self.lanes, &mut self.sent);
        let Region { first, routers, active, lanes, counters, sent, .. } = self;
        let mut ctx = StepCtx {
            now: at.now,
            topo,
            routing,
            packets: &world.packets,
            sets: &world.sets,
            wheel: sent,
            credits: lanes,
            counters,
            measuring: at.measuring,
            view: &shared.view,
        };
        step_active(routers, active, *first, &mut ctx);
        write(&shared.wheels[self.index]).pour(&mut self.sent);
    }

    fn run(&mut self, phase: Phase, shared: &Shared) {
        let result = match phase {
            Phase::Deliver(now) => self.deliver(now, shared),
            Phase::Step(at) => {
                self.step(at, shared);
                Ok(())
            }
            Phase::Stop => Ok(()),
        };
        if let Err(e) = result {
            self.error.get_or_insert(e);
        }
    }
}

fn read<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|p| p.into_inner())
}

fn write<T>(lock: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(|p| p.into_inner())
}

fn region(shared: &Shared, i: usize) -> MutexGuard<'_, Region> {
    lock(&shared.regions[i])
}

impl Shared {
    /// Takes regions of the phase of `generation` and runs `phase` on them until none is left.
    fn take_regions(&self, generation: u64, phase: Phase) {
        let next = &self.gate.next;
        let mut ticket = next.load(Ordering::Acquire);
        while ticket >> 32 == generation & 0xffff_ffff && ((ticket & 0xffff_ffff) as usize) < self.regions.len() {
            match next.compare_exchange_weak(ticket, ticket + 1, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => {
                    region(self, (ticket & 0xffff_ffff) as usize).run(phase, self);
                    self.gate.finished.fetch_add(1, Ordering::AcqRel);
                    ticket = next.load(Ordering::Acquire);
                }
                Err(now) => ticket = now,
            }
        }
    }
}

/// A region's thread: waits for each phase and takes regions until none is left.
fn work(shared: Arc<Shared>) {
    let mut seen = 0;
    loop {
        wait(|| shared.gate.generation.load(Ordering::Acquire) != seen);
        seen = shared.gate.generation.load(Ordering::Acquire);
        let phase = *lock(&shared.gate.phase);
        if matches!(phase, Phase::Stop) {
            return;
        }
        shared.take_regions(seen, phase);
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

/// How the regions' wheels are cut: a part per region, for its routers and its lanes (router outputs
/// and its NICs' injection channels), and a last one for the terminals.
fn split(topo: &Topology, lanes: &Lanes, vcs: u32, cuts: &[u32], chunks: &[Arc<Mutex<NicChunk>>]) -> Split {
    let mut of_router = vec![0u8; topo.routers()];
    let mut of_lane = vec![0u8; lanes.count(topo)];
    for (i, w) in cuts.windows(2).enumerate() {
        for r in w[0]..w[1] {
            of_router[r as usize] = i as u8;
            let ports = topo.port_base[r as usize] * vcs..topo.port_base[r as usize + 1] * vcs;
            of_lane[ports.start as usize..ports.end as usize].fill(i as u8);
        }
    }
    for (i, chunk) in chunks.iter().enumerate() {
        let chunk = lock(chunk);
        let from = lanes.injection(chunk.base) as usize;
        of_lane[from..from + (chunk.len() * vcs) as usize].fill(i as u8);
    }
    Split { parts: cuts.len(), of_router: of_router.into(), of_lane: of_lane.into() }
}

/// The regions of a running simulation and the threads that help step them.
pub struct Team {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

/// What the engine lends the regions for a run.
pub struct Parts<'a> {
    pub topo: &'a Arc<Topology>,
    pub routing: &'a Arc<Routing>,
    pub routers: &'a mut Vec<Router>,
    pub active: &'a mut IdSet,
    pub credits: &'a [u32],
    pub view: &'a Arc<QueueView>,
    pub vcs: u32,
    /// One NIC chunk per region.
    pub chunks: &'a [Arc<Mutex<NicChunk>>],
    pub counters: &'a MoveCounters,
    pub wheel_latency: u32,
    pub stop_go: bool,
    pub threads: usize,
}

impl Team {
    /// Cuts the network into `chunks.len()` regions and starts `threads - 1` threads to help the
    /// engine's.
    pub fn start(parts: Parts) -> Team {
        let Parts {
            topo,
            routing,
            routers,
            active,
            credits,
            view,
            vcs,
            chunks,
            counters,
            wheel_latency,
            stop_go,
            threads,
        } = parts;
        let n = chunks.len();
        let cuts = cuts(topo, n);
        let lanes = Lanes::new(topo, vcs);
        let split = split(topo, &lanes, vcs, &cuts, chunks);
        let mut rest = std::mem::take(routers).into_iter();
        let regions = (0..n)
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
                let chunk = lock(&chunks[i]);
                let injection_base = lanes.injection(chunk.base);
                let injection_end = injection_base + chunk.len() * vcs;
                Mutex::new(Region {
                    index: i,
                    first,
                    routers: rest.by_ref().take((end - first) as usize).collect(),
                    active: own,
                    lanes: credits.to_vec(),
                    owned: [lane_base as usize..lane_end as usize, injection_base as usize..injection_end as usize],
                    nics: chunks[i].clone(),
                    sent: Wheel::new(wheel_latency),
                    counters: if i == 0 { counters.clone() } else { MoveCounters::default() },
                    error: None,
                })
            })
            .collect();
        *active = IdSet::new(0);
        let shared = Arc::new(Shared {
            topo: topo.clone(),
            routing: routing.clone(),
            view: view.clone(),
            regions,
            wheels: (0..n).map(|_| RwLock::new(Wheel::split(wheel_latency, split.clone()))).collect(),
            world: RwLock::new(World { packets: Slab::default(), sets: DestSets::new(0) }),
            signals: RwLock::new(Vec::new()),
            stop_go,
            gate: Gate {
                generation: AtomicU64::new(0),
                phase: Mutex::new(Phase::Stop),
                next: AtomicU64::new(0),
                finished: AtomicUsize::new(0),
            },
        });
        let threads = (1..threads)
            .map(|i| {
                let shared = shared.clone();
                std::thread::Builder::new()
                    .name(format!("flitcast region thread {i}"))
                    .spawn(move || work(shared))
                    .expect("the system starts a thread")
            })
            .collect();
        Team { shared, threads }
    }

    /// Runs `phase` on every region, the engine's thread doing `first` before it takes regions too,
    /// and waits for all of them.
    fn phase(&self, phase: Phase, first: impl FnOnce() -> Result<(), Error>) -> Result<(), Error> {
        let gate = &self.shared.gate;
        *lock(&gate.phase) = phase;
        let generation = gate.generation.load(Ordering::Acquire) + 1;
        gate.finished.store(0, Ordering::Release);
        gate.next.store((generation & 0xffff_ffff) << 32, Ordering::Release);
        gate.generation.store(generation, Ordering::Release);
        let mine = first();
        self.shared.take_regions(generation, phase);
        let broken = AtomicBool::new(false);
        let regions = self.shared.regions.len();
        wait(|| {
            if self.threads.iter().any(|t| t.is_finished()) {
                broken.store(true, Ordering::Relaxed);
                return true;
            }
            gate.finished.load(Ordering::Acquire) == regions
        });
        if broken.load(Ordering::Relaxed) {
            return Err(Error::Internal { message: "a thread of the run's regions failed".into() });
        }
        mine?;
        for i in 0..self.shared.regions.len() {
            if let Some(e) = region(&self.shared, i).error.take() {
                return Err(e);
            }
        }
        Ok(())
    }

    /// Every region takes what is due at `now`, while this thread does `hosts` first.
    pub fn deliver(&self, now: Cycle, hosts: impl FnOnce() -> Result<(), Error>) -> Result<(), Error> {
        self.phase(Phase::Deliver(now), hosts)
    }

    /// Every region steps its NICs and routers.
    pub fn step(&self, at: NicStep) -> Result<(), Error> {
        self.phase(Phase::Step(at), || Ok(()))
    }

    /// The routers' counters over every region.
    pub fn counters(&self) -> MoveCounters {
        let mut total = MoveCounters::default();
        for i in 0..self.shared.regions.len() {
            let c = &region(&self.shared, i).counters;
            total.flit_hops += c.flit_hops;
            total.copied_flits += c.copied_flits;
            total.last_progress = total.last_progress.max(c.last_progress);
        }
        total
    }

    /// No router holds a flit and nothing is on a channel or about to signal.
    pub fn quiet(&self) -> bool {
        (0..self.shared.regions.len()).all(|i| region(&self.shared, i).active.is_empty())
            && self.shared.wheels.iter().all(|w| read(w).is_empty())
            && read(&self.shared.signals).is_empty()
    }

    /// The part of a wheel's bucket for the terminals (`Split`).
    pub fn hosts_part(&self) -> usize {
        self.shared.regions.len()
    }

    pub fn regions(&self) -> usize {
        self.shared.regions.len()
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

    /// Stops the threads and gives everything back: routers, active set, lane counters, and what is
    /// still on the channels into `wheel`.
    pub fn finish(mut self, routers: &mut Vec<Router>, active: &mut IdSet, credits: &mut [u32], wheel: &mut Wheel) {
        self.stop();
        for t in std::mem::take(&mut self.threads) {
            if let Err(panic) = t.join() {
                std::panic::resume_unwind(panic);
            }
        }
        let mut all = Vec::new();
        for i in 0..self.shared.regions.len() {
            let mut region = region(&self.shared, i);
            all.extend(region.active_ids());
            for own in region.owned.clone() {
                credits[own.clone()].copy_from_slice(&region.lanes[own]);
            }
            routers.append(&mut region.routers);
        }
        *active = IdSet::new(routers.len());
        for r in all {
            active.insert(r);
        }
        for w in &self.shared.wheels {
            wheel.absorb(&mut write(w));
        }
    }

    fn stop(&self) {
        *lock(&self.shared.gate.phase) = Phase::Stop;
        self.shared.gate.generation.fetch_add(1, Ordering::AcqRel);
    }
}

impl Region {
    fn active_ids(&self) -> Vec<usize> {
        (0..self.routers.len()).filter(|&r| self.active.contains(r)).map(|r| self.first as usize + r).collect()
    }
}

impl Drop for Team {
    /// A run that ends in a panic still stops its threads.
    fn drop(&mut self) {
        if !self.threads.is_empty() {
            self.stop();
        }
    }
}
