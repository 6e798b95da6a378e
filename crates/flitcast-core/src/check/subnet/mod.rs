//! The InfiniBand subnet manager's view of a 2-D mesh (study 003 §3; docs/models/infiniband.md):
//! node addressing by LIDs (§3.1), the port numbering of its switches (§3.2), linear forwarding
//! tables by the one-to-one assignment (`lft.rs`, §3.3.1) and multicast forwarding tables by the
//! union operation (`mft.rs`, §3.3.2). Switches forward on the destination LID alone, as IBA
//! switches do: a table is all a switch knows.

pub mod lft;
pub mod mft;

/// A switch port of the mesh (§3.2, Fig. 6). The study lists "east" twice ("the east port as port
/// 1, the north port as port 2, the east port as port 3, and the south port as port 4"); its
/// forwarding cases (§3.3.1) settle the third as west. `Local` is the port of the processing node
/// attached to the switch, which the study does not number (ours: 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Port {
    Local = 0,
    East = 1,
    North = 2,
    West = 3,
    South = 4,
}

impl Port {
    pub const DIRECTIONS: [Port; 4] = [Port::East, Port::North, Port::West, Port::South];

    /// The port with the study's number (0 for the local port).
    pub fn from_number(k: u8) -> Option<Port> {
        [Port::Local, Port::East, Port::North, Port::West, Port::South].get(k as usize).copied()
    }

    pub fn number(self) -> u8 {
        self as u8
    }

    /// The port a packet leaving by this one enters the neighbour by.
    pub fn opposite(self) -> Port {
        match self {
            Port::East => Port::West,
            Port::West => Port::East,
            Port::North => Port::South,
            Port::South => Port::North,
            Port::Local => Port::Local,
        }
    }
}

/// IbaMesh(m, n): nodes N(x, y), x ∈ 0..m, y ∈ 0..n, one switch and one processing node each; +x is
/// east, +y north.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IbaMesh {
    pub m: u32,
    pub n: u32,
}

impl IbaMesh {
    pub fn new(m: u32, n: u32) -> IbaMesh {
        assert!(m >= 1 && n >= 1, "a mesh has at least one node");
        IbaMesh { m, n }
    }

    pub fn nodes(&self) -> u32 {
        self.m * self.n
    }

    /// The LID of N(x, y) (§3.1): "lid = x × m + y + 1" for the study's square meshes. With m ≠ n
    /// that formula gives two nodes one LID (y runs to n, not m); ours is x × n + y + 1, the same when
    /// m = n and one LID per node otherwise (docs/models/infiniband.md).
    pub fn lid(&self, x: u32, y: u32) -> u32 {
        debug_assert!(x < self.m && y < self.n);
        x * self.n + y + 1
    }

    /// The node with LID `lid` (1 ..= m·n).
    pub fn coords(&self, lid: u32) -> (u32, u32) {
        debug_assert!((1..=self.nodes()).contains(&lid));
        ((lid - 1) / self.n, (lid - 1) % self.n)
    }

    /// The neighbour of N(x, y) through `port`, if the mesh has one there.
    pub fn neighbour(&self, (x, y): (u32, u32), port: Port) -> Option<(u32, u32)> {
        match port {
            Port::East if x + 1 < self.m => Some((x + 1, y)),
            Port::West if x > 0 => Some((x - 1, y)),
            Port::North if y + 1 < self.n => Some((x, y + 1)),
            Port::South if y > 0 => Some((x, y - 1)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lids_follow_fig5_and_are_one_per_node() {
        let mesh = IbaMesh::new(4, 4);
        assert_eq!(mesh.lid(3, 2), 15, "§3.1: N(3, 2) in IbaMesh(4, 4)");
        let five = IbaMesh::new(5, 5);
        let fig9 = [((0, 3), 4), ((0, 4), 5), ((3, 3), 19), ((4, 0), 21), ((4, 2), 23)];
        for ((x, y), lid) in fig9 {
            assert_eq!(five.lid(x, y), lid, "§3.3.2: N({x}, {y})");
        }
        for (m, n) in [(4, 4), (3, 5), (5, 2), (16, 16), (1, 7)] {
            let mesh = IbaMesh::new(m, n);
            let mut lids: Vec<u32> = (0..m).flat_map(|x| (0..n).map(move |y| mesh.lid(x, y))).collect();
            lids.sort_unstable();
            assert_eq!(lids, (1..=m * n).collect::<Vec<_>>(), "IbaMesh({m}, {n})");
            for lid in 1..=m * n {
                let (x, y) = mesh.coords(lid);
                assert_eq!(mesh.lid(x, y), lid);
            }
        }
    }

    #[test]
    fn ports_have_the_study_numbers() {
        let numbers: Vec<u8> = Port::DIRECTIONS.iter().map(|p| p.number()).collect();
        assert_eq!(numbers, [1, 2, 3, 4]);
        for p in Port::DIRECTIONS {
            assert_eq!(Port::from_number(p.number()), Some(p));
            assert_eq!(p.opposite().opposite(), p);
        }
        let mesh = IbaMesh::new(3, 2);
        assert_eq!(mesh.neighbour((0, 0), Port::East), Some((1, 0)));
        assert_eq!(mesh.neighbour((0, 0), Port::North), Some((0, 1)));
        assert_eq!(mesh.neighbour((0, 0), Port::West), None);
        assert_eq!(mesh.neighbour((2, 1), Port::North), None);
    }
}
