//! k-ary n-mesh (bidirectional links, no wrap-around). Port numbering: see `cube.rs`.

use super::{cube, CubeGeometry, Topology};

pub fn build(k: u32, n: u32, latency: u32) -> Result<Topology, crate::error::Error> {
    let geo = CubeGeometry { k, n, wrap: false, unidirectional: false };
    cube::build(format!("{k}-ary {n}-mesh"), geo, latency)
}
