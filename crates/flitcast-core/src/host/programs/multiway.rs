//! What the m-way multicast programs (`software_multicast`, `hardware_multicast`) need in memory beyond
//! their packets: their operations in flight and the destination sets they track.

use std::mem::size_of;

use crate::dest_set::words_for;
use crate::host::delivery::Operation;
use crate::sizing::{max_live_operations, Part, Sizing};

/// The parts of `m`-way multicasts on the network `n` describes; `multidestination`: each packet also
/// carries a destination set (a worm's header set and its own pending set).
pub fn bytes(m: u32, multidestination: bool, n: &Sizing) -> Vec<Part> {
    let (m, live) = (m as u64, max_live_operations(m as u64, n.nodes));
    let keys = format!("workload.destinations, {}", n.network_keys);
    // an operation, its chain of hosts and pending forwards (timers)
    let per_operation = size_of::<Operation>() as u64 + 40 + m * (4 + 24 + 16);
    // bit sets of ⌈nodes / 64⌉ words: an operation's pending destinations, a worm's two
    let set = words_for(n.nodes as usize) as u64 * 8 + 8;
    let packet_sets = if multidestination { 2 * n.live_packets } else { 0 };
    vec![
        Part { what: "multicast operations (bounded)", bytes: live * per_operation, keys: keys.clone() },
        Part { what: "destination sets (bounded)", bytes: (packet_sets + live) * set, keys },
    ]
}
