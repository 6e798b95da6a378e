//! Collective operations over a group of hosts (docs/models/collectives.md, "Simulation"): one at
//! cycle 0 (a closed workload), or a stream of them at a rate (`workload.load` > 0: an open workload
//! with a latency–load curve). Each is the operation's schedule (`collective/`): broadcast, reduce,
//! allreduce, barrier or all-to-all by the chosen algorithm.
//!
//! Each member runs its steps in order on its processor, as an MPI process would: a send costs the
//! sender overhead o_s before the message is handed to the NIC (which sends its messages one after the
//! other) and does not wait for it to leave; a receive waits until the message has arrived whole, then
//! costs the receive overhead o_r; a reduction costs γ per flit. Collectives are blocking and ordered,
//! as MPI's are on one communicator: a member starts the next only once it has finished the last, and
//! keeps messages of a later one that arrive early. Each collective is one operation of the
//! statistics, each member served when its last step is done: its latency is the last member's
//! completion. Beside it the program reports the α-β-γ estimate of one collective on the same members
//! (`collective/estimate.rs`): the gap is contention — in the network, and between collectives.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use rand::seq::SliceRandom;

use crate::collective::estimate::{self, Costs, Estimate, Trip};
use crate::collective::schedule::{Message, Rank, Schedule, Step};
use crate::collective::{algorithms, messages, schedule, Algorithm, Operation, Spec};
use crate::facts::Facts;
use crate::host::program::{Delivered, Open, Outbox, Priority, Program, Send, Serves, Site, Target};
use crate::params::{choice, or_list, params, Kind, Problem};
use crate::rng::{stream, StreamKind};
use crate::sizing::{Part, Sizing};
use crate::stats::Report;
use crate::time::Cycle;
use crate::topology::distances;
use crate::workload::{Arrival, Arrivals};

choice! {
    /// Which nodes form a collective's group.
    pub enum Group {
        /// Nodes 0 to P − 1.
        First = "first",
        /// P nodes drawn from run.seed.
        Random = "random",
    }
}

params! {
    /// Collective operations over a group of hosts.
    pub struct Params {
        /// `broadcast`, `reduce`, `allreduce`, `barrier` (one-flit messages) or `alltoall` (the message
        /// size is each pair's block).
        operation: Operation = Operation::Broadcast;
        /// `binomial`, `chain`, `scatter_allgather`, `scatter_ring_allgather`, `recursive_doubling`,
        /// `dissemination`, `ring`, `rabenseifner`, `pairwise` or `hardware` (which carry out which
        /// operation: docs/models/collectives.md); left out: `binomial` for a broadcast or reduce,
        /// `recursive_doubling` for an allreduce, `dissemination` for a barrier (MPICH's), `pairwise`
        /// for an all-to-all.
        scheme: Option<Algorithm> = None;
        /// 0: one collective at cycle 0 (a closed workload). Above: collectives arrive as a Poisson
        /// process at the rate that makes their payload flits this many per node of the network per
        /// cycle (an open workload).
        load: f64 = 0.0, closed(0.0, 1.0), unit("flits/node/cycle");
        /// The group's size P; left out: every node.
        group_size: Option<u32> = None, range(2, 1_048_576);
        /// `first`: nodes 0 to P − 1; `random`: P nodes drawn from run.seed. Ranks follow node order.
        members: Group = Group::First;
        /// The root's rank (broadcast, reduce, and the binomial and hardware allreduce).
        root: u32 = 0, range(0, 1_048_575);
        /// chain: the pipeline's segment; left out: workload.packet_flits.
        segment_flits: Option<u32> = None, range(1, 1_048_576), unit("flits");
        /// Sender overhead o_s: cycles of a member's processor per message sent.
        send_overhead_cycles: u64 = 0, range(0, 1_000_000_000_000), unit("cycles");
        /// Receiver overhead o_r: cycles once a whole message has arrived.
        receive_overhead_cycles: u64 = 0, range(0, 1_000_000_000_000), unit("cycles");
        /// γ: cycles a member's processor spends per flit it reduces.
        reduce_cycles_per_flit: f64 = 0.0, closed(0.0, 1_000_000.0);
    }
}

impl Params {
    /// The algorithm (`workload.scheme`): as set, else the operation's first.
    pub fn algorithm(&self) -> Algorithm {
        self.scheme.unwrap_or(algorithms(self.operation)[0])
    }

    /// One collective of these parameters among `nodes` nodes, of messages of `message_flits` in packets
    /// of `packet_flits`.
    fn spec(&self, nodes: u32, message_flits: u32, packet_flits: u32) -> Spec {
        Spec {
            operation: self.operation,
            algorithm: self.algorithm(),
            ranks: self.group_size.unwrap_or(nodes),
            root: self.root,
            flits: message_flits,
            segment_flits: self.segment_flits.unwrap_or(packet_flits),
        }
    }
}

impl Kind for Collective {
    const NAME: &'static str = "collective";
    const DOC: &'static str =
        "collective operations (broadcast, reduce, allreduce, barrier, all-to-all) over a group of hosts";
    type Params = Params;
}

/// The root's timer tag of a collective's arrival; members' processors use tag 0.
const ARRIVAL: u32 = 1;

/// One collective begun: its operation's id once opened, and the members done with it.
#[derive(Debug, Clone)]
struct Instance {
    operation: Option<u32>,
    done: u32,
}

#[derive(Debug, Clone)]
pub struct Collective {
    schedule: Schedule,
    /// Each rank's node, and each node's rank (`u32::MAX` outside the group).
    hosts: Vec<u32>,
    rank_of: Vec<u32>,
    root: Rank,
    flits: u32,
    /// Payload flits one collective sends.
    payload: u64,
    /// Flits one collective delivers, each message counted once per receiver (its effective load).
    delivers: u64,
    costs: Costs,
    header_flits: u32,
    /// Arrivals of further collectives (an open workload).
    arrivals: Option<Arrivals>,
    /// Collectives begun and not yet finished by every member, from `first` on.
    instances: VecDeque<Instance>,
    first: u64,
    /// Per rank: the collective it is in (or waits for), its next step, and whether its processor is
    /// busy with that step (a timer is set).
    current: Vec<u64>,
    next: Vec<usize>,
    busy: Vec<bool>,
    /// Messages arrived that their receivers have not taken yet: (receiver, collective, message).
    arrived: BTreeSet<(Rank, u64, u32)>,
    /// Members done before their collective's operation had its id: served as it arrives (same cycle).
    done_early: Vec<(u32, u64)>,
    estimate: Estimate,
}

impl Program for Collective {
    fn new(p: &Params, site: &Site) -> Self {
        let nodes = site.shape.nodes;
        let size = p.group_size.unwrap_or(nodes);
        let hosts = members(p.members, size, nodes, site.seed);
        let mut rank_of = vec![u32::MAX; nodes as usize];
        for (r, &h) in hosts.iter().enumerate() {
            rank_of[h as usize] = r as u32;
        }
        let spec = p.spec(nodes, site.message_flits, site.packet_flits);
        let schedule = schedule(&spec);
        let costs = Costs {
            send_overhead: p.send_overhead_cycles,
            receive_overhead: p.receive_overhead_cycles,
            reduce_per_flit: p.reduce_cycles_per_flit,
        };
        let header_flits = if p.algorithm() == Algorithm::Hardware { site.header_flits } else { 0 };
        let trips = Trips::new(site, &hosts, header_flits, &schedule);
        let estimate = estimate::run(&schedule, &costs, |m, to| trips.trip(m, to))
            .expect("every algorithm's schedule runs to the end (tested)");
        let payload: u64 = schedule.messages.iter().map(|m| m.flits as u64).sum();
        // (the effective load counts what the schedule delivers: a message to several receivers, each)
        let delivers = schedule.messages.iter().map(|m| m.flits as u64 * m.to.len() as u64).sum();
        // (collectives per cycle: the load's flits over the network's nodes, a collective's payload each)
        let rate = p.load * nodes as f64 / payload as f64;
        let arrivals = (p.load > 0.0)
            .then(|| Arrivals::new(Arrival::Poisson, rate, stream(site.seed, StreamKind::Arrivals, u64::MAX)));
        Collective {
            current: vec![0; size as usize],
            next: vec![0; size as usize],
            busy: vec![false; size as usize],
            schedule,
            hosts,
            rank_of,
            root: p.root,
            flits: site.message_flits,
            payload,
            delivers,
            costs,
            header_flits,
            arrivals,
            instances: VecDeque::new(),
            first: 0,
            arrived: BTreeSet::new(),
            done_early: Vec::new(),
            estimate,
        }
    }

    fn load(p: &Params) -> f64 {
        p.load
    }

    fn closed(p: &Params) -> bool {
        p.load == 0.0
    }

    fn multidestination(p: &Params) -> bool {
        p.algorithm() == Algorithm::Hardware
    }

    fn bytes(p: &Params, n: &Sizing) -> Vec<Part> {
        let spec = p.spec(n.nodes as u32, n.message_flits, n.packet_flits);
        let keys = format!("workload.operation, workload.scheme, workload.group_size, {}", n.network_keys);
        let messages = messages(&spec);
        // each message: its record, its sender's and receiver's steps, a receiver awaiting it
        let per_message = (size_of::<Message>() + 3 * 8 + 16) as u64;
        // the estimate's distances: one entry per (sender's router, receiver's router) its messages join
        // (a multidestination message reaches every other member), and one search's table of every router
        let receptions = messages + if spec.algorithm == Algorithm::Hardware { n.nodes } else { 0 };
        vec![
            Part { what: "collective schedule", bytes: messages * per_message, keys: keys.clone() },
            Part { what: "collective estimate's distances", bytes: receptions * 48 + n.routers * 24, keys },
        ]
    }

    /// Closed (one collective): each rank hands its NIC one run of sends before it next waits, so the
    /// packets alive at once are about the ranks' largest runs added up (built from the schedule where
    /// it is small enough to build twice; else every packet the schedule sends).
    fn live_packets(p: &Params, n: &Sizing) -> Option<u64> {
        if p.load > 0.0 {
            return None; // (collectives at a rate overlap: the engine's limit holds them)
        }
        let spec = p.spec(n.nodes as u32, n.message_flits, n.packet_flits);
        let packets = |flits: u32| flits.div_ceil(n.packet_flits.max(1)) as u64;
        if messages(&spec) > 1 << 22 {
            return Some(messages(&spec).saturating_mul(packets(spec.flits)));
        }
        let s = schedule(&spec);
        let runs = s.ranks.iter().map(|steps| {
            let (mut run, mut most) = (0u64, 0u64);
            for step in steps {
                match step {
                    Step::Send { id } => run += packets(s.messages[*id as usize].flits),
                    Step::Recv { .. } => run = 0,
                    Step::Reduce { .. } => {}
                }
                most = most.max(run);
            }
            most
        });
        Some(runs.sum())
    }

    fn needs(_: &Params) -> &'static str {
        "a `workload.scheme` (its algorithm) that carries out its `workload.operation` (docs/models/collectives.md), \
         a `workload.group_size` of at most the node count, and a `workload.root` below the group's size"
    }
    fn unfit(p: &Params, f: &Facts) -> Vec<Problem> {
        let mut problems = Vec::new();
        let allowed = algorithms(p.operation);
        if !allowed.contains(&p.algorithm()) {
            let names: Vec<&str> = allowed.iter().map(|a| a.name()).collect();
            let allowed = format!("{} for workload.operation = '{}'", or_list(&names), p.operation.name());
            problems.push(Problem::new("workload.scheme", format!("'{}'", p.algorithm().name()), allowed, None));
        }
        let size = p.group_size.map_or(f.nodes, u64::from);
        if size > f.nodes {
            let allowed = format!("an integer from 2 to {} (the node count)", f.nodes);
            problems.push(Problem::new("workload.group_size", size.to_string(), allowed, None));
        }
        if p.root as u64 >= size {
            let allowed = format!("a rank below the group's size, {size}");
            problems.push(Problem::new("workload.root", p.root.to_string(), allowed, None));
        }
        problems
    }

    /// Each collective is an operation of the group's members (every node where the group is left out):
    /// what bounds the collectives alive at once before a run at a rate stops as saturated.
    fn multicast_degree(p: &Params) -> Option<u32> {
        Some(p.group_size.unwrap_or(u32::MAX))
    }

    fn start(&mut self, out: &mut Outbox) {
        let at = self.arrivals.as_mut().map_or(0, |a| a.next_arrival());
        out.timers.push((at, self.hosts[self.root as usize], ARRIVAL));
    }

    fn on_opened(&mut self, _host: u32, tag: u64, operation: u32, _now: Cycle, out: &mut Outbox) {
        self.instances[(tag - self.first) as usize].operation = Some(operation);
        let (now, later): (Vec<_>, Vec<_>) = self.done_early.drain(..).partition(|&(_, k)| k == tag);
        self.done_early = later;
        out.served.extend(now.into_iter().map(|(h, _)| (h, operation)));
    }

    fn on_timer(&mut self, host: u32, tag: u32, now: Cycle, out: &mut Outbox) {
        if tag == ARRIVAL {
            // (a Poisson process may bring several in one cycle)
            self.begin(now, out);
            while let Some(a) = self.arrivals.as_mut() {
                let next = a.next_arrival();
                if next > now {
                    out.timers.push((next, host, ARRIVAL));
                    break;
                }
                self.begin(now, out);
            }
            return;
        }
        // the step `host`'s processor was busy with is done
        let r = self.rank_of[host as usize];
        let i = r as usize;
        self.busy[i] = false;
        if let Step::Send { id } = self.schedule.ranks[i][self.next[i]] {
            self.send(self.current[i], id, out);
        }
        self.next[i] += 1;
        self.advance(r, now, out);
    }

    fn on_delivered(&mut self, host: u32, message: &Delivered, now: Cycle, out: &mut Outbox) {
        let r = self.rank_of[host as usize];
        let (k, id) = (message.tag >> 32, message.tag as u32);
        let m = &self.schedule.messages[id as usize];
        assert!(
            m.to.contains(&r) && self.arrived.insert((r, k, id)),
            "message {id} of collective {k} reached host {host} (rank {r}), which is not one of its receivers still \
             to receive it"
        );
        self.advance(r, now, out);
    }

    /// Payload flits of the collectives begun that no member has started yet: they wait as a source
    /// queue's messages do (those members have started are in their NICs' queues or sent).
    fn queued_flits(&self) -> u64 {
        let begun = self.first + self.instances.len() as u64;
        let fastest = self.current.iter().copied().max().unwrap_or(begun);
        begun.saturating_sub(fastest + 1) * self.payload
    }

    fn report(&self) -> Option<Report> {
        Some(Report { estimate: Some(self.estimate.completion()), ..Report::default() })
    }
}

impl Collective {
    /// The group's nodes, in rank order.
    pub fn members(&self) -> &[u32] {
        &self.hosts
    }

    /// The α-β-γ estimate of one collective on its members.
    pub fn estimate(&self) -> &Estimate {
        &self.estimate
    }

    /// A collective begins now: its operation opens, and every member that was waiting for it starts it.
    fn begin(&mut self, now: Cycle, out: &mut Outbox) {
        let k = self.first + self.instances.len() as u64;
        self.instances.push_back(Instance { operation: None, done: 0 });
        out.opens.push(Open {
            host: self.hosts[self.root as usize],
            tag: k,
            destinations: self.hosts.clone(),
            flits: self.flits,
            delivers: self.delivers,
        });
        for r in 0..self.hosts.len() as Rank {
            if self.current[r as usize] == k {
                self.advance(r, now, out);
            }
        }
    }

    /// Runs rank `r`'s steps from its next one until it waits (for a message, its processor, or the
    /// next collective) or has no more.
    fn advance(&mut self, r: Rank, now: Cycle, out: &mut Outbox) {
        let i = r as usize;
        loop {
            let k = self.current[i];
            if self.busy[i] || k >= self.first + self.instances.len() as u64 {
                return;
            }
            let Some(step) = self.schedule.ranks[i].get(self.next[i]) else {
                self.finish(r, k, out);
                continue;
            };
            let cost = match *step {
                Step::Send { .. } => self.costs.send_overhead,
                Step::Recv { id } => {
                    if !self.arrived.remove(&(r, k, id)) {
                        return;
                    }
                    self.costs.receive_overhead
                }
                Step::Reduce { flits } => self.costs.reduce(flits),
            };
            if cost > 0 {
                self.busy[i] = true;
                out.timers.push((now + cost, self.hosts[i], 0));
                return;
            }
            if let Step::Send { id } = *step {
                self.send(k, id, out);
            }
            self.next[i] += 1;
        }
    }

    /// Rank `r` has finished collective `k`: it is served, and turns to the next.
    fn finish(&mut self, r: Rank, k: u64, out: &mut Outbox) {
        let i = r as usize;
        let host = self.hosts[i];
        let instance = &mut self.instances[(k - self.first) as usize];
        match instance.operation {
            Some(op) => out.served.push((host, op)),
            None => self.done_early.push((host, k)),
        }
        instance.done += 1;
        self.current[i] = k + 1;
        self.next[i] = 0;
        while self.instances.front().is_some_and(|c| c.done == self.hosts.len() as u32) {
            self.instances.pop_front();
            self.first += 1;
        }
    }

    fn send(&self, k: u64, id: u32, out: &mut Outbox) {
        let Message { from, to, flits } = &self.schedule.messages[id as usize];
        let target = match to.as_slice() {
            [one] => Target::One(self.hosts[*one as usize]),
            many => {
                let mut nodes: Vec<u32> = many.iter().map(|&t| self.hosts[t as usize]).collect();
                nodes.sort_unstable();
                Target::Set(nodes)
            }
        };
        out.sends.push(Send {
            src: self.hosts[*from as usize],
            header_flits: if matches!(target, Target::Set(_)) { self.header_flits } else { 0 },
            target,
            flits: *flits,
            serves: Serves::Nothing,
            tag: k << 32 | id as u64,
            priority: Priority::Unicast,
            cut_through: None,
        });
    }
}

/// The group: `size` of the `nodes` nodes, in increasing order.
fn members(group: Group, size: u32, nodes: u32, seed: u64) -> Vec<u32> {
    match group {
        Group::First => (0..size).collect(),
        Group::Random => {
            let mut all: Vec<u32> = (0..nodes).collect();
            all.shuffle(&mut stream(seed, StreamKind::Group, 0));
            let mut picked = all[..size as usize].to_vec();
            picked.sort_unstable();
            picked
        }
    }
}

/// A message's trip between two members on an idle network (the estimate's α and β): the zero-load
/// latency of a packet of W flits over H router hops, injection channel L_i + (H + 1) router delays D +
/// the H channels between routers + ejection channel L_e + W − 1 (docs/validation.md), and W cycles of
/// the sender's injection channel; W counts the header flits of each packet of a multidestination worm.
struct Trips {
    router_delay: u64,
    packet_flits: u32,
    header_flits: u32,
    /// Per member: its router, and its injection and ejection channels' latencies.
    ends: Vec<(u32, u64, u64)>,
    /// The distance between the routers of each (sender, receiver) pair the schedule's messages join:
    /// as many entries as the schedule has receptions at most, not one per pair of routers.
    distances: HashMap<(u32, u32), distances::Distance>,
    /// Every pair's distance was found: false only where the set-up was interrupted
    /// (`control::building_interrupted`), whose simulation is never run.
    complete: bool,
}

impl Trips {
    fn new(site: &Site, hosts: &[u32], header_flits: u32, schedule: &Schedule) -> Trips {
        let topo = site.topo;
        let ends: Vec<(u32, u64, u64)> = hosts
            .iter()
            .map(|&h| {
                let (router, port) = topo.terminal_at[h as usize];
                let eject = topo.latency[topo.port_index(router, port)] as u64;
                (router, topo.terminal_latency[h as usize] as u64, eject)
            })
            .collect();
        // the receivers' routers of each sender's router, then one search from each sender's router
        let mut wanted: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        for m in &schedule.messages {
            let receivers = wanted.entry(ends[m.from as usize].0).or_default();
            receivers.extend(m.to.iter().map(|&to| ends[to as usize].0));
        }
        let mut pairs = HashMap::new();
        let mut complete = true;
        for (from, receivers) in wanted {
            // (one search per sender's router: seconds on 16,384 nodes, so Ctrl-C is heard here)
            if crate::control::building_interrupted().is_err() {
                complete = false;
                break;
            }
            let reach = distances::from_router(topo, from);
            for to in receivers {
                let d = reach[to as usize].expect("every member reaches every other (checked when routing is built)");
                pairs.insert((from, to), d);
            }
        }
        Trips {
            router_delay: site.router_delay_cycles as u64,
            packet_flits: site.packet_flits,
            header_flits,
            ends,
            distances: pairs,
            complete,
        }
    }

    fn trip(&self, m: &Message, to: Rank) -> Trip {
        let headers = if m.to.len() > 1 { m.flits.div_ceil(self.packet_flits) * self.header_flits } else { 0 };
        let wire = (m.flits + headers) as u64;
        let (from, inject, _) = self.ends[m.from as usize];
        let (at, _, eject) = self.ends[to as usize];
        if !self.complete {
            return Trip { injection: wire, latency: wire };
        }
        let d = self.distances[&(from, at)];
        Trip {
            injection: wire,
            latency: inject + (d.hops as u64 + 1) * self.router_delay + d.latency + eject + wire - 1,
        }
    }
}
