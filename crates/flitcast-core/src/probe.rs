//! Zero-load probes: scripted messages on an otherwise idle network, each one's latency and hops
//! (the closed-form tests of docs/validation.md).

use crate::engine::Simulation;
use crate::error::Error;
use crate::host::program::{Priority, Send, Serves, Target};
use crate::stats::Collector;
use crate::time::Cycle;

/// Outcome of a zero-load probe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probe {
    pub latency: u64,
    pub hops: u32,
}

impl Simulation {
    /// Zero-load probe: one message from `src` to `dst` created at cycle 0 on an idle network,
    /// nothing else. Returns its latency (creation to tail delivery) and its hop count.
    pub fn probe(self, src: u32, dst: u32) -> Result<Probe, Error> {
        Ok(self.probe_many(&[(0, src, dst)])?[0])
    }

    /// Scripted probe: messages (creation cycle, source, destination) on an otherwise idle network.
    /// Returns each message's latency and hop count, in the order given.
    pub fn probe_many(mut self, script: &[(Cycle, u32, u32)]) -> Result<Vec<Probe>, Error> {
        let terminals = self.topo.terminals() as u32;
        for &(_, src, dst) in script {
            for (key, v) in [("probe.src", src), ("probe.dst", dst)] {
                if v >= terminals {
                    return Err(Error::config(key, v, format!("a terminal id from 0 to {}", terminals - 1)));
                }
            }
        }
        let mut order: Vec<usize> = (0..script.len()).collect();
        order.sort_by_key(|&i| script[i].0);
        let last = script.iter().map(|s| s.0).max().unwrap_or(0);
        // Measure everything created up to the last scripted message, one batch per message.
        self.stats = Collector::keeping_each(0, last + 1);
        let limit = last + self.scenario.run.watchdog_cycles;
        let flits = self.scenario.message_flits();
        let mut next = 0;
        let mut ids = vec![u32::MAX; script.len()];
        while next < order.len() || self.stats.outstanding > 0 {
            while next < order.len() && script[order[next]].0 == self.now {
                let (_, src, dst) = script[order[next]];
                ids[order[next]] = self.stats.operations_opened as u32;
                let send = Send {
                    src,
                    target: Target::One(dst),
                    flits,
                    header_flits: 0,
                    serves: Serves::NewOperation,
                    tag: 0,
                    priority: Priority::Unicast,
                    cut_through: None,
                };
                self.with_hosts(|hosts, net| hosts.send(net, send))?;
                next += 1;
            }
            if self.now > limit {
                return Err(self.deadlock(limit));
            }
            self.cycle()?;
            self.now += 1;
        }
        self.check_conservation()?;
        Ok(ids
            .into_iter()
            .map(|id| {
                let (latency, hops) = self.stats.delivered(id).expect("every probe message is delivered");
                Probe { latency, hops }
            })
            .collect())
    }

    /// Zero-load probe of one multicast, as the scenario's program sends them: `src` starts it to
    /// `dests` at cycle 0 on an idle network. Returns its latency by definition (a), the last
    /// destination, and (b), the mean over its destinations.
    pub fn probe_multicast(mut self, src: u32, dests: &[u32]) -> Result<(u64, f64), Error> {
        let terminals = self.topo.terminals() as u32;
        let mut sorted = dests.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.is_empty() || sorted.len() != dests.len() || sorted.contains(&src) || src >= terminals {
            return Err(Error::config(
                "probe.dests",
                format!("{dests:?} from {src}"),
                format!("distinct terminal ids below {terminals}, other than the source"),
            ));
        }
        self.stats = Collector::keeping_each(0, 1);
        if !self.with_hosts(|hosts, net| hosts.begin_multicast(net, src, sorted))? {
            return Err(Error::config(
                "workload.program",
                format!("'{}'", self.scenario.workload.program.name()),
                "'software_multicast' or 'hardware_multicast' to probe a multicast",
            ));
        }
        let limit = self.scenario.run.watchdog_cycles * (dests.len() as u64 + 1);
        while self.stats.outstanding > 0 {
            if self.now > limit {
                return Err(self.deadlock(limit));
            }
            self.cycle()?;
            self.now += 1;
        }
        self.check_conservation()?;
        let (latency, _) = self.stats.delivered(0).expect("the probed operation completed");
        Ok((latency, self.stats.delivered_dest_mean(0).expect("the probed operation completed")))
    }
}
