#!/usr/bin/env python3
"""Where rustc's instructions go, by the function names in cachegrind output files.

Usage: cg-buckets.py SHAPE [DIR]   reads DIR/cg-{typefuzz,arbitrary,plain}-SHAPE.out (made by
running rustc under `valgrind --tool=cachegrind --cache-sim=no`, as instructions.sh does) and
prints, per bucket of rustc's work, the instructions of each crate, each derive's cost over the
plain crate, and their ratio. Buckets are by function-name pattern, first match wins."""
import collections, re, sys

BUCKETS = [
    ("LLVM", r"llvm::|^llvm|LLVM|\(anonymous namespace\)|^[A-Z]\w+::|std::"),
    ("proc-macro bridge, quote", r"proc_macro::|proc_macro2::|quote::"),
    ("parse, AST, expand", r"rustc_parse|rustc_ast|rustc_expand|\bsyn::|typefuzz_derive|derive_arbitrary"),
    ("borrow checking", r"rustc_borrowck"),
    ("type checking", r"rustc_hir_typeck|rustc_hir_analysis"),
    ("trait solving", r"rustc_trait_selection|rustc_infer|rustc_next_trait"),
    ("MIR build", r"rustc_mir_build"),
    ("MIR passes", r"rustc_mir_transform|rustc_mir_dataflow"),
    ("monomorphization", r"rustc_monomorphize"),
    ("codegen (rustc side)", r"rustc_codegen_llvm|rustc_codegen_ssa"),
    ("metadata", r"rustc_metadata"),
    ("queries, types", r"rustc_middle|rustc_query|rustc_type_ir|rustc_ty_utils|rustc_const_eval"),
    ("malloc, memcpy", r"malloc|free|memcpy|memmove|memset|_int_"),
]


def load(path):
    buckets = collections.Counter()
    function = ""
    for line in open(path, errors="replace"):
        if line.startswith("fn="):
            function = line[3:].strip()
            bucket = next((name for name, pattern in BUCKETS if re.search(pattern, function)), "other")
        elif line[:1].isdigit():
            parts = line.split()
            if len(parts) >= 2:
                buckets[bucket] += int(parts[1])
    return buckets


shape = sys.argv[1]
folder = sys.argv[2] if len(sys.argv) > 2 else "/tmp"
crates = {kind: load(f"{folder}/cg-{kind}-{shape}.out") for kind in ("typefuzz", "arbitrary", "plain")}
names = [name for name, _ in BUCKETS] + ["other"]
print(f"| {shape}: bucket | Mutate crate (G) | Arbitrary crate (G) | plain crate (G) | Mutate's cost | Arbitrary's cost | ratio |")
print("|---|---|---|---|---|---|---|")
for name in sorted(names, key=lambda n: -(crates["typefuzz"][n] - crates["plain"][n])):
    t, a, p = (crates[k][name] / 1e9 for k in ("typefuzz", "arbitrary", "plain"))
    ratio = f"{(t - p) / (a - p):.2f}x" if a - p > 0.005 else "-"
    print(f"| {name} | {t:.3f} | {a:.3f} | {p:.3f} | {t - p:.3f} | {a - p:.3f} | {ratio} |")
t, a, p = (sum(crates[k].values()) / 1e9 for k in ("typefuzz", "arbitrary", "plain"))
print(f"| **total** | {t:.3f} | {a:.3f} | {p:.3f} | {t - p:.3f} | {a - p:.3f} | {(t - p) / (a - p):.2f}x |")
