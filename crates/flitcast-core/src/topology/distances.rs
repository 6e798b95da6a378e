//! Zero-load distances between routers: the fewest router-to-router hops, and among paths of that many
//! hops the least channel latency — what a minimal route takes on an idle network (the collectives'
//! α-β-γ estimate, `collective/estimate.rs`).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::graph::{PortLink, Topology};

/// A path's cost: router-to-router hops, then the sum of its channels' latencies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Distance {
    pub hops: u32,
    pub latency: u64,
}

/// The distance from router `from` to every router (None: unreachable).
pub fn from_router(topo: &Topology, from: u32) -> Vec<Option<Distance>> {
    let mut best: Vec<Option<Distance>> = vec![None; topo.routers()];
    let mut queue = BinaryHeap::from([Reverse((Distance { hops: 0, latency: 0 }, from))]);
    while let Some(Reverse((d, r))) = queue.pop() {
        if best[r as usize].is_some() {
            continue;
        }
        best[r as usize] = Some(d);
        for p in 0..topo.radix(r) as u8 {
            if let PortLink::Router { router: next, .. } = topo.link(r, p) {
                if best[next as usize].is_none() {
                    let latency = topo.latency[topo.port_index(r, p)] as u64;
                    queue.push(Reverse((Distance { hops: d.hops + 1, latency: d.latency + latency }, next)));
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::mesh;

    #[test]
    fn mesh_distances_are_manhattan() {
        let topo = mesh::build(4, 2, 3).unwrap();
        let d = from_router(&topo, 0);
        for (r, d) in d.iter().enumerate() {
            let (x, y) = (r as u32 % 4, r as u32 / 4);
            assert_eq!(d.unwrap(), Distance { hops: x + y, latency: 3 * (x + y) as u64 });
        }
    }
}
