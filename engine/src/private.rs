//! What generated code and the exported macros call. Not public API: no stability promise.

// What `#[derive(Mutate)]` expands to calls the type model.
pub use typefuzz_core::__private::*;

// What `cover!`, `sometimes!`, `target!` and `assume!` expand to.
pub use crate::feedback::assume::log_integers as cmplog_numbers;
pub use crate::feedback::assume::{
    boolean as assume_boolean, eq as assume_eq, le as assume_le, lt as assume_lt,
    not as assume_not, AssumeSite, Number as AssumeNumber, Operand as AssumeOperand,
    ViaNumber as AssumeViaNumber, ViaOther as AssumeViaOther,
};
pub use crate::feedback::cmplog::{
    CompareBytes as CmpLogViaBytes, CompareMutate as CmpLogViaMutate,
    CompareOther as CmpLogViaOther, CompareScalar as CmpLogViaScalar, Operands as CmpLogOperands,
};
pub use crate::feedback::labels::Label;
pub use crate::feedback::targets::{Target, TargetValue};
pub use crate::outcome::Discard;
