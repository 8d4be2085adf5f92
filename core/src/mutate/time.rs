//! `Duration` and `SystemTime`, through their seconds and nanoseconds.
//!
//! # Shrink order
//!
//! Seconds first, then nanoseconds, towards zero (`Duration::ZERO`, `UNIX_EPOCH`). A
//! `SystemTime` is its whole seconds from the epoch (negative before it, rounded down, as
//! `timespec` holds it) and the nanoseconds past them: the seconds shrink as an `i64` does.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::via::via;

const NANOS_PER_SEC: u32 = 1_000_000_000;

fn duration_to(d: &Duration) -> (u64, u32) {
    (d.as_secs(), d.subsec_nanos())
}

/// Total: nanoseconds wrap at a second (`Duration::new` would carry them into the seconds and
/// could overflow).
fn duration_from((secs, nanos): (u64, u32)) -> Duration {
    Duration::new(secs, nanos % NANOS_PER_SEC)
}

via! {
    [] Duration => (u64, u32), duration_to, duration_from, normalizing, "Duration"
}

/// Whole seconds from the epoch (negative before it, rounded down) and the nanoseconds past
/// them, as a `timespec` holds a time.
fn system_time_to(t: &SystemTime) -> (i64, u32) {
    match t.duration_since(UNIX_EPOCH) {
        Ok(after) => (
            i64::try_from(after.as_secs()).unwrap_or(i64::MAX),
            after.subsec_nanos(),
        ),
        Err(before) => {
            let before = before.duration();
            let (secs, nanos) = match before.subsec_nanos() {
                0 => (before.as_secs(), 0),
                nanos => (before.as_secs().saturating_add(1), NANOS_PER_SEC - nanos),
            };
            (0i64.checked_sub_unsigned(secs).unwrap_or(i64::MIN), nanos)
        }
    }
}

/// Total: nanoseconds wrap at a second; a time the platform cannot represent reads as the
/// epoch.
fn system_time_from((secs, nanos): (i64, u32)) -> SystemTime {
    let whole = match u64::try_from(secs) {
        Ok(after) => UNIX_EPOCH.checked_add(Duration::from_secs(after)),
        Err(_) => UNIX_EPOCH.checked_sub(Duration::from_secs(secs.unsigned_abs())),
    };
    whole
        .and_then(|t| t.checked_add(Duration::from_nanos(u64::from(nanos % NANOS_PER_SEC))))
        .unwrap_or(UNIX_EPOCH)
}

via! {
    [] SystemTime => (i64, u32), system_time_to, system_time_from, normalizing, "SystemTime"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{codec, Context, Mutate};

    #[test]
    fn durations_round_trip_and_shrink_towards_zero() {
        let mut cx = Context::new(4);
        let d = Duration::new(7, 500);
        assert_eq!(codec::from_bytes::<Duration>(&codec::to_bytes(&d)), d);
        assert!(d.shrink(&mut cx).iter().all(|c| *c < d));
        assert_eq!(d.shrink(&mut cx)[0], Duration::new(0, 500));
        // Any bytes decode, nanoseconds below a second.
        assert!(codec::from_bytes::<Duration>(&[0xff; 12]).subsec_nanos() < NANOS_PER_SEC);
    }

    #[test]
    fn system_times_round_trip() {
        let now = SystemTime::now();
        assert_eq!(codec::from_bytes::<SystemTime>(&codec::to_bytes(&now)), now);
        let before = UNIX_EPOCH - Duration::new(5, 300);
        assert_eq!(
            codec::from_bytes::<SystemTime>(&codec::to_bytes(&before)),
            before
        );
    }
}
