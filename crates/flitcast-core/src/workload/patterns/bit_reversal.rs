//! The bit reversal (study 002 §5.1): on the b = log2(N) bits of a node id, d = bits of s reversed (power-of-two node count).

use super::pattern::{power_of_two, Shape, TrafficPattern};
use crate::params::{Kind, NoParams, Problem};
use crate::rng::Stream;

#[derive(Debug, Clone)]
pub struct BitReversal {
    bits: u32,
}

impl Kind for BitReversal {
    const NAME: &'static str = "bit_reversal";
    const DOC: &'static str = "d = bits of s reversed (power-of-two node count)";
    type Params = NoParams;
}

impl TrafficPattern for BitReversal {
    fn new(_: &NoParams, shape: &Shape) -> Self {
        BitReversal { bits: shape.nodes.trailing_zeros() }
    }

    fn destination(&self, src: u32, _: &mut Stream) -> u32 {
        src.reverse_bits() >> (32 - self.bits)
    }

    fn unfit(_: &NoParams, shape: &Shape) -> Option<Problem> {
        power_of_two(Self::NAME, shape)
    }
}
