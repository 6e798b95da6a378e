//! The 8x8 mesh points of `cargo bench` (`mesh8x8_uniform`, `mesh8x8_long_worms`: DOR, uniform traffic,
//! input-buffered routers with 2 VCs x 8 flits, 2,000 warm-up and 20,000 measured cycles), run one after
//! the other: per point the engine's wall time (the build left out), its cycles and flit-hops, and with
//! the feature `worm_counts` what a per-worm fast path could absorb (docs/engine.md, "Per-worm fast path:
//! its ceiling, measured").
//!
//! `cargo run --release -p flitcast-core --example worm_points [--features worm_counts] -- [FLITS:LOAD ...]`
//! (by default every point: 8-, 64- and 512-flit packets at loads 0.1, 0.3 and 0.6). `REPEAT=n` runs the
//! list n times over, in turn; `cpu_seconds` is the thread's time on a CPU (from /proc on Linux, else the
//! wall time), steadier than wall time on a shared machine.

use std::time::Instant;

use flitcast_core::{Scenario, Simulation};
use serde_json::json;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let points: Vec<(u32, f64)> = if args.is_empty() {
        [8, 64, 512].iter().flat_map(|&f| [0.1, 0.3, 0.6].map(|l| (f, l))).collect()
    } else {
        args.iter()
            .map(|a| {
                let (f, l) = a.split_once(':').expect("FLITS:LOAD");
                (f.parse().expect("flits"), l.parse().expect("load"))
            })
            .collect()
    };
    let repeat: usize = std::env::var("REPEAT").ok().and_then(|r| r.parse().ok()).unwrap_or(1);
    for (flits, load) in (0..repeat).flat_map(|_| points.iter().copied()) {
        let s = Scenario::default().set(&[
            ("workload.load", json!(load)),
            ("workload.packet_flits", json!(flits)),
            ("run.warmup_cycles", json!(2_000)),
            ("run.measure_cycles", json!(20_000)),
        ]);
        let sim = Simulation::build(&s).expect("the point builds");
        #[cfg(feature = "worm_counts")]
        flitcast_core::worm_counts::take();
        let (start, cpu) = (Instant::now(), cpu_seconds());
        let r = sim.run().expect("the point runs");
        let seconds = start.elapsed().as_secs_f64();
        let cpu = cpu_seconds().zip(cpu).map_or(seconds, |(after, before)| after - before);
        print!(
            "{flits} {load} seconds {seconds:.4} cpu_seconds {cpu:.4} cycles {} skipped {} flit_hops {} mhops_per_s {:.2}",
            r.cycles,
            r.cycles_skipped,
            r.flit_hops,
            r.flit_hops as f64 / cpu / 1e6
        );
        #[cfg(feature = "worm_counts")]
        print!(" {:?}", flitcast_core::worm_counts::take());
        println!();
    }
}

/// This thread's time on a CPU so far (the first field of /proc/thread-self/schedstat, in nanoseconds).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(stat.split_whitespace().next()?.parse::<f64>().ok()? / 1e9)
}
