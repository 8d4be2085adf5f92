#!/bin/bash -eu
# Builds the cargo-fuzz targets with the sanitizer ClusterFuzzLite asks for (base-builder-rust
# sets the flags; `cargo fuzz build -O` is the standard OSS-Fuzz Rust recipe) and installs them.
# CFL_CARGO_FUZZ_FLAGS adds flags to that build: fuzz/ci.sh runs this script with `-s none` on
# stable Rust to check what it ships.
cd "$SRC/typefuzz"
cargo fuzz build -O ${CFL_CARGO_FUZZ_FLAGS:-}
release=fuzz/target/x86_64-unknown-linux-gnu/release
for target in enum_vector codec_decode derive_invariants regression_file; do
    cp "$release/$target" "$OUT/"
done
# The typed target compares enum payloads against constants: let libFuzzer's value profile see
# how close each comparison came (as fuzz/ci.sh and fuzz/compare.sh run it).
printf '[libfuzzer]\nuse_value_profile = 1\n' > "$OUT/enum_vector.options"
