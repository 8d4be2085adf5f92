#!/usr/bin/env bash
# typefuzz's typed mutator (enum_vector) against libFuzzer + `arbitrary` (enum_vector_arbitrary)
# on the same type and property: fuzzcheck's enum-vector benchmark (BENCHMARKS.md). The typed
# target runs twice: with typed CmpLog (`enum_vector`) and, same binary, with its substitutions
# off (`enum_vector/no-cmplog`, TYPEFUZZ_CMPLOG=0).
#
#   fuzz/compare.sh [trials] [max-executions] [throughput-seconds] [throughput-seeds]
#   (defaults: 3 3000000 20, and as many throughput seeds as trials)
#
# 1. Executions to the bug, per check order and trial (the trial number is libFuzzer's -seed):
#    libFuzzer's executed units at the crash (`stat::number_of_executed_units`), with
#    -use_value_profile=1 as in fuzzcheck's article, the same flags and seeds for both targets.
#    Each run stops after max-executions (libFuzzer's -runs, so machine load cannot change the
#    outcome) or COMPARE_MAX_SECONDS (default 600) of wall time; "no" when it did not find the
#    bug (the count is then the executions done). The targets alternate, so load hits all.
#    With CmpLog, the property runs the mutator made to log corpus inputs' comparisons
#    (`typefuzz: CmpLog seed runs`) are added to libFuzzer's count.
# 2. Throughput with the bug switched off (ENUM_VECTOR_BUG=0): average exec/s over the run, for
#    each seed (1 to throughput-seeds), the targets alternating. A run's speed depends on the
#    corpus it grows (one binary reads 90k-140k exec/s across seeds here), so the median of more
#    seeds than the bug trials need is the steadier reading.
# 3. A summary: per target, bugs found, the median executions to the bug (a run that did not find
#    it counts as its executions, a lower bound) and the median exec/s of part 2; then the typed
#    target's ratios: exec/s (higher is better) and executions to the bug (lower is better).
# Builds with `-s none` on stable. Prints markdown tables.
set -euo pipefail
cd "$(dirname "$0")"
unset CARGO_TARGET_DIR

trials=${1:-3}
max_runs=${2:-3000000}
throughput_seconds=${3:-20}
throughput_seeds=${4:-$trials}
max_seconds=${COMPARE_MAX_SECONDS:-600}
targets="enum_vector enum_vector/no-cmplog enum_vector_arbitrary"

for binary in enum_vector enum_vector_arbitrary; do
    cargo fuzz build -s none "$binary" >/dev/null 2>&1
done
bin=target/$(rustc -vV | sed -n 's/^host: //p')/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

stat() { sed -n "s/^stat::$1: *//p" "$2" | tail -1; }
# Runs target $1 (a binary, or `enum_vector/no-cmplog`) with the remaining arguments.
run() {
    local target=$1
    shift
    case $target in
        */no-cmplog) TYPEFUZZ_CMPLOG=0 "$bin/${target%/no-cmplog}" "$@" ;;
        *) TYPEFUZZ_CMPLOG=1 "$bin/$target" "$@" ;;
    esac
}
# A file name for target $1.
file() { echo "${1//\//-}"; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

echo "| target | order | trial (seed) | found | executions | exec/s |"
echo "|---|---|---|---|---|---|"
for order in in-order reversed; do
    for trial in $(seq 1 "$trials"); do
        for target in $targets; do
            name=$(file "$target")
            log="$work/$name-$order-$trial.log"
            rm -rf "$work/corpus" && mkdir "$work/corpus"
            ENUM_VECTOR_ORDER=$order run "$target" "$work/corpus" -seed="$trial" \
                -use_value_profile=1 -runs="$max_runs" -max_total_time="$max_seconds" -print_final_stats=1 \
                -artifact_prefix="$work/" > "$log" 2>&1 || true
            found=no
            grep -q "enum vector bug" "$log" && found=yes
            seed_runs=$(sed -n 's/^typefuzz: CmpLog seed runs: //p' "$log" | tail -1)
            executions=$(($(stat number_of_executed_units "$log") + ${seed_runs:-0}))
            echo "$executions" >> "$work/$name.executions"
            [ "$found" = yes ] && echo 1 >> "$work/$name.found"
            echo "| $target | $order | $trial | $found | $executions | $(stat average_exec_per_sec "$log") |"
        done
    done
done

echo
echo "| target | seed | exec/s, bug off, ${throughput_seconds}s |"
echo "|---|---|---|"
for trial in $(seq 1 "$throughput_seeds"); do
    for target in $targets; do
        name=$(file "$target")
        log="$work/$name-throughput-$trial.log"
        rm -rf "$work/corpus" && mkdir "$work/corpus"
        ENUM_VECTOR_BUG=0 run "$target" "$work/corpus" -seed="$trial" -use_value_profile=1 \
            -max_total_time="$throughput_seconds" -print_final_stats=1 > "$log" 2>&1 || true
        speed=$(stat average_exec_per_sec "$log")
        echo "$speed" >> "$work/$name.speed"
        echo "| $target | $trial | $speed |"
    done
done

echo
echo "| target | bugs found | median executions to the bug | median exec/s |"
echo "|---|---|---|---|"
for target in $targets; do
    name=$(file "$target")
    found=0
    [ -f "$work/$name.found" ] && found=$(wc -l < "$work/$name.found")
    echo "| $target | $found of $((2 * trials)) | $(median < "$work/$name.executions") | $(median < "$work/$name.speed") |"
done
plain_speed=$(median < "$work/enum_vector_arbitrary.speed")
plain_runs=$(median < "$work/enum_vector_arbitrary.executions")
echo
for target in enum_vector enum_vector/no-cmplog; do
    name=$(file "$target")
    typed_speed=$(median < "$work/$name.speed")
    typed_runs=$(median < "$work/$name.executions")
    echo "$target / arbitrary: exec/s $(awk -v a="$typed_speed" -v b="$plain_speed" 'BEGIN { printf "%.2fx", a / b }')," \
        "executions to the bug $(awk -v a="$typed_runs" -v b="$plain_runs" 'BEGIN { printf "%.2fx", a / b }')" \
        "(arbitrary needs $(awk -v a="$typed_runs" -v b="$plain_runs" 'BEGIN { printf "%.1fx", b / a }') the typed mutator's executions);" \
        "exec/s per seed $(paste -d' ' "$work/$name.speed" "$work/enum_vector_arbitrary.speed" | awk '{ printf "%s%.2fx", (NR > 1 ? " / " : ""), $1 / $2 }')"
done
