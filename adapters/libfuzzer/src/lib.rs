//! typefuzz adapter for libfuzzer (work in progress).
#![deny(missing_docs)]
