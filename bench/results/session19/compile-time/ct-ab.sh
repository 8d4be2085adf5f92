#!/usr/bin/env bash
# Interleaved A/B of the derive's compile time: base (/work/wt-base) vs new (/work/main) workspaces.
export CARGO_INCREMENTAL=0
rounds=${1:-8}
t() { local ws=$1 crate=$2; touch $ws/target/compile-time/$crate/src/lib.rs; local s=$(date +%s.%N); (cd $ws/target/compile-time && cargo build -q -p $crate 2>/dev/null); local e=$(date +%s.%N); echo "$ws $crate $(echo "$e - $s" | bc)"; }
for r in $(seq $rounds); do
  for crate in plain-mutual typefuzz-mutual arbitrary-mutual plain-enum30 typefuzz-enum30 arbitrary-enum30; do
    if [ $((r % 2)) = 0 ]; then t /work/main $crate; t /work/wt-base $crate; else t /work/wt-base $crate; t /work/main $crate; fi
  done
done
