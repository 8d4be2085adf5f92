//! typefuzz adapter for quickcheck (work in progress).
#![deny(missing_docs)]
