//! `PhantomData<T>`: a single value for any `T`.

use core::marker::PhantomData;

use crate::codec::{Decoder, Encoder};
use crate::{Context, Mutate};

/// The single value: nothing to mutate, shrink or encode. No bound on `T`, so a type that only
/// mentions `T` in a `PhantomData` field does not require `T: Mutate`.
///
/// ```
/// use core::marker::PhantomData;
/// use typefuzz_engine::{codec, Context, Mutate};
/// struct NotMutate;
/// let mut cx = Context::new(1);
/// let mut marker: PhantomData<NotMutate> = cx.generate();
/// cx.mutate(&mut marker);
/// assert!(cx.trace().is_empty());
/// assert!(codec::to_bytes(&marker).is_empty());
/// ```
impl<T: ?Sized> Mutate for PhantomData<T> {
    fn generate(_cx: &mut Context) -> Self {
        PhantomData
    }

    fn mutate(&mut self, _cx: &mut Context) {}

    fn shrink(&self, _cx: &mut Context) -> Vec<Self> {
        Vec::new()
    }

    fn encode(&self, _out: &mut Encoder) {}

    fn decode(_input: &mut Decoder<'_>) -> Self {
        PhantomData
    }
}
