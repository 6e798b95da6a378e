//! The declaration macros: a struct of keys (`params!`), a closed set of names (`choice!`) and a
//! family's tagged kinds (`kinds!`). Each writes the struct or enum and everything the core needs to
//! read, write and describe it, from one declaration.

/// A struct of keys: each field with its doc comment, type, default and, optionally, its range
/// (`range(lo, hi)` for integers, `closed(lo, hi)` or `above(lo, hi)` for numbers) and unit.
///
/// ```ignore
/// params! {
///     /// A k-ary n-mesh.
///     pub struct Mesh {
///         /// Routers per dimension.
///         k: u32 = 8, range(2, 1024);
///     }
/// }
/// ```
macro_rules! params {
    (
        $(#[doc = $sdoc:literal])*
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $field:ident : $ty:ty = $default:expr $( , $opt:ident ( $( $arg:expr ),* ) )* ;
            )*
        }
    ) => {
        $(#[doc = $sdoc])*
        #[derive(Debug, Clone, PartialEq)]
        $vis struct $name {
            $( $(#[doc = $doc])* pub $field: $ty, )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $( $field: $default, )* }
            }
        }

        impl $crate::params::Section for $name {
            #[allow(unused_variables)]
            fn read(r: &mut $crate::params::Reader) -> Self {
                let d = Self::default();
                $name {
                    $(
                        $field: <$ty as $crate::params::Field>::read(
                            r,
                            stringify!($field),
                            &$crate::params::Spec::new(&[$($doc),*]) $( .$opt($($arg),*) )*,
                            &d.$field,
                        )
                        .unwrap_or(d.$field),
                    )*
                }
            }

            #[allow(unused_variables)]
            fn write(&self, out: &mut serde_json::Map<String, serde_json::Value>, minimal: bool) {
                let d = Self::default();
                $(
                    if !minimal || self.$field != d.$field {
                        <$ty as $crate::params::Field>::write(&self.$field, stringify!($field), out, minimal);
                    }
                )*
            }

            #[allow(unused_variables)]
            fn declare(within: &[(&'static str, &'static str)], out: &mut Vec<$crate::params::KeyDecl>) {
                let d = Self::default();
                $(
                    <$ty as $crate::params::Field>::declare(
                        stringify!($field),
                        &$crate::params::Spec::new(&[$($doc),*]) $( .$opt($($arg),*) )*,
                        &d.$field,
                        within,
                        out,
                    );
                )*
            }

            #[allow(unused_variables)]
            fn keys(out: &mut Vec<&'static str>) {
                $( <$ty as $crate::params::Field>::keys(stringify!($field), out); )*
            }

            fn doc() -> &'static str {
                concat!($($sdoc),*)
            }
        }
    };
}

/// A closed set of names, each with its doc line; the first is the default.
///
/// ```ignore
/// choice! {
///     /// How messages arrive.
///     pub enum Arrival {
///         /// Exponential inter-arrival times.
///         Poisson = "poisson",
///         Bernoulli = "bernoulli",
///     }
/// }
/// ```
macro_rules! choice {
    (
        $(#[doc = $sdoc:literal])*
        $vis:vis enum $name:ident {
            $( $(#[doc = $doc:literal])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[doc = $sdoc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        $vis enum $name {
            $( $(#[doc = $doc])* $variant ),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$( $name::$variant ),+];
            pub const NAMES: &'static [&'static str] = &[$( $text ),+];

            pub fn name(self) -> &'static str {
                match self {
                    $( $name::$variant => $text ),+
                }
            }

            /// The choice named `name`.
            pub fn of_name(name: &str) -> Option<Self> {
                $name::ALL.iter().copied().find(|x| x.name() == name)
            }

            /// The choices as error messages list them: `one of 'a', 'b'`.
            pub fn one_of() -> String {
                format!("one of {}", $name::NAMES.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", "))
            }
        }

        impl Default for $name {
            fn default() -> Self {
                $name::ALL[0]
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl $crate::params::Scalar for $name {
            const TYPE: &'static str = "str";
            fn parse(v: &serde_json::Value) -> Option<Self> {
                $name::of_name(v.as_str()?)
            }
            fn json(&self) -> serde_json::Value {
                serde_json::Value::from(self.name())
            }
            fn domain(_: &$crate::params::Bound) -> String {
                $name::one_of()
            }
            fn choices() -> Option<Vec<&'static str>> {
                Some($name::NAMES.to_vec())
            }
            fn choice_docs() -> Option<Vec<&'static str>> {
                Some(vec![$( concat!($($doc),*) ),+])
            }
        }
    };
}

/// A family's tagged kinds: an enum holding the chosen kind's parameters. The tag key (`$tag`) names
/// the kind; the kind's keys follow it in the same table, and a key of another kind is a problem that
/// names the kind that takes it. Each kind is a type implementing [`Kind`](crate::params::Kind) (its
/// name, doc line and parameters); the first listed is the default. Static functions of the family's
/// trait taking the kind's parameters are forwarded (`static { fn vcs() -> u32; }` calls
/// `<Kind as Trait>::vcs(params)`).
macro_rules! kinds {
    (
        $(#[doc = $sdoc:literal])*
        $vis:vis enum $name:ident : $trait:ident tag $tag:literal $kinds:tt
        $( static { $( $(#[$smeta:meta])* fn $sm:ident ( $( $sa:ident : $st:ty ),* ) -> $sr:ty ; )* } )?
    ) => {
        $crate::params::kinds!(@enum [$(#[doc = $sdoc])*] $vis $name $kinds);
        $crate::params::kinds!(@impl $name $tag $kinds);
        $(
            impl $name {
                $(
                    $crate::params::kinds!(@static [$trait] [p] $kinds $(#[$smeta])* $sm
                        ( $( $sa : $st ),* ) (p $(, $sa)*) $sr);
                )*
            }
        )?
    };
    (@enum [$($attr:tt)*] $vis:vis $name:ident { $( $kind:ident ( $ty:ty ) ),+ $(,)? }) => {
        $($attr)*
        #[derive(Debug, Clone, PartialEq)]
        $vis enum $name {
            $( $kind(<$ty as $crate::params::Kind>::Params) ),+
        }
    };
    (@static [$trait:ident] [$x:ident] { $( $kind:ident ( $ty:ty ) ),+ $(,)? } $(#[$meta:meta])* $m:ident
        ( $( $a:ident : $t:ty ),* ) $call:tt $r:ty) => {
        $(#[$meta])*
        #[inline]
        pub fn $m(&self $(, $a: $t)*) -> $r {
            match self {
                $( Self::$kind($x) => <$ty as $trait>::$m $call, )+
            }
        }
    };
    (@impl $name:ident $tag:literal { $( $kind:ident ( $ty:ty ) ),+ $(,)? }) => {
        impl $name {
            /// The kinds' names, in registry order.
            pub const NAMES: &'static [&'static str] = &[$( <$ty as $crate::params::Kind>::NAME ),+];
            /// The kinds' doc lines, in registry order.
            pub const DOCS: &'static [&'static str] = &[$( <$ty as $crate::params::Kind>::DOC ),+];
            /// The key naming the kind.
            pub const TAG: &'static str = $tag;

            /// The kind named `name`, with its default parameters.
            pub fn of_name(name: &str) -> Option<Self> {
                $( if name == <$ty as $crate::params::Kind>::NAME { return Some($name::$kind(Default::default())); } )+
                None
            }

            /// The chosen kind's name.
            pub fn name(&self) -> &'static str {
                match self {
                    $( $name::$kind(_) => <$ty as $crate::params::Kind>::NAME ),+
                }
            }

            /// Each kind's name and keys.
            pub fn kind_keys() -> Vec<(&'static str, Vec<&'static str>)> {
                vec![$(
                    (<$ty as $crate::params::Kind>::NAME, {
                        let mut keys = Vec::new();
                        <<$ty as $crate::params::Kind>::Params as $crate::params::Section>::keys(&mut keys);
                        keys
                    })
                ),+]
            }
        }

        impl Default for $name {
            fn default() -> Self {
                $name::of_name($name::NAMES[0]).expect("the first kind")
            }
        }

        impl $crate::params::Field for $name {
            fn declare(
                key: &'static str,
                spec: &$crate::params::Spec,
                default: &Self,
                within: &[(&'static str, &'static str)],
                out: &mut Vec<$crate::params::KeyDecl>,
            ) {
                let names: Vec<String> = $name::NAMES.iter().map(|n| format!("'{n}'")).collect();
                out.push($crate::params::KeyDecl {
                    key,
                    ty: "str",
                    default: serde_json::Value::from(default.name()),
                    allowed: format!("one of {}", names.join(", ")),
                    choices: Some($name::NAMES.to_vec()),
                    choice_docs: Some($name::DOCS.to_vec()),
                    doc: spec.doc.clone(),
                    unit: None,
                    within: within.to_vec(),
                    tag: true,
                });
                $(
                    let mut inner = within.to_vec();
                    inner.push((key, <$ty as $crate::params::Kind>::NAME));
                    <<$ty as $crate::params::Kind>::Params as $crate::params::Section>::declare(&inner, out);
                )+
            }

            fn keys(key: &'static str, out: &mut Vec<&'static str>) {
                out.push(key);
                $( <<$ty as $crate::params::Kind>::Params as $crate::params::Section>::keys(out); )+
            }

            fn read(
                r: &mut $crate::params::Reader,
                key: &'static str,
                _: &$crate::params::Spec,
                default: &Self,
            ) -> Option<Self> {
                let chosen = match r.take(key) {
                    None => default.name(),
                    Some(v) => match v.as_str().and_then(|s| $name::NAMES.iter().find(|n| **n == s)) {
                        Some(n) => n,
                        None => {
                            let names: Vec<String> = $name::NAMES.iter().map(|n| format!("'{n}'")).collect();
                            r.problem(key, $crate::params::show(v), format!("one of {}", names.join(", ")));
                            // no kind to judge the other keys by: they are passed over, not misjudged
                            let keys: Vec<&'static str> = $name::kind_keys().into_iter().flat_map(|(_, k)| k).collect();
                            r.pass_over(&keys);
                            return Some(default.clone());
                        }
                    },
                };
                r.chose(key, chosen, $name::kind_keys());
                $(
                    if chosen == <$ty as $crate::params::Kind>::NAME {
                        return Some($name::$kind(
                            <<$ty as $crate::params::Kind>::Params as $crate::params::Section>::read(r),
                        ));
                    }
                )+
                unreachable!("a kind was chosen among the names")
            }

            fn write(&self, key: &'static str, out: &mut serde_json::Map<String, serde_json::Value>, minimal: bool) {
                out.insert(key.to_string(), serde_json::Value::from(self.name()));
                match self {
                    $( $name::$kind(p) => $crate::params::Section::write(p, out, minimal), )+
                }
            }
        }
    };
}

pub(crate) use {choice, kinds, params};
