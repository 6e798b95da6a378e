//! Visiting the routers: the one place a router steps and the one place it accepts a flit, whether one
//! thread runs the simulation or its regions run on several (`regions.rs`; docs/engine.md, "Regions"),
//! so that the compiler inlines each switch model's code here once.

use super::{Router, StepCtx};
use crate::bitset::IdSet;
use crate::error::Error;
use crate::time::Cycle;
use crate::wheel::Arrival;

/// Steps the routers of `active` (positions in `routers`, whose first is router `first`) in id order,
/// and drops those left empty. The one place a router steps, on one thread or in a region (so the
/// compiler inlines each switch model's step here once).
pub fn step_active(routers: &mut [Router], active: &mut IdSet, first: u32, ctx: &mut StepCtx) {
    active.retain(|r| {
        let router = &mut routers[r];
        router.step(first + r as u32, ctx);
        router.flits() > 0
    });
}

/// Puts the flits of `arrivals`, all for `routers` (the first is router `first`: a wheel keeps each
/// receiver's flits in a part of their own), into their input buffers and marks those routers
/// `active`. The one place a router accepts a flit, like [`step_active`].
pub fn accept_arrivals(
    routers: &mut [Router],
    active: &mut IdSet,
    first: u32,
    arrivals: &[Arrival],
    now: Cycle,
) -> Result<(), Error> {
    for &Arrival { dest, port, vc, hops, flit } in arrivals {
        let r = (dest - first) as usize;
        if !routers[r].accept_flit(port, vc, flit, hops, now) {
            return Err(Error::Internal {
                message: format!("buffer overflow at router {dest} port {port} vc {vc} (credit protocol)"),
            });
        }
        active.insert(r);
    }
    #[cfg(feature = "worm_counts")]
    crate::worm_counts::with(|c| c.arrivals += arrivals.len() as u64);
    Ok(())
}
