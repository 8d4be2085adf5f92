//! What generated code and the exported macros call. Not public API: no stability promise.

pub use crate::codec::{smallest, Decoder, Encoder};
pub use crate::fingerprint::Fingerprint;
pub use crate::{Context, Mutate, Operator, Operators};
pub use core;
pub use std::{boxed::Box, vec::Vec};

mod derive_support;
pub use derive_support::*;

// What `cover!`, `sometimes!`, `target!` and `assume!` expand to.
pub use crate::feedback::assume::log_integers as cmplog_numbers;
pub use crate::feedback::assume::{
    boolean as assume_boolean, eq as assume_eq, le as assume_le, lt as assume_lt,
    not as assume_not, AssumeSite, Number as AssumeNumber, Operand as AssumeOperand,
    ViaNumber as AssumeViaNumber, ViaOther as AssumeViaOther,
};
pub use crate::feedback::cmplog::{
    CompareBytes as CmpLogViaBytes, CompareMutate as CmpLogViaMutate,
    CompareOther as CmpLogViaOther, CompareScalar as CmpLogViaScalar, Leaves,
    Operands as CmpLogOperands,
};
pub use crate::feedback::labels::Label;
pub use crate::feedback::structure::Structure;
pub use crate::feedback::targets::{Target, TargetValue};
pub use crate::mutate::ValueHasher;
pub use crate::outcome::Discard;
