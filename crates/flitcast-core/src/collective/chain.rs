//! Pipelined chain broadcast (Thakur, Rabenseifner and Gropp, IJHPCA 2005; Träff and Ripke's
//! pipelined algorithms): the ranks form a chain from the root in rank order, and the message is cut
//! into segments that follow each other down it, each rank forwarding a segment as soon as it has it.
//! A send does not wait for its segment to leave, so the segments follow each other at β·s (or at a
//! relaying rank's o_s + o_r per segment, if that is more): (P − 1)·(α + β·s) + (⌈n/s⌉ − 1)·β·s for
//! segments of s flits, not the blocking sends' (P − 2 + ⌈n/s⌉)·(α + β·s) (docs/models/collectives.md):
//! for long messages, close to one message's time whatever P.

use super::schedule::{Rank, Schedule};

/// Appends a chain broadcast of `flits` from `root` in segments of `segment` flits to `s`.
pub fn broadcast(s: &mut Schedule, root: Rank, flits: u32, segment: u32) {
    let p = s.size();
    let real = |v: u32| (v + root) % p;
    let sizes: Vec<u32> = segments(flits, segment).collect();
    let mut previous: Vec<u32> = Vec::new();
    for v in 0..p {
        let mut sent = Vec::with_capacity(sizes.len());
        for (k, &size) in sizes.iter().enumerate() {
            if v > 0 {
                s.recv(real(v), previous[k]);
            }
            if v + 1 < p {
                sent.push(s.send(real(v), real(v + 1), size));
            }
        }
        previous = sent;
    }
}

/// The segments of `flits` cut every `segment` flits (one segment, at least).
pub fn segments(flits: u32, segment: u32) -> impl Iterator<Item = u32> {
    let count = flits.div_ceil(segment).max(1);
    (0..count).map(move |k| (flits - k * segment).min(segment))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collective::estimate::{run, Costs, Trip};

    #[test]
    fn a_chain_takes_p_minus_2_plus_segments_segment_times() {
        for p in 2..=9u32 {
            for (flits, segment) in [(64, 8), (60, 8), (8, 8), (5, 8)] {
                let mut s = Schedule::new(p);
                broadcast(&mut s, p - 1, flits, segment);
                s.check().unwrap();
                let count = flits.div_ceil(segment) as u64;
                // α = 0, β = 1, full segments: each hop passes a segment on as the next arrives
                let trip = |m: &crate::collective::schedule::Message, _| Trip {
                    injection: m.flits as u64,
                    latency: m.flits as u64,
                };
                let done = run(&s, &Costs::default(), trip).unwrap().completion();
                if flits % segment == 0 {
                    assert_eq!(done, (p as u64 - 2 + count) * segment as u64, "p={p} n={flits}");
                }
                assert_eq!(segments(flits, segment).sum::<u32>(), flits);
            }
        }
    }
}
