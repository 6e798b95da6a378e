//! The dragonfly's worst case (Kim, Dally, Scott & Abts, ISCA 2008, §4, their "WC" traffic): every
//! node of group i sends each message to a node of group (i + 1) mod g drawn uniformly
//! at random, per message. All of a group's traffic then needs the one global channel to the next
//! group, which minimal routing gives it: minimal routing saturates at 1/(a·p) of a node's bandwidth,
//! and only a non-minimal routing (Valiant, UGAL) spreads the load over the other global channels.
//!
//! Reading choice: a random node of the next group, as the paper words it, rather than the node of the
//! same index; the bottleneck is the same global channel either way, but the fixed partner would also
//! put all of a router's traffic on one local channel of the destination group, which is not the
//! pattern the paper measures. Runs only on a dragonfly (node ids in groups of a·p consecutive ids).

use rand::Rng;

use super::pattern::{unfit_network, Shape, TrafficPattern};
use crate::params::{Kind, NoParams, Problem};
use crate::rng::Stream;

#[derive(Debug, Clone)]
pub struct DragonflyWorstCase {
    /// Nodes per group, and groups.
    groups: (u32, u32),
}

impl Kind for DragonflyWorstCase {
    const NAME: &'static str = "dragonfly_worst_case";
    const DOC: &'static str =
        "every node of group i sends to a random node of group (i + 1) mod g (a dragonfly; Kim et al. 2008 §4)";
    type Params = NoParams;
}

impl TrafficPattern for DragonflyWorstCase {
    fn new(_: &NoParams, shape: &Shape) -> Self {
        DragonflyWorstCase { groups: shape.groups.unwrap_or((shape.nodes, 1)) }
    }

    fn destination(&self, src: u32, rng: &mut Stream) -> u32 {
        let (size, groups) = self.groups;
        let next = (src / size + 1) % groups;
        next * size + rng.random_range(0..size)
    }

    fn unfit(_: &NoParams, shape: &Shape) -> Option<Problem> {
        shape.groups.is_none().then(|| unfit_network(Self::NAME, "a dragonfly for this pattern (node ids in groups)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, StreamKind};

    #[test]
    fn every_message_goes_to_the_next_group_spread_over_its_nodes() {
        // 3 groups of 8 nodes.
        let shape = Shape { nodes: 24, digits: None, groups: Some((8, 3)) };
        let p = DragonflyWorstCase::new(&NoParams, &shape);
        let mut rng = stream(1, StreamKind::Destinations, 0);
        let mut counts = [0u32; 24];
        for _ in 0..8000 {
            counts[p.destination(20, &mut rng) as usize] += 1;
            let d = p.destination(3, &mut rng);
            assert!((8..16).contains(&d), "group 0 sends to group 1, not {d}");
        }
        assert!(counts[8..].iter().all(|&c| c == 0), "group 2 sends to group 0 only");
        assert!(counts[..8].iter().all(|&c| (c as i32 - 1000).abs() < 150), "{counts:?}");
        assert!(
            DragonflyWorstCase::unfit(&NoParams, &Shape { nodes: 64, digits: Some((8, 2)), groups: None }).is_some()
        );
        assert!(DragonflyWorstCase::unfit(&NoParams, &shape).is_none());
    }
}
