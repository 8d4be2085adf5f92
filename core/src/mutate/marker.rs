//! `PhantomData<T>`: a single value for any `T`.

use core::marker::PhantomData;

use crate::codec::{Decoder, Encoder};
use crate::fingerprint::Fingerprint;
use crate::{Context, Mutate};

/// The single value: nothing to mutate or shrink; encoded as one placeholder byte. No bound on `T`, so a type that only
/// mentions `T` in a `PhantomData` field does not require `T: Mutate`.
///
/// ```
/// use core::marker::PhantomData;
/// use typefuzz_core::{codec, Context, Mutate};
/// struct NotMutate;
/// let mut cx = Context::new(1);
/// let mut marker: PhantomData<NotMutate> = cx.generate();
/// cx.mutate(&mut marker);
/// assert!(cx.trace().is_empty());
/// assert_eq!(codec::to_bytes(&marker), [0]);
/// ```
impl<T: ?Sized> Mutate for PhantomData<T> {
    fn generate(_cx: &mut Context) -> Self {
        PhantomData
    }

    fn mutate(&mut self, _cx: &mut Context) {}

    fn shrink(&self, _cx: &mut Context) -> Vec<Self> {
        Vec::new()
    }

    /// One placeholder byte, as for `()`: every value takes at least one byte.
    fn encode(&self, out: &mut Encoder) {
        out.write_byte(0);
    }

    fn decode(input: &mut Decoder<'_>) -> Self {
        input.read_byte();
        PhantomData
    }

    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name("PhantomData");
    }

    /// One node, so the structure fingerprint of a type holding a marker stays exact.
    fn visit_structure(&self, structure: &mut crate::structure::Structure<'_>) {
        structure.node(crate::structure::token("PhantomData"));
    }

    /// One value: nothing to write.
    fn hash_value(&self, _: &mut crate::mutate::ValueHasher) {}
}
