//! typefuzz adapter for proptest (work in progress).
#![deny(missing_docs)]
