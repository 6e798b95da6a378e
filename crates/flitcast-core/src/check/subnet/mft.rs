//! Multicast forwarding tables by the union operation of study 003 §3.3.2: for a source and a group,
//! a switch's entry is the union of the ports the source's packets to each member leave it by. The
//! group's MLID is per (source, group): trees from different sources differ (our reading; IBA tables
//! are per MLID). A switch forwards a multicast packet by its entry alone — it does not know where the
//! packet came from or where it was going — so the union delivers each member exactly once only if
//! the base routing's paths from the source form a tree, as XY's do; an adaptive base routing such as
//! negative-first can reach a switch by two paths and deliver twice (§3, Fig. 4).

use std::collections::BTreeMap;

use super::{IbaMesh, Port};

/// One MLID's entries: for each switch (by LID), the set of ports as a bit mask of port numbers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Mft {
    entries: BTreeMap<u32, u8>,
}

impl Mft {
    /// The union over `paths`, one per member: the switches it passes, each with the port it leaves by
    /// (`Local` where it reaches its member), as `Lfts::path` gives them.
    pub fn union<P: IntoIterator<Item = (u32, Port)>>(paths: impl IntoIterator<Item = P>) -> Mft {
        let mut entries = BTreeMap::new();
        for path in paths {
            for (switch, port) in path {
                *entries.entry(switch).or_insert(0u8) |= 1 << port.number();
            }
        }
        Mft { entries }
    }

    /// The ports of `switch`'s entry, in port-number order.
    pub fn ports(&self, switch: u32) -> Vec<Port> {
        let mask = self.entries.get(&switch).copied().unwrap_or(0);
        (0..=4u8).filter(|k| mask & (1 << k) != 0).filter_map(Port::from_number).collect()
    }

    /// The switches with an entry.
    pub fn switches(&self) -> impl Iterator<Item = u32> + '_ {
        self.entries.keys().copied()
    }

    /// How many copies reach each processing node (by LID) when the node `src` sends one packet of
    /// this MLID and every switch forwards it by its entry alone, never back out of the port it came
    /// in by. Stops counting past `m·n` switch visits per node (a table that loops).
    pub fn deliveries(&self, mesh: IbaMesh, src: u32) -> BTreeMap<u32, u32> {
        let mut received = BTreeMap::new();
        let mut stack = vec![(src, Port::Local)];
        let mut visits = 0u64;
        while let Some((switch, came_in)) = stack.pop() {
            visits += 1;
            if visits > (mesh.nodes() as u64).pow(2) {
                break;
            }
            for port in self.ports(switch) {
                if port == Port::Local {
                    *received.entry(switch).or_insert(0) += 1;
                } else if port != came_in {
                    if let Some((x, y)) = mesh.neighbour(mesh.coords(switch), port) {
                        stack.push((mesh.lid(x, y), port.opposite()));
                    }
                }
            }
        }
        received
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::subnet::lft::Lfts;

    fn xy_mft(mesh: IbaMesh, src: u32, group: &[u32]) -> Mft {
        let lfts = Lfts::xy(mesh);
        Mft::union(group.iter().map(|&d| lfts.path(src, d)))
    }

    #[test]
    fn the_union_of_fig_9() {
        // source N(2,2) of IbaMesh(5, 5), group {4, 5, 19, 21, 23}: the study's entries exactly, plus the
        // local port at each member's switch (the study lists only the mesh ports)
        let mesh = IbaMesh::new(5, 5);
        let mft = xy_mft(mesh, mesh.lid(2, 2), &[4, 5, 19, 21, 23]);
        let study = [
            ((2, 2), vec![1, 3]),
            ((1, 2), vec![3]),
            ((0, 2), vec![2]),
            ((0, 3), vec![2]),
            ((3, 2), vec![1, 2]),
            ((4, 2), vec![4]),
            ((4, 1), vec![4]),
        ];
        let mut expected: BTreeMap<(u32, u32), Vec<u8>> = study.into_iter().collect();
        for member in [(0, 3), (0, 4), (3, 3), (4, 0), (4, 2)] {
            expected.entry(member).or_default().insert(0, 0);
        }
        let ours: BTreeMap<(u32, u32), Vec<u8>> =
            mft.switches().map(|s| (mesh.coords(s), mft.ports(s).into_iter().map(Port::number).collect())).collect();
        assert_eq!(ours, expected);
        let received = mft.deliveries(mesh, mesh.lid(2, 2));
        assert_eq!(received, [4, 5, 19, 21, 23].into_iter().map(|l| (l, 1)).collect());
    }

    #[test]
    fn xy_unions_serve_every_member_exactly_once() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for (m, n) in [(4, 4), (5, 3), (16, 16)] {
            let mesh = IbaMesh::new(m, n);
            for _ in 0..40 {
                let src = rng.random_range(1..=mesh.nodes());
                let group: Vec<u32> = (1..=mesh.nodes()).filter(|&l| l != src && rng.random_bool(0.4)).collect();
                let received = xy_mft(mesh, src, &group).deliveries(mesh, src);
                assert_eq!(received, group.iter().map(|&l| (l, 1)).collect(), "IbaMesh({m}, {n}) from {src}");
            }
        }
    }

    #[test]
    fn a_negative_first_union_delivers_twice() {
        // §3, Fig. 4: N(1,1) multicasts to N(2,2), N(3,2), N(3,3). Negative-first routing (negative moves
        // first, then positive ones in any order) may route, destination by destination: P = north, east;
        // Q = east, east, north; R = north, east, east, north. The union reaches N(3,2) both from N(2,2)
        // (R) and from N(3,1) (Q): the switches forward by DLID alone, so N(3,2) receives two copies —
        // and so does N(3,3), behind it.
        let mesh = IbaMesh::new(4, 4);
        let walk = |moves: &[Port]| {
            let mut at = (1, 1);
            let mut path = Vec::new();
            for &p in moves {
                path.push((mesh.lid(at.0, at.1), p));
                at = mesh.neighbour(at, p).unwrap();
            }
            path.push((mesh.lid(at.0, at.1), Port::Local));
            path
        };
        use Port::{East as E, North as N};
        let paths = [walk(&[N, E]), walk(&[E, E, N]), walk(&[N, E, E, N])];
        let src = mesh.lid(1, 1);
        let received = Mft::union(paths).deliveries(mesh, src);
        assert_eq!(received.get(&mesh.lid(3, 2)), Some(&2), "N(3, 2) receives two copies: {received:?}");
        assert_eq!(received.get(&mesh.lid(2, 2)), Some(&1));
        // the XY union for the same group: each member once
        let group = [mesh.lid(2, 2), mesh.lid(3, 2), mesh.lid(3, 3)];
        let xy = xy_mft(mesh, src, &group).deliveries(mesh, src);
        assert_eq!(xy, group.iter().map(|&l| (l, 1)).collect());
    }
}
