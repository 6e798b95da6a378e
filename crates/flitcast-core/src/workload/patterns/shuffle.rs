//! The perfect shuffle (Dally & Towles §3.2): on the b = log2(N) bits of a node id, d = id bits rotated left by one (power-of-two node count).

use super::pattern::{power_of_two, Shape, TrafficPattern};
use crate::params::{Kind, NoParams, Problem};
use crate::rng::Stream;

#[derive(Debug, Clone)]
pub struct Shuffle {
    bits: u32,
    mask: u32,
}

impl Kind for Shuffle {
    const NAME: &'static str = "shuffle";
    const DOC: &'static str = "d = id bits rotated left by one (power-of-two node count)";
    type Params = NoParams;
}

impl TrafficPattern for Shuffle {
    fn new(_: &NoParams, shape: &Shape) -> Self {
        let bits = shape.nodes.trailing_zeros();
        Shuffle { bits, mask: if bits == 32 { u32::MAX } else { (1u32 << bits) - 1 } }
    }

    fn destination(&self, src: u32, _: &mut Stream) -> u32 {
        ((src << 1) | (src >> (self.bits - 1))) & self.mask
    }

    fn unfit(_: &NoParams, shape: &Shape) -> Option<Problem> {
        power_of_two(Self::NAME, shape)
    }
}
