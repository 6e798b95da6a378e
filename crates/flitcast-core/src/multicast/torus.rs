//! Software multicast on a k-ary 2-D unidirectional torus (study 004 §3, after Robinson, McKinley and
//! Cheng; docs/models/torus_multicast.md): the relay structure of each of the five algorithms, in their
//! store-and-forward form (the study's testbed had no multidestination worms), and the hop counts by
//! kind of a unicast between two hosts (Eq. 4).
//!
//! Nodes are ranked along the dimension-ordered chain relative to the root: rank = ((y − y₀) mod k)·k +
//! ((x − x₀) mod k), the root first; every algorithm takes the destinations in that order.
//!
//! * **Separate addressing**: the root sends to every destination in turn (one step).
//! * **U-torus**: the binomial tree over the ranked chain (recursive halving; the receiver of a
//!   message holds the sub-chain it was sent, carried in the message): ⌈log₂ d⌉ steps.
//! * **S-torus**: one worm visits every destination in rank order (a chain: one step, d − 2 relays).
//! * **Md-torus**: dimensional partitioning into y-ringlets (columns): the header of a column is its first
//!   destination in rank order (on the study's groups, the root's own x-ringlet), the root sends to each
//!   header in turn, then heads its own column, and each header's worm visits the rest of its column in
//!   order: two steps on a 2-D torus (N steps on N dimensions). A group that fills the root's ringlet has
//!   k headers whatever its size (study 004 §4.4; docs/models/torus_multicast.md argues the reading).
//! * **Mu-torus**: uniform partitions of the group (the root included) in rank order: a group of at most
//!   r nodes is one partition, visited by one worm from the root (Eq. 10, p < 2); a larger one is cut into
//!   p = ⌈G/r^(s−1)⌉ partitions of r^(s−1) nodes but the last (s = ⌈log_r G⌉; or, the other reading, of
//!   near-equal lengths), the root sends to the first node of each other partition in turn and then its
//!   own partition's worm, and each head multicasts in its partition the same way: ⌈log_r G⌉ steps, and
//!   ⌈G/r⌉ sends from the root on groups up to r².

use crate::params::choice;

choice! {
    /// How one multicast on a unidirectional torus is sent (study 004 §3).
    pub enum TorusScheme {
        /// Separate addressing: the root sends to every destination in turn.
        Separate = "separate",
        /// The binomial U-torus tree over the ranked chain.
        UTorus = "u_torus",
        /// The S-torus chain: one worm visits every destination in rank order.
        STorus = "s_torus",
        /// Md-torus: dimensional partitioning (column headers, then each column in order).
        MdTorus = "md_torus",
        /// Mu-torus: uniform partitions of the group, r nodes each but the last (`workload.partition` = r).
        MuTorus = "mu_torus",
    }
}

/// Mu-torus's partition length unless one is given (study 004's 4×4 runs).
pub const DEFAULT_PARTITION: u32 = 4;

/// A multicast algorithm of study 004.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    Separate,
    UTorus,
    STorus,
    MdTorus,
    /// Partition length r ≥ 2: partitions of r nodes but the last.
    MuTorus(u32),
    /// Near-equal partitions of at most r nodes (the other reading of "equalize the partition lengths").
    MuTorusEqual(u32),
}

impl Algorithm {
    /// The algorithm of a scheme (Mu-torus with partition length `r`).
    pub fn of(scheme: TorusScheme, r: u32) -> Algorithm {
        match scheme {
            TorusScheme::Separate => Algorithm::Separate,
            TorusScheme::UTorus => Algorithm::UTorus,
            TorusScheme::STorus => Algorithm::STorus,
            TorusScheme::MdTorus => Algorithm::MdTorus,
            TorusScheme::MuTorus => Algorithm::MuTorus(r),
        }
    }
}

/// Who sends to whom: `nodes[0]` is the root; `children[i]` are the nodes node i sends to, in the order
/// its sends leave; `step[i]` is the logical step at which node i receives (0 for the root). A child in
/// the same step as its sender continues the sender's worm (a store-and-forward relay of a path worm).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub nodes: Vec<u32>,
    pub children: Vec<Vec<usize>>,
    pub step: Vec<u32>,
}

impl Plan {
    /// Logical steps to reach every destination.
    pub fn steps(&self) -> u32 {
        self.step.iter().copied().max().unwrap_or(0)
    }

    /// Parent of each node (None for the root).
    pub fn parents(&self) -> Vec<Option<usize>> {
        let mut parent = vec![None; self.nodes.len()];
        for (u, children) in self.children.iter().enumerate() {
            for &v in children {
                parent[v] = Some(u);
            }
        }
        parent
    }

    /// Per node, the relays between the root and it (h_i of Eq. 7: nodes that receive and send on).
    pub fn relays(&self) -> Vec<u32> {
        let parent = self.parents();
        (0..self.nodes.len())
            .map(|mut v| {
                let mut relays = 0;
                while let Some(u) = parent[v] {
                    relays += (u != 0) as u32;
                    v = u;
                }
                relays
            })
            .collect()
    }
}

/// (x, y) of `node` on a `k`-wide torus (node = x + k·y).
fn xy(node: u32, k: u32) -> (u32, u32) {
    (node % k, node / k)
}

/// Rank of `node` on the dimension-ordered chain from `root`.
pub fn rank(node: u32, root: u32, k: u32) -> u32 {
    let ((x, y), (x0, y0)) = (xy(node, k), xy(root, k));
    ((y + k - y0) % k) * k + (x + k - x0) % k
}

/// Hops by kind of a unicast from `a` to `b` under x-then-y routing on the unidirectional torus
/// (Eq. 4): (h_p links, h_f forwarding nodes passed within a ringlet, h_s switching nodes where it turns
/// from x to y).
pub fn hops(a: u32, b: u32, k: u32) -> (u32, u32, u32) {
    let ((xa, ya), (xb, yb)) = (xy(a, k), xy(b, k));
    let (dx, dy) = ((xb + k - xa) % k, (yb + k - ya) % k);
    let h_p = dx + dy;
    let h_s = (dx > 0 && dy > 0) as u32;
    (h_p, h_p.saturating_sub(1 + h_s), h_s)
}

/// The links (node, dimension) of the x-then-y route from `a` to `b` on a `k`-wide unidirectional torus.
pub fn route_links(a: u32, b: u32, k: u32) -> Vec<(u32, u8)> {
    let ((mut x, mut y), (xb, yb)) = (xy(a, k), xy(b, k));
    let mut links = Vec::new();
    while x != xb {
        links.push((x + k * y, 0));
        x = (x + 1) % k;
    }
    while y != yb {
        links.push((x + k * y, 1));
        y = (y + 1) % k;
    }
    links
}

/// The plan of `algorithm` from `root` to `destinations` (distinct, without the root) on a `k`-wide
/// torus.
pub fn plan(algorithm: Algorithm, k: u32, root: u32, destinations: &[u32]) -> Plan {
    let mut nodes = destinations.to_vec();
    nodes.sort_by_key(|&d| rank(d, root, k));
    nodes.insert(0, root);
    let n = nodes.len();
    let mut p = Plan { children: vec![Vec::new(); n], step: vec![0; n], nodes };
    let all: Vec<usize> = (0..n).collect();
    match algorithm {
        Algorithm::Separate => (1..n).for_each(|v| send(&mut p, 0, v, 1)),
        Algorithm::STorus => chain(&mut p, &all),
        Algorithm::UTorus => binomial(&mut p, 0, n - 1),
        Algorithm::MdTorus => {
            // y-ringlets (same x) along the root's x-ringlet, each in rank order (its nearest row first):
            // the root's own column first, headed by the root; the others' first nodes are the headers
            let x0 = root % k;
            let mut columns: Vec<Vec<usize>> = vec![Vec::new(); k as usize];
            for &v in &all {
                columns[((p.nodes[v] % k + k - x0) % k) as usize].push(v);
            }
            columns.retain(|column| !column.is_empty());
            // the root sends to the headers first, then down its own column (§4.4: "the root node first
            // sends the message to the destination header nodes, and they relay it")
            for column in &columns[1..] {
                send(&mut p, 0, column[0], 1);
            }
            chain(&mut p, &columns[0]);
            for column in &columns[1..] {
                chain(&mut p, column);
            }
        }
        Algorithm::MuTorus(r) => partition(&mut p, &all, r as usize, 0, false),
        Algorithm::MuTorusEqual(r) => partition(&mut p, &all, r as usize, 0, true),
    }
    p
}

/// `from` sends to `to`, which receives at logical step `step`.
fn send(p: &mut Plan, from: usize, to: usize, step: u32) {
    p.children[from].push(to);
    p.step[to] = step;
}

/// One worm from `nodes[0]` visits the rest in order, store-and-forward: all in the step after the
/// header's.
fn chain(p: &mut Plan, nodes: &[usize]) {
    let step = p.step[nodes[0]] + 1;
    for pair in nodes.windows(2) {
        send(p, pair[0], pair[1], step);
    }
}

/// Recursive halving over the chain positions [holder, right]: the holder's i-th send goes out in
/// its i-th phase.
fn binomial(p: &mut Plan, holder: usize, mut right: usize) {
    let mut phase = p.step[holder];
    while holder < right {
        let c = holder + (right - holder).div_ceil(2);
        phase += 1;
        send(p, holder, c, phase);
        binomial(p, c, right);
        right = c - 1;
    }
}

/// Uniform partitioning (Mu-torus, study 004 §3, §4.3, §5.3): `nodes[0]`, the holder, multicasts to the
/// rest of `nodes` (rank order), counting steps from `base`. At most r nodes, the holder's among them,
/// are one partition: one worm from the holder visits the rest in order (Eq. 10, p < 2: a chain of G − 2
/// relays). More are cut into p = ⌈n/B⌉ partitions (B = r^(s−1), s = ⌈log_r n⌉, so p ≤ r) of B nodes
/// each but the last, or with `equal` of near-equal lengths (at most B, the longer first): the holder
/// heads the first, sends to the first node of each other partition in turn (one step), then multicasts
/// in its own; each head multicasts in its partition the same way (⌈log_r n⌉ steps in all).
fn partition(p: &mut Plan, nodes: &[usize], r: usize, base: u32, equal: bool) {
    let n = nodes.len();
    if n <= r {
        for pair in nodes.windows(2) {
            send(p, pair[0], pair[1], base + 1);
        }
        return;
    }
    let mut block = r;
    while block * r < n {
        block *= r;
    }
    let parts = n.div_ceil(block);
    let mut bounds = Vec::with_capacity(parts);
    let mut start = 0;
    for i in 0..parts {
        let len = if equal { n / parts + usize::from(i < n % parts) } else { block.min(n - start) };
        bounds.push(start..start + len);
        start += len;
    }
    for b in &bounds[1..] {
        send(p, nodes[0], nodes[b.start], base + 1);
    }
    // (the holder heads its own partition as of the same step as the heads it sent to)
    for b in bounds {
        partition(p, &nodes[b], r, base + 1, equal);
    }
}

/// A plan asked for by name (the Python front's analytic model reads the core's plans rather than
/// building its own: `_core.torus_multicast`); `algorithm` is spelled as `workload.scheme`.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    pub algorithm: String,
    pub k: u32,
    pub root: u32,
    pub destinations: Vec<u32>,
    #[serde(default = "default_partition")]
    pub r: u32,
}

fn default_partition() -> u32 {
    DEFAULT_PARTITION
}

/// What the analytic model needs of a plan: per node (the root first) its parent, its logical step, the
/// relays between the root and it, and the hops by kind (h_p, h_f, h_s) of the unicast that reaches it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Described {
    pub nodes: Vec<u32>,
    pub parent: Vec<Option<usize>>,
    pub children: Vec<Vec<usize>>,
    pub step: Vec<u32>,
    pub relays: Vec<u32>,
    pub hops: Vec<(u32, u32, u32)>,
}

pub fn describe(request: &Request) -> Result<Described, crate::error::Error> {
    use crate::error::Error;
    let Request { algorithm, k, root, destinations, r } = request;
    let (k, root, r) = (*k, *root, *r);
    if !(2..=64).contains(&k) {
        return Err(Error::config("network.k", k, "an integer from 2 to 64"));
    }
    let nodes = k * k;
    if !(2..=nodes).contains(&r) {
        return Err(Error::config("model.r", r, format!("an integer from 2 to {nodes}")));
    }
    let scheme = TorusScheme::of_name(algorithm)
        .ok_or_else(|| Error::config("model.algorithm", format!("'{algorithm}'"), TorusScheme::one_of()))?;
    let algorithm = Algorithm::of(scheme, r);
    let mut sorted = destinations.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if root >= nodes
        || sorted.len() != destinations.len()
        || sorted.contains(&root)
        || sorted.iter().any(|&d| d >= nodes)
    {
        return Err(Error::config(
            "model.destinations",
            format!("{destinations:?} from {root}"),
            format!("distinct node ids below {nodes}, other than the root"),
        ));
    }
    let plan = plan(algorithm, k, root, destinations);
    let parent = plan.parents();
    let hops =
        (0..plan.nodes.len()).map(|v| parent[v].map_or((0, 0, 0), |u| hops(plan.nodes[u], plan.nodes[v], k))).collect();
    Ok(Described { relays: plan.relays(), parent, hops, nodes: plan.nodes, children: plan.children, step: plan.step })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(k: u32, g: u32) -> Vec<u32> {
        (1..g).map(|i| i % (k * k)).collect()
    }

    fn algorithms() -> [Algorithm; 6] {
        [
            Algorithm::Separate,
            Algorithm::UTorus,
            Algorithm::STorus,
            Algorithm::MdTorus,
            Algorithm::MuTorus(4),
            Algorithm::MuTorusEqual(4),
        ]
    }

    #[test]
    fn every_destination_is_reached_exactly_once() {
        for k in [4, 8] {
            for g in 2..=k * k {
                for root in [0, 5 % (k * k), k * k - 1] {
                    let dests: Vec<u32> = (0..k * k).filter(|&d| d != root).take(g as usize - 1).collect();
                    for a in algorithms() {
                        let p = plan(a, k, root, &dests);
                        let mut reached: Vec<u32> = p.children.iter().flatten().map(|&v| p.nodes[v]).collect();
                        reached.sort_unstable();
                        let mut expected = dests.clone();
                        expected.sort_unstable();
                        assert_eq!(reached, expected, "{a:?}, k {k}, G {g}, root {root}");
                    }
                }
            }
        }
    }

    #[test]
    fn each_algorithm_takes_the_steps_its_definition_states() {
        let log = |d: u32, base: u32| {
            let (mut s, mut reach) = (0, 1);
            while reach < d {
                reach *= base;
                s += 1;
            }
            s
        };
        for k in [4, 8, 16] {
            for g in 2..=(k * k).min(64) {
                let p = |a| plan(a, k, 0, &group(k, g));
                assert_eq!(p(Algorithm::Separate).children[0].len() as u32, g - 1, "separate: d − 1 sends at the root");
                assert_eq!(p(Algorithm::Separate).steps(), 1);
                assert_eq!(p(Algorithm::UTorus).steps(), log(g, 2), "U-torus G {g}: ⌈log2 d⌉");
                assert_eq!(p(Algorithm::STorus).steps(), 1, "S-torus: one worm");
                // (the group fills ringlets in rank order: a second worm step once another ringlet holds two)
                assert_eq!(
                    p(Algorithm::MdTorus).steps(),
                    if g >= k + 2 { 2 } else { 1 },
                    "Md-torus k {k} G {g}: N = 2"
                );
                for r in [2, 4, 8] {
                    assert_eq!(p(Algorithm::MuTorus(r)).steps(), log(g, r), "Mu-torus r {r} G {g}: ⌈log_r d⌉");
                    assert_eq!(p(Algorithm::MuTorusEqual(r)).steps(), log(g, r), "equal r {r} G {g}");
                }
            }
        }
    }

    #[test]
    fn relays_on_the_deepest_path() {
        // S-torus: a chain, G − 2 relays (Eq. 12); Mu-torus with one partition the same (Eq. 10, p < 2)
        let p = plan(Algorithm::STorus, 4, 0, &group(4, 10));
        assert_eq!(p.relays().into_iter().max(), Some(8));
        assert_eq!(plan(Algorithm::MuTorus(4), 4, 0, &group(4, 4)).relays().into_iter().max(), Some(2));
        // Mu-torus, r = 4, G = 10: partitions {0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}; each a worm from its head:
        // 3 relays behind 4 (4, 5, 6); near-equal partitions ({4, 5, 6}, {7, 8, 9}) 2
        assert_eq!(plan(Algorithm::MuTorus(4), 4, 0, &group(4, 10)).relays().into_iter().max(), Some(3));
        assert_eq!(plan(Algorithm::MuTorusEqual(4), 4, 0, &group(4, 10)).relays().into_iter().max(), Some(2));
        // Md-torus on 4×4, G = 16: a column other than the root's: header + 2 relays = 3
        assert_eq!(plan(Algorithm::MdTorus, 4, 0, &group(4, 16)).relays().into_iter().max(), Some(3));
        // separate addressing: none
        assert_eq!(plan(Algorithm::Separate, 4, 0, &group(4, 16)).relays().into_iter().max(), Some(0));
    }

    #[test]
    fn md_torus_partitions_into_columns_headed_along_the_roots_ringlet() {
        // 4×4, G = 16: the headers are the root's x-ringlet (1, 2, 3), sent to first; then the root heads
        // its own column (4, 8, 12); each header relays down its column (1 → 5 → 9 → 13, …)
        let p = plan(Algorithm::MdTorus, 4, 0, &group(4, 16));
        let children = |n: u32| -> Vec<u32> {
            let i = p.nodes.iter().position(|&m| m == n).unwrap();
            p.children[i].iter().map(|&c| p.nodes[c]).collect()
        };
        assert_eq!(children(0), [1, 2, 3, 4]);
        assert_eq!(children(1), [5]);
        assert_eq!(children(5), [9]);
        assert_eq!(children(9), [13]);
        assert_eq!(children(4), [8]);
        assert_eq!(children(15), Vec::<u32>::new());
        // the root's fan-out is fixed once its ringlet is full (§4.3 "fixed fan-out numbers", §4.4 "the
        // number of dimensional header nodes is constant (k in a k-ary torus)"), and the relays on the
        // deepest path grow by one with every k destinations (§6's steps): ⌈(G − 1)/k⌉ − 1
        for k in [4, 8, 16] {
            for g in 2..=k * k {
                let p = plan(Algorithm::MdTorus, k, 0, &group(k, g));
                assert_eq!(p.children[0].len() as u32, (g - 1).min(k), "k {k} G {g}: root's fan-out");
                assert_eq!(p.relays().into_iter().max(), Some((g - 1).div_ceil(k) - 1), "k {k} G {g}: h_i");
            }
        }
        // another root, destinations anywhere: a column's header is its destination nearest the root's
        // row (from 5 = (1,1): column x = 2 holds 14 = (2,3) and 2 = (2,0); 14 is nearer, rank-wise)
        let p = plan(Algorithm::MdTorus, 4, 5, &[2, 14, 4, 9]);
        let at = |n: u32| p.nodes.iter().position(|&m| m == n).unwrap();
        let sent: Vec<u32> = p.children[0].iter().map(|&c| p.nodes[c]).collect();
        assert_eq!(sent, [14, 4, 9], "headers of columns 2 and 0, then the root's own column (9)");
        assert_eq!(p.children[at(14)].iter().map(|&c| p.nodes[c]).collect::<Vec<_>>(), [2]);
    }

    #[test]
    fn mu_torus_partitions_the_group_into_worms_of_r_headed_by_the_root_and_its_sends() {
        let sent = |p: &Plan, n: u32| -> Vec<u32> {
            let i = p.nodes.iter().position(|&m| m == n).unwrap();
            p.children[i].iter().map(|&c| p.nodes[c]).collect()
        };
        // 4×4, r = 4, G = 10 (Fig. 1(e)): partitions of 4, 4 and 2 nodes; the root sends to the heads 4 and
        // 8, then its own worm 1 → 2 → 3; 4 → 5 → 6 → 7 and 8 → 9
        let p = plan(Algorithm::MuTorus(4), 4, 0, &group(4, 10));
        assert_eq!(sent(&p, 0), [4, 8, 1]);
        assert_eq!((sent(&p, 1), sent(&p, 2), sent(&p, 3)), (vec![2], vec![3], vec![]));
        assert_eq!((sent(&p, 4), sent(&p, 5), sent(&p, 6), sent(&p, 8)), (vec![5], vec![6], vec![7], vec![9]));
        // the other reading, near-equal lengths: 4, 3 and 3
        let p = plan(Algorithm::MuTorusEqual(4), 4, 0, &group(4, 10));
        assert_eq!(sent(&p, 0), [4, 7, 1]);
        assert_eq!((sent(&p, 4), sent(&p, 5), sent(&p, 7), sent(&p, 8)), (vec![5], vec![6], vec![8], vec![9]));
        // a group of r is one partition, a chain from the root (Eq. 10, p < 2: G − 2 relays)
        let p = plan(Algorithm::MuTorus(4), 4, 0, &group(4, 4));
        assert_eq!((sent(&p, 0), sent(&p, 1), sent(&p, 2)), (vec![1], vec![2], vec![3]));
        // the root sends one message per partition, ⌈G/r⌉, so its startup steps up after each multiple of
        // r (§4.3: G = 5, 9, 13 for r = 4); partitions are r long but the last, or near-equal
        for g in 2..=16 {
            for (a, equal) in [(Algorithm::MuTorus(4), false), (Algorithm::MuTorusEqual(4), true)] {
                let p = plan(a, 4, 0, &group(4, g));
                assert_eq!(p.children[0].len() as u32, g.div_ceil(4), "G {g}: the root's sends");
                let worm = |mut v: usize| {
                    let mut len = 1;
                    while let Some(&next) = p.children[v].first() {
                        (v, len) = (next, len + 1);
                    }
                    len
                };
                // (the root's own worm: itself and the chain from its last child)
                let mut lengths = vec![if g <= 4 { g as usize } else { 1 + worm(*p.children[0].last().unwrap()) }];
                lengths.extend(p.children[0][..p.children[0].len() - 1].iter().map(|&head| worm(head)));
                assert_eq!(lengths.iter().sum::<usize>(), g as usize, "G {g}: {lengths:?}");
                let (lo, hi) = (*lengths.iter().min().unwrap(), *lengths.iter().max().unwrap());
                if equal {
                    assert!(hi <= 4 && hi - lo <= 1, "G {g}: near-equal lengths {lengths:?}");
                } else {
                    assert!(lengths[..lengths.len() - 1].iter().all(|&l| l == 4.min(g as usize)), "G {g}: {lengths:?}");
                }
            }
        }
        // nested past r²: 8×8, r = 4, G = 64 = r³: four partitions of 16, each four of 4
        let p = plan(Algorithm::MuTorus(4), 8, 0, &group(8, 64));
        assert_eq!(p.children[0].len(), 3 + 3 + 1, "the root: 3 heads of 16, 3 heads of 4, its own worm");
        assert_eq!(p.steps(), 3);
    }

    #[test]
    fn hops_by_kind() {
        // 4×4: from 0 (0,0) to 5 (1,1): one x hop, turn, one y hop
        assert_eq!(hops(0, 5, 4), (2, 0, 1));
        // from 1 (1,0) to 0 (0,0): three x hops round the ringlet, two nodes passed
        assert_eq!(hops(1, 0, 4), (3, 2, 0));
        // from 0 to 15 (3,3): 3 + 3 hops, 4 forwarding nodes and one switching node
        assert_eq!(hops(0, 15, 4), (6, 4, 1));
        assert_eq!(hops(7, 7, 4), (0, 0, 0));
        assert_eq!(rank(0, 5, 4), 15); // (0,0) from (1,1): 3 rows on, 3 nodes along
    }
}
