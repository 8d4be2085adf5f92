# The verdict on a bounded libFuzzer run, sourced by ci.sh and by
# bench/tests/fuzz_ci_verdict.rs (which runs it on fake libFuzzer logs).

# Whether the libFuzzer run with log $1, exit status $2 and artifact prefix $3 ran its budget
# of $4 seconds and found nothing: prints why not and returns 1 otherwise.
#
# Any way a run ends other than its time running out fails: libFuzzer reports a crash, a
# timeout, an out-of-memory or a leak with an `ERROR: libFuzzer: ...` (or sanitizer `ERROR:`)
# line, leaves an artifact (<prefix>crash-*, timeout-*, oom-*, leak-*) and exits non-zero; a
# run that stops early does not print its final `Done N runs in S second(s)` after the full
# budget.
libfuzzer_verdict() {
  local log="$1" status="$2" prefix="$3" seconds="$4" error artifacts ran
  error="$(grep -m1 -E '^==[0-9]+== ?ERROR: |ERROR: libFuzzer: ' "$log" || true)"
  artifacts="$(compgen -G "$prefix*" | grep -E -- "^$prefix(crash|timeout|oom|leak)-" || true)"
  if [ -n "$error" ]; then
    echo "libFuzzer reported an error: $error${artifacts:+ (input saved to $(echo $artifacts))}"
    return 1
  fi
  if [ -n "$artifacts" ]; then
    echo "libFuzzer saved a failing input: $(echo $artifacts)"
    return 1
  fi
  if [ "$status" != 0 ]; then
    echo "exited with status $status: $(tail -5 "$log")"
    return 1
  fi
  # libFuzzer's line after its loop: `Done 123456 runs in 20 second(s)`.
  ran="$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second(s)$/\1/p' "$log" | tail -1)"
  if [ -z "$ran" ]; then
    echo "ended without libFuzzer's final line (Done N runs in S second(s)): $(tail -5 "$log")"
    return 1
  fi
  if [ "$ran" -lt "$seconds" ]; then
    echo "stopped after $ran s of its $seconds s"
    return 1
  fi
  echo "ran $ran s"
}
