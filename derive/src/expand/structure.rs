//! `Mutate::visit_structure`: each value reports its variant (a constructor token named
//! `"Type::Variant"`, or `"Type"` for a struct) and then each active field as a child, so the
//! structure feedback sees which variant appears under which parent variant and field.
//!
//! `Mutate::hash_value` is written here too: each variant's index (enums only), then each active
//! field's `hash_value`, in declaration order — the leaves of the value and nothing of the
//! walk's context, so counting distinct inputs costs a fraction of a walk.
//!
//! Tokens are `u64` literals hashed here, by [`token`], exactly as the engine's
//! `feedback::structure::token` hashes the same name (checked by the engine's
//! `tests/structure_feedback.rs`), so observing a value costs a match and one call per field,
//! and compiling it no `const` item or constant evaluation per variant. Fields are visited through
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
        let token = proc_macro2::Literal::u64_suffixed(token(&name));
        let pattern = variant.pattern();
        // Numbered among the active fields, as the derived `mutate` numbers the field it
        // descends into (`__private::enter_field`), so the walk can follow the mutation.
        let children = variant.active_fields().enumerate().map(|(index, field)| {
            let binding = &field.binding;
            let ty = field.ty;
            let index = index as u32;
            quote_spanned! {field.ty_span()=>
                ::typefuzz::__private::structure_field(
                    __structure,
                    #token,
                    #index,
                    #binding,
                    <#ty as ::typefuzz::Mutate>::visit_structure,
                );
            }
        });
        quote! {
            #pattern => {
                __structure.node(#token);
                #(#children)*
            }
        }
    });
    // The variant index once (enums only), then a match over the variants with fields.
    let index = container.is_enum.then(|| {
        let index = super::variant_index(container, quote!(self));
        quote!(__hasher.write(#index as ::core::primitive::u64);)
    });
    let hash_arms = super::match_self(container.variants.iter().map(|variant| {
        let pattern = variant.pattern();
        let fields: Vec<TokenStream> = variant
            .active_fields()
            .map(|field| {
                let binding = &field.binding;
                let ty = field.ty;
                quote_spanned! {field.ty_span()=>
                    <#ty as ::typefuzz::Mutate>::hash_value(#binding, __hasher);
                }
            })
            .collect();
        (!fields.is_empty()).then(|| quote!(#pattern => { #(#fields)* }))
    }));
    quote! {
        fn visit_structure(&self, __structure: &mut ::typefuzz::__private::Structure<'_>) {
            match self { #(#arms)* }
        }
        fn hash_value(&self, __hasher: &mut ::typefuzz::__private::ValueHasher) {
            #index
            #hash_arms
        }
    }
}

/// The constructor token of `name`: 64-bit FNV-1a of its bytes, the engine's
/// `feedback::structure::token` (which hand-written impls call), computed here so that the
/// expansion holds a literal.
fn token(name: &str) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &byte in name.as_bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}
