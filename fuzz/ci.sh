#!/usr/bin/env bash
# Runs every cargo-fuzz target for a bounded time, checks that the typed example target finds its
# injected bug with `Custom` mutations and typed CmpLog on (also under -fork=2), and moves corpora between cargo-fuzz
# and the engine both ways. Called by .ci/run; about 5 minutes once the builds are cached.
#
# Stable Rust with `-s none` (no sanitizer), so it runs without nightly. Knobs:
#   FUZZ_SECONDS=20        time per self-fuzzing target
#   FUZZ_SANITIZER=none    e.g. `address` (needs nightly: FUZZ_TOOLCHAIN=+nightly)
#   FUZZ_TOOLCHAIN=        e.g. `+nightly`
set -euo pipefail
cd "$(dirname "$0")"

seconds=${FUZZ_SECONDS:-20}
sanitizer=${FUZZ_SANITIZER:-none}
toolchain=${FUZZ_TOOLCHAIN:-}
# A CI-wide CARGO_TARGET_DIR would send cargo-fuzz's instrumented build elsewhere; keep its default.
unset CARGO_TARGET_DIR

if ! command -v cargo-fuzz >/dev/null; then
    cargo install cargo-fuzz --locked
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# libFuzzer requires corpus directories to exist.
mkdir -p "$work/ev" "$work/ev-fork" "$work/lf-corpus" "$work/engine-corpus"
fuzz() { cargo $toolchain fuzz "$@"; }
fail() { echo "fuzz/ci.sh: FAIL: $*" >&2; exit 1; }

echo "== the engine's coverage hooks and libFuzzer's linked into one binary (release, one codegen unit)"
# typefuzz-libfuzzer's tests link libFuzzer (which defines the __sanitizer_cov_* hooks) and the
# engine (which defines them too, weakly, outside cargo-fuzz). With strong definitions on both
# sides this link failed with duplicate symbols once the engine's hooks shared a codegen unit
# with code the binary needs (always so with one unit).
(cd .. && CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 cargo test --release -p typefuzz-libfuzzer --lib --quiet)

echo "== build (sanitizer: $sanitizer)"
fuzz build -s "$sanitizer"

echo "== typed CmpLog: every comparison hook wrapped, each wrapper a tail call to libFuzzer's"
# fuzz/build.rs links with -Wl,--wrap; a wrapper that called libFuzzer's hook instead of jumping
# to it would make every comparison one site for -use_value_profile (see typefuzz_libfuzzer::cmplog).
if command -v objdump >/dev/null; then
    host=$(rustc $toolchain -vV | sed -n 's/^host: //p')
    objdump -d --no-show-raw-insn "target/$host/release/enum_vector" > "$work/enum_vector.asm"
    for hook in cmp1 cmp2 cmp4 cmp8 const_cmp1 const_cmp2 const_cmp4 const_cmp8 switch; do
        body=$(awk "/<__wrap___sanitizer_cov_trace_$hook>:/,/^\$/" "$work/enum_vector.asm")
        [ -n "$body" ] || fail "no __wrap___sanitizer_cov_trace_$hook in enum_vector"
        # No call (a comparison hook would come back here; libFuzzer's hook called rather than
        # jumped to would see the wrapper as the comparison's site), and a jump to libFuzzer's.
        if grep -q "call" <<< "$body"; then fail "__wrap___sanitizer_cov_trace_$hook makes a call"; fi
        # (On x86-64 Linux the wrappers are assembly and jump straight to the hook; elsewhere, Rust
        # through the GOT.)
        grep -Eq "jmp +(\*|[0-9a-f]+ <__sanitizer_cov_trace_$hook>)" <<< "$body" \
            || fail "__wrap___sanitizer_cov_trace_$hook does not jump on"
    done
    echo "9 wrappers, each ending in a jump to the hook"
else
    echo "objdump not found: wrapper check skipped"
fi

# Targets fuzzing typefuzz itself: any way a run ends other than its time running out fails CI
# (libfuzzer_verdict in verdict.sh). -timeout=10: one input running 10 s is reported as a
# timeout at once, not after libFuzzer's default 1200 s. The regression-file target makes the
# engine print one line per malformed line it skips; -close_fd_mask=2 silences the target's
# stderr (libFuzzer keeps its own).
# shellcheck source=verdict.sh
source ./verdict.sh
for target in codec_decode codec_deep derive_invariants regression_file; do
    echo "== $target (${seconds}s)"
    mkdir -p "$work/corpus/$target"
    set +e
    fuzz run -s "$sanitizer" "$target" "$work/corpus/$target" -- \
        -max_total_time="$seconds" -timeout=10 -close_fd_mask=2 -print_final_stats=1 \
        -artifact_prefix="$work/$target-" > "$work/$target.log" 2>&1
    rc=$?
    set -e
    grep -E "^#[0-9]+ +DONE|^stat::|ERROR|panicked|^Done " "$work/$target.log" || true
    verdict=$(libfuzzer_verdict "$work/$target.log" "$rc" "$work/$target-" "$seconds") \
        || fail "$target: $verdict"
    echo "$target: $verdict"
done

# The example target must find the enum-vector bug, and libFuzzer must report our mutator.
expect_bug() {
    local name=$1 log=$2
    grep -q "enum vector bug" "$log" || fail "$name: the injected bug was not found"
    grep -q "deadly signal" "$log" || fail "$name: no crash reported"
    grep -Eq "MS: [0-9]+ .*Custom" "$log" || fail "$name: no Custom mutation in libFuzzer's status lines"
    grep -m1 -E "MS: [0-9]+ .*Custom" "$log"
    grep -E "^stat::number_of_executed_units" "$log" || true
}

echo "== enum_vector: find the injected bug (seed 1, at most 240s)"
fuzz run -s "$sanitizer" enum_vector "$work/ev" -- -seed=1 -use_value_profile=1 \
    -max_total_time=240 -print_final_stats=1 -artifact_prefix="$work/" > "$work/ev.log" 2>&1 || true
expect_bug enum_vector "$work/ev.log"
grep -q "typefuzz: CmpLog on" "$work/ev.log" || fail "enum_vector: CmpLog is not on: $(grep CmpLog "$work/ev.log")"
grep -E "CmpLog seed runs" "$work/ev.log" || true

echo "== enum_vector under -fork=2 (at most 240s)"
fuzz run -s "$sanitizer" enum_vector "$work/ev-fork" -- -fork=2 -seed=2 -use_value_profile=1 \
    -max_total_time=240 -artifact_prefix="$work/fork-" > "$work/fork.log" 2>&1 || true
grep -q -e "-fork=2: fuzzing in separate process" "$work/fork.log" \
    || fail "-fork=2 did not start workers"
expect_bug "enum_vector -fork=2" "$work/fork.log"

echo "== ClusterFuzzLite: the targets .clusterfuzzlite/build.sh ships run with their options"
# The script as ClusterFuzzLite runs it (SRC holds the checkout, OUT receives the binaries), with
# this run's sanitizer; the build above is reused.
mkdir -p "$work/cfl-src" "$work/cfl-out"
ln -s "$(cd .. && pwd)" "$work/cfl-src/typefuzz"
cfl_env=(SRC="$work/cfl-src" OUT="$work/cfl-out" CFL_CARGO_FUZZ_FLAGS="-s $sanitizer")
[ -n "$toolchain" ] && cfl_env+=(RUSTUP_TOOLCHAIN="${toolchain#+}")
env "${cfl_env[@]}" bash ../.clusterfuzzlite/build.sh > "$work/cfl.log" 2>&1 \
    || fail ".clusterfuzzlite/build.sh: $(tail -5 "$work/cfl.log")"
shipped=0
for binary in "$work/cfl-out"/*; do
    case $binary in *.options) continue ;; esac
    target=$(basename "$binary")
    # `[libfuzzer]` options (`key = value`) become libFuzzer flags (`-key=value`).
    flags=()
    if [ -f "$binary.options" ]; then
        while read -r key value; do flags+=("-$key=$value"); done \
            < <(sed -n 's/^\([a-z_]*\) *= *\(.*\)$/\1 \2/p' "$binary.options")
    fi
    ENUM_VECTOR_BUG=0 "$binary" "${flags[@]}" -runs=1000 -close_fd_mask=2 > "$work/cfl-$target.log" 2>&1 \
        || fail "ClusterFuzzLite target $target (${flags[*]}): $(tail -5 "$work/cfl-$target.log")"
    grep -q "Done 1000 runs" "$work/cfl-$target.log" || fail "$target did not run: $(tail -5 "$work/cfl-$target.log")"
    echo "$target ${flags[*]}: 1000 runs"
    shipped=$((shipped + 1))
done
[ "$shipped" -gt 0 ] || fail ".clusterfuzzlite/build.sh shipped no target"

echo "== one property, two harnesses"
# libFuzzer -> engine: a corpus from cargo fuzz run (bug off), replayed by typefuzz::check.
ENUM_VECTOR_BUG=0 fuzz run -s "$sanitizer" enum_vector "$work/lf-corpus" -- \
    -max_total_time=10 -seed=3 > "$work/lf.log" 2>&1 || fail "cargo fuzz run (bug off): $(tail -5 "$work/lf.log")"
# engine -> libFuzzer: a corpus written by typefuzz::check, loaded by libFuzzer.
# `cargo test` also links the fuzz-target binaries; `--cfg fuzzing` (as under cargo-fuzz) makes the
# engine leave the SanitizerCoverage hooks to libFuzzer, else both define them and linking fails.
RUSTFLAGS="--cfg fuzzing" CARGO_TARGET_DIR=target/tests LIBFUZZER_CORPUS="$work/lf-corpus" ENGINE_CORPUS="$work/engine-corpus" \
    cargo test --release --test two_harnesses -- --ignored --test-threads=1
echo "== the fuzz crate's own tests (its library's unit tests and the integration tests)"
RUSTFLAGS="--cfg fuzzing" CARGO_TARGET_DIR=target/tests cargo test --release --lib --tests
files=$(find "$work/engine-corpus" -type f | wc -l)
ENUM_VECTOR_BUG=0 fuzz run -s "$sanitizer" enum_vector "$work/engine-corpus" -- -runs=0 \
    > "$work/load.log" 2>&1 || fail "libFuzzer rejected the engine's corpus: $(tail -5 "$work/load.log")"
grep -q "seed corpus: files: $files " "$work/load.log" \
    || fail "libFuzzer did not load all $files engine corpus files: $(grep 'seed corpus' "$work/load.log")"
grep -q "INITED" "$work/load.log" || fail "libFuzzer did not initialize on the engine's corpus"
echo "libFuzzer loaded all $files files of the engine's corpus"

echo "fuzz/ci.sh: OK"
