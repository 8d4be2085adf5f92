//! `typefuzz::quickcheck!` accepts `quickcheck!`'s grammar (written fresh from quickcheck's
//! documentation: doc comments, attributes, zero to eight arguments, every `Testable` return
//! type) plus patterns in argument position, as suites that wrap their own macro use them
//! (`mut a: Vec<i16>`, `(n, x): (usize, i32)`, struct patterns), and it runs properties whose
//! argument types only implement `Arbitrary`.

use quickcheck::{Arbitrary, Gen, TestResult};
use typefuzz::quickcheck::genotype::Genotype;

/// A type with an `Arbitrary` impl and no `Mutate` impl, as in a suite written for quickcheck.
#[derive(Clone, Debug, PartialEq)]
struct Celsius(i16);

impl Arbitrary for Celsius {
    fn arbitrary(g: &mut Gen) -> Self {
        Celsius(i16::arbitrary(g) % 300)
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(Celsius))
    }
}

#[derive(Clone, Debug)]
struct Point {
    x: i8,
    y: i8,
}

impl Arbitrary for Point {
    fn arbitrary(g: &mut Gen) -> Self {
        Point {
            x: i8::arbitrary(g),
            y: i8::arbitrary(g),
        }
    }
}

typefuzz::quickcheck! {
    /// A doc comment on a property.
    fn no_arguments() -> bool {
        true
    }

    #[allow(clippy::bool_comparison)]
    fn one_argument(flag: bool) -> bool {
        (flag == true) || !flag
    }

    fn returns_test_result(a: u32, b: u32) -> TestResult {
        if b == 0 {
            return TestResult::discard();
        }
        TestResult::from_bool(a / b <= a)
    }

    fn returns_result(x: u8) -> Result<bool, String> {
        Ok(x == x)
    }

    fn returns_unit(xs: Vec<u8>) -> () {
        assert!(xs.len() <= xs.capacity());
    }

    // Attributes reach the property function (lint levels apply to items nested inside).
    #[allow(clippy::too_many_arguments)]
    fn eight_arguments(a: u8, b: u16, c: u32, d: u64, e: i8, f: i16, g: i32, h: i64) -> bool {
        let _ = (a, b, c, d, e, f, g, h);
        true
    }

    fn generic_and_nested_types(map: std::collections::BTreeMap<u8, Vec<(u8, bool)>>, o: Option<String>) -> bool {
        map.len() < 1_000_000 && o.map_or(true, |s| s.len() < 1_000_000)
    }

    fn mut_binding(mut a: Vec<i16>, b: Vec<i16>) -> bool {
        a.extend(b.iter().copied());
        a.len() >= b.len()
    }

    fn tuple_pattern((n, x): (usize, i32)) -> bool {
        std::iter::repeat(x).take(n % 100).count() == n % 100
    }

    fn struct_pattern(Point { x, y }: Point, z: u8) -> bool {
        i16::from(x) + i16::from(y) + i16::from(z) < 1000
    }

    fn arbitrary_only(c: Celsius) -> bool {
        c.0.abs() < 300
    }

    pub fn visibility_is_accepted(x: u8) -> bool {
        x.checked_add(0) == Some(x)
    }

    fn no_return_type(x: u16) {
        assert!(u32::from(x) < 70_000);
    }
}

mod nested {
    typefuzz::quickcheck! {
        #[cfg(test)]
        fn in_a_module(x: char) -> bool {
            x.len_utf8() <= 4
        }
    }
}

/// A property over a type without `Mutate` fails; the failure is shrunk by its
/// `Arbitrary::shrink` and printed without doubled parentheses.
#[test]
fn arbitrary_only_failures_are_shrunk_and_printed_once_parenthesized() {
    fn warm(c: Celsius, _tag: u8) -> bool {
        c.0 < 20
    }
    let result = std::panic::catch_unwind(|| {
        typefuzz::quickcheck::QuickCheck::new()
            .seed(3)
            .name("quickcheck_syntax::warm")
            .quickcheck(warm as fn(Celsius, u8) -> bool);
    });
    let message = *result
        .expect_err("the property fails")
        .downcast::<String>()
        .expect("a formatted message");
    assert!(
        message.starts_with("[quickcheck] TEST FAILED. Arguments: (Celsius(20), 0)"),
        "{message}"
    );
    assert!(!message.contains("(("), "{message}");
    let _ = std::fs::remove_file(
        typefuzz::quickcheck::QuickCheck::new()
            .name("quickcheck_syntax::warm")
            .config()
            .regression_path()
            .expect("a named property has a regression file"),
    );
}

/// The builder takes `Arbitrary`-only arguments, and typed mutation when asked for.
#[test]
fn builder_runs_both_genotypes() {
    fn small(c: Celsius) -> bool {
        c.0 < 250
    }
    let report = typefuzz::quickcheck::QuickCheck::new()
        .seed(5)
        .name("quickcheck_syntax::small")
        .quicktest(small as fn(Celsius) -> bool);
    let failure = report.failure.expect("quickcheck's generator reaches 250");
    assert_eq!(failure.minimal.args(), &(Celsius(250),));
    let _ = std::fs::remove_file(failure.regression_file.expect("saved"));

    fn short(v: Vec<u8>) -> bool {
        v.len() < 3
    }
    let report = typefuzz::quickcheck::QuickCheck::new()
        .seed(5)
        .name("quickcheck_syntax::short")
        .quicktest_typed(short as fn(Vec<u8>) -> bool);
    let failure = report.failure.expect("a vector of three elements");
    assert_eq!(failure.minimal.0, (vec![0, 0, 0],));
    let _ = std::fs::remove_file(failure.regression_file.expect("saved"));
}

// A suite's own wrapper macro that builds its test items and hands them to quickcheck's internal
// `@as_items` rule (the shape indexmap's `quickcheck_limit!` has): swapping the path to
// `typefuzz::quickcheck!` must keep it compiling.
macro_rules! wrapped_suite {
    ($(fn $name:ident($($arg:ident: $ty:ty),*) -> bool $body:block)*) => {
        typefuzz::quickcheck! {
            @as_items
            $(
                #[test]
                fn $name() {
                    fn prop($($arg: $ty),*) -> bool $body
                    let failure = typefuzz::quickcheck::QuickCheck::new()
                        .seed(3)
                        .tests(50)
                        .quicktest(prop as fn($($ty),*) -> bool)
                        .failure;
                    assert!(failure.is_none(), "{failure:?}");
                }
            )*
        }
    };
}

wrapped_suite! {
    fn wrapped_reverse_twice(xs: Vec<u8>) -> bool {
        let mut ys = xs.clone();
        ys.reverse();
        ys.reverse();
        xs == ys
    }
}
