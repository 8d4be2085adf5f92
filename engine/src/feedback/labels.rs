//! Labels: user coverage points, recorded by [`cover!`](crate::cover) and
//! [`sometimes!`](crate::sometimes) — the "sometimes assertion" idea: coverage need not come from
//! compiler instrumentation; user labels (QuickCheck's `classify`, Antithesis's sometimes
//! assertions) are coverage points too.
//!
//! A run that hits a label no earlier run hit is interesting, exactly like a new coverage edge,
//! so labels guide the search without compiler instrumentation.

use super::recorder::{record_label, LazyId, Registry};

pub(crate) static LABELS: Registry = Registry::new();

/// One `cover!` / `sometimes!` call site (what the macros declare as a `static`).
///
/// ```
/// static SITE: typefuzz::feedback::labels::Label = typefuzz::feedback::labels::Label::new("x");
/// SITE.hit(); // outside the engine this records nothing
/// ```
pub struct Label {
    id: LazyId,
    name: &'static str,
}

impl Label {
    /// A label named `name`; labels with equal names are one coverage point.
    pub const fn new(name: &'static str) -> Self {
        Label {
            id: LazyId::new(),
            name,
        }
    }

    /// Records that the current property call reached this label.
    #[inline]
    pub fn hit(&self) {
        record_label(self.id());
    }

    /// Registers the label (so reports list it even if it is never hit) and records it if
    /// `condition` holds; returns `condition`.
    #[inline]
    pub fn sometimes(&self, condition: bool) -> bool {
        let id = self.id();
        if condition {
            record_label(id);
        }
        condition
    }

    fn id(&self) -> u32 {
        self.id.get(|| LABELS.intern(self.name, "", false))
    }
}

/// The name of label `id`.
pub(crate) fn name(id: u32) -> &'static str {
    LABELS.get(id).0
}

/// Records a user coverage point: a run that reaches a new label is interesting, so inputs that
/// get further through nested conditions are kept and mutated.
///
/// ```
/// use typefuzz::{check, cover, Config};
/// let report = check(&Config::default().with_cases(100), |cx| cx.generate::<u8>(), |x| {
///     if *x > 200 {
///         cover!("big");
///     }
/// });
/// assert!(report.failure.is_none());
/// ```
#[macro_export]
macro_rules! cover {
    ($name:expr $(,)?) => {{
        static __TYPEFUZZ_LABEL: $crate::__private::Label = $crate::__private::Label::new($name);
        __TYPEFUZZ_LABEL.hit();
    }};
}

/// A "sometimes assertion": records the label `name` whenever `condition` holds and evaluates to
/// `condition`. Labels never satisfied during a run are listed in its statistics.
///
/// ```
/// use typefuzz::{check, sometimes, Config};
/// let report = check(&Config::default().with_cases(100), |cx| cx.generate::<Vec<u8>>(), |v| {
///     sometimes!(v.len() > 3, "long vector");
/// });
/// assert!(report.stats.labels.iter().any(|l| l.name == "long vector"));
/// ```
#[macro_export]
macro_rules! sometimes {
    ($condition:expr, $name:expr $(,)?) => {{
        static __TYPEFUZZ_LABEL: $crate::__private::Label = $crate::__private::Label::new($name);
        __TYPEFUZZ_LABEL.sometimes($condition)
    }};
}
