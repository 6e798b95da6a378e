//! One software multicast on a unidirectional torus, run by host programs with host overheads (study
//! 004 §4; docs/models/torus_multicast.md, "Simulation"): the root starts the multicast at cycle 0, and
//! every host follows its algorithm's plan (`multicast/torus.rs`), store-and-forward.
//!
//! Host software is scheduled time on each host's processor:
//! * the root spends the sender overhead o_s per message it sends (separate addressing: t_process + o_s
//!   per destination, Eq. 6), handing each message to its NIC as its overhead ends, so its transfers
//!   overlap (pipelined separate addressing, and any fan-out);
//! * a relay, once the whole message has arrived, spends o_r + t_process, then o_s per child (Eq. 5's L_i
//!   for one child);
//! * every receiver's copy counts as received after its o_r (the completion latency of §4.1 is the
//!   last destination's reception): the host serves the operation then (`Outbox::served`), so the
//!   operation's latency and the run's end include it. The switching delay L_s is the network's:
//!   `switch.turn_cycles`.
//!
//! The program also measures what §4 reports beside latency: the root's busy time, link visits and
//! links used (link concentration), and the most messages in transit at once (link concurrency: a
//! message is in transit from the moment its sender starts sending it — its sender overhead — until its
//! receiver has received it, its receive overhead done: LogP's o_s + t_network + o_r).

use std::collections::BTreeSet;

use rand::seq::SliceRandom;

use crate::facts::Facts;
use crate::host::program::{Delivered, Open, Outbox, Priority, Program, Send, Serves, Site, Target};
use crate::multicast::torus::{plan, rank, route_links, Algorithm, Plan, TorusScheme, DEFAULT_PARTITION};
use crate::params::{choice, params, Kind, Problem};
use crate::rng::{stream, StreamKind};
use crate::stats::Report;
use crate::time::Cycle;

choice! {
    /// Which nodes are the group's destinations (study 004 §4 does not say; Fig. 1 shows idle nodes
    /// between members).
    pub enum Members {
        /// The next G − 1 nodes of the root's dimension-ordered chain.
        Chain = "chain",
        /// G − 1 of the other nodes drawn from run.seed (a larger group keeps a smaller one's members).
        Random = "random",
    }
}

choice! {
    /// How Mu-torus cuts a group into partitions (study 004 §3: "a uniform partitioning mechanism to
    /// equalize the partition lengths"; §4: "the partition length r").
    pub enum PartitionLengths {
        /// Partitions of r nodes but the last.
        Fixed = "fixed",
        /// Near-equal partitions of at most r nodes.
        Equal = "equal",
    }
}

params! {
    /// One software multicast on a unidirectional 2-D torus.
    pub struct Params {
        /// The group's size G: the root (workload.root) and the next G − 1 nodes of its
        /// dimension-ordered chain.
        group_size: u32 = 16, range(2, 1_048_576);
        /// The root node.
        root: u32 = 0, range(0, 1_048_575);
        /// `chain`: the next G − 1 nodes of the root's dimension-ordered chain; `random`: G − 1 of the
        /// other nodes drawn from run.seed.
        members: Members = Members::Chain;
        /// `separate`, `u_torus`, `s_torus`, `md_torus` or `mu_torus` (study 004 §3).
        scheme: TorusScheme = TorusScheme::UTorus;
        /// Mu-torus partition length r (study 004: 4 on 4×4; 8, 16, 32 in projections).
        partition: u32 = DEFAULT_PARTITION, range(2, 1_048_576);
        /// Mu-torus: `fixed` partitions of r nodes but the last, or `equal` near-equal ones of at most r.
        partition_lengths: PartitionLengths = PartitionLengths::Fixed;
        /// Sender overhead o_s: cycles of the host processor per message sent.
        send_overhead_cycles: u64 = 0, range(0, 1_000_000_000_000), unit("cycles");
        /// Receiver overhead o_r: cycles once a whole message has arrived.
        receive_overhead_cycles: u64 = 0, range(0, 1_000_000_000_000), unit("cycles");
        /// t_process: cycles a relay spends before forwarding (separate addressing: per destination at
        /// the root).
        process_cycles: u64 = 0, range(0, 1_000_000_000_000), unit("cycles");
    }
}

impl Kind for TorusMulticast {
    const NAME: &'static str = "torus_multicast";
    const DOC: &'static str = "one software multicast on a unidirectional 2-D torus, with host overheads (study 004)";
    type Params = Params;
}

/// The timer that starts the multicast; a timer tag with [`RECEIVED`] set is the plan index of a node
/// whose receive overhead ends; any other is the plan index of the node a message goes to, set for when
/// its sender's overhead ends.
const START: u32 = u32::MAX;
const RECEIVED: u32 = 1 << 31;

/// Host software times, in cycles.
#[derive(Debug, Clone, Copy)]
pub struct Overheads {
    pub send: Cycle,
    pub receive: Cycle,
    pub process: Cycle,
}

#[derive(Debug, Clone)]
pub struct TorusMulticast {
    algorithm: Algorithm,
    k: u32,
    plan: Plan,
    parent: Vec<Option<usize>>,
    costs: Overheads,
    message_flits: u32,
    operation: u32,
    /// When each message's sender began sending it and when its receiver had received it (by receiving
    /// node).
    transit: Vec<(Cycle, Cycle)>,
    links: BTreeSet<(u32, u8)>,
    link_visits: u64,
    /// When the root began sending, and when it will have sent its last message.
    root_sending: (Cycle, Cycle),
    root_busy: Option<Cycle>,
    /// Destinations that have received (the multicast is complete when all have).
    received: usize,
}

impl TorusMulticast {
    /// The multicast of `algorithm` from `root` to `group − 1` other nodes: the next ones of its chain, or
    /// (`shuffle`: a seed) drawn at random.
    pub fn of(
        algorithm: Algorithm,
        k: u32,
        (root, group, shuffle): (u32, u32, Option<u64>),
        costs: Overheads,
        message_flits: u32,
    ) -> Self {
        let mut others: Vec<u32> = (0..k * k).filter(|&n| n != root).collect();
        others.sort_by_key(|&n| rank(n, root, k));
        if let Some(seed) = shuffle {
            others.shuffle(&mut stream(seed, StreamKind::Destinations, 0));
        }
        others.truncate(group as usize - 1);
        let plan = plan(algorithm, k, root, &others);
        TorusMulticast {
            algorithm,
            k,
            parent: plan.parents(),
            transit: vec![(0, 0); plan.nodes.len()],
            plan,
            costs,
            message_flits,
            operation: u32::MAX,
            links: BTreeSet::new(),
            link_visits: 0,
            root_sending: (0, 0),
            root_busy: None,
            received: 0,
        }
    }

    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Node `v`'s processor, free from `from`, sends to each child after `each` cycles more.
    fn send_children(&mut self, v: usize, from: Cycle, each: Cycle, out: &mut Outbox) {
        let mut t = from;
        for &child in &self.plan.children[v] {
            t += each;
            out.timers.push((t, self.plan.nodes[v], child as u32));
        }
    }
}

impl Program for TorusMulticast {
    /// The scheme's algorithm over the group, with the host software's times.
    fn new(p: &Params, site: &Site) -> Self {
        let costs =
            Overheads { send: p.send_overhead_cycles, receive: p.receive_overhead_cycles, process: p.process_cycles };
        let k = site.shape.digits.map_or(site.shape.nodes, |(k, _)| k);
        let algorithm = match Algorithm::of(p.scheme, p.partition) {
            Algorithm::MuTorus(r) if p.partition_lengths == PartitionLengths::Equal => Algorithm::MuTorusEqual(r),
            algorithm => algorithm,
        };
        let shuffle = (p.members == Members::Random).then_some(site.seed);
        TorusMulticast::of(algorithm, k, (p.root, p.group_size, shuffle), costs, site.message_flits)
    }

    fn closed(_: &Params) -> bool {
        true
    }

    fn needs(_: &Params) -> &'static str {
        "a unidirectional 2-D `torus`, with `workload.group_size` and `workload.partition` at most the node count \
         and `workload.root` below it"
    }
    fn unfit(p: &Params, f: &Facts) -> Vec<Problem> {
        let mut problems = Vec::new();
        if !(f.network == "torus" && f.is_cube(2, true)) {
            let allowed = "a unidirectional 2-D torus (network.unidirectional = true, n = 2) for workload.program = \
                           'torus_multicast'";
            problems.push(Problem::new("network.topology", format!("'{}'", f.network), allowed, None));
        }
        let n = f.nodes;
        let mut fail =
            |key: &str, value: u32, allowed: String| problems.push(Problem::new(key, value.to_string(), allowed, None));
        if p.group_size as u64 > n {
            fail(
                "workload.group_size",
                p.group_size,
                format!("an integer from 2 to {n} (the root and its destinations)"),
            );
        }
        if p.root as u64 >= n {
            fail("workload.root", p.root, format!("a node id below {n}"));
        }
        if p.partition as u64 > n {
            fail("workload.partition", p.partition, format!("an integer from 2 to {n}"));
        }
        problems
    }

    fn start(&mut self, out: &mut Outbox) {
        out.timers.push((0, self.plan.nodes[0], START));
    }

    fn on_timer(&mut self, host: u32, tag: u32, now: Cycle, out: &mut Outbox) {
        if tag == START {
            let destinations = self.plan.nodes[1..].to_vec();
            out.opens.push(Open::message(host, 0, destinations, self.message_flits));
            return;
        }
        if tag & RECEIVED != 0 {
            // (node v's receive overhead is over: it has received, and relays to its children)
            let v = (tag & !RECEIVED) as usize;
            self.transit[v].1 = now;
            self.received += 1;
            out.served.push((host, self.operation));
            if !self.plan.children[v].is_empty() {
                self.send_children(v, now + self.costs.process, self.costs.send, out);
            }
            return;
        }
        // (tag: the child the message goes to, by plan index)
        let child = tag as usize;
        self.transit[child].0 = now - self.costs.send;
        let parent = self.parent[child].expect("a child has a parent");
        if parent == 0 && now == self.root_sending.1 {
            self.root_busy = Some(now - self.root_sending.0);
        }
        let (from, to) = (self.plan.nodes[parent], self.plan.nodes[child]);
        let route = route_links(from, to, self.k);
        self.link_visits += route.len() as u64;
        self.links.extend(route);
        out.sends.push(Send {
            src: host,
            target: Target::One(to),
            flits: self.message_flits,
            header_flits: 0,
            // (the receiver serves the operation once its receive overhead is over: `RECEIVED`)
            serves: Serves::Nothing,
            tag: child as u64,
            priority: Priority::Multicast,
            cut_through: None,
        });
    }

    fn on_opened(&mut self, _host: u32, _tag: u64, operation: u32, now: Cycle, out: &mut Outbox) {
        self.operation = operation;
        let per_child = self.costs.send + if self.algorithm == Algorithm::Separate { self.costs.process } else { 0 };
        self.root_sending = (now, now + per_child * self.plan.children[0].len() as Cycle);
        self.send_children(0, now, per_child, out);
    }

    fn on_delivered(&mut self, host: u32, message: &Delivered, now: Cycle, out: &mut Outbox) {
        let v = message.tag as u32;
        debug_assert_eq!(self.plan.nodes[v as usize], host);
        out.timers.push((now + self.costs.receive, host, RECEIVED | v));
    }

    /// What the run measured: the root's busy time once it has sent everything, link concentration
    /// and concurrency once every destination has received.
    fn report(&self) -> Option<Report> {
        let complete = self.received + 1 == self.plan.nodes.len();
        Some(Report {
            root_busy: self.root_busy,
            link_concentration: complete.then(|| self.link_visits as f64 / self.links.len().max(1) as f64),
            concurrency: complete.then(|| most_at_once(&self.transit[1..])),
            estimate: None,
        })
    }
}

/// The most intervals [start, end) open at once (one ending as another starts does not overlap it).
fn most_at_once(intervals: &[(Cycle, Cycle)]) -> u64 {
    let mut events: Vec<(Cycle, i64)> = intervals.iter().flat_map(|&(start, end)| [(start, 1), (end, -1)]).collect();
    events.sort_unstable();
    let (mut open, mut most) = (0i64, 0i64);
    for (_, d) in events {
        open += d;
        most = most.max(open);
    }
    most as u64
}

/// Link concentration and concurrency of a scripted trace: messages (from, to, hand-over, arrival) on a
/// `k`-wide unidirectional torus, counted as the program counts its own.
pub fn trace_metrics(k: u32, messages: &[(u32, u32, Cycle, Cycle)]) -> (f64, u64) {
    let routes: Vec<Vec<(u32, u8)>> = messages.iter().map(|&(a, b, _, _)| route_links(a, b, k)).collect();
    let visits: usize = routes.iter().map(Vec::len).sum();
    let used: BTreeSet<(u32, u8)> = routes.into_iter().flatten().collect();
    let transit: Vec<(Cycle, Cycle)> = messages.iter().map(|&(_, _, start, end)| (start, end)).collect();
    (visits as f64 / used.len() as f64, most_at_once(&transit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concentration_and_concurrency_of_a_scripted_trace() {
        // 4×4: 0 → 2 (links 0→1, 1→2), 0 → 3 (0→1, 1→2, 2→3), 1 → 5 (1→5): 6 visits of 4 links
        let trace = [(0, 2, 0, 10), (0, 3, 5, 20), (1, 5, 10, 12)];
        let (concentration, concurrency) = trace_metrics(4, &trace);
        assert_eq!(concentration, 6.0 / 4.0);
        // in transit: [0,10), [5,20), [10,12): two at once at most (the first ends as the third starts)
        assert_eq!(concurrency, 2);
        assert_eq!(trace_metrics(4, &[(0, 15, 0, 1)]), (1.0, 1));
    }
}
