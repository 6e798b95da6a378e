//! What a component needs in memory, as the component says it: each kind reports its parts (what,
//! bytes, the keys that drive them) for the network it is sized for, and `memory.rs` adds them up and
//! holds them against the budget (docs/engine.md, "Memory").

/// One part of a memory estimate: what it is, its bytes, and the keys that drive it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Part {
    pub what: &'static str,
    pub bytes: u64,
    pub keys: String,
}

/// The network a component is sized for.
pub struct Sizing {
    pub nodes: u64,
    pub routers: u64,
    /// Routers with terminals (a multistage network's leaves).
    pub node_switches: u64,
    /// Most router-to-router hops of a route through a multistage network (up and down every level).
    pub max_route_hops: u64,
    /// The keys that set the network's size (`Builder::sized_by`).
    pub network_keys: &'static str,
    /// Flits of a message (its mean where sizes are drawn) and of a packet's payload.
    pub message_flits: u32,
    pub packet_flits: u32,
    /// The most packets alive at once (the program's bound, or the engine's limit).
    pub live_packets: u64,
    /// Router output ports, and the longest router-to-router channel in cycles.
    pub ports: u64,
    pub longest_channel: u32,
}

/// Most multicast operations of `m` destinations incomplete at once: past this a run stops as
/// saturated (operations can pile up with few packets alive, e.g. a software multicast whose relays
/// wait long between receiving and forwarding). 2^22 pending destinations, or one operation per node
/// if that is more: far above any steady state.
pub fn max_live_operations(m: u64, nodes: u64) -> u64 {
    ((1u64 << 22) / m.max(1)).max(nodes)
}
