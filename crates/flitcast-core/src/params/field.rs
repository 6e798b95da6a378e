//! One key: its type (how a JSON value is read and written), its range, and its schema entry.

use serde::Serialize;
use serde_json::{Map, Value as Json};

use super::reader::{show, Reader};
use super::Section;

/// The range a numeric key's values must lie in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// Any value of the type.
    Any,
    /// An integer from `lo` to `hi`, both included.
    Range(i128, i128),
    /// A number between `lo` and `hi`, each end included unless open.
    Interval { lo: f64, hi: f64, lo_open: bool, hi_open: bool },
}

/// What a key declares beside its name, type and default: its doc, range and unit.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    pub doc: String,
    pub bound: Bound,
    pub unit: Option<&'static str>,
}

impl Spec {
    /// A key documented by the lines of its doc comment.
    pub fn new(lines: &[&str]) -> Spec {
        let doc = lines.iter().map(|l| l.trim()).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ");
        Spec { doc, bound: Bound::Any, unit: None }
    }
    /// Integers from `lo` to `hi`.
    pub fn range(mut self, lo: i128, hi: i128) -> Spec {
        self.bound = Bound::Range(lo, hi);
        self
    }
    /// Numbers in [lo, hi].
    pub fn closed(mut self, lo: f64, hi: f64) -> Spec {
        self.bound = Bound::Interval { lo, hi, lo_open: false, hi_open: false };
        self
    }
    /// Numbers in (lo, hi].
    pub fn above(mut self, lo: f64, hi: f64) -> Spec {
        self.bound = Bound::Interval { lo, hi, lo_open: true, hi_open: false };
        self
    }
    pub fn unit(mut self, unit: &'static str) -> Spec {
        self.unit = Some(unit);
        self
    }
}

/// A key's entry in the catalogue the core exports (`_core.schema()`; docs/config.md).
#[derive(Debug, Clone, Serialize)]
pub struct KeyDecl {
    pub key: &'static str,
    #[serde(rename = "type")]
    pub ty: &'static str,
    pub default: Json,
    /// What the key accepts, as error messages say it.
    pub allowed: String,
    /// The names a string key accepts.
    pub choices: Option<Vec<&'static str>>,
    /// Each name's doc line, for a key that names a kind or a choice.
    pub choice_docs: Option<Vec<&'static str>>,
    pub doc: String,
    pub unit: Option<&'static str>,
    /// The kinds the key belongs to, outermost first: (tag key, kind); empty for a section's own keys.
    pub within: Vec<(&'static str, &'static str)>,
    /// The key names a kind (its value decides which keys may follow).
    pub tag: bool,
}

/// A value type: how it is read from JSON, written, shown and described.
pub trait Scalar: Sized + Clone + PartialEq + std::fmt::Debug {
    /// The type as the catalogue names it: `int`, `float`, `bool`, `str`, `list[int]`.
    const TYPE: &'static str;
    /// The value, or None for a value of another type (or an integer beyond the type's range).
    fn parse(v: &Json) -> Option<Self>;
    fn json(&self) -> Json;
    /// Whether the value lies in `bound`.
    fn fits(&self, _bound: &Bound) -> bool {
        true
    }
    /// What the type accepts within `bound`, as a phrase: "an integer from 1 to 16".
    fn domain(bound: &Bound) -> String;
    fn choices() -> Option<Vec<&'static str>> {
        None
    }
    fn choice_docs() -> Option<Vec<&'static str>> {
        None
    }
}

fn number(x: f64) -> String {
    let s = format!("{x}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

fn int_domain(bound: &Bound) -> String {
    match *bound {
        Bound::Range(lo, hi) if lo == hi => format!("{lo}"),
        Bound::Range(lo, hi) => format!("an integer from {} to {}", big(lo), big(hi)),
        _ => "an integer".to_string(),
    }
}

/// Large bounds as powers of ten or two where that is how they were chosen (1e9, not 1000000000).
fn big(x: i128) -> String {
    for e in 9..=18 {
        if x == 10i128.pow(e) {
            return format!("1e{e}");
        }
    }
    if x > 1 << 32 && (x + 1).count_ones() == 1 {
        return format!("2^{} − 1", (x + 1).trailing_zeros());
    }
    if x > 1 << 32 && x.count_ones() == 1 {
        return format!("2^{}", x.trailing_zeros());
    }
    x.to_string()
}

macro_rules! integer {
    ($($t:ty),*) => {$(
        impl Scalar for $t {
            const TYPE: &'static str = "int";
            fn parse(v: &Json) -> Option<Self> {
                let x = v.as_u64().map(i128::from).or_else(|| v.as_i64().map(i128::from))?;
                <$t>::try_from(x).ok()
            }
            fn json(&self) -> Json {
                Json::from(*self)
            }
            fn fits(&self, bound: &Bound) -> bool {
                match *bound {
                    Bound::Range(lo, hi) => (lo..=hi).contains(&(*self as i128)),
                    _ => true,
                }
            }
            fn domain(bound: &Bound) -> String {
                int_domain(bound)
            }
        }
    )*};
}

integer!(u32, u64, i64);

impl Scalar for f64 {
    const TYPE: &'static str = "float";
    fn parse(v: &Json) -> Option<Self> {
        v.as_f64().filter(|x| x.is_finite())
    }
    fn json(&self) -> Json {
        Json::from(*self)
    }
    fn fits(&self, bound: &Bound) -> bool {
        match *bound {
            Bound::Interval { lo, hi, lo_open, hi_open } => {
                (if lo_open { *self > lo } else { *self >= lo }) && (if hi_open { *self < hi } else { *self <= hi })
            }
            _ => true,
        }
    }
    fn domain(bound: &Bound) -> String {
        match *bound {
            Bound::Interval { lo, hi, lo_open, hi_open } => format!(
                "a number in {}{}, {}{}",
                if lo_open { "(" } else { "[" },
                number(lo),
                number(hi),
                if hi_open { ")" } else { "]" }
            ),
            _ => "a finite number".to_string(),
        }
    }
}

impl Scalar for bool {
    const TYPE: &'static str = "bool";
    fn parse(v: &Json) -> Option<Self> {
        v.as_bool()
    }
    fn json(&self) -> Json {
        Json::from(*self)
    }
    fn domain(_: &Bound) -> String {
        "true or false".to_string()
    }
}

impl Scalar for Vec<u32> {
    const TYPE: &'static str = "list[int]";
    fn parse(v: &Json) -> Option<Self> {
        v.as_array()?.iter().map(u32::parse).collect()
    }
    fn json(&self) -> Json {
        Json::from(self.clone())
    }
    fn domain(_: &Bound) -> String {
        // (the kind's own check says more: a HyperX dimension of at least 2, a hotspot node that exists)
        "a list of integers from 0 to 2^32 − 1".to_string()
    }
}

impl Scalar for String {
    const TYPE: &'static str = "str";
    fn parse(v: &Json) -> Option<Self> {
        v.as_str().map(str::to_string)
    }
    fn json(&self) -> Json {
        Json::from(self.as_str())
    }
    fn domain(_: &Bound) -> String {
        "a string".to_string()
    }
}

/// A key of a struct of keys (`params!`): a value, an optional value, or a tag naming a kind.
pub trait Field: Sized + Clone + PartialEq + std::fmt::Debug {
    /// The key's schema entry (a tag's, and those of its kinds' keys).
    fn declare(
        key: &'static str,
        spec: &Spec,
        default: &Self,
        within: &[(&'static str, &'static str)],
        out: &mut Vec<KeyDecl>,
    );
    /// Every key this field may read (a tag: its own and all its kinds').
    fn keys(key: &'static str, out: &mut Vec<&'static str>) {
        out.push(key);
    }
    /// The value of `key` in `r`'s table; None where it is absent or has a problem (recorded in `r`),
    /// `default` being taken then (a tag left out names the default's kind, whose keys follow).
    fn read(r: &mut Reader, key: &'static str, spec: &Spec, default: &Self) -> Option<Self>;
    /// Writes the value under `key` (`minimal`: a tag's kind writes only what differs from its
    /// defaults; the caller has decided the key itself differs).
    fn write(&self, key: &'static str, out: &mut Map<String, Json>, minimal: bool);
}

/// The schema entry of a scalar key of type `T`: its default as JSON, what it allows.
fn scalar_decl<T: Scalar>(
    key: &'static str,
    spec: &Spec,
    default: Json,
    allowed: String,
    within: &[(&'static str, &'static str)],
) -> KeyDecl {
    KeyDecl {
        key,
        ty: T::TYPE,
        default,
        allowed,
        choices: T::choices(),
        choice_docs: T::choice_docs(),
        doc: spec.doc.clone(),
        unit: spec.unit,
        within: within.to_vec(),
        tag: false,
    }
}

/// The value of the scalar key `key` in `r`'s table where it is given and within `spec`'s bound, a
/// problem saying `allowed` where it is not.
fn read_scalar<T: Scalar>(
    r: &mut Reader,
    key: &'static str,
    spec: &Spec,
    allowed: impl FnOnce() -> String,
) -> Option<T> {
    let v = r.take(key)?;
    let x = T::parse(v).filter(|x| x.fits(&spec.bound));
    if x.is_none() {
        r.problem(key, show(v), allowed());
    }
    x
}

impl<T: Scalar> Field for T {
    fn declare(
        key: &'static str,
        spec: &Spec,
        default: &Self,
        within: &[(&'static str, &'static str)],
        out: &mut Vec<KeyDecl>,
    ) {
        out.push(scalar_decl::<T>(key, spec, default.json(), T::domain(&spec.bound), within));
    }

    fn read(r: &mut Reader, key: &'static str, spec: &Spec, _: &Self) -> Option<Self> {
        read_scalar(r, key, spec, || T::domain(&spec.bound))
    }

    fn write(&self, key: &'static str, out: &mut Map<String, Json>, _: bool) {
        out.insert(key.to_string(), self.json());
    }
}

impl<T: Scalar> Field for Option<T> {
    fn declare(
        key: &'static str,
        spec: &Spec,
        default: &Self,
        within: &[(&'static str, &'static str)],
        out: &mut Vec<KeyDecl>,
    ) {
        let allowed = format!("{}, or left out", T::domain(&spec.bound));
        out.push(scalar_decl::<T>(key, spec, default.as_ref().map_or(Json::Null, T::json), allowed, within));
    }

    fn read(r: &mut Reader, key: &'static str, spec: &Spec, _: &Self) -> Option<Self> {
        read_scalar(r, key, spec, || format!("{}, or left out", T::domain(&spec.bound))).map(Some)
    }

    fn write(&self, key: &'static str, out: &mut Map<String, Json>, minimal: bool) {
        if let Some(x) = self {
            <T as Field>::write(x, key, out, minimal);
        }
    }
}

/// A struct of keys several kinds share, declared once (`params!`) and read in place: its keys stand in
/// the table beside the kind's own (`traffic: Flat<Multiway> = Flat::default();`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Flat<T>(pub T);

impl<T> std::ops::Deref for Flat<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Section> Field for Flat<T> {
    fn declare(_: &'static str, _: &Spec, _: &Self, within: &[(&'static str, &'static str)], out: &mut Vec<KeyDecl>) {
        T::declare(within, out);
    }

    fn keys(_: &'static str, out: &mut Vec<&'static str>) {
        T::keys(out);
    }

    fn read(r: &mut Reader, _: &'static str, _: &Spec, _: &Self) -> Option<Self> {
        Some(Flat(T::read(r)))
    }

    fn write(&self, _: &'static str, out: &mut Map<String, Json>, minimal: bool) {
        self.0.write(out, minimal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_read_as_error_messages_say_them() {
        assert_eq!(u32::domain(&Bound::Range(1, 16)), "an integer from 1 to 16");
        assert_eq!(u64::domain(&Bound::Range(0, 1_000_000_000)), "an integer from 0 to 1e9");
        assert_eq!(u64::domain(&Bound::Range(0, (1 << 63) - 1)), "an integer from 0 to 2^63 − 1");
        let load = Bound::Interval { lo: 0.0, hi: 1.0, lo_open: true, hi_open: false };
        assert_eq!(f64::domain(&load), "a number in (0, 1]");
        assert!(!0.0.fits(&load) && 1.0.fits(&load) && 0.5.fits(&load));
        assert_eq!(u32::parse(&serde_json::json!(8.0)), None, "an integer key refuses 8.0");
        assert_eq!(f64::parse(&serde_json::json!(1)), Some(1.0), "a number key takes an integer");
        assert_eq!(u32::parse(&serde_json::json!(true)), None);
        assert_eq!(show(&serde_json::json!("a\nb")), "'a\\nb'");
    }
}
