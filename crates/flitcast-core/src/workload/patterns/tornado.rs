//! Tornado (Dally & Towles §3.2): half way round each dimension, less one — each coordinate x -> (x + ceil(k/2) - 1) mod k.

use super::pattern::{coordinates, digitwise, Shape, TrafficPattern};
use crate::params::{Kind, NoParams, Problem};
use crate::rng::Stream;

#[derive(Debug, Clone)]
pub struct Tornado {
    digits: (u32, u32),
}

impl Kind for Tornado {
    const NAME: &'static str = "tornado";
    const DOC: &'static str = "each coordinate x -> (x + ceil(k/2) - 1) mod k (a mesh, torus, ring or fat tree)";
    type Params = NoParams;
}

impl TrafficPattern for Tornado {
    fn new(_: &NoParams, shape: &Shape) -> Self {
        Tornado { digits: shape.digits.unwrap_or((shape.nodes, 1)) }
    }

    fn destination(&self, src: u32, _: &mut Stream) -> u32 {
        let k = self.digits.0;
        digitwise(src, self.digits, |x| (x + k.div_ceil(2) - 1) % k)
    }

    fn unfit(_: &NoParams, shape: &Shape) -> Option<Problem> {
        coordinates(Self::NAME, shape)
    }
}
