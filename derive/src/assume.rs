//! The `assume!` macro (being written by the engine work; placeholder expansion).

use proc_macro2::TokenStream;

pub fn expand(input: TokenStream) -> TokenStream {
    syn::Error::new(
        proc_macro2::Span::call_site(),
        "assume! is not available yet",
    )
    .to_compile_error();
    let _ = input;
    TokenStream::new()
}
