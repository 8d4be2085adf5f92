//! proptest's shrinker as a last pass: after typefuzz has shrunk the genotype, the minimal
//! value's tree is simplified with proptest's own `simplify`/`complicate` loop, which knows what
//! the choice sequence cannot express (a `prop_map`'s source, a regex's structure).

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;
use std::time::{Duration, Instant};

use proptest::strategy::ValueTree;
use proptest::test_runner::TestCaseError;

thread_local! {
    static SILENT: Cell<bool> = const { Cell::new(false) };
    static LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

/// The verdict on one value: `Some(message)` when the property fails on it.
fn failure_of<V>(
    value: V,
    property: &mut dyn FnMut(V) -> Result<(), TestCaseError>,
) -> Option<String> {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if SILENT.try_with(Cell::get).unwrap_or(false) {
                let location = info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
                let _ = LOCATION.try_with(|slot| slot.replace(location));
            } else {
                previous(info);
            }
        }));
    });
    SILENT.with(|s| s.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(|| property(value)));
    SILENT.with(|s| s.set(false));
    match result {
        Ok(Ok(())) | Ok(Err(TestCaseError::Reject(_))) => None,
        Ok(Err(TestCaseError::Fail(reason))) => Some(reason.message().to_string()),
        Err(payload) => {
            let text = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic with a non-string payload".to_string());
            Some(match LOCATION.with(|slot| slot.take()) {
                Some(location) => format!("panicked at {location}:\n{text}"),
                None => text,
            })
        }
    }
}

/// What proptest's shrinker found beyond typefuzz's minimum.
pub(crate) struct Simplified<V> {
    /// The smallest failing value.
    pub(crate) value: V,
    /// Why it fails.
    pub(crate) message: String,
    /// Accepted simplifications.
    pub(crate) steps: u64,
}

/// Runs proptest's shrink loop on `tree`, whose current value fails: simplify while the
/// property fails, complicate when a simplification passed, as `TestRunner::shrink` does.
/// `None` if no simplification failed.
pub(crate) fn simplify<T: ValueTree>(
    tree: &mut T,
    property: &mut dyn FnMut(T::Value) -> Result<(), TestCaseError>,
    max_iterations: u64,
    max_time: Duration,
) -> Option<Simplified<T::Value>> {
    let start = Instant::now();
    let mut last = None;
    let mut last_shown = Some(format!("{:?}", tree.current()));
    let mut steps = 0;
    let mut iterations = 0;
    if !tree.simplify() {
        return None;
    }
    while iterations < max_iterations && start.elapsed() < max_time {
        iterations += 1;
        match failure_of(tree.current(), property) {
            Some(message) => {
                // `current` is deterministic: keep the failing value, since the tree may end
                // on a passing one when `complicate` cannot undo a step. A step counts only if
                // the value changed (`complicate` can come back to the value it left).
                let value = tree.current();
                let shown = format!("{value:?}");
                if last_shown.as_ref() != Some(&shown) {
                    steps += 1;
                    last_shown = Some(shown);
                }
                last = Some((value, message));
                if !tree.simplify() {
                    break;
                }
            }
            None => {
                if !tree.complicate() {
                    break;
                }
            }
        }
    }
    last.map(|(value, message)| Simplified {
        value,
        message,
        steps,
    })
}
