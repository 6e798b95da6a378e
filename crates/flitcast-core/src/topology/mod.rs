//! Topologies: every builder returns the same flat graph of routers with numbered ports, terminals, and
//! channels with a latency in cycles (`graph.rs`). One kind per file implementing [`Builder`]; this file
//! is their registry (`network.topology`). Builders document their port numbering.

pub mod classes;
pub mod cube;
pub mod distances;
pub mod dragonfly;
pub mod fat_tree;
pub mod graph;
pub mod hyperx;
pub mod irregular;
pub mod mesh;
pub mod min_hops;
pub mod ring;
pub mod slim_fly;
pub mod sp128;
pub mod sp16;
pub mod torus;

pub use graph::{
    Arrangement, Builder, Coords, CubeGeometry, DragonflyGeometry, Geometry, HyperxGeometry, PortLink, Topology,
    TERMINAL_CLASS,
};

use crate::error::Error;
use crate::facts::{needs_text, Facts};
use crate::params::{kinds, Problem};

kinds! {
    /// The topology of the network.
    pub enum TopologyKind: Builder tag "topology" {
        Mesh(mesh::Mesh),
        Torus(torus::Torus),
        Ring(ring::Ring),
        FatTree(fat_tree::FatTree),
        Sp16(sp16::Sp16),
        Sp128(sp128::Sp128),
        Irregular(irregular::Irregular),
        Dragonfly(dragonfly::Dragonfly),
        Hyperx(hyperx::Hyperx),
        SlimFly(slim_fly::SlimFly),
    }
    static {
        fn graph(latency: u32) -> Result<Topology, Error>;
        fn nodes() -> Option<u64>;
        fn digits() -> Option<(u32, u32)>;
        fn radix() -> u32;
        fn wraps() -> bool;
        fn multistage() -> bool;
        fn groups() -> Option<(u32, u32)>;
        fn sized_by() -> &'static str;
        fn radix_key() -> Option<(&'static str, String)>;
        fn dimensions() -> Option<u32>;
        fn diameter() -> Option<u32>;
        fn max_route_hops() -> u64;
        fn size_key() -> Option<(&'static str, String)>;
        fn known_routers() -> Option<u32>;
        fn longest_channel(latency: u32) -> (u32, Option<&'static str>);
        fn unidirectional() -> bool;
        fn parallel_links() -> u32;
        fn needs() -> &'static str;
        fn unfit(facts: &Facts) -> Vec<Problem>;
    }
}

/// What each network needs of its keys together, as the kinds declare it (`Builder::needs`).
pub fn needs() -> String {
    needs_text(TopologyKind::NAMES, |name| TopologyKind::of_name(name).expect("a registered name").needs())
}

impl Topology {
    /// The network of kind `kind`, router-to-router channels `latency` cycles long and those between
    /// hosts and their switches `terminal_latency` (None: `latency`).
    pub fn build(kind: &TopologyKind, latency: u32, terminal_latency: Option<u32>) -> Result<Topology, Error> {
        let mut topo = kind.graph(latency)?;
        if let Some(latency) = terminal_latency {
            // (both ways: injection channels, and the routers' ejection ports)
            topo.terminal_latency.iter_mut().for_each(|l| *l = latency);
            for (link, l) in topo.links.iter().zip(topo.latency.iter_mut()) {
                if matches!(link, PortLink::Terminal { .. }) {
                    *l = latency;
                }
            }
        }
        Ok(topo)
    }
}
