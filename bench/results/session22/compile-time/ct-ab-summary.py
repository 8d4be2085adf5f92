"""Medians of a `bench/results/session19/compile-time/ct-ab.sh` log: per workspace, each crate's build time and the derive ratios."""
import collections, statistics, sys
times = collections.defaultdict(list)
for line in open(sys.argv[1]):
    ws, crate, t = line.split()
    times[(ws, crate)].append(float(t))
for ws in sorted({ws for ws, _ in times}):
    med = {c: statistics.median(v) for (w, c), v in times.items() if w == ws}
    for shape in ("enum30", "mutual"):
        plain, tf, arb = med["plain-" + shape], med["typefuzz-" + shape], med["arbitrary-" + shape]
        print(f"{ws} {shape}: plain {plain:.2f} s, Mutate {tf:.2f} s, Arbitrary {arb:.2f} s, "
              f"ratio {(tf - plain) / (arb - plain):.2f}x (n={len(times[(ws, 'typefuzz-' + shape)])})")
