//! Statistics: warm-up, measurement window, drain (docs/engine.md; columns in docs/results.md).
//!
//! Three levels (docs/results.md, "Operations"): each packet's delivery at each destination
//! (`packet_latency_mean`, `network_latency_mean`, `hops_mean`), each message a host sends (offered
//! load), and each **operation** — an open-loop message, a multicast — whose latency is timed from its
//! creation until its last destination is served (definition (a) of study 000 §7.2: `latency_*`) and
//! averaged over its destinations (definition (b): `latency_dest_mean`). A unicast operation is one
//! message to one destination, so (a) = (b) = the message latency.
//!
//! Operations created in the window [warm-up, warm-up + measure) are *measured*. The run continues
//! past the window (sources keep injecting, so the measured operations see the same load) until every
//! measured operation is complete, or `drain_max_cycles` pass. Loads count flits in the window, per
//! node per cycle: offered = flits of messages sent in it, effective = flits of operations created in
//! it times their destinations (m·B_i of study 000 §7.2), accepted = flits delivered during it (at
//! every destination). Latency confidence: batch means over `batches` equal slices of the window (by
//! creation time), 95% Student-t half-width.
//!
//! Saturation rule (documented in docs/results.md), any of:
//! 1. the drain did not finish: measured operations still incomplete `drain_max_cycles` after the
//!    window — latency would be unbounded;
//! 2. the source queues grew over the window by more than max(1% of the offered flits, two messages
//!    per node) — the network accepts less than is offered;
//! 3. the latency estimate did not converge: 95% half-width above half the mean with at least 100
//!    measured operations.
//!
//! A **closed** workload (a fixed set of operations from cycle 0: `batch`, `torus_multicast`) has no
//! steady state: every operation is measured however late it starts, rates over the window mean
//! nothing and are left empty (NaN), and its own columns take their place: the cycle its last
//! operation completed (`completion_cycles`) and the distribution over every destination of when it
//! was served (`completion_dest_*`), each empty unless every operation completed.
//!
//! A run may also end before its window does, saturated: when its source queues clearly grow without
//! bound (`early_stop.rs`, `run.saturation_stop`), or when more packets are alive than
//! `memory::max_live_packets` allows. Loads and latencies then cover the part of the window that ran
//! (`measured_cycles`), and there is no drain.

pub mod early_stop;
pub mod latency;
pub mod metrics;
pub mod program_report;
pub mod student_t;

pub use early_stop::EarlyStop;
pub use latency::Latencies;
pub use program_report::Report;

use crate::time::Cycle;
use crate::topology::min_hops::MinHops;
use metrics::metrics;
use student_t::student_t_975;

metrics! {
    /// The result of one run: its metric columns (docs/results.md, generated from these declarations)
    /// and the utilisation of each channel.
    pub struct RunResult {
        per_channel {
            /// Every channel's name, its class (`terminal`, or the network's: a dragonfly's `local` and
            /// `global`, a fat tree's levels, a HyperX's dimensions, else `router`), the flits it carried
            /// in the window (all of a closed run) and those per window cycle (NaN for a closed workload).
            channel_names: Vec<String>;
            channel_classes: Vec<String>;
            channel_flits: Vec<u64>;
            channel_utilisation: Vec<f64>;
        }
        /// Flits of the messages sent in the window, per node per window cycle (the cycles of the window that
        /// ran: `measured_cycles`); a software multicast's relayed messages count too. Payload flits only.
        /// A run stopped in its warm-up (saturated before its window) reports it over the cycles it ran.
        offered_load: f64, unit("flits/node/cycle"), empty("a closed workload");
        /// Flits the operations created in the window deliver, each destination counted, per node per window
        /// cycle: the effective applied load m·B_i of study 000 §7.2 (equal to `offered_load` for unicast
        /// traffic; the x axis to plot multicast traffic against). A collective counts what its schedule
        /// delivers (each message once per receiver). Over the cycles run, as `offered_load`, for a run
        /// stopped in its warm-up.
        effective_load: f64, unit("flits/node/cycle"), empty("a closed workload");
        /// Flits delivered (ejected) during the window at every destination, per node per window cycle
        /// (`measured_cycles`): the received load B_o. It counts every flit the ejection links carry,
        /// **header flits included**: a loss-free run of hardware multicasts of L-flit messages with h
        /// header flits per packet accepts `effective_load · (L + h) / L` (with 100 header flits on 64-flit
        /// messages, accepted 0.934 against effective 0.608 is that, not a loss); at most 1.0 (one flit per
        /// node and cycle).
        accepted_load: f64, unit("flits/node/cycle"), empty("a closed workload");
        /// Mean operation latency, definition (a): creation to delivery of the tail flit of its last packet
        /// at its last destination (for unicast traffic: the message latency).
        latency_mean: f64, unit("cycles"), empty("a run that measured no operation");
        /// Mean operation latency, definition (b): the mean over operations of their destinations' mean
        /// latency (equal to `latency_mean` for unicast traffic).
        latency_dest_mean: f64, unit("cycles"), empty("a run that measured no operation");
        /// `latency_mean` over the operations with one destination only: the unicasts of bimodal traffic
        /// (study 000 §7.6).
        latency_unicast_mean: f64, unit("cycles"), empty("a run that measured no such operation");
        /// `latency_mean` over the operations with several destinations.
        latency_multicast_mean: f64, unit("cycles"), empty("a run that measured no such operation");
        /// Half-width of the 95% confidence interval of `latency_mean`, by batch means over `run.batches`
        /// equal slices of the window (Student t).
        latency_ci95: f64, unit("cycles"), empty("fewer than two batches with a measured operation");
        /// Median operation latency (nearest rank; histogram estimate, exact below 2048 cycles and within
        /// 0.1% above: see below).
        latency_p50: f64, unit("cycles"), empty("a run that measured no operation");
        /// 99th percentile of operation latency (nearest rank; histogram estimate as `latency_p50`).
        latency_p99: f64, unit("cycles"), empty("a run that measured no operation");
        /// Largest measured operation latency.
        latency_max: f64, unit("cycles"), empty("a run that measured no operation");
        /// Mean packet latency over its deliveries at each destination: message creation to delivery of
        /// the packet's tail flit (includes source queueing).
        packet_latency_mean: f64, unit("cycles"), empty("a run that measured no packet");
        /// Mean packet network latency: head flit injected into the network to tail flit delivered.
        network_latency_mean: f64, unit("cycles"), empty("a run that measured no packet");
        /// Mean number of router-to-router channels a measured packet crossed.
        hops_mean: f64, unit("channels"), empty("a run that measured no packet");
        /// Of the measured unicast packets, the share that made more router-to-router hops than the
        /// fewest between their source's and destination's routers: routed non-minimally (Valiant, UGAL's
        /// detours, up*/down*'s longer legal routes).
        nonminimal_share: f64, unit("fraction"), empty("a run that measured no unicast packet, and a network of more than 1,024 routers other than a dragonfly");
        /// Deliveries (packet, destination) of packets of measured messages.
        packets_measured: u64, unit("count");
        /// Measured operations that were complete.
        operations_measured: u64, unit("count");
        /// Cycles simulated in total: warm-up + window + drain.
        cycles: u64, unit("cycles");
        /// Cycles of the measurement window that ran: `run.measure_cycles`, or fewer when a saturated run
        /// stopped early (`run.saturation_stop`, or too many packets alive; `saturation_reason` says which).
        measured_cycles: u64, unit("cycles");
        /// Cycles of `cycles` that the engine jumped over because no router, NIC or channel had work (idle
        /// skipping); large at light load, about 0 near saturation.
        cycles_skipped: u64, unit("cycles");
        /// The point is past saturation; its latencies are not steady-state values (see below).
        saturated: bool, unit("bool");
        /// Why `saturated` is true (several reasons joined by `; `).
        saturation_reason: String, unit("text"), empty("a point that is not saturated");
        /// The master seed the run used (`run.seed`).
        seed: u64, unit("—");
        /// Flit traversals of routers over the whole run (warm-up, window and drain).
        flit_hops: u64, unit("count");
        /// Mean over all channels (router-to-router, injection and ejection links) of the flits carried per
        /// window cycle.
        channel_util_mean: f64, unit("fraction"), empty("a closed workload");
        /// The busiest channel's flits per window cycle.
        channel_util_max: f64, unit("fraction"), empty("a closed workload");
        /// Flits waiting in source (injection) queues at the end of the window.
        source_queue_flits: f64, unit("flits"), empty("a closed workload");
        /// Payload flits of the multicast operations (see [Operations](#operations): a group of two counts)
        /// completed during the window, over the whole network: study 001's normalised multicast
        /// throughput (one link's capacity = 1).
        multicast_throughput: f64, unit("flits/cycle"), empty("a closed workload, and a run without multicast operations in its window");
        /// Payload flits of the multicast operations created during the window, over the whole network
        /// (study 001's offered multicast load, as drawn).
        multicast_offered: f64, unit("flits/cycle"), empty("a closed workload, and a run without multicast operations in its window");
        /// Worms the host adapters refused during the window for want of reception buffers (study 001's
        /// NACKed worms; each is retransmitted).
        worms_refused: u64, unit("worms");
        /// A closed workload: the cycle its last operation completed — for study 004's software multicast,
        /// the last destination's reception, its receive overhead done (§4.1's completion latency); for a
        /// batch, its last operation's (equal to `latency_max`: all start at cycle 0). Never more than
        /// `cycles`; a closed workload that did not complete is `saturated`, "incomplete".
        completion_cycles: f64, unit("cycles"), empty("an open workload, and **a closed one that did not complete**");
        /// A closed workload: the mean over every (operation, destination) of the cycles from the
        /// operation's start until that destination was served.
        completion_dest_mean: f64, unit("cycles"), empty("an open workload, and a closed one that did not complete");
        /// The median of the same distribution (histogram estimate, as `latency_p50`).
        completion_dest_p50: f64, unit("cycles"), empty("an open workload, and a closed one that did not complete");
        /// Its 99th percentile (at most `completion_cycles`).
        completion_dest_p99: f64, unit("cycles"), empty("an open workload, and a closed one that did not complete");
        /// Study 004: the root's processor busy sending (the startup latency; its CPU time per multicast,
        /// polling included, is `completion_cycles`: docs/models/torus_multicast.md).
        root_busy_cycles: f64, unit("cycles"), empty("every other workload, and a root that has not sent its last message");
        /// Study 004: link visits (links crossed, summed over messages) / links used.
        link_concentration: f64, unit("ratio"), empty("every other workload, and a multicast that did not complete");
        /// Study 004: the most messages in transit at once (from its sender's overhead until its receiver's
        /// is over).
        link_concurrency: f64, unit("messages"), empty("every other workload, and a multicast that did not complete");
        /// A collective: the α-β-γ estimate of its completion — the same schedule on the same members with
        /// each message taking its zero-load latency and its length in cycles, and no two messages meeting
        /// (docs/models/collectives.md, "The estimate"); `completion_cycles` minus it is what contention
        /// cost.
        estimate_cycles: f64, unit("cycles"), empty("every other workload");
        /// A closed workload: the most flits one link between two routers carried over the whole run
        /// (injection and ejection links left out). Over `link_flits_mean` it is how concentrated the
        /// traffic was — 1 if it was spread evenly over the network's links; a collective whose messages
        /// share links (the busiest link carrying many vectors' worth) shows it here. Counts, not rates: a
        /// closed workload has no steady state.
        link_flits_max: f64, unit("flits"), empty("an open workload (read `channel_util_*`), and a closed one that did not complete");
        /// A closed workload: the mean over every link between two routers of the flits it carried over
        /// the whole run (injection and ejection links left out).
        link_flits_mean: f64, unit("flits"), empty("an open workload (read `channel_util_*`), and a closed one that did not complete");
    }
}

/// Accumulates measurements during a run.
#[derive(Debug, Clone, Default)]
pub struct Collector {
    pub window_start: Cycle,
    pub window_end: Cycle,
    /// Counting ends here: the window's end, or never for a closed workload (all of it is measured).
    count_end: Cycle,
    batches: u32,
    pub offered_flits: u64,
    /// Flits times destinations of the operations created in the window.
    pub effective_flits: u64,
    /// The same two before the window (a run that stops in its warm-up reports its loads over those cycles).
    warmup_offered_flits: u64,
    warmup_effective_flits: u64,
    pub accepted_flits: u64,
    /// Measured operations created but not complete yet.
    pub outstanding: u64,
    /// Measured operations created so far (the next one's measurement id).
    pub operations_opened: u64,
    /// Sum over completed measured operations of their destinations' mean latency (definition (b)).
    dest_latency_sum: f64,
    /// Latency sums and counts of measured operations with one destination [0] and several [1].
    class_sum: [f64; 2],
    class_count: [u64; 2],
    latencies: Latencies,
    batch_sum: Vec<f64>,
    batch_count: Vec<u64>,
    packets: u64,
    packet_latency_sum: f64,
    network_latency_sum: f64,
    hops_sum: u64,
    /// The network's minimal hops (where it can give them), and of the measured unicast packets those
    /// that made more hops than that.
    min_hops: Option<MinHops>,
    unicast_packets: u64,
    nonminimal_packets: u64,
    pub backlog_at_start: Option<u64>,
    pub backlog_at_end: Option<u64>,
    /// Set when the run ended before its window did: the cycle and why.
    pub stopped: Option<(Cycle, String)>,
    /// The early-stop test on the source backlog.
    pub early: EarlyStop,
    /// Per measured message, in creation order: (latency, hops of its last packet) once delivered —
    /// kept only for probes (`keep_each`).
    each: Vec<Option<(u64, u32, f64)>>,
    keep_each: bool,
    /// A closed workload: only an unfinished drain makes it saturated.
    pub closed: bool,
    /// A closed workload's destinations, each when it was served (from its operation's start), and the
    /// cycle the last measured operation completed.
    served: Option<Latencies>,
    last_completed: Cycle,
    multicast_done_flits: u64,
    multicast_opened_flits: u64,
    worms_refused: u64,
    /// Worms refused over the whole run.
    pub worms_refused_total: u64,
}

impl Collector {
    /// A collector that also keeps every measured message's latency and hops (for probes).
    pub fn keeping_each(warmup: Cycle, measure: Cycle) -> Collector {
        Collector { keep_each: true, ..Collector::new(warmup, measure, 1) }
    }

    /// Latency (definition (a)) and hops of the `id`-th measured operation, if complete (with
    /// `keeping_each`).
    pub fn delivered(&self, id: u32) -> Option<(u64, u32)> {
        self.each.get(id as usize).copied().flatten().map(|(latency, hops, _)| (latency, hops))
    }

    /// The `id`-th measured operation's mean latency over its destinations (definition (b)), if complete.
    pub fn delivered_dest_mean(&self, id: u32) -> Option<f64> {
        self.each.get(id as usize).copied().flatten().map(|(_, _, mean)| mean)
    }

    /// This collector, for a run on `nodes` nodes offered `load` flits per node per cycle in messages of
    /// `message_flits` flits; `stop_early`: the run may stop past saturation (`run.saturation_stop`);
    /// `closed` for a closed workload (no steady state: it has no saturation, only its completion, and
    /// never stops early).
    /// The network's minimal hops, against which each unicast packet's are measured.
    pub fn with_min_hops(mut self, min_hops: Option<MinHops>) -> Collector {
        self.min_hops = min_hops;
        self
    }

    pub fn for_run(mut self, stop_early: bool, nodes: u32, load: f64, message_flits: u32, closed: bool) -> Collector {
        let measure = self.window_end - self.window_start;
        // The end-of-run backlog limit of the whole window (rule 2 above), offered traffic taken as
        // expected from the load.
        let window_offered = load * nodes as f64 * measure as f64;
        let threshold = (0.01 * window_offered).max(2.0 * nodes as f64 * message_flits as f64);
        self.closed = closed;
        if closed {
            self.count_end = Cycle::MAX;
            self.served = Some(Latencies::default());
        }
        self.early = EarlyStop::new(stop_early && !closed, measure, threshold, nodes, load);
        self
    }

    /// Ends the run at `now`, saturated, for `why`; `backlog` flits wait at the sources.
    pub fn stop_early(&mut self, now: Cycle, backlog: u64, why: String) {
        self.backlog_at_end = Some(backlog);
        self.stopped = Some((now, why));
    }

    pub fn new(warmup: Cycle, measure: Cycle, batches: u32) -> Collector {
        Collector {
            window_start: warmup,
            window_end: warmup + measure,
            count_end: warmup + measure,
            batches,
            batch_sum: vec![0.0; batches as usize],
            batch_count: vec![0; batches as usize],
            ..Default::default()
        }
    }

    /// Whether what happens at `t` is measured: in the window (or, in a closed workload, from its start).
    #[inline]
    pub fn in_window(&self, t: Cycle) -> bool {
        t >= self.window_start && t < self.count_end
    }

    /// Heap bytes the statistics hold: fixed at creation for a run (probes also keep one entry per
    /// scripted message).
    pub fn heap_bytes(&self) -> usize {
        self.latencies.heap_bytes()
            + (self.batch_sum.capacity() + self.batch_count.capacity()) * 8
            + self.each.capacity() * std::mem::size_of::<Option<(u64, u32, f64)>>()
            + self.early.heap_bytes()
            + self.served.as_ref().map_or(0, Latencies::heap_bytes)
    }

    /// A host sent a message of `flits` flits (offered load).
    #[inline]
    pub fn message_sent(&mut self, now: Cycle, flits: u32) {
        if self.in_window(now) {
            self.offered_flits += flits as u64;
        } else if now < self.window_start {
            self.warmup_offered_flits += flits as u64;
        }
    }

    /// An operation of `flits` flits (a `multicast` or a unicast) delivering `delivers` flits in all
    /// (every destination counted) was created; returns its measurement id if it is measured.
    pub fn operation_opened(&mut self, now: Cycle, flits: u32, delivers: u64, multicast: bool) -> Option<u32> {
        if !self.in_window(now) {
            if now < self.window_start {
                self.warmup_effective_flits += delivers;
            }
            return None;
        }
        self.effective_flits += delivers;
        if multicast {
            self.multicast_opened_flits += flits as u64;
        }
        self.outstanding += 1;
        self.operations_opened += 1;
        if self.keep_each {
            self.each.push(None);
        }
        Some(self.operations_opened as u32 - 1)
    }

    /// An operation of `flits` flits (a `multicast` or a unicast) was completed (measured or not).
    pub fn operation_done(&mut self, now: Cycle, flits: u32, multicast: bool) {
        if multicast && self.in_window(now) {
            self.multicast_done_flits += flits as u64;
        }
    }

    /// A destination of a measured operation was served `latency` cycles after the operation began.
    #[inline]
    pub fn destination_served(&mut self, latency: Cycle) {
        if let Some(served) = &mut self.served {
            served.record(latency);
        }
    }

    /// A host adapter refused a worm.
    pub fn worm_refused(&mut self, now: Cycle) {
        self.worms_refused_total += 1;
        self.worms_refused += self.in_window(now) as u64;
    }

    #[inline]
    pub fn flit_ejected(&mut self, now: Cycle) {
        if self.in_window(now) {
            self.accepted_flits += 1;
        }
    }

    /// A measured packet was delivered after `hops` router-to-router hops; a unicast's source and
    /// destination routers are `ends`.
    pub fn packet_delivered(
        &mut self,
        now: Cycle,
        created: Cycle,
        injected: Cycle,
        hops: u32,
        ends: Option<(u32, u32)>,
    ) {
        if let (Some(min), Some((a, b))) = (&self.min_hops, ends) {
            self.unicast_packets += 1;
            self.nonminimal_packets += u64::from(hops > min.hops(a, b));
        }
        self.packets += 1;
        self.packet_latency_sum += (now - created) as f64;
        self.network_latency_sum += (now - injected) as f64;
        self.hops_sum += hops as u64;
    }

    /// Measured operation `id` (a `multicast` or a unicast), created at `created`, served its last
    /// destination at `now` (that copy having made `hops` hops); `dest_mean` is its destinations' mean
    /// latency.
    pub fn operation_completed(
        &mut self,
        now: Cycle,
        created: Cycle,
        id: u32,
        hops: u32,
        dest_mean: f64,
        multicast: bool,
    ) {
        let lat = now - created;
        self.last_completed = self.last_completed.max(now);
        self.dest_latency_sum += dest_mean;
        let class = multicast as usize;
        self.class_sum[class] += lat as f64;
        self.class_count[class] += 1;
        if self.keep_each {
            self.each[id as usize] = Some((lat, hops, dest_mean));
        }
        self.latencies.record(lat);
        let span = self.window_end - self.window_start;
        // (a closed workload's operation may start after the window: it counts in the last batch)
        let b = ((((created - self.window_start) as u128 * self.batches as u128) / span as u128) as usize)
            .min(self.batches as usize - 1);
        self.batch_sum[b] += lat as f64;
        self.batch_count[b] += 1;
        self.outstanding -= 1;
    }

    /// 95% half-width of the mean latency by batch means (NaN with fewer than two batches with data).
    fn ci95(&self) -> f64 {
        let means: Vec<f64> =
            self.batch_sum.iter().zip(&self.batch_count).filter(|(_, &c)| c > 0).map(|(&s, &c)| s / c as f64).collect();
        let b = means.len();
        if b < 2 {
            return f64::NAN;
        }
        let m = means.iter().sum::<f64>() / b as f64;
        let var = means.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (b - 1) as f64;
        student_t_975(b - 1) * (var / b as f64).sqrt()
    }

    /// Final result. `nodes` normalises loads; `drained` says whether the drain finished.
    pub fn finish(&mut self, f: Finish) -> RunResult {
        let end =
            self.stopped.as_ref().map_or(self.window_end, |(c, _)| (*c).clamp(self.window_start, self.window_end));
        let measured = end - self.window_start;
        let span = measured as f64;
        let per_node_cycle = f.nodes as f64 * span;
        let n = self.latencies.count();
        let mean = self.latencies.mean();
        let ci95 = self.ci95();
        let (p50, p99, max) = (self.latencies.percentile(0.5), self.latencies.percentile(0.99), self.latencies.max());
        // (rates over the window mean nothing for a closed workload: it has no steady state)
        let rate = |count: f64, per: f64| if self.closed { f64::NAN } else { count / per };
        // (a run stopped in its warm-up keeps the loads it applied, over the cycles it ran: it is a
        // point past saturation, and a curve needs its place)
        let (offered, effective) = match &self.stopped {
            Some((at, _)) if *at < self.window_start && *at > 0 => {
                let per = f.nodes as f64 * *at as f64;
                (rate(self.warmup_offered_flits as f64, per), rate(self.warmup_effective_flits as f64, per))
            }
            _ => (rate(self.offered_flits as f64, per_node_cycle), rate(self.effective_flits as f64, per_node_cycle)),
        };
        let accepted = rate(self.accepted_flits as f64, per_node_cycle);
        let complete = self.closed && f.drained && self.stopped.is_none() && n > 0;
        let served = self.served.as_ref().filter(|_| complete);
        let program = f.program.unwrap_or_default();

        let mut reasons = Vec::new();
        if let Some((_, why)) = &self.stopped {
            reasons.push(why.clone());
        } else if !f.drained {
            reasons.push(format!(
                "drain: {} measured operations incomplete {} cycles after the window",
                self.outstanding, f.drain_max_cycles
            ));
        }
        let start = self.backlog_at_start.unwrap_or(0);
        let end = self.backlog_at_end.unwrap_or(start);
        let growth = end.saturating_sub(start);
        let limit = (0.01 * self.offered_flits as f64).max(2.0 * f.nodes as f64 * f.message_flits as f64);
        if growth as f64 > limit && !self.closed {
            reasons.push(format!("source queues grew by {growth} flits over the window"));
        }
        if n >= 100 && ci95 > 0.5 * mean && !self.closed {
            reasons.push(format!("latency did not converge (95% half-width {ci95:.1} > half the mean {mean:.1})"));
        }
        let pk = self.packets.max(1) as f64;
        let util: Vec<f64> = f.channel_flits.iter().map(|&c| rate(c as f64, span)).collect();
        let multicasts = self.multicast_done_flits + self.multicast_opened_flits > 0;
        RunResult {
            offered_load: offered,
            effective_load: effective,
            accepted_load: accepted,
            latency_mean: mean,
            latency_dest_mean: if n > 0 { self.dest_latency_sum / n as f64 } else { f64::NAN },
            latency_unicast_mean: self.class_sum[0] / self.class_count[0] as f64,
            latency_multicast_mean: self.class_sum[1] / self.class_count[1] as f64,
            latency_ci95: ci95,
            latency_p50: p50,
            latency_p99: p99,
            latency_max: max,
            packet_latency_mean: if self.packets > 0 { self.packet_latency_sum / pk } else { f64::NAN },
            network_latency_mean: if self.packets > 0 { self.network_latency_sum / pk } else { f64::NAN },
            hops_mean: if self.packets > 0 { self.hops_sum as f64 / pk } else { f64::NAN },
            nonminimal_share: if self.unicast_packets > 0 {
                self.nonminimal_packets as f64 / self.unicast_packets as f64
            } else {
                f64::NAN
            },
            packets_measured: self.packets,
            operations_measured: n,
            cycles: f.cycles,
            measured_cycles: measured,
            cycles_skipped: f.cycles_skipped,
            saturated: !reasons.is_empty(),
            saturation_reason: reasons.join("; "),
            seed: f.seed,
            flit_hops: f.flit_hops,
            channel_util_mean: if util.is_empty() { 0.0 } else { util.iter().sum::<f64>() / util.len() as f64 },
            channel_util_max: util.iter().copied().reduce(f64::max).unwrap_or(0.0),
            source_queue_flits: if self.closed { f64::NAN } else { end as f64 },
            // (a run that multicast nothing in its window has no multicast throughput: empty, not 0)
            multicast_throughput: if multicasts { rate(self.multicast_done_flits as f64, span) } else { f64::NAN },
            multicast_offered: if multicasts { rate(self.multicast_opened_flits as f64, span) } else { f64::NAN },
            worms_refused: self.worms_refused,
            completion_cycles: if complete { self.last_completed as f64 } else { f64::NAN },
            completion_dest_mean: served.map_or(f64::NAN, Latencies::mean),
            completion_dest_p50: served.map_or(f64::NAN, |s| s.percentile(0.5)),
            completion_dest_p99: served.map_or(f64::NAN, |s| s.percentile(0.99)),
            root_busy_cycles: program.root_busy.map_or(f64::NAN, |c| c as f64),
            link_concentration: program.link_concentration.unwrap_or(f64::NAN),
            link_concurrency: program.concurrency.map_or(f64::NAN, |c| c as f64),
            estimate_cycles: program.estimate.map_or(f64::NAN, |c| c as f64),
            link_flits_max: match f.link_flits.iter().max() {
                Some(&most) if complete => most as f64,
                _ => f64::NAN,
            },
            link_flits_mean: if complete && !f.link_flits.is_empty() {
                f.link_flits.iter().sum::<u64>() as f64 / f.link_flits.len() as f64
            } else {
                f64::NAN
            },
            channel_names: f.channel_names,
            channel_classes: f.channel_classes,
            channel_flits: f.channel_flits,
            channel_utilisation: util,
        }
    }
}

/// Results are equal when every field is, an empty mean (NaN) equal to an empty mean: what
/// determinism and the same-result tests mean by identical. (Floats serialise exactly.)
impl PartialEq for RunResult {
    fn eq(&self, other: &RunResult) -> bool {
        serde_json::to_string(self).ok() == serde_json::to_string(other).ok()
    }
}

/// What the engine hands over at the end of a run.
pub struct Finish {
    pub nodes: u32,
    pub message_flits: u32,
    pub drained: bool,
    pub drain_max_cycles: u64,
    pub cycles: u64,
    pub cycles_skipped: u64,
    pub seed: u64,
    pub flit_hops: u64,
    pub channel_names: Vec<String>,
    pub channel_classes: Vec<String>,
    pub channel_flits: Vec<u64>,
    /// The flits of each link between two routers, counted as `channel_flits` (all of a closed run).
    pub link_flits: Vec<u64>,
    /// What the host programs measured (study 004's program only).
    pub program: Option<Report>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles() {
        assert_eq!(student_t_975(9), 2.262);
        assert!((student_t_975(60) - 2.000).abs() < 2e-3);
        assert!((student_t_975(1000) - 1.962).abs() < 2e-3);
    }

    #[test]
    fn percentiles_and_batches() {
        let mut c = Collector::new(0, 100, 2);
        for i in 0..100u64 {
            let id = c.operation_opened(i, 1, 1, false).unwrap(); // (one flit delivered)
            c.operation_completed(i + 1 + i % 10, i, id, 0, (1 + i % 10) as f64, false);
        }
        let r = c.finish(Finish {
            nodes: 1,
            message_flits: 1,
            drained: true,
            drain_max_cycles: 0,
            cycles: 200,
            cycles_skipped: 0,
            seed: 0,
            flit_hops: 0,
            channel_names: vec![],
            channel_classes: vec![],
            channel_flits: vec![],
            link_flits: vec![],
            program: None,
        });
        assert_eq!(r.operations_measured, 100);
        assert_eq!(r.latency_mean, 5.5);
        assert_eq!(r.latency_p50, 5.0);
        assert_eq!(r.latency_max, 10.0);
        assert_eq!(r.latency_ci95, 0.0); // both batches have mean 5.5
        assert!(!r.saturated);
    }
}
