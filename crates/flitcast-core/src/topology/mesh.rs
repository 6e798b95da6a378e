//! k-ary n-mesh (bidirectional links, no wrap-around). Port numbering: see `cube.rs`.

use super::cube;
use super::graph::{Builder, CubeGeometry, Topology};
use crate::error::Error;
use crate::params::{params, Kind};

params! {
    /// A k-ary n-mesh.
    pub struct Params {
        /// Routers per dimension (the radix k).
        k: u32 = 8, range(2, 1024);
        /// Number of dimensions.
        n: u32 = 2, range(1, 6);
    }
}

pub struct Mesh;

impl Kind for Mesh {
    const NAME: &'static str = "mesh";
    const DOC: &'static str = "k-ary n-mesh, bidirectional links; ports 2d (+d), 2d+1 (-d), 2n (terminal)";
    type Params = Params;
}

impl Builder for Mesh {
    fn size_key(p: &Params) -> Option<(&'static str, String)> {
        Some(("network.k", p.k.to_string()))
    }
    fn sized_by(_: &Params) -> &'static str {
        "network.k, network.n"
    }

    fn graph(p: &Params, latency: u32) -> Result<Topology, Error> {
        build(p.k, p.n, latency)
    }
    fn nodes(p: &Params) -> Option<u64> {
        (p.k as u64).checked_pow(p.n)
    }
    fn digits(p: &Params) -> Option<(u32, u32)> {
        Some((p.k, p.n))
    }
    fn dimensions(p: &Params) -> Option<u32> {
        Some(p.n)
    }
    fn radix_key(p: &Params) -> Option<(&'static str, String)> {
        Some(("network.n", p.n.to_string()))
    }
    fn radix(p: &Params) -> u32 {
        2 * p.n + 1
    }
}

pub fn build(k: u32, n: u32, latency: u32) -> Result<Topology, Error> {
    let geo = CubeGeometry { k, n, wrap: false, unidirectional: false };
    cube::build(format!("{k}-ary {n}-mesh"), geo, latency)
}
