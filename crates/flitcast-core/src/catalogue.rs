//! The component registry: every kind a scenario can name, with a one-line description. The
//! Python front's `flitcast list` and the docs are generated from it, and error messages list the
//! allowed names from it.

use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    pub name: &'static str,
    pub doc: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct Catalogue {
    pub topology: Vec<Entry>,
    pub switch: Vec<Entry>,
    pub flow_control: Vec<Entry>,
    pub routing: Vec<Entry>,
    pub selection: Vec<Entry>,
    pub pattern: Vec<Entry>,
    pub arrival: Vec<Entry>,
}

const fn e(name: &'static str, doc: &'static str) -> Entry {
    Entry { name, doc }
}

pub fn catalogue() -> Catalogue {
    Catalogue {
        topology: vec![
            e("mesh", "k-ary n-mesh, bidirectional links; ports 2d (+d), 2d+1 (-d), 2n (terminal)"),
            e("torus", "k-ary n-torus, bidirectional or unidirectional (network.unidirectional); unidirectional ports d (+d), n (terminal)"),
            e("ring", "k-node ring = 1-dimensional torus, bidirectional or unidirectional"),
            e("fat_tree", "k-ary n-tree of 2k-port switches, ports 0..k-1 down, k..2k-1 up (study 000)"),
            e("sp16", "the 16-node SP board of study 002 Fig. 2 (SP or plain node numbering)"),
            e("sp128", "the 128-node SP network of study 002 Fig. 3 (8 node and 4 intermediate switch boards)"),
        ],
        switch: vec![
            e("input_buffered", "input-queued VC router: per-VC FIFOs, credits, separable input-first round-robin allocation"),
            e(
                "central_buffer",
                "SP buffered-wormhole switch: input FIFOs, crossbar cut-through, shared central buffer of chunks; replicates multicasts in the buffer (studies 000, 002)",
            ),
            e(
                "input_fifo",
                "SP switch with one large FIFO per input instead of a central buffer; replicates multicasts from the FIFO (study 000 §5)",
            ),
            e(
                "infiniband",
                "InfiniBand switch: virtual cut-through per virtual lane, replicates multicasts by forwarding table (study 003)",
            ),
        ],
        flow_control: vec![
            e("wormhole", "a head advances when the downstream VC is free and has one free flit slot"),
            e("vct", "virtual cut-through: a head advances only when the downstream VC can take the whole packet"),
            e("stop_go", "slack buffers with stop/go back-pressure (study 001): senders stop and go as receivers fill and drain"),
        ],
        routing: vec![
            e("dor", "dimension-order routing; on tori and rings with dateline VC classes (needs switch.vcs >= 2)"),
            e("adaptive", "SP adaptive source routing: any up port to an LCA, fixed ports down (study 002 §4.2)"),
            e("o1", "one oblivious source route per pair, d-mod-k up ports (study 002 §3)"),
            e("o4", "four oblivious source routes per pair, used round robin by each source (study 002 §3)"),
        ],
        selection: vec![
            e("first_free", "first candidate in routing order, lowest free VC"),
            e("lru", "least recently used granted output, one list per input port (study 002 §4.3; Switch2)"),
            e("mru", "most recently used granted output, one list per input port (study 002 §4.3)"),
            e("rnd", "a granted output uniformly at random (study 002 §4.3)"),
            e("rr", "round robin from the last output used by the input + 1 (study 002 §4.3)"),
            e("lruc", "least recently used granted output, one list per switch chip (study 002 §4.3)"),
            e("lrud", "least recently used granted output, one list per destination node switch (study 002 §4.3)"),
        ],
        pattern: vec![
            e("uniform", "uniform random over the other nodes (workload.uniform_include_self to include the source)"),
            e("bit_reversal", "d = bits of s reversed (power-of-two node count)"),
            e("bit_complement", "d = bits of s complemented (power-of-two node count)"),
            e("transpose", "d = upper and lower halves of the id bits swapped (power-of-two node count; odd bit counts split by workload.transpose_split)"),
            e("shuffle", "d = id bits rotated left by one (power-of-two node count)"),
            e("tornado", "each coordinate x -> (x + ceil(k/2) - 1) mod k"),
            e("neighbor", "each coordinate x -> (x + 1) mod k"),
            e("hotspot", "workload.hotspot_fraction of messages to workload.hotspot_nodes, the rest uniform"),
        ],
        arrival: vec![
            e("poisson", "exponential inter-arrival times (open network)"),
            e("bernoulli", "one message per cycle with probability load / message_flits"),
        ],
    }
}
