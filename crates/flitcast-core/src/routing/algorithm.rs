//! What a routing algorithm a scenario names implements (the registry is `mod.rs`): its keys (`Kind`),
//! the networks it runs on, the selection it chooses with, and its build — the runtime it routes with on
//! the network at hand (`route.rs`).

use crate::error::Error;
use crate::params::{or_list, Kind, Problem};
use crate::selection::{SelectionHistory, SelectionKind};
use crate::sizing::{Part, Sizing};
use crate::topology::Topology;

/// The scenario around a routing, as its kind checks itself (`Algorithm::unfit`): the facts of the
/// network and the switch a routing's needs depend on.
#[derive(Debug, Clone)]
pub struct Facts<'a> {
    /// The network's nodes.
    pub nodes: u64,
    /// The network wraps around (a torus or ring).
    pub wraps: bool,
    /// A mesh's dimensions (None for another network).
    pub mesh_dims: Option<u32>,
    /// A HyperX's dimensions and `network.parallel_links` (None for another network).
    pub hyperx: Option<(u32, u32)>,
    /// `switch.model`'s name, its virtual channels (1 for a model without `switch.vcs`), and the models
    /// that have `switch.vcs`.
    pub switch: &'static str,
    pub vcs: u32,
    pub models_with_vcs: &'a [&'static str],
    /// The switch's flow control counts credits (not stop/go): every switch narrows a routing's
    /// candidates by what its outputs' credits show downstream (`Route::decide`).
    pub reads_credits: bool,
    pub check_deadlock_free: bool,
}

/// A switch with fewer than `n` virtual channels: the problem names `switch.vcs` (allowed: `vcs_allowed`)
/// or, for a model without virtual channels, `switch.model` (allowed: the models with them, then
/// `model_allowed`).
pub fn too_few_vcs(f: &Facts, n: u32, vcs_allowed: String, model_allowed: &str) -> Option<Problem> {
    if f.vcs >= n {
        return None;
    }
    Some(if f.models_with_vcs.contains(&f.switch) {
        Problem::new("switch.vcs", f.vcs.to_string(), vcs_allowed, None)
    } else {
        Problem::new(
            "switch.model",
            format!("'{}'", f.switch),
            format!("{} {model_allowed}", or_list(f.models_with_vcs)),
            None,
        )
    })
}

/// The error of the kind `kind` built on a network that is none of its `networks` (the routing-fits rule
/// refuses such a scenario before anything is built: only a caller that skips the check sees it).
pub fn unfit(kind: &str, networks: &[&str]) -> Error {
    let names: Vec<String> = networks.iter().map(|n| format!("'{n}'")).collect();
    Error::config("network.topology", "another network", format!("{} for {kind}", names.join(", ")))
}

/// A routing algorithm a scenario names (`routing.algorithm`), one per file.
pub trait Algorithm: Kind {
    /// What it builds: a runtime implementing `Route` (or, where the network decides which, an enum of
    /// them the registry turns into the family's variants).
    type Runtime;

    /// The networks it runs on, by their `network.topology` names: the routing-fits rule, the error of a
    /// routing on another network and docs/config.md all say it from these.
    fn networks(_: &Self::Params) -> &'static [&'static str];

    /// The routing on `topo` (one of its `networks`) with `vcs` virtual channels per channel.
    fn build(p: &Self::Params, vcs: u8, topo: &Topology) -> Result<Self::Runtime, Error>;

    /// What it needs beyond its networks, as docs/config.md states it ("" if nothing): the conditions
    /// `unfit` checks.
    fn needs(_: &Self::Params) -> &'static str {
        ""
    }

    /// The problems of running it where `facts` hold (none on one of its networks when its `needs` hold).
    fn unfit(_: &Self::Params, _: &Facts) -> Vec<Problem> {
        Vec::new()
    }

    /// What its tables and streams need in memory on the network `sizing` describes (none by default).
    fn bytes(_: &Self::Params, _: &Sizing) -> Vec<Part> {
        Vec::new()
    }

    /// The selection function among the granted candidates.
    fn selection(_: &Self::Params) -> SelectionKind {
        SelectionKind::FirstFree(Default::default())
    }
    /// Whether a hop may offer several outputs for the selection function to choose among (a switch
    /// that forwards by table, one output per destination, cannot take such a routing).
    fn adaptive(_: &Self::Params) -> bool {
        false
    }
    /// Which hops update the selection function's history.
    fn selection_history(_: &Self::Params) -> SelectionHistory {
        SelectionHistory::EveryHop
    }
}

/// What the sources' streams of route variants need (`Variants::Group` and a torus's balanced ties: a
/// random stream per source).
pub fn variant_streams(n: &Sizing) -> Part {
    Part { what: "route variant streams", bytes: n.nodes * 32, keys: n.network_keys.to_string() }
}
