//! Criterion benchmarks.
//!
//! * `router_step`: one input-buffered router in the middle of an 8x8 mesh, loaded with five 8-flit
//!   packets that cross it towards five different outputs, stepped until it is empty (40 flits).
//! * `mesh8x8_uniform`: whole runs of the fixed benchmark scenarios (8-flit packets, 2 VCs x 8 flits)
//!   at a light and a heavy load, throughput in simulated cycles. `flitcast bench` prints cycles/s
//!   and flit-hops/s for the same scenarios.
//! * `mesh8x8_long_worms`: the same mesh with 64- and 512-flit packets at loads 0.1, 0.3 and saturated
//!   (0.6), throughput in flit-hops (`flitcast bench` has the same points).
//! * `sp128_bit_reversal_1KB`: the 128-node SP network of study 002 at load 0.5.
//! * `sp128_uniform_128B`: the same network per switch model (central buffer, input FIFO) at load 0.3
//!   and saturated, throughput in flit-hops (`flitcast bench` has the 4 KB and bit-reversal points too).
//! * `big_on_threads`: one run of a 64x64 mesh, a 4,096-node fat tree and a 1,056-node dragonfly (UGAL-L)
//!   at load 0.3 on 1 and 2 threads (`run.threads`), throughput in flit-hops, the build (route checks)
//!   left out.

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use flitcast_core::credits::Lanes;
use flitcast_core::packet::{Dest, Flit, Header, Packet, Slab};
use flitcast_core::switch::{Alone, Router, Site};
use flitcast_core::{Scenario, Simulation};
use serde_json::json;

fn mesh(load: f64, measure: u64) -> Scenario {
    Scenario::default().set(&[
        ("workload.load", json!(load)),
        ("run.warmup_cycles", json!(2_000)),
        ("run.measure_cycles", json!(measure)),
    ])
}

fn router_step(c: &mut Criterion) {
    let s = Scenario::default();
    let topo = s.topology().unwrap();
    let routing = s.routing(&topo).unwrap();
    let sw = &s.switch.model;
    let credits = Lanes::new(&topo, sw.vcs()).initial(&topo, sw.buffer_flits());
    let me = 3 * 8 + 3;
    // (input port, destination): from +x to -x, -x to +x, +y to -y, -y to +y, terminal to itself.
    let flows = [(0u8, 3 * 8), (1, 3 * 8 + 7), (2, 3), (3, 7 * 8 + 3), (4, me)];
    let mut packets = Slab::default();
    let site = Site { router: me, ..s.switch_site(&topo, &routing) };
    let mut loaded = Router::build(sw, &site);
    for &(port, dst) in &flows {
        let p = packets.insert(Packet::unicast(Header::new(0, Dest::One(dst), 0, 8, 0, false, 0)));
        for i in 0..8 {
            assert!(loaded.accept_flit(port, 0, Flit::new(p, i == 0, i == 7), 0, 0));
        }
    }
    let mut g = c.benchmark_group("router_step");
    g.throughput(Throughput::Elements(40));
    g.bench_function("5x8_flits_through_mesh_router", |b| {
        b.iter_batched(
            || {
                let mut alone = Alone::new(topo.clone(), routing.clone(), credits.clone());
                alone.packets = packets.clone();
                (loaded.clone(), alone)
            },
            |(mut router, mut alone)| {
                let mut now = 0;
                while router.flits() > 0 {
                    alone.cycle(now, |ctx| router.step(me, ctx));
                    now += 1;
                }
                alone.counters.flit_hops
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

fn whole_runs(c: &mut Criterion) {
    let mut g = c.benchmark_group("mesh8x8_uniform");
    g.sample_size(10);
    for &load in &[0.1, 0.3] {
        let s = mesh(load, 20_000);
        let cycles = flitcast_core::run(&s).expect("bench scenario runs").cycles;
        g.throughput(Throughput::Elements(cycles));
        g.bench_with_input(BenchmarkId::new("load", load), &s, |b, s| b.iter(|| flitcast_core::run(s).unwrap()));
    }
    g.finish();
}

/// Long worms on the same mesh (the studies' 64- to 512-flit packets): where a worm's body dominates the
/// flit-hops, at loads 0.1 and 0.3 and saturated (0.6); throughput in flit-hops.
fn long_worms(c: &mut Criterion) {
    let mut g = c.benchmark_group("mesh8x8_long_worms");
    g.sample_size(10);
    for flits in [64, 512] {
        for load in [0.1, 0.3, 0.6] {
            let s = mesh(load, 20_000).set(&[("workload.packet_flits", json!(flits))]);
            let hops = flitcast_core::run(&s).expect("bench scenario runs").flit_hops;
            g.throughput(Throughput::Elements(hops));
            g.bench_with_input(BenchmarkId::new(format!("{flits}_flits"), load), &s, |b, s| {
                b.iter(|| flitcast_core::run(s).unwrap())
            });
        }
    }
    g.finish();
}

/// The 128-node SP network of study 002: central-buffer switches, adaptive LRU routing, bit-reversal,
/// 1 KB messages (512 two-byte flits), load 0.5.
fn sp128(c: &mut Criterion) {
    let s = mesh(0.5, 20_000).set(&[
        ("network.topology", json!("sp128")),
        ("switch.model", json!("central_buffer")), // 64-flit FIFOs, 6 cycles through a switch
        ("routing.algorithm", json!("adaptive")),
        ("routing.selection", json!("lru")),
        ("workload.pattern", json!("bit_reversal")),
        ("workload.packet_flits", json!(512)),
        ("workload.message_flits", json!(512)),
    ]);
    let cycles = flitcast_core::run(&s).expect("bench scenario runs").cycles;
    let mut g = c.benchmark_group("sp128_bit_reversal_1KB");
    g.sample_size(10);
    g.throughput(Throughput::Elements(cycles));
    g.bench_function("load_0.5", |b| b.iter(|| flitcast_core::run(&s).unwrap()));
    g.finish();
}

/// Where the studies spend their time: the 128-node SP network per switch model (central buffer, input
/// FIFO), uniform 128-byte messages, at load 0.3 and saturated (1.0); throughput in flit-hops, the cost
/// the engine should keep flat from one load to the other.
fn sp128_per_switch(c: &mut Criterion) {
    let mut g = c.benchmark_group("sp128_uniform_128B");
    g.sample_size(10);
    for model in ["central_buffer", "input_fifo"] {
        for load in [0.3, 1.0] {
            let s = mesh(load, 10_000).set(&[
                ("network.topology", json!("sp128")),
                ("switch.model", json!(model)),
                ("routing.algorithm", json!("adaptive")),
                ("routing.selection", json!("lru")),
                ("workload.packet_flits", json!(64)),
                ("workload.message_flits", json!(64)),
            ]);
            let hops = flitcast_core::run(&s).expect("bench scenario runs").flit_hops;
            g.throughput(Throughput::Elements(hops));
            g.bench_with_input(BenchmarkId::new(model, load), &s, |b, s| b.iter(|| flitcast_core::run(s).unwrap()));
        }
    }
    g.finish();
}

/// The big networks `run.threads` is for (docs/engine.md, "Regions"): uniform traffic at load 0.3 on a
/// 64x64 mesh (past saturation) and a 4,096-node 8-ary 4-tree with adaptive routing.
pub fn big(network: &str) -> Scenario {
    // (no drain: the mesh is past saturation and would drain for the whole drain window)
    let s = mesh(0.3, 700).set(&[
        ("run.warmup_cycles", json!(300)),
        ("run.saturation_stop", json!("off")),
        ("run.drain_max_cycles", json!(0)),
    ]);
    match network {
        "mesh64" => s.set(&[("network.k", json!(64))]),
        "dragonfly1056" => Scenario::of(json!({
            "network": {"topology": "dragonfly", "p": 4, "a": 8, "h": 4},
            "switch": {"vcs": 3},
            "routing": {"algorithm": "ugal_l"},
            "workload": {"load": 0.3},
            "run": {"warmup_cycles": 300, "measure_cycles": 700, "saturation_stop": "off", "drain_max_cycles": 0},
        })),
        _ => s.set(&[
            ("network.topology", json!("fat_tree")),
            ("network.k", json!(8)),
            ("network.n", json!(4)),
            ("routing.algorithm", json!("adaptive")),
        ]),
    }
}

fn big_on_threads(c: &mut Criterion) {
    let mut g = c.benchmark_group("big_on_threads");
    g.sample_size(10);
    for network in ["mesh64", "fat_tree4096", "dragonfly1056"] {
        let s = big(network);
        let hops = flitcast_core::run(&s).expect("bench scenario runs").flit_hops;
        g.throughput(Throughput::Elements(hops));
        for threads in [1, 2] {
            let s = s.set(&[("run.threads", json!(threads))]);
            g.bench_with_input(BenchmarkId::new(network, threads), &s, |b, s| {
                b.iter_batched(|| Simulation::build(s).unwrap(), |sim| sim.run().unwrap(), BatchSize::PerIteration)
            });
        }
    }
    g.finish();
}

criterion_group!(benches, router_step, whole_runs, long_worms, sp128, sp128_per_switch, big_on_threads);
criterion_main!(benches);
