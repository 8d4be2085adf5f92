#!/bin/bash
# Fastest of N builds of each -Ztime-passes entry (>= 0.02 s) for one compile-time crate.
# Usage: time-passes-min.sh CRATE [TREE (default /work/main)] [N]; stable rustc through RUSTC_BOOTSTRAP.
crate=$1; ws=${2:-/work/main}; n=${3:-5}
cd $ws/target/compile-time
for i in $(seq $n); do
  touch $crate/src/lib.rs
  CARGO_INCREMENTAL=0 RUSTC_BOOTSTRAP=1 cargo rustc -q -p $crate -- -Ztime-passes 2>&1 | awk '{print $NF, $2}' | tr -d ';'
done | awk '{ if (!($1 in m) || $2+0 < m[$1]) m[$1]=$2+0; if (!($1 in o)) {o[$1]=++k; n[k]=$1} } END { for (i=1;i<=k;i++) if (m[n[i]] >= 0.02) printf "%-45s %.3f\n", n[i], m[n[i]] }'
