//! Routing: for a packet at a router, the candidate outputs (port and range of virtual channels),
//! in order of preference. Selection among the candidates that are free is a separate family
//! (`selection/`). One algorithm per file; `Routing` dispatches statically.

pub mod algorithm;
pub mod dor;
pub mod dor_dateline;
pub mod dor_hyperx;
pub mod dragonfly;
pub mod min_adaptive;
pub mod minimal;
pub mod source_route;
pub mod tree_multicast;
pub mod ugal_l;
pub mod up_down;
pub mod valiant;
pub mod variants;

pub use crate::candidates::{At, Candidate, Candidates, Step};
pub use algorithm::Algorithm;

use crate::dest_set::DestSets;
use crate::error::Error;
use crate::packet::{Dest, Header};
use crate::params::kinds;
use crate::selection::{SelectionHistory, SelectionKind};
use crate::topology::{Geometry, Topology};

kinds! {
    /// The routing algorithm, and its parameters.
    pub enum RoutingKind: Algorithm tag "algorithm" {
        Dor(dor::Dor),
        Adaptive(source_route::Adaptive),
        O1(source_route::O1),
        O4(source_route::O4),
        UpDown(up_down::UpDown),
        Minimal(minimal::Minimal),
        Valiant(valiant::Valiant),
        UgalL(ugal_l::UgalL),
        MinAdaptive(min_adaptive::MinAdaptive),
    }
    static {
        fn adaptive() -> bool;
        fn selection() -> SelectionKind;
        fn selection_history() -> SelectionHistory;
    }
}

/// Which routing runs on which network (the routing-fits rule and `Routing::build` say it alike).
pub const FITS: &str = "'dor' on a mesh, torus, ring or hyperx; 'min_adaptive' on a hyperx; 'adaptive', 'o1' or \
                        'o4' on a fat_tree, sp16 or sp128; 'minimal', 'valiant' or 'ugal_l' on a dragonfly; \
                        'up_down' on an irregular network";

#[derive(Debug, Clone)]
pub enum Routing {
    Dor(dor::Dor),
    DorDateline(dor_dateline::DorDateline),
    Source(source_route::SourceRouting),
    UpDown(up_down::UpDown),
    Dragonfly(dragonfly::Dragonfly),
    DorHyperx(dor_hyperx::DorHyperx),
    MinAdaptive(min_adaptive::MinAdaptive),
}

impl Routing {
    /// The routing `kind` on `topo` with `vcs` virtual channels per channel.
    pub fn build(kind: &RoutingKind, vcs: u8, topo: &Topology) -> Result<Routing, Error> {
        use source_route::{Mode, O4Spread, ObliviousTable, SourceRouting};
        let source = |mode, table, spread| SourceRouting::new(topo, mode, table, spread, vcs).map(Routing::Source);
        match (kind, topo.geometry) {
            (RoutingKind::Dor(p), Geometry::Cube(g)) if !g.wrap => Ok(Routing::Dor(dor::Dor::new(g, vcs, p.lanes))),
            (RoutingKind::Dor(p), Geometry::Cube(g)) => {
                Ok(Routing::DorDateline(dor_dateline::DorDateline::new(g, vcs, p.torus_ties)))
            }
            (RoutingKind::Adaptive(_), Geometry::Bmin) => {
                source(Mode::Adaptive, ObliviousTable::Balanced, O4Spread::FirstStage)
            }
            (RoutingKind::O1(p), Geometry::Bmin) => source(Mode::O1, p.oblivious_table, O4Spread::FirstStage),
            (RoutingKind::O4(p), Geometry::Bmin) => source(Mode::O4, p.oblivious_table, p.o4_spread),
            (RoutingKind::UpDown(p), Geometry::Graph) => up_down::UpDown::new(topo, p.root, vcs).map(Routing::UpDown),
            (RoutingKind::Minimal(_), Geometry::Dragonfly(g)) => {
                dragonfly::Dragonfly::new(g, vcs, dragonfly::Mode::Minimal, kind.name()).map(Routing::Dragonfly)
            }
            (RoutingKind::Valiant(p), Geometry::Dragonfly(g)) => {
                let mode =
                    dragonfly::Mode::Valiant { all_groups: p.intermediate_groups == valiant::IntermediateGroups::All };
                dragonfly::Dragonfly::new(g, vcs, mode, kind.name()).map(Routing::Dragonfly)
            }
            (RoutingKind::UgalL(p), Geometry::Dragonfly(g)) => {
                let mode = dragonfly::Mode::UgalL { threshold: p.ugal_threshold };
                dragonfly::Dragonfly::new(g, vcs, mode, kind.name()).map(Routing::Dragonfly)
            }
            (RoutingKind::Dor(_), Geometry::Hyperx(g)) => Ok(Routing::DorHyperx(dor_hyperx::DorHyperx::new(g, vcs))),
            (RoutingKind::MinAdaptive(_), Geometry::Hyperx(g)) => {
                let most = min_adaptive::candidates(g.dims.into(), g.links.into());
                if vcs < 2 || most as usize > Candidates::MAX {
                    return Err(Error::Routing {
                        message: format!(
                            "min_adaptive needs 2 virtual channels or more (it has {vcs}) and at most {} candidates \
                             a hop (it would offer {most})",
                            Candidates::MAX
                        ),
                    });
                }
                Ok(Routing::MinAdaptive(min_adaptive::MinAdaptive::new(g, vcs)))
            }
            (kind, _) => Err(Error::config("routing.algorithm", format!("'{}'", kind.name()), FITS)),
        }
    }

    /// Candidate outputs for a packet with header `header` at `at`, written into `out` (cleared first).
    #[inline]
    pub fn route(&self, at: At, header: &Header, out: &mut Candidates) {
        out.clear();
        match self {
            Routing::Dor(r) => r.route(at, header.dst(), out),
            Routing::DorDateline(r) => r.route(at, header.dst(), header.variant, out),
            Routing::Source(r) => r.route(at, header, out),
            Routing::DorHyperx(r) => r.route(at, header.dst(), out),
            Routing::MinAdaptive(r) => r.route(at, header.dst(), out),
            Routing::UpDown(r) => r.route(at, header.dst(), out),
            Routing::Dragonfly(r) => r.route(at, header, out),
        }
    }

    /// Narrows the candidates `route` wrote where the routing itself chooses among them by the router's
    /// own queues (UGAL-L at the source router, `dragonfly.rs`): `occupancy(port)` is the flits this
    /// router's credits show in the next router's buffers of output `port`. A switch that routes a
    /// UGAL-L packet calls it right after `route`; for every other routing it does nothing.
    #[inline]
    pub fn decide(&self, at: At, header: &Header, out: &mut Candidates, occupancy: impl Fn(u8) -> u32) {
        if let Routing::Dragonfly(r) = self {
            r.decide(at, header, out, occupancy);
        }
    }

    /// The step a copy of the packet with `header` takes at `at`: a unicast, or a multicast copy
    /// below its count field, chooses among candidates (written into `out`); a multicast copy at or
    /// past its LCA stage fans out over the down ports that reach its destinations
    /// (`tree_multicast.rs`).
    #[inline]
    pub fn step(&self, topo: &Topology, at: At, header: &Header, sets: &DestSets, out: &mut Candidates) -> Step {
        let Dest::Set(set) = header.dest else {
            self.route(at, header, out);
            return Step::Choose;
        };
        if let Routing::Dor(r) = self {
            // (a mesh: the union of the source's dimension-order paths, study 003 §3.3.2)
            return Step::FanOut(r.fan_out(at.router, header.src, sets.members(set)));
        }
        let tree = self.multicast().expect("multicast packets exist only where a multicast routing is built");
        if at.hops < header.turn as u16 {
            out.clear();
            out.push_ports(tree.up_ports(at.router), 0, self.vcs());
            Step::Choose
        } else {
            Step::FanOut(tree.fan_out(topo, at.router, sets.words(set)))
        }
    }

    /// The multicast routing, where one is built (`with_multicast`).
    pub fn multicast(&self) -> Option<&tree_multicast::TreeMulticast> {
        match self {
            Routing::Source(r) => r.multicast.as_deref(),
            _ => None,
        }
    }

    /// Adds multidestination routing: up to the LCA stage and down by reachability strings on a
    /// bidirectional MIN (study 000 §3.3); on a mesh, dimension-order routing fans out by the union of
    /// its paths as it is (study 003 §3.3.2).
    pub fn with_multicast(mut self, topo: &Topology) -> Result<Routing, Error> {
        match &mut self {
            Routing::Source(r) => r.multicast = Some(Box::new(tree_multicast::TreeMulticast::build(topo)?)),
            Routing::Dor(_) => {}
            other => {
                return Err(Error::Routing {
                    message: format!(
                        "{}: multidestination packets are routed on bidirectional MINs (fat_tree, sp16, sp128) and \
                         meshes (dor)",
                        other.name()
                    ),
                })
            }
        }
        Ok(self)
    }

    /// Whether the routing can route a packet to a destination set (`with_multicast`).
    pub fn replicates(&self) -> bool {
        matches!(self, Routing::Dor(_)) || self.multicast().is_some()
    }

    /// The count field of a multicast from `src` to the set with words `dests` (`Header::turn`).
    pub fn turn(&self, src: u32, dests: &[u64]) -> Option<u8> {
        self.multicast()?.turn(src, dests)
    }

    /// Virtual channels on every channel.
    pub fn vcs(&self) -> u8 {
        match self {
            Routing::Dor(r) => r.vcs,
            Routing::DorDateline(r) => r.vcs,
            Routing::Source(r) => r.vcs(),
            Routing::UpDown(r) => r.vcs,
            Routing::Dragonfly(r) => r.vcs,
            Routing::DorHyperx(r) => r.vcs,
            Routing::MinAdaptive(r) => r.vcs(),
        }
    }

    /// The escape virtual channels `lo..hi` of a routing deadlock-free by Duato's protocol: the
    /// build-time check asks the escape sub-network's extended channel dependency graph, not the whole
    /// network's, to be acyclic (`check/routes.rs`).
    pub fn escape_vcs(&self) -> Option<(u8, u8)> {
        match self {
            Routing::MinAdaptive(r) => Some(r.escape_vcs()),
            _ => None,
        }
    }

    /// Virtual channels an output may send a copy fanning out from it on.
    pub fn fan_out_vcs(&self, port: u8) -> (u8, u8) {
        match self {
            Routing::Dor(r) => r.lanes(port),
            _ => (0, self.vcs()),
        }
    }

    /// Virtual channels a terminal may inject a packet with `header` on.
    pub fn injection_vcs(&self, _header: &Header) -> (u8, u8) {
        match self {
            Routing::Dor(r) => r.injection,
            Routing::DorDateline(r) => r.class_vcs(0),
            Routing::Source(r) => (0, r.vcs()),
            Routing::UpDown(r) => (0, r.vcs),
            Routing::Dragonfly(r) => (0, r.vcs),
            Routing::DorHyperx(r) => (0, r.vcs),
            Routing::MinAdaptive(r) => (0, r.vcs()),
        }
    }

    /// Source-routed algorithms decide at the source: their route depends on the source and on
    /// the packet's variant, not only on where the packet is.
    pub fn is_source_routed(&self) -> bool {
        matches!(self, Routing::Source(_))
    }

    /// Whether the build-time check walks the routes to terminal `dst`. A dragonfly routes by the
    /// destination's router alone, up to the ejection port: the check walks the first terminal of each
    /// router, whose channels and dependencies are those of the router's other terminals.
    pub fn checks_destination(&self, dst: u32) -> bool {
        match self {
            Routing::Dragonfly(r) => dst.is_multiple_of(r.geo.p),
            _ => true,
        }
    }

    /// Sources with the same class route identically to every destination (the build-time check
    /// walks one source per class).
    pub fn source_class(&self, src: u32) -> u32 {
        match self {
            Routing::Source(r) => r.source_class(src),
            _ => 0,
        }
    }

    /// Alternative routes per source-destination pair (O4's four; a torus tie's two directions; a
    /// dragonfly's intermediate groups);
    /// `variants.rs` picks one per packet.
    pub fn variants(&self) -> u8 {
        match self {
            Routing::Source(r) => r.variants(),
            Routing::DorDateline(r) => r.variants(),
            Routing::Dragonfly(r) => r.variants(),
            Routing::Dor(_) | Routing::UpDown(_) | Routing::DorHyperx(_) | Routing::MinAdaptive(_) => 1,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Routing::Dor(_) => "dor",
            Routing::DorDateline(_) => "dor_dateline",
            Routing::UpDown(_) => "up_down",
            Routing::DorHyperx(_) => "dor_hyperx",
            Routing::MinAdaptive(_) => "min_adaptive",
            Routing::Source(r) => match r.mode {
                source_route::Mode::Adaptive => "adaptive",
                source_route::Mode::O1 => "o1",
                source_route::Mode::O4 => "o4",
            },
            Routing::Dragonfly(r) => match r.mode {
                dragonfly::Mode::Minimal => "minimal",
                dragonfly::Mode::Valiant { .. } => "valiant",
                dragonfly::Mode::UgalL { .. } => "ugal_l",
            },
        }
    }
}
