//! Routing: for a packet at a router, the candidate outputs (port and range of virtual channels),
//! in order of preference. Selection among the candidates that are free is a separate family
//! (`selection/`). Two registries: the kinds a scenario names (`RoutingKind`, each implementing
//! `Algorithm`: its keys, the networks it runs on, its build) and the runtimes they build (`Routing`,
//! each implementing `Route`), both dispatched statically.

pub mod algorithm;
pub mod dor;
pub mod dor_dateline;
pub mod dor_hyperx;
pub mod dragonfly;
pub mod graph_routing;
pub mod min_adaptive;
pub mod min_adaptive_cube;
pub mod minimal;
pub mod route;
pub mod source_route;
pub mod tree_multicast;
pub mod ugal_g;
pub mod ugal_l;
pub mod up_down;
pub mod valiant;
pub mod variants;

pub use crate::candidates::{At, Candidate, Candidates, Step};
pub use algorithm::{Algorithm, Facts, OneOf};
pub use route::Route;

use crate::dest_set::DestSets;
use crate::error::Error;
use crate::facts::{grouped, needs_text, union_of};
use crate::family::family;
use crate::packet::{Dest, Header};
use crate::params::{kinds, or_list_marked, Problem};
use crate::selection::{SelectionHistory, SelectionKind};
use crate::sizing::{Part, Sizing};
use crate::topology::Topology;

/// The kinds a scenario names, each with its build (`Algorithm::build`, its runtime made a `Routing`).
macro_rules! algorithms {
    ( $( $kind:ident ( $ty:ty ) ),+ $(,)? ) => {
        kinds! {
            /// The routing algorithm, and its parameters.
            pub enum RoutingKind: Algorithm tag "algorithm" {
                $( $kind($ty) ),+
            }
            static {
                fn adaptive() -> bool;
                fn by_table() -> bool;
                fn selection() -> SelectionKind;
                fn selection_history() -> SelectionHistory;
                fn networks() -> &'static [&'static str];
                fn needs() -> &'static str;
                fn unfit(facts: &Facts) -> Vec<Problem>;
                fn bytes(sizing: &Sizing) -> Vec<Part>;
            }
        }

        impl RoutingKind {
            /// The routing this kind builds on `topo` with `vcs` virtual channels per channel.
            pub fn build(&self, vcs: u8, topo: &Topology) -> Result<Routing, Error> {
                match self {
                    $( RoutingKind::$kind(p) => <$ty as Algorithm>::build(p, vcs, topo).map(Routing::from), )+
                }
            }
        }
    };
}

algorithms! {
    Dor(dor::Dor),
    Adaptive(source_route::Adaptive),
    O1(source_route::O1),
    O4(source_route::O4),
    UpDown(up_down::UpDown),
    Minimal(minimal::Minimal),
    Valiant(valiant::Valiant),
    UgalL(ugal_l::UgalL),
    UgalG(ugal_g::UgalG),
    MinAdaptive(min_adaptive::MinAdaptive),
}

family! {
    /// A routing built for one network: one runtime per file (a kind builds the one its network needs:
    /// `dor` a `Dor` on a mesh, a `DorDateline` on a torus, a `DorHyperx` on a HyperX).
    pub enum Routing: Route {
        Dor(dor::Dor),
        DorDateline(dor_dateline::DorDateline),
        Source(source_route::SourceRouting),
        UpDown(up_down::UpDown),
        Dragonfly(dragonfly::DragonflyRouting),
        DorHyperx(dor_hyperx::DorHyperx),
        MinAdaptive(min_adaptive::MinAdaptive),
        MinAdaptiveCube(min_adaptive_cube::MinAdaptiveCube),
        Graph(graph_routing::GraphRouting),
    }
    mut {
        fn add_multicast(topo: &Topology) -> Result<(), Error>;
    }
    ref {
        fn name() -> &'static str;
        fn candidates(at: At, header: &Header, out: &mut Candidates);
        fn decide(at: At, header: &Header, out: &mut Candidates, occupancy: impl Fn(u8) -> u32, anywhere: impl Fn(u32, u8) -> u32);
        fn reads_queues() -> bool;
        fn reads_anywhere() -> crate::queue_view::Anywhere;
        fn vcs() -> u8;
        fn escape_vcs() -> Option<(u8, u8)>;
        fn injection_vcs(header: &Header) -> (u8, u8);
        fn fan_out_vcs(port: u8) -> (u8, u8);
        fn variants() -> u8;
        fn draws_intermediate() -> bool;
        fn intermediate(src: u32, dst: u32, draw: u32) -> u8;
        fn is_source_routed() -> bool;
        fn source_class(src: u32) -> u32;
        fn checks_destination(dst: u32) -> bool;
        fn replicates() -> bool;
        fn multicast() -> Option<&tree_multicast::TreeMulticast>;
        fn step_multicast(topo: &Topology, at: At, header: &Header, set: u32, sets: &DestSets, out: &mut Candidates) -> Step;
    }
}

impl<A: Into<Routing>, B: Into<Routing>> From<OneOf<A, B>> for Routing {
    fn from(r: OneOf<A, B>) -> Routing {
        match r {
            OneOf::First(a) => a.into(),
            OneOf::Second(b) => b.into(),
        }
    }
}

/// Which routing runs on which network, as the kinds declare it (`Algorithm::networks`), in registry
/// order, kinds that run on the same networks together: "'dor' on a mesh, torus, ring or hyperx; …", the
/// kinds' names between `kind_marks` and the networks' between `network_marks` (docs/config.md quotes
/// both, an error message the kinds alone).
pub fn fits(kind_marks: (&str, &str), network_marks: (&str, &str)) -> String {
    // ("an irregular network": the one name that is an adjective)
    let one = |networks: &[&str]| match networks {
        ["irregular", ..] => format!("an {} network", or_list_marked(networks, network_marks)),
        _ => format!("a {}", or_list_marked(networks, network_marks)),
    };
    let groups = grouped(RoutingKind::NAMES, |name| RoutingKind::of_name(name).expect("a registered name").networks());
    let each =
        groups.iter().map(|(networks, kinds)| format!("{} on {}", or_list_marked(kinds, kind_marks), one(networks)));
    each.collect::<Vec<_>>().join("; ")
}

/// The networks some routing a forwarding table can hold runs on, in registry order.
pub fn by_table_networks() -> Vec<&'static str> {
    union_of(RoutingKind::NAMES, |name| {
        let kind = RoutingKind::of_name(name).expect("a registered name");
        if kind.by_table() {
            kind.networks().to_vec()
        } else {
            Vec::new()
        }
    })
}

/// The routings a forwarding table can hold (`Algorithm::by_table`) that run on `network`.
pub fn by_table_on(network: &str) -> Vec<&'static str> {
    let kind = |name| RoutingKind::of_name(name).expect("a registered name");
    RoutingKind::NAMES
        .iter()
        .copied()
        .filter(|&n| kind(n).by_table() && kind(n).networks().contains(&network))
        .collect()
}

/// What each routing needs beyond its networks, as the kinds declare it (`Algorithm::needs`).
pub fn needs() -> String {
    needs_text(RoutingKind::NAMES, |name| RoutingKind::of_name(name).expect("a registered name").needs())
}

impl Routing {
    /// The routing `kind` on `topo` with `vcs` virtual channels per channel.
    pub fn build(kind: &RoutingKind, vcs: u8, topo: &Topology) -> Result<Routing, Error> {
        kind.build(vcs, topo)
    }

    /// Candidate outputs for a packet with header `header` at `at`, written into `out` (cleared first).
    #[inline]
    pub fn route(&self, at: At, header: &Header, out: &mut Candidates) {
        out.clear();
        self.candidates(at, header, out);
    }

    /// The step a copy of the packet with `header` takes at `at`: a unicast, or a multicast copy
    /// below its count field, chooses among candidates (written into `out`); a multicast copy at or
    /// past its LCA stage fans out over the down ports that reach its destinations
    /// (`tree_multicast.rs`); on a mesh, by the union of the source's dimension-order paths.
    #[inline]
    pub fn step(&self, topo: &Topology, at: At, header: &Header, sets: &DestSets, out: &mut Candidates) -> Step {
        match header.dest {
            Dest::Set(set) => self.step_multicast(topo, at, header, set, sets, out),
            _ => {
                self.route(at, header, out);
                Step::Choose
            }
        }
    }

    /// Adds multidestination routing: up to the LCA stage and down by reachability strings on a
    /// bidirectional MIN (study 000 §3.3); on a mesh, dimension-order routing fans out by the union of
    /// its paths as it is (study 003 §3.3.2).
    pub fn with_multicast(mut self, topo: &Topology) -> Result<Routing, Error> {
        self.add_multicast(topo)?;
        Ok(self)
    }

    /// The count field of a multicast from `src` to the set with words `dests` (`Header::turn`).
    pub fn turn(&self, src: u32, dests: &[u64]) -> Option<u8> {
        self.multicast()?.turn(src, dests)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::TopologyKind;

    #[test]
    fn each_kind_builds_on_the_networks_it_names_and_on_no_other() {
        for routing in RoutingKind::NAMES {
            let kind = RoutingKind::of_name(routing).unwrap();
            assert!(!kind.networks().is_empty());
            for network in TopologyKind::NAMES {
                // (a network that needs more than its defaults to exist, an irregular one's file, is skipped)
                let Ok(topo) = Topology::build(&TopologyKind::of_name(network).unwrap(), 1, None) else { continue };
                let named = kind.networks().contains(network);
                let built = kind.build(4, &topo);
                assert_eq!(built.is_ok(), named, "{routing} on {network}: {:?}", built.err());
            }
            for network in kind.networks() {
                assert!(TopologyKind::NAMES.contains(network), "{routing} names '{network}', no topology");
            }
        }
        let fits = fits(("'", "'"), ("", ""));
        assert!(fits.starts_with("'dor' or 'min_adaptive' on a mesh, torus, ring or hyperx; "), "{fits}");
        assert!(
            fits.contains("'minimal' or 'valiant' on a dragonfly or slim_fly; 'ugal_l' or 'ugal_g' on a dragonfly")
                && fits.contains("'up_down' on an irregular or slim_fly network")
        );
    }
}
