//! Nearest neighbour (Dally & Towles §3.2): one step on in each dimension — each coordinate x -> (x + 1) mod k.

use super::pattern::{coordinates, digitwise, Shape, TrafficPattern};
use crate::params::{Kind, NoParams, Problem};
use crate::rng::Stream;

#[derive(Debug, Clone)]
pub struct Neighbor {
    digits: (u32, u32),
}

impl Kind for Neighbor {
    const NAME: &'static str = "neighbor";
    const DOC: &'static str = "each coordinate x -> (x + 1) mod k (a mesh, torus, ring or fat tree)";
    type Params = NoParams;
}

impl TrafficPattern for Neighbor {
    fn new(_: &NoParams, shape: &Shape) -> Self {
        Neighbor { digits: shape.digits.unwrap_or((shape.nodes, 1)) }
    }

    fn destination(&self, src: u32, _: &mut Stream) -> u32 {
        let k = self.digits.0;
        digitwise(src, self.digits, |x| (x + 1) % k)
    }

    fn unfit(_: &NoParams, shape: &Shape) -> Option<Problem> {
        coordinates(Self::NAME, shape)
    }
}
