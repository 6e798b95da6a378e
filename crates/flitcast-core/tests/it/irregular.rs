//! Irregular networks read from a file, routed up*/down*: the zero-load latency is the closed form
//! over the shortest legal route (also where that route is longer than the shortest path); on random
//! connected networks every destination is reached by the shortest legal routes an independent search
//! finds and the channel dependency graph is acyclic; far past saturation the watchdog never trips;
//! one thread and two give the same result to the bit.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use flitcast_core::check::routes::verify;
use flitcast_core::routing::up_down::UpDown;
use flitcast_core::routing::Routing;
use flitcast_core::topology::irregular::parse;
use flitcast_core::{Scenario, Simulation};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::json;

/// A network file written for one test, removed when dropped.
pub struct NetFile(PathBuf);

impl NetFile {
    pub fn new(text: &str) -> NetFile {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let name = format!("flitcast-it-{}-{}.csv", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
        let path = std::env::temp_dir().join(name);
        std::fs::write(&path, text).unwrap();
        NetFile(path)
    }
    pub fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for NetFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// An up*/down* scenario on the network file `file`, one virtual channel, short run.
pub fn irregular(file: &NetFile) -> Scenario {
    Scenario::of(json!({
        "network": {"topology": "irregular", "file": file.path()},
        "switch": {"vcs": 1},
        "routing": {"algorithm": "up_down"},
        "run": {"warmup_cycles": 500, "measure_cycles": 3_000, "drain_max_cycles": 5_000},
    }))
}

/// A ring of five routers, terminal t on router t (port 2); root 0 gives levels 0, 1, 2, 2, 1, and
/// the link 2–3 goes up towards 2. The link 1–2 takes `long` cycles.
fn ring5(long: u32) -> String {
    format!(
        "routers,5,3\nlink,0,0,1,1\nlink,1,0,2,1,{long}\nlink,2,0,3,1\nlink,3,0,4,1\nlink,4,0,0,1\n\
         terminal,0,0,2\nterminal,1,1,2\nterminal,2,2,2\nterminal,3,3,2\nterminal,4,4,2\n"
    )
}

/// T0 = (H + 1) · D + 2 · Lt + Σ links' latencies + (F − 1): H + 1 routers, the injection and
/// ejection channels, the links, and the tail behind the head.
fn closed_form(routers_crossed: u32, d: u32, terminal: u32, links: u32, f: u32) -> u64 {
    (routers_crossed * d + 2 * terminal + links + f - 1) as u64
}

#[test]
fn zero_load_latency_is_the_closed_form_over_the_shortest_legal_route() {
    // The shortest legal routes on `ring5`, written out by hand.
    let routes: &[&[u32]] = &[
        &[0, 1],    // down
        &[1, 0],    // up
        &[1, 2, 3], // down, down
        &[3, 2],    // up (same level, to the lower id)
        &[2, 3],    // down
        &[3, 2, 1], // up, up
        // 4 → 2: the shortest path 4–3–2 goes down then up, which is illegal; the legal route climbs
        // to the root and down again, one hop longer.
        &[4, 0, 1, 2],
        // 2 → 4: 2–3–4 goes down then up; 2–1–0–4 goes up, up, down.
        &[2, 1, 0, 4],
    ];
    let long = 4;
    let file = NetFile::new(&ring5(long));
    for (d, l, f) in [(1, 1, 1), (3, 2, 8), (2, 5, 4)] {
        let s = irregular(&file).set(&[
            ("switch.router_delay_cycles", json!(d)),
            ("network.channel_latency_cycles", json!(l)),
            ("workload.packet_flits", json!(f)),
            ("workload.message_flits", json!(f)),
        ]);
        for path in routes {
            let (src, dst, hops) = (path[0], *path.last().unwrap(), path.len() as u32 - 1);
            // (the 1–2 link has its own latency; the others take network.channel_latency_cycles)
            let links: u32 = path.windows(2).map(|w| if w.contains(&1) && w.contains(&2) { long } else { l }).sum();
            let p = Simulation::build(&s).unwrap().probe(src, dst).unwrap();
            assert_eq!(p.hops, hops, "{src}->{dst}");
            assert_eq!(p.latency, closed_form(hops + 1, d, l, links, f), "{src}->{dst} d={d} l={l} f={f}");
        }
    }
}

#[test]
fn the_share_routed_non_minimally_is_that_of_the_pairs_whose_legal_route_is_longer() {
    // on `ring5` two ordered pairs of twenty (4 → 2 and 2 → 4) take a legal route one hop longer than
    // the shortest path: under uniform traffic a tenth of the packets
    let file = NetFile::new(&ring5(1));
    let s = irregular(&file).set(&[("workload.load", json!(0.05)), ("run.measure_cycles", json!(1_000_000))]);
    let share = flitcast_core::run(&s).unwrap().nonminimal_share;
    assert!((share - 0.1).abs() < 0.01, "{share}");
}

/// A random connected network as a file's text: `routers` routers of `ports` ports, a random spanning
/// tree plus `extra` random links (parallel links included), each on random free ports, and terminals
/// on a random share of the ports left (at least two). Link latencies 1 to 3, or none.
pub fn random_network(seed: u64, routers: u32, ports: u32, extra: u32) -> String {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut free: Vec<Vec<u32>> = (0..routers).map(|_| (0..ports).collect()).collect();
    let mut lines = vec![format!("routers,{routers},{ports}")];
    let link = |rng: &mut Xoshiro256PlusPlus, free: &mut Vec<Vec<u32>>, lines: &mut Vec<String>, a: u32, b: u32| {
        let mut take = |r: u32| {
            let f = &mut free[r as usize];
            f.swap_remove(rng.random_range(0..f.len()))
        };
        let (pa, pb) = (take(a), take(b));
        let latency = match rng.random_range(0..4) {
            0 => String::new(),
            l => format!(",{l}"),
        };
        lines.push(format!("link,{a},{pa},{b},{pb}{latency}"));
    };
    // (routers joined in a random order, each to one already joined that has a free port: with two
    // ports or more there always is one)
    let mut order: Vec<u32> = (1..routers).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.random_range(0..=i));
    }
    let mut joined = vec![0u32];
    for &r in &order {
        let open: Vec<u32> = joined.iter().copied().filter(|&j| !free[j as usize].is_empty()).collect();
        let parent = open[rng.random_range(0..open.len())];
        link(&mut rng, &mut free, &mut lines, r, parent);
        joined.push(r);
    }
    for _ in 0..extra {
        let (a, b) = (rng.random_range(0..routers), rng.random_range(0..routers));
        // (leaving two ports free for terminals)
        let left: usize = free.iter().map(Vec::len).sum();
        if a != b && !free[a as usize].is_empty() && !free[b as usize].is_empty() && left > 3 {
            link(&mut rng, &mut free, &mut lines, a, b);
        }
    }
    let mut places: Vec<(u32, u32)> =
        free.iter().enumerate().flat_map(|(r, f)| f.iter().map(move |&p| (r as u32, p))).collect();
    for i in (1..places.len()).rev() {
        places.swap(i, rng.random_range(0..=i));
    }
    let terminals = rng.random_range(2..=places.len());
    for (t, (r, p)) in places[..terminals].iter().enumerate() {
        lines.push(format!("terminal,{t},{r},{p}"));
    }
    lines.join("\n") + "\n"
}

/// Hops of the shortest up*/down* route from router `a` to router `b`, found by a forward search of
/// its own over (router, whether it has gone down yet): levels from `root`, up ends by (level, id).
fn legal_hops(topo: &flitcast_core::topology::Topology, root: u32, a: u32, b: u32) -> Option<u32> {
    use flitcast_core::topology::PortLink;
    let n = topo.routers();
    let neighbours = |r: u32| {
        (0..topo.radix(r) as u8).filter_map(move |p| match topo.link(r, p) {
            PortLink::Router { router, .. } => Some(router),
            _ => None,
        })
    };
    let mut level = vec![u32::MAX; n];
    level[root as usize] = 0;
    let mut q = VecDeque::from([root]);
    while let Some(r) = q.pop_front() {
        for m in neighbours(r) {
            if level[m as usize] == u32::MAX {
                level[m as usize] = level[r as usize] + 1;
                q.push_back(m);
            }
        }
    }
    let up = |from: u32, to: u32| (level[to as usize], to) < (level[from as usize], from);
    let mut seen = vec![[u32::MAX; 2]; n];
    seen[a as usize][0] = 0;
    let mut q = VecDeque::from([(a, 0usize)]);
    while let Some((r, down)) = q.pop_front() {
        let d = seen[r as usize][down];
        if r == b {
            return Some(d);
        }
        for m in neighbours(r) {
            let next = match (up(r, m), down) {
                (true, 1) => continue,
                (true, _) => 0,
                (false, _) => 1,
            };
            if seen[m as usize][next] == u32::MAX {
                seen[m as usize][next] = d + 1;
                q.push_back((m, next));
            }
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// On random connected networks with random ports and terminals, from a random root and on one to
    /// three virtual channels: every destination is reached (the build-time check walks every route the
    /// routing offers), the channel dependency graph is acyclic, and a packet's hops are those of the
    /// shortest legal route found independently.
    #[test]
    fn up_down_reaches_every_destination_without_cyclic_dependencies(
        seed in any::<u64>(), routers in 2u32..12, ports in 3u32..7, extra in 0u32..12,
        root_seed in any::<u32>(), vcs in 1u8..4, pair in any::<(u32, u32)>()
    ) {
        let text = random_network(seed, routers, ports, extra);
        let topo = parse(&text).unwrap().topology("random", 1);
        let root = root_seed % routers;
        let up_down = UpDown::new(&topo, root, vcs).unwrap();
        for (t, &(r, _)) in topo.terminal_at.iter().enumerate() {
            for from in 0..routers {
                let want = legal_hops(&topo, root, from, r).map(|h| h as u16);
                prop_assert_eq!(up_down.hops(from, topo.terminal_switch[t]), want, "router {} to terminal {}", from, t);
            }
        }
        let routing = Routing::UpDown(up_down);
        prop_assert!(verify(&topo, &routing, vcs, true).is_ok(), "{:?}\n{}", verify(&topo, &routing, vcs, true), text);
        // One packet from a terminal to another takes exactly the shortest legal route.
        let file = NetFile::new(&text);
        let s = irregular(&file).set(&[("routing.root", json!(root)), ("switch.vcs", json!(vcs))]);
        let nodes = topo.terminals() as u32;
        let (src, dst) = (pair.0 % nodes, pair.1 % nodes);
        let p = Simulation::build(&s).unwrap().probe(src, dst).unwrap();
        let (a, b) = (topo.terminal_at[src as usize].0, topo.terminal_at[dst as usize].0);
        prop_assert_eq!(Some(p.hops), legal_hops(&topo, root, a, b));
    }
}

#[test]
fn a_random_irregular_network_past_saturation_never_deadlocks() {
    // (one virtual channel of 4 flits, 16-flit packets, every host offering a full link's load)
    for seed in [1, 2, 3] {
        let file = NetFile::new(&random_network(seed, 10, 5, 8));
        let s = irregular(&file).set(&[
            ("switch.buffer_flits", json!(4)),
            ("workload.load", json!(1.0)),
            ("workload.packet_flits", json!(16)),
            ("workload.message_flits", json!(16)),
            ("run.warmup_cycles", json!(1_000)),
            ("run.measure_cycles", json!(4_000)),
            ("run.drain_max_cycles", json!(2_000)),
            ("run.saturation_stop", json!("off")),
            ("run.watchdog_cycles", json!(300)),
        ]);
        let r = flitcast_core::run(&s).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        // (saturated: the network accepts well below what is offered, and still delivers)
        assert!(r.saturated && r.cycles >= 7_000, "seed {seed}: {} cycles, saturated {}", r.cycles, r.saturated);
        assert!(r.accepted_load > 0.05 && r.accepted_load < 0.9, "seed {seed}: accepted {}", r.accepted_load);
    }
}

#[test]
fn one_thread_and_two_give_the_same_result() {
    let file = NetFile::new(&random_network(7, 12, 6, 10));
    let s = irregular(&file).set(&[("workload.load", json!(0.4)), ("switch.vcs", json!(2))]);
    let run = |threads: u32| {
        let r = flitcast_core::run(&s.set(&[("run.threads", json!(threads))])).unwrap();
        serde_json::to_string(&r).unwrap()
    };
    assert_eq!(run(1), run(2));
}

#[test]
fn a_bad_file_or_root_is_a_problem_of_the_scenario_naming_the_line() {
    let file = NetFile::new("routers,2,2\nlink,0,0,1,0\nlink,0,0,1,1\nterminal,0,0,1\n");
    let doc = json!({"network": {"topology": "irregular", "file": file.path()}, "routing": {"algorithm": "up_down"}});
    let problems = Scenario::check(&doc).expect_err("a port used twice");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].key, "network.file");
    let said = format!("{}, line 3: router 0 port 0 is already used (line 2)", file.path());
    assert!(problems[0].message.contains(&said), "{}", problems[0].message);
    let file = NetFile::new(&ring5(1));
    let doc = json!({"network": {"topology": "irregular", "file": file.path()}, "routing": {"algorithm": "up_down", "root": 5}});
    let problems = Scenario::check(&doc).expect_err("no router 5");
    assert_eq!((problems[0].key.as_str(), problems[0].value.as_str()), ("routing.root", "5"));
    assert!(problems[0].allowed.contains("from 0 to 4"), "{}", problems[0].allowed);
}
