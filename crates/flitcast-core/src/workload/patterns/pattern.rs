//! What every traffic pattern is given and does (the vocabulary of `patterns/`; the registry of patterns
//! is `mod.rs`), and the pieces several patterns share.

use crate::params::{Kind, Problem};
use crate::rng::Stream;

/// The network as a pattern sees it: its nodes, where node ids are router coordinates their radix and
/// digits (k, n), and where the network is built of groups of consecutive node ids (a dragonfly) the
/// nodes per group and the groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    pub nodes: u32,
    pub digits: Option<(u32, u32)>,
    pub groups: Option<(u32, u32)>,
}

impl Shape {
    /// The bits of a node id, where the node count is a power of two.
    pub fn bits(&self) -> Option<u32> {
        self.nodes.is_power_of_two().then(|| self.nodes.trailing_zeros())
    }
}

/// A traffic pattern, one per file.
pub trait TrafficPattern: Kind + Sized {
    fn new(p: &Self::Params, shape: &Shape) -> Self;

    /// The destination of a message from `src`, drawing from the source's own stream `rng`.
    fn destination(&self, src: u32, rng: &mut Stream) -> u32;

    /// Why the pattern cannot run on `shape` with these parameters (e.g. it needs a power-of-two node
    /// count), naming the key to change; None where it runs.
    fn unfit(_: &Self::Params, _: &Shape) -> Option<Problem> {
        None
    }
}

/// A destination among the `nodes` nodes uniformly at random: any node with `include_self`, else any
/// other than `src`.
pub fn uniform_destination(src: u32, nodes: u32, include_self: bool, rng: &mut Stream) -> u32 {
    use rand::Rng;
    if include_self {
        rng.random_range(0..nodes)
    } else {
        let d = rng.random_range(0..nodes - 1);
        if d >= src {
            d + 1
        } else {
            d
        }
    }
}

/// The pattern `name` needs a power-of-two node count.
pub fn power_of_two(name: &str, shape: &Shape) -> Option<Problem> {
    shape.bits().is_none().then(|| {
        unfit_network(
            name,
            format!("a network with a power-of-two node count for this pattern; this one has {} nodes", shape.nodes),
        )
    })
}

/// The pattern `name` needs node ids that are router coordinates (a mesh, torus, ring or fat tree).
pub fn coordinates(name: &str, shape: &Shape) -> Option<Problem> {
    shape
        .digits
        .is_none()
        .then(|| unfit_network(name, "a mesh, torus, ring or fat_tree for this pattern (node ids as coordinates)"))
}

/// The pattern `name` does not run on this network: `allowed` says where it does.
pub fn unfit_network(name: &str, allowed: impl Into<String>) -> Problem {
    Problem::new("workload.pattern", format!("'{name}'"), allowed, None)
}

/// `src` with every base-k digit d mapped to f(d), over n digits.
pub fn digitwise(src: u32, (k, n): (u32, u32), f: impl Fn(u32) -> u32) -> u32 {
    let (mut out, mut stride) = (0, 1);
    for _ in 0..n {
        out += f((src / stride) % k) * stride;
        stride *= k;
    }
    out
}
