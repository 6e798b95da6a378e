//! k-ary n-tree (Petrini & Vanneschi): the bidirectional MIN / fat tree of 2k-port switches that
//! study 000 §7 simulates with k = 4 (16, 64 and 256 nodes for n = 2, 3, 4).
//!
//! Node p has base-k digits p_{n-1} … p_0. Switch ⟨w, l⟩ (level l = 0 at the leaves … n−1 at the
//! top; w < k^{n−1}, digits w_{n−2} … w_0) is router l · k^{n−1} + w. Ports 0 … k−1 lead down,
//! ports k … 2k−1 lead up. Node p attaches to leaf ⟨p div k, 0⟩ on down port p_0. Up port k + j of
//! ⟨w, l⟩ leads to ⟨w', l+1⟩, where w' is w with digit w_l replaced by j, arriving on its down port
//! w_l. Top-level up ports are unused. Every switch at the LCA level of a pair has the same
//! downward view of the destination, so adaptive source routes are well defined.
//!
//! Channel classes: the channels between levels l and l + 1, both ways, for each l (their latencies
//! `network.level_latency_cycles`).

use super::classes;
use super::graph::{Builder, Geometry, PortLink, Topology};
use crate::error::Error;
use crate::facts::Facts;
use crate::params::{params, Kind, Problem};

params! {
    /// A k-ary n-tree.
    pub struct Params {
        /// Half the switch ports: k down, k up (switches have 2k ports; a route offers at most 8 up
        /// ports).
        k: u32 = 8, range(2, 8);
        /// Levels of switches; the tree has k^n nodes.
        n: u32 = 2, range(1, 6);
        /// Latency of the channels between each level of switches and the next, leaves first (n − 1
        /// entries); left out: network.channel_latency_cycles for every level.
        level_latency_cycles: Option<Vec<u32>> = None, unit("cycles");
    }
}

impl Params {
    /// What is wrong with the parameters, if anything.
    fn problem(&self) -> Option<Problem> {
        let levels = (self.n as usize).saturating_sub(1);
        classes::problem("network.level_latency_cycles", &self.level_latency_cycles, levels, "pair of adjacent levels")
    }
}

pub struct FatTree;

impl Kind for FatTree {
    const NAME: &'static str = "fat_tree";
    const DOC: &'static str = "k-ary n-tree of 2k-port switches, ports 0..k-1 down, k..2k-1 up (study 000)";
    type Params = Params;
}

impl Builder for FatTree {
    fn size_key(p: &Params) -> Option<(&'static str, String)> {
        Some(("network.k", p.k.to_string()))
    }
    fn sized_by(_: &Params) -> &'static str {
        "network.k, network.n"
    }

    fn multistage(_: &Params) -> bool {
        true
    }
    fn graph(p: &Params, latency: u32) -> Result<Topology, Error> {
        if let Some(problem) = p.problem() {
            return Err(Error::from_problems(vec![problem]));
        }
        let levels = (p.n as usize).saturating_sub(1);
        let names: Vec<String> = (0..levels).map(|l| format!("levels {l}-{}", l + 1)).collect();
        let latencies = classes::latencies(&p.level_latency_cycles, levels, latency);
        let (k, per_level) = (p.k, p.k.pow(p.n - 1));
        // an up port (k and above) leads to the next level, a down port to the one below
        Ok(build(p.k, p.n, latency)?.with_classes(&names, &latencies, |r, port| {
            let level = (r / per_level) as usize;
            if u32::from(port) >= k {
                level
            } else {
                level - 1
            }
        }))
    }
    fn longest_channel(p: &Params, latency: u32) -> (u32, Option<&'static str>) {
        classes::longest("network.level_latency_cycles", &p.level_latency_cycles, latency)
    }
    fn needs(_: &Params) -> &'static str {
        "`network.level_latency_cycles`, where given, with one latency per pair of adjacent levels (`network.n` − 1)"
    }
    fn unfit(p: &Params, _: &Facts) -> Vec<Problem> {
        p.problem().into_iter().collect()
    }
    fn nodes(p: &Params) -> Option<u64> {
        (p.k as u64).checked_pow(p.n)
    }
    fn digits(p: &Params) -> Option<(u32, u32)> {
        Some((p.k, p.n))
    }
    fn max_route_hops(p: &Params) -> u64 {
        2 * p.n as u64
    }
    fn radix_key(p: &Params) -> Option<(&'static str, String)> {
        Some(("network.k", p.k.to_string()))
    }
    fn radix(p: &Params) -> u32 {
        2 * p.k
    }
}

pub fn build(k: u32, n: u32, latency: u32) -> Result<Topology, Error> {
    let per_level = k.pow(n - 1);
    let routers = n * per_level;
    let radix = 2 * k;
    let mut links = vec![PortLink::Unused; (routers * radix) as usize];
    for l in 0..n {
        for w in 0..per_level {
            let r = l * per_level + w;
            if l == 0 {
                for p in 0..k {
                    links[(r * radix + p) as usize] = PortLink::Terminal { terminal: w * k + p };
                }
            }
            if l + 1 < n {
                let stride = k.pow(l);
                let digit = (w / stride) % k;
                for j in 0..k {
                    let w2 = w - digit * stride + j * stride;
                    let up = (l + 1) * per_level + w2;
                    links[(r * radix + k + j) as usize] = PortLink::Router { router: up, port: digit as u8 };
                    links[(up * radix + digit) as usize] = PortLink::Router { router: r, port: (k + j) as u8 };
                }
            }
        }
    }
    Topology::new(
        format!("{k}-ary {n}-tree ({} nodes)", k.pow(n)),
        Geometry::Bmin,
        (0..=routers).map(|r| r * radix).collect(),
        links.clone(),
        vec![latency; links.len()],
        vec![latency; k.pow(n) as usize],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_symmetry() {
        for (n, routers) in [(2, 8), (3, 48), (4, 256)] {
            let t = build(4, n, 1).unwrap();
            assert_eq!(t.routers(), routers);
            assert_eq!(t.terminals(), 4usize.pow(n));
            for r in 0..t.routers() as u32 {
                for p in 0..8u8 {
                    if let PortLink::Router { router, port } = t.link(r, p) {
                        assert_eq!(t.link(router, port), PortLink::Router { router: r, port: p });
                    }
                }
            }
        }
    }
}
