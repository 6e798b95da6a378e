//! What a built routing does while a simulation runs (the registry of runtimes is `mod.rs`'s `family!`;
//! what a scenario names is `algorithm.rs`). Methods a routing has nothing to say in default to the
//! plain case: every virtual channel, one route per pair, no multicast.

use super::tree_multicast::TreeMulticast;
use crate::candidates::{At, Candidates, Step};
use crate::dest_set::DestSets;
use crate::error::Error;
use crate::packet::Header;
use crate::queue_view::Anywhere;
use crate::topology::Topology;

/// A routing built for one network.
pub trait Route {
    /// The routing's name in messages (its kind's, or the runtime's where one kind builds several).
    fn name(&self) -> &'static str;

    /// Candidate outputs for a packet with `header` at `at`, written into `out` (cleared by the
    /// caller, `Routing::route`), in order of preference.
    fn candidates(&self, at: At, header: &Header, out: &mut Candidates);

    /// Narrows the candidates `route` wrote where the routing itself chooses among them by the queues
    /// (UGAL at the source router): `occupancy(port)` is the flits waiting in the next router's buffers of
    /// this router's output `port`, as this router knows them; `anywhere(router, port)` the flits the
    /// credits of any router's output show downstream (UGAL-G's global knowledge). Every switch with
    /// credits calls it after `route`.
    fn decide(
        &self,
        _at: At,
        _header: &Header,
        _out: &mut Candidates,
        _occupancy: impl Fn(u8) -> u32,
        _anywhere: impl Fn(u32, u8) -> u32,
    ) {
    }

    /// `decide` reads the queues: the switch keeps what it needs to tell the flits waiting downstream from
    /// those still on the wire (`switch/on_wire.rs`).
    fn reads_queues(&self) -> bool {
        false
    }

    /// What `decide` reads of any router (`anywhere`; nothing by default): every router records those
    /// outputs' queues into the cycle's view before any steps (`queue_view.rs`).
    fn reads_anywhere(&self) -> Anywhere {
        Anywhere::default()
    }

    /// Virtual channels on every channel.
    fn vcs(&self) -> u8;

    /// The escape virtual channels `lo..hi` of a routing deadlock-free by Duato's protocol: the
    /// build-time check asks the escape sub-network's extended channel dependency graph, not the whole
    /// network's, to be acyclic (`check/routes.rs`).
    fn escape_vcs(&self) -> Option<(u8, u8)> {
        None
    }

    /// Virtual channels a terminal may inject a packet with `header` on.
    fn injection_vcs(&self, _header: &Header) -> (u8, u8) {
        (0, self.vcs())
    }

    /// Virtual channels an output may send a copy fanning out from it on.
    fn fan_out_vcs(&self, _port: u8) -> (u8, u8) {
        (0, self.vcs())
    }

    /// Alternative routes per source-destination pair (O4's four; a torus tie's two directions; a
    /// dragonfly's intermediate groups); `variants.rs` picks one per packet.
    fn variants(&self) -> u8 {
        1
    }

    /// Whether a packet's variant is an intermediate router or group drawn per packet (`intermediate`),
    /// not one of a few fixed routes.
    fn draws_intermediate(&self) -> bool {
        false
    }

    /// The variant of a packet from terminal `src` to `dst` where the routing draws an intermediate,
    /// from a uniform 32-bit `draw` of the source's stream.
    fn intermediate(&self, _src: u32, _dst: u32, _draw: u32) -> u8 {
        0
    }

    /// Source-routed algorithms decide at the source: their route depends on the source and on the
    /// packet's variant, not only on where the packet is.
    fn is_source_routed(&self) -> bool {
        false
    }

    /// Sources with the same class route identically to every destination (the build-time check walks
    /// one source per class).
    fn source_class(&self, _src: u32) -> u32 {
        0
    }

    /// Whether the build-time check walks the routes to terminal `dst` (a routing that routes by the
    /// destination's router alone walks one terminal of each router).
    fn checks_destination(&self, _dst: u32) -> bool {
        true
    }

    /// Adds multidestination routing, where the routing has one (`Routing::with_multicast`).
    fn add_multicast(&mut self, _topo: &Topology) -> Result<(), Error> {
        Err(Error::Routing {
            message: format!(
                "{}: multidestination packets are routed on bidirectional MINs (fat_tree, sp16, sp128) and meshes \
                 (dor)",
                self.name()
            ),
        })
    }

    /// Whether the routing can route a packet to a destination set.
    fn replicates(&self) -> bool {
        false
    }

    /// The multicast routing of a bidirectional MIN, where one is built.
    fn multicast(&self) -> Option<&TreeMulticast> {
        None
    }

    /// The step a multicast copy of the packet with `header` to the set `set` takes at `at` (called only
    /// where the routing `replicates`).
    fn step_multicast(
        &self,
        _topo: &Topology,
        _at: At,
        _header: &Header,
        _set: u32,
        _sets: &DestSets,
        _out: &mut Candidates,
    ) -> Step {
        unreachable!("multicast packets exist only where a multicast routing is built")
    }
}
