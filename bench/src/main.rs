//! The benchmark runner (placeholder: lists the workloads; the runner and report come next).

use typefuzz_bench::{bst, ifc};

fn main() {
    println!("typefuzz benchmark workloads:");
    println!(
        "  IFC stack machine: {} rule-table mutants, SSNI",
        ifc::MUTANT_COUNT
    );
    let tasks: usize = bst::TASKS.iter().map(|(_, ps)| ps.len()).sum();
    println!(
        "  ETNA BST: {} mutants, {} properties, {tasks} tasks, {} controls",
        bst::Mutant::ALL.len(),
        bst::Property::ALL.len(),
        bst::CONTROLS.len()
    );
    println!("  branches: bad!, greedy trap, Dan Luu's bit loop, enum vector (both orders)");
    println!("  throughput: mirror twice");
}
