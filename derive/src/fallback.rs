//! On error: the `compile_error!`s plus a stub impl, so users see the real mistake and not a
//! cascade of "the trait `Mutate` is not implemented" errors where the type is used.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

pub fn expand(input: &DeriveInput, error: syn::Error) -> TokenStream {
    let errors = error.to_compile_error();
    let ident = &input.ident;
    // `Self: Clone` keeps the stub from adding a second error when the type's own `Clone`
    // needs bounds the failed derive could not infer.
    let mut generics = input.generics.clone();
    let (_, type_generics, _) = input.generics.split_for_impl();
    generics
        .make_where_clause()
        .predicates
        .push(syn::parse_quote!(#ident #type_generics: ::core::clone::Clone));
    let (impl_generics, type_generics, where_clause) = generics.split_for_impl();
    if matches!(input.data, syn::Data::Union(_)) {
        return errors;
    }
    quote! {
        #errors
        #[allow(unused_variables)]
        const _: () = {
            impl #impl_generics ::typefuzz::Mutate for #ident #type_generics #where_clause {
                fn generate(__cx: &mut ::typefuzz::Context) -> Self {
                    ::core::unimplemented!("#[derive(Mutate)] failed")
                }
                fn mutate(&mut self, __cx: &mut ::typefuzz::Context) {}
                fn shrink(&self, __cx: &mut ::typefuzz::Context) -> ::typefuzz::__private::Vec<Self> {
                    ::typefuzz::__private::Vec::new()
                }
                fn encode(&self, __out: &mut ::typefuzz::__private::Encoder) {}
                fn decode(__input: &mut ::typefuzz::__private::Decoder<'_>) -> Self {
                    ::core::unimplemented!("#[derive(Mutate)] failed")
                }
            }
        };
    }
}
