//! RND (study 002 §4.3): "one output port is randomly selected from the set of output ports which
//! have granted", uniformly, from the router's own random stream.

use rand::Rng;

use crate::rng::Stream;

#[derive(Debug, Clone)]
pub struct Rnd {
    rng: Stream,
}

impl Rnd {
    pub fn new(rng: Stream) -> Rnd {
        Rnd { rng }
    }
    pub fn pick(&mut self, granted: u64) -> u8 {
        let mut m = granted;
        for _ in 0..self.rng.random_range(0..granted.count_ones()) {
            m &= m - 1;
        }
        m.trailing_zeros() as u8
    }
}
