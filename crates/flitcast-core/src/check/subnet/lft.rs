//! Linear forwarding tables by the one-to-one assignment of study 003 §3.3.1: at N(x, y), a packet
//! for DLID lid, whose node is N(x_d, y_d), leaves east (port 1) if x_d > x, west (3) if x_d < x,
//! else north (2) if y_d > y, south (4) if y_d < y — XY routing — and to the local processing node
//! when it has arrived. One table per switch, indexed by DLID, as a subnet manager programs it.

use super::{IbaMesh, Port};

/// The forwarding tables of every switch: `port[switch][lid]` (index 0 unused: LIDs start at 1).
#[derive(Debug, Clone)]
pub struct Lfts {
    pub mesh: IbaMesh,
    ports: Vec<Vec<Port>>,
}

impl Lfts {
    /// The one-to-one assignment for every switch and DLID.
    pub fn xy(mesh: IbaMesh) -> Lfts {
        let ports = (1..=mesh.nodes())
            .map(|switch| {
                let (x, y) = mesh.coords(switch);
                std::iter::once(Port::Local)
                    .chain((1..=mesh.nodes()).map(|lid| {
                        let (xd, yd) = mesh.coords(lid);
                        if xd > x {
                            Port::East
                        } else if xd < x {
                            Port::West
                        } else if yd > y {
                            Port::North
                        } else if yd < y {
                            Port::South
                        } else {
                            Port::Local
                        }
                    }))
                    .collect()
            })
            .collect();
        Lfts { mesh, ports }
    }

    /// The output port of the switch of node `at` (its LID) for DLID `lid`.
    pub fn port(&self, at: u32, lid: u32) -> Port {
        self.ports[at as usize - 1][lid as usize]
    }

    /// The switches a packet from `src` to `dst` (LIDs) passes, each with the port it leaves by
    /// (the last one: `Local`).
    pub fn path(&self, src: u32, dst: u32) -> Vec<(u32, Port)> {
        let mut path = Vec::new();
        let mut at = src;
        loop {
            let port = self.port(at, dst);
            path.push((at, port));
            if port == Port::Local {
                return path;
            }
            let (x, y) =
                self.mesh.neighbour(self.mesh.coords(at), port).expect("a forwarding table leads off the mesh");
            at = self.mesh.lid(x, y);
            assert!(path.len() <= self.mesh.nodes() as usize, "a forwarding table loops");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_goes_x_first_then_y_by_minimal_hops() {
        for (m, n) in [(4, 4), (5, 5), (3, 6), (16, 16)] {
            let mesh = IbaMesh::new(m, n);
            let lfts = Lfts::xy(mesh);
            for src in 1..=mesh.nodes() {
                for dst in 1..=mesh.nodes() {
                    let path = lfts.path(src, dst);
                    let ((xs, ys), (xd, yd)) = (mesh.coords(src), mesh.coords(dst));
                    assert_eq!(path.len() as u32 - 1, xs.abs_diff(xd) + ys.abs_diff(yd), "minimal");
                    // every X move comes before every Y move
                    let moves: Vec<Port> = path.iter().map(|&(_, p)| p).filter(|&p| p != Port::Local).collect();
                    let first_y = moves.iter().position(|p| matches!(p, Port::North | Port::South));
                    assert!(first_y.is_none_or(|i| moves[i..].iter().all(|p| matches!(p, Port::North | Port::South))));
                    assert_eq!(path.last().unwrap().0, dst);
                }
            }
        }
    }

    #[test]
    fn the_worked_example_of_section_3_3_1() {
        // N(2,2) -> N(0,3) (lid 4) in IbaMesh(5, 5): west, west, north, then the node
        let mesh = IbaMesh::new(5, 5);
        let lfts = Lfts::xy(mesh);
        let path: Vec<((u32, u32), u8)> =
            lfts.path(mesh.lid(2, 2), 4).into_iter().map(|(s, p)| (mesh.coords(s), p.number())).collect();
        assert_eq!(path, [((2, 2), 3), ((1, 2), 3), ((0, 2), 2), ((0, 3), 0)]);
    }
}
