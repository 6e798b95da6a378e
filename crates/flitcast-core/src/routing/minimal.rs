//! Minimal routing on a dragonfly (Kim, Dally, Scott & Abts, ISCA 2008, §4): local, global, local
//! hop, each where the route needs it, on two virtual-channel classes. Routed by `dragonfly.rs`;
//! docs/models/dragonfly.md.

use super::algorithm::Algorithm;
use crate::params::{Kind, NoParams};

/// Minimal (local-global-local) routing on a dragonfly.
pub struct Minimal;

impl Kind for Minimal {
    const NAME: &'static str = "minimal";
    const DOC: &'static str =
        "dragonfly minimal routing: local, global, local hop (two VC classes, needs switch.vcs >= 2)";
    type Params = NoParams;
}

impl Algorithm for Minimal {}
