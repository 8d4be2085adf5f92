//! Nested-branch micro-benchmarks: inputs that fail only behind a chain of equality tests.
//!
//! Each target exists in two versions selected by the `LABELS` const parameter: `false` is the
//! plain program (feedback can only come from code coverage or comparison tracing), `true` marks
//! every passed test of the chain with a coverage label, the way a user would with
//! `typefuzz::cover!`. The const parameter makes them two separate monomorphized functions, so
//! the plain version contains no trace of the labels.

use crate::Verdict;
use typefuzz::cover;

/// "bad!" (Dmitry Vyukov): fails iff the input starts with the bytes `b`, `a`, `d`, `!`.
///
/// ```
/// use typefuzz_bench_targets::{branches::bad, Verdict};
/// assert_eq!(bad::<false>(b"bad!"), Verdict::Fail);
/// assert_eq!(bad::<true>(b"bad?"), Verdict::Pass);
/// ```
pub fn bad<const LABELS: bool>(input: &[u8]) -> Verdict {
    if input.first() == Some(&b'b') {
        if LABELS {
            cover!("bad: b");
        }
        if input.get(1) == Some(&b'a') {
            if LABELS {
                cover!("bad: ba");
            }
            if input.get(2) == Some(&b'd') {
                if LABELS {
                    cover!("bad: bad");
                }
                if input.get(3) == Some(&b'!') {
                    return Verdict::Fail;
                }
            }
        }
    }
    Verdict::Pass
}

/// The greedy trap: "bad!" with a competing `"ok"` branch. Inputs starting with `o` (then `ok`)
/// reach new coverage too, but lead nowhere; a search that only extends its latest discovery
/// gets stuck there, a seed pool that revisits older seeds does not.
///
/// ```
/// use typefuzz_bench_targets::{branches::bad_or_ok, Verdict};
/// assert_eq!(bad_or_ok::<false>(b"bad!"), Verdict::Fail);
/// assert_eq!(bad_or_ok::<true>(b"ok!!"), Verdict::Pass);
/// ```
pub fn bad_or_ok<const LABELS: bool>(input: &[u8]) -> Verdict {
    if input.first() == Some(&b'o') {
        if LABELS {
            cover!("trap: o");
        }
        if input.get(1) == Some(&b'k') && LABELS {
            cover!("trap: ok");
        }
        return Verdict::Pass;
    }
    bad::<LABELS>(input)
}

/// Dan Luu's bit loop: fails iff there are exactly 4 integers and each has its 16 low bits set,
/// checked bit by bit with an early exit (so edge coverage sees no progress inside the loop).
/// The labeled version marks the length test and each fully matched element.
///
/// ```
/// use typefuzz_bench_targets::{branches::dan_luu, Verdict};
/// assert_eq!(dan_luu::<false>(&[0xffff, -1, 0x1ffff, 0xffff]), Verdict::Fail);
/// assert_eq!(dan_luu::<false>(&[0xffff, -1, 0x1ffff, 0x7fff]), Verdict::Pass);
/// assert_eq!(dan_luu::<true>(&[0xffff; 3]), Verdict::Pass);
/// ```
pub fn dan_luu<const LABELS: bool>(input: &[i32]) -> Verdict {
    if input.len() != 4 {
        return Verdict::Pass;
    }
    if LABELS {
        cover!("dan_luu: len 4");
    }
    for (i, &x) in input.iter().enumerate() {
        for bit in 0..16 {
            if (x >> bit) & 1 == 0 {
                return Verdict::Pass;
            }
        }
        if LABELS {
            match i {
                0 => cover!("dan_luu: a[0] set"),
                1 => cover!("dan_luu: a[1] set"),
                2 => cover!("dan_luu: a[2] set"),
                _ => cover!("dan_luu: a[3] set"),
            }
        }
    }
    Verdict::Fail
}

/// fuzzcheck's enum (`articles/why_not_bytes.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, typefuzz::Mutate, arbitrary::Arbitrary)]
#[allow(missing_docs)]
pub enum SomeEnum {
    A(u8),
    B(u16),
    C(u8, u16),
    D(u16, u16),
    E,
}

/// The seven elements the enum-vector targets look for.
pub const ENUM_TARGET: [SomeEnum; 7] = [
    SomeEnum::E,
    SomeEnum::A(30),
    SomeEnum::E,
    SomeEnum::A(8),
    SomeEnum::E,
    SomeEnum::A(230),
    SomeEnum::A(23),
];

/// Fails iff `len > 6` and the first seven elements are [`ENUM_TARGET`], checked in index order.
///
/// ```
/// use typefuzz_bench_targets::{branches::{enum_vector_forward, ENUM_TARGET}, Verdict};
/// assert_eq!(enum_vector_forward::<false>(&ENUM_TARGET), Verdict::Fail);
/// assert_eq!(enum_vector_forward::<true>(&ENUM_TARGET[..6]), Verdict::Pass);
/// ```
pub fn enum_vector_forward<const LABELS: bool>(input: &[SomeEnum]) -> Verdict {
    enum_vector::<LABELS>(input, [0, 1, 2, 3, 4, 5, 6])
}

/// Like [`enum_vector_forward`], checking from index 6 down to 0 (harder for byte fuzzers:
/// the first test to pass sits furthest from the start of the input).
///
/// ```
/// use typefuzz_bench_targets::{branches::{enum_vector_reverse, ENUM_TARGET}, Verdict};
/// let mut v = ENUM_TARGET.to_vec();
/// v.push(typefuzz_bench_targets::branches::SomeEnum::B(1));
/// assert_eq!(enum_vector_reverse::<false>(&v), Verdict::Fail);
/// ```
pub fn enum_vector_reverse<const LABELS: bool>(input: &[SomeEnum]) -> Verdict {
    enum_vector::<LABELS>(input, [6, 5, 4, 3, 2, 1, 0])
}

fn enum_vector<const LABELS: bool>(input: &[SomeEnum], order: [usize; 7]) -> Verdict {
    if input.len() <= 6 {
        return Verdict::Pass;
    }
    for i in order {
        if input[i] != ENUM_TARGET[i] {
            return Verdict::Pass;
        }
        if LABELS {
            match i {
                0 => cover!("enum: [0]"),
                1 => cover!("enum: [1]"),
                2 => cover!("enum: [2]"),
                3 => cover!("enum: [3]"),
                4 => cover!("enum: [4]"),
                5 => cover!("enum: [5]"),
                _ => cover!("enum: [6]"),
            }
        }
    }
    Verdict::Fail
}

/// The targets as the benchmark calls them: `labels` picks the labelled or the plain version.
///
/// A generic function is compiled into the crate that instantiates it, so if the benchmark
/// called `bad::<false>` itself, the code under test would land in the (uninstrumented)
/// benchmark crate and the coverage-only line would see nothing of it. These non-generic,
/// never-inlined entry points keep both versions in this crate.
pub mod entry {
    use super::{SomeEnum, Verdict};

    /// One entry point: `labels` picks `super::$name::<true>` or `::<false>`.
    macro_rules! entry_point {
        ($(#[$doc:meta])* $name:ident($input:ty)) => {
            $(#[$doc])*
            #[inline(never)]
            pub fn $name(labels: bool, input: $input) -> Verdict {
                if labels {
                    super::$name::<true>(input)
                } else {
                    super::$name::<false>(input)
                }
            }
        };
    }

    entry_point! {
        /// [`bad`](super::bad).
        ///
        /// ```
        /// use typefuzz_bench_targets::{branches::entry, Verdict};
        /// assert_eq!(entry::bad(false, b"bad!"), Verdict::Fail);
        /// ```
        bad(&[u8])
    }

    entry_point! {
        /// [`bad_or_ok`](super::bad_or_ok).
        ///
        /// ```
        /// use typefuzz_bench_targets::{branches::entry, Verdict};
        /// assert_eq!(entry::bad_or_ok(true, b"ok"), Verdict::Pass);
        /// ```
        bad_or_ok(&[u8])
    }

    entry_point! {
        /// [`dan_luu`](super::dan_luu).
        ///
        /// ```
        /// use typefuzz_bench_targets::{branches::entry, Verdict};
        /// assert_eq!(entry::dan_luu(false, &[0xffff; 4]), Verdict::Fail);
        /// ```
        dan_luu(&[i32])
    }

    entry_point! {
        /// [`enum_vector_forward`](super::enum_vector_forward).
        ///
        /// ```
        /// use typefuzz_bench_targets::{branches::{entry, ENUM_TARGET}, Verdict};
        /// assert_eq!(entry::enum_vector_forward(false, &ENUM_TARGET), Verdict::Fail);
        /// ```
        enum_vector_forward(&[SomeEnum])
    }

    entry_point! {
        /// [`enum_vector_reverse`](super::enum_vector_reverse).
        ///
        /// ```
        /// use typefuzz_bench_targets::{branches::{entry, ENUM_TARGET}, Verdict};
        /// assert_eq!(entry::enum_vector_reverse(true, &ENUM_TARGET), Verdict::Fail);
        /// ```
        enum_vector_reverse(&[SomeEnum])
    }
}
