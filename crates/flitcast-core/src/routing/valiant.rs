//! Valiant routing on a dragonfly (Kim, Dally, Scott & Abts, ISCA 2008, §4; Valiant & Brebner,
//! "Universal Schemes for Parallel Communication", STOC 1981): minimal to an intermediate group drawn
//! at random per packet, then minimal to the destination, on three virtual-channel classes. Routed by
//! `dragonfly.rs`; docs/models/dragonfly.md.

use super::algorithm::Algorithm;
use crate::params::{Kind, NoParams};

/// Valiant routing through a random intermediate group.
pub struct Valiant;

impl Kind for Valiant {
    const NAME: &'static str = "valiant";
    const DOC: &'static str = "dragonfly Valiant routing: minimal to a random intermediate group, then minimal \
                               (three VC classes, needs switch.vcs >= 3)";
    type Params = NoParams;
}

impl Algorithm for Valiant {}
