//! An input FIFO of flits (the central-buffer and input-FIFO switches' inputs), with each copy's
//! route position — the hops it had made on arriving — kept beside its head (docs/engine.md,
//! "Packets and copies").
//!
//! One channel carries one worm at a time, so the flits in such a FIFO are runs of consecutive flits
//! of one packet copy. The FIFO keeps the runs, not the flits: a flit arriving extends the last run
//! (a head starts a new one), and a flit leaving is rebuilt from the first. The first and the last run
//! are kept in the FIFO itself, so a flit arriving or leaving touches only the FIFO's own record —
//! the input's cache line, which the switch reads anyway — where a ring of flits brings in a cold
//! line at each (on a saturated network that was a third of the engine's cache misses). Runs between
//! them, while three or more worms are queued, wait in a queue of their own.

use std::collections::VecDeque;

use crate::packet::Flit;

/// Flits of one packet copy, in order: `count` of them are in the FIFO.
#[derive(Debug, Clone, Copy, Default)]
struct Run {
    packet: u32,
    count: u32,
    /// The run's first flit in the FIFO is the packet's head.
    head: bool,
    /// The run's last flit in the FIFO is the packet's tail (no flit will join it).
    tail: bool,
    /// The hops the copy had made when its head arrived.
    hops: u16,
}

#[derive(Debug, Clone, Default)]
#[repr(C)] // (the fields every flit touches first; the rarely used middle runs last, out of line)
pub struct FlitFifo {
    /// Flits in the FIFO.
    len: u32,
    /// Runs in the FIFO: `first`, then `middle`, then `last` (one run is `first` alone). The first run
    /// may be empty only while it is the only one and waits for the rest of its worm.
    runs: u32,
    first: Run,
    last: Run,
    /// The hops of the copy whose flits are leaving (set as its head leaves).
    pub hops: u16,
    /// Runs between the first and the last, oldest first (boxed: one word in the record instead of a
    /// queue's four, so the record stays in the input's first cache line; allocated only when a third
    /// worm queues).
    #[allow(clippy::box_collection)]
    middle: Option<Box<VecDeque<Run>>>,
}

impl FlitFifo {
    /// Appends `flit`; the caller keeps the FIFO within the capacity its credits give it.
    #[inline]
    pub fn push(&mut self, flit: Flit, hops: u16) {
        self.len += 1;
        if !flit.head() {
            let run = if self.runs == 1 { &mut self.first } else { &mut self.last };
            debug_assert!(self.runs > 0 && run.packet == flit.packet() && !run.tail, "a body flit follows its worm");
            run.count += 1;
            run.tail = flit.tail();
            return;
        }
        let run = Run { packet: flit.packet(), count: 1, head: true, tail: flit.tail(), hops };
        match self.runs {
            0 => self.first = run,
            1 => self.last = run,
            _ => {
                let last = std::mem::replace(&mut self.last, run);
                self.queue_middle_run(last);
            }
        }
        self.runs += 1;
    }

    #[cold]
    fn queue_middle_run(&mut self, run: Run) {
        self.middle.get_or_insert_default().push_back(run);
    }

    /// Takes the front flit out (a head brings its copy's hops along).
    #[inline]
    pub fn pop(&mut self) -> Option<Flit> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        let run = &mut self.first;
        let head = run.head;
        if head {
            self.hops = run.hops;
            run.head = false;
        }
        run.count -= 1;
        let tail = run.tail && run.count == 0;
        let flit = Flit::new(run.packet, head, tail);
        if tail {
            self.next_run();
        }
        Some(flit)
    }

    /// The first run has left: the next one becomes the first.
    #[inline]
    fn next_run(&mut self) {
        self.runs -= 1;
        match self.runs {
            0 => {}
            1 => self.first = self.last,
            _ => self.first = self.next_middle_run(),
        }
    }

    #[cold]
    fn next_middle_run(&mut self) -> Run {
        let middle = self.middle.as_mut().and_then(|m| m.pop_front());
        middle.expect("runs between the first and the last")
    }

    #[inline]
    pub fn front(&self) -> Option<Flit> {
        (self.len > 0).then(|| Flit::new(self.first.packet, self.first.head, self.first.tail && self.first.count == 1))
    }

    /// The hops of the copy whose head is at the front.
    #[inline]
    pub fn front_hops(&self) -> u16 {
        assert!(self.len > 0 && self.first.head, "a head at the front has its hops");
        self.first.hops
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes a FIFO holding at most `flits` flits may take beyond its record: runs queued between the
    /// first and the last, one per worm (for memory estimates).
    pub fn spill_bytes(flits: u32) -> usize {
        flits as usize * std::mem::size_of::<Run>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worms of random lengths go in and come out flit by flit, in order, each head with its hops,
    /// with up to five worms queued at once.
    #[test]
    fn keeps_order_and_hops() {
        let capacity = 5;
        let mut fifo = FlitFifo::default();
        let mut expected = std::collections::VecDeque::new();
        // (packet, flits, next flit to push)
        let mut worm = (0u32, 1u32, 0u32);
        for round in 0..2_000u32 {
            for _ in 0..(round * 7 % 4) {
                if fifo.len() == capacity {
                    break;
                }
                if worm.2 == worm.1 {
                    worm = (worm.0 + 1, (round * 13 + worm.0) % 4 + 1, 0);
                }
                let (packet, flits, i) = worm;
                let flit = Flit::new(packet, i == 0, i + 1 == flits);
                fifo.push(flit, packet as u16);
                expected.push_back(flit);
                worm.2 += 1;
            }
            for _ in 0..(round * 5 % 3) {
                assert_eq!(fifo.front(), expected.front().copied());
                let Some(flit) = fifo.pop() else { break };
                assert_eq!(Some(flit), expected.pop_front());
                if flit.head() {
                    assert_eq!(fifo.hops, flit.packet() as u16);
                }
            }
            assert_eq!(fifo.len(), expected.len());
        }
    }
}
