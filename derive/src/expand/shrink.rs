//! `Mutate::shrink`: same-type descendants first (children, then grandchildren, ... so a node
//! can be replaced by a descendant at any depth), then simpler variants, then each field shrunk.
//!
//! Every candidate is strictly smaller in the order (number of nodes, variant index): a subterm
//! (at any depth) or a drop to a variant with fewer fields loses at least one node; a switch between unit
//! variants only goes to a lower index; a shrunk field is smaller by the field type's own order.

use proc_macro2::TokenStream;
use quote::quote;

use super::construct;
use super::transition::{cloned, is_drop};
use crate::ast::Container;

pub fn expand(container: &Container) -> TokenStream {
    let recursive_type = container
        .variants
        .iter()
        .any(|v| v.fields.iter().any(|f| f.recursive));
    let subterms =
        recursive_type.then(|| quote!(::typefuzz::__private::clone_descendants(self, &mut __out);));
    let arms = container.variants.iter().enumerate().map(|(from_index, from)| {
        let pattern = from.pattern();
        let from_fields = from.active_fields().count();
        let simpler = container.variants.iter().enumerate().filter_map(|(to_index, to)| {
            let to_fields = to.active_fields().count();
            let fewer = to_fields < from_fields && is_drop(from, to);
            let earlier_unit = to_fields == 0 && from_fields == 0 && to_index < from_index;
            (fewer || earlier_unit).then(|| {
                let value = cloned(from, to);
                quote!(__out.push(#value);)
            })
        });
        let field_shrinks = from.active_fields().map(|shrunk| {
            let binding = &shrunk.binding;
            let ty = shrunk.ty;
            let value = construct(from, |field| {
                if std::ptr::eq(field, shrunk) {
                    quote!(__candidate)
                } else {
                    let binding = &field.binding;
                    quote!(::core::clone::Clone::clone(#binding))
                }
            });
            quote! {
                let __candidates = __cx.descend(0, |__cx| <#ty as ::typefuzz::Mutate>::shrink(#binding, __cx));
                for __candidate in __candidates {
                    __out.push(#value);
                }
            }
        });
        quote! {
            #pattern => {
                #(#simpler)*
                if __cx.depth() < ::typefuzz::__private::MAX_MUTATION_DEPTH {
                    #(#field_shrinks)*
                }
            }
        }
    });
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
        match self { #(#arms)* }
        __out
    }
}
