//! One collective operation over a group of hosts (docs/models/collectives.md, "Simulation"): at cycle
//! 0 every member starts the operation's schedule (`collective/`): broadcast, reduce, allreduce,
//! barrier or all-to-all by the chosen algorithm, and the run ends when every member is done.
//!
//! Each member runs its steps in order on its processor, as an MPI process would: a send costs the
//! sender overhead o_s before the message is handed to the NIC (which sends its messages one after the
//! other) and does not wait for it to leave; a receive waits until the message has arrived whole, then
//! costs the receive overhead o_r; a reduction costs γ per flit. The operation's statistics count each
//! member as served when its last step is done (`Outbox::served`): the completion time is the last
//! member's, and the per-destination completions are the members'. Beside it the program reports the
//! α-β-γ estimate of the same schedule on the same members (`collective/estimate.rs`): the gap between
//! the two is contention.

use std::collections::{BTreeMap, BTreeSet};

use rand::seq::SliceRandom;

use crate::collective::estimate::{self, Costs, Trip};
use crate::collective::schedule::{Message, Rank, Schedule, Step};
use crate::collective::{algorithms, schedule, Algorithm, Operation, Spec};
use crate::host::program::{Delivered, Outbox, Priority, Program, Report, Send, Serves, Site, Target};
use crate::params::{choice, params, Kind};
use crate::rng::{stream, StreamKind};
use crate::time::Cycle;
use crate::topology::distances;

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
    /// One collective operation over a group of hosts.
    pub struct Params {
        /// `broadcast`, `reduce`, `allreduce`, `barrier` (one-flit messages) or `alltoall` (the message
        /// size is each pair's block).
        operation: Operation = Operation::Broadcast;
        /// `binomial`, `chain`, `recursive_doubling`, `ring`, `rabenseifner`, `pairwise` or `hardware`
        /// (which carry out which operation: docs/models/collectives.md); left out: `binomial` for a
        /// broadcast or reduce, `recursive_doubling` for an allreduce or barrier, `pairwise` for an
        /// all-to-all.
        scheme: Option<Algorithm> = None;
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
}

impl Kind for Collective {
    const NAME: &'static str = "collective";
    const DOC: &'static str =
        "one collective operation (broadcast, reduce, allreduce, barrier, all-to-all) over a group of hosts";
    type Params = Params;
}

#[derive(Debug, Clone)]
pub struct Collective {
    schedule: Schedule,
    /// Each rank's node, and each node's rank (`u32::MAX` outside the group).
    hosts: Vec<u32>,
    rank_of: Vec<u32>,
    root: Rank,
    flits: u32,
    costs: Costs,
    header_flits: u32,
    /// Each rank's next step, and whether its processor is busy with it (a timer is set).
    next: Vec<usize>,
    busy: Vec<bool>,
    done: Vec<bool>,
    /// Messages arrived that their receivers have not taken yet: (receiver, message).
    arrived: BTreeSet<(Rank, u32)>,
    operation: Option<u32>,
    /// Hosts done before the operation had its id (served as it arrives, the same cycle).
    done_early: Vec<u32>,
    estimate: u64,
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
        let spec = Spec {
            operation: p.operation,
            algorithm: p.algorithm(),
            ranks: size,
            root: p.root,
            flits: site.message_flits,
            segment_flits: p.segment_flits.unwrap_or(site.packet_flits),
        };
        let schedule = schedule(&spec);
        let costs = Costs {
            send_overhead: p.send_overhead_cycles,
            receive_overhead: p.receive_overhead_cycles,
            reduce_per_flit: p.reduce_cycles_per_flit,
        };
        let header_flits = if p.algorithm() == Algorithm::Hardware { site.header_flits } else { 0 };
        let trips = Trips::new(site, &hosts, header_flits);
        let estimate = estimate::run(&schedule, &costs, |m, to| trips.trip(m, to))
            .expect("every algorithm's schedule runs to the end (tested)")
            .completion();
        Collective {
            next: vec![0; size as usize],
            busy: vec![false; size as usize],
            done: vec![false; size as usize],
            schedule,
            hosts,
            rank_of,
            root: p.root,
            flits: site.message_flits,
            costs,
            header_flits,
            arrived: BTreeSet::new(),
            operation: None,
            done_early: Vec::new(),
            estimate,
        }
    }

    fn closed(_: &Params) -> bool {
        true
    }

    fn multidestination(p: &Params) -> bool {
        p.algorithm() == Algorithm::Hardware
    }

    fn start(&mut self, out: &mut Outbox) {
        out.opens.push((self.hosts[self.root as usize], 0, self.hosts.clone(), self.flits));
        for r in 0..self.hosts.len() as Rank {
            self.advance(r, 0, out);
        }
    }

    fn on_opened(&mut self, _host: u32, _tag: u64, operation: u32, _now: Cycle, out: &mut Outbox) {
        self.operation = Some(operation);
        out.served.extend(self.done_early.drain(..).map(|h| (h, operation)));
    }

    /// The step `host`'s processor was busy with is done.
    fn on_timer(&mut self, host: u32, _tag: u32, now: Cycle, out: &mut Outbox) {
        let r = self.rank_of[host as usize];
        self.busy[r as usize] = false;
        if let Step::Send { id } = self.schedule.ranks[r as usize][self.next[r as usize]] {
            self.send(id, out);
        }
        self.next[r as usize] += 1;
        self.advance(r, now, out);
    }

    fn on_delivered(&mut self, host: u32, message: &Delivered, now: Cycle, out: &mut Outbox) {
        let r = self.rank_of[host as usize];
        let id = message.tag as u32;
        let m = &self.schedule.messages[id as usize];
        assert!(
            m.to.contains(&r) && self.arrived.insert((r, id)),
            "message {id} reached host {host} (rank {r}), which is not one of its receivers still to receive it"
        );
        self.advance(r, now, out);
    }

    fn report(&self) -> Option<Report> {
        Some(Report { estimate: Some(self.estimate), ..Report::default() })
    }
}

impl Collective {
    /// Runs rank `r`'s steps from its next one until it waits (for a message or its processor) or is done.
    fn advance(&mut self, r: Rank, now: Cycle, out: &mut Outbox) {
        let i = r as usize;
        while !self.busy[i] {
            let Some(step) = self.schedule.ranks[i].get(self.next[i]) else {
                if !std::mem::replace(&mut self.done[i], true) {
                    let host = self.hosts[i];
                    match self.operation {
                        Some(op) => out.served.push((host, op)),
                        None => self.done_early.push(host),
                    }
                }
                return;
            };
            let cost = match *step {
                Step::Send { .. } => self.costs.send_overhead,
                Step::Recv { id } => {
                    if !self.arrived.remove(&(r, id)) {
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
                self.send(id, out);
            }
            self.next[i] += 1;
        }
    }

    fn send(&self, id: u32, out: &mut Outbox) {
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
            tag: id as u64,
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
    /// From each member's router: the distance to every router.
    distances: BTreeMap<u32, Vec<Option<distances::Distance>>>,
}

impl Trips {
    fn new(site: &Site, hosts: &[u32], header_flits: u32) -> Trips {
        let topo = site.topo;
        let ends: Vec<(u32, u64, u64)> = hosts
            .iter()
            .map(|&h| {
                let (router, port) = topo.terminal_at[h as usize];
                let eject = topo.latency[topo.port_index(router, port)] as u64;
                (router, topo.terminal_latency[h as usize] as u64, eject)
            })
            .collect();
        let mut from = BTreeMap::new();
        for &(router, _, _) in &ends {
            from.entry(router).or_insert_with(|| distances::from_router(topo, router));
        }
        Trips {
            router_delay: site.router_delay_cycles as u64,
            packet_flits: site.packet_flits,
            header_flits,
            ends,
            distances: from,
        }
    }

    fn trip(&self, m: &Message, to: Rank) -> Trip {
        let headers = if m.to.len() > 1 { m.flits.div_ceil(self.packet_flits) * self.header_flits } else { 0 };
        let wire = (m.flits + headers) as u64;
        let (from, inject, _) = self.ends[m.from as usize];
        let (at, _, eject) = self.ends[to as usize];
        let d = self.distances[&from][at as usize]
            .expect("every member reaches every other (checked when routing is built)");
        Trip {
            injection: wire,
            latency: inject + (d.hops as u64 + 1) * self.router_delay + d.latency + eject + wire - 1,
        }
    }
}
