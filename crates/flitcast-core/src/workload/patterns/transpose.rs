//! Matrix transpose (study 002 §5.1): the upper and lower halves of the b = log2(N) bits of a node id
//! swapped — (x, y) → (y, x) on a 2^m × 2^m mesh. For odd b (e.g. 128 nodes, which study 002 leaves
//! undefined) the upper ⌈b/2⌉ bits become the lower ones (`workload.transpose_split = "floor"`: ⌊b/2⌋;
//! docs/models/workload.md).

use super::pattern::{power_of_two, Shape, TrafficPattern};
use crate::params::{choice, params, Kind, Problem};
use crate::rng::Stream;

choice! {
    /// How matrix transpose splits an odd number of id bits (study 002 defines it for even bit counts only).
    pub enum TransposeSplit {
        /// The upper ⌈b/2⌉ bits become the lower ones (our reading: docs/models/workload.md).
        Ceil = "ceil",
        /// The upper ⌊b/2⌋ bits become the lower ones.
        Floor = "floor",
    }
}

params! {
    /// Matrix transpose.
    pub struct Params {
        /// With an odd number of id bits (e.g. 128 nodes, undefined in study 002): the upper `ceil`
        /// (default) or `floor` half of the bits moves down.
        transpose_split: TransposeSplit = TransposeSplit::Ceil;
    }
}

#[derive(Debug, Clone)]
pub struct Transpose {
    bits: u32,
    /// How many of the upper bits move down.
    upper_bits: u32,
}

impl Kind for Transpose {
    const NAME: &'static str = "transpose";
    const DOC: &'static str = "d = upper and lower halves of the id bits swapped (power-of-two node count; odd \
                               bit counts split by workload.transpose_split)";
    type Params = Params;
}

impl TrafficPattern for Transpose {
    fn new(p: &Params, shape: &Shape) -> Self {
        let bits = shape.nodes.trailing_zeros();
        let upper_bits = match p.transpose_split {
            TransposeSplit::Ceil => bits.div_ceil(2),
            TransposeSplit::Floor => bits / 2,
        };
        Transpose { bits, upper_bits }
    }

    fn destination(&self, src: u32, _: &mut Stream) -> u32 {
        // The lower b − u bits move up, the upper u bits move down.
        let low = self.bits - self.upper_bits;
        ((src & ((1 << low) - 1)) << self.upper_bits) | (src >> low)
    }

    fn unfit(_: &Params, shape: &Shape) -> Option<Problem> {
        power_of_two(Self::NAME, shape)
    }
}
