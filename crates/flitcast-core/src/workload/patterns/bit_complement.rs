//! The bit complement (study 002 §5.1): on the b = log2(N) bits of a node id, d = bits of s complemented (power-of-two node count).

use super::pattern::{power_of_two, Shape, TrafficPattern};
use crate::params::{Kind, NoParams, Problem};
use crate::rng::Stream;

#[derive(Debug, Clone)]
pub struct BitComplement {
    mask: u32,
}

impl Kind for BitComplement {
    const NAME: &'static str = "bit_complement";
    const DOC: &'static str = "d = bits of s complemented (power-of-two node count)";
    type Params = NoParams;
}

impl TrafficPattern for BitComplement {
    fn new(_: &NoParams, shape: &Shape) -> Self {
        let bits = shape.nodes.trailing_zeros();
        BitComplement { mask: if bits == 32 { u32::MAX } else { (1u32 << bits) - 1 } }
    }

    fn destination(&self, src: u32, _: &mut Stream) -> u32 {
        !src & self.mask
    }

    fn unfit(_: &NoParams, shape: &Shape) -> Option<Problem> {
        power_of_two(Self::NAME, shape)
    }
}
