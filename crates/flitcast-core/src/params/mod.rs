//! Every scenario key declared once, beside the Rust field it fills (docs/architecture.md, "Keys"):
//! its name, type, default, unit, range or allowed values, doc line, and the kind of component it
//! belongs to. From these declarations the core reads a scenario (`Reader`: every problem as data,
//! naming the key, the value and what is allowed), writes it back resolved or minimal, and exports the
//! catalogue (`schema`) the Python front, `flitcast list parameters`, docs/config.md and the point
//! store are generated from.
//!
//! * [`params!`] declares a struct of keys (a section, or one kind's parameters);
//! * [`choice!`] declares a closed set of names (`arrival = "poisson" | "bernoulli"`);
//! * [`kinds!`] declares a family's tagged kinds: the tag key names the kind (`switch.model`), and
//!   only that kind's keys may follow it (`family.rs` declares the family's runtime enum from the same
//!   list).

mod declare;
mod field;
mod reader;

pub(crate) use declare::{choice, kinds, params};
pub use field::{Bound, Field, Flat, KeyDecl, Scalar, Spec};
pub use reader::{or_list, or_list_marked, show, Problem, Problems, Reader};

use serde_json::{Map, Value as Json};

/// A component kind: its name in a scenario (the tag's value), its doc line, and its parameters.
pub trait Kind {
    const NAME: &'static str;
    const DOC: &'static str;
    type Params: Section;
}

/// A struct of keys (`params!`): read from one table, written back to one.
pub trait Section: Default + Clone + PartialEq + std::fmt::Debug {
    /// Reads this struct's keys from `r`'s table, every problem recorded in `r` (the default taken
    /// for a key with a problem).
    fn read(r: &mut Reader) -> Self;
    /// Writes every key (`minimal`: only those that differ from the default) into `out`.
    fn write(&self, out: &mut Map<String, Json>, minimal: bool);
    /// The schema entries of the keys, under the kinds `within` (tag, kind) they belong to.
    fn declare(within: &[(&'static str, &'static str)], out: &mut Vec<KeyDecl>);
    /// Every key this struct may read, its kinds' included.
    fn keys(out: &mut Vec<&'static str>);
    /// The doc of the struct.
    fn doc() -> &'static str;
}

/// The parameters of a kind that has none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoParams;

impl Section for NoParams {
    fn read(_: &mut Reader) -> Self {
        NoParams
    }
    fn write(&self, _: &mut Map<String, Json>, _: bool) {}
    fn declare(_: &[(&'static str, &'static str)], _: &mut Vec<KeyDecl>) {}
    fn keys(_: &mut Vec<&'static str>) {}
    fn doc() -> &'static str {
        ""
    }
}
