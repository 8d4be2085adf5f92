#!/usr/bin/env python3
"""Times two commands side by side: A and B run in turn (A B A B ...), after one warm-up run of
each, and the ratios A/B are taken pair by pair, so a drift in the machine's speed during the
call moves both alike. Wall time is a monotonic clock around each run; CPU time is the finished
child's user + system time as the kernel accounts it (os.wait4).

Usage: pairs.py RUNS 'COMMAND A' 'COMMAND B'   (each command split as a shell splits words)
Prints one line: the medians of A's and B's wall and CPU milliseconds and of the pair ratios,
    wall_a wall_b wall_ratio cpu_a cpu_b cpu_ratio
"""
import os
import shlex
import statistics
import subprocess
import sys
import time


def run(command):
    start = time.perf_counter()
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"pairs.py: {shlex.join(command)} exited with {child.returncode}")
    return wall * 1e3, (usage.ru_utime + usage.ru_stime) * 1e3


def main():
    runs, a, b = int(sys.argv[1]), shlex.split(sys.argv[2]), shlex.split(sys.argv[3])
    run(a)
    run(b)
    pairs = [(run(a), run(b)) for _ in range(runs)]
    median = statistics.median
    wall_a, wall_b = median(p[0][0] for p in pairs), median(p[1][0] for p in pairs)
    cpu_a, cpu_b = median(p[0][1] for p in pairs), median(p[1][1] for p in pairs)
    wall_ratio = median(p[0][0] / p[1][0] for p in pairs)
    cpu_ratio = median(p[0][1] / max(p[1][1], 1e-3) for p in pairs)
    print(f"{wall_a:.1f} {wall_b:.1f} {wall_ratio:.2f} {cpu_a:.1f} {cpu_b:.1f} {cpu_ratio:.2f}")


main()
