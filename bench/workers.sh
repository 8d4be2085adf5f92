#!/usr/bin/env bash
# Worker scaling on all cores: one property campaigned on by 1 process and by N
# worker processes (TYPEFUZZ_JOBS=N), side by side in one run.
#
#   bash bench/workers.sh [SECONDS] [ROUNDS] [JOBS]      (defaults: 10 s, 3 rounds, 2 jobs)
#
# The workload is the ignored test `scaling_campaign` of engine/tests/workers.rs (a `Vec<u8>`
# property that sorts a copy of its input, with labels guiding the search), built once in
# release mode. Each round runs it with TYPEFUZZ_JOBS=1 and TYPEFUZZ_JOBS=JOBS for SECONDS of
# TYPEFUZZ_TIME, alternating which goes first, so the machine's load hits both alike. For each
# run: wall and CPU time (user + system of the test process and its workers, from bash's `time`),
# tests (all workers' together), tests/s (wall) and tests per CPU-second.
#
# What the summary means:
# - tests per CPU-second, JOBS vs 1: the work a worker does per CPU-second it gets, against one
#   process (1.0 = workers cost nothing in coordination: process start, seed import, statistics);
# - tests/s, JOBS vs 1: the speed-up the machine gave. On an idle machine with JOBS free cores
#   this is what "scaling per added core" means; on a loaded machine it is bounded by the CPU the
#   scheduler hands out, so read it together with the CPU-seconds column (a JOBS-worker run that
#   got no more CPU than one process cannot be faster).
# - per added core = (tests/s ratio) / JOBS; the bar is >= 0.8 (on free cores).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SECONDS_PER_RUN="${1:-10}"
ROUNDS="${2:-3}"
JOBS="${3:-2}"
cd "$ROOT"

binary="$(cargo test --release -p typefuzz-engine --test workers --no-run --message-format=json 2>/dev/null \
  | jq -r 'select(.reason == "compiler-artifact" and .target.name == "workers" and .executable != null) | .executable' \
  | tail -1)"
if [ -z "$binary" ] || [ ! -x "$binary" ]; then
  echo "workers.sh: could not build engine/tests/workers.rs in release mode" >&2
  exit 1
fi

log="$(mktemp -d)"
trap 'rm -rf "$log"' EXIT

# Runs the campaign with $1 jobs; prints "wall cpu tests".
campaign() {
  local jobs="$1" times line tests
  local TIMEFORMAT='%R %U %S'
  times="$( { time TYPEFUZZ_JOBS="$jobs" TYPEFUZZ_TIME="${SECONDS_PER_RUN}s" \
      "$binary" scaling_campaign --exact --ignored --nocapture --test-threads=1 \
      >"$log/out" 2>"$log/err" ; } 2>&1 )" || {
    echo "workers.sh: the campaign with $jobs job(s) failed:" >&2
    cat "$log/out" "$log/err" >&2
    return 1
  }
  # libtest prints `test scaling_campaign ... ` before the test's own output, on the same line.
  line="$(grep -oE 'WORKERS-SCALING:.*' "$log/out" || true)"
  tests="$(sed -nE 's/.* tests=([0-9]+).*/\1/p' <<<"$line")"
  if [ -z "$tests" ] || { [ "$jobs" -gt 1 ] && ! grep -q "workers=$jobs " <<<"$line"; }; then
    echo "workers.sh: no result line with $jobs worker(s) from the campaign: '$line'" >&2
    return 1
  fi
  grep -E '^typefuzz: [0-9]+ workers on' "$log/err" | sed 's/^/      /' >&2 || true
  awk -v t="$times" -v n="$tests" 'BEGIN { split(t, a, " "); printf "%.3f %.3f %d\n", a[1], a[2] + a[3], n }'
}

echo "== worker scaling: 1 vs $JOBS jobs, ${SECONDS_PER_RUN} s each, $ROUNDS rounds, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '   %-5s %4s %8s %8s %12s %10s %14s\n' round jobs wall_s cpu_s tests tests/s tests/cpu_s
declare -A wall cpu tests
for jobs in 1 "$JOBS"; do wall[$jobs]=0; cpu[$jobs]=0; tests[$jobs]=0; done
for round in $(seq "$ROUNDS"); do
  order="1 $JOBS"
  if [ $((round % 2)) -eq 0 ]; then order="$JOBS 1"; fi
  for jobs in $order; do
    result="$(campaign "$jobs")" || exit 1
    read -r w c n <<<"$result"
    printf '   %-5s %4s %8.2f %8.2f %12d %10.0f %14.0f\n' "$round" "$jobs" "$w" "$c" "$n" \
      "$(echo "$n / $w" | bc -l)" "$(echo "$n / $c" | bc -l)"
    wall[$jobs]="$(echo "${wall[$jobs]} + $w" | bc -l)"
    cpu[$jobs]="$(echo "${cpu[$jobs]} + $c" | bc -l)"
    tests[$jobs]="$(echo "${tests[$jobs]} + $n" | bc -l)"
  done
done
rate() { echo "${tests[$1]} / ${wall[$1]}" | bc -l; }
per_cpu() { echo "${tests[$1]} / ${cpu[$1]}" | bc -l; }
speedup="$(echo "$(rate "$JOBS") / $(rate 1)" | bc -l)"
efficiency="$(echo "$(per_cpu "$JOBS") / $(per_cpu 1)" | bc -l)"
echo "== summary over $ROUNDS rounds (load now $(cut -d' ' -f1-3 /proc/loadavg))"
printf '   1 job:     %10.0f tests/s, %10.0f tests per CPU-second, %5.2f CPU-seconds per wall second\n' \
  "$(rate 1)" "$(per_cpu 1)" "$(echo "${cpu[1]} / ${wall[1]}" | bc -l)"
printf '   %s jobs:    %10.0f tests/s, %10.0f tests per CPU-second, %5.2f CPU-seconds per wall second\n' \
  "$JOBS" "$(rate "$JOBS")" "$(per_cpu "$JOBS")" "$(echo "${cpu[$JOBS]} / ${wall[$JOBS]}" | bc -l)"
printf '   %s jobs vs 1: tests/s %.2fx (per added core %.2f), tests per CPU-second %.2fx\n' \
  "$JOBS" "$speedup" "$(echo "$speedup / $JOBS" | bc -l)" "$efficiency"
