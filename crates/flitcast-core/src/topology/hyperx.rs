//! HyperX (Ahn, Binkert, Davis, McLaren & Schreiber, "HyperX: Topology, Routing, and Packaging of
//! Efficient Large-Scale Networks", SC 2009, the topology section; docs/models/hyperx.md): S₁ × … × S_L
//! routers, each dimension all-to-all (every router linked to every other router that differs from it
//! in that one coordinate only), K parallel links between each such pair, T terminals per router. L = 1
//! is a fully connected network, S = 2 in every dimension a hypercube; the paper presents HyperX as the
//! extension of both and of the flattened butterfly.
//!
//! Reading choices:
//! - The paper lets the link multiplicity K_k differ per dimension (its regular HyperX has one S and
//!   one K). Here the shape may differ per dimension (`network.shape`), K is one value for all of them
//!   (`network.parallel_links`): the routings treat every dimension alike, and a per-dimension K is
//!   left for when a study needs it.
//! - Routers have at most 64 ports (T + Σ (S_d − 1)·K ≤ 64), what the switch models assume.
//!
//! Numbering. Dimension 0 varies fastest: router id = Σ_d c_d · Π_{e<d} S_e, c_d its coordinate in
//! dimension d. Terminal t is attached to router ⌊t / T⌋ on port t mod T, so terminals 0 … T−1 are
//! on router 0. Ports:
//!
//! | ports | lead to |
//! |---|---|
//! | 0 … T−1 | the router's terminals |
//! | T + B_d + (o − 1)·K + j | in dimension d, offset o (1 ≤ o < S_d), parallel link j (0 ≤ j < K) |
//!
//! where B_d = Σ_{e<d} (S_e − 1)·K. Offset o leads to the router whose coordinate in d is
//! (c_d + o) mod S_d (the others the same), arriving on that router's port for offset S_d − o, link j:
//! a port's number means the same relative neighbour at every router.

use super::classes;
use super::graph::{Builder, Geometry, HyperxGeometry, PortLink, Topology, MAX_RADIX};
use crate::error::Error;
use crate::facts::Facts;
use crate::params::{params, Kind, Problem};

params! {
    /// A HyperX.
    pub struct Params {
        /// Routers per dimension, S_1 … S_L (dimension 0 first): one entry per dimension, each at least 2.
        /// [8] is a fully connected network of 8 routers, [2, 2, 2, 2] a 4-cube.
        shape: Vec<u32> = vec![4, 4];
        /// Parallel links K between each pair of routers of a dimension (the same in every dimension).
        parallel_links: u32 = 1, range(1, 8);
        /// Terminals T on every router (the concentration).
        terminals_per_router: u32 = 1, range(1, 64);
        /// Latency of each dimension's channels, dimension 0 first (one entry per dimension of
        /// network.shape); left out: network.channel_latency_cycles in every dimension.
        dimension_latency_cycles: Option<Vec<u32>> = None, unit("cycles");
    }
}

pub struct Hyperx;

impl Kind for Hyperx {
    const NAME: &'static str = "hyperx";
    const DOC: &'static str = "HyperX: routers all-to-all in each dimension of network.shape, K parallel links, T \
                               terminals per router; ports 0..T-1 terminals, then per dimension, offset and link";
    type Params = Params;
}

impl Params {
    /// The routers' port count T + Σ (S_d − 1)·K (saturating: an absurd shape is too large, not wrapped).
    fn ports(&self) -> u64 {
        let links: u64 = self.shape.iter().map(|&s| u64::from(s.saturating_sub(1))).sum();
        u64::from(self.terminals_per_router).saturating_add(links.saturating_mul(u64::from(self.parallel_links)))
    }

    /// What is wrong with the parameters, as (key, value, allowed), if anything.
    pub fn problem(&self) -> Option<(&'static str, String, String)> {
        let shape = format!("{:?}", self.shape);
        if self.shape.is_empty() {
            return Some(("network.shape", shape, "a list of at least one dimension size, e.g. [4, 4]".into()));
        }
        if let Some(s) = self.shape.iter().find(|&&s| s < 2) {
            return Some(("network.shape", shape, format!("dimension sizes of at least 2 (not {s})")));
        }
        let ports = self.ports();
        if ports > u64::from(MAX_RADIX) {
            return Some((
                "network.shape",
                shape,
                format!(
                    "a shape whose routers have at most {MAX_RADIX} ports: T + Σ (S − 1)·K = {} + {}·{} = {ports} \
                     with network.terminals_per_router = T and network.parallel_links = K",
                    self.terminals_per_router,
                    self.shape.iter().map(|s| s - 1).sum::<u32>(),
                    self.parallel_links
                ),
            ));
        }
        let key = "network.dimension_latency_cycles";
        classes::problem(key, &self.dimension_latency_cycles, self.shape.len(), "dimension")
            .map(|p| (key, p.value, p.allowed))
    }

    /// The geometry the routings use (the parameters must be valid: `problem` is None).
    pub fn geometry(&self) -> HyperxGeometry {
        let mut shape = [0u8; MAX_RADIX as usize];
        for (s, &v) in shape.iter_mut().zip(&self.shape) {
            *s = v as u8;
        }
        HyperxGeometry {
            dims: self.shape.len() as u8,
            shape,
            links: self.parallel_links as u8,
            terminals: self.terminals_per_router as u8,
        }
    }
}

impl Builder for Hyperx {
    fn size_key(p: &Params) -> Option<(&'static str, String)> {
        Some(("network.shape", format!("{:?}", p.shape)))
    }
    fn sized_by(_: &Params) -> &'static str {
        "network.shape, network.parallel_links, network.terminals_per_router"
    }

    fn graph(p: &Params, latency: u32) -> Result<Topology, Error> {
        if let Some((key, value, allowed)) = p.problem() {
            return Err(Error::config(key, value, allowed));
        }
        let g = p.geometry();
        let names: Vec<String> = (0..p.shape.len()).map(|d| format!("dimension {d}")).collect();
        let latencies = classes::latencies(&p.dimension_latency_cycles, names.len(), latency);
        let bases: Vec<u8> = (0..names.len()).map(|d| g.dim_base(d)).collect();
        Ok(build(g, latency)?
            .with_classes(&names, &latencies, |_, port| bases.iter().rposition(|&b| b <= port).unwrap_or(0)))
    }
    fn longest_channel(p: &Params, latency: u32) -> (u32, Option<&'static str>) {
        classes::longest("network.dimension_latency_cycles", &p.dimension_latency_cycles, latency)
    }
    fn nodes(p: &Params) -> Option<u64> {
        p.shape.iter().try_fold(u64::from(p.terminals_per_router), |n, &s| n.checked_mul(u64::from(s)))
    }
    /// One terminal per router and one size S in every dimension: node ids are the L base-S digits
    /// of the router's coordinates, as on a mesh (so coordinate traffic patterns run).
    fn digits(p: &Params) -> Option<(u32, u32)> {
        let s = *p.shape.first()?;
        (p.terminals_per_router == 1 && p.shape.iter().all(|&x| x == s)).then_some((s, p.shape.len() as u32))
    }
    fn radix(p: &Params) -> u32 {
        p.ports().min(u64::from(u32::MAX)) as u32
    }
    fn dimensions(p: &Params) -> Option<u32> {
        Some(p.shape.len() as u32)
    }
    fn parallel_links(p: &Params) -> u32 {
        p.parallel_links
    }
    fn needs(_: &Params) -> &'static str {
        "at least one dimension in `network.shape`, each of at least 2 routers, and routers of at most 64 ports: \
         `network.terminals_per_router` + Σ (S − 1) · `network.parallel_links` ≤ 64; \
         `network.dimension_latency_cycles`, where given, with one latency per dimension"
    }
    fn unfit(p: &Params, _: &Facts) -> Vec<Problem> {
        let problem = p.problem().map(|(key, value, allowed)| Problem::new(key, value, allowed, None));
        problem.into_iter().collect()
    }
}

pub fn build(g: HyperxGeometry, latency: u32) -> Result<Topology, Error> {
    let routers = g.routers();
    let radix = g.radix();
    let t = u32::from(g.terminals);
    let mut links = vec![PortLink::Unused; (routers * radix) as usize];
    for r in 0..routers {
        for p in 0..t {
            links[(r * radix + p) as usize] = PortLink::Terminal { terminal: r * t + p };
        }
        let mut stride = 1;
        for (d, &s) in g.sizes().iter().enumerate() {
            let s = u32::from(s);
            let c = (r / stride) % s;
            let base = g.dim_base(d);
            for o in 1..s {
                let to = r - c * stride + ((c + o) % s) * stride;
                for j in 0..g.links {
                    let out = g.port(base, o as u8, j);
                    let back = g.port(base, (s - o) as u8, j);
                    links[(r * radix + u32::from(out)) as usize] = PortLink::Router { router: to, port: back };
                }
            }
            stride *= s;
        }
    }
    let sizes: Vec<String> = g.sizes().iter().map(|s| s.to_string()).collect();
    Topology::new(
        format!("{} HyperX, K = {}, T = {t}", sizes.join("x"), g.links),
        Geometry::Hyperx(g),
        (0..=routers).map(|r| r * radix).collect(),
        links.clone(),
        vec![latency; links.len()],
        vec![latency; (routers * t) as usize],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(shape: &[u32], k: u32, t: u32) -> Params {
        Params { shape: shape.to_vec(), parallel_links: k, terminals_per_router: t, dimension_latency_cycles: None }
    }

    #[test]
    fn every_router_pair_of_a_dimension_has_k_symmetric_links() {
        for (shape, k, t) in [(vec![4, 4], 1, 2), (vec![3, 4, 5], 2, 2), (vec![2, 2, 2], 3, 1), (vec![6], 1, 3)] {
            let p = params(&shape, k, t);
            let topo = Hyperx::graph(&p, 1).unwrap();
            let g = p.geometry();
            let coords = g.coords();
            let l = shape.len();
            let routers = topo.routers() as u32;
            assert_eq!(routers, shape.iter().product::<u32>());
            assert_eq!(topo.terminals() as u32, routers * t);
            assert_eq!(topo.max_radix() as u32, Hyperx::radix(&p));
            for a in 0..routers {
                for b in 0..routers {
                    let (ca, cb) = (&coords[a as usize * l..][..l], &coords[b as usize * l..][..l]);
                    let differ = (0..l).filter(|&d| ca[d] != cb[d]).count();
                    let ports: Vec<u8> = (0..topo.radix(a) as u8)
                        .filter(|&q| matches!(topo.link(a, q), PortLink::Router { router, .. } if router == b))
                        .collect();
                    assert_eq!(ports.len() as u32, if differ == 1 { k } else { 0 }, "{shape:?} r{a} -> r{b}");
                    for q in ports {
                        let PortLink::Router { port, .. } = topo.link(a, q) else { unreachable!() };
                        assert_eq!(topo.link(b, port), PortLink::Router { router: a, port: q });
                    }
                }
                for q in 0..t as u8 {
                    assert_eq!(topo.link(a, q), PortLink::Terminal { terminal: a * t + u32::from(q) });
                }
            }
        }
    }

    #[test]
    fn port_numbering_is_by_dimension_offset_and_link() {
        // 3 x 4, K = 2, T = 2: dimension 0 has ports 2..5 (offsets 1, 2; links 0, 1), dimension 1 ports 6..11.
        let p = params(&[3, 4], 2, 2);
        let topo = Hyperx::graph(&p, 1).unwrap();
        // router 0 = (0, 0): offset 2 in dimension 0, link 1 is port 2 + 2 + 1 = 5, to (2, 0) = router 2,
        // arriving on offset 1, link 1: port 3.
        assert_eq!(topo.link(0, 5), PortLink::Router { router: 2, port: 3 });
        // offset 3 in dimension 1, link 0: port 6 + 4 = 10, to (0, 3) = router 9, arriving on offset 1: port 6.
        assert_eq!(topo.link(0, 10), PortLink::Router { router: 9, port: 6 });
    }

    #[test]
    fn bad_shapes_name_the_key_and_what_is_allowed() {
        for (shape, k, t, says) in [
            (vec![], 1, 1, "at least one dimension"),
            (vec![4, 1], 1, 1, "at least 2 (not 1)"),
            (vec![33, 33], 1, 1, "at most 64 ports"),
            (vec![8, 8, 8], 3, 2, "= 2 + 21·3 = 65"),
        ] {
            let err = Hyperx::graph(&params(&shape, k, t), 1).unwrap_err();
            match err {
                Error::Config { key, allowed, .. } => {
                    assert_eq!(key, "network.shape");
                    assert!(allowed.contains(says), "{allowed}");
                }
                other => panic!("{other:?}"),
            }
        }
        assert!(params(&[8, 8, 8], 3, 1).problem().is_none());
    }

    #[test]
    fn digits_only_where_node_ids_are_coordinates() {
        assert_eq!(Hyperx::digits(&params(&[4, 4, 4], 2, 1)), Some((4, 3)));
        assert_eq!(Hyperx::digits(&params(&[4, 4], 1, 2)), None);
        assert_eq!(Hyperx::digits(&params(&[3, 4], 1, 1)), None);
    }
}
