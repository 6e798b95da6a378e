//! A closed batch (study 003 §4; docs/models/infiniband.md, "Workload"): a set of source hosts each
//! send one message to one group at cycle 0 — one-source, multi-source (40% of the nodes) or
//! all-source multicast — and nothing else happens. Each source's message is an operation whose
//! destinations are the group's members other than itself; the batch's completion time is the last
//! operation's latency (`latency_max`: every operation starts at cycle 0).
//!
//! The sources and the group are drawn uniformly, ⌊share × nodes⌋ of each (at least one), from the
//! run's seed. A source sends by the scheme: one multidestination packet (hardware), or one unicast
//! per member in increasing node order, back to back on its injection link (separate addressing, the
//! study's "unicast scheme").
//!
//! Each packet may carry headers besides its payload, in bytes rounded up to whole flits
//! (`unicast_header_bytes`, `multicast_header_bytes`): study 003's InfiniBand packets carry their
//! routing and transport headers, a multicast one its global route header too (docs/models/infiniband.md,
//! "Headers").

use rand::seq::SliceRandom;

use crate::host::program::{Outbox, Priority, Program, Send, Serves, Site, Target, WormHeader};
use crate::params::{choice, params, Flat, Kind};
use crate::rng::{stream, StreamKind};
use crate::time::Cycle;

choice! {
    /// How each source of a closed batch sends its message to the group.
    pub enum BatchScheme {
        /// One multidestination packet the switches replicate (study 003's multicast scheme).
        Hardware = "hardware",
        /// One unicast per member in increasing node order, back to back (the study's unicast scheme).
        Separate = "separate",
    }
}

params! {
    /// A closed batch of multicasts.
    pub struct Params {
        /// This share of the nodes (at least one) each send one message to the group at cycle 0.
        source_share: f64 = 1.0, above(0.0, 1.0);
        /// The group: this share of the nodes (at least one), drawn with the sources from run.seed.
        group_share: f64 = 0.4, above(0.0, 1.0);
        /// `hardware`: one multidestination packet per source; `separate`: one unicast per member.
        scheme: BatchScheme = BatchScheme::Hardware;
        /// The header of a multidestination worm: header_flits.
        header: Flat<WormHeader> = Flat::default();
        /// Bytes each unicast packet carries besides its payload, in whole flits of workload.flit_bytes
        /// (so only with the sizes in bytes). InfiniBand's unreliable datagrams: LRH 8 + BTH 12 + DETH 8
        /// + ICRC 4 + VCRC 2 = 34 (docs/models/infiniband.md, "Headers").
        unicast_header_bytes: u32 = 0, range(0, 4096), unit("bytes");
        /// Bytes each multicast packet carries besides its payload and workload.header_flits, in whole
        /// flits of workload.flit_bytes (so only with the sizes in bytes). InfiniBand: a unicast's 34 and
        /// the global route header with the group's GID, 40: 74 (docs/models/infiniband.md, "Headers").
        multicast_header_bytes: u32 = 0, range(0, 4096), unit("bytes");
    }
}

/// Flits a batch's packets carry besides their payload.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HeaderFlits {
    pub unicast: u32,
    pub multicast: u32,
}

impl Kind for Batch {
    const NAME: &'static str = "batch";
    const DOC: &'static str = "a closed batch: sources send one message each to a group at cycle 0 (study 003 §4)";
    type Params = Params;
}

#[derive(Debug, Clone)]
pub struct Batch {
    pub sources: Vec<u32>,
    pub group: Vec<u32>,
    scheme: BatchScheme,
    message_flits: u32,
    headers: HeaderFlits,
}

impl Batch {
    /// Draws the sources and the group among `nodes` nodes.
    pub fn new(
        nodes: u32,
        sources: f64,
        group: f64,
        scheme: BatchScheme,
        message_flits: u32,
        headers: HeaderFlits,
        seed: u64,
    ) -> Batch {
        let mut rng = stream(seed, StreamKind::Batch, 0);
        let mut draw = |share: f64| {
            let mut all: Vec<u32> = (0..nodes).collect();
            all.shuffle(&mut rng);
            let mut picked = all[..((share * nodes as f64) as usize).clamp(1, nodes as usize)].to_vec();
            picked.sort_unstable();
            picked
        };
        let (sources, group) = (draw(sources), draw(group));
        Batch { sources, group, scheme, message_flits, headers }
    }
}

impl Program for Batch {
    fn new(p: &Params, site: &Site) -> Self {
        let nodes = site.shape.nodes;
        let headers = HeaderFlits { unicast: site.unicast_header_flits, multicast: site.header_flits };
        Batch::new(nodes, p.source_share, p.group_share, p.scheme, site.message_flits, headers, site.seed)
    }

    fn closed(_: &Params) -> bool {
        true
    }

    fn multidestination(p: &Params) -> bool {
        p.scheme == BatchScheme::Hardware
    }

    fn header_flits(p: &Params) -> Option<u32> {
        p.header.header_flits
    }

    fn header_bytes(p: &Params) -> (u32, u32) {
        (p.unicast_header_bytes, p.multicast_header_bytes)
    }

    /// Every source's message, at cycle 0.
    fn start(&mut self, out: &mut Outbox) {
        for &host in &self.sources {
            out.timers.push((0, host, 0));
        }
    }

    fn on_timer(&mut self, host: u32, _tag: u32, _now: Cycle, out: &mut Outbox) {
        let dests: Vec<u32> = self.group.iter().copied().filter(|&d| d != host).collect();
        if dests.is_empty() {
            return; // (a one-member group of its own source: nothing to send)
        }
        let flits = self.message_flits;
        match self.scheme {
            BatchScheme::Hardware if dests.len() > 1 => out.sends.push(Send {
                src: host,
                target: Target::Set(dests),
                flits,
                header_flits: self.headers.multicast,
                serves: Serves::NewOperation,
                tag: 0,
                priority: Priority::Unicast,
                cut_through: None,
            }),
            _ => {
                let mut serves = Serves::Open(dests.clone());
                for d in dests {
                    let serves = std::mem::replace(&mut serves, Serves::Previous);
                    out.sends.push(Send {
                        src: host,
                        target: Target::One(d),
                        flits,
                        header_flits: self.headers.unicast,
                        serves,
                        tag: 0,
                        priority: Priority::Unicast,
                        cut_through: None,
                    });
                }
            }
        }
    }
}
