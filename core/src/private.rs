//! What generated code calls. Not public API: no stability promise.

pub use crate::codec::{smallest, Decoder, Encoder};
pub use crate::fingerprint::Fingerprint;
pub use crate::leaves::Leaves;
pub use crate::mutate::ValueHasher;
pub use crate::structure::Structure;
pub use crate::{Context, Mutate, Operator, Operators};
pub use core;
pub use std::{boxed::Box, vec::Vec};

mod derive_support;
pub use derive_support::*;
