//! The typefuzz type model: what a type must offer to be generated, mutated, shrunk, saved and
//! observed — the [`Mutate`] trait and its impls for the standard library's types, the mutation
//! [`Context`] and its named [`Operator`]s, the byte [`codec`], shape [`fingerprint`]s, and the
//! two visitors feedback reads inputs through ([`structure::Structure`] for input-structure
//! coverage, [`leaves::Leaves`] for input-to-state comparisons).
//!
//! ```
//! use typefuzz_core::{Context, Mutate};
//!
//! #[derive(Clone, Debug, PartialEq, typefuzz_derive::Mutate)]
//! #[mutate(crate = "typefuzz_core")]
//! enum Tree {
//!     Leaf(u8),
//!     Node(Box<Tree>, Box<Tree>),
//! }
//!
//! let mut cx = Context::new(7);
//! let mut tree: Tree = cx.generate();
//! cx.mutate(&mut tree);
//! let bytes = typefuzz_core::codec::to_bytes(&tree);
//! assert_eq!(typefuzz_core::codec::from_bytes::<Tree>(&bytes), tree);
//! ```
//!
//! Most users depend on the `typefuzz` facade, which re-exports this crate (through the engine)
//! with `#[derive(Mutate)]`, whose output names the facade: there the derive needs no
//! `#[mutate(crate = ...)]` (the examples here use the derive on this crate alone). The layers: the derive writes impls of this crate's trait; the
//! engine runs the loop over any `Mutate` type and observes inputs only through the visitors
//! defined here; the adapters and the facade sit on the engine. This crate imports nothing from
//! the engine, does no I/O and keeps no thread-local state: what a run hands a mutator travels
//! in the [`Context`].
#![deny(missing_docs)]

mod byte_hash;
pub mod codec;
pub mod fingerprint;
pub mod leaves;
pub mod mutate;
pub mod structure;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use mutate::{Context, Mutate, Operator, Operators, ValueHasher};
