//! Counters of what a per-worm fast path could absorb (docs/engine.md, "Per-worm fast path: its ceiling,
//! measured"). Built only with the cargo feature `worm_counts` (off by default); the default build has
//! none of this. Only the input-buffered router with combined VC allocation counts, on one thread.
//!
//! Per router step it records the flits moved and which of them are *absorbable* — a body flit (not a
//! head) whose input VC already holds its output VC, where in that cycle no other VC of its input port
//! could have been offered and no other input VC of the router could have requested its output:
//!
//! * *loose*: the other VCs of the input port may hold flits but none could request this cycle (a blocked
//!   head, a held VC without a credit);
//! * *strict*: the input port holds flits in that VC alone.
//!
//! A step *vanishes* when it moves at least one flit, every flit it moves is absorbable and it has nothing
//! else to do: loosely, no unrouted head waits in it (routing it would change its state); strictly, every
//! VC holding flits moved one. A *segment* is a maximal stretch of consecutive cycles in which one input VC
//! of one router moves an absorbable flit each cycle (what a run of the fast path would cover at that
//! router at most).

use std::cell::RefCell;

use crate::time::Cycle;

#[derive(Debug, Clone, Default)]
pub struct Counts {
    /// Router steps (a router holding flits, visited in a cycle).
    pub steps: u64,
    /// Steps that moved no flit.
    pub idle_steps: u64,
    /// Flits moved through a crossbar (flit-hops), of them heads, and of them onto ejection channels.
    pub moves: u64,
    pub head_moves: u64,
    pub to_terminal: u64,
    /// Absorbable moves (loose, strict), and those of them onto ejection channels.
    pub absorbable: u64,
    pub absorbable_strict: u64,
    pub absorbable_to_terminal: u64,
    pub absorbable_strict_to_terminal: u64,
    /// Steps that vanish (loose, strict).
    pub vanishing: u64,
    pub vanishing_strict: u64,
    /// Segments of absorbable moves (loose, strict).
    pub segments: u64,
    pub segments_strict: u64,
    /// Stretches of absorbable moves of one input VC that only credit stalls separate (loose): broken by a
    /// move that is not absorbable (a head's, or one another VC could have interleaved with).
    pub runs_across_stalls: u64,
    /// Flits arriving at routers from the wheel (from routers and from NICs), and at terminals.
    pub arrivals: u64,
    pub ejections: u64,
    /// Heads whose allocation was tried (`allocate` called), and of them those that got no output VC.
    pub head_tries: u64,
    pub head_fails: u64,
}

thread_local! {
    static COUNTS: RefCell<Counts> = RefCell::new(Counts::default());
    /// Per (router, port, VC): the last cycle it moved an absorbable flit (loose, strict), and whether its
    /// last move was absorbable (loose).
    static LAST: RefCell<Vec<(Cycle, Cycle, bool)>> = const { RefCell::new(Vec::new()) };
}

/// Adds to this thread's counts.
#[inline]
pub fn with(f: impl FnOnce(&mut Counts)) {
    COUNTS.with(|c| f(&mut c.borrow_mut()));
}

/// This thread's counts since the last call, which resets them.
pub fn take() -> Counts {
    LAST.with(|l| l.borrow_mut().clear());
    COUNTS.with(|c| std::mem::take(&mut *c.borrow_mut()))
}

/// An absorbable move of input VC `index` (a number unique per router, port and VC) at `now`: whether it
/// starts a segment, loose and strict, and a run across credit stalls.
pub fn segment(index: usize, now: Cycle, strict: bool) -> (bool, bool, bool) {
    LAST.with(|l| {
        let mut l = l.borrow_mut();
        if l.len() <= index {
            l.resize(index + 1, (Cycle::MAX, Cycle::MAX, false));
        }
        let (loose_last, strict_last, absorbed) = &mut l[index];
        let starts = *loose_last == Cycle::MAX || *loose_last + 1 != now;
        *loose_last = now;
        let starts_strict = strict && (*strict_last == Cycle::MAX || *strict_last + 1 != now);
        if strict {
            *strict_last = now;
        }
        let starts_stalled = !*absorbed;
        *absorbed = true;
        (starts, starts_strict, starts_stalled)
    })
}

/// A move of input VC `index` that is not absorbable.
pub fn moved_otherwise(index: usize) {
    LAST.with(|l| {
        let mut l = l.borrow_mut();
        if l.len() <= index {
            l.resize(index + 1, (Cycle::MAX, Cycle::MAX, false));
        }
        l[index].2 = false;
    })
}
