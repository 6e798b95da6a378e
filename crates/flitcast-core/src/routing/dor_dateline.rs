//! Dimension-order routing on k-ary n-tori and rings, bidirectional or unidirectional, with
//! dateline virtual-channel classes (Dally & Seitz) for deadlock freedom.
//!
//! In each dimension the packet travels the shorter way round; unidirectional: always positive. A
//! tie (k even, distance exactly k/2) goes the way the packet's route variant says under balanced
//! ties (variant 0: +, 1: −, drawn at random per packet by `routing/variants.rs`, so each ring's two
//! directions carry equal load), or always + under `routing.torus_ties = "positive"`.
//!
//! The VCs are split into class 0 = `0..vcs/2` and class 1 = `vcs/2..vcs`. A packet starts every dimension in class 0 and moves to
//! class 1 on the hop that crosses the dateline (the wrap-around link k−1→0 going +, 0→k−1 going −),
//! staying there until it turns to the next dimension. With one VC both classes are VC 0: the
//! routing is then deadlock-prone, which the build-time check reports unless disabled.

use super::route::Route;
use crate::candidates::{At, Candidate, Candidates};
use crate::packet::Header;
use crate::params::choice;
use crate::topology::{Coords, CubeGeometry};

choice! {
    /// Which way a torus packet goes at distance exactly k/2 (k even), where both ways are minimal.
    pub enum TorusTies {
        /// Either way with probability 1/2, per packet: both directions of a ring carry equal load.
        Balanced = "balanced",
        /// Always the positive way (flitcast's rule before balanced ties).
        Positive = "positive",
    }
}

#[derive(Debug, Clone)]
pub struct DorDateline {
    pub geo: CubeGeometry,
    pub vcs: u8,
    coords: Coords,
    /// Ties go the way the packet's variant says (else always +).
    balanced_ties: bool,
}

impl DorDateline {
    pub fn new(geo: CubeGeometry, vcs: u8, ties: TorusTies) -> DorDateline {
        let balanced_ties = ties == TorusTies::Balanced && !geo.unidirectional && geo.k.is_multiple_of(2);
        DorDateline { geo, vcs, coords: geo.coords(), balanced_ties }
    }

    /// Route variants: two (tie goes + or −) when ties are balanced and can occur.
    pub fn variants(&self) -> u8 {
        1 + u8::from(self.balanced_ties)
    }

    /// VC range of dateline class 0 or 1.
    pub fn class_vcs(&self, class: u8) -> (u8, u8) {
        let half = (self.vcs / 2).max(1);
        if class == 0 || self.vcs == 1 {
            (0, half)
        } else {
            (half, self.vcs)
        }
    }

    /// Direction of travel of a packet that arrived on `in_port`, if it came from a router.
    fn arrival(&self, in_port: u8) -> Option<(u32, bool)> {
        let g = &self.geo;
        if in_port == g.terminal_port() {
            return None;
        }
        let (d, port_plus) = g.port_dim(in_port);
        // Bidirectional: a packet travelling +d arrives on the −d port. Unidirectional: always +.
        Some((d, if g.unidirectional { true } else { !port_plus }))
    }

    #[inline]
    pub fn route(&self, at: At, dst: u32, variant: u8, out: &mut Candidates) {
        let g = &self.geo;
        let (here, there) = (self.coords.of(at.router), self.coords.of(dst));
        for d in 0..g.n {
            let (c, t) = (here[d as usize] as u32, there[d as usize] as u32);
            if c == t {
                continue;
            }
            let forward = (t + g.k - c) % g.k;
            let backward = g.k - forward;
            let plus = g.unidirectional
                || forward < backward
                || (forward == backward && !(self.balanced_ties && variant == 1));
            let mut class = match self.arrival(at.in_port) {
                Some((ad, aplus)) if ad == d && aplus == plus => {
                    u8::from(at.in_vc >= self.class_vcs(1).0 && self.vcs > 1)
                }
                _ => 0,
            };
            let crosses = if plus { c == g.k - 1 } else { c == 0 };
            if crosses {
                class = 1;
            }
            let (lo, hi) = self.class_vcs(class);
            out.push(Candidate { port: g.port(d, plus), vc_lo: lo, vc_hi: hi });
            return;
        }
        out.push(Candidate { port: g.terminal_port(), vc_lo: 0, vc_hi: self.vcs });
    }
}

impl Route for DorDateline {
    fn name(&self) -> &'static str {
        "dor_dateline"
    }

    #[inline]
    fn candidates(&self, at: At, header: &Header, out: &mut Candidates) {
        self.route(at, header.dst(), header.variant, out)
    }

    fn vcs(&self) -> u8 {
        self.vcs
    }

    fn injection_vcs(&self, _header: &Header) -> (u8, u8) {
        self.class_vcs(0)
    }

    fn variants(&self) -> u8 {
        self.variants()
    }
}
