#!/usr/bin/env bash
set -euo pipefail
# cargo-typefuzz: the sancov path on stable, end to end (paste into .ci/run).
# Unit tests and the quick subcommand checks, then the ignored end-to-end tests: `cargo typefuzz
# test` on cargo-typefuzz/tests/fixture must find the magic word that only coverage reveals
# (plain `cargo test` must not), with and without --trace-compares, and every unit test and
# doctest of the fixture workspace (including a member without typefuzz) must link and pass;
# `cargo typefuzz test -j 2` must run two workers per property that import each other's seeds
# and find the magic word (engine/tests/workers.rs checks the same without instrumentation).
# Takes ~3-6 minutes on 2 cores (three builds of typefuzz + fixture).
cargo test -p cargo-typefuzz
cargo clippy -p cargo-typefuzz --all-targets -- -D warnings
cargo test -p cargo-typefuzz --test e2e -- --ignored --test-threads=1
