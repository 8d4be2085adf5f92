//! Error collection: every user mistake is recorded and all are reported together.

use std::cell::RefCell;

/// Collects `syn::Error`s; [`Ctxt::check`] must be called (serde's `Ctxt` discipline).
#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    pub fn push(&self, error: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after check")
            .push(error);
    }

    pub fn error(&self, span: impl quote::ToTokens, message: impl std::fmt::Display) {
        self.push(syn::Error::new_spanned(span, message));
    }

    /// Consumes the collected errors: `Err` with all of them combined, or `Ok`.
    pub fn check(self) -> syn::Result<()> {
        let errors = self.errors.borrow_mut().take().expect("Ctxt checked twice");
        let mut iter = errors.into_iter();
        match iter.next() {
            None => Ok(()),
            Some(mut first) => {
                for rest in iter {
                    first.combine(rest);
                }
                Err(first)
            }
        }
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("typefuzz-derive: Ctxt dropped without check()");
        }
    }
}
