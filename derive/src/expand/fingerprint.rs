//! `Mutate::fingerprint`: the type's name, then per variant its name and its active fields'
//! names and types, in declaration order — everything the codec's meaning depends on (it writes
//! variant indices and fields in order), so reordering or renaming variants or fields, or
//! changing a field's type, changes the fingerprint. Skipped fields are not encoded, so they
//! are not part of it. `enter_nominal` (`nominal` without its closure) ends the description where
//! the type occurs inside itself.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use crate::ast::Container;

pub fn expand(container: &Container) -> TokenStream {
    let name = container.ident.to_string();
    let variants = container.variants.iter().map(|variant| {
        let variant_name = variant.ident.map(|ident| {
            let name = ident.to_string();
            quote!(__fingerprint.name(#name);)
        });
        let count = variant.active_fields().count() as u64;
        let fields = variant.active_fields().map(|field| {
            let member = match &field.member {
                syn::Member::Named(ident) => ident.to_string(),
                syn::Member::Unnamed(index) => index.index.to_string(),
            };
            let ty = field.ty;
            quote_spanned! {field.ty_span()=>
                __fingerprint.name(#member);
                <#ty as ::typefuzz::Mutate>::fingerprint(__fingerprint);
            }
        });
        quote! {
            #variant_name
            __fingerprint.number(#count);
            #(#fields)*
        }
    });
    let kind = if container.is_enum { "enum" } else { "struct" };
    quote! {
        if __fingerprint.enter_nominal(::core::any::type_name::<Self>(), #name) {
            __fingerprint.name(#kind);
            #(#variants)*
            __fingerprint.leave_nominal();
        }
    }
}
