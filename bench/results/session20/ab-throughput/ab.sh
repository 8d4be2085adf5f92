#!/bin/bash
# ab3.sh OUT ROUNDS TASKS BIN... : alternating binaries, seed = round number
out=$1; rounds=$2; tasks=$3; shift 3
cd /work/main/bench
for r in $(seq 1 $rounds); do
  for b in "$@"; do
    name=$(basename $b)
    $b throughput --cap 1 --trials 2 --seed $((r * 7919)) --strategies quickcheck,typefuzz --tasks $tasks --out $out/$name-$r >/dev/null 2>&1
  done
done
echo done
