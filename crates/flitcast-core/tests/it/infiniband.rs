//! The InfiniBand switch and mesh multicast by union of XY paths (study 003): every member served
//! exactly once, virtual cut-through (a head never leaves without credits for its whole packet), and
//! the zero-load closed forms — with output buffers and without, with headers and without.

use flitcast_core::host::programs::batch::{Batch, BatchScheme, HeaderFlits};
use flitcast_core::routing::dor::LaneMap;
use flitcast_core::{Scenario, Simulation};
use serde_json::json;

/// A k×k mesh of InfiniBand switches (virtual cut-through) with `vls` lanes of one `flits`-flit packet
/// each, input and output.
pub fn iba_mesh(k: u32, vls: u32, flits: u32) -> Scenario {
    Scenario::of(json!({
        "network": {"k": k},
        "switch": {"model": "infiniband", "vcs": vls, "buffer_flits": flits},
        "workload": {"packet_flits": flits, "message_flits": flits},
    }))
}

/// `s` with output buffers or without (input lanes only).
fn buffered(s: Scenario, output_buffers: bool) -> Scenario {
    s.set(&[("switch.output_buffers", json!(output_buffers))])
}

/// Hardware multicast to `m` destinations at `load` (m = 0: uniform unicast traffic at `load`).
fn hardware(s: Scenario, m: u32, load: f64) -> Scenario {
    if m == 0 {
        s.set(&[("workload.load", json!(load))])
    } else {
        s.set(&[
            ("workload.program", json!("hardware_multicast")),
            ("workload.destinations", json!(m)),
            ("workload.load", json!(load)),
        ])
    }
}

#[test]
fn zero_load_unicast_and_multicast_match_the_closed_form() {
    // VCT cut-through: a packet of F flits through h routers, router delay D, channel latency l:
    // h·(D + l) + l + (F − 1), as for the input-buffered router; a multicast's branches each follow it
    // (output buffers add room, not latency: the same with them and without)
    let (d, l, f) = (1u64, 1u64, 16u64);
    let hops = |a: u32, b: u32| ((a % 4).abs_diff(b % 4) + (a / 4).abs_diff(b / 4)) as u64;
    let time = |a: u32, b: u32| (hops(a, b) + 1) * (d + l) + l + (f - 1);
    for output_buffers in [true, false] {
        let s = buffered(hardware(iba_mesh(4, 1, 16), 5, 0.1), output_buffers);
        for (src, dests) in
            [(0u32, vec![1u32, 5, 15]), (6, vec![0, 3, 9, 12, 15]), (5, (0..16).filter(|&t| t != 5).collect())]
        {
            let times: Vec<u64> = dests.iter().map(|&t| time(src, t)).collect();
            let last = *times.iter().max().unwrap();
            let mean = times.iter().sum::<u64>() as f64 / times.len() as f64;
            let (a, b) = Simulation::build(&s).unwrap().probe_multicast(src, &dests).unwrap();
            assert_eq!((a, b), (last, mean), "{src} -> {dests:?}, output buffers {output_buffers}");
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    /// Random group sizes, packet lengths, loads (past saturation too), mesh sizes and lane counts:
    /// every member of every multicast is served exactly once (the engine stops with a conservation
    /// error otherwise, and checks flit conservation with the copies made at the end of the run).
    #[test]
    fn mesh_multicasts_serve_every_member_once(
        m in 1u32..16, flits in 1u32..40, load in 0.02f64..1.0, k in 3u32..6, vls in 1u32..5,
        fraction in 0.1f64..1.0, seed in 0u64..1000, output_buffers in proptest::bool::ANY,
    ) {
        let s = buffered(hardware(iba_mesh(k, vls, flits), m.min(k * k - 1), load), output_buffers).set(&[
            ("workload.multicast_fraction", json!(fraction)),
            ("run.seed", json!(seed)),
            ("run.warmup_cycles", json!(500)),
            ("run.measure_cycles", json!(3_000)),
            ("run.drain_max_cycles", json!(20_000)),
        ]);
        let r = flitcast_core::run(&s).unwrap();
        proptest::prop_assert!(r.operations_measured == 0 || r.latency_mean >= r.latency_dest_mean);
    }
}

#[test]
fn all_source_broadcasts_with_one_lane_do_not_deadlock() {
    // every node multicasting to every other, far past saturation, one lane: the watchdog would stop
    // a deadlocked run with an error
    for output_buffers in [true, false] {
        let s = buffered(hardware(iba_mesh(6, 1, 32), 35, 1.0), output_buffers).set(&[
            ("run.warmup_cycles", json!(5_000)),
            ("run.measure_cycles", json!(100_000)),
            ("run.saturation_stop", json!("off")),
        ]);
        let r = flitcast_core::run(&s).unwrap();
        assert!(r.accepted_load > 0.2, "accepted {}, output buffers {output_buffers}", r.accepted_load);
    }
}

#[test]
fn dedicated_lanes_behave_exactly_as_one_lane() {
    // with one lane per output direction every link carries a single lane, so with equal buffers per
    // lane the network is the one-lane network: identical results, unicast and multicast
    for (m, load) in [(0, 0.4), (6, 0.5), (15, 0.9)] {
        let run = |vls: u32, map: LaneMap| {
            let s = hardware(iba_mesh(5, vls, 8), m, load)
                .set(&[("routing.lanes", json!(map.name())), ("run.measure_cycles", json!(20_000))]);
            flitcast_core::run(&s).unwrap()
        };
        let one = run(1, LaneMap::Any);
        assert_eq!(run(2, LaneMap::ByPort), one, "m = {m}: 2 dedicated lanes");
        assert_eq!(run(4, LaneMap::ByPort), one, "m = {m}: 4 dedicated lanes");
        assert_ne!(run(2, LaneMap::Any), one, "m = {m}: 2 shared lanes differ");
        // hosts that inject on any lane make the injection link a two-lane link: no longer one lane
        assert_ne!(run(2, LaneMap::ByPortHostAny), one, "m = {m}: dedicated lanes, hosts on any lane");
    }
}

/// A closed batch on a k×k mesh: `sources` and `group` shares of the nodes, one message each.
fn batch(k: u32, vls: u32, flits: u32, sources: f64, group: f64, scheme: BatchScheme) -> Scenario {
    iba_mesh(k, vls, flits).set(&[
        ("workload.program", json!("batch")),
        ("workload.source_share", json!(sources)),
        ("workload.group_share", json!(group)),
        ("workload.scheme", json!(scheme.name())),
        ("run.warmup_cycles", json!(0)),
        ("run.measure_cycles", json!(2)),
        ("run.batches", json!(2)),
        ("run.drain_max_cycles", json!(10_000_000)),
    ])
}

#[test]
fn a_one_source_batch_completes_as_the_closed_form_says() {
    // one source, the whole mesh as the group, on an idle mesh: multicast = the farthest member's
    // unicast time. Separate addressing: member j's unicast starts after the j packets ahead of it;
    // the injection lane holds one packet, so each next packet waits for the credit of the last flit
    // of the one before: that flit leaves the lane l + D cycles after it was sent and its credit takes
    // l cycles back — one packet every F + D + l cycles
    let (d, l, f, k) = (1u64, 1u64, 32u64, 6u32);
    for scheme in [BatchScheme::Hardware, BatchScheme::Separate] {
        let s = batch(k, 1, f as u32, 1e-9, 1.0, scheme);
        let r = flitcast_core::run(&s).unwrap();
        assert_eq!(r.operations_measured, 1);
        let drawn = Batch::new(k * k, 1e-9, 1.0, scheme, f as u32, HeaderFlits::default(), s.run.seed);
        let src = drawn.sources[0];
        let hops = |a: u32, b: u32| ((a % k).abs_diff(b % k) + (a / k).abs_diff(b / k)) as u64;
        let unicast = |b: u32| (hops(src, b) + 1) * (d + l) + l + (f - 1);
        let members = (0..k * k).filter(|&t| t != src);
        let expected = match scheme {
            BatchScheme::Hardware => members.map(unicast).max().unwrap(),
            _ => members.enumerate().map(|(j, t)| j as u64 * (f + d + l) + unicast(t)).max().unwrap(),
        };
        assert_eq!(r.latency_max as u64, expected, "{scheme:?} from {src}");
    }
}

/// A closed batch sized in bytes: `message` bytes in flits of `flit` bytes, packets carrying `unicast`
/// and `multicast` header bytes, lanes of `lane` flits.
fn batch_in_bytes(
    k: u32,
    scheme: BatchScheme,
    group: f64,
    (flit, message): (u32, u32),
    (unicast, multicast): (u32, u32),
    lane: u32,
) -> Scenario {
    let s = Scenario::of(json!({
        "network": {"k": k},
        "switch": {"model": "infiniband", "vcs": 1, "buffer_flits": lane},
        "workload": {"program": "batch", "scheme": scheme.name(), "source_share": 1e-9, "group_share": group,
                     "message_bytes": message, "flit_bytes": flit, "max_packet_bytes": message,
                     "unicast_header_bytes": unicast},
        "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2, "drain_max_cycles": 10_000_000},
    }));
    if scheme == BatchScheme::Hardware {
        s.set(&[("workload.multicast_header_bytes", json!(multicast))])
    } else {
        s
    }
}

#[test]
fn packets_carry_their_headers_in_whole_flits_at_zero_load() {
    // One source, the whole 6×6 mesh as its group, 8-byte flits and 256-byte messages (32 flits):
    // InfiniBand's headers, 34 bytes on a unicast (5 flits: 40 bytes) and 74 on a multicast (10 flits:
    // 80 bytes), ride in front of the payload, so a unicast packet is F_u = 37 flits and a multicast one
    // F_m = 42. Zero load (one source): the multicast is the farthest member's time for F_m,
    // h·(D + l) + l + (F_m − 1); separate addressing sends a unicast every F_u + D + l cycles (each
    // waits for the credit of the one before in the one-packet injection lane).
    let (d, l, k) = (1u64, 1u64, 6u32);
    let (f_u, f_m) = (32 + 5, 32 + 10);
    for scheme in [BatchScheme::Hardware, BatchScheme::Separate] {
        let f = if scheme == BatchScheme::Hardware { f_m } else { f_u };
        let s = batch_in_bytes(k, scheme, 1.0, (8, 256), (34, 74), f as u32);
        let r = flitcast_core::run(&s).unwrap();
        let src = Batch::new(k * k, 1e-9, 1.0, scheme, 32, HeaderFlits::default(), s.run.seed).sources[0];
        let hops = |a: u32, b: u32| ((a % k).abs_diff(b % k) + (a / k).abs_diff(b / k)) as u64;
        let lone = |b: u32, f: u64| (hops(src, b) + 1) * (d + l) + l + (f - 1);
        let members = (0..k * k).filter(|&t| t != src);
        let expected = match scheme {
            BatchScheme::Hardware => members.map(|t| lone(t, f_m)).max().unwrap(),
            _ => members.enumerate().map(|(j, t)| j as u64 * (f_u + d + l) + lone(t, f_u)).max().unwrap(),
        };
        assert_eq!(r.latency_max as u64, expected, "{scheme:?} from {src}");
    }
    // A one-member group gets a lone unicast, with the unicast's header, whatever the scheme: pick a
    // seed whose member is not the source.
    for scheme in [BatchScheme::Hardware, BatchScheme::Separate] {
        let seed = (0..).find(|&seed| {
            let b = Batch::new(k * k, 1e-9, 1e-9, scheme, 32, HeaderFlits::default(), seed);
            b.sources[0] != b.group[0]
        });
        let s =
            batch_in_bytes(k, scheme, 1e-9, (8, 256), (34, 74), f_m as u32).set(&[("run.seed", json!(seed.unwrap()))]);
        let b = Batch::new(k * k, 1e-9, 1e-9, scheme, 32, HeaderFlits::default(), s.run.seed);
        let r = flitcast_core::run(&s).unwrap();
        let hops = ((b.sources[0] % k).abs_diff(b.group[0] % k) + (b.sources[0] / k).abs_diff(b.group[0] / k)) as u64;
        assert_eq!(r.latency_max as u64, (hops + 1) * (d + l) + l + (f_u - 1), "{scheme:?}: a lone unicast");
    }
}

#[test]
fn headers_that_are_not_whole_flits_round_up() {
    // 34 bytes in 32-byte flits take 2 flits, 74 take 3; a 32-byte payload 1: one source's unicasts to
    // the whole group leave one every 3 + D + l cycles, its multicast is 4 flits long
    let with = |unicast: u32, multicast: u32, scheme: BatchScheme, lane: u32| {
        flitcast_core::run(&batch_in_bytes(4, scheme, 1.0, (32, 32), (unicast, multicast), lane)).unwrap().latency_max
    };
    assert_eq!(with(34, 74, BatchScheme::Hardware, 4) - with(0, 0, BatchScheme::Hardware, 1), 3.0, "3 more flits");
    let members = 15.0;
    assert_eq!(
        with(34, 74, BatchScheme::Separate, 3) - with(0, 0, BatchScheme::Separate, 1),
        2.0 * members,
        "2 more a unicast"
    );
}

#[test]
fn header_bytes_need_the_sizes_in_bytes() {
    let s = iba_mesh(4, 1, 16).set(&[("workload.program", json!("batch")), ("run.warmup_cycles", json!(0))]);
    for key in ["workload.unicast_header_bytes", "workload.multicast_header_bytes"] {
        let refused = s.with(&[(key, json!(34))]);
        assert!(matches!(refused, Err(flitcast_core::Error::Config { key: k, .. }) if k == key), "{key}");
    }
}

#[test]
fn the_engines_fan_out_is_the_subnet_managers_multicast_table() {
    // At every switch of a 16x16 mesh, for random sources and 40% groups, the ports a copy fans out to
    // (engine: computed where the copy is) equal the MFT entry the union operation builds (check/subnet/),
    // mapping engine terminal t to N(t mod 16, t div 16) and ports +x, -x, +y, -y, node to 1, 3, 2, 4, 0.
    use flitcast_core::check::subnet::{lft::Lfts, mft::Mft, IbaMesh};
    use flitcast_core::dest_set::DestSets;
    use flitcast_core::packet::{Dest, Header};
    use flitcast_core::routing::{At, Candidates, Routing, Step};
    use rand::{Rng, SeedableRng};
    let k = 16u32;
    let s = iba_mesh(k, 1, 4);
    let topo = s.topology().unwrap();
    let routing = Routing::build(&s.routing.algorithm, 1, &topo).unwrap().with_multicast(&topo).unwrap();
    let mesh = IbaMesh::new(k, k);
    let lid = |t: u32| mesh.lid(t % k, t / k);
    let lfts = Lfts::xy(mesh);
    let engine_port = [4u8, 0, 2, 1, 3]; // by IB port number 0 (node), 1 (E), 2 (N), 3 (W), 4 (S)
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let mut sets = DestSets::new((k * k) as usize);
    let mut cands = Candidates::default();
    for _ in 0..20 {
        let src = rng.random_range(0..k * k);
        let group: Vec<u32> = (0..k * k).filter(|&t| t != src && rng.random_bool(0.4)).collect();
        let mft = Mft::union(group.iter().map(|&t| lfts.path(lid(src), lid(t))));
        let set = sets.insert(group.iter().copied());
        let header = Header::new(src, Dest::Set(set), 0, 4, 0, false, 0);
        for router in 0..k * k {
            let at = At { router, in_port: 4, in_vc: 0, hops: 0 };
            let Step::FanOut(ours) = routing.step(&topo, at, &header, &sets, &mut cands) else {
                panic!("a set fans out")
            };
            let theirs =
                mft.ports(lid(router)).into_iter().fold(0u64, |m, p| m | 1 << engine_port[p.number() as usize]);
            assert_eq!(ours, theirs, "switch {router} for source {src}");
        }
        sets.remove(set);
    }
}
