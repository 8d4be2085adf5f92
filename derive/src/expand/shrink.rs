//! `Mutate::shrink`: same-type descendants first (children, then grandchildren, ... so a node
//! can be replaced by a descendant at any depth), then simpler variants, then each field shrunk.
//!
//! Every candidate is strictly smaller in the order (number of nodes, variant index): a subterm
//! (at any depth) or a drop to a variant with fewer fields loses at least one node; a switch between unit
//! variants only goes to a lower index; a shrunk field is smaller by the field type's own order.

use proc_macro2::TokenStream;
use quote::quote;

use super::transition::{cloned, is_drop};
use super::{construct, match_self, variant_index};
use crate::ast::Container;

pub fn expand(container: &Container) -> TokenStream {
    let recursive_type = container
        .variants
        .iter()
        .any(|v| v.fields.iter().any(|f| f.recursive));
    let subterms =
        recursive_type.then(|| quote!(::typefuzz::__private::clone_descendants(self, &mut __out);));
    let simpler = simpler(container);
    let arms = match_self(container.variants.iter().map(|from| {
        from.active_fields().next()?;
        let pattern = from.pattern();
        let field_shrinks = from.active_fields().map(|shrunk| {
            let binding = &shrunk.binding;
            let ty = shrunk.ty;
            let value = construct(from, |field| {
                if std::ptr::eq(field, shrunk) {
                    quote!(__candidate)
                } else {
                    super::copy_field(field)
                }
            });
            // `Field::shrinks` hands them out in order by `pop` (no `vec::IntoIter` compiled
            // per field type, and no `Vec` of candidates at all for `Option` and `Box` fields).
            // A block each: a `Vec` field's candidates hold `__cx` until they are dropped.
            quote! {{
                let mut __candidates = (&::typefuzz::__private::Field(#binding))
                    .shrinks(__cx, <#ty as ::typefuzz::Mutate>::shrink);
                while let ::core::option::Option::Some(__candidate) = __candidates.pop() {
                    __out.push(#value);
                }
            }}
        });
        Some(quote!(#pattern => { #(#field_shrinks)* }))
    }));
    // One depth check for every variant's field loops: past the bound, fields get no
    // candidates.
    let arms = quote! {
        if __cx.depth() < ::typefuzz::__private::MAX_MUTATION_DEPTH {
            use ::typefuzz::__private::{
                ShrinkAny as _, ShrinkBox as _, ShrinkOption as _, ShrinkVec as _,
            };
            #arms
        }
    };
    // A value deeper than the mutation bound gets only its same-type subterms as candidates
    // (pushed first): each is at least one level shallower, so shrinking makes progress (one
    // clone per candidate, bounded by the shrink budget) without descending into fields level
    // by level, which would clone the deep value once per level.
    let too_deep = recursive_type.then(|| {
        quote! {
            if ::typefuzz::__private::deeper_than(self, ::typefuzz::__private::MAX_MUTATION_DEPTH) {
                return __out;
            }
        }
    });
    // Too deep to clone safely (the subterm candidates below clone): no candidates at all.
    let unclonable = recursive_type.then(|| {
        quote! {
            if ::typefuzz::__private::deeper_than(self, ::typefuzz::__private::MAX_SHRINK_CLONE_DEPTH) {
                return ::typefuzz::__private::Vec::new();
            }
        }
    });
    quote! {
        #unclonable
        let mut __out = ::typefuzz::__private::Vec::new();
        #subterms
        #too_deep
        #simpler
        #arms
        __out
    }
}

/// The simpler variants of the current one, in index order, from one table row per variant:
/// the variants with fewer active fields that can be filled from the current one's (a drop),
/// and for a variant without active fields the earlier such variants. Targets without active
/// fields (most of them) come from `__Variants::__empty`; one match arm per pair builds those
/// that take fields.
fn simpler(container: &Container) -> TokenStream {
    let variants = &container.variants;
    let mut rows = Vec::new();
    let mut taking = Vec::new();
    let mut any_empty = false;
    for (from_index, from) in variants.iter().enumerate() {
        let from_fields = from.active_fields().count();
        let mut row = Vec::new();
        for (to_index, to) in variants.iter().enumerate() {
            let to_fields = to.active_fields().count();
            let fewer = to_fields < from_fields && is_drop(from, to);
            let earlier_empty = to_fields == 0 && from_fields == 0 && to_index < from_index;
            if !(fewer || earlier_empty) {
                continue;
            }
            row.push(to_index);
            if to_fields == 0 {
                any_empty = true;
            } else {
                let pattern = from.pattern();
                let value = cloned(from, to);
                taking.push(quote!((#pattern, #to_index) => #value,));
            }
        }
        rows.push(row);
    }
    if rows.is_empty() || (!any_empty && taking.is_empty()) {
        return TokenStream::new();
    }
    let index = variant_index(container, quote!(self));
    let fallback = if any_empty {
        quote!(<Self as __Variants>::__empty(__to))
    } else {
        // Every target took fields: the table holds no other.
        quote!(continue)
    };
    let (element, rows) = super::index_tables(&rows);
    quote! {
        const __SIMPLER: &[&[#element]] = #rows;
        for &__to in __SIMPLER[#index] {
            let __to = __to as ::core::primitive::usize;
            __out.push(match (self, __to) {
                #(#taking)*
                _ => #fallback,
            });
        }
    }
}
