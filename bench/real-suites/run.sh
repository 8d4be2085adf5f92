#!/usr/bin/env bash
# Real suites as a test: published crates' quickcheck/proptest suites run plain
# and under typefuzz's drop-ins, with only the macro paths rewritten.
#
#   bash bench/real-suites/run.sh [--bounded] [SUITE...]
#
# For each suite the published crate is fetched through cargo (a scratch manifest pinning the
# exact version), its source is copied out of cargo's registry into target/real-suites/ (nothing
# of it is committed), and two copies are tested:
#   plain/     the crate as published;
#   typefuzz/  the same with `proptest!` / `quickcheck!` rewritten to `typefuzz::proptest!` /
#              `typefuzz::quickcheck!` (plus the suite's listed API paths, e.g. a `QuickCheck`
#              builder) and typefuzz added as a path dev-dependency with the framework's feature.
# Both are built first (`cargo test --no-run`), then their test binaries are run as `cargo test`
# runs them (from the crate's directory, one test thread), ROUNDS times each, alternating plain
# and typefuzz (and which goes first), so that the machine's load hits both alike; the wall
# times (and CPU times, reported) are summed over the rounds. The script fails if a test fails
# under typefuzz but passes plain (a false failure, in any round), if a typefuzz round ends
# other than with libtest's verdict (an abort, a signal, a hang, the timeout) unless a plain
# round ended the same way, if the typefuzz copy does not build, or if its wall time exceeds
# RATIO (1.25) x plain (verdict.sh; tested by bench/tests/real_suites_verdict.rs). A test
# failing plain as well is reported, not counted against typefuzz.
#
# Suites (SUITE names): smol_str, roaring (proptest 1.x; roaring's treemap_iter draws sets of
# 50,000-100,000 integers, minutes per run in a debug build); indexmap (quickcheck 1.x);
# itertools (quickcheck 0.9, feature quickcheck09: 142 properties, about 30 s per run in a debug
# build); petgraph (quickcheck 0.8, feature quickcheck08: 45 properties over graphs, about 4
# minutes per run in a debug build, so not in the default set: `bash bench/real-suites/run.sh
# petgraph`). Default: smol_str, indexmap and itertools; --bounded (what .ci/run runs): the
# same, each test run capped at 600 s.
#
# Environment: REAL_SUITES_RATIO (default 1.25), REAL_SUITES_ROUNDS (default 3),
# REAL_SUITES_TIMEOUT (seconds per test run, default 1800, 600 with --bounded), CARGO_BUILD_JOBS
# as usual. REAL_SUITES_RATIO_FATAL=0 reports a wall time over the bar without failing (what CI
# uses: a timing bar on a shared machine is a benchmark, not a test; false failures, build
# failures and timeouts still fail).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
WORK="$ROOT/target/real-suites"
RATIO="${REAL_SUITES_RATIO:-1.25}"
ROUNDS="${REAL_SUITES_ROUNDS:-3}"
RATIO_FATAL="${REAL_SUITES_RATIO_FATAL:-1}"
TIMEOUT="${REAL_SUITES_TIMEOUT:-1800}"

# name | crate | version | typefuzz feature | cargo test target args | extra rewrites (perl) |
# dev-dependencies to drop (benches only)
suite() {
  case "$1" in
    roaring)
      echo "roaring|0.10.12|proptest|--test treemap_iter||" ;;
    smol_str)
      echo "smol_str|0.3.7|proptest|--test test||criterion" ;;
    indexmap)
      # indexmap wraps quickcheck's macro in its own and runs each property through the
      # `QuickCheck` builder: swapping the macro alone would still run plain quickcheck.
      echo "indexmap|2.14.2|quickcheck|--test quick|s/(?<![\\w:])QuickCheck::new\\(\\)/typefuzz::quickcheck::QuickCheck::new()/g|" ;;
    itertools)
      # itertools (every release up to 0.14) is on quickcheck 0.9 and wraps `quickcheck!` in its
      # own macro; its invocations become `typefuzz::quickcheck!` (feature `quickcheck09`).
      echo "itertools|0.14.0|quickcheck09|--test quick||criterion" ;;
    petgraph)
      # petgraph 0.6 is on quickcheck 0.8 (behind its own `quickcheck` feature).
      echo "petgraph|0.6.5|quickcheck08|--features quickcheck --test quickcheck||" ;;
    *)
      return 1 ;;
  esac
}

bounded=0
suites=()
for arg in "$@"; do
  case "$arg" in
    --bounded) bounded=1 ;;
    -h|--help) sed -n '2,36p' "$0"; exit 0 ;;
    *) suite "$arg" >/dev/null || { echo "real-suites: unknown suite '$arg'" >&2; exit 2; }
       suites+=("$arg") ;;
  esac
done
if [ "${#suites[@]}" -eq 0 ]; then
  suites=(smol_str indexmap itertools)
fi
if [ "$bounded" -eq 1 ] && [ -z "${REAL_SUITES_TIMEOUT:-}" ]; then TIMEOUT=600; fi

# timed_test, counts, statuses and judge_suite (the verdict).
# shellcheck source=verdict.sh
source "$ROOT/bench/real-suites/verdict.sh"

mkdir -p "$WORK"
export CARGO_TARGET_DIR="$WORK/target"

# Prints the registry source directory of crate $1 at version $2, fetching it through cargo.
fetch_source() {
  local krate="$1" version="$2" dir="$WORK/fetch-$1-$2"
  mkdir -p "$dir/src"
  printf '[package]\nname = "fetch-%s"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n[workspace]\n\n[dependencies]\n%s = "=%s"\n' \
    "${krate//_/-}" "$krate" "$version" > "$dir/Cargo.toml"
  : > "$dir/src/lib.rs"
  cargo fetch --manifest-path "$dir/Cargo.toml" >&2
  cargo metadata --format-version 1 --manifest-path "$dir/Cargo.toml" \
    | jq -r --arg n "$krate" --arg v "$version" \
        '.packages[] | select(.name == $n and .version == $v) | .manifest_path' \
    | xargs dirname
}

# Copies the published crate to $2, standalone (its own workspace), without the listed
# bench-only dev-dependencies (and the benches that use them).
copy_crate() {
  local src="$1" dst="$2" drop="$3"
  rm -rf "$dst"
  cp -r "$src" "$dst"
  chmod -R u+w "$dst"
  rm -f "$dst/Cargo.lock"
  if [ -n "$drop" ]; then
    perl -0pi -e "s/\\n\\[dev-dependencies\\.$drop\\]\\n(?:[^\\[\\n][^\\n]*\\n)*//g; s/\\n\\[\\[bench\\]\\]\\n(?:[^\\[\\n][^\\n]*\\n)*//g" "$dst/Cargo.toml"
  fi
  grep -q '^\[workspace\]' "$dst/Cargo.toml" || printf '\n[workspace]\n' >> "$dst/Cargo.toml"
}

# Rewrites the macro paths (and the suite's extra API paths, `;`-separated perl substitutions) in
# every Rust file of $1, adds typefuzz as a dev-dependency; prints how many substitutions were made.
rewrite() {
  local dir="$1" feature="$2" extra="$3"
  # The macro is the framework's name: feature `quickcheck09` is still `quickcheck!`.
  local macro="${feature%%[0-9]*}"
  local program="\$c += s/(?<![\\w:])(?:::)?(?:$macro::)?$macro!/typefuzz::$macro!/g;"
  local substitution
  IFS=';' read -ra extras <<< "$extra"
  for substitution in "${extras[@]}"; do
    [ -n "${substitution// /}" ] && program="$program \$c += $substitution;"
  done
  local changed=0 file n
  while IFS= read -r file; do
    n="$(perl -ne "$program END { print \$c + 0 }" "$file")"
    if [ "$n" -gt 0 ]; then
      perl -pi -e "$program" "$file"
      changed=$((changed + n))
    fi
  done < <(find "$dir/src" "$dir/tests" -name '*.rs' 2>/dev/null)
  printf '\n[dev-dependencies.typefuzz]\npath = "%s"\nfeatures = ["%s"]\n' "$ROOT" "$feature" >> "$dir/Cargo.toml"
  echo "$changed"
}

# Builds the suite's tests in $1 (log $2) and prints the test binary's path.
build_tests() {
  local dir="$1" log="$2"; shift 2
  (cd "$dir" && cargo test "$@" --no-run >"$log" 2>&1) || return 1
  sed -nE 's/^ *Executable .* \((.*)\)$/\1/p' "$log" | tail -1
}

status=0
summary=()
for name in "${suites[@]}"; do
  IFS='|' read -r krate version feature targets extra drop <<< "$(suite "$name")"
  echo "== real suite $name: $krate $version ($feature), cargo test $targets"
  src="$(fetch_source "$krate" "$version")"
  plain="$WORK/$name/plain"
  typefuzz="$WORK/$name/typefuzz"
  mkdir -p "$WORK/$name"
  copy_crate "$src" "$plain" "$drop"
  copy_crate "$src" "$typefuzz" "$drop"
  changed="$(rewrite "$typefuzz" "$feature" "$extra")"
  echo "   rewrote $changed macro/API path(s) to typefuzz::${feature%%[0-9]*}"
  if [ "$changed" -eq 0 ]; then
    echo "   FAIL: nothing to rewrite in $krate $version: not a $feature suite" >&2
    status=1; summary+=("$name: FAIL (nothing rewritten)"); continue
  fi
  # shellcheck disable=SC2086
  bin_plain="$(build_tests "$plain" "$WORK/$name/build-plain.log" $targets)" || {
    echo "   FAIL: the published suite does not build plain (see $WORK/$name/build-plain.log)" >&2
    status=1; summary+=("$name: FAIL (plain build)"); continue
  }
  # shellcheck disable=SC2086
  if ! bin_typefuzz="$(build_tests "$typefuzz" "$WORK/$name/build-typefuzz.log" $targets)"; then
    echo "   FAIL: the suite does not build under typefuzz::$feature! (first errors below; full log $WORK/$name/build-typefuzz.log)" >&2
    grep -E '^error' -A6 "$WORK/$name/build-typefuzz.log" | head -40 >&2
    status=1; summary+=("$name: FAIL (does not build under typefuzz)"); continue
  fi
  rm -f "$WORK/$name"/test-*.log "$WORK/$name"/test-*.log.status
  t_plain=0; t_typefuzz=0; c_plain=0; c_typefuzz=0
  for round in $(seq "$ROUNDS"); do
    order="plain typefuzz"
    if [ $((round % 2)) -eq 0 ]; then order="typefuzz plain"; fi
    for side in $order; do
      if [ "$side" = plain ]; then
        read -r wall cpu <<< "$(timed_test "$plain" "$bin_plain" "$WORK/$name/test-plain.log")"
        t_plain="$(echo "$t_plain + $wall" | bc -l)"; c_plain="$(echo "$c_plain + $cpu" | bc -l)"
      else
        read -r wall cpu <<< "$(timed_test "$typefuzz" "$bin_typefuzz" "$WORK/$name/test-typefuzz.log")"
        t_typefuzz="$(echo "$t_typefuzz + $wall" | bc -l)"; c_typefuzz="$(echo "$c_typefuzz + $cpu" | bc -l)"
      fi
    done
  done
  ratio="$(echo "$t_typefuzz / $t_plain" | bc -l)"
  cpu_ratio="$(echo "$c_typefuzz / $c_plain" | bc -l)"
  printf '   plain:    %6.1f s wall, %6.1f s CPU over %s rounds  %s (exit %s)\n' "$t_plain" "$c_plain" "$ROUNDS" "$(counts "$WORK/$name/test-plain.log")" "$(statuses "$WORK/$name/test-plain.log")"
  printf '   typefuzz: %6.1f s wall, %6.1f s CPU over %s rounds  %s (exit %s)  = %.2fx plain wall (bar %sx), %.2fx CPU\n' "$t_typefuzz" "$c_typefuzz" "$ROUNDS" "$(counts "$WORK/$name/test-typefuzz.log")" "$(statuses "$WORK/$name/test-typefuzz.log")" "$ratio" "$RATIO" "$cpu_ratio"
  verdict="$(judge_suite "$WORK/$name" "$ratio")" || status=1
  summary+=("$name: $verdict, plain $(printf %.1f "$t_plain") s, typefuzz $(printf %.1f "$t_typefuzz") s wall over $ROUNDS rounds ($(printf %.2f "$ratio")x; CPU $(printf %.2f "$cpu_ratio")x)")
done

echo "== real suites summary"
printf '   %s\n' "${summary[@]}"
exit "$status"
