# The real-suite step's verdict, sourced by run.sh and by bench/tests/real_suites_verdict.rs
# (which runs it on fake test binaries): how one test run is timed and recorded, and whether a
# suite's plain and typefuzz runs pass the step.
#
# Globals read: TIMEOUT (seconds per test run), KILL_AFTER (seconds from the timeout's SIGTERM
# to its SIGKILL, default 10), RATIO (the wall-time bar), RATIO_FATAL (0: a wall time over the
# bar is reported, not fatal).

# Runs test binary $2 of the crate in $1 as `cargo test` would; appends its output to log $3 and
# its exit status as one line to $3.status (one line per round), and prints "wall cpu" in
# seconds. A binary that ignores the timeout's SIGTERM is killed KILL_AFTER s later (exit 137).
timed_test() {
  local dir="$1" binary="$2" log="$3" status times
  local TIMEFORMAT='%R %U %S'
  set +e
  times="$( { time (cd "$dir" && CARGO_MANIFEST_DIR="$dir" timeout -k "${KILL_AFTER:-10}" "$TIMEOUT" "$binary" --test-threads=1 >>"$log" 2>&1) ; } 2>&1 )"
  status=$?
  set -e
  echo "$status" >> "$log.status"
  # `time`'s line is the last (a shell's note on a killed child would come before it).
  echo "$times" | tail -n 1 | awk '{printf "%.3f %.3f\n", $1, $2 + $3}'
}

failed_tests() { grep -E '^test .* \.\.\. FAILED$' "$1" | sed -E 's/^test (.*) \.\.\. FAILED$/\1/' | sort -u; }
# The last round's counts (a log holds every round).
counts() { grep -E '^test result:' "$1" | tail -1 | awk '{printf "%d passed, %d failed", $4, $6}'; }
# The rounds' exit statuses of log $1, space-separated.
statuses() { tr '\n' ' ' < "$1.status" | sed 's/ $//'; }

# Whether the suite whose logs are $1/test-plain.log and $1/test-typefuzz.log (each with its
# .status file) passes the step, its typefuzz wall time being $2 x plain: prints the verdict
# ("ok", "FAIL (...)", or "over the wall-time bar (not fatal)") on stdout and why on stderr;
# returns 1 if the suite fails the step.
judge_suite() {
  local dir="$1" ratio="$2" verdict="ok" failed=0
  local plain="$dir/test-plain.log" typefuzz="$dir/test-typefuzz.log"
  local false_failures both s why
  false_failures="$(comm -13 <(failed_tests "$plain") <(failed_tests "$typefuzz"))"
  both="$(comm -12 <(failed_tests "$plain") <(failed_tests "$typefuzz"))"
  if [ -n "$both" ]; then echo "   note: failing plain too (not counted): $(echo $both)" >&2; fi
  if [ -n "$false_failures" ]; then
    echo "   FAIL: false failures (pass plain, fail under typefuzz): $(echo $false_failures)" >&2
    verdict="FAIL (false failures)"; failed=1
  fi
  # A round that ends other than with libtest's own verdict (0 all passed, 101 a test failed)
  # did not finish the suite: the timeout (124; 137 if the binary ignored its SIGTERM), a hang
  # (exit 70, typefuzz's per-test limit), an abort or another signal (128+N). Each such round
  # fails the step whatever the FAILED lines say, unless a plain round ended the same way.
  for s in $(statuses "$typefuzz"); do
    why=""
    if [ "$s" = 124 ]; then
      why="timeout: the run passed the ${TIMEOUT} s limit"
    elif [ "$s" != 0 ] && [ "$s" != 101 ] && ! grep -qx "$s" "$plain.status"; then
      why="exit $s"
      [ "$s" = 70 ] && why="$why, a hang"
      [ "$s" -gt 128 ] && why="$why, signal $((s - 128))"
    elif [ "$s" = 101 ] && [ -z "$(failed_tests "$typefuzz")" ]; then
      why="exit 101 without a failing test: a panic outside the tests"
    fi
    if [ -n "$why" ]; then
      echo "   FAIL: the typefuzz test binary did not finish the suite ($why; plain: exit $(statuses "$plain")); last lines of $typefuzz:" >&2
      tail -n 15 "$typefuzz" | sed 's/^/     /' >&2
      [ "$failed" = 1 ] || verdict="FAIL ($why)"
      failed=1
      break
    fi
  done
  if [ "$failed" = 0 ] && [ "$(echo "$ratio > $RATIO" | bc -l)" = 1 ]; then
    if [ "$RATIO_FATAL" = 0 ]; then
      echo "   OVER THE BAR (reported, not fatal: REAL_SUITES_RATIO_FATAL=0): wall time $(printf %.2f "$ratio")x plain exceeds ${RATIO}x" >&2
      verdict="over the wall-time bar (not fatal)"
    else
      echo "   FAIL: wall time $(printf %.2f "$ratio")x plain exceeds ${RATIO}x" >&2
      verdict="FAIL (wall time)"; failed=1
    fi
  fi
  echo "$verdict"
  return "$failed"
}
