//! The vocabulary of a routing decision: where a copy of a packet is, the candidate outputs the routing
//! offers it, and whether it chooses one or fans out.

use crate::bitset::ones;

/// One candidate output: a port and the virtual channels `vc_lo..vc_hi` the packet may use on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Candidate {
    pub port: u8,
    pub vc_lo: u8,
    pub vc_hi: u8,
}

/// A small inline list of candidates (no allocation per routing decision).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Candidates {
    items: [Candidate; Candidates::MAX],
    len: u8,
}

impl Candidates {
    pub const MAX: usize = 8;
    pub fn clear(&mut self) {
        self.len = 0;
    }
    pub fn push(&mut self, c: Candidate) {
        self.items[self.len as usize] = c;
        self.len += 1;
    }
    /// Every port of `mask`, lowest first, on virtual channels `vc_lo..vc_hi`.
    #[inline]
    pub fn push_ports(&mut self, mask: u64, vc_lo: u8, vc_hi: u8) {
        for port in ones(mask) {
            self.push(Candidate { port: port as u8, vc_lo, vc_hi });
        }
    }
    /// Keeps only candidate `i` (a choice the routing makes itself, UGAL-L's at the source router).
    pub fn keep(&mut self, i: usize) {
        self.items[0] = self.items[i];
        self.len = 1;
    }
    pub fn as_slice(&self) -> &[Candidate] {
        &self.items[..self.len as usize]
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The distinct ports offered, as a bit set.
    pub fn ports(&self) -> u64 {
        self.as_slice().iter().fold(0, |m, c| m | 1 << c.port)
    }
}

/// What a copy of a packet does at a switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Take one of the candidates written into the `Candidates`.
    Choose,
    /// Replicate: one copy on every port of the mask (all of them), on virtual channels `0..vcs`.
    FanOut(u64),
}

/// Where a copy of a packet is when it asks for a route, and how far it has come.
#[derive(Debug, Clone, Copy)]
pub struct At {
    pub router: u32,
    pub in_port: u8,
    pub in_vc: u8,
    /// Router-to-router hops the copy has made (source routing's route position).
    pub hops: u16,
}
