//! `Mutate::visit_structure`: each value reports its variant (a constructor token named
//! `"Type::Variant"`, or `"Type"` for a struct) and then each active field as a child, so the
//! structure feedback sees which variant appears under which parent variant and field.
//!
//! Tokens are `const` items computed by `typefuzz::__private::structure_token` at compile time,
//! so observing a value costs a match and one call per field. Fields are visited through
//! `__private::structure_field` (`enter` / the field's `visit_structure` / `leave`, compiled once
//! per field type), which gets `<Field as Mutate>::visit_structure`, spelled like the other
//! expansions' calls, so a field type without `Mutate` is reported once, at the field.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use crate::ast::Container;

pub fn expand(container: &Container) -> TokenStream {
    let type_name = container.ident.to_string();
    let arms = container.variants.iter().map(|variant| {
        let name = match variant.ident {
            Some(ident) => format!("{type_name}::{ident}"),
            None => type_name.clone(),
        };
        let pattern = variant.pattern();
        let children = variant
            .fields
            .iter()
            .enumerate()
            .filter(|(_, field)| field.attrs.skip.is_none())
            .map(|(index, field)| {
                let binding = &field.binding;
                let ty = field.ty;
                let index = index as u32;
                quote_spanned! {field.ty_span()=>
                    ::typefuzz::__private::structure_field(
                        __structure,
                        __TOKEN,
                        #index,
                        #binding,
                        <#ty as ::typefuzz::Mutate>::visit_structure,
                    );
                }
            });
        quote! {
            #pattern => {
                const __TOKEN: ::core::primitive::u64 = ::typefuzz::__private::structure_token(#name);
                __structure.node(__TOKEN);
                #(#children)*
            }
        }
    });
    quote! {
        fn visit_structure(&self, __structure: &mut ::typefuzz::__private::Structure<'_>) {
            match self { #(#arms)* }
        }
    }
}
