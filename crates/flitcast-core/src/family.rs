//! Closed families of components (switch models, selection functions, traffic patterns, host
//! programs): one enum over the family's kinds, each method a `match` that calls the kind's
//! implementation of the family trait — static dispatch, as fast as a hand-written `match`
//! (docs/architecture.md, "Adding a component").
//!
//! ```ignore
//! family! {
//!     /// A router: one switch model.
//!     pub enum Router: Model {
//!         InputBuffered(input_buffered::InputBuffered),
//!         CentralBuffer(central_buffer::CentralBuffer),
//!     }
//!     mut { fn step(me: u32, ctx: &mut StepCtx<'_>); }
//!     ref { fn flits() -> u32; }
//! }
//! ```
//!
//! declares `enum Router { InputBuffered(..), CentralBuffer(..) }` (with `From` each kind) and
//! `Router::step`, `Router::flits`, each forwarding to `<Kind as Model>::…`. A kind is added with one line in the list; a method of the
//! family with one line in `mut { }` (takes `&mut self`) or `ref { }` (takes `&self`).
//!
//! With a `params` clause the same list also declares the family's tagged kinds for the scenario
//! (`params::kinds!`: `switch.model = "central_buffer"` and that kind's keys) and `Router::build`,
//! which makes the component of the chosen kind by the family trait's `new(params, …)`.

macro_rules! family {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident : $trait:ident $kinds:tt
        mut { $( $(#[$mmeta:meta])* fn $mm:ident ( $( $ma:ident : $mt:ty ),* ) $( -> $mr:ty )? ; )* }
        ref { $( $(#[$rmeta:meta])* fn $rm:ident ( $( $ra:ident : $rt:ty ),* ) $( -> $rr:ty )? ; )* }
        $(
            params $(#[doc = $pdoc:literal])* $pvis:vis enum $params:ident tag $tag:literal
            $( static { $( $(#[$smeta:meta])* fn $sm:ident ( $( $sa:ident : $st:ty ),* ) -> $sr:ty ; )* } )?
            build ( $( $ba:ident : $bt:ty ),* ) ;
        )?
    ) => {
        $crate::family::family!(@enum $(#[$meta])* $vis $name $kinds);
        impl $name {
            $(
                $crate::family::family!(@mut [$trait] [x] $kinds $(#[$mmeta])* $mm
                    ( $( $ma : $mt ),* ) (x $(, $ma)*) ( $( $mr )? ));
            )*
            $(
                $crate::family::family!(@ref [$trait] [x] $kinds $(#[$rmeta])* $rm
                    ( $( $ra : $rt ),* ) (x $(, $ra)*) ( $( $rr )? ));
            )*
        }
        $(
            $crate::params::kinds! {
                $(#[doc = $pdoc])*
                $pvis enum $params : $trait tag $tag $kinds
                $( static { $( $(#[$smeta])* fn $sm ( $( $sa : $st ),* ) -> $sr ; )* } )?
            }
            $crate::family::family!(@build $name $params [$trait] [p] $kinds ( $( $ba : $bt ),* ) (p $(, $ba)*));
        )?
    };
    (@build $name:ident $params:ident [$trait:ident] [$x:ident] { $( $kind:ident ( $ty:ty ) ),+ $(,)? }
        ( $( $a:ident : $t:ty ),* ) $call:tt) => {
        impl $name {
            /// The component of the kind `kind` names, built from its parameters.
            pub fn build(kind: &$params $(, $a: $t)*) -> Self {
                match kind {
                    $( $params::$kind($x) => $name::$kind(<$ty as $trait>::new $call), )+
                }
            }
        }
    };
    (@enum $(#[$meta:meta])* $vis:vis $name:ident { $( $kind:ident ( $ty:ty ) ),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone)]
        $vis enum $name {
            $( $kind($ty) ),+
        }
        $(
            impl From<$ty> for $name {
                fn from(x: $ty) -> Self {
                    $name::$kind(x)
                }
            }
        )+
    };
    (@mut [$trait:ident] [$x:ident] { $( $kind:ident ( $ty:ty ) ),+ $(,)? } $(#[$meta:meta])* $m:ident
        ( $( $a:ident : $t:ty ),* ) $call:tt ( $( $r:ty )? )) => {
        $(#[$meta])*
        #[inline]
        pub fn $m(&mut self $(, $a: $t)*) $( -> $r )? {
            match self {
                $( Self::$kind($x) => <$ty as $trait>::$m $call, )+
            }
        }
    };
    (@ref [$trait:ident] [$x:ident] { $( $kind:ident ( $ty:ty ) ),+ $(,)? } $(#[$meta:meta])* $m:ident
        ( $( $a:ident : $t:ty ),* ) $call:tt ( $( $r:ty )? )) => {
        $(#[$meta])*
        #[inline]
        pub fn $m(&self $(, $a: $t)*) $( -> $r )? {
            match self {
                $( Self::$kind($x) => <$ty as $trait>::$m $call, )+
            }
        }
    };
}

pub(crate) use family;

#[cfg(test)]
mod tests {
    trait Shape {
        fn area(&self) -> f64;
        fn grow(&mut self, by: f64);
        fn sides(&self) -> u32 {
            0
        }
    }

    #[derive(Debug, Clone)]
    struct Square(f64);
    #[derive(Debug, Clone)]
    struct Circle(f64);

    impl Shape for Square {
        fn area(&self) -> f64 {
            self.0 * self.0
        }
        fn grow(&mut self, by: f64) {
            self.0 += by;
        }
        fn sides(&self) -> u32 {
            4
        }
    }

    impl Shape for Circle {
        fn area(&self) -> f64 {
            3.0 * self.0 * self.0
        }
        fn grow(&mut self, by: f64) {
            self.0 *= by;
        }
    }

    family! {
        /// Shapes.
        enum Shapes: Shape {
            Square(Square),
            Circle(Circle),
        }
        mut { fn grow(by: f64); }
        ref { fn area() -> f64; fn sides() -> u32; }
    }

    #[test]
    fn each_method_forwards_to_the_kind_and_defaults_apply() {
        let mut shapes = [Shapes::Square(Square(2.0)), Shapes::Circle(Circle(1.0))];
        for s in &mut shapes {
            s.grow(2.0);
        }
        assert_eq!(shapes[0].area(), 16.0);
        assert_eq!(shapes[1].area(), 12.0);
        assert_eq!((shapes[0].sides(), shapes[1].sides()), (4, 0));
    }
}
