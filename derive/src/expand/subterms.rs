//! `Mutate::visit_subterms{,_mut}`: the values of the type itself found directly in its fields
//! (through Box/Rc/Arc/Option/Vec/arrays/tuples). Not generated for non-recursive types.

use proc_macro2::TokenStream;
use quote::quote;

use super::match_self;
use crate::ast::Container;

pub fn expand(container: &Container) -> TokenStream {
    let recursive_type = container
        .variants
        .iter()
        .any(|v| v.fields.iter().any(|f| f.recursive));
    if !recursive_type {
        return TokenStream::new();
    }
    let body = |mutable: bool| {
        // Arms only for the variants that can hold a subterm; the rest share `_`.
        match_self(container.variants.iter().map(|variant| {
            let pattern = variant.pattern();
            let visits: Vec<TokenStream> = (variant.active_fields())
                .filter_map(|field| {
                    let binding = &field.binding;
                    container
                        .self_type
                        .visit(field.ty, quote!(#binding), mutable, 0)
                })
                .collect();
            (!visits.is_empty()).then(|| quote!(#pattern => { #(#visits)* }))
        }))
    };
    let shared = body(false);
    let exclusive = body(true);
    quote! {
        fn visit_subterms(&self, __visit: &mut dyn ::core::ops::FnMut(&Self)) {
            #shared
        }

        fn visit_subterms_mut(&mut self, __visit: &mut dyn ::core::ops::FnMut(&mut Self)) {
            #exclusive
        }
    }
}
