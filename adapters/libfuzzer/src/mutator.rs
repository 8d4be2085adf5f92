//! The mutator side: one typed mutation per libFuzzer mutation request, within its size limit.

use std::cell::RefCell;

use typefuzz_engine::codec::to_bytes;
use typefuzz_engine::{Context, Mutate};

use crate::cache::{lookup, InputCache};
use crate::cmplog::SeedRun;

/// One call in this many goes to libFuzzer's own byte mutator instead of the typed one.
///
/// Byte mutations reach what typed ones do not: libFuzzer's dictionary and comparison tables
/// (`-use_value_profile`, `-dict`) splice constants the program compares against straight into
/// the encoding, and odd encodings still decode (the codec is total). Most of the work stays
/// typed.
///
/// ```
/// assert_eq!(typefuzz_libfuzzer::BYTE_MUTATION_ONE_IN, 8);
/// ```
pub const BYTE_MUTATION_ONE_IN: u32 = 8;

/// How many typed mutations of the input are tried for one whose encoding fits `max_size`.
const FIT_ATTEMPTS: usize = 4;

/// How many shrink rounds may be spent making a mutant fit `max_size`.
const SHRINK_ROUNDS: usize = 16;

thread_local! {
    /// Reused across calls: a context owns the operator trace buffer, so reseeding it avoids an
    /// allocation per mutation.
    static CONTEXT: RefCell<Context> = RefCell::new(Context::new(0));
}

/// Runs `f` with the thread's context reseeded from libFuzzer's `seed` (so a run is reproducible
/// with `-seed=N`).
pub(crate) fn with_context<R>(seed: u32, f: impl FnOnce(&mut Context) -> R) -> R {
    CONTEXT.with(|cx| {
        let mut cx = cx.borrow_mut();
        cx.reseed(u64::from(seed));
        f(&mut cx)
    })
}

/// libFuzzer's custom mutator for inputs of type `T`: decodes `data[..size]`, applies one typed
/// mutation ([`Context::mutate`]), re-encodes into `data` and returns the new length, which is
/// at most `max_size`.
///
/// `data` must hold at least `max(size, max_size)` bytes. When the mutant's encoding is longer
/// than `max_size`, other mutations are tried; if none fits, the call goes to
/// `byte_mutator(data, size, max_size)` (`fuzz_target!` passes `libfuzzer_sys::fuzzer_mutate`,
/// libFuzzer's default mutator), as it does in 1 call out of [`BYTE_MUTATION_ONE_IN`]. Only
/// when the input itself is longer than `max_size` (libFuzzer lowered its limit, e.g. under
/// `-max_len` below the corpus's lengths) does the mutant get shrunk until it fits, keeping the
/// longest shrink that does.
///
/// This decodes `data` on every call; `fuzz_target!` uses [`InputCache::mutate`], which gives
/// the same mutants and skips the decoding when it has seen the bytes.
///
/// ```
/// use typefuzz::codec::{from_bytes, to_bytes};
/// use typefuzz_libfuzzer::mutate;
///
/// let mut data = to_bytes(&vec![1u8, 2, 3]);
/// let size = data.len();
/// data.resize(64, 0);
/// // A byte mutator that must not be needed here: it panics if called.
/// let no_bytes = |_: &mut [u8], _: usize, _: usize| -> usize { unreachable!() };
/// let new_size = mutate::<Vec<u8>>(&mut data, size, 64, 1, no_bytes);
/// assert!(new_size <= 64);
/// let mutant: Vec<u8> = from_bytes(&data[..new_size]);
/// assert_eq!(to_bytes(&mutant), &data[..new_size]); // the output is a canonical encoding
/// ```
pub fn mutate<T: Mutate>(
    data: &mut [u8],
    size: usize,
    max_size: usize,
    seed: u32,
    byte_mutator: impl FnMut(&mut [u8], usize, usize) -> usize,
) -> usize {
    InputCache::<T>::new().mutate(data, size, max_size, seed, byte_mutator)
}

impl<T: Mutate> InputCache<T> {
    /// [`mutate`](crate::mutate) (same arguments, same results for the same seed), starting
    /// from the cached value of `data[..size]` when there is one, and remembering the mutant
    /// for the execution and the mutation that follow.
    ///
    /// ```
    /// use typefuzz::codec::to_bytes;
    /// use typefuzz_libfuzzer::{mutate, InputCache};
    ///
    /// let seed_input = to_bytes(&(7u8, vec![1u16, 2]));
    /// let no_bytes = |_: &mut [u8], _: usize, _: usize| -> usize { unreachable!() };
    /// let mut inputs = InputCache::<(u8, Vec<u16>)>::new();
    /// let (mut cached, mut plain) = (seed_input.clone(), seed_input.clone());
    /// cached.resize(64, 0);
    /// plain.resize(64, 0);
    /// let (mut cached_size, mut plain_size) = (seed_input.len(), seed_input.len());
    /// for seed in 1..=5 {
    ///     // A chain of mutations, as libFuzzer's -mutate_depth makes.
    ///     cached_size = inputs.mutate(&mut cached, cached_size, 64, seed, no_bytes);
    ///     plain_size = mutate::<(u8, Vec<u16>)>(&mut plain, plain_size, 64, seed, no_bytes);
    ///     assert_eq!(cached[..cached_size], plain[..plain_size]);
    /// }
    /// ```
    pub fn mutate(
        &mut self,
        data: &mut [u8],
        size: usize,
        max_size: usize,
        seed: u32,
        byte_mutator: impl FnMut(&mut [u8], usize, usize) -> usize,
    ) -> usize {
        self.mutate_with(data, size, max_size, seed, byte_mutator, None)
    }

    /// [`mutate`](InputCache::mutate), with the property for typed CmpLog: `run` runs it on a
    /// corpus input to log its comparisons ([`cmplog`](crate::cmplog)).
    pub(crate) fn mutate_with(
        &mut self,
        data: &mut [u8],
        size: usize,
        max_size: usize,
        seed: u32,
        mut byte_mutator: impl FnMut(&mut [u8], usize, usize) -> usize,
        run: Option<SeedRun<'_, T>>,
    ) -> usize {
        let size = size.min(data.len());
        let max_size = max_size.min(data.len());
        self.note_chain(&data[..size]);
        let typed = with_context(seed, |cx| {
            !cx.chance(1, BYTE_MUTATION_ONE_IN)
                && self.write_mutant(&data[..size], max_size, cx, run)
        });
        if !typed {
            return byte_mutator(data, size, max_size);
        }
        let bytes = self.encoder.as_bytes();
        data[..bytes.len()].copy_from_slice(bytes);
        bytes.len()
    }

    /// Encodes a typed mutant of the value `bytes` decode to into `self.encoder`, if one fits
    /// in `max_size` bytes, and remembers it as the last input.
    fn write_mutant(
        &mut self,
        bytes: &[u8],
        max_size: usize,
        cx: &mut Context,
        mut run: Option<SeedRun<'_, T>>,
    ) -> bool {
        // CmpLog: now and then the next candidate of an input libFuzzer just added, in place
        // of a mutation of `bytes`.
        if let Some((served, max_len)) = self.fresh.serve(&mut self.spare, cx) {
            self.encoder.clear();
            served.encode(&mut self.encoder);
            if self.encoder.as_bytes().len() <= max_size.min(max_len) {
                self.remember_last(served);
                return true;
            }
            self.spare = Some(served);
        }
        // The comparison table describes `bytes` when they are the input the property ran last.
        let ran = self.last_ran && self.last.as_ref().is_some_and(|last| last.bytes == bytes);
        let original = lookup(&self.last, &mut self.recent, bytes);
        let mut mutant = Self::copy_into_spare(&mut self.spare, original);
        for attempt in 0..FIT_ATTEMPTS {
            if attempt > 0 {
                mutant.clone_from(original);
            }
            // CmpLog: from the comparisons of the input the property just ran on, or, for an
            // input from the corpus (a chain's start), from a run of its own.
            let substituted = attempt == 0
                && match (ran, &mut run) {
                    (true, _) => self.substitutions.mutate(&mut mutant, cx),
                    (false, Some(run)) => {
                        self.substitutions.mutate_seed(bytes, &mut mutant, cx, *run)
                    }
                    (false, None) => false,
                };
            if !substituted {
                cx.mutate(&mut mutant);
            }
            self.encoder.clear();
            mutant.encode(&mut self.encoder);
            if self.encoder.as_bytes().len() <= max_size {
                self.remember_last(mutant);
                return true;
            }
        }
        if bytes.len() <= max_size {
            // The input fits and its mutations grew past the limit: libFuzzer's byte mutator
            // takes the call. Shrinking here would be the wrong trade: `shrink` builds every
            // candidate (each a copy of the input), about twice as many as the input has
            // elements, and an input at libFuzzer's 4096-byte limit spent tens of millions of
            // instructions on one call, a third of a run's time on some seeds.
            self.spare = Some(mutant);
            return false;
        }
        match shrink_to_fit(mutant, max_size, cx) {
            Some(fitting) => {
                self.encoder.clear();
                fitting.encode(&mut self.encoder);
                self.remember_last(fitting);
                true
            }
            None => false,
        }
    }
}

/// Shrinks `value` until its encoding fits in `max_size` bytes, keeping as much of it as it can:
/// each round takes the longest candidate that fits, else the shortest one and goes on.
fn shrink_to_fit<T: Mutate>(mut value: T, max_size: usize, cx: &mut Context) -> Option<T> {
    for _ in 0..SHRINK_ROUNDS {
        let mut best_fit: Option<(usize, T)> = None;
        let mut shortest: Option<(usize, T)> = None;
        for candidate in value.shrink(cx) {
            let len = to_bytes(&candidate).len();
            if len <= max_size {
                if best_fit.as_ref().map_or(true, |(best, _)| len > *best) {
                    best_fit = Some((len, candidate));
                }
            } else if shortest.as_ref().map_or(true, |(short, _)| len < *short) {
                shortest = Some((len, candidate));
            }
        }
        if let Some((_, fitting)) = best_fit {
            return Some(fitting);
        }
        value = shortest?.1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use typefuzz_engine::codec::from_bytes;

    #[test]
    fn respects_max_size_and_changes_the_value() {
        let original = vec![7u32; 10];
        let encoded = to_bytes(&original);
        let mut changed = 0;
        for seed in 0..500u32 {
            let mut data = encoded.clone();
            data.resize(encoded.len() + 8, 0);
            let max_size = encoded.len() + 8;
            let mut bytes_calls = 0;
            let new_size =
                mutate::<Vec<u32>>(&mut data, encoded.len(), max_size, seed, |d, s, _| {
                    bytes_calls += 1;
                    s.min(d.len())
                });
            assert!(new_size <= max_size);
            let mutant: Vec<u32> = from_bytes(&data[..new_size]);
            if bytes_calls == 0 {
                assert_eq!(to_bytes(&mutant), &data[..new_size]);
                if mutant != original {
                    changed += 1;
                }
            }
        }
        // About 7 in 8 calls are typed; nearly all of them change the vector.
        assert!(
            changed > 350,
            "only {changed} of 500 mutations changed the value"
        );
    }

    #[test]
    fn defers_to_the_byte_mutator_now_and_then() {
        let mut deferred = 0;
        for seed in 0..800u32 {
            let mut data = vec![0u8; 16];
            mutate::<u64>(&mut data, 8, 16, seed, |_, _, _| {
                deferred += 1;
                3
            });
        }
        // 1 in 8 of 800 is 100; the bounds are far from it.
        assert!((50..=160).contains(&deferred), "{deferred} of 800");
    }

    #[test]
    fn shrinks_a_mutant_that_does_not_fit() {
        // A 40-element vector whose encoding is 41 bytes, with room for 20: mutations alone
        // cannot get under the limit, shrinking must.
        let original = vec![1u8; 40];
        let mut data = to_bytes(&original);
        let size = data.len();
        for seed in 0..64u32 {
            let mut bytes_calls = 0;
            let new_size = mutate::<Vec<u8>>(&mut data, size, 20, seed, |_, _, _| {
                bytes_calls += 1;
                0
            });
            if bytes_calls == 0 {
                assert!(new_size <= 20, "seed {seed}: {new_size} bytes");
                assert!(from_bytes::<Vec<u8>>(&data[..new_size]).len() < 40);
            }
        }
    }

    #[test]
    fn an_input_that_fits_is_not_shrunk_when_its_mutants_do_not() {
        // The empty vector at a 1-byte limit: every mutation of it inserts, which does not
        // fit. Shrinking a mutant back would find the empty vector again; the byte mutator
        // takes every call instead.
        let encoded = to_bytes(&Vec::<u16>::new());
        assert_eq!(encoded.len(), 1);
        for seed in 0..200u32 {
            let mut data = encoded.clone();
            let mut bytes_calls = 0;
            let new_size = mutate::<Vec<u16>>(&mut data, 1, 1, seed, |_, s, _| {
                bytes_calls += 1;
                s
            });
            assert_eq!((bytes_calls, new_size), (1, 1), "seed {seed}");
        }
    }

    #[test]
    fn shrink_to_fit_keeps_the_longest_fitting_candidate() {
        let mut cx = Context::new(3);
        let fitting = shrink_to_fit(vec![5u8; 30], 10, &mut cx).expect("a shrink fits");
        assert!(to_bytes(&fitting).len() <= 10);
        assert_eq!(
            shrink_to_fit(vec![5u8; 30], 0, &mut cx),
            None,
            "nothing encodes in 0 bytes"
        );
    }

    #[test]
    fn same_seed_same_mutant() {
        let encoded = to_bytes(&(3u8, vec![1u16, 2, 3]));
        let run = |seed| {
            let mut data = encoded.clone();
            data.resize(64, 0);
            let n = mutate::<(u8, Vec<u16>)>(&mut data, encoded.len(), 64, seed, |_, s, _| s);
            data[..n].to_vec()
        };
        assert_eq!(run(9), run(9));
    }
}
