//! The shrink benchmark (see `typefuzz_bench::shrink`): prints a markdown table of the median
//! minimal-input size per case and framework over seeds `0..N` (`N` = the first argument,
//! default 10), then one minimal input of each; exits with 1 when typefuzz's median is larger
//! than a framework's on some case.
//!
//! `cargo run --release -p typefuzz-bench --bin shrink -- 10`

use typefuzz_bench::shrink::{median, run};

fn main() {
    let seeds: u64 = match std::env::args().nth(1).map(|arg| arg.parse()) {
        None => 10,
        Some(Ok(seeds)) if seeds > 0 => seeds,
        Some(_) => {
            eprintln!("usage: shrink [SEEDS]   (a positive number of seeds, default 10)");
            std::process::exit(2);
        }
    };
    // The properties panic on purpose inside the frameworks; keep the output readable.
    std::panic::set_hook(Box::new(|_| {}));
    let rows = run(&(0..seeds).collect::<Vec<_>>());
    println!(
        "| case | size measure | optimum | typefuzz | proptest | quickcheck | seeds |\n|---|---|---:|---:|---:|---:|---:|"
    );
    let mut worse = false;
    for row in &rows {
        let show = |sizes: &[u64]| median(sizes).map_or("-".to_string(), |m| m.to_string());
        let ours = median(&row.typefuzz);
        worse |= [&row.proptest, &row.quickcheck]
            .iter()
            .any(|theirs| matches!((ours, median(theirs)), (Some(a), Some(b)) if a > b));
        println!(
            "| {} | {} | {} | {} | {} | {} | {} |",
            row.case,
            row.measure,
            row.optimum,
            show(&row.typefuzz),
            show(&row.proptest),
            show(&row.quickcheck),
            row.typefuzz.len(),
        );
    }
    println!("\nMinimal inputs of the first seed (typefuzz / proptest / quickcheck):\n");
    for row in &rows {
        let [ours, proptest, quickcheck] = &row.examples;
        println!("- {}: `{ours}` / `{proptest}` / `{quickcheck}`", row.case);
    }
    if worse {
        eprintln!("typefuzz's median minimal input is larger than a framework's on some case");
        std::process::exit(1);
    }
}
