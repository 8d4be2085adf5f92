//! `Mutate::visit_subterms{,_mut}`: the values of the type itself found directly in its fields
//! (through Box/Rc/Arc/Option/Vec/arrays/tuples). Not generated for non-recursive types.

use proc_macro2::TokenStream;
use quote::quote;

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
        let arms = container.variants.iter().map(|variant| {
            let pattern = variant.pattern();
            let visits = variant.active_fields().filter_map(|field| {
                let binding = &field.binding;
                container
                    .self_type
                    .visit(field.ty, quote!(#binding), mutable, 0)
            });
            quote!(#pattern => { #(#visits)* })
        });
        quote!(match self { #(#arms)* })
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
