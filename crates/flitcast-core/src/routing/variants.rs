//! Which of a source-destination pair's alternative routes each new packet takes.
//!
//! - O4 (study 002 §3): the pair's four oblivious routes round robin, consecutive packets of a source
//!   to one destination taking the next route (one counter per pair).
//! - DOR on a torus with balanced ties (docs/models/dor.md): a packet whose distance in a dimension
//!   is exactly k/2 goes + or − with probability 1/2, a fair bit drawn per packet from the source's
//!   own stream (so the choice never depends on other sources or on visit order).
//! - Valiant and UGAL-L on a dragonfly (docs/models/dragonfly.md): the packet's intermediate group,
//!   drawn from the source's own stream: uniform among the groups other than its source's and
//!   destination's, or for Valiant with `routing.intermediate_groups = "all"` among all groups (an end
//!   group meaning the minimal route); Valiant on a Slim Fly its intermediate router
//!   (`Route::intermediate` of a routing that `draws_intermediate`).
//! - Everything else has one route: variant 0.

use rand::Rng;

use super::Routing;
use crate::rng::{stream, Stream, StreamKind};

#[derive(Debug, Clone)]
pub enum Variants {
    Single,
    RoundRobin { next: Vec<u8>, terminals: usize, count: u8 },
    Random { sources: Vec<Stream> },
    Drawn { sources: Vec<Stream>, routing: Box<Routing> },
}

impl Variants {
    pub fn build(routing: &Routing, terminals: usize, seed: u64) -> Variants {
        let count = routing.variants();
        let streams = || (0..terminals).map(|t| stream(seed, StreamKind::RouteVariant, t as u64)).collect();
        match routing {
            _ if count == 1 => Variants::Single,
            Routing::Source(_) => Variants::RoundRobin { next: vec![0; terminals * terminals], terminals, count },
            _ if routing.draws_intermediate() => {
                Variants::Drawn { sources: streams(), routing: Box::new(routing.clone()) }
            }
            _ => Variants::Random { sources: streams() },
        }
    }

    /// The variant of the next packet from `src` to `dst`.
    #[inline]
    pub fn next(&mut self, src: u32, dst: u32) -> u8 {
        match self {
            Variants::Single => 0,
            Variants::RoundRobin { next, terminals, count } => {
                let slot = &mut next[src as usize * *terminals + dst as usize];
                let v = *slot;
                *slot = (v + 1) % *count;
                v
            }
            Variants::Random { sources } => u8::from(sources[src as usize].random::<bool>()),
            Variants::Drawn { sources, routing } => routing.intermediate(src, dst, sources[src as usize].random()),
        }
    }
}
