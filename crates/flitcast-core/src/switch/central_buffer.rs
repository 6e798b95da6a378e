//! The SP buffered-wormhole switch with a dynamically shared central buffer (study 000 §4.1 and
//! §7.1; study 002 §2 and §4.3). Reading choices are listed here and in docs/models/central_buffer.md.
//!
//! Structure (defaults are the SP values of study 000 §7.1): 8 ports; per input a FIFO of
//! `buffer_flits` (64) flits under token (credit) flow control; a crossbar; a central buffer of
//! `central_buffer_chunks` (256) chunks of `chunk_flits` (8) flits shared by all ports, organised as
//! one FIFO queue of packets per output; no virtual channels.
//!
//! Behaviour, cycle by cycle:
//! * A head is ready to request `route_cycles` (4) after it arrives ("reading data out of the input
//!   FIFO, determining the route, requesting output port(s), and granting the request"). It makes
//!   **one** attempt: it requests every candidate output; each free output (idle, nothing of its own
//!   queued in the central buffer) grants one requesting input, least recently used first (study 002
//!   §2: "on an individual LRU basis"); the input's selection function picks among its grants (§4.3).
//! * Granted: the packet cuts through the crossbar, one flit per cycle as credits allow, and each flit
//!   leaves on the output channel `router_delay_cycles − route_cycles` (2) cycles after it left the
//!   FIFO: 6 cycles through an idle switch.
//! * No grant: the packet goes to the central buffer, behind the queue of the output the selection
//!   function picks among all candidates (our reading; the study leaves it open). Its flits are read
//!   from the FIFO one per cycle into the input's chunk register; a full chunk (or the tail's) is
//!   written into the buffer — one chunk write per cycle for the whole chip, to the least recently
//!   served input. The deserialisation delay of study 000 (7 extra cycles for 8-flit chunks) is the
//!   time this takes, not a separate parameter. A packet joins its output's queue when its first
//!   chunk is written (SP keeps queues in header-chunk write order). When the buffer is full the rest
//!   of the packet waits in the FIFO ("blocked in place") and is written as chunks free up; all its
//!   flits follow through the buffer — a packet never switches back to the crossbar midway.
//! * An idle output with a queued packet serves it: one chunk read per cycle for the whole chip (the
//!   one RAM read port that matches the output bandwidth, §4.1), to the least recently served output
//!   that wants one; a read frees its chunk; the output sends one flit per cycle from its register,
//!   also as soon as a chunk of a packet that is still being written is there. Each output has two
//!   chunk registers (`buffer_reads = "read_ahead"`, our reading of §4.1–§4.2's "all k_s output
//!   ports are reading the packet at full bandwidth"): it reads its next chunk while it sends the
//!   current one, so an output whose next chunk is stored when it starts sending the current one
//!   never waits for the port (with at most `chunk_flits` + 1 outputs). The other reading,
//!   `when_empty`: one register, read only once empty. While its queue is non-empty an output grants
//!   no crossbar request (arrivals for it join the queue, which keeps them in order).
//! * The remainder "blocked in place" (our reading of how it leaves, the choice the studies leave
//!   open): when the buffer is full and an output comes to a packet none of whose remaining flits
//!   are stored — its queue's front packet with every stored chunk read, or, with an empty queue, a
//!   packet whose first chunk could not be written — the output takes the rest straight from the
//!   writing input: first the flits in its chunk register, then through the crossbar. Without this,
//!   a full buffer holding only chunks queued behind such packets deadlocks the switch.
//!
//! * A multicast copy that fans out to two or more outputs replicates in the buffer (study 000 §4.2;
//!   docs/models/central_buffer.md, "Replication"): never through the crossbar; its header chunk,
//!   assembled meanwhile, enters the buffer only when the whole packet and its header-chunk copies
//!   fit, those chunks reserved with that write (the VCT-emulation rule); the header chunk is written
//!   once per output, its later chunks once with a count of readers, each freed by its last reader. Up-bound packets then leave that much room to down-bound ones.
//!
//! The router holds no flit twice: a chunk is (packet, first flit, count), since a packet's flits
//! are consecutive. A copy's route position (its hops so far) is kept beside its head in the input
//! FIFO and with its chunks (docs/engine.md, "Packets and copies").

use std::collections::VecDeque;

use super::flit_fifo::FlitFifo;
use super::model::{
    links_of, route_cycles_unfit, selection_request, FlowControl, InLink, Model, OutLink, Site, StepCtx, Timing,
};
use crate::arbiter::{least_served, Recency};
use crate::bitset::ones;
use crate::error::BlockedChannel;
use crate::facts::Facts;
use crate::packet::Flit;
use crate::params::{choice, params, Kind, Problem};
use crate::routing::{At, Candidates, Step};
use crate::selection::{records, Selection, SelectionHistory};
use crate::time::Cycle;
use crate::topology::Topology;

choice! {
    /// When a multicast that replicates into the central buffer may enter it.
    pub enum MulticastAdmission {
        /// Only once the buffer can take the whole packet and its header-chunk copies, which are
        /// reserved (study 000 §4.2.2's VCT-emulation rule).
        Reserve = "reserve",
        /// As `reserve`, but up-bound packets may take the buffer's last chunks: the study's rule
        /// alone, without the share our model keeps for down-bound packets; it deadlocks on a tree under
        /// load (docs/models/central_buffer.md, "Up-bound packets leave room for down-bound ones").
        ReserveUnshared = "reserve_unshared",
        /// At once, without reservation: deliberately broken, it deadlocks under load (a watchdog test).
        Unreserved = "unreserved",
    }
}

choice! {
    /// When an output reads its next chunk from the central buffer.
    pub enum BufferReads {
        /// While it serialises the current chunk, into a second register (double-buffered output
        /// registers): outputs keep sending at full bandwidth with one read per cycle (study 000
        /// §4.1, §4.2).
        ReadAhead = "read_ahead",
        /// Only once its one register is empty: two outputs that empty their registers in the same
        /// cycle cannot both read, and one sends nothing that cycle (docs/models/central_buffer.md).
        WhenEmpty = "when_empty",
    }
}

params! {
    /// The SP central-buffer switch.
    pub struct Params {
        /// Depth of each input FIFO (study 000 §7.1, 002 §5.1: 64 flits).
        buffer_flits: u32 = 64, range(1, 4096), unit("flits");
        /// Cycles from a head's arrival to its departure through the crossbar at zero load (the SP
        /// switch: 6).
        router_delay_cycles: u32 = 6, range(1, 1000), unit("cycles");
        /// Cycles from a head's arrival to its output request and grant (FIFO read, route, request,
        /// grant); at most switch.router_delay_cycles.
        route_cycles: u32 = 4, range(1, 1000), unit("cycles");
        /// Flits per chunk (k for a k-port switch), the unit a buffered or replicating packet is
        /// deserialised into.
        chunk_flits: u32 = 8, range(1, 64), unit("flits");
        /// Capacity of the central buffer in chunks (256 = 4 KB of 2-byte flits).
        central_buffer_chunks: u32 = 256, range(1, 1_000_000), unit("chunks");
        /// With hardware multicast: `reserve` (study 000 §4.2.2's VCT-emulation rule: a replicating
        /// multicast's header enters only when the buffer can take the whole packet and its
        /// header-chunk copies, which are reserved, and up-bound packets leave that much room to
        /// down-bound ones), `reserve_unshared` (the study's rule without that share: deadlocks on a tree
        /// under load) or `unreserved` (deliberately broken: admitted at once; deadlocks under load).
        multicast_admission: MulticastAdmission = MulticastAdmission::Reserve;
        /// When an output reads its next chunk through the central buffer's one read port (least
        /// recently served output first): `read_ahead` (while it serialises the current chunk, into a
        /// second register, so that outputs keep sending at full bandwidth, study 000 §4.1–§4.2) or
        /// `when_empty` (only once its one register is empty: two outputs that empty their registers
        /// in the same cycle cannot both read, and one of them loses that cycle).
        buffer_reads: BufferReads = BufferReads::ReadAhead;
    }
}

impl Kind for CentralBuffer {
    const NAME: &'static str = "central_buffer";
    const DOC: &'static str = "SP buffered-wormhole switch: input FIFOs, crossbar cut-through, shared central \
                               buffer of chunks; replicates multicasts in the buffer (studies 000, 002)";
    type Params = Params;
}

/// Central-buffer chunks the largest replicating worm needs: its `worm_flits` (packet and header) in
/// chunks of `chunk_flits`, and a header-chunk copy per further output of the widest fan-out,
/// `down_ports` (study 000 §4.2). Up-bound packets leave this many chunks to down-bound ones, and the
/// buffer must hold twice as many (`scenario/rules.rs`).
pub fn replication_chunks(worm_flits: u32, down_ports: u32, chunk_flits: u32) -> u32 {
    worm_flits.div_ceil(chunk_flits) + down_ports - 1
}

/// Flits `first .. first + count` of `packet`, whose copy had made `hops` hops on arriving; `tail`:
/// the last of them is the packet's tail. (The flits say where the packet ends, so a chunk never
/// looks up the packet's length: on a saturated network that look-up is a cache miss per chunk.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Chunk {
    packet: u32,
    first: u32,
    count: u32,
    tail: bool,
    hops: u16,
}

impl Chunk {
    const EMPTY: Chunk = Chunk { packet: 0, first: 0, count: 0, tail: false, hops: 0 };

    fn flit(&self, i: u32) -> Flit {
        Flit::new(self.packet, self.first + i == 0, self.tail && i + 1 == self.count)
    }
    fn has_tail(&self) -> bool {
        self.tail
    }
}

/// A packet in (or entering) the central buffer: its chunks written and not yet read. They hold
/// consecutive flits `first .. end`, every chunk full but the one with the tail, so a range says
/// everything (no list of chunks, no allocation per packet). A multicast copy has one entry per
/// output: its header chunk is the output's own, its later chunks are shared ([`Shared`]).
#[derive(Debug, Clone, Copy)]
struct Queued {
    packet: u32,
    /// The chunk with the tail has been written.
    tail: bool,
    first: u32,
    end: u32,
    /// Chunks stored (not yet read by this output).
    stored: u32,
    hops: u16,
    /// One output's view of a replicated packet.
    multicast: bool,
}

impl Queued {
    fn new(chunk: Chunk, multicast: bool) -> Queued {
        let Chunk { packet, first, hops, .. } = chunk;
        Queued { packet, tail: false, first, end: first, stored: 0, hops, multicast }
    }

    fn push(&mut self, chunk: Chunk) {
        debug_assert_eq!(chunk.first, self.end, "chunks of a packet are written in order");
        self.end += chunk.count;
        self.stored += 1;
        self.tail = chunk.tail;
    }

    /// The oldest stored chunk, taken out.
    fn pop(&mut self, chunk_flits: u32) -> Option<Chunk> {
        if self.stored == 0 {
            return None;
        }
        let count = (self.end - self.first).min(chunk_flits);
        let tail = self.tail && self.first + count == self.end;
        let chunk = Chunk { packet: self.packet, first: self.first, count, tail, hops: self.hops };
        self.first += count;
        self.stored -= 1;
        Some(chunk)
    }
}

/// The shared chunks (all but the header chunk) of a multicast copy being replicated: how many
/// outputs have still to read each one (study 000 §4.2: a counter per chunk, initialised to the
/// replication degree; the last output to read a chunk frees it).
#[derive(Debug, Clone)]
struct Shared {
    packet: u32,
    /// Readers left per shared chunk, in write order (chunk 1 first).
    readers: Vec<u8>,
    /// Reads still owed over all written chunks.
    unread: u32,
    /// The tail has been written: no chunk will be added.
    written: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum InState {
    /// The front flit, if any, is a head that has not requested yet.
    Idle,
    /// The packet at the front cuts through the crossbar to this output.
    Crossbar(u8),
    /// The packet at the front goes into the central buffer, queued for this output.
    ToBuffer { out: u8, queued: bool },
    /// The multicast copy at the front is being replicated through the buffer (`Replica`).
    Replicate,
}

/// (As [`Output`]: what a flit arriving or leaving touches first, aligned to a cache line.)
#[derive(Debug, Clone)]
#[repr(C, align(64))]
struct Input {
    state: InState,
    link: InLink,
    fifo: FlitFifo,
    /// The chunk being assembled from the FIFO (count 0: empty).
    assembly: Chunk,
    /// Last cycle this input was given the central buffer's write port.
    served: Cycle,
}

/// An input's replicating multicast copy (kept apart from `Input`, which unicasts touch every cycle):
/// the outputs it goes to, those still without their own header chunk, the chunks its header chunk
/// waits to reserve (0 once reserved, or unreserved) and the reserved chunks not written yet (the
/// VCT-emulation rule).
#[derive(Debug, Clone, Copy, Default)]
struct Replica {
    fan: u64,
    header_left: u64,
    need: u32,
    prepaid: u32,
}

impl Input {
    /// The packet this input is writing: the one in its chunk register, or else at its FIFO front.
    fn assembly_or_front_packet(&self) -> Option<u32> {
        if self.assembly.count > 0 || self.assembly.first > 0 {
            Some(self.assembly.packet)
        } else {
            self.fifo.front().map(|f| f.packet())
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OutState {
    Idle,
    /// Connected through the crossbar to this input.
    Crossbar(u8),
    /// Sending the packet at the front of its queue; `register` holds the chunk being sent and
    /// `sent` how many of its flits have left. `then`: once the register is sent, continue through
    /// the crossbar from this input (the packet's remainder, taken over from a blocked write).
    FromBuffer {
        register: Option<Chunk>,
        sent: u32,
        then: Option<u8>,
    },
}

/// The ports in each state, as bit sets kept in step with every state change, so that each phase of
/// a cycle visits only the ports it concerns (near saturation every switch steps every cycle).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Ports {
    in_idle: u64,
    in_crossbar: u64,
    in_buffer: u64,
    out_idle: u64,
    out_crossbar: u64,
    out_buffer: u64,
    /// Inputs whose FIFO holds flits.
    fifo_nonempty: u64,
}

impl Ports {
    fn input(&mut self, p: usize, state: InState) {
        let kind = match state {
            InState::Idle => 0,
            InState::Crossbar(_) => 1,
            InState::ToBuffer { .. } | InState::Replicate => 2,
        };
        file([&mut self.in_idle, &mut self.in_crossbar, &mut self.in_buffer], kind, p);
    }
    fn output(&mut self, o: usize, state: OutState) {
        let kind = match state {
            OutState::Idle => 0,
            OutState::Crossbar(_) => 1,
            OutState::FromBuffer { .. } => 2,
        };
        file([&mut self.out_idle, &mut self.out_crossbar, &mut self.out_buffer], kind, o);
    }
    fn fifo(&mut self, p: usize, nonempty: bool) {
        self.fifo_nonempty = (self.fifo_nonempty & !(1 << p)) | ((nonempty as u64) << p);
    }
    /// Input `p`'s FIFO took a flit.
    #[inline]
    fn fifo_filled(&mut self, p: usize) {
        self.fifo_nonempty |= 1 << p;
    }
    /// Input `p`'s FIFO gave a flit and holds `left`.
    #[inline]
    fn fifo_gave(&mut self, p: usize, left: usize) {
        if left == 0 {
            self.fifo_nonempty &= !(1 << p);
        }
    }
    /// The sets as the ports' states say they should be.
    fn of(inputs: &[Input], outputs: &[Output]) -> Ports {
        let mut ports = Ports::default();
        for (p, i) in inputs.iter().enumerate() {
            ports.input(p, i.state);
            ports.fifo(p, !i.fifo.is_empty());
        }
        for (o, out) in outputs.iter().enumerate() {
            ports.output(o, out.state);
        }
        ports
    }
}

/// Puts bit `i` into `sets[kind]` and takes it out of the others.
#[inline]
fn file(mut sets: [&mut u64; 3], kind: usize, i: usize) {
    for set in sets.iter_mut() {
        **set &= !(1 << i);
    }
    *sets[kind] |= 1 << i;
}

/// (What a flit leaving touches comes first, in one cache line of its own: near saturation every
/// port of every switch is visited every cycle, more ports than the first-level cache holds.)
#[derive(Debug, Clone)]
#[repr(C, align(64))]
struct Output {
    state: OutState,
    /// The channel; its free downstream slots are in its credit lane (`StepCtx::credits`).
    link: OutLink,
    window_flits: u64,
    /// Last cycle this output was given the central buffer's read port.
    served: Cycle,
    /// `read_ahead`: the chunk read while the register's is being sent (the second register of a
    /// double-buffered output); it moves into the register when that one is sent. Empty whenever
    /// the register is.
    ahead: Option<Chunk>,
    /// Packets queued in the central buffer for this output, in header-chunk write order.
    queue: VecDeque<Queued>,
    /// Inputs from least to most recently granted.
    grant_order: Recency,
}

impl Output {
    /// The queue entry this output reads its next chunk from, if it has room for the chunk and the
    /// buffer holds it. With its register empty: the front packet's next chunk. `read_ahead`, while
    /// the register's chunk is being sent and the second register is empty: the same packet's next
    /// chunk, or after its tail chunk the next packet's first. (Never while the rest of a packet taken
    /// over from a blocked write follows through the crossbar.)
    fn entry_to_read(&self, reads: BufferReads) -> Option<usize> {
        let OutState::FromBuffer { register, then: None, .. } = self.state else {
            return None;
        };
        let entry = match (reads, register) {
            (_, None) => 0,
            (BufferReads::ReadAhead, Some(chunk)) if self.ahead.is_none() => chunk.has_tail() as usize,
            _ => return None,
        };
        self.queue.get(entry).is_some_and(|q| q.stored > 0).then_some(entry)
    }

    /// Flits in its registers still to send.
    fn flits_to_send(&self) -> u32 {
        let ahead = self.ahead.map_or(0, |c| c.count);
        match self.state {
            OutState::FromBuffer { register: Some(c), sent, .. } => c.count - sent + ahead,
            _ => ahead,
        }
    }
}

#[derive(Debug, Clone)]
pub struct CentralBuffer {
    chunk_flits: u32,
    fifo_flits: usize,
    capacity: u32,
    free_chunks: u32,
    selection: Selection,
    history: SelectionHistory,
    inputs: Vec<Input>,
    outputs: Vec<Output>,
    ports: Ports,
    cands: Candidates,
    /// Flits held, a stored flit once per output still to read it.
    flits: u32,
    /// Multicast copies whose shared chunks are in the buffer, and each input's replicating copy.
    shared: Vec<Shared>,
    replicas: Vec<Replica>,
    admission: MulticastAdmission,
    reads: BufferReads,
    /// With multicasts replicating: the outputs that lead up the tree, and the chunks packets bound
    /// for them must leave free (`kept_from`).
    up: u64,
    reserve: u32,
}

impl Model for CentralBuffer {
    fn flow_control(_: &Params) -> FlowControl {
        FlowControl::Wormhole
    }
    fn buffer_flits(p: &Params) -> u32 {
        p.buffer_flits
    }
    fn router_delay_cycles(p: &Params) -> u32 {
        p.router_delay_cycles
    }
    fn input_delay(p: &Params) -> u32 {
        p.route_cycles
    }
    fn sized_by(_: &Params) -> &'static str {
        "switch.buffer_flits, switch.central_buffer_chunks"
    }

    /// A bidirectional multistage network whose every link goes up or down a level (sp128's intermediate
    /// boards link chips of one level).
    fn replicates_on(_: &Params) -> &'static [&'static str] {
        &["fat_tree", "sp16"]
    }

    fn needs(_: &Params) -> &'static str {
        "`switch.route_cycles` at most `switch.router_delay_cycles` (a head's route is read within the router's \
         delay); with multidestination worms, `switch.central_buffer_chunks` at least twice a worm's chunks plus \
         one header-chunk copy per further down port"
    }
    fn unfit(p: &Params, f: &Facts) -> Vec<Problem> {
        let mut problems: Vec<Problem> =
            route_cycles_unfit(p.route_cycles, p.router_delay_cycles).into_iter().collect();
        if let Some(worm) = f.multidestination_worm {
            // (twice: up-bound packets leave the last worm's worth to down-bound ones, `new`)
            let need = 2 * replication_chunks(worm, f.radix / 2, p.chunk_flits);
            if p.central_buffer_chunks < need {
                let allowed = format!(
                    "at least {need}: twice a whole worm and a header-chunk copy per further down port (one such \
                     share is kept for down-bound packets)"
                );
                problems.push(Problem::new(
                    "switch.central_buffer_chunks",
                    p.central_buffer_chunks.to_string(),
                    allowed,
                    None,
                ));
            }
        }
        problems
    }

    /// (input FIFOs and the central buffer's chunks, everything else)
    fn bytes(s: &Params, topo: &Topology) -> (u64, u64) {
        let (ports, routers) = (topo.links.len() as u64, topo.routers() as u64);
        // (a FIFO keeps its flits as runs of one worm each, at worst one per flit)
        let fifos = ports * FlitFifo::spill_bytes(s.buffer_flits) as u64;
        // A stored chunk is a record (packet, first flit, count); at most one queue entry per chunk.
        let chunks = routers * s.central_buffer_chunks as u64 * std::mem::size_of::<Queued>() as u64; // at most one packet per chunk
        let per_port = std::mem::size_of::<Input>() + std::mem::size_of::<Output>() + topo.max_radix();
        (fifos + chunks, ports * per_port as u64 + routers * std::mem::size_of::<CentralBuffer>() as u64)
    }

    /// With multidestination worms on a tree, packets bound up (outputs `up`) may not take the buffer's
    /// last chunks: a replicating multicast (always bound down) must eventually find room for all of its
    /// chunks. Without this, the buffers of a leaf full of up-bound chunks and of its parent full of
    /// down-bound chunks wait on each other: the leaf's input holds a multicast waiting for room, and
    /// the parent's inputs hold multicasts waiting for theirs (our reading: the study's guarantee
    /// that an admitted packet "will eventually obtain space" needs it; docs/models/central_buffer.md,
    /// "Replication"). Down-bound chunks always drain (towards terminals), so the reserve always comes free.
    fn new(sw: &Params, site: &Site) -> CentralBuffer {
        let (topo, router) = (site.topo, site.router);
        let radix = topo.radix(router);
        let shared = sw.multicast_admission != MulticastAdmission::ReserveUnshared;
        let (up, reserve) = match (site.routing.multicast(), site.largest_worm) {
            (Some(tree), Some(worm)) if shared => {
                (tree.up_ports(router), replication_chunks(worm, tree.max_down_ports(), sw.chunk_flits))
            }
            _ => (0, 0),
        };
        assert!(radix <= 64, "router radix above 64 is not supported");
        let (out_links, in_links) = links_of(topo, router, Timing::of::<Self>(sw));
        let inputs: Vec<Input> = in_links
            .into_iter()
            .map(|link| Input {
                link,
                fifo: FlitFifo::default(),
                state: InState::Idle,
                assembly: Chunk::EMPTY,
                served: 0,
            })
            .collect();
        let outputs: Vec<Output> = out_links
            .into_iter()
            .map(|link| Output {
                link,
                state: OutState::Idle,
                queue: VecDeque::new(),
                grant_order: Recency::new(radix),
                served: 0,
                ahead: None,
                window_flits: 0,
            })
            .collect();
        CentralBuffer {
            chunk_flits: sw.chunk_flits,
            fifo_flits: sw.buffer_flits as usize,
            capacity: sw.central_buffer_chunks,
            free_chunks: sw.central_buffer_chunks,
            selection: site.selection(radix),
            history: site.history,
            ports: Ports::of(&inputs, &outputs),
            inputs,
            outputs,
            cands: Candidates::default(),
            flits: 0,
            shared: Vec::new(),
            replicas: vec![Replica::default(); radix],
            admission: sw.multicast_admission,
            reads: sw.buffer_reads,
            up,
            reserve,
        }
    }

    #[inline]
    fn flits(&self) -> u32 {
        self.flits
    }

    #[inline]
    fn accept_flit(&mut self, port: u8, _vc: u8, flit: Flit, hops: u16, _now: Cycle) -> bool {
        let input = &mut self.inputs[port as usize];
        if input.fifo.len() == self.fifo_flits {
            return false;
        }
        input.fifo.push(flit, hops);
        self.ports.fifo_filled(port as usize);
        self.flits += 1;
        true
    }

    fn window_flits(&self, port: u8) -> u64 {
        self.outputs[port as usize].window_flits
    }

    /// Every chunk is free or holds flits of a queued packet, and every flit the router counts is
    /// in a FIFO, a chunk register or a stored chunk.
    fn check_accounting(&self) -> Result<(), String> {
        if self.ports != Ports::of(&self.inputs, &self.outputs) {
            return Err(format!("port state sets {:?} do not match the ports' states", self.ports));
        }
        // A unicast's chunks and a multicast's header-chunk copies belong to one output each; a
        // shared chunk is stored once while any reader is left.
        let queued = self.outputs.iter().flat_map(|o| &o.queue);
        let own: u32 = queued.map(|q| if q.multicast { (q.first == 0 && q.stored > 0) as u32 } else { q.stored }).sum();
        let shared: u32 = self.shared.iter().map(|s| s.readers.iter().filter(|&&r| r > 0).count() as u32).sum();
        let prepaid: u32 = self.replicas.iter().map(|r| r.prepaid).sum();
        if own + shared + prepaid + self.free_chunks != self.capacity {
            return Err(format!(
                "{own} chunks stored for one output + {shared} shared + {prepaid} reserved + {} free != capacity {}",
                self.free_chunks, self.capacity
            ));
        }
        for s in &self.shared {
            let readers: u32 = s.readers.iter().map(|&r| r as u32).sum();
            if readers != s.unread {
                return Err(format!("packet {}: {readers} chunk reads owed but {} counted", s.packet, s.unread));
            }
        }
        let fifo: u32 = self.inputs.iter().map(|i| i.fifo.len() as u32 + i.assembly.count).sum();
        let chunks: u32 = self.outputs.iter().flat_map(|o| &o.queue).map(|q| q.end - q.first).sum();
        if let Some(o) = self.outputs.iter().position(|o| {
            o.ahead.is_some() && !matches!(o.state, OutState::FromBuffer { register: Some(_), then: None, .. })
        }) {
            return Err(format!("out-port {o} holds a chunk read ahead but is not sending one from its register"));
        }
        let registers: u32 = self.outputs.iter().map(Output::flits_to_send).sum();
        if fifo + chunks + registers != self.flits {
            return Err(format!(
                "{} flits counted but {fifo} in FIFOs, {chunks} in chunks, {registers} in registers",
                self.flits
            ));
        }
        Ok(())
    }

    fn step(&mut self, me: u32, ctx: &mut StepCtx) {
        let now = ctx.now;
        // Heads request first, so a packet refused the crossbar starts into its chunk register in
        // the same cycle, and a chunk can be written, read and sent in the cycle it completes: the
        // buffer path then costs exactly the assembly (7 cycles for 8-flit chunks, study 000 §7.1).
        self.request_and_grant(me, ctx);
        if self.free_chunks <= self.reserve {
            self.take_over_blocked_writes();
        }
        let (mut moved, sent) = self.crossbar(ctx);
        self.fill_assemblies(ctx);
        self.write_chunk(now, ctx);
        // An output that just sent a crossbar tail starts on its queue next cycle.
        for o in ones(self.ports.out_idle & !sent) {
            let out = &mut self.outputs[o];
            if !out.queue.is_empty() {
                out.state = OutState::FromBuffer { register: None, sent: 0, then: None };
                self.ports.output(o, out.state);
            }
        }
        self.read_chunk(now);
        moved += self.send_from_buffer(ctx, sent);
        if moved > 0 {
            ctx.counters.flit_hops += moved;
            ctx.counters.last_progress = now;
        }
    }

    fn blocked(&self, me: u32, credits: &[u32]) -> Vec<BlockedChannel> {
        self.blocked_channels(me, credits)
    }
}

impl CentralBuffer {
    /// Chunks an input writing for `out` must leave free.
    #[inline]
    fn kept_from(&self, out: u8) -> u32 {
        if self.up & (1 << out) != 0 {
            self.reserve
        } else {
            0
        }
    }

    /// The central buffer's write port: one complete chunk per cycle, least recently served input
    /// among those with a chunk ready and room for it (a free chunk, or one reserved at admission).
    fn write_chunk(&mut self, now: Cycle, ctx: &mut StepCtx) {
        let c = self.chunk_flits;
        let room = |p: usize| match self.inputs[p].state {
            InState::ToBuffer { out, .. } => self.free_chunks > self.kept_from(out),
            _ => {
                let r = &self.replicas[p];
                // (a header chunk not yet admitted needs room for the whole packet at once)
                if r.need > 0 {
                    self.free_chunks >= r.need
                } else {
                    r.prepaid > 0 || self.free_chunks > 0
                }
            }
        };
        let ready = |p: usize| {
            let a = &self.inputs[p].assembly;
            (a.count == c || (a.count > 0 && a.has_tail())) && room(p)
        };
        // (only inputs bound for the buffer assemble chunks)
        let Some(p) = least_served(ones(self.ports.in_buffer).filter(|&p| ready(p)), |p| self.inputs[p].served) else {
            return;
        };
        let input = &mut self.inputs[p];
        input.served = now;
        let replica = &mut self.replicas[p];
        if replica.need > 0 {
            // The header chunk enters: the packet's chunks are reserved with its first write.
            self.free_chunks -= replica.need;
            replica.prepaid = replica.need;
            replica.need = 0;
        }
        if replica.prepaid > 0 {
            replica.prepaid -= 1;
        } else {
            self.free_chunks -= 1;
        }
        let chunk = input.assembly;
        if input.state == InState::Replicate {
            if !self.write_replica(p, chunk, ctx) {
                return; // more header-chunk copies to write from the same register
            }
        } else {
            let InState::ToBuffer { out, queued } = input.state else {
                unreachable!("assembling input goes to the buffer")
            };
            let queue = &mut self.outputs[out as usize].queue;
            if queued {
                // Other inputs may have queued packets for this output since: find this one.
                let entry = queue.iter_mut().rev().find(|q| q.packet == chunk.packet).expect("the packet is queued");
                entry.push(chunk);
            } else {
                let mut entry = Queued::new(chunk, false);
                entry.push(chunk);
                queue.push_back(entry);
            }
            if !chunk.has_tail() {
                input.state = InState::ToBuffer { out, queued: true };
            }
        }
        let input = &mut self.inputs[p];
        input.assembly.count = 0;
        if chunk.has_tail() {
            input.state = InState::Idle;
            self.replicas[p].fan = 0;
            input.assembly = Chunk::EMPTY;
        } else {
            input.assembly.first = chunk.first + chunk.count;
        }
        self.ports.input(p, input.state);
    }

    /// Writes `chunk` of the multicast copy input `p` replicates (study 000 §4.2): the header chunk
    /// once per output, each copy heading that output's own queue entry, so the per-output packet
    /// lists stay disjoint; every later chunk once, shared by all outputs with a counter of readers.
    /// Returns false while header copies remain to be written from the chunk register.
    fn write_replica(&mut self, p: usize, chunk: Chunk, ctx: &mut StepCtx) -> bool {
        let input = &mut self.replicas[p];
        let fan = input.fan;
        let copies;
        let done = if input.header_left != 0 {
            let o = input.header_left.trailing_zeros() as usize;
            input.header_left &= input.header_left - 1;
            if input.header_left == fan & (fan - 1) {
                // (the first header write)
                self.shared.push(Shared { packet: chunk.packet, readers: Vec::new(), unread: 0, written: false });
            }
            let mut entry = Queued::new(chunk, true);
            entry.push(chunk);
            self.outputs[o].queue.push_back(entry);
            // (the register keeps its flits until the last copy is written)
            let last = input.header_left == 0;
            copies = if last { 0 } else { chunk.count };
            last
        } else {
            let k = fan.count_ones();
            for o in ones(fan) {
                let entry = self.outputs[o].queue.iter_mut().rev().find(|q| q.packet == chunk.packet && q.multicast);
                entry.expect("every output of the fan-out has its entry").push(chunk);
            }
            let shared = self.shared_of(chunk.packet);
            shared.readers.push(k as u8);
            shared.unread += k;
            copies = chunk.count * (k - 1);
            true
        };
        self.flits += copies;
        ctx.counters.copied_flits += copies as u64;
        if done && chunk.has_tail() {
            let i = self.shared.iter().position(|s| s.packet == chunk.packet).expect("replicating");
            self.shared[i].written = true;
            if self.shared[i].unread == 0 {
                self.shared.swap_remove(i);
            }
        }
        done
    }

    fn shared_of(&mut self, packet: u32) -> &mut Shared {
        self.shared.iter_mut().find(|s| s.packet == packet).expect("a replicating packet has its shared chunks")
    }

    /// An output read `chunk` of a multicast copy: its own header chunk is freed; a shared chunk is
    /// freed by its last reader.
    fn release_replica(&mut self, chunk: Chunk) {
        if chunk.first == 0 {
            self.free_chunks += 1;
            return;
        }
        let index = (chunk.first / self.chunk_flits - 1) as usize;
        let i = self.shared.iter().position(|s| s.packet == chunk.packet).expect("a shared chunk has its record");
        let shared = &mut self.shared[i];
        shared.readers[index] -= 1;
        shared.unread -= 1;
        if shared.readers[index] == 0 {
            self.free_chunks += 1;
        }
        if shared.written && shared.unread == 0 {
            self.shared.swap_remove(i);
        }
    }

    /// Inputs bound for the central buffer read one flit per cycle into their chunk register.
    fn fill_assemblies(&mut self, ctx: &mut StepCtx) {
        let c = self.chunk_flits;
        for p in ones(self.ports.in_buffer) {
            let input = &mut self.inputs[p];
            let a = &input.assembly;
            if a.count == c || (a.count > 0 && a.has_tail()) {
                continue;
            }
            let Some(flit) = input.fifo.pop() else { continue };
            let a = &mut input.assembly;
            if a.count == 0 {
                a.packet = flit.packet();
                a.hops = input.fifo.hops;
                if flit.head() {
                    a.first = 0;
                }
            }
            a.count += 1;
            a.tail = flit.tail();
            self.ports.fifo_gave(p, input.fifo.len());
            ctx.send_credit(input.link, 0);
        }
    }

    /// Idle inputs with a head at the front make their one attempt at the crossbar.
    fn request_and_grant(&mut self, me: u32, ctx: &mut StepCtx) {
        // Most cycles no head is waiting: skip the request tables.
        let waiting = self.ports.in_idle & self.ports.fifo_nonempty;
        if waiting == 0 {
            return;
        }
        let mut requests = [0u64; 64];
        let mut requesting = 0u64;
        let mut requested = 0u64;
        let mut wanted = [0u64; 64];
        for p in ones(waiting) {
            let input = &self.inputs[p];
            let flit = input.fifo.front().expect("a waiting input has a head");
            debug_assert!(flit.head(), "an idle input's front flit is a head");
            let hops = input.fifo.front_hops();
            let header = &ctx.packets[flit.packet()].header;
            let at = At { router: me, in_port: p as u8, in_vc: 0, hops };
            let mask = match ctx.routing.step(ctx.topo, at, header, ctx.sets, &mut self.cands) {
                Step::Choose => {
                    // (a routing that chooses by the queues downstream, as the input-buffered router)
                    let (outputs, depth) = (&self.outputs, self.fifo_flits as u32);
                    ctx.routing.decide(
                        at,
                        header,
                        &mut self.cands,
                        |o| ctx.queued(outputs[o as usize].link, 1, depth),
                        |r, o| ctx.queued_at(r, o),
                    );
                    self.cands.ports()
                }
                // One branch: the copy goes on as a unicast would.
                Step::FanOut(mask) if mask.count_ones() == 1 => mask,
                Step::FanOut(mask) => {
                    self.admit_replica(p, mask, header.flits);
                    continue;
                }
            };
            wanted[p] = mask;
            requesting |= 1 << p;
            requested |= mask;
            for o in ones(mask) {
                requests[o] |= 1 << p;
            }
        }
        if requesting == 0 {
            return;
        }
        // Free outputs grant one requester each, least recently granted first.
        let mut grants = [0u64; 64];
        for o in ones(requested & self.ports.out_idle) {
            let out = &self.outputs[o];
            if out.queue.is_empty() {
                let p = out.grant_order.least_recent(requests[o]) as usize;
                grants[p] |= 1 << o;
            }
        }
        let mut pending = requesting;
        while pending != 0 {
            let p = pending.trailing_zeros() as usize;
            pending &= pending - 1;
            let flit = self.inputs[p].fifo.front().expect("requesting input has a head");
            let choice = selection_request(p as u8, flit, &self.selection, ctx);
            let mut cands = Candidates::default();
            let has_grants = grants[p] != 0;
            let offered = if has_grants { grants[p] } else { wanted[p] };
            cands.push_ports(offered, 0, 1);
            let (o, _) = self.selection.choose(choice, &cands, |_, _| true).expect("a candidate");
            if records(self.history, wanted[p]) {
                self.selection.commit(choice, o);
            }
            if has_grants {
                let out = &mut self.outputs[o as usize];
                out.grant_order.touch(p as u8);
                out.state = OutState::Crossbar(p as u8);
                self.inputs[p].state = InState::Crossbar(o);
                self.ports.output(o as usize, out.state);
            } else {
                self.inputs[p].state = InState::ToBuffer { out: o, queued: false };
            }
            self.ports.input(p, self.inputs[p].state);
        }
    }

    /// A multicast copy at input `p` that replicates to the outputs of `fan` (two or more) goes
    /// through the central buffer, never the crossbar (study 000 §4.2.2). Its flits start into the
    /// chunk register at once; under the VCT-emulation rule its header chunk is written only when the
    /// buffer can take the whole packet — its chunks plus one header-chunk copy per further output —
    /// and those chunks are reserved with that write (`write_chunk`): "The packet header chunk is not
    /// allowed to enter the central buffer until there is a guarantee …", "When the header chunk is
    /// written … the required number of chunks are reserved". `unreserved` writes it as chunks free up
    /// (the rule's deliberate breakage: the switch can deadlock).
    fn admit_replica(&mut self, p: usize, fan: u64, flits: u32) {
        let need = match self.admission {
            MulticastAdmission::Reserve | MulticastAdmission::ReserveUnshared => {
                flits.div_ceil(self.chunk_flits) + fan.count_ones() - 1
            }
            MulticastAdmission::Unreserved => 0,
        };
        self.replicas[p] = Replica { fan, header_left: fan, need, prepaid: 0 };
        let input = &mut self.inputs[p];
        input.state = InState::Replicate;
        self.ports.input(p, input.state);
    }

    /// With the buffer full, outputs take the unstored remainder of the packet they have come to
    /// straight from its input (see the module notes).
    fn take_over_blocked_writes(&mut self) {
        // (only an idle output or one serving the buffer can come to such a packet, and only an input
        // writing into the buffer can be its writer)
        for o in ones(self.ports.out_idle | self.ports.out_buffer) {
            if self.free_chunks > self.kept_from(o as u8) {
                continue; // its writers are not blocked
            }
            let out = &self.outputs[o];
            // The packet this output has come to and has nothing stored of, if any.
            // (never a multicast's: its chunks are all written to the buffer, reserved or not)
            let packet = match (out.state, out.queue.front()) {
                (OutState::FromBuffer { register: None, then: None, .. }, Some(q)) if q.stored == 0 && !q.multicast => {
                    Some(q.packet)
                }
                (OutState::Idle, None) => None,
                _ => continue,
            };
            let writer = ones(self.ports.in_buffer).find(|&p| match self.inputs[p].state {
                InState::ToBuffer { out: to, queued } => {
                    to as usize == o
                        && match packet {
                            Some(packet) => queued && self.inputs[p].assembly_or_front_packet() == Some(packet),
                            // Nothing of it written yet: it never entered the buffer.
                            None => !queued,
                        }
                }
                _ => false,
            });
            let Some(p) = writer else { continue };
            let out = &mut self.outputs[o];
            if packet.is_some() {
                out.queue.pop_front();
            }
            let input = &mut self.inputs[p];
            let assembly = input.assembly;
            input.assembly.count = 0;
            if assembly.count == 0 {
                out.state = OutState::Crossbar(p as u8);
                input.state = InState::Crossbar(o as u8);
            } else if assembly.has_tail() {
                out.state = OutState::FromBuffer { register: Some(assembly), sent: 0, then: None };
                out.queue.push_front(Queued::new(assembly, false));
                input.state = InState::Idle;
                input.assembly = Chunk::EMPTY;
            } else {
                out.state = OutState::FromBuffer { register: Some(assembly), sent: 0, then: Some(p as u8) };
                input.assembly.first = assembly.first + assembly.count;
                input.state = InState::Crossbar(o as u8);
            }
            self.ports.input(p, input.state);
            self.ports.output(o, out.state);
        }
    }

    /// Crossbar connections move one flit per cycle as credits allow. Returns the flits moved and the
    /// outputs that sent one.
    fn crossbar(&mut self, ctx: &mut StepCtx) -> (u64, u64) {
        let (mut moved, mut sent) = (0, 0u64);
        for o in ones(self.ports.out_crossbar) {
            let OutState::Crossbar(p) = self.outputs[o].state else { unreachable!("listed as crossbar") };
            let out = &mut self.outputs[o];
            if ctx.credits(out.link, 0) == 0 {
                continue;
            }
            let input = &mut self.inputs[p as usize];
            let Some(flit) = input.fifo.pop() else { continue };
            self.ports.fifo_gave(p as usize, input.fifo.len());
            ctx.spend_credit(out.link, 0);
            out.window_flits += ctx.measuring as u64;
            self.flits -= 1;
            moved += 1;
            sent |= 1 << o;
            ctx.send_credit(input.link, 0);
            ctx.send_flit(out.link, 0, flit, input.fifo.hops);
            if flit.tail() {
                out.state = OutState::Idle;
                input.state = InState::Idle;
                self.ports.output(o, OutState::Idle);
                self.ports.input(p as usize, InState::Idle);
            }
        }
        (moved, sent)
    }

    /// The central buffer's read port: one chunk per cycle ("1 RAM read port … to match the input and
    /// output bandwidth of the switch", study 000 §4.1), to the least recently served output serving
    /// its queue that has room for a chunk and a chunk in the buffer to read. Room: `read_ahead`, an
    /// empty register or, while the register's chunk is being sent, an empty second register;
    /// `when_empty`, an empty register.
    fn read_chunk(&mut self, now: Cycle) {
        let reads = self.reads;
        let candidates = ones(self.ports.out_buffer).filter(|&o| self.outputs[o].entry_to_read(reads).is_some());
        let Some(o) = least_served(candidates, |o| self.outputs[o].served) else {
            return;
        };
        let out = &mut self.outputs[o];
        let entry = out.entry_to_read(reads).expect("a candidate");
        let queued = &mut out.queue[entry];
        let chunk = queued.pop(self.chunk_flits).expect("a chunk");
        let multicast = queued.multicast;
        match &mut out.state {
            OutState::FromBuffer { register: register @ None, sent, .. } => {
                *register = Some(chunk);
                *sent = 0;
            }
            _ => out.ahead = Some(chunk),
        }
        out.served = now;
        if multicast {
            self.release_replica(chunk);
        } else {
            self.free_chunks += 1;
        }
    }

    /// Outputs serving the central buffer send one flit per cycle from their register (not those
    /// that already sent one through the crossbar this cycle).
    fn send_from_buffer(&mut self, ctx: &mut StepCtx, busy: u64) -> u64 {
        let mut moved = 0;
        for o in ones(self.ports.out_buffer) {
            let out = &mut self.outputs[o];
            let OutState::FromBuffer { register: Some(chunk), sent, then } = out.state else { continue };
            if ctx.credits(out.link, 0) == 0 || busy & (1 << o) != 0 {
                continue;
            }
            let flit = chunk.flit(sent);
            ctx.spend_credit(out.link, 0);
            out.window_flits += ctx.measuring as u64;
            self.flits -= 1;
            moved += 1;
            ctx.send_flit(out.link, 0, flit, chunk.hops);
            // (most flits only advance the register's count: the port's state set stays as it is)
            if flit.tail() {
                out.queue.pop_front();
                // (read ahead: the next packet's first chunk, sent from the next cycle on)
                out.state = match out.ahead.take() {
                    Some(next) => OutState::FromBuffer { register: Some(next), sent: 0, then: None },
                    None => OutState::Idle,
                };
                self.ports.output(o, out.state);
            } else if sent + 1 == chunk.count {
                out.state = match then {
                    Some(p) => OutState::Crossbar(p),
                    None => OutState::FromBuffer { register: out.ahead.take(), sent: 0, then: None },
                };
                self.ports.output(o, out.state);
            } else if let OutState::FromBuffer { sent, .. } = &mut out.state {
                *sent += 1;
            }
        }
        moved
    }

    fn blocked_channels(&self, me: u32, credits: &[u32]) -> Vec<BlockedChannel> {
        let mut out = Vec::new();
        for (p, input) in self.inputs.iter().enumerate() {
            if input.fifo.is_empty() && input.assembly.count == 0 {
                continue;
            }
            let reason = match input.state {
                InState::Idle => "head waiting to request".to_string(),
                InState::Crossbar(o) if credits[self.outputs[o as usize].link.lane as usize] == 0 => {
                    format!("cutting through to out-port {o}, which has no credit")
                }
                InState::Crossbar(o) => format!("cutting through to out-port {o}, waiting for its flits"),
                InState::ToBuffer { out: o, .. } => {
                    format!("writing into the central buffer for out-port {o} ({} chunks free)", self.free_chunks)
                }
                InState::Replicate => format!(
                    "replicating a multicast into the central buffer for out-ports {:?} ({} chunks reserved, {} \
                     still to reserve, {} free)",
                    ones(self.replicas[p].fan).collect::<Vec<_>>(),
                    self.replicas[p].prepaid,
                    self.replicas[p].need,
                    self.free_chunks
                ),
            };
            let flits = input.fifo.len() as u32 + input.assembly.count;
            out.push(BlockedChannel { router: me, in_port: p as u8, vc: 0, flits, reason });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::credits::Lanes;
    use crate::dest_set::Pending;
    use crate::packet::{Dest, Header, Packet};
    use crate::scenario::Scenario;
    use crate::switch::{Alone, SwitchKind};

    /// A top switch of the 16-node tree: its down port p leads to leaf p.
    const ME: u32 = 4;

    /// Switch `ME` alone, and a 64-flit multicast to leaves 1 and 2 (nodes 5 and 9) to arrive at its
    /// input 0: the switch, its surroundings, the network's lanes and the packet.
    fn top_switch_with_a_multicast() -> (CentralBuffer, Alone, Lanes, u32) {
        let s = Scenario::of(serde_json::json!({
            "network": {"topology": "fat_tree", "k": 4, "n": 2},
            "switch": {"model": "central_buffer"},
            "routing": {"algorithm": "adaptive"},
        }));
        let topo = s.topology().unwrap();
        let routing = s.routing(&topo).unwrap().with_multicast(&topo).unwrap();
        let site = Site { router: ME, ..s.switch_site(&topo, &routing) };
        let SwitchKind::CentralBuffer(params) = &s.switch.model else { unreachable!() };
        let sw = CentralBuffer::new(params, &site);
        let lanes = Lanes::new(&topo, 1);
        let mut alone = Alone::new(topo.clone(), routing, lanes.initial(&topo, 64));
        let set = alone.sets.insert([5, 9]);
        let mut header = Header::new(0, Dest::Set(set), 0, 64, 0, false, 0);
        header.turn = 1;
        let pending = Pending::new(&[5, 9], &mut alone.sets);
        let p = alone.packets.insert(Packet::new(header, pending, 0));
        (sw, alone, lanes, p)
    }

    /// A unicast of `flits` flits from node `src` to node `dst`, in `alone`'s slab.
    fn unicast(alone: &mut Alone, src: u32, dst: u32, flits: u32) -> u32 {
        alone.packets.insert(Packet::unicast(Header::new(src, Dest::One(dst), 0, flits, 0, false, 0)))
    }

    /// The cycle in which out-ports 1 and 2 get their credits back (`released_together`).
    const RELEASE: Cycle = 200;

    /// Feeds `sw` the packets `(input, packet, flits, from)`, one flit per input per cycle from cycle
    /// `from` on as its FIFO takes them; out-ports 1 and 2 run out of the credits the test gave them
    /// meanwhile, so by `RELEASE` every flit is stored in the central buffer or in their registers.
    /// Then both get their credits back in the same cycle: they start sending together and empty
    /// their registers in the same cycles. Returns the cycles in which each of them sent a flit from
    /// `RELEASE` on.
    fn released_together(
        mut sw: CentralBuffer,
        mut alone: Alone,
        lanes: &Lanes,
        feeds: &[(u8, u32, u32, Cycle)],
    ) -> [Vec<Cycle>; 2] {
        let watch = [1, 2].map(|o| lanes.router_output(&alone.topo, ME, o) as usize);
        let mut fed = vec![0; feeds.len()];
        let mut sends = [Vec::new(), Vec::new()];
        for now in 0.. {
            if now == RELEASE {
                assert!(sw.inputs.iter().all(|i| i.fifo.is_empty() && i.assembly.count == 0), "all stored");
                for &lane in &watch {
                    assert_eq!(alone.credits[lane], 0, "the outputs wait for credits");
                    alone.credits[lane] = 1_000;
                }
            }
            for (i, &(port, packet, flits, from)) in feeds.iter().enumerate() {
                let f = fed[i];
                if now >= from
                    && f < flits
                    && sw.accept_flit(port, 0, Flit::new(packet, f == 0, f + 1 == flits), 1, now)
                {
                    fed[i] += 1;
                }
            }
            let credits = watch.map(|lane| alone.credits[lane]);
            alone.cycle(now, |ctx| sw.step(ME, ctx));
            sw.check_accounting().unwrap();
            for (k, &lane) in watch.iter().enumerate() {
                if now >= RELEASE && alone.credits[lane] < credits[k] {
                    sends[k].push(now);
                }
            }
            if now > RELEASE && [1, 2].iter().all(|&o| sw.outputs[o].state == OutState::Idle) {
                break;
            }
            assert!(now < 2_000, "the outputs never finished");
        }
        assert_eq!(sw.free_chunks, sw.capacity, "every chunk comes back");
        sends
    }

    /// 64 consecutive cycles from `RELEASE` on, or with one skipped after the first chunk (8 flits).
    fn sending(skips: bool) -> Vec<Cycle> {
        (0..64).map(|i| RELEASE + i + (skips && i >= 8) as Cycle).collect()
    }

    /// Study 000 §4.1–§4.2: the one read port matches the outputs' bandwidth. Two outputs, each with
    /// a stored unicast of 64 flits, start sending in the same cycle: with read-ahead both send a
    /// flit every cycle; reading only into an empty register, one of them loses a cycle when both
    /// registers empty together after the first chunk.
    #[test]
    fn two_outputs_emptying_their_registers_together_both_keep_sending() {
        for reads in [BufferReads::ReadAhead, BufferReads::WhenEmpty] {
            let (mut sw, mut alone, lanes, _) = top_switch_with_a_multicast();
            sw.reads = reads;
            // X and Y (8 flits) take out-ports 1 and 2 through the crossbar; A and B (64 flits), for
            // the same out-ports, arrive a cycle later, are refused and go into the central buffer;
            // X and Y use up the outputs' 8 credits.
            let x = unicast(&mut alone, 0, 4, 8);
            let y = unicast(&mut alone, 0, 8, 8);
            let a = unicast(&mut alone, 1, 5, 64);
            let b = unicast(&mut alone, 13, 9, 64);
            for o in [1, 2] {
                alone.credits[lanes.router_output(&alone.topo, ME, o) as usize] = 8;
            }
            let feeds = [(1, x, 8, 0), (2, y, 8, 0), (0, a, 64, 1), (3, b, 64, 1)];
            let sends = released_together(sw, alone, &lanes, &feeds);
            match reads {
                BufferReads::ReadAhead => assert_eq!(sends, [sending(false), sending(false)], "full bandwidth on both"),
                BufferReads::WhenEmpty => {
                    assert_eq!(sends, [sending(false), sending(true)], "out-port 2 loses the read port once")
                }
            }
        }
    }

    /// Study 000 §4.2: "all k_s output ports are reading the packet at full bandwidth". A multicast
    /// stored whole for leaves 1 and 2, whose outputs start sending in the same cycle: with
    /// read-ahead both branches go out at a flit per cycle, every shared chunk read by each.
    #[test]
    fn a_stored_multicast_is_read_by_all_its_outputs_at_full_bandwidth() {
        for reads in [BufferReads::ReadAhead, BufferReads::WhenEmpty] {
            let (mut sw, mut alone, lanes, p) = top_switch_with_a_multicast();
            sw.reads = reads;
            for o in [1, 2] {
                alone.credits[lanes.router_output(&alone.topo, ME, o) as usize] = 0;
            }
            let sends = released_together(sw, alone, &lanes, &[(0, p, 64, 0)]);
            let lost = reads == BufferReads::WhenEmpty;
            assert_eq!(sends, [sending(false), sending(lost)], "{reads:?}");
        }
    }

    /// The VCT-emulation rule holds back the header chunk, not the flits behind it (study 000 §4.2.2):
    /// a multicast waiting for room assembles its header chunk meanwhile, and the chunk enters the
    /// buffer in the cycle the room is there, its chunks reserved with that write.
    #[test]
    fn a_waiting_multicast_header_chunk_enters_as_soon_as_room_frees() {
        let (mut sw, mut alone, _, p) = top_switch_with_a_multicast();
        // 8 chunks and a header-chunk copy for the second leaf; other traffic holds all but 8.
        let need = 9;
        let held = sw.capacity - (need - 1);
        sw.free_chunks -= held;
        let mut fed = 0;
        let step = |sw: &mut CentralBuffer, alone: &mut Alone, fed: &mut u32, now: Cycle| {
            if *fed < 64 && sw.accept_flit(0, 0, Flit::new(p, *fed == 0, *fed == 63), 1, now) {
                *fed += 1;
            }
            alone.cycle(now, |ctx| sw.step(ME, ctx));
        };
        for now in 0..40 {
            step(&mut sw, &mut alone, &mut fed, now);
        }
        assert!(sw.outputs.iter().all(|o| o.queue.is_empty()), "nothing enters without room");
        assert_eq!(sw.free_chunks, need - 1, "nothing reserved yet");
        assert_eq!(sw.inputs[0].assembly.count, 8, "the header chunk is assembled while it waits");
        // One chunk frees: the header chunk is written in the same cycle, the whole packet reserved.
        sw.free_chunks += 1;
        step(&mut sw, &mut alone, &mut fed, 40);
        assert_eq!(sw.outputs[1].queue.len(), 1, "the first header-chunk copy is written at once");
        assert_eq!(sw.replicas[0].prepaid, need - 1, "the rest is reserved");
        assert_eq!(sw.free_chunks, 1, "(leaf 1 read its copy in the same cycle and freed it)");
        // The other traffic leaves; the multicast goes through and the buffer is whole again.
        sw.free_chunks += held - 1;
        let mut now = 41;
        while fed < 64 || sw.outputs[1].state != OutState::Idle || sw.outputs[2].state != OutState::Idle {
            step(&mut sw, &mut alone, &mut fed, now);
            sw.check_accounting().unwrap();
            now += 1;
            assert!(now < 1_000, "the multicast never finished");
        }
        assert_eq!(sw.free_chunks, sw.capacity);
    }

    /// A top switch of the 16-node tree replicates a 64-flit multicast to two leaves while one of its
    /// outputs has no credit: every shared chunk but the one that output read ahead waits, read once,
    /// for its second reader, and is freed exactly when that reader takes it; the buffer is whole
    /// again at the end.
    #[test]
    fn a_shared_chunk_is_freed_by_its_last_reader() {
        let (mut sw, mut alone, lanes, p) = top_switch_with_a_multicast();
        let blocked = lanes.router_output(&alone.topo, ME, 2) as usize; // the branch to leaf 2
        alone.credits[blocked] = 0;
        let mut fed = 0;
        // (nothing comes back from the leaves: the blocked lane gets no credit but the test's)
        let step = |sw: &mut CentralBuffer, alone: &mut Alone, fed: &mut u32, now: Cycle| {
            if *fed < 64 && sw.accept_flit(0, 0, Flit::new(p, *fed == 0, *fed == 63), 1, now) {
                *fed += 1;
            }
            alone.cycle(now, |ctx| sw.step(ME, ctx));
            sw.check_accounting().unwrap();
        };
        let mut now = 0;
        // the open branch sends the whole packet; the blocked one reads its header chunk and, ahead,
        // the first shared chunk (freed by that read), and no more
        while sw.outputs[1].state != OutState::Idle || now < 10 {
            step(&mut sw, &mut alone, &mut fed, now);
            now += 1;
            assert!(now < 1_000, "the open branch never finished");
        }
        let shared = &sw.shared[0];
        assert_eq!(shared.readers, [0, 1, 1, 1, 1, 1, 1], "chunks 2..7 each wait for the blocked branch");
        assert_eq!(sw.free_chunks, sw.capacity - 6);
        // the blocked branch gets its credits back and reads: each read frees its chunk
        alone.credits[blocked] = 64;
        let mut free = sw.free_chunks;
        while sw.outputs[2].state != OutState::Idle {
            // (the record goes with the last read: all seven freed)
            let before = sw.shared.first().map_or(7, |s| s.readers.iter().filter(|&&r| r == 0).count());
            step(&mut sw, &mut alone, &mut fed, now);
            let after = sw.shared.first().map_or(7, |s| s.readers.iter().filter(|&&r| r == 0).count());
            assert_eq!(sw.free_chunks - free, (after - before) as u32, "a chunk is freed by its last read");
            free = sw.free_chunks;
            now += 1;
            assert!(now < 2_000, "the blocked branch never finished");
        }
        assert!(sw.shared.is_empty());
        assert_eq!(sw.free_chunks, sw.capacity);
        assert_eq!(alone.counters.copied_flits, 64, "one copy of every flit");
    }
}
