//! A private helper trait for enums, shared by several capabilities so that each variant's
//! constructor is written once: `__fresh` builds variant `i` with freshly generated fields
//! (generation, constructor grow and drop to a variant that keeps nothing, and the input-to-state
//! variant switch all call it), `__index` is the current variant's index, and `__empty` builds
//! a variant without active fields (shrink candidates).
//!
//! ```text
//! trait __Variants: Sized {
//!     fn __fresh(__cx: &mut Context, __variant: usize, __size: usize) -> Self;
//!     fn __index(&self) -> usize;
//!     fn __empty(__variant: usize) -> Self; // only when such variants exist
//! }
//! ```
//!
//! The trait is declared inside the derive's `const _: () = { ... };` block, so it is invisible
//! to the rest of the user's crate.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{ImplGenerics, TypeGenerics, WhereClause};

use super::construct;
use super::generate::fresh_field;
use crate::ast::{Container, Variant};

/// The trait and its impl for `container` (an enum; structs need none of it).
pub fn expand(
    container: &Container,
    impl_generics: &ImplGenerics,
    type_generics: &TypeGenerics,
    where_clause: Option<&WhereClause>,
) -> TokenStream {
    if !container.is_enum {
        return TokenStream::new();
    }
    let ident = container.ident;
    let last = container.variants.len() - 1;
    let fresh = container
        .variants
        .iter()
        .enumerate()
        .map(|(index, variant)| {
            let value = construct(variant, |field| fresh_field(variant, field));
            if index == last {
                quote!(_ => #value,)
            } else {
                quote!(#index => #value,)
            }
        });
    let index = container
        .variants
        .iter()
        .enumerate()
        .map(|(index, variant)| {
            let pattern = variant.pattern_any();
            quote!(#pattern => #index,)
        });
    let empties: Vec<(usize, &Variant)> = (container.variants.iter().enumerate())
        .filter(|(_, variant)| variant.active_fields().next().is_none())
        .collect();
    let empty: Vec<TokenStream> = (empties.iter().enumerate())
        .map(|(position, (index, variant))| {
            let value = construct(variant, |field| {
                let ty = field.ty;
                quote!(<#ty as ::core::default::Default>::default())
            });
            // Callers pass empty variants only: the last one's arm is the fallback.
            if position + 1 == empties.len() {
                quote!(_ => #value,)
            } else {
                quote!(#index => #value,)
            }
        })
        .collect();
    let (empty_declaration, empty_definition) = if empty.is_empty() {
        (TokenStream::new(), TokenStream::new())
    } else {
        (
            quote!(
                fn __empty(__variant: ::core::primitive::usize) -> Self;
            ),
            quote! {
                fn __empty(__variant: ::core::primitive::usize) -> Self {
                    match __variant { #(#empty)* }
                }
            },
        )
    };
    quote! {
        trait __Variants: ::core::marker::Sized {
            fn __fresh(
                __cx: &mut ::typefuzz::Context,
                __variant: ::core::primitive::usize,
                __size: ::core::primitive::usize,
            ) -> Self;
            fn __index(&self) -> ::core::primitive::usize;
            #empty_declaration
        }

        #[automatically_derived]
        #[allow(unused_variables)]
        impl #impl_generics __Variants for #ident #type_generics #where_clause {
            // Inlined into `generate`, its hot caller (one call per generated node otherwise).
            #[inline]
            fn __fresh(
                __cx: &mut ::typefuzz::Context,
                __variant: ::core::primitive::usize,
                __size: ::core::primitive::usize,
            ) -> Self {
                match __variant { #(#fresh)* }
            }

            fn __index(&self) -> ::core::primitive::usize {
                match self { #(#index)* }
            }

            #empty_definition
        }
    }
}
