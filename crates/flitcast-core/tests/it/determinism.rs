//! Same scenario and seed ⇒ bit-identical statistics, whatever the thread count; another seed gives
//! another sample.

use flitcast_core::Scenario;
use rayon::prelude::*;
use serde_json::json;

use crate::common::cube;

fn fingerprint(s: &Scenario) -> String {
    // JSON, so that NaN fields compare equal to themselves.
    serde_json::to_string(&flitcast_core::run(s).unwrap()).unwrap()
}

#[test]
fn same_seed_same_result_on_any_thread_count() {
    let points: Vec<Scenario> =
        [0.05, 0.2, 0.35, 0.6].iter().map(|&load| cube("torus", 4, 2).set(&[("workload.load", json!(load))])).collect();
    let serial: Vec<String> = points.iter().map(fingerprint).collect();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    let parallel: Vec<String> = pool.install(|| points.par_iter().map(fingerprint).collect());
    assert_eq!(serial, parallel);
    assert_eq!(serial[1], fingerprint(&points[1]));
}

#[test]
fn another_seed_gives_another_sample() {
    let s = cube("mesh", 4, 2).set(&[("workload.load", json!(0.2))]);
    let a = flitcast_core::run(&s).unwrap();
    let s = s.set(&[("run.seed", json!(2))]);
    let b = flitcast_core::run(&s).unwrap();
    assert_ne!(a.latency_mean, b.latency_mean);
    assert!((a.latency_mean - b.latency_mean).abs() < 0.1 * a.latency_mean);
}
