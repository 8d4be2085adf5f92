//! Tests from quickcheck's own test suite (`src/tests.rs`), its examples and its README,
//! rewritten, that compile and pass under typefuzz with only the path changed
//! (`quickcheck!` -> `typefuzz::quickcheck!`, `quickcheck(..)` -> `typefuzz::quickcheck::quickcheck(..)`,
//! `QuickCheck` -> `typefuzz::quickcheck::QuickCheck`) and `#[derive(Mutate)]` added to the one
//! user type with an `Arbitrary` impl. Each names where it comes from.
//!
//! Not ported, with the reason (see the report): `examples/out_of_bounds.rs` (typed mutants of
//! `length: usize` reach sizes `(0..length).collect()` cannot allocate, where quickcheck's
//! generator stays below its size, 100), tests that call `QuickCheck::quicktest(..).is_err()`
//! (typefuzz's `quicktest` returns a `Report`), `all_tests_discarded_min_tests_passed_missing`
//! (typefuzz fails a property that was never checked), and the `PathBuf`/`CString` smoke tests
//! (no `Mutate` impls for them yet).

use quickcheck::{Arbitrary, Gen, TestResult};
use std::collections::{HashMap, HashSet};

// src/tests.rs
#[test]
fn prop_reverse_reverse() {
    fn prop(xs: Vec<usize>) -> bool {
        let rev: Vec<_> = xs.clone().into_iter().rev().collect();
        let revrev: Vec<_> = rev.into_iter().rev().collect();
        xs == revrev
    }
    typefuzz::quickcheck::quickcheck(prop as fn(Vec<usize>) -> bool);
}

typefuzz::quickcheck! {
    fn prop_reverse_reverse_macro(xs: Vec<usize>) -> bool {
        let rev: Vec<_> = xs.clone().into_iter().rev().collect();
        let revrev: Vec<_> = rev.into_iter().rev().collect();
        xs == revrev
    }

    #[should_panic(expected = "[quickcheck] TEST FAILED (runtime error). Arguments: (")]
    fn prop_macro_panic(_x: u32) -> bool {
        assert!(false);
        false
    }
}

#[test]
fn reverse_single() {
    fn prop(xs: Vec<usize>) -> TestResult {
        if xs.len() != 1 {
            TestResult::discard()
        } else {
            TestResult::from_bool(xs == xs.clone().into_iter().rev().collect::<Vec<_>>())
        }
    }
    typefuzz::quickcheck::quickcheck(prop as fn(Vec<usize>) -> TestResult);
}

#[test]
fn reverse_app() {
    fn prop(xs: Vec<usize>, ys: Vec<usize>) -> bool {
        let mut app = xs.clone();
        app.extend(ys.iter().copied());
        let app_rev: Vec<usize> = app.into_iter().rev().collect();

        let rxs: Vec<usize> = xs.into_iter().rev().collect();
        let mut rev_app = ys.into_iter().rev().collect::<Vec<usize>>();
        rev_app.extend(rxs);

        app_rev == rev_app
    }
    typefuzz::quickcheck::quickcheck(prop as fn(Vec<usize>, Vec<usize>) -> bool);
}

#[test]
fn max() {
    fn prop(x: isize, y: isize) -> TestResult {
        if x > y {
            TestResult::discard()
        } else {
            TestResult::from_bool(::std::cmp::max(x, y) == y)
        }
    }
    typefuzz::quickcheck::quickcheck(prop as fn(isize, isize) -> TestResult);
}

#[test]
fn sort() {
    fn prop(mut xs: Vec<isize>) -> bool {
        xs.sort_unstable();
        for i in xs.windows(2) {
            if i[0] > i[1] {
                return false;
            }
        }
        true
    }
    typefuzz::quickcheck::quickcheck(prop as fn(Vec<isize>) -> bool);
}

fn sieve(n: usize) -> Vec<usize> {
    if n <= 1 {
        return vec![];
    }
    let mut marked = vec![false; n + 1];
    marked[0] = true;
    marked[1] = true;
    marked[2] = true;
    for p in 2..n {
        for i in (2 * p..n).filter(|&n| n % p == 0) {
            marked[i] = true;
        }
    }
    marked
        .iter()
        .enumerate()
        .filter_map(|(i, &m)| if m { None } else { Some(i) })
        .collect()
}

fn is_prime(n: usize) -> bool {
    n != 0 && n != 1 && (2..).take_while(|i| i * i <= n).all(|i| n % i != 0)
}

#[test]
#[should_panic(expected = "[quickcheck] TEST FAILED. Arguments: (")]
fn sieve_not_prime() {
    fn prop_all_prime(n: u8) -> bool {
        sieve(n as usize).into_iter().all(is_prime)
    }
    typefuzz::quickcheck::quickcheck(prop_all_prime as fn(u8) -> bool);
}

#[test]
#[should_panic(expected = "[quickcheck] TEST FAILED. Arguments: (")]
fn sieve_not_all_primes() {
    fn prop_prime_iff_in_the_sieve(n: u8) -> bool {
        let n = n as usize;
        sieve(n) == (0..=n).filter(|&i| is_prime(i)).collect::<Vec<_>>()
    }
    typefuzz::quickcheck::quickcheck(prop_prime_iff_in_the_sieve as fn(u8) -> bool);
}

#[test]
fn testable_result() {
    fn result() -> Result<bool, String> {
        Ok(true)
    }
    typefuzz::quickcheck::quickcheck(result as fn() -> Result<bool, String>);
}

#[test]
#[should_panic(expected = "[quickcheck] TEST FAILED. Arguments: (")]
fn testable_result_err() {
    typefuzz::quickcheck::quickcheck(Err::<bool, i32> as fn(i32) -> Result<bool, i32>);
}

#[test]
fn testable_unit() {
    fn do_nothing() {}
    typefuzz::quickcheck::quickcheck(do_nothing as fn());
}

#[test]
fn regression_issue_83() {
    fn prop(_: u8) -> bool {
        true
    }
    typefuzz::quickcheck::QuickCheck::new()
        .gen(Gen::new(1024))
        .quickcheck(prop as fn(u8) -> bool);
}

#[test]
fn regression_issue_83_signed() {
    fn prop(_: i8) -> bool {
        true
    }
    typefuzz::quickcheck::QuickCheck::new()
        .gen(Gen::new(1024))
        .quickcheck(prop as fn(i8) -> bool);
}

#[test]
#[should_panic(expected = "foo")]
fn panic_msg_1() {
    fn prop() -> bool {
        panic!("foo");
    }
    typefuzz::quickcheck::quickcheck(prop as fn() -> bool);
}

#[test]
#[should_panic(expected = "foo")]
fn panic_msg_2() {
    fn prop() -> bool {
        assert!("foo" == "bar");
        true
    }
    typefuzz::quickcheck::quickcheck(prop as fn() -> bool);
}

#[test]
#[should_panic(expected = "foo")]
fn panic_msg_3() {
    fn prop() -> bool {
        assert_eq!("foo", "bar");
        true
    }
    typefuzz::quickcheck::quickcheck(prop as fn() -> bool);
}

#[test]
#[should_panic(expected = "[quickcheck] TEST FAILED. Arguments: ([])")]
fn regression_issue_107_hang() {
    fn prop(a: Vec<u8>) -> bool {
        a.contains(&1)
    }
    typefuzz::quickcheck::quickcheck(prop as fn(_) -> bool);
}

#[test]
#[should_panic(expected = "(Unable to generate enough tests, 0 not discarded.)")]
fn all_tests_discarded_min_tests_passed_set() {
    fn prop_discarded(_: u8) -> TestResult {
        TestResult::discard()
    }
    typefuzz::quickcheck::QuickCheck::new()
        .tests(16)
        .min_tests_passed(8)
        .quickcheck(prop_discarded as fn(u8) -> TestResult);
}

typefuzz::quickcheck! {
    fn basic_hashset(_set: HashSet<u8>) -> bool {
        true
    }

    fn basic_hashmap(_map: HashMap<u8, u8>) -> bool {
        true
    }
}

// examples/sort.rs: a buggy quicksort that drops duplicates; `keeps_length` finds it.
fn smaller_than<T: Clone + Ord>(xs: &[T], pivot: &T) -> Vec<T> {
    xs.iter().filter(|&x| *x < *pivot).cloned().collect()
}

fn larger_than<T: Clone + Ord>(xs: &[T], pivot: &T) -> Vec<T> {
    xs.iter().filter(|&x| *x > *pivot).cloned().collect()
}

fn sortk<T: Clone + Ord>(x: &T, xs: &[T]) -> Vec<T> {
    let mut result: Vec<T> = buggy_sort(&smaller_than(xs, x));
    let last_part = buggy_sort(&larger_than(xs, x));
    result.push(x.clone());
    result.extend(last_part.iter().cloned());
    result
}

fn buggy_sort<T: Clone + Ord>(list: &[T]) -> Vec<T> {
    if list.is_empty() {
        vec![]
    } else {
        sortk(&list[0], &list[1..])
    }
}

#[test]
fn example_sort_is_sorted() {
    fn is_sorted(xs: Vec<isize>) -> bool {
        for win in buggy_sort(&xs).windows(2) {
            if win[0] > win[1] {
                return false;
            }
        }
        true
    }
    typefuzz::quickcheck::quickcheck(is_sorted as fn(Vec<isize>) -> bool);
}

#[test]
#[should_panic(expected = "[quickcheck] TEST FAILED")]
fn example_sort_keeps_length() {
    fn keeps_length(xs: Vec<isize>) -> bool {
        xs.len() == buggy_sort(&xs).len()
    }
    typefuzz::quickcheck::quickcheck(keeps_length as fn(Vec<isize>) -> bool);
}

// examples/reverse_single.rs
#[test]
fn example_reverse_single() {
    fn prop(xs: Vec<isize>) -> TestResult {
        if xs.len() != 1 {
            return TestResult::discard();
        }
        TestResult::from_bool(xs == xs.clone().into_iter().rev().collect::<Vec<_>>())
    }
    typefuzz::quickcheck::quickcheck(prop as fn(Vec<isize>) -> TestResult);
}

// README, "Generating structs": a user type with a hand-written `Arbitrary`; the derive is
// the one line added.
#[derive(Clone, Debug, PartialEq, typefuzz::Mutate)]
struct Point {
    x: i32,
    y: i32,
}

impl Arbitrary for Point {
    fn arbitrary(g: &mut Gen) -> Point {
        Point {
            x: i32::arbitrary(g),
            y: i32::arbitrary(g),
        }
    }
}

typefuzz::quickcheck! {
    fn point_reflection_is_an_involution(p: Point) -> bool {
        let reflect = |p: &Point| Point { x: p.x.wrapping_neg(), y: p.y.wrapping_neg() };
        reflect(&reflect(&p)) == p
    }
}
