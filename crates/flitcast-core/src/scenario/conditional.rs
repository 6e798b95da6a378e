//! Keys that matter only in some scenarios of their kind: set here to a value other than their
//! default, where they have no effect, they are reported as warnings (a sweep over another key
//! legitimately carries them into points that ignore them). A key of another kind altogether is an
//! error by construction (`params::Reader::finish`), so what is listed here is what stays conditional.

use std::collections::BTreeSet;

use super::Scenario;
use crate::collective::Operation;
use crate::host::programs::batch::BatchScheme;
use crate::host::programs::host_adapter::AdapterScheme;
use crate::host::programs::ProgramKind;
use crate::multicast::torus::TorusScheme;
use crate::params::{Problem, Problems};
use crate::routing::source_route::ObliviousTable;
use crate::routing::RoutingKind;
use crate::switch::FlowControl;
use crate::topology::TopologyKind;

struct Conditional {
    key: &'static str,
    /// Where the key matters, as a phrase after "only".
    when: &'static str,
    matters: fn(&Scenario) -> bool,
}

fn mesh_with_lanes(s: &Scenario) -> bool {
    matches!(s.network.topology, TopologyKind::Mesh(_)) && s.switch.model.vcs() > 1
}

fn tie_possible(s: &Scenario) -> bool {
    match &s.network.topology {
        TopologyKind::Torus(t) => !t.unidirectional && t.k % 2 == 0,
        TopologyKind::Ring(t) => !t.unidirectional && t.k % 2 == 0,
        _ => false,
    }
}

/// A barrier's messages are one flit whatever the message size (collective/mod.rs).
fn sized_messages(s: &Scenario) -> bool {
    !matches!(&s.workload.program, ProgramKind::Collective(c) if c.operation == Operation::Barrier)
}

fn adapter_relays(s: &Scenario) -> bool {
    matches!(&s.workload.program, ProgramKind::HostAdapter(a) if a.scheme != AdapterScheme::Separate)
}

const CONDITIONAL: &[Conditional] = &[
    Conditional { key: "routing.lanes", when: "on a mesh with switch.vcs > 1", matters: mesh_with_lanes },
    Conditional {
        key: "routing.torus_ties",
        when: "on a bidirectional torus or ring with k even (a distance of exactly k/2 is a tie)",
        matters: tie_possible,
    },
    Conditional {
        key: "routing.selection_history",
        when: "with a selection that keeps a history (any but first_free and rnd)",
        matters: |s| matches!(&s.routing.algorithm, RoutingKind::Adaptive(a) if a.selection.has_history()),
    },
    Conditional {
        key: "routing.o4_spread",
        when: "with routing.oblivious_table = \"d_mod_k\" or \"s_mod_k\"",
        matters: |s| matches!(&s.routing.algorithm, RoutingKind::O4(o) if o.oblivious_table != ObliviousTable::Balanced),
    },
    Conditional {
        key: "switch.stop_flits",
        when: "with switch.flow_control = \"stop_go\"",
        matters: |s| s.switch.model.flow_control() == FlowControl::StopGo,
    },
    Conditional {
        key: "switch.go_flits",
        when: "with switch.flow_control = \"stop_go\"",
        matters: |s| s.switch.model.flow_control() == FlowControl::StopGo,
    },
    Conditional {
        key: "switch.multicast_admission",
        when: "with multidestination worms (workload.program = \"hardware_multicast\", or a batch or collective in hardware)",
        matters: |s| s.workload.program.multidestination(),
    },
    Conditional {
        key: "workload.message_flits",
        when: "with a workload.operation other than \"barrier\" (a barrier's messages are one flit)",
        matters: sized_messages,
    },
    Conditional {
        key: "workload.transpose_split",
        when: "on a network whose node count has an odd number of bits (e.g. 128 nodes)",
        matters: |s| s.nodes().is_some_and(|n| (63 - n.max(1).leading_zeros()) % 2 == 1),
    },
    Conditional {
        key: "workload.header_flits",
        when: "with workload.scheme = \"hardware\"",
        matters: |s| !matches!(&s.workload.program, ProgramKind::Batch(b) if b.scheme != BatchScheme::Hardware),
    },
    Conditional {
        key: "workload.multicast_header_bytes",
        when: "with workload.scheme = \"hardware\"",
        matters: |s| !matches!(&s.workload.program, ProgramKind::Batch(b) if b.scheme != BatchScheme::Hardware),
    },
    Conditional {
        key: "workload.background_flits",
        when: "with workload.background_load > 0",
        matters: |s| matches!(&s.workload.program, ProgramKind::HostAdapter(a) if a.background_load > 0.0),
    },
    Conditional {
        key: "workload.background_flits_max",
        when: "with workload.background_load > 0",
        matters: |s| matches!(&s.workload.program, ProgramKind::HostAdapter(a) if a.background_load > 0.0),
    },
    Conditional {
        key: "workload.reception_worms",
        when: "with workload.scheme = \"ring\", \"bus\", \"tree_wrap_around\" or \"tree_up_down\"",
        matters: adapter_relays,
    },
    Conditional {
        key: "workload.buffer_classes",
        when: "with workload.scheme = \"ring\", \"bus\", \"tree_wrap_around\" or \"tree_up_down\"",
        matters: adapter_relays,
    },
    Conditional {
        key: "workload.control_flits",
        when: "with workload.scheme = \"ring\", \"bus\", \"tree_wrap_around\" or \"tree_up_down\"",
        matters: adapter_relays,
    },
    Conditional {
        key: "workload.timeout_cycles",
        when: "with workload.scheme = \"ring\", \"bus\", \"tree_wrap_around\" or \"tree_up_down\"",
        matters: adapter_relays,
    },
    Conditional {
        key: "workload.max_children",
        when: "with workload.scheme = \"tree_wrap_around\" or \"tree_up_down\"",
        matters: |s| {
            matches!(&s.workload.program, ProgramKind::HostAdapter(a)
                if matches!(a.scheme, AdapterScheme::TreeWrapAround | AdapterScheme::TreeUpDown))
        },
    },
    Conditional {
        key: "workload.partition",
        when: "with workload.scheme = \"mu_torus\"",
        matters: |s| matches!(&s.workload.program, ProgramKind::TorusMulticast(t) if t.scheme == TorusScheme::MuTorus),
    },
    Conditional {
        key: "workload.partition_lengths",
        when: "with workload.scheme = \"mu_torus\"",
        matters: |s| matches!(&s.workload.program, ProgramKind::TorusMulticast(t) if t.scheme == TorusScheme::MuTorus),
    },
];

/// The keys `given` (dotted) and set to other than their default in `s` that have no effect there.
pub fn check(s: &Scenario, given: &BTreeSet<String>) -> Problems {
    let set = s.to_json(true);
    let mut warnings = Vec::new();
    for c in CONDITIONAL {
        let (section, name) = c.key.split_once('.').expect("a dotted key");
        let Some(value) = set.get(section).and_then(|t| t.get(name)) else { continue };
        if !given.contains(c.key) || (c.matters)(s) {
            continue;
        }
        let value = crate::params::show(value);
        let mut w = Problem::new(c.key, value.clone(), format!("only {}", c.when), None);
        w.message = format!("{} = {value} has no effect here; it matters only {}", c.key, c.when);
        warnings.push(w);
    }
    warnings
}

/// Each conditional key and where it matters.
pub fn texts() -> Vec<(&'static str, &'static str)> {
    CONDITIONAL.iter().map(|c| (c.key, c.when)).collect()
}
