//! Keys of earlier versions and where each went (scenario keys became per-kind in version 0.2:
//! docs/config.md, "Keys that moved"). A scenario that still uses one gets an error naming its new
//! place.

const MOVED: &[(&str, &str)] = &[
    (
        "workload.multicast_scheme",
        "workload.program ('software_multicast', 'hardware_multicast', 'batch', 'host_adapter' or \
         'torus_multicast'), and for the last three workload.scheme",
    ),
    (
        "workload.multicast_destinations",
        "workload.destinations (workload.program = 'software_multicast' or 'hardware_multicast')",
    ),
    ("workload.multicast_forward_cycles", "workload.forward_cycles (workload.program = 'software_multicast')"),
    ("workload.multicast_header_flits", "workload.header_flits (workload.program = 'hardware_multicast' or 'batch')"),
    ("workload.batch_sources", "workload.source_share (workload.program = 'batch')"),
    ("workload.batch_group", "workload.group_share (workload.program = 'batch')"),
    ("workload.multicast_group", "workload.group (workload.program = 'host_adapter')"),
    ("workload.multicast_group_size", "workload.group_size (workload.program = 'torus_multicast')"),
    ("workload.multicast_root", "workload.root (workload.program = 'torus_multicast')"),
    ("workload.multicast_partition", "workload.partition (workload.program = 'torus_multicast')"),
    ("adapter.reception_worms", "workload.reception_worms (workload.program = 'host_adapter')"),
    ("adapter.buffer_classes", "workload.buffer_classes (workload.program = 'host_adapter')"),
    ("adapter.control_flits", "workload.control_flits (workload.program = 'host_adapter')"),
    ("adapter.timeout_cycles", "workload.timeout_cycles (workload.program = 'host_adapter')"),
    ("adapter.max_children", "workload.max_children (workload.program = 'host_adapter')"),
    ("adapter.send_overhead_cycles", "workload.send_overhead_cycles (workload.program = 'torus_multicast')"),
    ("adapter.receive_overhead_cycles", "workload.receive_overhead_cycles (workload.program = 'torus_multicast')"),
    ("adapter.process_cycles", "workload.process_cycles (workload.program = 'torus_multicast')"),
];

/// Where the dotted key `key` of an earlier version went.
pub fn key(key: &str) -> Option<String> {
    MOVED.iter().find(|(old, _)| *old == key).map(|(_, new)| new.to_string())
}

/// Where a table of an earlier version went.
pub fn section(name: &str) -> Option<String> {
    (name == "adapter").then(|| {
        "[workload] with workload.program = 'host_adapter' (reception_worms, buffer_classes, control_flits, \
         timeout_cycles, max_children) or 'torus_multicast' (send_overhead_cycles, receive_overhead_cycles, \
         process_cycles)"
            .to_string()
    })
}

pub fn all() -> Vec<(&'static str, &'static str)> {
    MOVED.to_vec()
}
