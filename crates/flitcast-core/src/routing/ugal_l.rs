//! UGAL-L on a dragonfly (Kim, Dally, Scott & Abts, ISCA 2008, §4; Singh's UGAL with local queue
//! information): at the source router, minimal or Valiant by the occupancy of the two first outputs
//! times the hops of the two paths, on three virtual-channel classes. Routed by `dragonfly.rs`;
//! docs/models/dragonfly.md.

use super::algorithm::Algorithm;
use crate::params::{params, Kind};

params! {
    /// UGAL-L.
    pub struct Params {
        /// Flits of bias toward the minimal path: minimal when q_min · H_min <= q_nm · H_nm + this (q the
        /// occupancy of the first output, H the hops of the path; 0, the paper's rule, by default).
        ugal_threshold: u32 = 0, range(0, 1_000_000), unit("flits");
    }
}

/// Universal globally adaptive load-balanced routing with local information.
pub struct UgalL;

impl Kind for UgalL {
    const NAME: &'static str = "ugal_l";
    const DOC: &'static str = "dragonfly UGAL-L: minimal or Valiant at the source by queue x hops (three VC \
                               classes, needs switch.vcs >= 3 and the input_buffered switch)";
    type Params = Params;
}

impl Algorithm for UgalL {
    fn adaptive(_: &Params) -> bool {
        true
    }
}
