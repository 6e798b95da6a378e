//! The graph every topology builder returns: routers with numbered ports, terminals, and channels with a
//! latency in cycles; and what a topology kind implements ([`Builder`]).

use crate::error::Error;
use crate::facts::Facts;
use crate::params::{choice, Kind, Problem};

/// The class of the channels between terminals and their routers (`Topology::classes[0]`).
pub const TERMINAL_CLASS: &str = "terminal";

/// A topology kind: its graph from its parameters.
pub trait Builder: Kind {
    /// The keys its size is set by, as a refusal for memory names them ("network.k, network.n").
    fn sized_by(p: &Self::Params) -> &'static str;

    /// The graph, every channel `latency` cycles long.
    fn graph(p: &Self::Params, latency: u32) -> Result<Topology, Error>;
    /// Terminals, or None if the count overflows.
    fn nodes(p: &Self::Params) -> Option<u64>;
    /// The radix and digits (k, n) of the node ids, where those digits are the routers' coordinates
    /// (coordinate traffic patterns need them).
    fn digits(_: &Self::Params) -> Option<(u32, u32)> {
        None
    }
    /// The most ports of any switch.
    fn radix(p: &Self::Params) -> u32;
    /// A network with wrap-around links (dateline classes under dimension-order routing).
    fn wraps(_: &Self::Params) -> bool {
        false
    }
    /// A bidirectional multistage network (fat tree, SP boards), routed by source routes.
    fn multistage(_: &Self::Params) -> bool {
        false
    }
    /// Nodes per group and groups, where the network is built of groups of consecutive node ids (a
    /// dragonfly; group traffic patterns need them).
    fn groups(_: &Self::Params) -> Option<(u32, u32)> {
        None
    }
    /// Dimensions of a network of routers on a grid (mesh, torus, HyperX), whether its links run one way,
    /// and the parallel links between neighbours.
    fn dimensions(_: &Self::Params) -> Option<u32> {
        None
    }
    fn unidirectional(_: &Self::Params) -> bool {
        false
    }
    fn parallel_links(_: &Self::Params) -> u32 {
        1
    }
    /// Most router-to-router hops of a source route through the network, up and down every level of a
    /// multistage network (the SP networks: at most 6 switches).
    fn max_route_hops(_: &Self::Params) -> u64 {
        6
    }
    /// The most router-to-router hops of a minimal route, where the kind knows it without building (a
    /// Slim Fly's 2).
    fn diameter(_: &Self::Params) -> Option<u32> {
        None
    }
    /// The key a refusal of too many nodes names, with its value (None: `run.max_nodes`, for a network
    /// of fixed size).
    fn size_key(_: &Self::Params) -> Option<(&'static str, String)> {
        None
    }
    /// The routers, where the kind knows them without building (an irregular network's file, a Slim Fly's
    /// 2q²).
    fn known_routers(_: &Self::Params) -> Option<u32> {
        None
    }
    /// The longest router-to-router channel in cycles where `network.channel_latency_cycles` is
    /// `latency` (the kind's own channel latencies, or a network file's, may be longer), and the key that
    /// makes it so (None: `network.channel_latency_cycles`).
    fn longest_channel(_: &Self::Params, latency: u32) -> (u32, Option<&'static str>) {
        (latency, None)
    }
    /// The key that sets the radix and its value, as a refusal for too many ports names them (None: the
    /// network's kind sets it).
    fn radix_key(_: &Self::Params) -> Option<(&'static str, String)> {
        None
    }

    /// What it needs of the rest of the scenario, as docs/config.md states it ("" if nothing): the
    /// conditions `unfit` checks.
    fn needs(_: &Self::Params) -> &'static str {
        ""
    }

    /// The problems of running it where `facts` hold (none where its `needs` hold).
    fn unfit(_: &Self::Params, _: &Facts) -> Vec<Problem> {
        Vec::new()
    }
}

/// What the far end of a router port is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PortLink {
    /// Nothing attached (e.g. the edge of a mesh).
    Unused,
    /// Another router's input/output port pair.
    Router { router: u32, port: u8 },
    /// A terminal (injection into this port, ejection out of it).
    Terminal { terminal: u32 },
}

/// Geometry of a k-ary n-cube (mesh or torus), used by dimension-order routing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CubeGeometry {
    pub k: u32,
    pub n: u32,
    pub wrap: bool,
    pub unidirectional: bool,
}

impl CubeGeometry {
    /// Coordinate of `router` in dimension `dim` (router id = sum of coord_d * k^d).
    pub fn coord(&self, router: u32, dim: u32) -> u32 {
        (router / self.k.pow(dim)) % self.k
    }
    /// Every router's coordinates, for routings that read them instead of dividing.
    pub fn coords(&self) -> Coords {
        let routers = self.k.pow(self.n);
        let table = (0..routers).flat_map(|r| (0..self.n).map(move |d| self.coord(r, d) as u16)).collect();
        Coords { n: self.n as usize, table }
    }
    /// Output port leaving in `dim` in the positive (`plus`) or negative direction.
    pub fn port(&self, dim: u32, plus: bool) -> u8 {
        if self.unidirectional {
            dim as u8
        } else {
            (2 * dim + u32::from(!plus)) as u8
        }
    }
    /// Port the terminal is attached to.
    pub fn terminal_port(&self) -> u8 {
        if self.unidirectional {
            self.n as u8
        } else {
            2 * self.n as u8
        }
    }
    /// Decodes a router-facing port into (dimension, positive direction).
    pub fn port_dim(&self, port: u8) -> (u32, bool) {
        if self.unidirectional {
            (port as u32, true)
        } else {
            (port as u32 / 2, port.is_multiple_of(2))
        }
    }
}

/// Most ports of a HyperX router, the most the switch models handle (their port masks are 64 bits).
pub const MAX_RADIX: u32 = 64;

/// The shape of a HyperX (`hyperx.rs`, which documents its numbering), as the routings read it (a fixed
/// array: `Geometry` is `Copy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HyperxGeometry {
    /// Dimensions L.
    pub dims: u8,
    /// S_d for d < L (every S_d < 64: a router has at most 64 ports).
    pub shape: [u8; MAX_RADIX as usize],
    /// Parallel links K per router pair of a dimension.
    pub links: u8,
    /// Terminals T per router.
    pub terminals: u8,
}

impl HyperxGeometry {
    pub fn routers(&self) -> u32 {
        self.sizes().iter().map(|&s| u32::from(s)).product()
    }
    /// S_0 … S_{L−1}.
    pub fn sizes(&self) -> &[u8] {
        &self.shape[..self.dims as usize]
    }
    pub fn radix(&self) -> u32 {
        u32::from(self.terminals) + self.sizes().iter().map(|&s| u32::from(s) - 1).sum::<u32>() * u32::from(self.links)
    }
    /// Every router's coordinates, L bytes each.
    pub fn coords(&self) -> Vec<u8> {
        let mut table = Vec::with_capacity(self.routers() as usize * self.dims as usize);
        for r in 0..self.routers() {
            let mut rest = r;
            for &s in self.sizes() {
                table.push((rest % u32::from(s)) as u8);
                rest /= u32::from(s);
            }
        }
        table
    }
    /// The first port of dimension `dim` (T + B_d).
    pub fn dim_base(&self, dim: usize) -> u8 {
        let before: u32 = self.sizes()[..dim].iter().map(|&s| u32::from(s) - 1).sum();
        (u32::from(self.terminals) + before * u32::from(self.links)) as u8
    }
    /// The port of parallel link `link` towards the router `offset` steps on in `dim`, from its
    /// dimension's first port `base` (`dim_base`).
    #[inline]
    pub fn port(&self, base: u8, offset: u8, link: u8) -> u8 {
        base + (offset - 1) * self.links + link
    }
}

/// Precomputed coordinates of every router of a k-ary n-cube.
#[derive(Debug, Clone)]
pub struct Coords {
    n: usize,
    table: Vec<u16>,
}

impl Coords {
    /// The `n` coordinates of `router`.
    #[inline]
    pub fn of(&self, router: u32) -> &[u16] {
        &self.table[router as usize * self.n..][..self.n]
    }
}

choice! {
    /// Which router of a group holds the global channel to which group.
    pub enum Arrangement {
        /// Consecutive: global slot s of group G leads to group s if s < G, else s + 1.
        Absolute = "absolute",
        /// Palm tree: global slot s of group G leads to group (G − s − 1) mod g.
        PalmTree = "palm_tree",
    }
}

/// The sizes and global link arrangement of a dragonfly (`dragonfly.rs`), and where its channels go, for
/// the routings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DragonflyGeometry {
    pub p: u32,
    pub a: u32,
    pub h: u32,
    pub g: u32,
    pub arrangement: Arrangement,
}

impl DragonflyGeometry {
    /// The group of router `r`.
    #[inline]
    pub fn group(&self, r: u32) -> u32 {
        r / self.a
    }

    /// The router terminal `t` sits on.
    #[inline]
    pub fn router_of(&self, t: u32) -> u32 {
        t / self.p
    }

    /// The group global slot `s` of group `from` leads to (None: unused).
    pub fn slot_target(&self, from: u32, s: u32) -> Option<u32> {
        if s + 1 >= self.g {
            return None;
        }
        Some(match self.arrangement {
            Arrangement::Absolute => s + u32::from(s >= from),
            Arrangement::PalmTree => (from + self.g - s - 1) % self.g,
        })
    }

    /// The global slot of group `from` that leads to group `to` (≠ `from`).
    #[inline]
    pub fn slot_to(&self, from: u32, to: u32) -> u32 {
        match self.arrangement {
            Arrangement::Absolute => to - u32::from(to > from),
            Arrangement::PalmTree => (from + self.g - to - 1) % self.g,
        }
    }

    /// The router of group `from` holding the global channel to group `to` (≠ `from`).
    #[inline]
    pub fn holder(&self, from: u32, to: u32) -> u32 {
        from * self.a + self.slot_to(from, to) / self.h
    }

    /// The global port of [`holder`](Self::holder) that leads to group `to`.
    #[inline]
    pub fn global_port(&self, from: u32, to: u32) -> u8 {
        (self.p + self.a - 1 + self.slot_to(from, to) % self.h) as u8
    }

    /// The router of group `to` the global channel from group `from` lands on.
    #[inline]
    pub fn entry(&self, from: u32, to: u32) -> u32 {
        self.holder(to, from)
    }

    /// The local port of router `r` leading to router `to` of the same group (`to` ≠ `r`).
    #[inline]
    pub fn local_port(&self, r: u32, to: u32) -> u8 {
        let (i, j) = (r % self.a, to % self.a);
        (self.p + j - u32::from(j > i)) as u8
    }

    /// Router-to-router hops of the minimal route from router `r` to router `d`: a local hop to the
    /// holder of the global channel, the global hop, a local hop to `d` (each where needed).
    #[inline]
    pub fn minimal_hops(&self, r: u32, d: u32) -> u32 {
        let (gr, gd) = (self.group(r), self.group(d));
        if gr == gd {
            return u32::from(r != d);
        }
        u32::from(r != self.holder(gr, gd)) + 1 + u32::from(self.entry(gr, gd) != d)
    }

    /// Router-to-router hops from router `r` to router `d` through intermediate group `via` (neither
    /// `r`'s group nor `d`'s): minimal to the group, then minimal from where it lands.
    #[inline]
    pub fn valiant_hops(&self, r: u32, via: u32, d: u32) -> u32 {
        let gr = self.group(r);
        u32::from(r != self.holder(gr, via)) + 1 + self.minimal_hops(self.entry(gr, via), d)
    }
}

/// Model-specific geometry the routing algorithms may rely on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Geometry {
    Cube(CubeGeometry),
    /// A bidirectional multistage network (fat tree, SP boards): routed by source routes planned
    /// from the graph itself (`routing/source_route.rs`).
    Bmin,
    /// A graph with no geometry beyond its links (an irregular network): routed by tables computed
    /// from the graph itself (`routing/up_down.rs`).
    Graph,
    /// A dragonfly: groups of fully connected routers joined by global channels (`dragonfly.rs`).
    Dragonfly(DragonflyGeometry),
    /// A HyperX: all-to-all in every dimension (`hyperx.rs`).
    Hyperx(HyperxGeometry),
}

#[derive(Debug, Clone)]
pub struct Topology {
    pub name: String,
    pub geometry: Geometry,
    /// First index into `links` of each router's ports; `port_base[r+1] - port_base[r]` = radix.
    pub port_base: Vec<u32>,
    /// Where the channel leaving every (router, port) goes, flattened.
    pub links: Vec<PortLink>,
    /// What feeds the input side of every (router, port), flattened. In a bidirectional network this
    /// mirrors `links`; in a unidirectional ring input d is fed from the previous router.
    pub inputs: Vec<PortLink>,
    /// Latency in cycles of every channel leaving (router, port), flattened like `links`.
    pub latency: Vec<u32>,
    /// Router and port each terminal is attached to.
    pub terminal_at: Vec<(u32, u8)>,
    /// Index (among `node_switches()`) of the router each terminal is attached to.
    pub terminal_switch: Vec<u32>,
    /// Latency of each terminal's injection and ejection channels.
    pub terminal_latency: Vec<u32>,
    /// The channel classes (a dragonfly's local and global channels, a fat tree's levels, a HyperX's
    /// dimensions: [`Topology::with_classes`]); the first is the terminals' channels.
    pub classes: Vec<String>,
    /// The class of the channel leaving every (router, port), flattened like `links`.
    pub class: Vec<u8>,
}

impl Topology {
    pub fn routers(&self) -> usize {
        self.port_base.len() - 1
    }
    pub fn terminals(&self) -> usize {
        self.terminal_at.len()
    }
    pub fn radix(&self, router: u32) -> usize {
        (self.port_base[router as usize + 1] - self.port_base[router as usize]) as usize
    }
    /// Index of (router, port) in the flattened per-port arrays.
    #[inline]
    pub fn port_index(&self, router: u32, port: u8) -> usize {
        self.port_base[router as usize] as usize + port as usize
    }
    #[inline]
    pub fn link(&self, router: u32, port: u8) -> PortLink {
        self.links[self.port_index(router, port)]
    }
    /// The routers terminals attach to ("node switches"), in increasing id order.
    pub fn node_switches(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self.terminal_at.iter().map(|&(r, _)| r).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    pub fn max_radix(&self) -> usize {
        (0..self.routers()).map(|r| self.radix(r as u32)).max().unwrap_or(0)
    }

    /// Name of the channel leaving (router, port).
    pub fn channel_name(&self, router: u32, port: u8) -> Option<String> {
        match self.link(router, port) {
            PortLink::Unused => None,
            PortLink::Router { router: to, .. } => Some(format!("r{router}.p{port}->r{to}")),
            PortLink::Terminal { terminal } => Some(format!("r{router}.p{port}->t{terminal}")),
        }
    }

    /// Assembles a topology from its output-side links, deriving the input side. Fails if two
    /// channels feed the same input port or a terminal is attached inconsistently.
    pub fn new(
        name: String,
        geometry: Geometry,
        port_base: Vec<u32>,
        links: Vec<PortLink>,
        latency: Vec<u32>,
        terminal_latency: Vec<u32>,
    ) -> Result<Topology, Error> {
        let mut inputs = vec![PortLink::Unused; links.len()];
        let mut attached: Vec<Option<(u32, u8)>> = vec![None; terminal_latency.len()];
        let routers = port_base.len() - 1;
        for r in 0..routers as u32 {
            for p in 0..(port_base[r as usize + 1] - port_base[r as usize]) as u8 {
                let idx = port_base[r as usize] as usize + p as usize;
                let (target, feeder) = match links[idx] {
                    PortLink::Router { router, port } => {
                        (port_base[router as usize] as usize + port as usize, PortLink::Router { router: r, port: p })
                    }
                    PortLink::Terminal { terminal } => {
                        match attached.get_mut(terminal as usize) {
                            Some(slot @ None) => *slot = Some((r, p)),
                            _ => {
                                return Err(Error::Internal {
                                    message: format!("terminal {terminal} attached twice or out of range"),
                                })
                            }
                        }
                        (idx, PortLink::Terminal { terminal })
                    }
                    PortLink::Unused => continue,
                };
                if inputs[target] != PortLink::Unused {
                    return Err(Error::Internal {
                        message: format!("two channels feed input {target} (from r{r}.p{p})"),
                    });
                }
                inputs[target] = feeder;
            }
        }
        let terminal_at = attached
            .into_iter()
            .enumerate()
            .map(|(t, at)| at.ok_or_else(|| Error::Internal { message: format!("terminal {t} is not attached") }))
            .collect::<Result<Vec<_>, _>>()?;
        let mut switches: Vec<u32> = terminal_at.iter().map(|&(r, _)| r).collect();
        switches.sort_unstable();
        switches.dedup();
        let terminal_switch =
            terminal_at.iter().map(|(r, _)| switches.binary_search(r).expect("listed") as u32).collect();
        let class = links.iter().map(|l| u8::from(!matches!(l, PortLink::Terminal { .. }))).collect();
        Ok(Topology {
            name,
            geometry,
            port_base,
            links,
            inputs,
            latency,
            terminal_at,
            terminal_switch,
            terminal_latency,
            classes: vec![TERMINAL_CLASS.to_string(), "router".to_string()],
            class,
        })
    }

    /// The network with its router-to-router channels sorted into classes `names` by `class_of(router,
    /// port)` (an index into `names`), each channel of class c `latencies[c]` cycles long.
    pub fn with_classes(
        mut self,
        names: &[String],
        latencies: &[u32],
        class_of: impl Fn(u32, u8) -> usize,
    ) -> Topology {
        for r in 0..self.routers() as u32 {
            for p in 0..self.radix(r) as u8 {
                let i = self.port_index(r, p);
                if matches!(self.links[i], PortLink::Router { .. }) {
                    let c = class_of(r, p);
                    self.class[i] = (c + 1) as u8;
                    self.latency[i] = latencies[c];
                }
            }
        }
        self.classes = std::iter::once(TERMINAL_CLASS.to_string()).chain(names.iter().cloned()).collect();
        self
    }

    /// The longest router-to-router channel, in cycles (0 for a network of one router).
    pub fn longest_channel(&self) -> u32 {
        let router_links = self.links.iter().zip(&self.latency).filter(|(l, _)| matches!(l, PortLink::Router { .. }));
        router_links.map(|(_, &l)| l).max().unwrap_or(0)
    }

    /// Hop distance of every router from the nearest router with a terminal: its level in a tree
    /// (node switches 0; `u32::MAX` for a router no terminal reaches).
    pub fn levels(&self) -> Vec<u32> {
        let mut level = vec![u32::MAX; self.routers()];
        let mut queue = std::collections::VecDeque::new();
        for &(r, _) in &self.terminal_at {
            if level[r as usize] != 0 {
                level[r as usize] = 0;
                queue.push_back(r);
            }
        }
        while let Some(r) = queue.pop_front() {
            for p in 0..self.radix(r) as u8 {
                if let PortLink::Router { router, .. } = self.link(r, p) {
                    if level[router as usize] == u32::MAX {
                        level[router as usize] = level[r as usize] + 1;
                        queue.push_back(router);
                    }
                }
            }
        }
        level
    }

    /// What feeds input (router, port).
    #[inline]
    pub fn input(&self, router: u32, port: u8) -> PortLink {
        self.inputs[self.port_index(router, port)]
    }

    /// Latency of the channel feeding input (router, port): the way its credits (or stop/go signals)
    /// travel back (1 for an unconnected port).
    pub fn feeding_latency(&self, router: u32, port: u8) -> u32 {
        match self.input(router, port) {
            PortLink::Router { router: up, port } => self.latency[self.port_index(up, port)],
            PortLink::Terminal { terminal } => self.terminal_latency[terminal as usize],
            PortLink::Unused => 1,
        }
    }
}
