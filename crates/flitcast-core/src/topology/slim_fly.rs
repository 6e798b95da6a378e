//! Slim Fly (Besta & Hoefler, "Slim Fly: A Cost Effective Low-Diameter Network Topology", SC 2014, §3):
//! the McKay–Miller–Širáň (MMS) graph of a prime `q`, of diameter 2, with `p` terminals on each router;
//! docs/models/slim_fly.md.
//!
//! With q = 4w + δ (δ = ±1 for an odd prime) and ξ a primitive element of the field F_q, the 2q² routers
//! are (0, x, y) and (1, m, c) for x, y, m, c in F_q, and
//!
//! - (0, x, y) — (0, x, y′) when y − y′ ∈ X,
//! - (1, m, c) — (1, m, c′) when c − c′ ∈ X′,
//! - (0, x, y) — (1, m, c) when y = m·x + c,
//!
//! where for δ = 1, X = {1, ξ², …, ξ^(q−3)} and X′ = {ξ, ξ³, …, ξ^(q−2)}, and for δ = −1,
//! X = {1, ξ², …, ξ^(2w−2)} ∪ {ξ^(2w−1), ξ^(2w+1), …, ξ^(4w−3)} and X′ = {ξ, ξ³, …, ξ^(2w−1)} ∪
//! {ξ^(2w), ξ^(2w+2), …, ξ^(4w−2)} (§3.1, after Hafner). Every router has k′ = (3q − δ)/2 router ports.
//!
//! Numbering: router (0, x, y) is x·q + y, router (1, m, c) is q² + m·q + c. Ports of router r: 0 … k′−1
//! lead to its neighbours in increasing router number, k′ … k′+p−1 to terminals r·p … r·p + p − 1.
//! Routed from the graph's own distances (`routing/graph_routing.rs`).

use super::graph::{Builder, Geometry, PortLink, Topology};
use crate::error::Error;
use crate::facts::Facts;
use crate::params::{params, Kind, Problem};

params! {
    /// A Slim Fly.
    pub struct Params {
        /// The prime q of the MMS graph: 2q² routers of (3q − δ)/2 router ports each (q = 4w + δ).
        q: u32 = 5, range(3, 23);
        /// Terminals per router; left out: ⌈k′/2⌉ of the k′ router ports (the paper's full global
        /// bandwidth, §3.2).
        p: Option<u32> = None, range(1, 64);
    }
}

pub struct SlimFly;

impl Kind for SlimFly {
    const NAME: &'static str = "slim_fly";
    const DOC: &'static str = "Slim Fly: the MMS graph of a prime q (2q² routers, diameter 2), p terminals per \
                               router; ports neighbours, then terminals";
    type Params = Params;
}

impl Params {
    /// δ of q = 4w + δ.
    fn delta(&self) -> i64 {
        if self.q % 4 == 1 {
            1
        } else {
            -1
        }
    }

    /// Router ports: k′ = (3q − δ)/2.
    pub fn router_ports(&self) -> u32 {
        ((3 * self.q as i64 - self.delta()) / 2) as u32
    }

    pub fn terminals_per_router(&self) -> u32 {
        self.p.unwrap_or(self.router_ports().div_ceil(2))
    }

    pub fn routers(&self) -> u32 {
        2 * self.q * self.q
    }

    /// The ports of a router, router and terminal ports.
    fn ports(&self) -> u32 {
        self.router_ports() + self.terminals_per_router()
    }

    fn problem(&self) -> Option<Problem> {
        if !is_prime(self.q) {
            let allowed = "a prime from 3 to 23 (the MMS graph's field F_q)";
            return Some(Problem::new("network.q", self.q.to_string(), allowed, None));
        }
        (self.ports() > 64).then(|| {
            let allowed = format!(
                "routers of at most 64 ports: the {} router ports of q = {} and network.p terminals",
                self.router_ports(),
                self.q
            );
            Problem::new("network.p", self.terminals_per_router().to_string(), allowed, None)
        })
    }

    /// The generator sets X and X′ (§3.1), as residues mod q.
    fn generators(&self) -> (Vec<u32>, Vec<u32>) {
        let q = self.q as u64;
        let xi = primitive_element(self.q) as u64;
        let power = |e: u64| (0..e).fold(1u64, |v, _| v * xi % q) as u32;
        let w = (self.q as i64 - self.delta()) as u64 / 4;
        if self.delta() == 1 {
            ((0..q - 1).step_by(2).map(power).collect(), (1..q - 1).step_by(2).map(power).collect())
        } else {
            let x = (0..2 * w - 1).step_by(2).chain((2 * w - 1..4 * w - 2).step_by(2)).map(power).collect();
            let x2 = (1..2 * w).step_by(2).chain((2 * w..4 * w - 1).step_by(2)).map(power).collect();
            (x, x2)
        }
    }

    /// Each router's neighbours, in increasing router number.
    pub fn neighbours(&self) -> Vec<Vec<u32>> {
        let q = self.q;
        let (x_set, x2_set) = self.generators();
        let mut adj = vec![Vec::new(); self.routers() as usize];
        for a in 0..q {
            for b in 0..q {
                let (zero, one) = (a * q + b, q * q + a * q + b);
                for &s in &x_set {
                    adj[zero as usize].push(a * q + (b + s) % q);
                }
                for &s in &x2_set {
                    adj[one as usize].push(q * q + a * q + (b + s) % q);
                }
                // (0, x = a, y = b) — (1, m, c = y − m·x) for every m
                for m in 0..q {
                    let c = (b + q * q - m * a % q) % q;
                    adj[zero as usize].push(q * q + m * q + c);
                    adj[(q * q + m * q + c) as usize].push(zero);
                }
            }
        }
        for list in &mut adj {
            list.sort_unstable();
        }
        adj
    }
}

fn is_prime(n: u32) -> bool {
    n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| !n.is_multiple_of(d))
}

/// The smallest primitive element of F_q (q prime): the g whose powers give every nonzero residue.
fn primitive_element(q: u32) -> u32 {
    (2..q)
        .find(|&g| {
            let mut v = 1u64;
            (1..q - 1).all(|_| {
                v = v * g as u64 % q as u64;
                v != 1
            })
        })
        .unwrap_or(1)
}

impl Builder for SlimFly {
    fn sized_by(_: &Params) -> &'static str {
        "network.q, network.p"
    }

    fn graph(p: &Params, latency: u32) -> Result<Topology, Error> {
        if let Some(problem) = p.problem() {
            return Err(Error::from_problems(vec![problem]));
        }
        let (routers, ports, t) = (p.routers(), p.ports(), p.terminals_per_router());
        let adj = p.neighbours();
        // (the port of router b that leads back to a)
        let back = |a: u32, b: u32| adj[b as usize].iter().position(|&n| n == a).expect("links go both ways") as u8;
        let mut links = Vec::with_capacity((routers * ports) as usize);
        for r in 0..routers {
            for &n in &adj[r as usize] {
                links.push(PortLink::Router { router: n, port: back(r, n) });
            }
            links.extend((0..t).map(|k| PortLink::Terminal { terminal: r * t + k }));
        }
        let name = format!("Slim Fly of q = {} ({routers} routers, {} nodes)", p.q, routers * t);
        let base = (0..=routers).map(|r| r * ports).collect();
        let latencies = vec![latency; links.len()];
        Topology::new(name, Geometry::Graph, base, links, latencies, vec![latency; (routers * t) as usize])
    }
    fn nodes(p: &Params) -> Option<u64> {
        Some(p.routers() as u64 * p.terminals_per_router() as u64)
    }
    fn radix(p: &Params) -> u32 {
        p.ports()
    }
    fn known_routers(p: &Params) -> Option<u32> {
        Some(p.routers())
    }
    /// The MMS graphs' defining property (tested below).
    fn diameter(_: &Params) -> Option<u32> {
        Some(2)
    }
    fn size_key(p: &Params) -> Option<(&'static str, String)> {
        Some(("network.q", p.q.to_string()))
    }
    fn needs(_: &Params) -> &'static str {
        "a prime `network.q`, and routers of at most 64 ports: (3q − δ)/2 router ports and `network.p` terminals"
    }
    fn unfit(p: &Params, _: &Facts) -> Vec<Problem> {
        p.problem().into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::distances;

    #[test]
    fn every_mms_graph_has_its_degree_its_size_and_diameter_2() {
        for q in [3, 5, 7, 11, 13] {
            let p = Params { q, p: Some(1) };
            let adj = p.neighbours();
            assert_eq!(adj.len() as u32, 2 * q * q);
            for (r, list) in adj.iter().enumerate() {
                assert_eq!(list.len() as u32, p.router_ports(), "q = {q}, router {r}");
                assert!(list.windows(2).all(|w| w[0] < w[1]) && !list.contains(&(r as u32)), "q = {q}: simple graph");
            }
            let topo = SlimFly::graph(&p, 1).unwrap();
            for r in 0..topo.routers() as u32 {
                let far = distances::from_router(&topo, r).iter().map(|d| d.unwrap().hops).max().unwrap();
                assert_eq!(far, 2, "q = {q}: diameter 2 from router {r}");
            }
        }
    }

    #[test]
    fn the_paper_s_q_5_network_has_7_router_ports_and_50_routers() {
        // (Besta & Hoefler, Table 2's smallest: q = 5, k′ = 7, 50 routers)
        let p = Params { q: 5, p: None };
        assert_eq!((p.router_ports(), p.routers(), p.terminals_per_router()), (7, 50, 4));
        assert_eq!(primitive_element(5), 2);
        assert_eq!(p.generators(), (vec![1, 4], vec![2, 3]));
    }
}
