//! k-ary n-torus, bidirectional or unidirectional (study 004's SCI tori are unidirectional); a ring
//! is the 1-dimensional torus (`ring.rs`). Port numbering: see `cube.rs`.

use super::cube;
use super::graph::{Builder, CubeGeometry, Topology};
use crate::error::Error;
use crate::params::{params, Kind};

params! {
    /// A k-ary n-torus.
    pub struct Params {
        /// Routers per dimension (the radix k).
        k: u32 = 8, range(2, 1024);
        /// Number of dimensions.
        n: u32 = 2, range(1, 6);
        /// Links in one direction only (the SCI tori of study 004).
        unidirectional: bool = false;
    }
}

pub struct Torus;

impl Kind for Torus {
    const NAME: &'static str = "torus";
    const DOC: &'static str =
        "k-ary n-torus, bidirectional or unidirectional; unidirectional ports d (+d), n (terminal)";
    type Params = Params;
}

impl Builder for Torus {
    fn size_key(p: &Params) -> Option<(&'static str, String)> {
        Some(("network.k", p.k.to_string()))
    }
    fn sized_by(_: &Params) -> &'static str {
        "network.k, network.n"
    }

    fn wraps(_: &Params) -> bool {
        true
    }
    fn graph(p: &Params, latency: u32) -> Result<Topology, Error> {
        build(p.k, p.n, !p.unidirectional, latency)
    }
    fn nodes(p: &Params) -> Option<u64> {
        (p.k as u64).checked_pow(p.n)
    }
    fn digits(p: &Params) -> Option<(u32, u32)> {
        Some((p.k, p.n))
    }
    fn unidirectional(p: &Params) -> bool {
        p.unidirectional
    }
    fn dimensions(p: &Params) -> Option<u32> {
        Some(p.n)
    }
    fn radix_key(p: &Params) -> Option<(&'static str, String)> {
        Some(("network.n", p.n.to_string()))
    }
    fn radix(p: &Params) -> u32 {
        if p.unidirectional {
            p.n + 1
        } else {
            2 * p.n + 1
        }
    }
}

pub fn build(k: u32, n: u32, bidirectional: bool, latency: u32) -> Result<Topology, Error> {
    let geo = CubeGeometry { k, n, wrap: true, unidirectional: !bidirectional };
    let dir = if bidirectional { "" } else { "unidirectional " };
    let name = if n == 1 { format!("{dir}{k}-node ring") } else { format!("{dir}{k}-ary {n}-torus") };
    cube::build(name, geo, latency)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::PortLink;

    #[test]
    fn torus_links_are_symmetric_and_wrap() {
        for &bi in &[true, false] {
            let t = build(4, 2, bi, 1).unwrap();
            assert_eq!(t.routers(), 16);
        }
        let t = build(4, 1, true, 1).unwrap();
        // router 3 +x wraps to router 0, arriving on its −x port.
        assert_eq!(t.link(3, 0), PortLink::Router { router: 0, port: 1 });
        assert_eq!(t.input(0, 1), PortLink::Router { router: 3, port: 0 });
        // unidirectional: router 0's input 0 is fed by router 3's output 0.
        let u = build(4, 1, false, 1).unwrap();
        assert_eq!(u.input(0, 0), PortLink::Router { router: 3, port: 0 });
        assert_eq!(u.link(0, 0), PortLink::Router { router: 1, port: 0 });
        let m = crate::topology::mesh::build(4, 2, 1).unwrap();
        assert_eq!(m.link(3, 0), PortLink::Unused);
    }
}
