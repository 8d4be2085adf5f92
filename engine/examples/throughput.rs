//! Tests per second of the engine (coverage off) against a plain generate-and-test loop with
//! the same generator, on a property with no precondition.
//!
//! ```text
//! cargo run --release -p typefuzz-engine --example throughput [time per measurement]
//! ```
//!
//! The time is a duration such as `3s`, `500ms` or `1m` (humantime's syntax; a bare number is
//! seconds); the default is 3 s.

use std::hint::black_box;
use std::time::{Duration, Instant};

use typefuzz::{check, Config, Context, FeedbackSources, Mutate, Schedule};

#[allow(clippy::ptr_arg)] // a property over `Vec<u32>` receives `&Vec<u32>`
fn property(v: &Vec<u32>) -> bool {
    // Always true, but the compiler cannot know: the sum is computed.
    black_box(v.iter().fold(0u32, |a, &x| a.wrapping_add(x))) != u32::MAX || black_box(true)
}

/// What proptest/quickcheck do: generate, test, repeat (sizes cycling like the engine's).
fn plain_loop(time: Duration) -> f64 {
    let mut cx = Context::new(1).with_max_size(32);
    let started = Instant::now();
    let mut tests = 0u64;
    while started.elapsed() < time {
        for _ in 0..1024 {
            cx.set_size((tests % 33) as usize);
            let value: Vec<u32> = Vec::generate(&mut cx);
            black_box(property(&value));
            tests += 1;
        }
    }
    tests as f64 / started.elapsed().as_secs_f64()
}

fn engine(time: Duration, schedule: Schedule, feedback: FeedbackSources) -> f64 {
    let config = Config::default()
        .with_seed(1)
        .with_schedule(schedule)
        .with_feedback(feedback)
        .with_cases(u64::MAX)
        .with_time(time)
        .with_progress(false);
    let report = check(&config, |cx| cx.generate::<Vec<u32>>(), property);
    report.stats.tests_per_second
}

fn main() {
    let time = match std::env::args().nth(1) {
        None => Duration::from_secs(3),
        Some(arg) => match arg.parse::<f64>().map(Duration::try_from_secs_f64) {
            Ok(Ok(time)) if !time.is_zero() => time,
            Ok(_) => {
                eprintln!("usage: throughput [TIME]   (`{arg}` is not a positive duration)");
                std::process::exit(2);
            }
            // Not a number of seconds: a duration such as `500ms` or `1m` (humantime's syntax).
            Err(_) => match humantime::parse_duration(&arg) {
                Ok(time) if !time.is_zero() => time,
                Ok(_) => {
                    eprintln!("usage: throughput [TIME]   (`{arg}` is not a positive duration)");
                    std::process::exit(2);
                }
                Err(why) => {
                    eprintln!("usage: throughput [TIME]   (`{arg}` is not a duration: {why})");
                    std::process::exit(2);
                }
            },
        },
    };
    println!(
        "plain generate-and-test loop: {:>12.0} tests/s",
        plain_loop(time)
    );
    println!(
        "engine, generation only:      {:>12.0} tests/s",
        engine(time, Schedule::Generate, FeedbackSources::default())
    );
    println!(
        "engine, default schedule:     {:>12.0} tests/s",
        engine(time, Schedule::Default, FeedbackSources::default())
    );
    println!(
        "engine, FuzzChick schedule:   {:>12.0} tests/s",
        engine(time, Schedule::FuzzChick, FeedbackSources::default())
    );
}
