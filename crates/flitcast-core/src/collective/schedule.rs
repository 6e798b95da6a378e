//! A collective operation's schedule (docs/models/collectives.md): per rank, the steps its host runs
//! in order — send a message, receive one, reduce what arrived — built by one algorithm
//! (`collective/*.rs`) and run either on the network by the `collective` host program or, without one,
//! by the α-β-γ estimate (`estimate.rs`). Ranks are positions in the group (0 to P − 1), not node ids.
//!
//! A send does not wait: the rank spends its send overhead, hands the message to its NIC and goes on.
//! A receive waits until the message has arrived whole, then spends the receive overhead. So a round in
//! which each rank sends and receives ("exchange with a partner") is written sends first.

/// A rank: a position in the collective's group.
pub type Rank = u32;

/// One thing a rank does, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Send message `id` (to one rank, or one multidestination message to several).
    Send { id: u32 },
    /// Wait until message `id` has arrived.
    Recv { id: u32 },
    /// Combine `flits` of received data with its own (the reduction's compute cost).
    Reduce { flits: u32 },
}

/// A message of the schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub from: Rank,
    /// One rank, or several for a multidestination (hardware multicast) message.
    pub to: Vec<Rank>,
    /// Payload flits; at least one (a message without data still carries its envelope).
    pub flits: u32,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Schedule {
    /// Each rank's steps, in the order it runs them.
    pub ranks: Vec<Vec<Step>>,
    pub messages: Vec<Message>,
}

impl Schedule {
    /// An empty schedule of `ranks` ranks.
    pub fn new(ranks: u32) -> Schedule {
        Schedule { ranks: vec![Vec::new(); ranks as usize], messages: Vec::new() }
    }

    pub fn size(&self) -> u32 {
        self.ranks.len() as u32
    }

    /// `from` sends `flits` to `to` next; returns the message, which `to` must [`recv`](Self::recv).
    pub fn send(&mut self, from: Rank, to: Rank, flits: u32) -> u32 {
        self.multicast(from, vec![to], flits)
    }

    /// `from` sends one multidestination message of `flits` to every rank of `to` next.
    pub fn multicast(&mut self, from: Rank, to: Vec<Rank>, flits: u32) -> u32 {
        let id = self.messages.len() as u32;
        self.messages.push(Message { from, to, flits: flits.max(1) });
        self.ranks[from as usize].push(Step::Send { id });
        id
    }

    /// `at` waits for message `id` next.
    pub fn recv(&mut self, at: Rank, id: u32) {
        self.ranks[at as usize].push(Step::Recv { id });
    }

    /// `at` waits for message `id` and reduces its payload into its own.
    pub fn recv_reduce(&mut self, at: Rank, id: u32, reduce: bool) {
        self.recv(at, id);
        if reduce {
            let flits = self.messages[id as usize].flits;
            self.ranks[at as usize].push(Step::Reduce { flits });
        }
    }

    /// Every message is sent once by its sender and received exactly once by each of its receivers,
    /// none of them the sender: what every algorithm's unit test asks (with `estimate::runs_to_the_end`).
    pub fn check(&self) -> Result<(), String> {
        let p = self.size();
        let mut sent = vec![0u32; self.messages.len()];
        let mut received: Vec<Vec<Rank>> = vec![Vec::new(); self.messages.len()];
        for (r, steps) in self.ranks.iter().enumerate() {
            for step in steps {
                match *step {
                    Step::Send { id } => {
                        let m = &self.messages[id as usize];
                        if m.from != r as Rank {
                            return Err(format!("rank {r} sends message {id} of rank {}", m.from));
                        }
                        sent[id as usize] += 1;
                    }
                    Step::Recv { id } => received[id as usize].push(r as Rank),
                    Step::Reduce { .. } => {}
                }
            }
        }
        for (id, m) in self.messages.iter().enumerate() {
            let mut want = m.to.clone();
            want.sort_unstable();
            let mut got = received[id].clone();
            got.sort_unstable();
            if sent[id] != 1 || want != got || want.contains(&m.from) || want.iter().any(|&t| t >= p) {
                return Err(format!("message {id} {m:?}: sent {} times, received by {got:?}", sent[id]));
            }
        }
        Ok(())
    }
}

/// Part `i` of `total` flits cut into `parts` near-equal parts (the first `total % parts` one flit
/// longer): its first flit and its length.
pub fn block(total: u32, parts: u32, i: u32) -> (u32, u32) {
    let (base, extra) = (total / parts, total % parts);
    (i * base + i.min(extra), base + u32::from(i < extra))
}

/// The flits of parts `from..from + count` (wrapping past `parts` is not allowed).
pub fn blocks(total: u32, parts: u32, from: u32, count: u32) -> u32 {
    (from..from + count).map(|i| block(total, parts, i).1).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_cover_the_whole() {
        for total in [0, 1, 7, 64, 1000] {
            for parts in 1..=9 {
                let mut next = 0;
                for i in 0..parts {
                    let (lo, len) = block(total, parts, i);
                    assert_eq!(lo, next);
                    next += len;
                }
                assert_eq!(next, total);
                assert_eq!(blocks(total, parts, 0, parts), total);
            }
        }
    }

    #[test]
    fn check_finds_a_missing_and_a_second_receive() {
        let mut s = Schedule::new(2);
        let id = s.send(0, 1, 4);
        assert!(s.check().is_err());
        s.recv(1, id);
        assert_eq!(s.check(), Ok(()));
        s.recv(1, id);
        assert!(s.check().is_err());
    }
}
