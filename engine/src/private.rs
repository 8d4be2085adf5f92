//! What generated code and the exported macros call. Not public API: no stability promise.

pub use crate::codec::{Decoder, Encoder};
pub use crate::{Context, Mutate, Operator, Operators};
pub use core;
pub use std::{boxed::Box, vec::Vec};

mod derive_support;
pub use derive_support::*;
