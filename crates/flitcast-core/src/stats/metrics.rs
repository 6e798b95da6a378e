//! The columns of a run's result, declared once (`metrics!`): each field of the result with its unit,
//! its meaning (the field's doc comment) and when it is empty. `_core.schema()` exports them; the
//! table's column order in Python and docs/results.md's table of columns are generated from them
//! (`make docs`), so a new metric is its one declaration and the code that measures it.

use serde::Serialize;

/// One column of a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Metric {
    pub name: &'static str,
    pub unit: &'static str,
    /// What it measures (the field's doc comment, one line per doc line).
    pub meaning: &'static str,
    /// When it has no value (NaN in the result, an empty cell in a table); "" where it always has one.
    pub empty_when: &'static str,
}

/// The seconds of wall time the core spent on a point: measured around the run by the Python
/// extension, outside the result, which must be identical from run to run.
pub const WALL_SECONDS: Metric = Metric {
    name: "wall_seconds",
    unit: "s",
    meaning: "Wall-clock time the core spent building and simulating this point (measured in the core, \
              per point, also when points run in parallel). Not part of the deterministic result: it is \
              the one column that differs between identical runs",
    empty_when: "",
};

/// A result struct: its per-channel lists first (`per_channel { .. }`, not columns), then its metric
/// columns, each `name: type, unit("..")` and optionally `empty("..")`.
/// Writes the struct (serialisable: the result's JSON) and `METRICS`, its columns in table order.
macro_rules! metrics {
    (
        $(#[doc = $sdoc:literal])*
        pub struct $name:ident {
            per_channel {
                $( $(#[doc = $cdoc:literal])* $cfield:ident : $cty:ty; )*
            }
            $(
                $(#[doc = $doc:literal])*
                $field:ident : $ty:ty, unit($unit:literal) $(, empty($empty:literal))? ;
            )*
        }
    ) => {
        $(#[doc = $sdoc])*
        #[derive(Debug, Clone, serde::Serialize)]
        pub struct $name {
            $( $(#[doc = $doc])* pub $field: $ty, )*
            $( $(#[doc = $cdoc])* pub $cfield: $cty, )*
        }

        impl $name {
            /// The metric columns, in table order.
            pub const METRICS: &'static [$crate::stats::metrics::Metric] = &[
                $(
                    $crate::stats::metrics::Metric {
                        name: stringify!($field),
                        unit: $unit,
                        meaning: concat!($($doc, "\n"),*),
                        empty_when: concat!("" $(, $empty)?),
                    },
                )*
            ];
        }
    };
}

pub(crate) use metrics;
