//! The scenario as a kind checks itself: what a topology, switch, routing or program may need to know
//! of the others to say whether it can run there (each family's `unfit`, docs/config.md "Rules").
//! The rules gather it once (`scenario/rules.rs`); a kind reads it and names its own keys.

use crate::params::{or_list, Problem};

#[derive(Debug, Clone)]
pub struct Facts<'a> {
    /// The network's nodes.
    pub nodes: u64,
    /// `network.topology`'s name.
    pub network: &'static str,
    /// The network wraps around (a torus or ring).
    pub wraps: bool,
    /// The dimensions of a network of routers on a grid (mesh, torus, HyperX; None for another), whether
    /// its links run one way, and the parallel links between neighbours (`Builder::dimensions`).
    pub dimensions: Option<u32>,
    pub unidirectional: bool,
    pub parallel_links: u32,
    /// The digits (k, n) of node ids that are router coordinates, and a network of groups' nodes per
    /// group and groups (`Builder::digits`, `Builder::groups`).
    pub digits: Option<(u32, u32)>,
    pub groups: Option<(u32, u32)>,
    /// The most ports of any switch, and the key that sets it with its value (None: the network's kind).
    pub radix: u32,
    pub radix_key: Option<(&'static str, String)>,
    /// The most router-to-router hops of a minimal route, where the network's kind knows it.
    pub diameter: Option<u32>,
    /// The routers, where the network's kind knows them without building (an irregular network's file,
    /// where it can be read; a Slim Fly's).
    pub known_routers: Option<u32>,
    /// The longest router-to-router channel in cycles, and the key that makes it longer than
    /// `network.channel_latency_cycles` (`Builder::longest_channel`); the terminal links' latency (the
    /// channels' when left out).
    pub longest_channel: (u32, Option<&'static str>),
    pub terminal_latency: Option<u32>,
    /// `run.threads`.
    pub threads: u32,
    /// `switch.model`'s name, its virtual channels (1 for a model without `switch.vcs`), and the models
    /// that have `switch.vcs`.
    pub switch: &'static str,
    pub vcs: u32,
    pub models_with_vcs: &'a [&'static str],
    /// The switch's flow control counts credits (not stop/go): every switch narrows a routing's
    /// candidates by what its outputs' credits show downstream (`Route::decide`).
    pub reads_credits: bool,
    /// `routing.algorithm`'s name, whether a forwarding table can hold it (one output per destination),
    /// and `routing.check_deadlock_free`.
    pub routing: &'static str,
    pub by_table: bool,
    pub check_deadlock_free: bool,
    /// Flits of the largest packet's payload (`workload.packet_flits`, or from the byte sizes), and of a
    /// unicast packet's header.
    pub packet_flits: u32,
    pub unicast_header_flits: u32,
    /// Flits of a message (its mean where sizes are drawn).
    pub message_flits: u32,
    /// The largest multidestination worm, packet and header, where the program sends them.
    pub multidestination_worm: Option<u32>,
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

/// A family's kinds grouped by what `of` says of each (at its default parameters), in registry order.
pub fn grouped<T: PartialEq>(names: &[&'static str], of: impl Fn(&'static str) -> T) -> Vec<(T, Vec<&'static str>)> {
    let mut groups: Vec<(T, Vec<&'static str>)> = Vec::new();
    for &name in names {
        let value = of(name);
        match groups.iter_mut().find(|(v, _)| *v == value) {
            Some((_, kinds)) => kinds.push(name),
            None => groups.push((value, vec![name])),
        }
    }
    groups
}

/// Every value `of` gives for the family's kinds, each once, in registry order (the networks some switch
/// replicates on, or some routing of a kind runs on).
pub fn union_of(names: &[&'static str], of: impl Fn(&'static str) -> Vec<&'static str>) -> Vec<&'static str> {
    let mut all: Vec<&'static str> = Vec::new();
    for &name in names {
        for value in of(name) {
            if !all.contains(&value) {
                all.push(value);
            }
        }
    }
    all
}

/// What each kind of a family needs, as the kinds declare it (their `needs`), kinds with the same
/// needs together: "`dor`: on a `torus` …; `o1`, `o4`: with …".
pub fn needs_text(names: &[&'static str], needs: impl Fn(&'static str) -> &'static str) -> String {
    let groups = grouped(names, needs);
    let each = groups.iter().filter(|(text, _)| !text.is_empty()).map(|(text, kinds)| {
        let names: Vec<String> = kinds.iter().map(|k| format!("`{k}`")).collect();
        format!("{}: {text}", names.join(", "))
    });
    each.collect::<Vec<_>>().join("; ")
}

impl Facts<'_> {
    /// A bidirectional (or, `one_way`, unidirectional) `mesh` or `torus` of `dims` dimensions.
    pub fn is_cube(&self, dims: u32, one_way: bool) -> bool {
        ["mesh", "torus"].contains(&self.network) && self.dimensions == Some(dims) && self.unidirectional == one_way
    }
}
