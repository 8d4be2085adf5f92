//! `Mutate::visit_leaves`: an enum reports its variant index first (a comparison that wanted
//! another variant switches to it, built like `generate` builds it), then, as a struct does,
//! each active field in declaration order. Fields with `skip` (kept at their default) or
//! `with = ...` (their own mutator may keep an invariant a substituted value would break) are
//! not visited.
//!
//! ```text
//! fn visit_leaves(&mut self, __leaves: &mut Leaves<'_>) {
//!     let __index = <Self as __Variants>::__index(self);
//!     if let Some(__variant) = __leaves.variant(__index as u64, 2u64) {
//!         let __cx = __leaves.context();
//!         let __size = __cx.size();
//!         *self = <Self as __Variants>::__fresh(__cx, __variant as usize, __size);
//!         if __leaves.is_done() { return; } // else the payload's leaves are filled in too
//!     }
//!     match self { Self::A { 0: __field0 } => { <u8 as Mutate>::visit_leaves(__field0, __leaves); } ... }
//! }
//! ```

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::{fresh_variant, match_self, variant_index};
use crate::ast::Container;

pub fn expand(container: &Container) -> TokenStream {
    let switch = if container.is_enum {
        let index = variant_index(container, quote!(self));
        let count = container.variants.len() as u64;
        let fresh = fresh_variant(
            quote!(__variant as ::core::primitive::usize),
            quote!(__size),
        );
        quote! {
            let __index: ::core::primitive::usize = #index;
            if let ::core::option::Option::Some(__variant) = __leaves.variant(__index as ::core::primitive::u64, #count) {
                let __cx = __leaves.context();
                let __size = __cx.size();
                *self = #fresh;
                // A logged variant switch may also name the new variant's payload.
                if __leaves.is_done() {
                    return;
                }
            }
        }
    } else {
        TokenStream::new()
    };
    let arms = match_self(container.variants.iter().map(|variant| {
        let pattern = variant.pattern();
        let fields: Vec<TokenStream> = (variant.active_fields())
            .filter(|field| field.attrs.with.is_none())
            .map(|field| {
                let binding = &field.binding;
                let ty = field.ty;
                quote_spanned! {field.ty_span()=>
                    if __leaves.is_done() {
                        return;
                    }
                    <#ty as ::typefuzz::Mutate>::visit_leaves(#binding, __leaves);
                }
            })
            .collect();
        (!fields.is_empty()).then(|| quote!(#pattern => { #(#fields)* }))
    }));
    quote! {
        fn visit_leaves(&mut self, __leaves: &mut ::typefuzz::__private::Leaves<'_>) {
            #switch
            #arms
        }
    }
}
