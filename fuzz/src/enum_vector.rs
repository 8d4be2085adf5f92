//! fuzzcheck's "enum vector" benchmark (loiclec/fuzzcheck-rs, `articles/why_not_bytes.md`):
//! an input `Vec<SomeEnum>` fails iff it has more than 6 elements and the first seven are
//! `E, A(30), E, A(8), E, A(230), A(23)`. The conditions are checked one by one, so each matched
//! element is a new branch for coverage to reward; in index order or, harder for byte-level
//! fuzzers, from index 6 down to 0.
//!
//! Switched at run time (one binary per target, as the benchmark protocol asks):
//! - `ENUM_VECTOR_ORDER=reversed` checks from index 6 down to 0 (default: index order);
//! - `ENUM_VECTOR_BUG=0` disables the failure, for throughput measurements.

use std::sync::OnceLock;

use typefuzz::Mutate;

/// The element type: every variant shape (unit, one field, two fields, two widths).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Mutate, arbitrary::Arbitrary)]
pub enum SomeEnum {
    /// One byte.
    A(u8),
    /// Two bytes.
    B(u16),
    /// Both.
    C(u8, u16),
    /// Two words.
    D(u16, u16),
    /// No field.
    E,
}

/// In which order the seven conditions are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Index 0 first.
    InOrder,
    /// Index 6 first.
    Reversed,
}

/// The check order and whether the bug is on, read once from the environment.
pub fn settings() -> (Order, bool) {
    static SETTINGS: OnceLock<(Order, bool)> = OnceLock::new();
    *SETTINGS.get_or_init(|| {
        let order = match std::env::var("ENUM_VECTOR_ORDER").as_deref() {
            Ok("reversed") => Order::Reversed,
            _ => Order::InOrder,
        };
        let bug = std::env::var("ENUM_VECTOR_BUG").map_or(true, |v| v != "0");
        (order, bug)
    })
}

/// Whether `xs` triggers the bug, checking the elements in `order`. Unrolled on purpose: one
/// branch per element, as in fuzzcheck's benchmark, so partial matches are new coverage.
pub fn triggers(xs: &[SomeEnum], order: Order) -> bool {
    use SomeEnum::{A, E};
    if xs.len() <= 6 {
        return false;
    }
    match order {
        Order::InOrder => {
            matches!(xs[0], E)
                && matches!(xs[1], A(30))
                && matches!(xs[2], E)
                && matches!(xs[3], A(8))
                && matches!(xs[4], E)
                && matches!(xs[5], A(230))
                && matches!(xs[6], A(23))
        }
        Order::Reversed => {
            matches!(xs[6], A(23))
                && matches!(xs[5], A(230))
                && matches!(xs[4], E)
                && matches!(xs[3], A(8))
                && matches!(xs[2], E)
                && matches!(xs[1], A(30))
                && matches!(xs[0], E)
        }
    }
}

/// The property both targets fuzz: panics on the injected bug (unless `ENUM_VECTOR_BUG=0`).
pub fn property(xs: &[SomeEnum]) {
    let (order, bug) = settings();
    if triggers(xs, order) && bug {
        panic!("enum vector bug: {xs:?}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SomeEnum::*;

    #[test]
    fn only_the_seven_element_prefix_triggers() {
        let bad = [E, A(30), E, A(8), E, A(230), A(23), B(1)];
        for order in [Order::InOrder, Order::Reversed] {
            assert!(triggers(&bad, order));
            assert!(triggers(&bad[..7], order));
            assert!(!triggers(&bad[..6], order));
            let mut near = bad;
            near[3] = A(9);
            assert!(!triggers(&near, order));
        }
    }
}
