//! # typefuzz
//!
//! Coverage-guided, property-based testing for Rust: `#[derive(Mutate)]` synthesizes type-aware
//! mutators (FuzzChick's recursive, subterm, constructor-drop and constructor-grow operators) for
//! your structs and enums, and one engine runs the two-queue coverage-guided loop under your
//! existing proptest, quickcheck and cargo-fuzz harnesses.
//!
//! ```
//! use typefuzz::{Context, Mutate};
//!
//! #[derive(Clone, Debug, PartialEq, Mutate)]
//! enum Tree<A> {
//!     Leaf(A),
//!     Node(A, Box<Tree<A>>, Box<Tree<A>>),
//! }
//!
//! let mut cx = Context::new(1);
//! let mut tree: Tree<u8> = cx.generate();
//! cx.mutate(&mut tree);
//! ```
#![deny(missing_docs)]

pub use typefuzz_engine::*;

/// Derives [`Mutate`]: generation, type-aware mutation, shrinking and the byte codec.
///
/// See the crate documentation and [`Mutate`] for the semantics and attributes.
#[cfg(feature = "derive")]
pub use typefuzz_derive::Mutate;
