"""LLVM IR lines per function of a `.ll` file emitted with v0 symbol mangling, so that each
instantiation is named with its type arguments, summed for the names containing PATTERN.

    cd target/compile-time && touch typefuzz-mutual/src/lib.rs &&
    CARGO_INCREMENTAL=0 cargo rustc -p typefuzz-mutual -- --emit=llvm-ir \
        -C symbol-mangling-version=v0 -C codegen-units=1
    python3 ll-by-type.py target/debug/deps/typefuzz_mutual-*.ll "m1::" [TOP]

Needs `llvm-cxxfilt` (demangles Rust v0 symbols)."""
import collections, re, subprocess, sys

path, pattern = sys.argv[1], sys.argv[2]
top = int(sys.argv[3]) if len(sys.argv) > 3 else 60
names, counts, current, lines = [], [], None, 0
for line in open(path):
    if line.startswith("define"):
        current, lines = re.search(r'@("?)([^\s(]+)\1\(', line).group(2), 0
    elif current is not None:
        if line.startswith("}"):
            names.append(current)
            counts.append(lines)
            current = None
        else:
            lines += 1
demangled = subprocess.run(["llvm-cxxfilt"], input="\n".join(names), capture_output=True,
                           text=True).stdout.split("\n")
total = collections.Counter()
for name, count in zip(demangled, counts):
    name = re.sub(r"\[[0-9a-f]{16}\]", "", name)
    if pattern in name:
        total[name] += count
print("matching", sum(total.values()), "all", sum(counts))
for name, count in total.most_common(top):
    print(count, name)
