#!/usr/bin/env bash
# The cost of coverage and the gain of workers, measured side by side in one run.
#
#   bench/campaign.sh            # ROUNDS=3 SECONDS_PER_RUN=3 by default
#
# Builds the throughput property of cargo-typefuzz's fixture (tests/throughput.rs: a cheap
# property over `Vec<u8>` calling instrumented code) three ways in release mode — plain
# `cargo test`, `cargo typefuzz test`, `cargo typefuzz test --trace-compares` — then runs the
# three binaries in turn, ROUNDS times, and prints the median tests/s of each and the coverage
# tax (instrumented / plain), in wall-clock time and per CPU-second (the latter is what a loaded
# machine distorts least: the same binary's wall-clock speed moved by 30% within one run here). Then it runs the instrumented binary with TYPEFUZZ_JOBS=1 and
# TYPEFUZZ_JOBS=2 in turn (total tests/s of all workers) and prints the scaling per added core,
# and the tests per CPU-second of all processes (user + system time, from /usr/bin/time): on a
# machine without an idle core for the second worker, that says whether the workers themselves
# cost anything. The machine's load average is printed before and after: on a shared machine
# only the ratios mean something. Builds go to target/bench-campaign (the first run takes minutes).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
fixture=$root/cargo-typefuzz/tests/fixture
rounds=${ROUNDS:-3}
seconds=${SECONDS_PER_RUN:-3}
target_dir=$root/target/bench-campaign

# Nothing of the caller's typefuzz or coverage set-up may leak into the builds or the runs.
for name in $(env | sed -n 's/^\(TYPEFUZZ_[A-Z_]*\)=.*/\1/p; s/^\(__CARGO_TYPEFUZZ_[A-Z_]*\)=.*/\1/p'); do
    unset "$name"
done
unset RUSTC_WORKSPACE_WRAPPER RUSTFLAGS CARGO_ENCODED_RUSTFLAGS RUSTDOCFLAGS CARGO_ENCODED_RUSTDOCFLAGS

cargo build --quiet --release -p cargo-typefuzz --manifest-path "$root/Cargo.toml"
subcommand=$root/target/release/cargo-typefuzz

# Builds the benchmark binary with the given command and prints its path.
executable() {
    (cd "$fixture" && CARGO_TARGET_DIR=$target_dir "$@" --release --test throughput --no-run 2>&1) |
        sed -n 's/.*Executable tests\/throughput.rs (\(.*\))$/\1/p'
}
plain=$(executable cargo test)
coverage=$(executable "$subcommand" typefuzz test)
compares=$(executable "$subcommand" typefuzz test --trace-compares)
for binary in "$plain" "$coverage" "$compares"; do
    [ -x "$binary" ] || { echo "campaign.sh: a build failed (no executable)" >&2; exit 1; }
done

cpu_file=$(mktemp)
trap 'rm -f "$cpu_file"' EXIT
# Runs a binary once (extra environment first) and prints its tests/s and its tests per
# CPU-second (all its processes).
run() {
    local binary=$1 line cpu
    shift
    line=$(env "$@" TYPEFUZZ_TIME="${seconds}s" /usr/bin/time -f '%U %S' -o "$cpu_file" \
        "$binary" throughput --exact --ignored --nocapture 2>/dev/null | grep '^THROUGHPUT: ')
    cpu=$(tail -1 "$cpu_file")
    echo "$line" | awk -v cpu="$cpu" '{
        for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        split(cpu, c, " ");
        printf "%d %d", v["tests_per_second"], v["tests"] / (c[1] + c[2] + 1e-9) }'
}
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
declare -A samples
for round in $(seq "$rounds"); do
    for mode in plain coverage compares; do
        read -r speed per_cpu <<<"$(run "${!mode}")"
        samples[$mode]+=" $speed"
        samples[cpu_$mode]+=" $per_cpu"
    done
    for jobs in 1 2; do
        read -r speed per_cpu <<<"$(run "$coverage" TYPEFUZZ_JOBS=$jobs)"
        samples[jobs$jobs]+=" $speed"
        samples[cpu$jobs]+=" $per_cpu"
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

for key in plain coverage compares jobs1 jobs2 cpu1 cpu2 cpu_plain cpu_coverage cpu_compares; do
    declare "m_$key=$(echo "${samples[$key]}" | median)"
done
echo
echo "| build (${rounds} rounds of ${seconds} s, median) | tests/s | ratio to plain | samples | tests per CPU-second | ratio to plain |"
echo "|---|---:|---:|---|---:|---:|"
echo "| cargo test --release | $m_plain | 1.00 |${samples[plain]} | $m_cpu_plain | 1.00 |"
echo "| cargo typefuzz test --release | $m_coverage | $(ratio "$m_coverage" "$m_plain") |${samples[coverage]} | $m_cpu_coverage | $(ratio "$m_cpu_coverage" "$m_cpu_plain") |"
echo "| cargo typefuzz test --release --trace-compares | $m_compares | $(ratio "$m_compares" "$m_plain") |${samples[compares]} | $m_cpu_compares | $(ratio "$m_cpu_compares" "$m_cpu_plain") |"
echo
echo "| cargo typefuzz test --release, workers | total tests/s | per added core | samples | tests per CPU-second | samples |"
echo "|---|---:|---:|---|---:|---|"
echo "| TYPEFUZZ_JOBS=1 | $m_jobs1 | |${samples[jobs1]} | $m_cpu1 |${samples[cpu1]} |"
echo "| TYPEFUZZ_JOBS=2 | $m_jobs2 | $(awk -v a="$m_jobs2" -v b="$m_jobs1" 'BEGIN { printf "%.2f", (a - b) / b }') |${samples[jobs2]} | $m_cpu2 ($(ratio "$m_cpu2" "$m_cpu1")x) |${samples[cpu2]} |"
