//! `Mutate::generate`: QuickChick-style sized generation.
//!
//! At size 0 only the variants of the lowest generation level are eligible (those needing no
//! `Box`/`Rc`/`Arc`, see `Variant::level`); above it recursive variants are weighted up with the
//! size. Fields that contain the type itself share the remaining size (`split_size`), so a tree
//! generated at size n has about n nodes; other fields get size - 1.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::{construct, fresh_variant};
use crate::ast::{Container, Field, Variant};

pub fn expand(container: &Container) -> TokenStream {
    if !container.is_enum {
        let construct = construct_fresh(&container.variants[0]);
        return quote! {
            let __size = __cx.size();
            #construct
        };
    }
    let weights: Vec<u32> = container
        .variants
        .iter()
        .map(|variant| variant.attrs.weight)
        .collect();
    let levels: Vec<u8> = container
        .variants
        .iter()
        .map(|variant| variant.level(&container.self_type))
        .collect();
    let choose = match uniform_weight(&weights, &levels) {
        Some(weight) => {
            let (count, weight) = (weights.len() as u64, u64::from(weight));
            quote!(::typefuzz::__private::choose_uniform_variant(__cx, #count, #weight))
        }
        None => {
            let variants = variants_table(&weights, &levels);
            quote! {{
                const __VARIANTS: ::typefuzz::__private::Variants = #variants;
                ::typefuzz::__private::choose_variant(__cx, &__VARIANTS)
            }}
        }
    };
    let fresh = fresh_variant(quote!(__variant), quote!(__size));
    quote! {
        let __size = __cx.size();
        let __variant: ::core::primitive::usize = #choose;
        #fresh
    }
}

/// The `Variants` table of an enum: its weights and levels, and the totals `choose_variant`
/// needs, added up here once instead of at every generated node.
fn variants_table(weights: &[u32], levels: &[u8]) -> TokenStream {
    let lowest = levels.iter().copied().min().unwrap_or(0);
    let total = |keep: &dyn Fn(u8) -> bool| -> u64 {
        (weights.iter().zip(levels))
            .filter(|&(_, &level)| keep(level))
            .map(|(&weight, _)| u64::from(weight))
            .sum()
    };
    let (lowest_total, flat_total, boosted_total) = (
        total(&|level| level == lowest),
        total(&|level| level == 0),
        total(&|level| level > 0),
    );
    let uniform_weight = uniform_weight(weights, levels).unwrap_or(0);
    quote! {
        ::typefuzz::__private::Variants {
            weights: &[#(#weights),*],
            levels: &[#(#levels),*],
            lowest: #lowest,
            lowest_total: #lowest_total,
            flat_total: #flat_total,
            boosted_total: #boosted_total,
            uniform_weight: #uniform_weight,
        }
    }
}

/// The common weight when every variant has level 0 (size plays no part) and all weights are
/// equal and non-zero: the variant is then one uniform draw.
fn uniform_weight(weights: &[u32], levels: &[u8]) -> Option<u32> {
    let first = *weights.first()?;
    let uniform = first > 0 && weights.iter().all(|&w| w == first);
    (uniform && levels.iter().all(|&level| level == 0)).then_some(first)
}

fn construct_fresh(variant: &Variant) -> TokenStream {
    construct(variant, |field| fresh_field(variant, field))
}

/// An expression generating a fresh value for `field` (uses `__cx` and `__size`).
pub fn fresh_field(variant: &Variant, field: &Field) -> TokenStream {
    let ty = field.ty;
    let span = field.ty_span();
    if field.attrs.skip.is_some() {
        return quote_spanned!(span=> <#ty as ::core::default::Default>::default());
    }
    let size = child_size(variant, field);
    match &field.attrs.with {
        Some(path) => {
            quote_spanned!(span=> __cx.descend(#size, |__cx| -> #ty { #path::generate(__cx) }))
        }
        // A `Box<Self>` field is a leaf in the wrapper constructor grow generates around a
        // value (see `__private::wrap`).
        None if field.boxed_self => quote_spanned! {span=>
            ::typefuzz::__private::generate_subterm(__cx, #size, <#ty as ::typefuzz::Mutate>::generate)
        },
        None => quote_spanned! {span=>
            ::typefuzz::__private::generate_field(__cx, #size, <#ty as ::typefuzz::Mutate>::generate)
        },
    }
}

/// The size a freshly generated field gets out of `__size`.
pub fn child_size(variant: &Variant, field: &Field) -> TokenStream {
    if field.recursive {
        let parts = variant
            .active_fields()
            .filter(|field| field.recursive)
            .count();
        quote!(::typefuzz::__private::split_size(__size, #parts))
    } else {
        quote!(__size.saturating_sub(1))
    }
}
