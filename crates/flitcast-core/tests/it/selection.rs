//! Each selection function's choices on scripted grant patterns follow its definition (study 002
//! §4.3). Output ports 4–7 are the candidates (the up side of an SP chip); grants are port masks.

use flitcast_core::routing::{Candidate, Candidates};
use flitcast_core::selection::{records, Request, Selection, SelectionHistory, SelectionKind, Site};

const ALL: u64 = 0xF0;

/// Picks of the selection function `name` for a sequence of (input port, destination switch, granted
/// ports), committing each pick.
fn run(name: &str, script: &[(u8, u32, u64)]) -> Vec<u8> {
    let kind = SelectionKind::of_name(name).expect("a selection function");
    let mut sel = Selection::build(&kind, Site { router: 0, radix: 8, switches: 4, seed: 1 });
    let mut cands = Candidates::default();
    for port in 4..8 {
        cands.push(Candidate { port, vc_lo: 0, vc_hi: 1 });
    }
    script
        .iter()
        .map(|&(in_port, dst_switch, granted)| {
            let req = Request { in_port, dst_switch };
            let (port, _) = sel.choose(req, &cands, |p, _| granted & (1 << p) != 0).expect("something granted");
            sel.commit(req, port);
            port
        })
        .collect()
}

#[test]
fn lru_mru_rr_diverge_as_defined() {
    // All granted, then only 4 and 7 (5 and 6 busy), then all again.
    let script = [(0, 0, ALL), (0, 0, 0x90), (0, 0, ALL)];
    // LRU: 4; then the older of {4, 7} is 7; then 5, which aged while busy.
    assert_eq!(run("lru", &script), [4, 7, 5]);
    // RR: 4; from 5 the next granted is 7; from 0 the next granted is 4 (no memory of 5 and 6).
    assert_eq!(run("rr", &script), [4, 7, 4]);
    // MRU: the initial order makes 7 the most recent, and it stays so.
    assert_eq!(run("mru", &script), [7, 7, 7]);
    // First free: always the lowest granted candidate.
    assert_eq!(run("first_free", &script), [4, 4, 4]);
}

#[test]
fn lru_keeps_a_list_per_input_lruc_one_per_chip_lrud_one_per_destination_switch() {
    // Inputs 0, 1, 0 to destination switches 0, 1, 0.
    let script = [(0, 0, ALL), (1, 1, ALL), (0, 0, ALL)];
    assert_eq!(run("lru", &script), [4, 4, 5], "per input");
    assert_eq!(run("lruc", &script), [4, 5, 6], "shared by the chip");
    assert_eq!(run("lrud", &script), [4, 4, 5], "per destination switch");
    // Same input, alternating destination switches: LRU moves on, LRUD keeps one history each.
    let script = [(0, 0, ALL), (0, 1, ALL), (0, 0, ALL), (0, 1, ALL)];
    assert_eq!(run("lru", &script), [4, 5, 6, 7]);
    assert_eq!(run("lrud", &script), [4, 4, 5, 5]);
}

#[test]
fn rnd_is_uniform_over_the_grants_only() {
    let script: Vec<(u8, u32, u64)> = (0..8000).map(|_| (0, 0, 0xB0)).collect(); // ports 4, 5, 7
    let picks = run("rnd", &script);
    for port in [4u8, 5, 7] {
        let n = picks.iter().filter(|&&p| p == port).count();
        assert!((n as f64 - 8000.0 / 3.0).abs() < 200.0, "port {port}: {n}");
    }
    assert!(!picks.contains(&6));
    assert_eq!(picks, run("rnd", &script), "reproducible");
}

/// RR's RRID over an adaptive hop, a forced hop down through port 1, and another adaptive hop, under
/// both readings of which hops update the history (`routing.selection_history`).
fn rr_after_a_forced_hop(history: SelectionHistory) -> [u8; 2] {
    let mut sel =
        Selection::build(&SelectionKind::Rr(Default::default()), Site { router: 0, radix: 8, switches: 4, seed: 1 });
    let req = Request { in_port: 0, dst_switch: 0 };
    let mut up = Candidates::default();
    for port in 4..8 {
        up.push(Candidate { port, vc_lo: 0, vc_hi: 1 });
    }
    let mut down = Candidates::default();
    down.push(Candidate { port: 1, vc_lo: 0, vc_hi: 1 });
    let mut hop = |cands: &Candidates| {
        let (port, _) = sel.choose(req, cands, |_, _| true).expect("granted");
        if records(history, cands.ports()) {
            sel.commit(req, port);
        }
        port
    };
    let first = hop(&up);
    assert_eq!(hop(&down), 1);
    [first, hop(&up)]
}

#[test]
fn forced_hops_move_rrid_only_when_every_hop_counts() {
    // Every hop: RRID = 1 after the forced hop, so the search restarts at the lowest up port.
    assert_eq!(rr_after_a_forced_hop(SelectionHistory::EveryHop), [4, 4]);
    // Adaptive hops only: RRID stays at 4 and the next up port is 5.
    assert_eq!(rr_after_a_forced_hop(SelectionHistory::AdaptiveHops), [4, 5]);
}
