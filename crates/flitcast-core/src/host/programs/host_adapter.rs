//! Reliable multicast at the host adapters of a wormhole LAN (study 001 §3 the ACK/NACK/READY protocol and
//! buffer classes, §4 the multicast strategies, §5 the adapters and workload; docs/models/host_multicast.md).
//!
//! One multicast group; every member originates Poisson multicasts to the others. Each adapter has one
//! transmitter (its NIC: control worms first, then multicasts and their forwarding, then unicasts, never
//! interrupting a worm under way) and one receiver. A scheme is a tree per source over the members by
//! global ID (`rooted_tree.rs`): multiple unicasts (a star), the ring-like or bus-like linear path (a
//! chain, or two), the wrap-around or up/down rooted tree of the OMT heuristic (§4).
//!
//! Except for multiple unicasts, worms are relayed by the members under the ACK/NACK/READY protocol
//! (§3). A worm a member originates waits in its transmission queue; one worm at a time (the queue's
//! oldest) is *in service*: its copies leave one after the other, and it stays until every child has
//! acknowledged it (a unit window). A member receiving a worm puts it in the reception FIFO of its
//! buffer class — the lower before the path's ID-order reversal, the upper after — if the FIFO holds
//! fewer than K worms, and refuses it (NACK) otherwise. The FIFO's oldest worm is in service: it is
//! acknowledged (ACK) when it becomes the oldest, forwarded to its children (the first copy in
//! cut-through, as it arrives), and leaves once it has fully arrived, every copy has left and every child
//! has acknowledged. When a worm leaves and at most one is left (none with K = 1), the oldest refused
//! sender is told READY. A refused sender retransmits from scratch on READY or after the timeout.

use std::collections::{HashMap, VecDeque};

use crate::facts::Facts;
use crate::host::program::{Arriving, Delivered, Open, Outbox, Priority, Program, Send, Serves, Site, Target};
use crate::multicast::rooted_tree::{self, snake_position};
use crate::params::{choice, params, Kind, Problem};
use crate::rng::{stream, Stream, StreamKind};
use crate::time::Cycle;
use crate::workload::{multicast_destinations, Arrival, Arrivals, Sizes};

choice! {
    /// How a fixed group's host adapters relay a multicast (study 001 §4).
    pub enum AdapterScheme {
        /// Multiple unicasts: the source sends a copy to every member (no relays, no protocol).
        Separate = "separate",
        /// Ring-like linear path (§4.2): one worm visits the group in increasing global ID, wrapping
        /// once from the highest to the lowest.
        Ring = "ring",
        /// Bus-like linear path (§4.2): one worm up the IDs, one down.
        Bus = "bus",
        /// The wrap-around rooted tree of the OMT heuristic (§4.4).
        TreeWrapAround = "tree_wrap_around",
        /// The up/down rooted tree of the OMT heuristic (§4.4).
        TreeUpDown = "tree_up_down",
    }
}

params! {
    /// A fixed group's reliable multicast at the host adapters.
    pub struct Params {
        /// The group, by global host ID (the Hamiltonian order of a 2-D torus or mesh,
        /// docs/models/host_multicast.md): 2 to 1024 distinct IDs. Every member originates multicasts
        /// to the others.
        group: Vec<u32> = Vec::new();
        /// How a multicast is relayed: `separate` (multiple unicasts), `ring` and `bus` linear paths,
        /// `tree_wrap_around` and `tree_up_down` rooted trees (study 001 §4), the last four under the
        /// ACK/NACK/READY protocol.
        scheme: AdapterScheme = AdapterScheme::Ring;
        /// Multicast traffic each member originates, flits per cycle.
        load: f64 = 0.1, above(0.0, 1.0), unit("flits/node/cycle");
        /// Multicast arrival process at each member.
        arrival: Arrival = Arrival::Poisson;
        /// Sizes truncated geometric on 1..max with mean workload.message_flits (study 001 §5: mean
        /// 100, max 1000); left out: every message has workload.message_flits.
        message_flits_max: Option<u32> = None, range(2, 1_000_000), unit("flits");
        /// Background Poisson unicasts to uniform destinations beside the multicasts (study 001 §5:
        /// 0.1); 0: none.
        background_load: f64 = 0.0, closed(0.0, 1.0), unit("flits/node/cycle");
        /// Mean size of a background unicast (study 001: 400).
        background_flits: u32 = 400, range(1, 1_000_000), unit("flits");
        /// Largest background unicast; sizes are truncated geometric (study 001: 4000).
        background_flits_max: u32 = 4000, range(2, 1_000_000), unit("flits");
        /// K: worms each buffer class of an adapter's reception FIFO holds (study 001 §5: 4; Fig. 5: 1).
        reception_worms: u32 = 4, range(1, 1024);
        /// 2: a lower class before the path's ID-order reversal and an upper one after (study 001 §3,
        /// deadlock-free); 1: one class, which can deadlock (the adapter watchdog then stops the run).
        buffer_classes: u32 = 2, range(1, 2);
        /// Size of an ACK, NACK or READY control worm (the study gives none).
        control_flits: u32 = 8, range(1, 4096), unit("flits");
        /// A refused (NACKed) sender retransmits after this long unless READY comes first (the study
        /// gives none: ten mean multicast worms).
        timeout_cycles: u64 = 1000, range(1, 1_000_000_000), unit("cycles");
        /// Largest number of copies a rooted-tree host sends (a bounded branching factor, study 001
        /// §4.3); 0: unbounded.
        max_children: u32 = 0, range(0, 8191);
    }
}

impl Kind for HostAdapter {
    const NAME: &'static str = "host_adapter";
    const DOC: &'static str =
        "a fixed group's multicasts relayed by the host adapters under ACK/NACK/READY (study 001)";
    type Params = Params;
}

/// What a message is, in the top bits of its tag.
const DATA: u64 = 1;
const ACK: u64 = 2;
const NACK: u64 = 3;
const READY: u64 = 4;
const UNICAST: u64 = 5;
const COPY: u64 = 6;

/// Timer tags: a member's next multicast, a host's next background unicast; above, retransmission
/// timeouts by serial number.
const MULTICAST_ARRIVAL: u32 = 0;
const UNICAST_ARRIVAL: u32 = 1;
const TIMEOUTS: u32 = 2;

/// The transmission queue's index among a host's queues (the reception classes are 0 and 1).
const ORIGIN: usize = 2;

/// A tag: kind (3 bits), copy (13), source member (16), worm (32).
fn tag(kind: u64, copy: usize, member: usize, worm: u32) -> u64 {
    kind << 61 | (copy as u64) << 48 | (member as u64) << 32 | worm as u64
}

fn untag(tag: u64) -> (u64, usize, usize, u32) {
    (tag >> 61, (tag >> 48) as usize & 0x1FFF, (tag >> 32) as usize & 0xFFFF, tag as u32)
}

/// Largest group: a tag names up to 8191 copies, but building every source's rooted tree costs the
/// cube of the group (about 5 s for 1024 members), so groups stop there.
pub const MAX_MEMBERS: usize = 1024;

/// Each source's tree over the members (by index in increasing global ID): children in copy order,
/// and the buffer class each member receives into.
#[derive(Debug, Clone)]
struct Plan {
    children: Vec<Vec<usize>>,
    class: Vec<usize>,
}

#[derive(Debug, Clone, Default)]
struct Copy {
    /// Attempts in the NIC, not yet fully sent.
    sending: u32,
    acked: bool,
    refused: bool,
    /// The serial of the timeout that may retransmit it (refused copies).
    timeout: Option<u32>,
}

#[derive(Debug, Clone)]
struct Worm {
    host: u32,
    /// The source's index among the members, whose tree it follows.
    source: usize,
    /// The holding host's index among the members (its place in that tree).
    member: usize,
    operation: u32,
    flits: u32,
    /// ORIGIN, or the reception class.
    queue: usize,
    /// Who sent it and its reference there, to acknowledge (None where it originated).
    sender: Option<(u32, u64)>,
    /// Names it while it is still arriving (forwarding in cut-through).
    arriving: Option<u32>,
    copies: Vec<Copy>,
}

#[derive(Debug, Clone, Default)]
struct Host {
    /// The reception FIFOs of the two classes and the transmission queue, oldest first.
    queues: [VecDeque<u32>; 3],
    /// Per class, the senders refused, oldest first, with their references.
    refused: [VecDeque<(u32, u64)>; 2],
}

#[derive(Debug, Clone)]
struct Traffic {
    arrivals: Arrivals,
    sizes: Stream,
    destinations: Stream,
}

#[derive(Debug, Clone)]
pub struct HostAdapter {
    scheme: AdapterScheme,
    /// Members' terminals, in increasing global ID.
    members: Vec<u32>,
    /// Each terminal's index among the members.
    member_of: HashMap<u32, usize>,
    plans: Vec<Plan>,
    reception_worms: usize,
    control_flits: u32,
    timeout_cycles: Cycle,
    /// READY goes out when a worm leaves and at most this many are left.
    ready_at: usize,
    sizes: Sizes,
    multicasts: Vec<Traffic>,
    background_sizes: Sizes,
    /// Per terminal (none without background traffic).
    background: Vec<Traffic>,
    nodes: u32,
    hosts: Vec<Host>,
    /// Worms held by the hosts, by serial number (never reused, so a late READY cannot name another).
    worms: HashMap<u32, Worm>,
    next_worm: u32,
    /// Pending retransmission timeouts by serial: (worm, copy).
    timeouts: HashMap<u32, (u32, usize)>,
    next_timeout: u32,
    /// Flits of originated worms not yet handed to the NIC.
    queued: u64,
}

/// The terminal of the host with global ID `id` on a `k`-wide 2-D grid (terminal = col + k·row).
pub fn terminal_of(id: u32, k: u32) -> u32 {
    let (row, col) = snake_position(id, k);
    col + k * row
}

impl HostAdapter {
    pub fn new(p: &Params, site: &Site) -> HostAdapter {
        let k = site.shape.digits.map_or(site.shape.nodes, |(k, _)| k);
        let mut ids = p.group.clone();
        ids.sort_unstable();
        ids.dedup();
        let members: Vec<u32> = ids.iter().map(|&g| terminal_of(g, k)).collect();
        // (TX of §4.4: the propagation delay of the hops between the two hosts, since worms cut through)
        let hop = site.hop_cycles as u64;
        let wrap = site.wraps;
        let tx = |a: u32, b: u32| hop * grid_hops(a, b, k, wrap);
        let plans = (0..ids.len())
            .map(|root| plan(p.scheme, &ids, root, site.message_flits as u64, &tx, p.max_children as usize))
            .map(|mut plan| {
                if p.buffer_classes == 1 {
                    plan.class.iter_mut().for_each(|c| *c = 0);
                }
                plan
            })
            .collect();
        let sizes = Sizes::new(site.message_flits, p.message_flits_max);
        let traffic = |t: u32, rate: f64, kind: StreamKind| Traffic {
            arrivals: Arrivals::new(p.arrival, rate, stream(site.seed, kind, t as u64)),
            sizes: stream(site.seed, StreamKind::Sizes, (kind as u64) << 32 | t as u64),
            destinations: stream(site.seed, StreamKind::Destinations, t as u64),
        };
        let rate = p.load / sizes.mean();
        let multicasts = members.iter().map(|&t| traffic(t, rate, StreamKind::Arrivals)).collect();
        let background_sizes = Sizes::new(p.background_flits, Some(p.background_flits_max));
        let nodes = site.topo.terminals() as u32;
        let background = if p.background_load > 0.0 {
            let rate = p.background_load / background_sizes.mean();
            (0..nodes).map(|t| traffic(t, rate, StreamKind::Background)).collect()
        } else {
            Vec::new()
        };
        let reception_worms = p.reception_worms as usize;
        HostAdapter {
            scheme: p.scheme,
            member_of: members.iter().enumerate().map(|(i, &t)| (t, i)).collect(),
            members,
            plans,
            reception_worms,
            control_flits: p.control_flits,
            timeout_cycles: p.timeout_cycles,
            ready_at: reception_worms.min(2) - 1,
            sizes,
            multicasts,
            background_sizes,
            background,
            nodes,
            hosts: vec![Host::default(); nodes as usize],
            worms: HashMap::new(),
            next_worm: 0,
            timeouts: HashMap::new(),
            next_timeout: 0,
            queued: 0,
        }
    }
}

impl Program for HostAdapter {
    fn new(p: &Params, site: &Site) -> Self {
        HostAdapter::new(p, site)
    }

    fn load(p: &Params) -> f64 {
        p.load
    }

    fn multicast_degree(p: &Params) -> Option<u32> {
        Some(p.group.len() as u32)
    }

    fn needs(_: &Params) -> &'static str {
        "a bidirectional 2-D `torus` or `mesh`, a `workload.group` of 2 to 1024 distinct global host IDs below the \
         node count, every worm one packet (`workload.packet_flits` at least the largest message, background \
         unicast and control worm), and a truncated geometric size's maximum at least twice its mean"
    }
    fn unfit(p: &Params, f: &Facts) -> Vec<Problem> {
        let mut problems = Vec::new();
        let mut fail =
            |key: &str, value: String, allowed: String| problems.push(Problem::new(key, value, allowed, None));
        if !f.is_cube(2, false) {
            let allowed = "a bidirectional 2-D torus or mesh for workload.program = 'host_adapter' (the hosts' global \
                           order is a Hamiltonian path of its grid)";
            fail("network.topology", format!("'{}'", f.network), allowed.to_string());
        }
        let mut ids = p.group.clone();
        ids.sort_unstable();
        ids.dedup();
        let members = ids.len() == p.group.len() && (2..=MAX_MEMBERS).contains(&ids.len());
        if !members || ids.iter().any(|&g| g as u64 >= f.nodes) {
            let allowed = format!(
                "2 to {MAX_MEMBERS} distinct global host IDs from 0 to {} (every source's tree costs the cube of the \
                 group)",
                f.nodes.saturating_sub(1)
            );
            fail("workload.group", format!("{:?}", p.group), allowed);
        }
        let mean = f.message_flits;
        for (key, mean, max) in [
            ("workload.message_flits_max", mean, p.message_flits_max),
            ("workload.background_flits_max", p.background_flits, Some(p.background_flits_max)),
        ] {
            if let Some(max) = max.filter(|&max| (max as u64) < 2 * mean as u64) {
                let allowed = format!(
                    "an integer from {} to 1000000 (a truncated geometric size's maximum is at least twice its mean, \
                     {mean})",
                    2 * mean
                );
                fail(key, max.to_string(), allowed);
            }
        }
        let background = if p.background_load > 0.0 { p.background_flits_max } else { 0 };
        let largest = p.message_flits_max.unwrap_or(mean).max(background).max(p.control_flits);
        if f.packet_flits < largest {
            let allowed = format!(
                "at least {largest} with workload.program = 'host_adapter': every worm is one packet (the largest \
                 message)"
            );
            fail("workload.packet_flits", f.packet_flits.to_string(), allowed);
        }
        problems
    }

    fn sees_flits(&self) -> bool {
        true
    }

    fn start(&mut self, out: &mut Outbox) {
        for (i, traffic) in self.multicasts.iter_mut().enumerate() {
            out.timers.push((traffic.arrivals.next_arrival(), self.members[i], MULTICAST_ARRIVAL));
        }
        for (t, traffic) in self.background.iter_mut().enumerate() {
            out.timers.push((traffic.arrivals.next_arrival(), t as u32, UNICAST_ARRIVAL));
        }
    }

    fn queued_flits(&self) -> u64 {
        self.queued
    }

    fn on_timer(&mut self, host: u32, timer: u32, _now: Cycle, out: &mut Outbox) {
        match timer {
            MULTICAST_ARRIVAL => {
                let m = self.member_of[&host];
                let traffic = &mut self.multicasts[m];
                out.timers.push((traffic.arrivals.next_arrival(), host, MULTICAST_ARRIVAL));
                let flits = self.sizes.draw(&mut traffic.sizes);
                let others = self.members.iter().copied().filter(|&t| t != host).collect();
                // (the operation starts as the message enters the transmission queue: §5's delay)
                out.opens.push(Open::message(host, (m as u64) << 32 | flits as u64, others, flits));
            }
            UNICAST_ARRIVAL => {
                let traffic = &mut self.background[host as usize];
                out.timers.push((traffic.arrivals.next_arrival(), host, UNICAST_ARRIVAL));
                let flits = self.background_sizes.draw(&mut traffic.sizes);
                let dst = multicast_destinations(host, 1, self.nodes, &mut traffic.destinations)[0];
                out.sends.push(Send {
                    src: host,
                    target: Target::One(dst),
                    flits,
                    header_flits: 0,
                    serves: Serves::NewOperation,
                    tag: UNICAST << 61,
                    priority: Priority::Unicast,
                    cut_through: None,
                });
            }
            serial => {
                // (a timeout READY overtook is gone from the table)
                if let Some((w, c)) = self.timeouts.remove(&(serial - TIMEOUTS)) {
                    self.retransmit(w, c, out);
                }
            }
        }
    }

    fn on_opened(&mut self, host: u32, tag: u64, operation: u32, _now: Cycle, out: &mut Outbox) {
        let (source, flits) = ((tag >> 32) as usize, tag as u32);
        if self.scheme == AdapterScheme::Separate {
            // multiple unicasts: one copy per member, back to back, no protocol (§4.1)
            for &child in &self.plans[source].children[source] {
                out.sends.push(Send {
                    src: host,
                    target: Target::One(self.members[child]),
                    flits,
                    header_flits: 0,
                    serves: Serves::Operation(operation),
                    tag: COPY << 61,
                    priority: Priority::Multicast,
                    cut_through: None,
                });
            }
            return;
        }
        let children = self.plans[source].children[source].len();
        let w = self.insert(Worm {
            host,
            source,
            member: source,
            operation,
            flits,
            queue: ORIGIN,
            sender: None,
            arriving: None,
            copies: vec![Copy::default(); children],
        });
        self.queued += flits as u64;
        self.enqueue(w, out);
    }

    fn on_head(&mut self, host: u32, message: &Arriving, _now: Cycle, out: &mut Outbox) -> bool {
        let (kind, copy, source, sender_worm) = untag(message.tag);
        if kind != DATA {
            return true;
        }
        let me = self.member_of[&host];
        let class = self.plans[source].class[me];
        let reference = tag(0, copy, 0, sender_worm);
        let h = &mut self.hosts[host as usize];
        if h.queues[class].len() >= self.reception_worms {
            h.refused[class].push_back((message.src, reference));
            self.control(host, message.src, NACK, reference, out);
            return false;
        }
        // (a retransmission accepted after its timeout no longer waits for READY)
        h.refused[class].retain(|&r| r != (message.src, reference));
        let children = self.plans[source].children[me].len();
        let w = self.insert(Worm {
            host,
            source,
            member: me,
            operation: message.operation,
            flits: message.flits,
            queue: class,
            sender: Some((message.src, reference)),
            arriving: Some(message.handle),
            copies: vec![Copy::default(); children],
        });
        self.enqueue(w, out);
        true
    }

    fn on_delivered(&mut self, host: u32, message: &Delivered, now: Cycle, out: &mut Outbox) {
        let (kind, copy, _, worm) = untag(message.tag);
        match kind {
            DATA => {
                let reference = tag(0, copy, 0, worm);
                let h = &self.hosts[host as usize];
                let w = h.queues[..ORIGIN]
                    .iter()
                    .flatten()
                    .copied()
                    .find(|w| {
                        self.worms[w].sender == Some((message.src, reference)) && self.worms[w].arriving.is_some()
                    })
                    .expect("an accepted worm waits in a reception FIFO until it has arrived");
                self.worm(w).arriving = None;
                self.try_finish(w, out);
            }
            ACK => {
                self.worm(worm).copies[copy].acked = true;
                self.try_finish(worm, out);
            }
            NACK => {
                let serial = self.next_timeout;
                // (serials stay below u32::MAX − TIMEOUTS: a timer tag never wraps onto the arrivals)
                self.next_timeout = (self.next_timeout + 1) % (u32::MAX - TIMEOUTS);
                self.timeouts.insert(serial, (worm, copy));
                let c = &mut self.worm(worm).copies[copy];
                c.refused = true;
                c.timeout = Some(serial);
                out.timers.push((now + self.timeout_cycles, host, TIMEOUTS + serial));
            }
            READY => {
                // (stale if the copy went again on its timeout and was accepted: then it is not refused)
                let live = self.worms.get(&worm).is_some_and(|w| {
                    w.host == host
                        && w.copies.get(copy).is_some_and(|c| c.refused)
                        && self.members[self.plans[w.source].children[w.member][copy]] == message.src
                });
                if live {
                    if let Some(serial) = self.worm(worm).copies[copy].timeout.take() {
                        self.timeouts.remove(&serial);
                    }
                    self.retransmit(worm, copy, out);
                }
            }
            _ => {}
        }
    }

    /// A copy has left: a data worm's tag names the sender's worm and the copy.
    fn on_sent(&mut self, _host: u32, tag: u64, _now: Cycle, out: &mut Outbox) {
        let (kind, copy, _, worm) = untag(tag);
        if kind == DATA {
            self.worm(worm).copies[copy].sending -= 1;
            self.try_finish(worm, out);
        }
    }
}

impl HostAdapter {
    fn insert(&mut self, worm: Worm) -> u32 {
        let w = self.next_worm;
        self.next_worm = self.next_worm.wrapping_add(1);
        self.worms.insert(w, worm);
        w
    }

    fn worm(&mut self, w: u32) -> &mut Worm {
        self.worms.get_mut(&w).expect("a worm a host holds")
    }

    /// A worm joins its queue; the oldest is served.
    fn enqueue(&mut self, w: u32, out: &mut Outbox) {
        let worm = &self.worms[&w];
        let queue = &mut self.hosts[worm.host as usize].queues[worm.queue];
        queue.push_back(w);
        if queue.len() == 1 {
            self.serve(w, out);
        }
    }

    /// The worm becomes its queue's oldest: it is acknowledged, and its copies leave.
    fn serve(&mut self, w: u32, out: &mut Outbox) {
        let worm = &self.worms[&w];
        let (host, sender, queue, flits) = (worm.host, worm.sender, worm.queue, worm.flits);
        if let Some((to, reference)) = sender {
            self.control(host, to, ACK, reference, out);
        }
        if queue == ORIGIN {
            self.queued -= flits as u64;
        }
        for c in 0..self.worms[&w].copies.len() {
            self.send_copy(w, c, out);
        }
        self.try_finish(w, out);
    }

    fn send_copy(&mut self, w: u32, c: usize, out: &mut Outbox) {
        let worm = self.worms.get_mut(&w).expect("a worm a host holds");
        let child = self.plans[worm.source].children[worm.member][c];
        worm.copies[c].sending += 1;
        worm.copies[c].refused = false;
        out.sends.push(Send {
            src: worm.host,
            target: Target::One(self.members[child]),
            flits: worm.flits,
            header_flits: 0,
            serves: Serves::Operation(worm.operation),
            tag: tag(DATA, c, worm.source, w),
            priority: Priority::Multicast,
            cut_through: worm.arriving,
        });
    }

    fn retransmit(&mut self, w: u32, c: usize, out: &mut Outbox) {
        self.worm(w).copies[c].timeout = None;
        if self.worms[&w].copies[c].refused {
            self.send_copy(w, c, out);
        }
    }

    fn control(&self, from: u32, to: u32, kind: u64, reference: u64, out: &mut Outbox) {
        out.sends.push(Send {
            src: from,
            target: Target::One(to),
            flits: self.control_flits,
            header_flits: 0,
            serves: Serves::Nothing,
            tag: kind << 61 | reference,
            priority: Priority::Control,
            cut_through: None,
        });
    }

    /// A worm in service (its queue's oldest) that has arrived, left to every child and been
    /// acknowledged by each leaves its queue; the next one is served, and a refused sender may be told
    /// READY.
    fn try_finish(&mut self, w: u32, out: &mut Outbox) {
        let worm = &self.worms[&w];
        let in_service = self.hosts[worm.host as usize].queues[worm.queue].front() == Some(&w);
        let done = in_service && worm.arriving.is_none() && worm.copies.iter().all(|c| c.acked && c.sending == 0);
        if !done {
            return;
        }
        let (host, queue) = (worm.host, worm.queue);
        self.worms.remove(&w);
        let h = &mut self.hosts[host as usize];
        h.queues[queue].pop_front();
        let next = h.queues[queue].front().copied();
        if queue != ORIGIN && h.queues[queue].len() <= self.ready_at {
            if let Some((to, reference)) = h.refused[queue].pop_front() {
                self.control(host, to, READY, reference, out);
            }
        }
        if let Some(next) = next {
            self.serve(next, out);
        }
    }
}

/// Hops between the hosts of global IDs `a` and `b` on a `k`-wide 2-D mesh, or torus (`wrap`).
fn grid_hops(a: u32, b: u32, k: u32, wrap: bool) -> u64 {
    let ((ra, ca), (rb, cb)) = (snake_position(a, k), snake_position(b, k));
    let d = |x: u32, y: u32| if wrap { x.abs_diff(y).min(k - x.abs_diff(y)) } else { x.abs_diff(y) } as u64;
    d(ra, rb) + d(ca, cb)
}

/// Source `root`'s tree over `ids` (increasing global IDs): children by member, and each member's
/// buffer class (1 once the path from the root has dropped in ID, 0 before).
fn plan(
    scheme: AdapterScheme,
    ids: &[u32],
    root: usize,
    ct: u64,
    tx: &impl Fn(u32, u32) -> u64,
    max_children: usize,
) -> Plan {
    let n = ids.len();
    let mut children = vec![Vec::new(); n];
    let chain = |children: &mut Vec<Vec<usize>>, path: &[usize]| {
        for pair in path.windows(2) {
            children[pair[0]].push(pair[1]);
        }
    };
    match scheme {
        AdapterScheme::Separate => children[root] = (0..n).filter(|&i| i != root).collect(),
        AdapterScheme::Ring => {
            let path: Vec<usize> = (0..n).map(|i| (root + i) % n).collect();
            chain(&mut children, &path);
        }
        AdapterScheme::Bus => {
            let up: Vec<usize> = (root..n).collect();
            let down: Vec<usize> = (0..=root).rev().collect();
            chain(&mut children, &up);
            chain(&mut children, &down);
        }
        AdapterScheme::TreeWrapAround | AdapterScheme::TreeUpDown => {
            let tree = if scheme == AdapterScheme::TreeWrapAround {
                rooted_tree::wrap_around(ids, ids[root], ct, tx, max_children)
            } else {
                rooted_tree::up_down(ids, ids[root], ct, tx, max_children)
            };
            children = tree.children;
        }
    }
    let mut class = vec![0; n];
    let mut stack = vec![root];
    while let Some(u) = stack.pop() {
        for &v in &children[u] {
            class[v] = if class[u] == 1 || ids[v] < ids[u] { 1 } else { 0 };
            stack.push(v);
        }
    }
    Plan { children, class }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hops(a: u32, b: u32) -> u64 {
        grid_hops(a, b, 8, true)
    }

    #[test]
    fn linear_paths_visit_every_member_once_and_change_class_at_the_reversal() {
        let ids = [0, 1, 2, 3, 13, 15, 16, 17, 31];
        let tx = |a: u32, b: u32| hops(a, b) * 50;
        // ring from 13 (index 4): 13 15 16 17 31 | 0 1 2 3 — the drop to 0 puts 0..3 in the upper class
        let ring = plan(AdapterScheme::Ring, &ids, 4, 100, &tx, 0);
        assert_eq!(ring.children[4], vec![5]);
        assert_eq!(ring.children[8], vec![0]);
        assert_eq!(ring.children[3], Vec::<usize>::new());
        assert_eq!(ring.class, vec![1, 1, 1, 1, 0, 0, 0, 0, 0]);
        // bus from 13: up 15 16 17 31 (lower), down 3 2 1 0 (upper)
        let bus = plan(AdapterScheme::Bus, &ids, 4, 100, &tx, 0);
        assert_eq!(bus.children[4], vec![5, 3]);
        assert_eq!(bus.class, vec![1, 1, 1, 1, 0, 0, 0, 0, 0]);
        // from the lowest or highest ID, one worm only
        assert_eq!(plan(AdapterScheme::Bus, &ids, 0, 100, &tx, 0).children[0], vec![1]);
        assert_eq!(plan(AdapterScheme::Bus, &ids, 8, 100, &tx, 0).children[8], vec![7]);
        for scheme in [
            AdapterScheme::Ring,
            AdapterScheme::Bus,
            AdapterScheme::TreeWrapAround,
            AdapterScheme::TreeUpDown,
            AdapterScheme::Separate,
        ] {
            for root in 0..ids.len() {
                let p = plan(scheme, &ids, root, 100, &tx, 0);
                let mut reached: Vec<usize> = p.children.iter().flatten().copied().collect();
                reached.sort_unstable();
                let expected: Vec<usize> = (0..ids.len()).filter(|&i| i != root).collect();
                assert_eq!(reached, expected, "{scheme:?} from {root}: every other member exactly once");
            }
        }
    }

    #[test]
    fn a_bounded_branching_factor_is_respected() {
        let ids: Vec<u32> = (0..64).collect();
        let tx = |a: u32, b: u32| hops(a, b) * 50;
        for max in 1..=3 {
            let p = plan(AdapterScheme::TreeWrapAround, &ids, 20, 100, &tx, max);
            assert!(p.children.iter().all(|c| c.len() <= max));
        }
    }

    #[test]
    fn tags_round_trip() {
        assert_eq!(untag(tag(READY, 8191, 65_535, u32::MAX)), (READY, 8191, 65_535, u32::MAX));
    }
}
