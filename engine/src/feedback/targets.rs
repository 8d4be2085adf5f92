//! Targets: numbers the search maximizes, recorded by [`target!`](crate::target) — targeted
//! property-based testing (Löscher and Sagonas): the state is the best value seen so far, each
//! run observes a number, and the update keeps the maximum.
//!
//! A run that raises a target's best value is interesting.

use super::recorder::{record_target, LazyId, Registry};

pub(crate) static TARGETS: Registry = Registry::new();

/// One named target (what [`target!`](crate::target) declares as a `static`).
///
/// ```
/// static T: typefuzz::feedback::targets::Target = typefuzz::feedback::targets::Target::new("len");
/// T.observe(3.0); // outside the engine this records nothing
/// ```
pub struct Target {
    id: LazyId,
    name: &'static str,
}

impl Target {
    /// A target named `name`; targets with equal names are one quantity.
    pub const fn new(name: &'static str) -> Self {
        Target {
            id: LazyId::new(),
            name,
        }
    }

    /// Records `value` for the current property call (the maximum counts if called repeatedly).
    #[inline]
    pub fn observe(&self, value: f64) {
        let id = self.id.get(|| TARGETS.intern(self.name, "", false));
        record_target(id, value);
    }
}

/// The name of target `id`.
pub(crate) fn name(id: u32) -> &'static str {
    TARGETS.get(id).0
}

/// Numbers [`target!`](crate::target) accepts: every primitive integer and float type.
///
/// ```
/// use typefuzz::feedback::targets::TargetValue;
/// assert_eq!(3u8.to_target(), 3.0);
/// ```
pub trait TargetValue {
    /// The value as an `f64` (large integers round).
    fn to_target(&self) -> f64;
}

macro_rules! target_value {
    ($($t:ty),*) => {$(
        impl TargetValue for $t {
            #[inline]
            fn to_target(&self) -> f64 {
                *self as f64
            }
        }
    )*};
}
target_value!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64);

impl<T: TargetValue + ?Sized> TargetValue for &T {
    fn to_target(&self) -> f64 {
        (**self).to_target()
    }
}

/// Asks the search to maximize a number: runs that raise its best value are kept and mutated.
/// `target!(value)` names the target after its call site; `target!("name", value)` names it.
///
/// ```
/// use typefuzz::{check, target, Config};
/// let report = check(&Config::default().with_cases(200), |cx| cx.generate::<Vec<u8>>(), |v| {
///     target!("length", v.len());
///     target!(v.iter().map(|&b| b as u32).sum::<u32>());
/// });
/// assert!(report.failure.is_none());
/// ```
#[macro_export]
macro_rules! target {
    ($name:literal, $value:expr $(,)?) => {{
        static __TYPEFUZZ_TARGET: $crate::__private::Target = $crate::__private::Target::new($name);
        __TYPEFUZZ_TARGET.observe($crate::__private::TargetValue::to_target(&$value));
    }};
    ($value:expr $(,)?) => {{
        static __TYPEFUZZ_TARGET: $crate::__private::Target =
            $crate::__private::Target::new(::core::concat!(::core::file!(), ":", ::core::line!()));
        __TYPEFUZZ_TARGET.observe($crate::__private::TargetValue::to_target(&$value));
    }};
}
