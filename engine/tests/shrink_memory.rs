//! Shrinking a huge input holds about one candidate at a time: the engine's peak heap while it
//! finds and shrinks a failing 2 MiB `Vec<u8>` stays a small multiple of the input. (Every
//! candidate of a 2 MiB vector is a copy of up to 2 MiB; the full list of 512 held at once was
//! about 800 MiB, and a list capped at `shrink`'s 64 MiB of copies would still exceed the bound.)
//!
//! Alone in its test binary: the counting allocator sees the whole process.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use typefuzz::{check, Config, Outcome};

/// The system allocator, counting the bytes allocated now and at most.
struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn allocated(bytes: usize) {
    let now = CURRENT.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; the counters only observe.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is `System.alloc`'s.
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            allocated(layout.size());
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is `System.dealloc`'s.
        unsafe { System.dealloc(pointer, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract is `System.realloc`'s.
        let moved = unsafe { System.realloc(pointer, layout, new_size) };
        if !moved.is_null() {
            CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
            allocated(new_size);
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn shrinking_a_huge_input_holds_one_candidate_at_a_time() {
    const INPUT: usize = 2 << 20;
    let config = Config::default()
        .with_seed(1)
        .with_cases(1)
        .with_progress(false);
    let before = CURRENT.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let report = check(
        &config,
        |_| vec![7u8; INPUT],
        |v: &Vec<u8>| {
            if v.len() >= 3 {
                Outcome::Fail("long".into())
            } else {
                Outcome::Pass
            }
        },
    );
    let peak = PEAK.load(Ordering::Relaxed) - before;
    let failure = report.failure.expect("the input fails");
    assert_eq!(failure.minimal, vec![0, 0, 0]);
    assert!(failure.shrink_steps > 20, "{} steps", failure.shrink_steps);
    println!("peak heap above the start: {peak} bytes for a {INPUT} byte input");
    assert!(
        peak < 20 * INPUT,
        "peak heap {peak} bytes while shrinking a {INPUT} byte input"
    );
}
