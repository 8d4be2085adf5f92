//! The `Mutate` impls of the standard library types, checked family by family against the
//! trait's contract: bounded generation, one recorded change per mutation, strictly simpler
//! shrink candidates (by a measure computed here, independently of the impls), and a total,
//! bounded codec that round-trips.

use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::ffi::{CString, OsString};
use std::fmt::Debug;
use std::marker::PhantomData;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::num::{NonZeroI32, NonZeroU128, NonZeroU8, Saturating, Wrapping};
use std::ops::{Bound, Range, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use proptest::prelude::*;
use typefuzz_engine::codec::{from_bytes, to_bytes};
use typefuzz_engine::{Context, Mutate, Operator, Operators};

use Operator::*;

/// What the generic checks need to know about a type under test.
trait Subject: Mutate + Debug {
    /// A measure in which every shrink candidate must be strictly smaller.
    type Measure: Ord + Debug;
    fn measure(&self) -> Self::Measure;
    /// Value equality (bitwise for floats, so NaN equals itself).
    fn same(&self, other: &Self) -> bool;
    /// The element count of a collection (bounded by the size it was generated at).
    fn elements(&self) -> Option<usize> {
        None
    }
    /// The operators a top-level mutation may record first; empty for single-valued types.
    fn first_ops() -> &'static [Operator];
    /// Whether the only change this value admits is a growth, forbidden at size 0.
    fn only_grows(&self) -> bool {
        false
    }
}

macro_rules! int_subjects {
    ($($t:ty: $ops:expr;)*) => {$(
        impl Subject for $t {
            type Measure = (u128, bool);
            fn measure(&self) -> Self::Measure {
                #[allow(unused_comparisons)]
                let negative = *self < 0;
                // Magnitude, then sign; `as i128` keeps the sign for every width but u128.
                let magnitude = if negative { (*self as i128).unsigned_abs() } else { *self as u128 };
                (magnitude, negative)
            }
            fn same(&self, other: &Self) -> bool {
                self == other
            }
            fn first_ops() -> &'static [Operator] {
                $ops
            }
        }
    )*};
}

const UNSIGNED_OPS: &[Operator] = &[BitFlip, AddSub, Interesting, Random];
const SIGNED_OPS: &[Operator] = &[BitFlip, AddSub, Interesting, Random, Toggle];
const SEQUENCE_OPS: &[Operator] = &[Insert, Duplicate, Remove, Swap, Truncate, Element];
const TABLE_OPS: &[Operator] = &[Insert, Remove, Element, Truncate];

int_subjects! {
    u8: UNSIGNED_OPS;
    u16: UNSIGNED_OPS;
    u32: UNSIGNED_OPS;
    u64: UNSIGNED_OPS;
    usize: UNSIGNED_OPS;
    i8: SIGNED_OPS;
    i16: SIGNED_OPS;
    i32: SIGNED_OPS;
    i64: SIGNED_OPS;
    i128: SIGNED_OPS;
}

macro_rules! float_subjects {
    ($($t:ty;)*) => {$(
        impl Subject for $t {
            /// Non-finite, has a fraction, magnitude, sign.
            type Measure = (bool, bool, u64, bool);
            fn measure(&self) -> Self::Measure {
                let finite = self.is_finite();
                (!finite, finite && self.fract() != 0.0, u64::from(self.abs().to_bits()), self.is_sign_negative())
            }
            fn same(&self, other: &Self) -> bool {
                self.to_bits() == other.to_bits()
            }
            fn first_ops() -> &'static [Operator] {
                SIGNED_OPS
            }
        }
    )*};
}

float_subjects! {
    f32;
    f64;
}

impl Subject for bool {
    type Measure = bool;
    fn measure(&self) -> bool {
        *self
    }
    fn same(&self, other: &Self) -> bool {
        self == other
    }
    fn first_ops() -> &'static [Operator] {
        &[Toggle]
    }
}

impl Subject for char {
    type Measure = (bool, u32);
    fn measure(&self) -> Self::Measure {
        (*self != 'a', *self as u32)
    }
    fn same(&self, other: &Self) -> bool {
        self == other
    }
    fn first_ops() -> &'static [Operator] {
        &[Random, AddSub, Interesting]
    }
}

impl Subject for () {
    type Measure = ();
    fn measure(&self) {}
    fn same(&self, _other: &Self) -> bool {
        true
    }
    fn first_ops() -> &'static [Operator] {
        &[]
    }
}

impl Subject for PhantomData<String> {
    type Measure = ();
    fn measure(&self) {}
    fn same(&self, _other: &Self) -> bool {
        true
    }
    fn first_ops() -> &'static [Operator] {
        &[]
    }
}

impl Subject for String {
    type Measure = (usize, Vec<(bool, u32)>);
    fn measure(&self) -> Self::Measure {
        (
            self.chars().count(),
            self.chars().map(|c| c.measure()).collect(),
        )
    }
    fn same(&self, other: &Self) -> bool {
        self == other
    }
    fn elements(&self) -> Option<usize> {
        Some(self.chars().count())
    }
    fn first_ops() -> &'static [Operator] {
        SEQUENCE_OPS
    }
}

/// Length, then the elements lexicographically.
macro_rules! sequence_subjects {
    ($($seq:ident;)*) => {$(
        impl<T: Subject> Subject for $seq<T> {
            type Measure = (usize, Vec<T::Measure>);
            fn measure(&self) -> Self::Measure {
                (self.len(), self.iter().map(T::measure).collect())
            }
            fn same(&self, other: &Self) -> bool {
                self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a.same(b))
            }
            fn elements(&self) -> Option<usize> {
                Some(self.len())
            }
            fn first_ops() -> &'static [Operator] {
                SEQUENCE_OPS
            }
        }
    )*};
}

sequence_subjects! {
    Vec;
    VecDeque;
}

macro_rules! pointer_subjects {
    ($($pointer:ident;)*) => {$(
        impl<T: Subject> Subject for $pointer<T> {
            type Measure = T::Measure;
            fn measure(&self) -> T::Measure {
                (**self).measure()
            }
            fn same(&self, other: &Self) -> bool {
                (**self).same(other)
            }
            fn elements(&self) -> Option<usize> {
                (**self).elements()
            }
            fn first_ops() -> &'static [Operator] {
                T::first_ops()
            }
        }
    )*};
}

pointer_subjects! {
    Box;
    Rc;
    Arc;
}

impl<T: Subject> Subject for Option<T> {
    type Measure = Option<T::Measure>;
    fn measure(&self) -> Self::Measure {
        self.as_ref().map(T::measure)
    }
    fn same(&self, other: &Self) -> bool {
        match (self, other) {
            (Some(a), Some(b)) => a.same(b),
            (a, b) => a.is_none() && b.is_none(),
        }
    }
    fn first_ops() -> &'static [Operator] {
        &[Recursive, ConstructorDrop, ConstructorGrow]
    }
    fn only_grows(&self) -> bool {
        self.is_none()
    }
}

impl<T: Subject, E: Subject> Subject for Result<T, E> {
    type Measure = Result<T::Measure, E::Measure>;
    fn measure(&self) -> Self::Measure {
        self.as_ref().map(T::measure).map_err(E::measure)
    }
    fn same(&self, other: &Self) -> bool {
        match (self, other) {
            (Ok(a), Ok(b)) => a.same(b),
            (Err(a), Err(b)) => a.same(b),
            _ => false,
        }
    }
    fn first_ops() -> &'static [Operator] {
        &[Recursive, ConstructorGrow]
    }
}

/// The multiset order of the entries: for a total order on entries, comparing the entries
/// sorted in decreasing order lexicographically is the Dershowitz–Manna multiset order.
fn multiset<M: Ord>(mut entries: Vec<M>) -> Vec<M> {
    entries.sort_by(|a, b| b.cmp(a));
    entries
}

impl Subject for HashMap<u8, u16> {
    type Measure = Vec<((u128, bool), (u128, bool))>;
    fn measure(&self) -> Self::Measure {
        multiset(
            self.iter()
                .map(|(k, v)| (k.measure(), v.measure()))
                .collect(),
        )
    }
    fn same(&self, other: &Self) -> bool {
        self == other
    }
    fn elements(&self) -> Option<usize> {
        Some(self.len())
    }
    fn first_ops() -> &'static [Operator] {
        TABLE_OPS
    }
}

impl Subject for BTreeMap<i32, String> {
    type Measure = Vec<((u128, bool), (usize, Vec<(bool, u32)>))>;
    fn measure(&self) -> Self::Measure {
        multiset(
            self.iter()
                .map(|(k, v)| (k.measure(), v.measure()))
                .collect(),
        )
    }
    fn same(&self, other: &Self) -> bool {
        self == other
    }
    fn elements(&self) -> Option<usize> {
        Some(self.len())
    }
    fn first_ops() -> &'static [Operator] {
        TABLE_OPS
    }
}

impl Subject for HashSet<u8> {
    type Measure = Vec<(u128, bool)>;
    fn measure(&self) -> Self::Measure {
        multiset(self.iter().map(u8::measure).collect())
    }
    fn same(&self, other: &Self) -> bool {
        self == other
    }
    fn elements(&self) -> Option<usize> {
        Some(self.len())
    }
    fn first_ops() -> &'static [Operator] {
        TABLE_OPS
    }
}

impl Subject for BTreeSet<u16> {
    type Measure = Vec<(u128, bool)>;
    fn measure(&self) -> Self::Measure {
        multiset(self.iter().map(u16::measure).collect())
    }
    fn same(&self, other: &Self) -> bool {
        self == other
    }
    fn elements(&self) -> Option<usize> {
        Some(self.len())
    }
    fn first_ops() -> &'static [Operator] {
        TABLE_OPS
    }
}

impl Subject for (u8, bool, String) {
    type Measure = ((u128, bool), bool, (usize, Vec<(bool, u32)>));
    fn measure(&self) -> Self::Measure {
        (self.0.measure(), self.1.measure(), self.2.measure())
    }
    fn same(&self, other: &Self) -> bool {
        self == other
    }
    fn first_ops() -> &'static [Operator] {
        &[Recursive]
    }
}

impl Subject for [u8; 4] {
    type Measure = [(u128, bool); 4];
    fn measure(&self) -> Self::Measure {
        self.map(|b| b.measure())
    }
    fn same(&self, other: &Self) -> bool {
        self == other
    }
    fn first_ops() -> &'static [Operator] {
        &[Element, Swap]
    }
}

/// Subjects for the std types implemented through a representation (core/src/mutate/via.rs):
/// each measure is computed here from the type's own API, not from the representation.
macro_rules! via_subject {
    ($t:ty => $measure:ty, |$v:ident| $m:expr, $ops:expr $(, elements |$e:ident| $el:expr)? $(, only_grows |$g:ident| $og:expr)?) => {
        impl Subject for $t {
            type Measure = $measure;
            fn measure(&self) -> $measure {
                let $v = self;
                $m
            }
            fn same(&self, other: &Self) -> bool {
                self.measure() == other.measure()
            }
            $(fn elements(&self) -> Option<usize> {
                let $e = self;
                Some($el)
            })?
            fn first_ops() -> &'static [Operator] {
                $ops
            }
            $(fn only_grows(&self) -> bool {
                let $g = self;
                $og
            })?
        }
    };
}

type IntMeasure = (u128, bool);
type TextMeasure = (usize, Vec<(bool, u32)>);
type BytesMeasure = (usize, Vec<IntMeasure>);

fn text_measure(text: &str) -> TextMeasure {
    text.to_string().measure()
}

fn duration_measure(d: &Duration) -> (u64, u32) {
    (d.as_secs(), d.subsec_nanos())
}

via_subject!(Duration => (u64, u32), |d| duration_measure(d), &[Recursive]);
// Whole seconds from the epoch (negative before it, rounded down: `timespec`'s form), then the
// nanoseconds past them.
via_subject!(SystemTime => (u64, bool, u32), |t| match t.duration_since(UNIX_EPOCH) {
    Ok(after) => (after.as_secs(), false, after.subsec_nanos()),
    Err(before) => {
        let before = before.duration();
        match before.subsec_nanos() {
            0 => (before.as_secs(), true, 0),
            nanos => (before.as_secs() + 1, true, 1_000_000_000 - nanos),
        }
    }
}, &[Recursive]);
via_subject!(NonZeroU8 => IntMeasure, |n| n.get().measure(), UNSIGNED_OPS);
via_subject!(NonZeroI32 => IntMeasure, |n| n.get().measure(), SIGNED_OPS);
via_subject!(NonZeroU128 => IntMeasure, |n| (n.get(), false), UNSIGNED_OPS);
via_subject!(Wrapping<u16> => IntMeasure, |w| w.0.measure(), UNSIGNED_OPS);
via_subject!(Saturating<i8> => IntMeasure, |w| w.0.measure(), SIGNED_OPS);
// Unbounded, then Included before Excluded, then the value.
via_subject!(Bound<u8> => Option<(bool, IntMeasure)>, |b| match b {
    Bound::Unbounded => None,
    Bound::Included(v) => Some((false, v.measure())),
    Bound::Excluded(v) => Some((true, v.measure())),
}, &[Recursive, ConstructorDrop, ConstructorGrow], only_grows |b| matches!(b, Bound::Unbounded));
via_subject!(Range<i32> => (IntMeasure, IntMeasure), |r| (r.start.measure(), r.end.measure()), &[Recursive]);
via_subject!(RangeInclusive<u8> => (IntMeasure, IntMeasure), |r| (r.start().measure(), r.end().measure()), &[Recursive]);
via_subject!(RangeFrom<u64> => IntMeasure, |r| r.start.measure(), UNSIGNED_OPS);
via_subject!(RangeTo<i8> => IntMeasure, |r| r.end.measure(), SIGNED_OPS);
via_subject!(RangeToInclusive<usize> => IntMeasure, |r| r.end.measure(), UNSIGNED_OPS);
via_subject!(RangeFull => (), |_r| (), &[]);
via_subject!(Ipv4Addr => IntMeasure, |ip| u32::from(*ip).measure(), UNSIGNED_OPS);
via_subject!(Ipv6Addr => (u128, bool), |ip| (u128::from(*ip), false), UNSIGNED_OPS);
// IPv4 before IPv6 (as `Ok` before `Err`).
via_subject!(IpAddr => Result<u32, u128>, |ip| match ip {
    IpAddr::V4(v4) => Ok(u32::from(*v4)),
    IpAddr::V6(v6) => Err(u128::from(*v6)),
}, &[Recursive, ConstructorGrow]);
via_subject!(SocketAddrV4 => (u32, u16), |s| (u32::from(*s.ip()), s.port()), &[Recursive]);
via_subject!(SocketAddrV6 => (u128, u16, u32, u32), |s| (u128::from(*s.ip()), s.port(), s.flowinfo(), s.scope_id()), &[Recursive]);
via_subject!(SocketAddr => Result<(u32, u16), (u128, u16, u32, u32)>, |s| match s {
    SocketAddr::V4(v4) => Ok(v4.measure()),
    SocketAddr::V6(v6) => Err(v6.measure()),
}, &[Recursive, ConstructorGrow]);
via_subject!(Box<str> => TextMeasure, |s| text_measure(s), SEQUENCE_OPS, elements |s| s.chars().count());
via_subject!(Rc<str> => TextMeasure, |s| text_measure(s), SEQUENCE_OPS, elements |s| s.chars().count());
via_subject!(Arc<str> => TextMeasure, |s| text_measure(s), SEQUENCE_OPS, elements |s| s.chars().count());
via_subject!(OsString => TextMeasure, |s| text_measure(&s.to_string_lossy()), SEQUENCE_OPS, elements |s| s.to_string_lossy().chars().count());
via_subject!(PathBuf => TextMeasure, |p| text_measure(&p.to_string_lossy()), SEQUENCE_OPS, elements |p| p.to_string_lossy().chars().count());
via_subject!(CString => BytesMeasure, |c| (c.as_bytes().len(), c.as_bytes().iter().map(u8::measure).collect()), SEQUENCE_OPS, elements |c| c.as_bytes().len());
// A heap is its multiset of elements.
via_subject!(BinaryHeap<u8> => Vec<IntMeasure>, |h| multiset(h.iter().map(u8::measure).collect()), SEQUENCE_OPS, elements |h| h.len());
via_subject!(LinkedList<i16> => (usize, Vec<IntMeasure>), |l| (l.len(), l.iter().map(i16::measure).collect()), SEQUENCE_OPS, elements |l| l.len());
via_subject!(Box<[u8]> => BytesMeasure, |b| (b.len(), b.iter().map(u8::measure).collect()), SEQUENCE_OPS, elements |b| b.len());
via_subject!(Rc<[u8]> => BytesMeasure, |b| (b.len(), b.iter().map(u8::measure).collect()), SEQUENCE_OPS, elements |b| b.len());
via_subject!(Arc<[u8]> => BytesMeasure, |b| (b.len(), b.iter().map(u8::measure).collect()), SEQUENCE_OPS, elements |b| b.len());

fn assert_round_trip<T: Subject>(value: &T) {
    let bytes = to_bytes(value);
    let decoded: T = from_bytes(&bytes);
    assert!(
        decoded.same(value),
        "round trip: {value:?} -> {bytes:?} -> {decoded:?}"
    );
}

/// Checks generation, mutation, shrinking and the codec on values from many seeds and sizes.
fn check_contract<T: Subject>() {
    let single_valued = T::first_ops().is_empty();
    let mut stuck = 0;
    for seed in 0..300u64 {
        let max_size = (seed % 33) as usize;
        let mut cx = Context::new(seed).with_max_size(max_size);
        let mut value = T::generate(&mut cx);
        if let Some(elements) = value.elements() {
            assert!(
                elements <= max_size,
                "generated {elements} elements at size {max_size}"
            );
        }
        assert_round_trip(&value);
        for _ in 0..8 {
            let before = value.clone();
            let ops = cx.mutate(&mut value).to_vec();
            assert_round_trip(&value);
            if single_valued {
                assert!(ops.is_empty(), "{ops:?} recorded on a single-valued type");
                continue;
            }
            if max_size == 0 && before.only_grows() {
                assert!(
                    ops.is_empty() && value.same(&before),
                    "{ops:?} grew at size 0"
                );
                stuck += 1;
                continue;
            }
            assert!(!value.same(&before), "{ops:?} left {before:?} unchanged");
            assert!(
                T::first_ops().contains(&ops[0]),
                "unexpected first operator in {ops:?}"
            );
            if matches!(ops[0], Element | Recursive) {
                // The inner mutation records its own operator, after the outer one.
                assert!(
                    ops.len() >= 2,
                    "{ops:?}: nothing recorded below {:?}",
                    ops[0]
                );
                assert!(!matches!(ops[1], Element | Recursive) || ops.len() >= 3);
            }
            if let Some(elements) = value.elements() {
                // An empty collection always admits an Insert, even at maximum size 0.
                assert!(
                    elements <= max_size.max(1),
                    "mutated to {elements} > {max_size}"
                );
            }
        }
        let candidates = value.shrink(&mut cx);
        assert!(
            candidates.len() <= 512,
            "{} shrink candidates",
            candidates.len()
        );
        let measure = value.measure();
        for candidate in &candidates {
            assert!(
                candidate.measure() < measure,
                "shrink candidate {candidate:?} is not simpler than {value:?}"
            );
            assert_round_trip(candidate);
        }
    }
    // Only a few seeds run at maximum size 0.
    assert!(stuck <= 10 * 8, "{stuck} mutations changed nothing");
}

/// Greedy shrinking with random candidate choice reaches a value with no candidates.
fn check_shrinking_terminates<T: Subject>(seeds: u64) {
    for seed in 0..seeds {
        let mut cx = Context::new(seed);
        let mut value = T::generate(&mut cx);
        let mut steps = 0;
        loop {
            let mut candidates = value.shrink(&mut cx);
            if candidates.is_empty() {
                break;
            }
            let pick = cx.below(candidates.len());
            value = candidates.swap_remove(pick);
            steps += 1;
            assert!(
                steps < 100_000,
                "shrinking does not terminate from seed {seed}: {value:?}"
            );
        }
    }
}

macro_rules! contract_tests {
    ($($name:ident: $t:ty;)*) => {$(
        #[test]
        fn $name() {
            check_contract::<$t>();
            check_shrinking_terminates::<$t>(20);
        }
    )*};
}

contract_tests! {
    contract_u8: u8;
    contract_i32: i32;
    contract_u64: u64;
    contract_i128: i128;
    contract_usize: usize;
    contract_f32: f32;
    contract_f64: f64;
    contract_bool: bool;
    contract_char: char;
    contract_unit: ();
    contract_string: String;
    contract_vec: Vec<u16>;
    contract_vec_deque: VecDeque<i8>;
    contract_box: Box<u8>;
    contract_rc: Rc<String>;
    contract_arc: Arc<i64>;
    contract_option: Option<u32>;
    contract_result: Result<u8, bool>;
    contract_hash_map: HashMap<u8, u16>;
    contract_btree_map: BTreeMap<i32, String>;
    contract_hash_set: HashSet<u8>;
    contract_btree_set: BTreeSet<u16>;
    contract_tuple: (u8, bool, String);
    contract_array: [u8; 4];
    contract_phantom: PhantomData<String>;
    contract_duration: Duration;
    contract_system_time: SystemTime;
    contract_non_zero_u8: NonZeroU8;
    contract_non_zero_i32: NonZeroI32;
    contract_non_zero_u128: NonZeroU128;
    contract_wrapping: Wrapping<u16>;
    contract_saturating: Saturating<i8>;
    contract_bound: Bound<u8>;
    contract_range: Range<i32>;
    contract_range_inclusive: RangeInclusive<u8>;
    contract_range_from: RangeFrom<u64>;
    contract_range_to: RangeTo<i8>;
    contract_range_to_inclusive: RangeToInclusive<usize>;
    contract_range_full: RangeFull;
    contract_ipv4: Ipv4Addr;
    contract_ipv6: Ipv6Addr;
    contract_ip: IpAddr;
    contract_socket_v4: SocketAddrV4;
    contract_socket_v6: SocketAddrV6;
    contract_socket: SocketAddr;
    contract_boxed_str: Box<str>;
    contract_rc_str: Rc<str>;
    contract_arc_str: Arc<str>;
    contract_os_string: OsString;
    contract_path_buf: PathBuf;
    contract_c_string: CString;
    contract_binary_heap: BinaryHeap<u8>;
    contract_linked_list: LinkedList<i16>;
    contract_boxed_slice: Box<[u8]>;
    contract_rc_slice: Rc<[u8]>;
    contract_arc_slice: Arc<[u8]>;
}

/// Decodes `bytes` as `T` (which must not panic) and checks that re-encoding is canonical.
fn decode_and_reencode<T: Subject>(bytes: &[u8]) {
    let value: T = from_bytes(bytes);
    assert_round_trip(&value);
}

proptest! {
    #[test]
    fn any_bytes_decode(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        decode_and_reencode::<u8>(&bytes);
        decode_and_reencode::<i32>(&bytes);
        decode_and_reencode::<u64>(&bytes);
        decode_and_reencode::<i128>(&bytes);
        decode_and_reencode::<usize>(&bytes);
        decode_and_reencode::<f32>(&bytes);
        decode_and_reencode::<f64>(&bytes);
        decode_and_reencode::<bool>(&bytes);
        decode_and_reencode::<char>(&bytes);
        decode_and_reencode::<()>(&bytes);
        decode_and_reencode::<String>(&bytes);
        decode_and_reencode::<Vec<u16>>(&bytes);
        decode_and_reencode::<VecDeque<i8>>(&bytes);
        decode_and_reencode::<Box<u8>>(&bytes);
        decode_and_reencode::<Rc<String>>(&bytes);
        decode_and_reencode::<Arc<i64>>(&bytes);
        decode_and_reencode::<Option<u32>>(&bytes);
        decode_and_reencode::<Result<u8, bool>>(&bytes);
        decode_and_reencode::<HashMap<u8, u16>>(&bytes);
        decode_and_reencode::<BTreeMap<i32, String>>(&bytes);
        decode_and_reencode::<HashSet<u8>>(&bytes);
        decode_and_reencode::<BTreeSet<u16>>(&bytes);
        decode_and_reencode::<(u8, bool, String)>(&bytes);
        decode_and_reencode::<[u8; 4]>(&bytes);
        decode_and_reencode::<PhantomData<String>>(&bytes);
        decode_and_reencode::<Vec<Vec<Option<String>>>>(&bytes);
        decode_and_reencode::<Duration>(&bytes);
        decode_and_reencode::<SystemTime>(&bytes);
        decode_and_reencode::<NonZeroU8>(&bytes);
        decode_and_reencode::<NonZeroI32>(&bytes);
        decode_and_reencode::<NonZeroU128>(&bytes);
        decode_and_reencode::<Wrapping<u16>>(&bytes);
        decode_and_reencode::<Saturating<i8>>(&bytes);
        decode_and_reencode::<Bound<u8>>(&bytes);
        decode_and_reencode::<Range<i32>>(&bytes);
        decode_and_reencode::<RangeInclusive<u8>>(&bytes);
        decode_and_reencode::<RangeFrom<u64>>(&bytes);
        decode_and_reencode::<RangeTo<i8>>(&bytes);
        decode_and_reencode::<RangeToInclusive<usize>>(&bytes);
        decode_and_reencode::<RangeFull>(&bytes);
        decode_and_reencode::<Ipv4Addr>(&bytes);
        decode_and_reencode::<Ipv6Addr>(&bytes);
        decode_and_reencode::<IpAddr>(&bytes);
        decode_and_reencode::<SocketAddrV4>(&bytes);
        decode_and_reencode::<SocketAddrV6>(&bytes);
        decode_and_reencode::<SocketAddr>(&bytes);
        decode_and_reencode::<Box<str>>(&bytes);
        decode_and_reencode::<Rc<str>>(&bytes);
        decode_and_reencode::<Arc<str>>(&bytes);
        decode_and_reencode::<OsString>(&bytes);
        decode_and_reencode::<PathBuf>(&bytes);
        decode_and_reencode::<CString>(&bytes);
        decode_and_reencode::<BinaryHeap<u8>>(&bytes);
        decode_and_reencode::<LinkedList<i16>>(&bytes);
        decode_and_reencode::<Box<[u8]>>(&bytes);
        decode_and_reencode::<Rc<[u8]>>(&bytes);
        decode_and_reencode::<Arc<[u8]>>(&bytes);
    }
}

/// A mebibyte of random bytes, and one of `0xff` (every length prefix at its maximum).
fn big_inputs() -> [Vec<u8>; 2] {
    let mut random = vec![0u8; 1 << 20];
    fastrand::Rng::with_seed(17).fill(&mut random);
    [random, vec![0xff; 1 << 20]]
}

#[test]
fn big_inputs_decode_to_bounded_collections() {
    for input in big_inputs() {
        let nested: Vec<Vec<u8>> = from_bytes(&input);
        let total = nested.len() + nested.iter().map(Vec::len).sum::<usize>();
        assert!(total <= input.len(), "Vec<Vec<u8>>: {total} elements");

        let string: String = from_bytes(&input);
        assert!(string.chars().count() <= input.len());

        let map: BTreeMap<u32, Vec<u8>> = from_bytes(&input);
        let total = map.len() + map.values().map(Vec::len).sum::<usize>();
        assert!(
            total <= input.len(),
            "BTreeMap<u32, Vec<u8>>: {total} elements"
        );
    }
}

#[test]
fn nested_generation_splits_the_size() {
    for seed in 0..200 {
        let mut cx = Context::new(seed).with_max_size(16);
        let outer: Vec<Vec<u8>> = cx.generate();
        assert!(outer.len() <= 16);
        let inner_size = 15 / outer.len().max(1);
        assert!(
            outer.iter().all(|inner| inner.len() <= inner_size),
            "{outer:?}"
        );
        let pair: (Vec<u8>, String) = cx.generate();
        assert!(pair.0.len() <= 7 && pair.1.chars().count() <= 7);
    }
}

#[test]
fn option_is_none_at_size_zero() {
    for seed in 0..100 {
        let mut cx = Context::new(seed);
        assert_eq!(cx.generate_sized::<Option<u32>>(0), None);
        let mut none: Option<u32> = None;
        // Mutating at size 0 may not grow.
        cx.with_size(0, |cx| none.mutate(cx));
        assert_eq!(none, None);
        assert!(cx.trace().is_empty());
    }
}

fn context_with(seed: u64, operators: Operators) -> Context {
    Context::new(seed).with_operators(operators)
}

#[test]
fn option_honours_disabled_families() {
    let no_grow = Operators {
        grow: 0,
        ..Operators::default()
    };
    let no_drop = Operators {
        drop: 0,
        ..Operators::default()
    };
    let no_recursive = Operators {
        recursive: 0,
        ..Operators::default()
    };
    for seed in 0..100 {
        let mut cx = context_with(seed, no_grow);
        let mut none: Option<u32> = None;
        for _ in 0..20 {
            assert!(cx.mutate(&mut none).is_empty());
            assert_eq!(none, None);
        }

        let mut cx = context_with(seed, no_drop);
        let mut some = Some(7u32);
        for _ in 0..20 {
            let ops = cx.mutate(&mut some).to_vec();
            assert_eq!(ops[0], Recursive);
            assert!(some.is_some());
        }

        let mut cx = context_with(seed, no_recursive);
        let mut some = Some(7u32);
        assert_eq!(cx.mutate(&mut some), &[ConstructorDrop]);
        assert_eq!(some, None);
        assert_eq!(cx.mutate(&mut some), &[ConstructorGrow]);
        assert!(some.is_some());
    }
}

#[test]
fn result_honours_disabled_families() {
    let no_grow = Operators {
        grow: 0,
        ..Operators::default()
    };
    let no_recursive = Operators {
        recursive: 0,
        ..Operators::default()
    };
    for seed in 0..100 {
        let mut cx = context_with(seed, no_grow);
        let mut value: Result<u8, bool> = Err(true);
        for _ in 0..20 {
            assert_eq!(cx.mutate(&mut value)[0], Recursive);
            assert!(value.is_err());
        }

        let mut cx = context_with(seed, no_recursive);
        let mut value: Result<u8, bool> = Ok(3);
        assert_eq!(cx.mutate(&mut value), &[ConstructorGrow]);
        assert!(value.is_err());
    }
}

#[test]
fn option_faithful_mode_gives_each_candidate_equal_probability() {
    // Weights that would strongly favour recursive in the default mode are ignored.
    let operators = Operators {
        recursive: 50,
        ..Operators::fuzzchick()
    };
    let mut cx = context_with(5, operators);
    let mut drops = 0;
    for _ in 0..4000 {
        let mut some = Some(1u32);
        if cx.mutate(&mut some)[0] == ConstructorDrop {
            drops += 1;
        }
    }
    assert!((1700..2300).contains(&drops), "{drops} drops out of 4000");
}

#[test]
fn collections_stay_within_the_maximum_size() {
    for seed in 0..50 {
        let mut cx = Context::new(seed).with_max_size(4);
        let mut vec: Vec<u8> = cx.generate();
        let mut map: BTreeMap<u8, u8> = cx.generate();
        let mut string: String = cx.generate();
        for _ in 0..200 {
            cx.mutate(&mut vec);
            cx.mutate(&mut map);
            cx.mutate(&mut string);
            assert!(vec.len() <= 4 && map.len() <= 4 && string.chars().count() <= 4);
        }
    }
}

#[test]
fn every_sequence_operator_is_used() {
    let mut cx = Context::new(3).with_max_size(8);
    let mut seen = BTreeSet::new();
    let mut value: Vec<u8> = vec![1, 2, 3];
    for _ in 0..2000 {
        seen.insert(cx.mutate(&mut value)[0]);
    }
    let expected: BTreeSet<Operator> = SEQUENCE_OPS.iter().copied().collect();
    assert_eq!(seen, expected);
}

#[test]
fn integer_mutations_reach_interesting_values() {
    let mut cx = Context::new(1);
    let mut seen_min = false;
    let mut seen_max = false;
    let mut value = 0i16;
    for _ in 0..5000 {
        cx.mutate(&mut value);
        seen_min |= value == i16::MIN;
        seen_max |= value == i16::MAX;
    }
    assert!(seen_min && seen_max);
}

#[test]
fn float_mutations_reach_special_values() {
    let mut cx = Context::new(1);
    let (mut nan, mut infinite, mut negative_zero) = (false, false, false);
    let mut value = 1.5f64;
    for _ in 0..5000 {
        cx.mutate(&mut value);
        nan |= value.is_nan();
        infinite |= value.is_infinite();
        negative_zero |= value.to_bits() == (-0.0f64).to_bits();
    }
    assert!(nan && infinite && negative_zero);
}

#[test]
fn shrinking_reaches_simplest_values() {
    let mut cx = Context::new(0);
    assert_eq!(1000u32.shrink(&mut cx)[0], 0);
    assert_eq!((-5i8).shrink(&mut cx)[..2], [0, 5]);
    assert_eq!(f64::NAN.shrink(&mut cx), vec![0.0]);
    assert_eq!("hello".to_string().shrink(&mut cx)[0], "");
    assert_eq!(Some(3u8).shrink(&mut cx)[0], None);
    assert_eq!(Err::<u8, bool>(true).shrink(&mut cx)[0], Ok(0));
    assert!(0u8.shrink(&mut cx).is_empty());
    assert!('a'.shrink(&mut cx).is_empty());
    assert!(Vec::<u8>::new().shrink(&mut cx).is_empty());
}
