//! Source routing on bidirectional MINs: SP adaptive source routing, O1 and O4 (study 002 §3, §4.2).
//!
//! A packet carries one route field per switch on its path. On the way up to a least common
//! ancestor (LCA) a field is a set of permissible output ports (the SP "adaptive nibble", bits for
//! the four ports on the side opposite the entry port; here a port mask, which is equivalent); from
//! the LCA down, each field is one fixed port, because "there is only one path downward from an LCA".
//! The adaptive count A is the number of leading fields with more than one port. The switch at hop
//! i uses field i (hop = router-to-router channels crossed so far, carried by the packet).
//!
//! Fields are derived from the network graph, not from a per-topology formula: for the node switches
//! of source and destination, the fields are, hop by hop, the output ports that keep the path
//! minimal (hop distance to the destination's switch falls by one). That is exactly the up*/down*
//! turnaround routing of a fat tree or SP network; the build-time check (`check/routes.rs`) walks
//! every path the fields allow and confirms they are minimal, reach the destination and that every
//! switch at a stage sees the same downward port (the "same downward view" the SP route format needs).
//!
//! Routing modes:
//! * `adaptive` — every field as derived (maximum adaptivity, A = number of up stages);
//! * `o1` — one route per pair; `o4` — four routes per pair, which a source uses round robin for
//!   consecutive packets to a destination. The study does not give its route tables; it says the
//!   four routes "are selected by a static load balancing algorithm that attempts to distribute the
//!   aggregate network traffic evenly across all the links" [its ref. 1]. Our reading
//!   (`oblivious_table = "balanced"`, the default): pairs in order (source, then destination); for
//!   each of the pair's routes, among all its minimal paths the one whose busiest link carries the
//!   least traffic so far (ties: least total, then lowest ports), distinct paths for a pair's four
//!   routes when it has four; each route adds 1/routes of a pair's traffic to its links — uniform
//!   traffic is what the tables balance. The options `d_mod_k` / `s_mod_k` pick the port of rank
//!   ⌊pos / Π_{j<i} c_j⌋ mod c_i among the c_i permissible at up stage i, pos being the destination's
//!   (source's) position = node switch index · nodes per switch + port rank, O4's route j rotating the
//!   first up stage's rank by j (every stage with `o4_spread = "every_stage"`). d-mod-k balances a
//!   k-ary n-tree, but on the 128-node SP network it sends all cross-half traffic into a board
//!   through one chip.

use super::algorithm::{unfit, Algorithm, Facts};
use super::route::Route;
use super::tree_multicast::TreeMulticast;
use crate::candidates::Step;
use crate::candidates::{At, Candidate, Candidates};
use crate::dest_set::DestSets;
use crate::error::Error;
use crate::packet::Header;
use crate::params::{choice, params, Kind, Problem};
use crate::selection::{SelectionHistory, SelectionKind};
use crate::sizing::{Part, Sizing};
use crate::topology::{Geometry, PortLink, Topology};

choice! {
    /// How the O1 / O4 route tables are chosen (study 002 §3 gives none).
    pub enum ObliviousTable {
        /// Static load balancing: routes chosen pair by pair to keep the busiest link as light as possible.
        Balanced = "balanced",
        /// d-mod-k: the destination's position digits pick the up ports.
        DModK = "d_mod_k",
        /// s-mod-k: the source's position digits pick the up ports.
        SModK = "s_mod_k",
    }
}

choice! {
    /// Which up stages the four O4 routes of a pair differ in.
    pub enum O4Spread {
        /// The four routes differ in the first up port only, and agree above it.
        FirstStage = "first_stage",
        /// The four routes differ at every up stage.
        EveryStage = "every_stage",
    }
}

params! {
    /// Adaptive source routing.
    pub struct AdaptiveParams {
        /// Output selection among granted candidates (study 002 §4.3): `lru` (Switch2's function), `mru`,
        /// `rnd`, `rr`, `lruc`, `lrud`, or `first_free` (lowest port).
        selection: SelectionKind = SelectionKind::Lru(Default::default());
        /// Which hops update a history-keeping selection function (LRU, MRU, RR, LRUC, LRUD; study 002
        /// §4.3 does not say): `every_hop`, forced ones included (RR's RRID holds the most recently used
        /// output of any message, as the study words it), or `adaptive_hops`, only hops where the
        /// routing offered more than one port.
        selection_history: SelectionHistory = SelectionHistory::EveryHop;
    }
}

params! {
    /// One oblivious route per pair.
    pub struct O1Params {
        /// How the route table is chosen (study 002 gives none): `balanced` (static load balancing: pair
        /// by pair, the minimal path whose busiest link is least loaded; up to 256 nodes), `d_mod_k` or
        /// `s_mod_k` (the destination's or source's position digits pick the up ports).
        oblivious_table: ObliviousTable = ObliviousTable::Balanced;
    }
}

params! {
    /// Four oblivious routes per pair, used round robin.
    pub struct O4Params {
        /// How the route tables are chosen (as for o1).
        oblivious_table: ObliviousTable = ObliviousTable::Balanced;
        /// d_mod_k / s_mod_k tables: where the four routes of a pair differ, at the `first_stage` up
        /// port only or at `every_stage`.
        o4_spread: O4Spread = O4Spread::FirstStage;
    }
}

/// Adaptive source routing with every permissible up port allowed (study 002 §4.2).
pub struct Adaptive;
/// One oblivious source route per source-destination pair (study 002 §3).
pub struct O1;
/// Four oblivious routes per pair, used round robin by each source (study 002 §3).
pub struct O4;

impl Kind for Adaptive {
    const NAME: &'static str = "adaptive";
    const DOC: &'static str = "SP adaptive source routing: any up port to an LCA, fixed ports down (study 002 §4.2)";
    type Params = AdaptiveParams;
}

impl Kind for O1 {
    const NAME: &'static str = "o1";
    const DOC: &'static str = "one oblivious source route per pair (study 002 §3)";
    type Params = O1Params;
}

impl Kind for O4 {
    const NAME: &'static str = "o4";
    const DOC: &'static str = "four oblivious source routes per pair, used round robin by each source (study 002 §3)";
    type Params = O4Params;
}

/// The bidirectional MINs source routing runs on: the fat tree and study 002's SP networks.
const MINS: &[&str] = &["fat_tree", "sp16", "sp128"];

/// The oblivious tables' limit: balanced tables are built pair by pair.
const BALANCED_NEEDS: &str =
    "with `routing.oblivious_table = \"balanced\"`, at most 256 nodes (the tables are built pair by pair)";

fn balanced_unfit(table: ObliviousTable, f: &Facts) -> Vec<Problem> {
    if table == ObliviousTable::Balanced && f.nodes > 256 {
        let allowed = "'d_mod_k' or 's_mod_k' above 256 nodes (balanced tables are built pair by pair)";
        return vec![Problem::new("routing.oblivious_table", "'balanced'", allowed, None)];
    }
    Vec::new()
}

/// What source routing keeps: each pair of node switches' hop fields; with balanced oblivious tables,
/// every route's port at every hop (`variants` routes a pair); O4's round robin per pair.
fn source_parts(n: &Sizing, table: Option<ObliviousTable>, variants: u64) -> Vec<Part> {
    let keys = |first: &str| format!("{first}{}", n.network_keys);
    let leaves = n.node_switches;
    let mut parts =
        vec![Part { what: "source route fields", bytes: leaves * leaves * (8 + n.max_route_hops * 8), keys: keys("") }];
    if table == Some(ObliviousTable::Balanced) {
        let bytes = n.nodes * n.nodes * variants * n.max_route_hops;
        parts.push(Part { what: "balanced route tables", bytes, keys: keys("routing.oblivious_table, ") });
    }
    if variants > 1 {
        parts.push(Part {
            what: "O4 round robin per pair",
            bytes: n.nodes * n.nodes,
            keys: keys("routing.algorithm, "),
        });
    }
    parts
}

/// The kind `name` may build on `topo`: a bidirectional MIN.
fn on_min(name: &str, topo: &Topology) -> Result<(), Error> {
    match topo.geometry {
        Geometry::Bmin => Ok(()),
        _ => Err(unfit(name, MINS)),
    }
}

impl Algorithm for Adaptive {
    type Runtime = SourceRouting;

    fn networks(_: &AdaptiveParams) -> &'static [&'static str] {
        MINS
    }

    fn bytes(_: &AdaptiveParams, n: &Sizing) -> Vec<Part> {
        source_parts(n, None, 1)
    }

    fn build(_: &AdaptiveParams, vcs: u8, topo: &Topology) -> Result<SourceRouting, Error> {
        on_min(Self::NAME, topo)?;
        SourceRouting::new(topo, Mode::Adaptive, ObliviousTable::Balanced, O4Spread::FirstStage, vcs)
    }

    fn adaptive(_: &AdaptiveParams) -> bool {
        true
    }
    fn selection(p: &AdaptiveParams) -> SelectionKind {
        p.selection.clone()
    }
    fn selection_history(p: &AdaptiveParams) -> SelectionHistory {
        p.selection_history
    }
}

impl Algorithm for O1 {
    type Runtime = SourceRouting;

    /// (a source route: fixed when the packet leaves, one output at every hop)
    fn by_table(_: &O1Params) -> bool {
        true
    }

    fn networks(_: &O1Params) -> &'static [&'static str] {
        MINS
    }

    fn build(p: &O1Params, vcs: u8, topo: &Topology) -> Result<SourceRouting, Error> {
        on_min(Self::NAME, topo)?;
        SourceRouting::new(topo, Mode::O1, p.oblivious_table, O4Spread::FirstStage, vcs)
    }

    fn needs(_: &O1Params) -> &'static str {
        BALANCED_NEEDS
    }

    fn unfit(p: &O1Params, f: &Facts) -> Vec<Problem> {
        balanced_unfit(p.oblivious_table, f)
    }

    fn bytes(p: &O1Params, n: &Sizing) -> Vec<Part> {
        source_parts(n, Some(p.oblivious_table), 1)
    }
}

impl Algorithm for O4 {
    type Runtime = SourceRouting;

    /// (a source route: fixed when the packet leaves, one output at every hop)
    fn by_table(_: &O4Params) -> bool {
        true
    }

    fn networks(_: &O4Params) -> &'static [&'static str] {
        MINS
    }

    fn build(p: &O4Params, vcs: u8, topo: &Topology) -> Result<SourceRouting, Error> {
        on_min(Self::NAME, topo)?;
        SourceRouting::new(topo, Mode::O4, p.oblivious_table, p.o4_spread, vcs)
    }

    fn needs(_: &O4Params) -> &'static str {
        BALANCED_NEEDS
    }

    fn unfit(p: &O4Params, f: &Facts) -> Vec<Problem> {
        balanced_unfit(p.oblivious_table, f)
    }

    fn bytes(p: &O4Params, n: &Sizing) -> Vec<Part> {
        source_parts(n, Some(p.oblivious_table), 4)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Adaptive,
    O1,
    O4,
}

#[derive(Debug, Clone)]
pub struct SourceRouting {
    pub mode: Mode,
    table: ObliviousTable,
    spread: O4Spread,
    /// The balanced route tables (O1/O4 with `oblivious_table = "balanced"`).
    balanced: Option<Balanced>,
    vcs: u8,
    leaves: usize,
    /// Node switch index of each terminal.
    term_leaf: Vec<u32>,
    /// Port of each terminal on its node switch.
    term_port: Vec<u8>,
    /// Position of each terminal: node switch index · nodes per switch + rank of its port.
    term_pos: Vec<u32>,
    /// Per (source leaf, destination leaf): offset of its fields in `fields` and hop count.
    pairs: Vec<(u32, u8)>,
    /// Port masks of the router-to-router hops of every leaf pair.
    fields: Vec<u64>,
    /// Multidestination routing, when the workload sends multicasts (`Routing::with_multicast`).
    pub multicast: Option<Box<super::tree_multicast::TreeMulticast>>,
}

impl SourceRouting {
    pub fn new(
        topo: &Topology,
        mode: Mode,
        table: ObliviousTable,
        spread: O4Spread,
        vcs: u8,
    ) -> Result<SourceRouting, Error> {
        if topo.max_radix() > 64 {
            return Err(Error::Routing { message: "source routes support switches of at most 64 ports".into() });
        }
        let switches = topo.node_switches();
        let mut leaf_of_router = vec![u32::MAX; topo.routers()];
        for (i, &r) in switches.iter().enumerate() {
            leaf_of_router[r as usize] = i as u32;
        }
        let term_leaf: Vec<u32> = topo.terminal_at.iter().map(|&(r, _)| leaf_of_router[r as usize]).collect();
        let term_port: Vec<u8> = topo.terminal_at.iter().map(|&(_, p)| p).collect();
        let per_leaf = topo.terminals().div_ceil(switches.len()) as u32;
        let term_pos = topo
            .terminal_at
            .iter()
            .map(|&(r, p)| {
                let rank = topo.terminal_at.iter().filter(|&&(r2, p2)| r2 == r && p2 < p).count() as u32;
                leaf_of_router[r as usize] * per_leaf + rank
            })
            .collect();
        let mut pairs = Vec::with_capacity(switches.len() * switches.len());
        let mut fields = Vec::new();
        for &target in &switches {
            let dist = distances_to(topo, target);
            for &from in &switches {
                let offset = fields.len() as u32;
                let hops = walk(topo, &dist, from, &mut fields).map_err(|message| Error::Routing { message })?;
                pairs.push((offset, hops));
            }
        }
        let mut routing = SourceRouting {
            mode,
            table,
            spread,
            balanced: None,
            vcs,
            leaves: switches.len(),
            term_leaf,
            term_port,
            term_pos,
            pairs,
            fields,
            multicast: None,
        };
        if mode != Mode::Adaptive && table == ObliviousTable::Balanced {
            routing.balanced = Some(Balanced::build(&routing, topo));
        }
        Ok(routing)
    }

    /// Fields of the router-to-router hops from `src`'s node switch to `dst`'s.
    pub fn fields(&self, src: u32, dst: u32) -> &[u64] {
        let (ls, ld) = (self.term_leaf[src as usize] as usize, self.term_leaf[dst as usize] as usize);
        let (offset, hops) = self.pairs[ld * self.leaves + ls];
        &self.fields[offset as usize..offset as usize + hops as usize]
    }

    /// Number of routes a fully adaptive packet from `src` to `dst` may take (Π |R_i|).
    pub fn adaptive_routes(&self, src: u32, dst: u32) -> u64 {
        self.fields(src, dst).iter().map(|m| m.count_ones() as u64).product()
    }

    /// Sources whose routes to any destination are identical share a class: the node switch for
    /// adaptive and d-mod-k routes, the source itself when the table depends on it.
    pub fn source_class(&self, src: u32) -> u32 {
        let per_source = self.mode != Mode::Adaptive && self.table != ObliviousTable::DModK;
        if per_source {
            src
        } else {
            self.term_leaf[src as usize]
        }
    }

    /// How many oblivious routes per pair the mode uses (round robin over them).
    pub fn variants(&self) -> u8 {
        if self.mode == Mode::O4 {
            4
        } else {
            1
        }
    }

    /// The port an oblivious packet takes at hop `hop` whose field is `mask`.
    fn oblivious_port(&self, packet: &Header, hop: usize, mask: u64) -> u8 {
        if let Some(b) = &self.balanced {
            return b.port(packet, hop, self.term_leaf.len());
        }
        let pos = match self.table {
            ObliviousTable::SModK => self.term_pos[packet.src as usize],
            _ => self.term_pos[packet.dst() as usize],
        } as u64;
        let fields = self.fields(packet.src, packet.dst());
        let below: u64 = fields[..hop].iter().map(|m| m.count_ones() as u64).product();
        let choices = mask.count_ones() as u64;
        let mut rank = (pos / below) % choices;
        let rotate = match self.spread {
            O4Spread::FirstStage => hop == 0,
            O4Spread::EveryStage => true,
        };
        if self.mode == Mode::O4 && rotate {
            rank = (rank + packet.variant as u64) % choices;
        }
        nth_set_bit(mask, rank as u32)
    }

    #[inline]
    pub fn route(&self, at: At, packet: &Header, out: &mut Candidates) {
        let fields = self.fields(packet.src, packet.dst());
        let hop = at.hops as usize;
        if hop >= fields.len() {
            let port = self.term_port[packet.dst() as usize];
            out.push(Candidate { port, vc_lo: 0, vc_hi: self.vcs });
            return;
        }
        let mask = fields[hop];
        if self.mode == Mode::Adaptive || mask.count_ones() == 1 {
            out.push_ports(mask, 0, self.vcs);
        } else {
            out.push(Candidate { port: self.oblivious_port(packet, hop, mask), vc_lo: 0, vc_hi: self.vcs });
        }
    }

    pub fn vcs(&self) -> u8 {
        self.vcs
    }
}

/// Statically load-balanced oblivious route tables: the chosen port of every hop of every route.
#[derive(Debug, Clone)]
struct Balanced {
    variants: usize,
    /// Hops per route slot (the longest route).
    stride: usize,
    /// Ports, index ((src · terminals + dst) · variants + variant) · stride + hop.
    ports: Vec<u8>,
}

impl Balanced {
    fn build(routing: &SourceRouting, topo: &Topology) -> Balanced {
        let n = topo.terminals();
        let variants = routing.variants() as usize;
        let stride = routing.pairs.iter().map(|&(_, h)| h as usize).max().unwrap_or(0).max(1);
        let mut ports = vec![0u8; n * n * variants * stride];
        let mut load = vec![0f64; topo.links.len()];
        let share = 1.0 / variants as f64;
        for src in 0..n as u32 {
            for dst in 0..n as u32 {
                let fields = routing.fields(src, dst);
                let paths = enumerate_paths(topo, topo.terminal_at[src as usize].0, fields);
                let mut used = vec![false; paths.len()];
                for v in 0..variants {
                    if used.iter().all(|&u| u) {
                        used.iter_mut().for_each(|u| *u = false);
                    }
                    let cost = |links: &[usize]| {
                        let max = links.iter().map(|&l| load[l]).fold(0.0, f64::max);
                        let sum: f64 = links.iter().map(|&l| load[l]).sum();
                        (max, sum)
                    };
                    let best = (0..paths.len())
                        .filter(|&i| !used[i])
                        .min_by(|&a, &b| {
                            cost(&paths[a].1).partial_cmp(&cost(&paths[b].1)).expect("finite").then(a.cmp(&b))
                        })
                        .expect("a minimal path exists");
                    used[best] = true;
                    for &l in &paths[best].1 {
                        load[l] += share;
                    }
                    let at = ((src as usize * n + dst as usize) * variants + v) * stride;
                    ports[at..at + fields.len()].copy_from_slice(&paths[best].0);
                }
            }
        }
        Balanced { variants, stride, ports }
    }

    fn port(&self, packet: &Header, hop: usize, terminals: usize) -> u8 {
        let pair = packet.src as usize * terminals + packet.dst() as usize;
        self.ports[(pair * self.variants + packet.variant as usize) * self.stride + hop]
    }
}

/// Every path the fields allow from `from`: its ports and the indices of the channels it uses.
fn enumerate_paths(topo: &Topology, from: u32, fields: &[u64]) -> Vec<(Vec<u8>, Vec<usize>)> {
    let mut out = Vec::new();
    let mut stack = vec![(from, Vec::new(), Vec::new())];
    while let Some((r, ports, links)) = stack.pop() {
        let hop = ports.len();
        if hop == fields.len() {
            out.push((ports, links));
            continue;
        }
        let mut m = fields[hop];
        while m != 0 {
            let p = m.trailing_zeros() as u8;
            m &= m - 1;
            if let PortLink::Router { router, .. } = topo.link(r, p) {
                let (mut ports, mut links) = (ports.clone(), links.clone());
                ports.push(p);
                links.push(topo.port_index(r, p));
                stack.push((router, ports, links));
            }
        }
    }
    // In port order, so ties go to the lowest ports.
    out.sort();
    out
}

fn nth_set_bit(mut mask: u64, n: u32) -> u8 {
    for _ in 0..n {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as u8
}

/// Hop distance from every router to `target` over router-to-router channels (u32::MAX: unreachable).
fn distances_to(topo: &Topology, target: u32) -> Vec<u32> {
    let mut dist = vec![u32::MAX; topo.routers()];
    let mut queue = std::collections::VecDeque::from([target]);
    dist[target as usize] = 0;
    while let Some(r) = queue.pop_front() {
        for p in 0..topo.radix(r) as u8 {
            // Channels into r: follow the input side backwards.
            if let PortLink::Router { router: up, .. } = topo.input(r, p) {
                if dist[up as usize] == u32::MAX {
                    dist[up as usize] = dist[r as usize] + 1;
                    queue.push_back(up);
                }
            }
        }
    }
    dist
}

/// Appends the fields from `from` to the router at distance 0, following the lowest permissible
/// port as the representative path; returns the number of hops.
fn walk(topo: &Topology, dist: &[u32], from: u32, fields: &mut Vec<u64>) -> Result<u8, String> {
    let mut r = from;
    let hops = dist[from as usize];
    if hops == u32::MAX {
        return Err(format!("router {from} cannot reach a destination's node switch"));
    }
    while dist[r as usize] > 0 {
        let mut mask = 0u64;
        let mut next = u32::MAX;
        for p in 0..topo.radix(r) as u8 {
            if let PortLink::Router { router: to, .. } = topo.link(r, p) {
                if dist[to as usize] + 1 == dist[r as usize] {
                    mask |= 1 << p;
                    next = next.min(to);
                }
            }
        }
        fields.push(mask);
        r = next;
    }
    Ok(hops as u8)
}

impl Route for SourceRouting {
    fn name(&self) -> &'static str {
        match self.mode {
            Mode::Adaptive => "adaptive",
            Mode::O1 => "o1",
            Mode::O4 => "o4",
        }
    }

    #[inline]
    fn candidates(&self, at: At, header: &Header, out: &mut Candidates) {
        self.route(at, header, out)
    }

    fn vcs(&self) -> u8 {
        self.vcs
    }

    fn variants(&self) -> u8 {
        self.variants()
    }

    fn is_source_routed(&self) -> bool {
        true
    }

    fn source_class(&self, src: u32) -> u32 {
        self.source_class(src)
    }

    /// Up to the LCA stage and down by reachability strings (study 000 §3.3).
    fn add_multicast(&mut self, topo: &Topology) -> Result<(), Error> {
        self.multicast = Some(Box::new(TreeMulticast::build(topo)?));
        Ok(())
    }

    fn replicates(&self) -> bool {
        self.multicast.is_some()
    }

    fn multicast(&self) -> Option<&TreeMulticast> {
        self.multicast.as_deref()
    }

    /// Below its count field a copy climbs by any up port; at or past its LCA stage it fans out over the
    /// down ports that reach its destinations (`tree_multicast.rs`).
    fn step_multicast(
        &self,
        topo: &Topology,
        at: At,
        header: &Header,
        set: u32,
        sets: &DestSets,
        out: &mut Candidates,
    ) -> Step {
        let tree = self.multicast.as_deref().expect("multicast packets exist only where a multicast routing is built");
        if at.hops < header.turn as u16 {
            out.clear();
            out.push_ports(tree.up_ports(at.router), 0, self.vcs);
            Step::Choose
        } else {
            Step::FanOut(tree.fan_out(topo, at.router, sets.words(set)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::sp16::NodeNumbering;
    use crate::topology::{sp128, sp16};

    fn adaptive(topo: &Topology) -> SourceRouting {
        SourceRouting::new(topo, Mode::Adaptive, ObliviousTable::Balanced, O4Spread::FirstStage, 1).unwrap()
    }

    #[test]
    fn sp16_paths_match_the_study() {
        let t = sp16::build(NodeNumbering::Sp, 1).unwrap();
        let r = adaptive(&t);
        // P13 -> P8: one chip (no router-to-router hop). P13 -> P6: three chips, 4 routes.
        assert_eq!(r.fields(13, 8).len(), 0);
        assert_eq!(r.fields(13, 6).len(), 2);
        assert_eq!(r.adaptive_routes(13, 6), 4);
        assert_eq!(r.fields(13, 6)[0], 0xF0, "up: any of ports 4-7");
    }

    #[test]
    fn sp128_far_pairs_have_64_routes() {
        let t = sp128::build(NodeNumbering::Sp, 1).unwrap();
        let r = adaptive(&t);
        for (s, d, chips, routes) in [(0, 127, 6, 64), (0, 40, 5, 16), (0, 15, 3, 4), (13, 8, 1, 1)] {
            assert_eq!(r.fields(s, d).len() + 1, chips, "{s}->{d}");
            assert_eq!(r.adaptive_routes(s, d), routes, "{s}->{d}");
        }
    }
}
