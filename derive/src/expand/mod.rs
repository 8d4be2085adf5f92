//! Code generation: one file per generated capability.

mod codec;
mod generate;
mod mutate;
mod shrink;
mod structure;
mod subterms;
mod transition;

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::{Container, Variant};

pub fn expand(container: &Container) -> TokenStream {
    let ident = container.ident;
    let generics = crate::bound::with_bounds(container);
    let (impl_generics, type_generics, where_clause) = generics.split_for_impl();
    let generate = generate::expand(container);
    let mutate = mutate::expand(container);
    let shrink = shrink::expand(container);
    let encode = codec::expand_encode(container);
    let decode = codec::expand_decode(container);
    let subterms = subterms::expand(container);
    let structure = structure::expand(container);
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::all, clippy::pedantic)]
        const _: () = {
            #[automatically_derived]
            #[allow(unused_variables, unused_mut, unreachable_patterns, unreachable_code)]
            impl #impl_generics ::typefuzz::Mutate for #ident #type_generics #where_clause {
                fn generate(__cx: &mut ::typefuzz::Context) -> Self {
                    #generate
                }

                fn mutate(&mut self, __cx: &mut ::typefuzz::Context) {
                    #mutate
                }

                fn shrink(&self, __cx: &mut ::typefuzz::Context) -> ::typefuzz::__private::Vec<Self> {
                    #shrink
                }

                fn encode(&self, __out: &mut ::typefuzz::__private::Encoder) {
                    #encode
                }

                fn decode(__input: &mut ::typefuzz::__private::Decoder<'_>) -> Self {
                    #decode
                }

                #subterms

                #structure
            }
        };
    }
}

/// `match self { Self::A { .. } => 0usize, ... }`: the index of the current variant.
fn variant_index(container: &Container, scrutinee: TokenStream) -> TokenStream {
    if !container.is_enum {
        return quote!(0usize);
    }
    let arms = container
        .variants
        .iter()
        .enumerate()
        .map(|(index, variant)| {
            let pattern = variant.pattern_any();
            quote!(#pattern => #index,)
        });
    quote!(match #scrutinee { #(#arms)* })
}

/// `Self::V { a: <expr a>, b: <expr b> }` for every field of `variant`.
fn construct(
    variant: &Variant,
    mut value: impl FnMut(&crate::ast::Field) -> TokenStream,
) -> TokenStream {
    let path = variant.path();
    let fields = variant.fields.iter().map(|field| {
        let member = &field.member;
        let value = value(field);
        quote!(#member: #value)
    });
    quote!(#path { #(#fields),* })
}
