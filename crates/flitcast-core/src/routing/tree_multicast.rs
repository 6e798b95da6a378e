//! Multidestination worms on bidirectional MINs (study 000 §3.2–3.3): a bit-string header (one bit
//! per terminal, `dest_set.rs`), a reachability string per output port, adaptive routing up to the
//! least common ancestor (LCA) stage of the source and every destination, replication on the way
//! down only.
//!
//! * **Levels.** A router's level is its hop distance from the nearest node switch (0); a port is
//!   *down* if it leads to a terminal or to a lower level, *up* if it leads to a higher one.
//! * **Reachability** (§3.2): a down port's string holds the terminals reachable from it going only
//!   down, computed at build time from the graph; a switch forwards a worm on each down port whose
//!   string ANDs non-zero with the header. Every router's down strings must be pairwise disjoint (a
//!   tree below each switch), so no destination is reached twice (`check/routes.rs`).
//! * **Count field** (§3.3): at creation the header gets `turn`, the LCA stage of the source and all
//!   destinations: the lowest level whose switches above the source reach every destination going
//!   down. A copy with fewer hops than `turn` goes up by any up port (the selection function
//!   chooses, as for unicasts); from there it fans out. Every switch at a level above the source has
//!   the same downward view in a k-ary n-tree, so the choice of up ports does not change what the
//!   worm covers.
//! * The footnote-1 variant (replicating on the way up too) is not modelled: it needs a packet's
//!   space reserved per direction in every central buffer to stay deadlock-free, and the study
//!   evaluates only the down-path replication (docs/models/multicast.md).

use crate::error::Error;
use crate::topology::{PortLink, Topology};

#[derive(Debug, Clone)]
pub struct TreeMulticast {
    /// Words per destination set.
    width: usize,
    /// Level of each router.
    level: Vec<u32>,
    /// Per router: its down ports (mask) and its up ports (mask).
    down: Vec<u64>,
    up: Vec<u64>,
    /// The most down ports of any router.
    max_down: u32,
    /// Reachability strings, `width` words per port (`Topology::port_index` order; zero for up ports).
    reach: Vec<u64>,
    /// Per router: the union of its down strings (every terminal below it).
    below: Vec<u64>,
    /// For each terminal, its node switch's ancestors by level along the lowest up ports (index 0:
    /// the node switch itself).
    ancestors: Vec<Vec<u32>>,
}

impl TreeMulticast {
    pub fn build(topo: &Topology) -> Result<TreeMulticast, Error> {
        if topo.max_radix() > 64 {
            return Err(Error::Routing { message: "multicast routing supports switches of at most 64 ports".into() });
        }
        let width = crate::dest_set::words_for(topo.terminals());
        let level = topo.levels();
        let routers = topo.routers();
        let mut down = vec![0u64; routers];
        let mut up = vec![0u64; routers];
        for r in 0..routers as u32 {
            for p in 0..topo.radix(r) as u8 {
                match topo.link(r, p) {
                    PortLink::Terminal { .. } => down[r as usize] |= 1 << p,
                    PortLink::Router { router, .. } if level[router as usize] < level[r as usize] => {
                        down[r as usize] |= 1 << p
                    }
                    PortLink::Router { router, .. } if level[router as usize] > level[r as usize] => {
                        up[r as usize] |= 1 << p
                    }
                    PortLink::Router { router, .. } => {
                        return Err(Error::Routing {
                            message: format!(
                                "multicast routing needs a levelled network: routers {r} and {router} are linked on one level"
                            ),
                        })
                    }
                    PortLink::Unused => {}
                }
            }
        }
        // Reachability, lowest levels first: a port down to a router reaches everything below it.
        let mut reach = vec![0u64; topo.links.len() * width];
        let mut below = vec![0u64; routers * width];
        let mut order: Vec<u32> = (0..routers as u32).collect();
        order.sort_by_key(|&r| level[r as usize]);
        for &r in &order {
            for p in crate::bitset::ones(down[r as usize]) {
                let at = topo.port_index(r, p as u8) * width;
                match topo.link(r, p as u8) {
                    PortLink::Terminal { terminal } => reach[at + terminal as usize / 64] |= 1 << (terminal % 64),
                    PortLink::Router { router, .. } => {
                        for w in 0..width {
                            reach[at + w] |= below[router as usize * width + w];
                        }
                    }
                    PortLink::Unused => {}
                }
                for w in 0..width {
                    below[r as usize * width + w] |= reach[at + w];
                }
            }
        }
        let ancestors = topo
            .terminal_at
            .iter()
            .map(|&(leaf, _)| {
                let mut chain = vec![leaf];
                let mut r = leaf;
                while up[r as usize] != 0 {
                    let p = up[r as usize].trailing_zeros() as u8;
                    let PortLink::Router { router, .. } = topo.link(r, p) else {
                        unreachable!("an up port leads to a router")
                    };
                    chain.push(router);
                    r = router;
                }
                chain
            })
            .collect();
        let max_down = down.iter().map(|d| d.count_ones()).max().unwrap_or(1);
        Ok(TreeMulticast { width, level, down, up, max_down, reach, below, ancestors })
    }

    /// The count field of a worm from `src` to the set `dests` (its words): the LCA stage, the number
    /// of up hops before it replicates. `None` if no switch above the source reaches every destination.
    pub fn turn(&self, src: u32, dests: &[u64]) -> Option<u8> {
        self.ancestors[src as usize].iter().position(|&a| self.covers(a, dests)).map(|l| l as u8)
    }

    fn covers(&self, router: u32, dests: &[u64]) -> bool {
        let below = &self.below[router as usize * self.width..(router as usize + 1) * self.width];
        dests.iter().zip(below).all(|(d, b)| d & !b == 0)
    }

    /// The up ports of `router` (where a copy below its count goes, one of them).
    #[inline]
    pub fn up_ports(&self, router: u32) -> u64 {
        self.up[router as usize]
    }

    /// The fan-out of a worm for `dests` at `router`: every down port whose reachability string
    /// shares a terminal with the header.
    #[inline]
    pub fn fan_out(&self, topo: &Topology, router: u32, dests: &[u64]) -> u64 {
        let mut ports = 0u64;
        for p in crate::bitset::ones(self.down[router as usize]) {
            let reach = self.reach_of(topo, router, p as u8);
            ports |= (reach.iter().zip(dests).any(|(r, d)| r & d != 0) as u64) << p;
        }
        ports
    }

    /// The reachability string of (`router`, `port`).
    pub fn reach_of(&self, topo: &Topology, router: u32, port: u8) -> &[u64] {
        let at = topo.port_index(router, port) * self.width;
        &self.reach[at..at + self.width]
    }

    pub fn down_ports(&self, router: u32) -> u64 {
        self.down[router as usize]
    }

    /// The most down ports of any router (the widest replication).
    pub fn max_down_ports(&self) -> u32 {
        self.max_down
    }

    pub fn level(&self, router: u32) -> u32 {
        self.level[router as usize]
    }

    /// Adds `terminal` to the reachability string of (`router`, `port`) (tests of the check).
    #[cfg(test)]
    pub(crate) fn add_reach(&mut self, topo: &Topology, router: u32, port: u8, terminal: u32) {
        let at = topo.port_index(router, port) * self.width;
        self.reach[at + terminal as usize / 64] |= 1 << (terminal % 64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::fat_tree;

    #[test]
    fn reachability_of_a_16_node_tree() {
        let t = fat_tree::build(4, 2, 1).unwrap();
        let m = TreeMulticast::build(&t).unwrap();
        // Leaf 1 (router 1) reaches terminals 4..8 on its down ports 0..3; top switch 4 reaches leaf j
        // (terminals 4j..4j+4) on its down port j.
        assert_eq!(m.reach_of(&t, 1, 2), [1 << 6]);
        assert_eq!(m.reach_of(&t, 4, 3), [0xF000]);
        assert_eq!(m.up_ports(1), 0xF0);
        assert_eq!(m.up_ports(4), 0);
        let set = [(1 << 5) | (1 << 6) | (1 << 13)];
        assert_eq!(m.turn(4, &set), Some(1), "terminal 13 is under another leaf");
        assert_eq!(m.turn(4, &[1 << 6]), Some(0));
        assert_eq!(m.fan_out(&t, 4, &set), 0b1010, "down to leaves 1 and 3");
        assert_eq!(m.fan_out(&t, 1, &set), 0b0110, "terminals 5 and 6");
    }
}
