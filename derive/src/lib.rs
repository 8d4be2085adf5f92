//! `#[derive(Mutate)]` (work in progress).
use proc_macro::TokenStream;

/// Derives `typefuzz::Mutate`.
#[proc_macro_derive(Mutate, attributes(mutate))]
pub fn derive_mutate(input: TokenStream) -> TokenStream {
    let _ = input;
    TokenStream::new()
}
