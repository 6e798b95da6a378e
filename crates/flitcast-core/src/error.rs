//! Errors as data: every failure names what happened and where.

use serde::Serialize;

use crate::params::Problem;

/// One blocked input virtual channel, reported by the deadlock watchdog.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlockedChannel {
    pub router: u32,
    pub in_port: u8,
    pub vc: u8,
    /// Flits waiting in that virtual channel.
    pub flits: u32,
    /// Human-readable reason the head flit cannot move.
    pub reason: String,
}

impl std::fmt::Display for BlockedChannel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "router {} in-port {} vc {} ({} flits): {}",
            self.router, self.in_port, self.vc, self.flits, self.reason
        )
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A scenario value is not allowed (`message` says so, naming the key, the value and what is
    /// allowed: `params::Problem`).
    #[error("{message}")]
    Config { key: String, value: String, allowed: String, message: String },

    /// A routing algorithm fails its build-time check (unreachable destination, cyclic
    /// channel dependencies).
    #[error("routing check failed: {message}")]
    Routing { message: String },

    /// The watchdog saw flits in the network and none moved for too long.
    #[error("deadlock: no flit moved for {idle} cycles up to cycle {cycle}; blocked: {}",
            if blocked.is_empty() { "no router holds a flit (every flit is on a channel)".to_string() }
            else { blocked.iter().map(|b| b.to_string()).collect::<Vec<_>>().join("; ") })]
    Deadlock { cycle: u64, idle: u64, blocked: Vec<BlockedChannel> },

    /// Host adapters wait on each other's buffers (study 001 §3, "adapter buffer deadlock"): operations
    /// are pending, yet no destination was served for `idle` cycles — or, with `multicast`, no
    /// multicast destination was, whether or not unicast traffic still moves.
    #[error(
        "adapter buffer deadlock at cycle {cycle}: {pending} {}operations pending and no {}destination served \
         for {idle} cycles ({refused} worms refused so far); the host adapters wait on each other's reception \
         buffers (with workload.buffer_classes = 1 this is expected: docs/models/host_multicast.md)",
        if *multicast { "multicast " } else { "" }, if *multicast { "multicast " } else { "" }
    )]
    AdapterDeadlock { cycle: u64, idle: u64, multicast: bool, pending: u64, refused: u64 },

    /// Flits or packets were lost, duplicated or misdelivered.
    #[error("conservation violated: {message}")]
    Conservation { message: String },

    /// The run was asked to stop (e.g. Ctrl-C) before it finished.
    #[error("interrupted at cycle {cycle}")]
    Interrupted { cycle: u64 },

    /// A bug: an engine invariant failed (reported instead of crashing the host process).
    #[error("internal error: {message}")]
    Internal { message: String },
}

impl Error {
    pub fn config(key: &str, value: impl std::fmt::Display, allowed: impl Into<String>) -> Self {
        Error::from_problems(vec![Problem::new(key, value.to_string(), allowed, None)])
    }

    /// The first of `problems` (not empty), saying how many more there are.
    pub fn from_problems(problems: Vec<Problem>) -> Self {
        let more = problems.len() - 1;
        let Problem { key, value, allowed, mut message, .. } = problems.into_iter().next().expect("a problem");
        if more > 0 {
            message += &format!("; {more} more problem(s) after this one");
        }
        Error::Config { key, value, allowed, message }
    }

    /// Short machine-readable kind, shared with the Python error hierarchy.
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Config { .. } => "config",
            Error::Routing { .. } => "routing",
            Error::Deadlock { .. } | Error::AdapterDeadlock { .. } => "deadlock",
            Error::Conservation { .. } => "conservation",
            Error::Interrupted { .. } => "interrupted",
            Error::Internal { .. } => "internal",
        }
    }
}
