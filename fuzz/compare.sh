#!/usr/bin/env bash
# typefuzz's typed mutator (enum_vector) against libFuzzer + `arbitrary` (enum_vector_arbitrary)
# on the same type and property: fuzzcheck's enum-vector benchmark (BENCHMARKS.md).
#
#   fuzz/compare.sh [trials] [cap-seconds] [throughput-seconds]    (defaults: 3 60 20)
#
# 1. Iterations to the bug, per check order and trial: libFuzzer's executed units at the crash
#    (`stat::number_of_executed_units`), with -use_value_profile=1 as in fuzzcheck's article, the
#    same flags and seeds for both targets; "not found" when the cap runs out (executions then).
# 2. Throughput with the bug switched off (ENUM_VECTOR_BUG=0): average exec/s over the run.
# Builds with `-s none` on stable. Prints a markdown table.
set -euo pipefail
cd "$(dirname "$0")"
unset CARGO_TARGET_DIR

trials=${1:-3}
cap=${2:-60}
throughput_seconds=${3:-20}

cargo fuzz build -s none enum_vector >/dev/null 2>&1
cargo fuzz build -s none enum_vector_arbitrary >/dev/null 2>&1
bin=target/$(rustc -vV | sed -n 's/^host: //p')/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

stat() { sed -n "s/^stat::$1: *//p" "$2" | tail -1; }

echo "| target | order | trial (seed) | found | executions | exec/s |"
echo "|---|---|---|---|---|---|"
for order in in-order reversed; do
    for trial in $(seq 1 "$trials"); do
        for target in enum_vector enum_vector_arbitrary; do
            log="$work/$target-$order-$trial.log"
            rm -rf "$work/corpus" && mkdir "$work/corpus"
            ENUM_VECTOR_ORDER=$order "$bin/$target" "$work/corpus" -seed="$trial" \
                -use_value_profile=1 -max_total_time="$cap" -print_final_stats=1 \
                -artifact_prefix="$work/" > "$log" 2>&1 || true
            found=no
            grep -q "enum vector bug" "$log" && found=yes
            echo "| $target | $order | $trial | $found | $(stat number_of_executed_units "$log") | $(stat average_exec_per_sec "$log") |"
        done
    done
done

echo
echo "| target | exec/s, bug off, ${throughput_seconds}s |"
echo "|---|---|"
for target in enum_vector enum_vector_arbitrary; do
    log="$work/$target-throughput.log"
    rm -rf "$work/corpus" && mkdir "$work/corpus"
    ENUM_VECTOR_BUG=0 "$bin/$target" "$work/corpus" -seed=1 -use_value_profile=1 \
        -max_total_time="$throughput_seconds" -print_final_stats=1 > "$log" 2>&1 || true
    echo "| $target | $(stat average_exec_per_sec "$log") |"
done
