//! `Mutate` through a representation: a std type whose values correspond to values of a type
//! that already implements [`Mutate`](crate::Mutate) (`Duration` to `(u64, u32)`, `Ipv4Addr` to
//! `u32`, `Range<T>` to `(T, T)`, ...) is generated, mutated, shrunk and encoded as that
//! representation.
//!
//! `to` must be total and `from(to(v)) == v` (so the codec round-trips and shrinking follows
//! the representation's order). When `from` is not injective (`Duration`'s nanoseconds wrap at
//! a billion, `NonZeroU8` maps 0 to 1, a `BinaryHeap` forgets the order of its vector), the
//! impl is declared `normalizing`: a mutation is retried until the value changes, and shrink
//! candidates equal to the value are dropped; values are compared by their normalized
//! representation (`to(from(r))`), which needs `PartialEq` on the representation only.

/// Mutation attempts before a normalizing impl gives up changing the value (each attempt
/// changes the representation; only a collision with the normalized value repeats).
pub(super) const ATTEMPTS: usize = 16;

/// `via! { [generics] Type => Repr, to, from, injective|normalizing, "Name" }`: `"Name"` and
/// the representation's fingerprint make the type's fingerprint (a stable name, not
/// `type_name`, whose text may change between compilers).
macro_rules! via {
    (@common $repr:ty, $to:path, $from:path, $name:expr) => {
        fn generate(cx: &mut $crate::Context) -> Self {
            $from(<$repr as $crate::Mutate>::generate(cx))
        }

        fn encode(&self, out: &mut $crate::codec::Encoder) {
            $crate::Mutate::encode(&$to(self), out);
        }

        fn decode(input: &mut $crate::codec::Decoder<'_>) -> Self {
            $from(<$repr as $crate::Mutate>::decode(input))
        }

        fn fingerprint(fingerprint: &mut $crate::fingerprint::Fingerprint) {
            fingerprint.name($name);
            <$repr as $crate::Mutate>::fingerprint(fingerprint);
        }

        fn visit_structure(&self, structure: &mut $crate::structure::Structure<'_>) {
            $crate::Mutate::visit_structure(&$to(self), structure);
        }

        fn hash_value(&self, hasher: &mut $crate::mutate::ValueHasher) {
            $crate::Mutate::hash_value(&$to(self), hasher);
        }
    };
    ([$($generics:tt)*] $t:ty => $repr:ty, $to:path, $from:path, injective, $name:expr) => {
        impl<$($generics)*> $crate::Mutate for $t {
            $crate::mutate::via::via!(@common $repr, $to, $from, $name);

            fn mutate(&mut self, cx: &mut $crate::Context) {
                let mut repr = $to(self);
                $crate::Mutate::mutate(&mut repr, cx);
                *self = $from(repr);
            }

            fn shrink(&self, cx: &mut $crate::Context) -> Vec<Self> {
                $crate::Mutate::shrink(&$to(self), cx).into_iter().map($from).collect()
            }
        }
    };
    ([$($generics:tt)*] $t:ty => $repr:ty, $to:path, $from:path, normalizing, $name:expr) => {
        impl<$($generics)*> $crate::Mutate for $t {
            $crate::mutate::via::via!(@common $repr, $to, $from, $name);

            fn mutate(&mut self, cx: &mut $crate::Context) {
                let before = $to(self);
                let mut repr = ::core::clone::Clone::clone(&before);
                for _ in 0..$crate::mutate::via::ATTEMPTS {
                    $crate::Mutate::mutate(&mut repr, cx);
                    let next = $from(::core::clone::Clone::clone(&repr));
                    if $to(&next) != before {
                        *self = next;
                        return;
                    }
                }
            }

            fn shrink(&self, cx: &mut $crate::Context) -> Vec<Self> {
                let current = $to(self);
                $crate::Mutate::shrink(&current, cx)
                    .into_iter()
                    .map($from)
                    .filter(|candidate| $to(candidate) != current)
                    .collect()
            }
        }
    };
}

pub(super) use via;
