//! The five tables of a scenario. Each names its component's kind with a tag (`network.topology`,
//! `switch.model`, `routing.algorithm`, `workload.program`) and holds the keys every kind shares; the
//! kinds' own keys are declared in their files (docs/config.md lists them all).

use crate::host::programs::ProgramKind;
use crate::params::{choice, params};
use crate::routing::RoutingKind;
use crate::switch::SwitchKind;
use crate::topology::TopologyKind;

params! {
    /// Topology and links.
    pub struct Network {
        /// Topology family (see `flitcast list topologies`); its keys follow it.
        topology: TopologyKind = TopologyKind::default();
        /// Cycles a flit takes to cross a router-to-router channel.
        channel_latency_cycles: u32 = 1, range(1, 1000), unit("cycles");
        /// Cycles a flit takes between a host and its switch, both ways; left out:
        /// network.channel_latency_cycles.
        terminal_latency_cycles: Option<u32> = None, range(1, 1000), unit("cycles");
    }
}

params! {
    /// Router microarchitecture.
    pub struct Switch {
        /// Switch microarchitecture (see `flitcast list switches`); its keys follow it.
        model: SwitchKind = SwitchKind::default();
    }
}

params! {
    /// Routing algorithm and the build-time deadlock-freedom check.
    pub struct Routing {
        /// Routing algorithm (see `flitcast list routings`; the networks each runs on are in the rule
        /// "The routing fits the network" below). Its keys follow it.
        algorithm: RoutingKind = RoutingKind::default();
        /// Check at build time that the channel dependency graph is acyclic (for `min_adaptive`, the escape
        /// VC's extended graph, Duato's condition) and refuse the scenario otherwise. Set to false only for
        /// deliberately deadlock-prone setups (e.g. to exercise the deadlock watchdog).
        check_deadlock_free: bool = true;
    }
}

params! {
    /// Traffic: the program every host runs, and message sizes. Sizes are in flits (`packet_flits`,
    /// `message_flits`) or, alternatively, in bytes (`message_bytes` with `flit_bytes` and
    /// `max_packet_bytes`), from which the flit sizes are derived.
    pub struct Workload {
        /// What every host does (see `flitcast list programs`); its keys follow it.
        program: ProgramKind = ProgramKind::default();
        /// Maximum packet size; messages are split into packets.
        packet_flits: u32 = 8, range(1, 4096), unit("flits");
        /// Message size (a mean where a program draws sizes); left out: one packet of
        /// workload.packet_flits.
        message_flits: Option<u32> = None, range(1, 1_000_000), unit("flits");
        /// Message size in bytes (instead of flits). Needs workload.flit_bytes and
        /// workload.max_packet_bytes; then message_flits = ceil(message_bytes / flit_bytes) and
        /// packet_flits = max_packet_bytes / flit_bytes.
        message_bytes: Option<u32> = None, range(1, 4_294_967_295), unit("bytes");
        /// Flit size (only with workload.message_bytes).
        flit_bytes: Option<u32> = None, range(1, 4096), unit("bytes");
        /// Maximum packet size, a multiple of workload.flit_bytes (only with workload.message_bytes).
        max_packet_bytes: Option<u32> = None, range(1, 4_294_967_295), unit("bytes");
    }
}

choice! {
    /// Whether a run past saturation may end before its window does (`stats/early_stop.rs`).
    pub enum SaturationStop {
        /// Stop once the source backlog's growth shows saturation (the documented test).
        Backlog = "backlog",
        /// Always run the whole window and the drain.
        Off = "off",
    }
}

params! {
    /// Warm-up, measurement window, drain, seed and the engine's safety limits.
    pub struct Run {
        /// Cycles simulated before measuring (not counted in the statistics).
        warmup_cycles: u64 = 10_000, range(0, 1_000_000_000), unit("cycles");
        /// Length of the measurement window; operations created in it are measured.
        measure_cycles: u64 = 100_000, range(1, 1_000_000_000), unit("cycles");
        /// After the window, at most this many cycles to complete the measured operations; a point that
        /// does not drain in time is reported as saturated.
        drain_max_cycles: u64 = 100_000, range(0, 1_000_000_000), unit("cycles");
        /// Master seed; every random stream is derived from it.
        seed: u64 = 1, range(0, 9_223_372_036_854_775_807);
        /// Deadlock watchdog: flits in the network and none moved for this many cycles stops the run
        /// with a deadlock error.
        watchdog_cycles: u64 = 10_000, range(1, 1_000_000_000), unit("cycles");
        /// Number of batches the measurement window is cut into for the batch-means confidence interval
        /// (at most run.measure_cycles).
        batches: u32 = 10, range(2, 1000);
        /// Safety limit on the network size (raise it deliberately for huge networks).
        max_nodes: u64 = 65_536, range(1, 1_048_576), unit("nodes");
        /// End a run past saturation early: `backlog` stops it (saturated, no drain) once its source
        /// queues have clearly grown without bound (by more than 10% of the offered traffic) and its
        /// accepted load is precise and settled (95% half-width and drift between the halves of the
        /// elapsed window at most 0.005), never before a tenth of the window (docs/engine.md); loads then
        /// cover the cycles that ran (`measured_cycles`). `off` always runs the whole window and the drain.
        saturation_stop: SaturationStop = SaturationStop::Backlog;
        /// Memory budget of one run; a scenario estimated to need more is refused before anything is
        /// allocated, naming the keys that drive its size. 0: half the machine's memory. Sweeps count
        /// their parallel points against it.
        memory_limit_mb: u64 = 0, range(0, 1_099_511_627_776), unit("MB");
        /// Threads one run is split across: the routers and their hosts are cut into regions that the
        /// threads step side by side each cycle (docs/engine.md, "Regions"). Results are the same to
        /// the bit for every count; it pays on big networks (thousands of nodes), not small ones.
        /// Sweeps count it in their thread budget.
        threads: u32 = 1, range(1, 64), unit("threads");
    }
}
