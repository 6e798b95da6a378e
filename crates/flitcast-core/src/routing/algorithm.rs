//! What a routing algorithm a scenario names implements (the registry is `mod.rs`): its keys (`Kind`),
//! the networks it runs on, the selection it chooses with, and its build — the runtime it routes with on
//! the network at hand (`route.rs`).

use crate::error::Error;
pub use crate::facts::{too_few_vcs, Facts};
use crate::params::{Kind, Problem};
use crate::selection::{SelectionHistory, SelectionKind};
use crate::sizing::{Part, Sizing};
use crate::topology::Topology;

/// The error of the kind `kind` built on a network that is none of its `networks` (the routing-fits rule
/// refuses such a scenario before anything is built: only a caller that skips the check sees it).
pub fn unfit(kind: &str, networks: &[&str]) -> Error {
    let names: Vec<String> = networks.iter().map(|n| format!("'{n}'")).collect();
    Error::config("network.topology", "another network", format!("{} for {kind}", names.join(", ")))
}

/// What a kind builds where the network decides which of two runtimes (nest it for more): the registry
/// turns either into the family's variant (`mod.rs`), so a kind's file never names the family.
pub enum OneOf<A, B> {
    First(A),
    Second(B),
}

/// A routing algorithm a scenario names (`routing.algorithm`), one per file.
pub trait Algorithm: Kind {
    /// What it builds: a runtime implementing `Route` (or, where the network decides which, a `OneOf`
    /// of them).
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
    /// Whether a forwarding table can hold it: one output per destination at every router, whatever
    /// the packet (the InfiniBand switch forwards by such a table, study 003 §2).
    fn by_table(_: &Self::Params) -> bool {
        false
    }
    /// Which hops update the selection function's history.
    fn selection_history(_: &Self::Params) -> SelectionHistory {
        SelectionHistory::EveryHop
    }
}

/// What the sources' streams of route variants need (`Variants::Drawn` and a torus's balanced ties: a
/// random stream per source).
pub fn variant_streams(n: &Sizing) -> Part {
    Part { what: "route variant streams", bytes: n.nodes * 32, keys: n.network_keys.to_string() }
}

/// One of `0..count` other than `a` and `b` (two different ones), uniformly from a uniform 32-bit `draw`:
/// Valiant's intermediate group or router, never either end's.
pub fn other_than(draw: u32, count: u32, a: u32, b: u32) -> u32 {
    let (lo, hi) = (a.min(b), a.max(b));
    let mut i = ((draw as u64 * (count - 2) as u64) >> 32) as u32;
    if i >= lo {
        i += 1;
    }
    if i >= hi {
        i += 1;
    }
    i
}
