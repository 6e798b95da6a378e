//! Selection: which of the routing's candidates a packet takes among those that are free ("granted")
//! now. One function per file implementing [`Function`] (`function.rs`); this file is their registry.
//! The adaptive functions are those of study 002 §4.3.

pub mod first_free;
pub mod function;
pub mod lfu;
pub mod lru;
pub mod lruc;
pub mod lrud;
pub mod mru;
pub mod rnd;
pub mod rr;

pub use function::{records, Function, Grants, Request, SelectionHistory, Site};

use crate::candidates::Candidates;
use crate::family::family;

family! {
    /// The selection function of one router.
    pub enum Selection: Function {
        FirstFree(first_free::FirstFree),
        Lru(lru::Lru),
        Mru(mru::Mru),
        Rnd(rnd::Rnd),
        Rr(rr::Rr),
        Lruc(lruc::Lruc),
        Lrud(lrud::Lrud),
        Lfu(lfu::Lfu),
    }
    mut {
        /// Picks (port, vc) among `cands` for which `free(port, vc)` holds.
        fn choose(req: Request, cands: &Candidates, free: impl FnMut(u8, u8) -> bool) -> Option<(u8, u8)>;
        /// Records that a packet of `req` left through `port`.
        fn commit(req: Request, port: u8);
    }
    ref {
        /// Whether the function reads the destination's node switch.
        fn keys_on_destination() -> bool;
    }
    params
    /// The selection function of the adaptive routing.
    pub enum SelectionKind tag "selection"
    static {
        /// Whether the function keeps a history (`commit` does anything).
        fn has_history() -> bool;
        fn bytes(radix: u64, switches: u64) -> u64;
    }
    build(site: Site);
}
