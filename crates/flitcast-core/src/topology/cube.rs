//! k-ary n-cube builder shared by meshes and tori.
//!
//! Router id = Σ coord_d · k^d. Port numbering, bidirectional: port 2d leaves in +d, port 2d+1 in −d,
//! port 2n is the terminal. Unidirectional (torus/ring only): port d leaves in +d, port n is the
//! terminal. In a mesh the ports that would leave the edge are `Unused`. Router r hosts terminal r.

use super::graph::{CubeGeometry, Geometry, PortLink, Topology};
use crate::error::Error;

pub fn build(name: String, geo: CubeGeometry, latency: u32) -> Result<Topology, Error> {
    let routers = geo.k.pow(geo.n);
    let radix = geo.terminal_port() as u32 + 1;
    let mut links = vec![PortLink::Unused; (routers * radix) as usize];
    for r in 0..routers {
        for d in 0..geo.n {
            let stride = geo.k.pow(d);
            let c = geo.coord(r, d);
            let dirs: &[bool] = if geo.unidirectional { &[true] } else { &[true, false] };
            for &plus in dirs {
                let next = match (plus, geo.wrap) {
                    (true, _) if c + 1 < geo.k => Some(r + stride),
                    (true, true) => Some(r + stride - geo.k * stride),
                    (false, _) if c > 0 => Some(r - stride),
                    (false, true) => Some(r + (geo.k - 1) * stride),
                    _ => None,
                };
                if let Some(to) = next {
                    // A channel leaving in +d arrives on the neighbour's −d port (and vice versa);
                    // unidirectional rings arrive on the same-numbered port.
                    let in_port = if geo.unidirectional { geo.port(d, true) } else { geo.port(d, !plus) };
                    links[(r * radix + geo.port(d, plus) as u32) as usize] =
                        PortLink::Router { router: to, port: in_port };
                }
            }
        }
        links[(r * radix + geo.terminal_port() as u32) as usize] = PortLink::Terminal { terminal: r };
    }
    // With k = 2 in a bidirectional torus, + and − neighbours coincide: both links exist, as two
    // parallel channels, which is what a 2-ary torus with wrap-around links physically is.
    Topology::new(
        name,
        Geometry::Cube(geo),
        (0..=routers).map(|r| r * radix).collect(),
        links.clone(),
        vec![latency; links.len()],
        vec![latency; routers as usize],
    )
}
