#!/usr/bin/env bash
# CPU time (user + system, of cargo and rustc) of building each compile-time crate alone, for
# several trees' `target/compile-time` workspaces (made by `bench/compile-time/run.sh`), the
# trees interleaved: less moved by the load of a shared machine than wall time (this VM has no
# instruction counters for `perf stat`). Usage: ct-cpu.sh ROUNDS TREE... ; prints
# "tree crate seconds" lines, which `ct-ab-summary.py` reads.
export CARGO_INCREMENTAL=0
rounds=$1; shift
for r in $(seq "$rounds"); do
  for crate in plain-mutual typefuzz-mutual arbitrary-mutual plain-enum30 typefuzz-enum30 arbitrary-enum30; do
    for tree in "$@"; do
      touch "$tree/target/compile-time/$crate/src/lib.rs"
      n=$(cd "$tree/target/compile-time" && python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{r.ru_utime + r.ru_stime:.3f}")' cargo build -q -p "$crate")
      echo "$tree $crate $n"
    done
  done
done
