//! The α-β-γ estimate of a collective (docs/models/collectives.md, "The estimate"): its schedule run in
//! logical time, after Hockney's model with LogGP's overheads and gap — a message of n flits from a to
//! b arrives α(a, b) + β·n after its sender hands it over, α the network's zero-load latency between
//! them and β one cycle per flit (a link's bandwidth), a rank's CPU spends o_s per send, o_r per
//! receive and γ per flit reduced, and its NIC sends one message after the other. Nothing else waits:
//! no two messages share a link or an ejection channel. Where the simulated completion exceeds the
//! estimate, that is contention.

use super::schedule::{Message, Rank, Schedule, Step};

/// What a rank's processor spends.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Costs {
    /// o_s: cycles per message sent, before the NIC has it.
    pub send_overhead: u64,
    /// o_r: cycles per message received, once it has arrived whole.
    pub receive_overhead: u64,
    /// γ: cycles per flit reduced.
    pub reduce_per_flit: f64,
}

impl Costs {
    /// Cycles to reduce `flits` (γ·n, rounded up: a processor works in whole cycles).
    pub fn reduce(&self, flits: u32) -> u64 {
        (self.reduce_per_flit * flits as f64).ceil() as u64
    }
}

/// One message's trip on an idle network: how long its NIC is busy sending it, and how long after the
/// NIC starts it has arrived whole at a receiver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trip {
    pub injection: u64,
    pub latency: u64,
}

/// Each rank's completion: the cycle its last step ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Estimate {
    pub ranks: Vec<u64>,
}

impl Estimate {
    /// The collective's completion: its last rank's.
    pub fn completion(&self) -> u64 {
        self.ranks.iter().copied().max().unwrap_or(0)
    }
}

/// Runs `schedule` in logical time from cycle 0, `trip(message, receiver)` giving each message's trip.
/// Fails if some rank waits for a message that is never sent (the schedule deadlocks).
pub fn run(schedule: &Schedule, costs: &Costs, trip: impl Fn(&Message, Rank) -> Trip) -> Result<Estimate, String> {
    let p = schedule.ranks.len();
    let mut clock = vec![0u64; p];
    let mut nic_free = vec![0u64; p];
    let mut pc = vec![0usize; p];
    // the cycle each message's NIC started sending it
    let mut started: Vec<Option<u64>> = vec![None; schedule.messages.len()];
    loop {
        let mut progress = false;
        for r in 0..p {
            while let Some(step) = schedule.ranks[r].get(pc[r]) {
                match *step {
                    Step::Send { id } => {
                        let m = &schedule.messages[id as usize];
                        clock[r] += costs.send_overhead;
                        let start = clock[r].max(nic_free[r]);
                        nic_free[r] = start + trip(m, m.to[0]).injection;
                        started[id as usize] = Some(start);
                    }
                    Step::Recv { id } => {
                        let Some(start) = started[id as usize] else { break };
                        let arrived = start + trip(&schedule.messages[id as usize], r as Rank).latency;
                        clock[r] = clock[r].max(arrived) + costs.receive_overhead;
                    }
                    Step::Reduce { flits } => clock[r] += costs.reduce(flits),
                }
                pc[r] += 1;
                progress = true;
            }
        }
        if pc.iter().zip(&schedule.ranks).all(|(&i, steps)| i == steps.len()) {
            return Ok(Estimate { ranks: clock });
        }
        if !progress {
            let r = (0..p).find(|&r| pc[r] < schedule.ranks[r].len()).expect("a rank is not done");
            return Err(format!(
                "rank {r} waits for ever at step {} ({:?}): the schedule deadlocks",
                pc[r], schedule.ranks[r][pc[r]]
            ));
        }
    }
}

/// The schedule runs to the end: no rank waits for a message sent only after something that waits on
/// it (what every algorithm's unit test asks, with `Schedule::check`).
pub fn runs_to_the_end(schedule: &Schedule) -> Result<(), String> {
    run(schedule, &Costs::default(), |m, _| Trip { injection: m.flits as u64, latency: 1 }).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rank_waiting_for_ever_is_found() {
        let mut s = Schedule::new(2);
        // each waits for the other's message before sending its own
        s.recv(0, 1);
        let a = s.send(0, 1, 4);
        s.recv(1, a);
        s.send(1, 0, 4);
        assert_eq!(s.check(), Ok(()));
        assert!(runs_to_the_end(&s).unwrap_err().contains("waits for ever"));
    }
}
