#!/usr/bin/env bash
# The derive's compile cost in instructions executed by rustc, not in seconds: a reading the
# machine's load cannot move (this VM has no hardware counters for `perf stat`, so valgrind's
# cachegrind counts them, as rustc's own performance suite does by default).
#
# Usage: bash bench/compile-time/instructions.sh [TREE...]   (default: this repository)
#
# Each TREE is a checkout of this repository in which `bench/compile-time/run.sh` has already
# made the scratch workspace (`TREE/target/compile-time`, dependencies built). For each tree and
# crate the crate alone is rebuilt (incremental compilation off) with rustc under
# `valgrind --tool=cachegrind --cache-sim=no`, and the instructions it executed, threads and the
# derive macros included, are printed with the same cost ratio as `run.sh`:
# (Mutate crate - plain crate) / (Arbitrary crate - plain crate). Slow (about 40x a native
# build: several minutes per tree) and a different quantity from wall time (memory stalls and
# parallel code generation are not in it), but repeatable to a fraction of a percent, so it shows
# changes smaller than the wall-time ratio's run-to-run spread.
set -euo pipefail
export CARGO_INCREMENTAL=0
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 1; }

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TREES=("$@")
[ ${#TREES[@]} -gt 0 ] || TREES=("$ROOT")
CRATES="plain-enum30 typefuzz-enum30 arbitrary-enum30 plain-mutual typefuzz-mutual arbitrary-mutual"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The wrapper cargo runs instead of rustc: cachegrind around the one crate being measured.
cat >"$WORK/wrap.sh" <<'EOF'
#!/usr/bin/env bash
for arg in "$@"; do
    if [ "$arg" = "$MEASURED_CRATE" ]; then
        exec valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$MEASURED_OUT" \
            --log-file=/dev/null "$@"
    fi
done
exec "$@"
EOF
chmod +x "$WORK/wrap.sh"

# instructions TREE CRATE: the instructions rustc executed building CRATE alone in TREE.
instructions() {
    local ws="$1/target/compile-time" crate=$2
    [ -d "$ws/$crate" ] || { echo "instructions.sh: no $ws/$crate (run bench/compile-time/run.sh there first)" >&2; exit 1; }
    touch "$ws/$crate/src/lib.rs"
    (cd "$ws" && MEASURED_CRATE="${crate//-/_}" MEASURED_OUT="$WORK/out" RUSTC_WRAPPER="$WORK/wrap.sh" \
        cargo build --offline --quiet -p "$crate")
    sed -n 's/^summary: *//p' "$WORK/out"
    rm -f "$WORK/out"
}

echo "# derive compile time in instructions: typefuzz::Mutate vs arbitrary::Arbitrary"
echo
echo "Command: \`bash bench/compile-time/instructions.sh ${*:-}\` (rustc under cachegrind, one build of each crate alone)."
echo
echo "| tree | shape | plain crate (G instr.) | + Mutate | + Arbitrary | Mutate's cost | Arbitrary's cost | ratio |"
echo "|---|---|---|---|---|---|---|---|"
for tree in "${TREES[@]}"; do
    declare -A IR=()
    for crate in $CRATES; do
        IR[$crate]=$(instructions "$tree" "$crate")
    done
    for shape in enum30 mutual; do
        plain=${IR[plain-$shape]} tf=${IR[typefuzz-$shape]} arb=${IR[arbitrary-$shape]}
        awk -v tree="$(git -C "$tree" rev-parse --short HEAD 2>/dev/null || echo "$tree")" \
            -v shape="$shape" -v p="$plain" -v t="$tf" -v a="$arb" 'BEGIN {
            printf "| %s | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.2fx |\n", tree, shape,
                p / 1e9, t / 1e9, a / 1e9, (t - p) / 1e9, (a - p) / 1e9, (t - p) / (a - p) }'
    done
    unset IR
done
