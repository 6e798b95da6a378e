//! RND (study 002 §4.3): "one output port is randomly selected from the set of output ports which
//! have granted", uniformly, from the router's own random stream.

use rand::Rng;

use super::function::{Function, Request, Site};
use crate::params::{Kind, NoParams};
use crate::rng::{stream, Stream, StreamKind};

#[derive(Debug, Clone)]
pub struct Rnd {
    rng: Stream,
}

impl Kind for Rnd {
    const NAME: &'static str = "rnd";
    const DOC: &'static str = "a granted output uniformly at random (study 002 §4.3)";
    type Params = NoParams;
}

impl Function for Rnd {
    fn new(_: &NoParams, site: Site) -> Self {
        Rnd { rng: stream(site.seed, StreamKind::Router, site.router as u64) }
    }
    fn pick(&mut self, _: Request, granted: u64) -> u8 {
        let mut m = granted;
        for _ in 0..self.rng.random_range(0..granted.count_ones()) {
            m &= m - 1;
        }
        m.trailing_zeros() as u8
    }
    fn has_history(_: &NoParams) -> bool {
        false
    }
}
