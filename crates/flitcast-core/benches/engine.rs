//! Criterion benchmarks: whole runs of the fixed benchmark scenarios (8x8 mesh, uniform, 8-flit
//! packets, 2 VCs x 8 flits) at a light and a heavy load. Throughput is reported in simulated
//! cycles; `flitcast bench` prints cycles/s and flit-hops/s for the same scenarios.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use flitcast_core::Scenario;

fn mesh(load: f64, measure: u64) -> Scenario {
    let mut s = Scenario::default();
    s.workload.load = load;
    s.run.warmup_cycles = 2_000;
    s.run.measure_cycles = measure;
    s
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

criterion_group!(benches, whole_runs);
criterion_main!(benches);
