//! The fewest router-to-router hops between two routers, as the network's graph gives them: what a
//! packet's hops are measured against to tell whether it was routed non-minimally (`nonminimal_share`,
//! docs/results.md). A dragonfly's from its geometry (one global hop at most); any other network's from a
//! table of every pair, searched once, where it has at most [`MAX_TABLE_ROUTERS`] routers.

use std::collections::VecDeque;

use super::{DragonflyGeometry, Geometry, PortLink, Topology};

/// Most routers a table of every pair is kept for (2 MB of `u16`).
pub const MAX_TABLE_ROUTERS: usize = 1024;

#[derive(Debug, Clone)]
pub enum MinHops {
    Dragonfly(DragonflyGeometry),
    /// `hops[a · routers + b]`: from router a to router b (`u16::MAX`: unreachable).
    Table {
        routers: usize,
        hops: Vec<u16>,
    },
}

impl MinHops {
    /// The network's minimal hops, where it can give them.
    pub fn of(topo: &Topology) -> Option<MinHops> {
        if let Geometry::Dragonfly(geo) = &topo.geometry {
            return Some(MinHops::Dragonfly(*geo));
        }
        let routers = topo.routers();
        (routers <= MAX_TABLE_ROUTERS).then(|| MinHops::Table { routers, hops: table(topo) })
    }

    /// Bytes it holds for `routers` routers of a network of the given kind (`memory.rs`).
    pub fn bytes(routers: u64, dragonfly: bool) -> u64 {
        if dragonfly || routers > MAX_TABLE_ROUTERS as u64 {
            0
        } else {
            routers * routers * 2
        }
    }

    /// Hops from router `a` to router `b`.
    #[inline]
    pub fn hops(&self, a: u32, b: u32) -> u32 {
        match self {
            MinHops::Dragonfly(geo) => geo.minimal_hops(a, b),
            MinHops::Table { routers, hops } => u32::from(hops[a as usize * routers + b as usize]),
        }
    }
}

/// A breadth-first search from every router over the router-to-router channels.
fn table(topo: &Topology) -> Vec<u16> {
    let n = topo.routers();
    let mut hops = vec![u16::MAX; n * n];
    let mut queue = VecDeque::new();
    for from in 0..n {
        let row = &mut hops[from * n..(from + 1) * n];
        row[from] = 0;
        queue.push_back(from as u32);
        while let Some(r) = queue.pop_front() {
            for p in 0..topo.radix(r) as u8 {
                if let PortLink::Router { router, .. } = topo.link(r, p) {
                    if row[router as usize] == u16::MAX {
                        row[router as usize] = row[r as usize] + 1;
                        queue.push_back(router);
                    }
                }
            }
        }
    }
    hops
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::mesh;

    #[test]
    fn a_table_holds_the_grids_distances() {
        // a 4x4 mesh: Manhattan distances between routers
        let topo = mesh::build(4, 2, 1).unwrap();
        let m = MinHops::of(&topo).unwrap();
        for a in 0..16u32 {
            for b in 0..16u32 {
                let d = (a % 4).abs_diff(b % 4) + (a / 4).abs_diff(b / 4);
                assert_eq!(m.hops(a, b), d, "{a} → {b}");
            }
        }
    }
}
