//! The test attributes `#[quickcheck]` (quickcheck_macros' syntax) and `#[proptest]`
//! (test-strategy's syntax): each rewrites the annotated function into an invocation of the
//! matching function-like drop-in (`typefuzz::quickcheck!`, `typefuzz::proptest!`), so the
//! semantics of a property live in one place.

pub mod proptest;
pub mod quickcheck;

use proc_macro2::TokenStream;
use syn::spanned::Spanned;
use syn::{Error, Signature};

/// Rejects signature forms neither drop-in can run, naming what to write instead.
fn check_signature(sig: &Signature, attribute: &str) -> syn::Result<()> {
    let unsupported = |tokens: &dyn quote::ToTokens, what: &str| {
        Err(Error::new_spanned(
            tokens,
            format!("{attribute} does not support {what}; write a plain `fn name(arg: Type, ...)`"),
        ))
    };
    if let Some(token) = &sig.constness {
        return unsupported(token, "`const fn`");
    }
    if let Some(token) = &sig.asyncness {
        return unsupported(
            token,
            "`async fn`: block on the future inside a synchronous property",
        );
    }
    if let Some(token) = &sig.unsafety {
        return unsupported(token, "`unsafe fn`");
    }
    if let Some(abi) = &sig.abi {
        return unsupported(abi, "an `extern` ABI");
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        return unsupported(
            &sig.generics,
            "generic properties: pick the concrete types to test",
        );
    }
    if let Some(variadic) = &sig.variadic {
        return unsupported(variadic, "variadic arguments");
    }
    Ok(())
}

/// Parses the item under the attribute as a function, or explains what the attribute takes.
fn parse_fn(item: TokenStream, attribute: &str) -> syn::Result<syn::ItemFn> {
    syn::parse2(item.clone()).map_err(|_| {
        Error::new(
            item.span(),
            format!(
                "{attribute} applies to a function: `{attribute} fn name(arg: Type) {{ ... }}`"
            ),
        )
    })
}
