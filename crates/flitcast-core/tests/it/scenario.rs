//! Reading a scenario: what each problem names (key, value, allowed), keys of another kind and keys
//! that moved, and the resolved and minimal forms reading back to the same scenario.

use flitcast_core::params::Problem;
use flitcast_core::scenario::{schema, SECTIONS};
use flitcast_core::Scenario;
use serde_json::{json, Value as Json};

fn problems(doc: Json) -> Vec<Problem> {
    match Scenario::check(&doc) {
        Ok(_) => panic!("accepted: {doc}"),
        Err(p) => p,
    }
}

fn first(doc: Json) -> Problem {
    problems(doc).remove(0)
}

#[test]
fn a_problem_names_the_key_the_value_and_what_is_allowed() {
    let cases = [
        (json!({"network": {"k": 1}}), "network.k", "1", "an integer from 2 to 1024"),
        (json!({"network": {"k": 8.0}}), "network.k", "8.0", "an integer"),
        (json!({"network": {"k": "8"}}), "network.k", "'8'", "an integer"),
        (json!({"switch": {"vcs": true}}), "switch.vcs", "true", "an integer"),
        (json!({"workload": {"load": 1.5}}), "workload.load", "1.5", "a number in (0, 1]"),
        (json!({"workload": {"pattern": "random"}}), "workload.pattern", "'random'", "'uniform'"),
        (
            json!({"workload": {"pattern": "hotspot", "hotspot_nodes": [1, "a"]}}),
            "workload.hotspot_nodes",
            "[1, 'a']",
            "a list of integers",
        ),
        (json!({"network": {"topology": "hyperx", "shape": [-1]}}), "network.shape", "[-1]", "integers from 0"),
        (json!({"network": {"topology": "hypercube"}}), "network.topology", "'hypercube'", "'mesh'"),
        (json!({"netwrok": {}}), "netwrok", "{}", "one of the tables network, switch"),
        (json!({"network": [1, 2]}), "network", "[1, 2]", "a table"),
        (json!({"run": {"seed": -1}}), "run.seed", "-1", "an integer from 0 to 2^63 − 1"),
    ];
    for (doc, key, value, allowed) in cases {
        let p = first(doc.clone());
        assert_eq!((p.key.as_str(), p.value.as_str()), (key, value), "{doc}");
        assert!(p.allowed.contains(allowed), "{doc}: {}", p.allowed);
        assert!(p.message.starts_with(&format!("{key} = {value} is not allowed")), "{}", p.message);
        assert!(p.message.contains(&p.allowed), "{}", p.message);
    }
}

#[test]
fn every_problem_is_reported_not_only_the_first() {
    let found = problems(json!({"network": {"k": 1, "n": 9}, "run": {"batches": 1}}));
    let keys: Vec<&str> = found.iter().map(|p| p.key.as_str()).collect();
    assert_eq!(keys, ["network.k", "network.n", "run.batches"]);
}

#[test]
fn a_key_of_another_kind_names_the_kind_it_belongs_to() {
    let cases = [
        (
            json!({"network": {"topology": "ring", "n": 2}}),
            "network.n",
            "network.topology = 'mesh', 'torus' or 'fat_tree'",
        ),
        (json!({"routing": {"selection": "lru"}}), "routing.selection", "routing.algorithm = 'adaptive'"),
        (json!({"switch": {"model": "central_buffer", "vcs": 2}}), "switch.vcs", "'input_buffered' or 'infiniband'"),
        (
            json!({"workload": {"program": "batch", "pattern": "uniform"}, "run": {"warmup_cycles": 0}}),
            "workload.pattern",
            "workload.program = 'open_loop'",
        ),
    ];
    for (doc, key, owner) in cases {
        let p = first(doc.clone());
        assert_eq!(p.key, key, "{doc}");
        let reason = p.reason.clone().unwrap_or_default();
        assert!(reason.contains("belongs to") && reason.contains(owner), "{doc}: {}", p.message);
    }
}

#[test]
fn a_key_that_moved_names_its_new_place_and_an_unknown_key_the_keys_there_are() {
    let p = first(json!({"workload": {"multicast_destinations": 4}}));
    assert!(p.allowed.contains("workload.destinations"), "{}", p.message);
    let p = first(json!({"adapter": {"reception_worms": 1}}));
    assert!(p.allowed.contains("workload.program = 'host_adapter'"), "{}", p.message);
    let p = first(json!({"network": {"radix": 4}}));
    assert!(p.allowed.contains("topology") && p.allowed.contains('k'), "{}", p.message);
    // every moved key is refused, wherever it sat (a table that moved as a whole is named as such)
    for (old, place) in schema().moved {
        let (table, key) = old.split_once('.').expect("a dotted key");
        let p = first(json!({ table: { key: 1 } }));
        if SECTIONS.contains(&table) {
            assert_eq!((p.key.as_str(), p.allowed.as_str()), (old, place));
        } else {
            assert_eq!(p.key, table);
            assert!(p.allowed.contains(key), "{}", p.message);
        }
    }
}

#[test]
fn a_kind_named_anew_takes_its_own_defaults() {
    let buffer = |model: &str| {
        let s = Scenario::of(json!({"switch": {"model": model}}));
        s.to_json(false)["switch"]["buffer_flits"].as_u64().expect("buffer_flits")
    };
    assert_eq!([buffer("input_buffered"), buffer("central_buffer"), buffer("input_fifo")], [8, 64, 320]);
    let s = Scenario::of(json!({})).set(&[("switch.model", json!("central_buffer"))]);
    assert_eq!(s.to_json(false)["switch"]["buffer_flits"], 64);
}

/// The example's irregular network file.
pub const EXAMPLE_NETWORK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/networks/irregular_updown.csv");

/// One scenario per kind of every family, with what each needs beside it.
fn scenarios() -> Vec<Json> {
    let short = json!({"warmup_cycles": 0, "measure_cycles": 1000});
    vec![
        json!({}),
        json!({"network": {"topology": "torus", "k": 4, "n": 3, "unidirectional": true}, "routing": {"torus_ties": "positive"}}),
        json!({"network": {"topology": "ring", "k": 6}, "switch": {"flow_control": "stop_go", "buffer_flits": 16}}),
        json!({"network": {"topology": "fat_tree", "k": 4, "n": 3}, "switch": {"model": "central_buffer"},
               "routing": {"algorithm": "adaptive", "selection": "rr", "selection_history": "adaptive_hops"},
               "workload": {"program": "hardware_multicast", "destinations": 5}}),
        json!({"network": {"topology": "sp128", "node_numbering": "plain"}, "switch": {"model": "input_fifo"},
               "routing": {"algorithm": "o4", "oblivious_table": "d_mod_k", "o4_spread": "every_stage"},
               "workload": {"pattern": "transpose", "transpose_split": "floor"}}),
        json!({"network": {"topology": "sp16"}, "routing": {"algorithm": "o1"},
               "workload": {"program": "software_multicast", "destinations": 3, "forward_cycles": 7}}),
        json!({"network": {"k": 4}, "switch": {"model": "infiniband", "vcs": 4, "buffer_flits": 16},
               "routing": {"lanes": "by_port"},
               "workload": {"program": "batch", "scheme": "separate", "source_share": 0.5}, "run": short}),
        json!({"workload": {"pattern": "hotspot", "hotspot_nodes": [3, 9], "hotspot_fraction": 0.2,
               "message_bytes": 100, "flit_bytes": 4, "max_packet_bytes": 32}}),
        json!({"network": {"topology": "torus", "k": 4},
               "workload": {"program": "host_adapter", "group": [0, 5, 10], "scheme": "tree_up_down",
                            "message_flits": 10, "message_flits_max": 40, "packet_flits": 40}}),
        json!({"network": {"topology": "irregular", "file": EXAMPLE_NETWORK}, "switch": {"vcs": 1},
               "routing": {"algorithm": "up_down", "root": 3, "selection": "rr"}}),
        json!({"network": {"topology": "torus", "k": 4, "unidirectional": true},
               "workload": {"program": "torus_multicast", "scheme": "mu_torus", "group_size": 8, "partition": 2},
               "run": short}),
        json!({"network": {"topology": "fat_tree", "k": 4}, "switch": {"model": "central_buffer"},
               "routing": {"algorithm": "adaptive"},
               "workload": {"program": "collective", "operation": "allreduce", "scheme": "hardware", "group_size": 8,
                            "members": "random", "root": 3, "reduce_cycles_per_flit": 0.5},
               "run": short}),
        json!({"network": {"topology": "dragonfly", "p": 1, "a": 3, "g": 5, "arrangement": "palm_tree"},
               "switch": {"vcs": 3}, "routing": {"algorithm": "ugal_l", "ugal_threshold": 4},
               "workload": {"pattern": "dragonfly_worst_case"}}),
        json!({"network": {"topology": "dragonfly", "h": 1}, "switch": {"vcs": 4}, "routing": {"algorithm": "valiant"}}),
        json!({"network": {"topology": "slim_fly", "q": 3, "p": 2}, "switch": {"vcs": 4}, "routing": {"algorithm": "valiant"}}),
        json!({"network": {"topology": "torus", "k": 4}, "switch": {"vcs": 3}, "routing": {"algorithm": "min_adaptive"}}),
        json!({"network": {"topology": "hyperx", "shape": [3, 4], "parallel_links": 2, "terminals_per_router": 2},
               "switch": {"vcs": 3}, "routing": {"algorithm": "min_adaptive", "selection": "lru"}}),
    ]
}

#[test]
fn the_resolved_and_the_minimal_forms_read_back_to_the_same_scenario() {
    for doc in scenarios() {
        let s = Scenario::of(doc.clone());
        assert_eq!(Scenario::of(s.to_json(false)), s, "resolved form of {doc}");
        assert_eq!(Scenario::of(s.to_json(true)), s, "minimal form of {doc}");
        let minimal = s.to_json(true);
        assert_eq!(Scenario::of(minimal.clone()).to_json(true), minimal, "{doc}");
    }
    assert_eq!(Scenario::of(json!({})).to_json(true), json!({}), "the defaults are the empty document");
}

/// Every kind of every family, read back from its resolved and minimal forms: the scenario that names
/// it (and the kinds it sits within) and nothing else where that reads, else one of [`scenarios`] that
/// names a sibling kind, the kind put in its place — so a new kind is covered without a new line here.
#[test]
fn every_kind_of_every_family_reads_back_from_its_resolved_and_minimal_forms() {
    let listed = scenarios();
    for (section, _, keys) in schema().sections {
        for key in keys.iter().filter(|k| k.tag) {
            for kind in key.choices.clone().unwrap_or_default() {
                let mut table = serde_json::Map::new();
                for (tag, outer) in &key.within {
                    table.insert(tag.to_string(), json!(outer));
                }
                table.insert(key.key.to_string(), json!(kind));
                let alone = json!({ section: table });
                let beside_a_sibling = listed.iter().filter(|doc| doc[section][key.key].is_string()).map(|doc| {
                    let mut doc = doc.clone();
                    doc[section][key.key] = json!(kind);
                    doc
                });
                let read = std::iter::once(alone).chain(beside_a_sibling).find_map(|doc| Scenario::check(&doc).ok());
                let Some(read) = read else {
                    panic!("{section}.{} = {kind} reads in none of these scenarios: add one to scenarios()", key.key)
                };
                let s = read.scenario;
                assert_eq!(Scenario::of(s.to_json(false)), s, "resolved form of {section}.{} = {kind}", key.key);
                assert_eq!(Scenario::of(s.to_json(true)), s, "minimal form of {section}.{} = {kind}", key.key);
            }
        }
    }
}
