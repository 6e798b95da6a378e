//! Property tests: on random sizes, DOR delivers every packet along a minimal path (the zero-load
//! probe's hop count equals the independent distance), and the build-time checks pass.

use flitcast_core::Simulation;
use proptest::prelude::*;

use crate::common::cube_dir;

fn kind() -> impl Strategy<Value = (&'static str, bool)> {
    prop_oneof![
        Just(("mesh", false)),
        Just(("torus", false)),
        Just(("torus", true)),
        Just(("ring", false)),
        Just(("ring", true)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn dor_reaches_every_destination_minimally(
        (topo, uni) in kind(), k in 2u32..8, n in 1u32..4, src_seed in any::<u32>(), dst_seed in any::<u32>()
    ) {
        let s = cube_dir(topo, k, n, uni);
        let nodes = s.nodes().unwrap() as u32;
        let (src, dst) = (src_seed % nodes, dst_seed % nodes);
        let nn = if topo == "ring" { 1 } else { n };
        let expect: u32 = (0..nn).map(|d| {
            let (x, y) = ((src / k.pow(d)) % k, (dst / k.pow(d)) % k);
            let fwd = (y + k - x) % k;
            match (topo, uni) {
                ("mesh", _) => x.abs_diff(y),
                (_, true) => fwd,
                _ => fwd.min(k - fwd),
            }
        }).sum();
        let p = Simulation::build(&s).unwrap().probe(src, dst).unwrap();
        prop_assert_eq!(p.hops, expect);
    }
}
