#!/usr/bin/env bash
# Regenerates the results table of README.md from the committed quick report
# (bench/results/quick/report.md), between the lines `<!-- quick-table:begin -->` and
# `<!-- quick-table:end -->`.
#
#   bash bench/readme-table.sh          rewrite README.md
#   bash bench/readme-table.sh --check  exit 1 if README.md's table differs from the report
#
# The table names the command the report records and the commit that committed the report.
set -euo pipefail
cd "$(dirname "$0")/.."

report=bench/results/quick/report.md
readme=README.md
mode=${1:-write}
case "$mode" in
  write | --check) ;;
  *) echo "usage: bash bench/readme-table.sh [--check]" >&2; exit 2 ;;
esac
[ -f "$report" ] || { echo "readme-table: $report is missing" >&2; exit 1; }
grep -q '^<!-- quick-table:begin -->$' "$readme" && grep -q '^<!-- quick-table:end -->$' "$readme" \
  || { echo "readme-table: $readme has no quick-table markers" >&2; exit 1; }

command=$(sed -n 's/^Command: `\(.*\)`.*$/\1/p' "$report" | head -n 1 | sed 's/ --out [^ ]*//')
# A shallow clone cannot tell which commit committed the report: keep the one README.md names.
if [ "$(git rev-parse --is-shallow-repository 2>/dev/null)" = true ]; then
  commit=$(sed -n 's/^`.*`, report committed in `\([0-9a-f]*\)`.*$/\1/p' "$readme" | head -n 1)
else
  commit=$(git log -1 --format=%h -- "$report" 2>/dev/null || true)
fi
[ -n "$commit" ] || commit="(not committed)"

table=$(mktemp)
trap 'rm -f "$table"' EXIT
{
  echo '<!-- quick-table:begin -->'
  echo "\`$command\`, report committed in \`$commit\` ([bench/results/quick/report.md](bench/results/quick/report.md)):"
  echo
  echo '| workload | tool | bugs found | median time to failure | worst time | tests/s |'
  echo '|---|---|---|---|---|---|'
  # The summary table's columns: workload, strategy, solved, trials found, median time,
  # worst time, capped mean, valid rate, unique valid / trial, tests/s, controls.
  awk -F' *\\| *' '
    /^## Summary/ { in_summary = 1; next }
    in_summary && /^## / { exit }
    in_summary && /^\| / && $2 != "workload" && $2 !~ /^-+$/ {
      printf "| %s | %s | %s | %s | %s | %s |\n", $2, $3, $4, $6, $7, $11
    }' "$report"
  echo '<!-- quick-table:end -->'
} >"$table"

rows=$(grep -c '^| [^w-]' "$table" || true)
[ "$rows" -gt 0 ] || { echo "readme-table: no summary rows found in $report" >&2; exit 1; }

updated=$(mktemp)
trap 'rm -f "$table" "$updated"' EXIT
awk -v table="$table" '
  /^<!-- quick-table:begin -->$/ { while ((getline line < table) > 0) print line; skipping = 1; next }
  /^<!-- quick-table:end -->$/ { skipping = 0; next }
  !skipping { print }' "$readme" >"$updated"

if [ "$mode" = --check ]; then
  if ! diff -u "$readme" "$updated"; then
    echo "readme-table: README.md's results table is stale: run bash bench/readme-table.sh" >&2
    exit 1
  fi
else
  cp "$updated" "$readme"
  echo "readme-table: README.md's table regenerated from $report ($rows rows, commit $commit)"
fi
