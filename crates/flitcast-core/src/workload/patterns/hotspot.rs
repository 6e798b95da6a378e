//! Hot spot (Pfister & Norton's hot-spot traffic): a fraction of the messages to a node drawn uniformly from the hot-spot nodes, the rest
//! uniformly random.

use rand::Rng;

use super::pattern::{uniform_destination, Shape, TrafficPattern};
use crate::params::{params, Kind, Problem};
use crate::rng::Stream;

params! {
    /// Hot-spot traffic.
    pub struct Params {
        /// Hot-spot destinations (node ids from 0 to nodes − 1), at least one.
        hotspot_nodes: Vec<u32> = Vec::new();
        /// The fraction of messages sent to a hot-spot node (the rest go uniformly at random); above 0.
        hotspot_fraction: f64 = 0.0, closed(0.0, 1.0);
        /// In the uniform part, a node may also pick itself as destination.
        uniform_include_self: bool = false;
    }
}

#[derive(Debug, Clone)]
pub struct Hotspot {
    nodes: u32,
    include_self: bool,
    hotspots: Vec<u32>,
    fraction: f64,
}

impl Kind for Hotspot {
    const NAME: &'static str = "hotspot";
    const DOC: &'static str = "workload.hotspot_fraction of messages to workload.hotspot_nodes, the rest uniform";
    type Params = Params;
}

impl TrafficPattern for Hotspot {
    fn new(p: &Params, shape: &Shape) -> Self {
        Hotspot {
            nodes: shape.nodes,
            include_self: p.uniform_include_self,
            hotspots: p.hotspot_nodes.clone(),
            fraction: p.hotspot_fraction,
        }
    }

    fn destination(&self, src: u32, rng: &mut Stream) -> u32 {
        if rng.random::<f64>() < self.fraction {
            self.hotspots[rng.random_range(0..self.hotspots.len())]
        } else {
            uniform_destination(src, self.nodes, self.include_self, rng)
        }
    }

    fn unfit(p: &Params, shape: &Shape) -> Option<Problem> {
        let nodes = format!("{:?}", p.hotspot_nodes);
        let ids = format!("node ids from 0 to {}", shape.nodes - 1);
        if p.hotspot_nodes.is_empty() {
            Some(Problem::new("workload.hotspot_nodes", nodes, format!("a non-empty list of {ids}"), None))
        } else if let Some(bad) = p.hotspot_nodes.iter().find(|&&n| n >= shape.nodes) {
            Some(Problem::new("workload.hotspot_nodes", nodes, format!("{ids} (not {bad})"), None))
        } else if p.hotspot_fraction <= 0.0 {
            Some(Problem::new(
                "workload.hotspot_fraction",
                p.hotspot_fraction.to_string(),
                "above 0 with hotspot",
                None,
            ))
        } else {
            None
        }
    }
}
