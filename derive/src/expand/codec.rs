//! `Mutate::encode` / `Mutate::decode`: a variant tag (enums with more than one variant), then
//! the active fields in order. Skipped fields are not encoded and decode as `Default`. Both
//! sides enter a nesting level (`enter_nested`, what `nested` does without its closure), so
//! they agree on where the depth bound cuts the value off.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::construct;
use crate::ast::Container;

pub fn expand_encode(container: &Container) -> TokenStream {
    let count = container.variants.len();
    let arms = container
        .variants
        .iter()
        .enumerate()
        .map(|(index, variant)| {
            let pattern = variant.pattern();
            // A value with neither tag nor fields still takes one byte (see `Encoder::nested`).
            let tag = if count > 1 {
                Some(quote!(__out.write_tag(#index, #count);))
            } else if variant.active_fields().next().is_none() {
                Some(quote!(__out.write_byte(0);))
            } else {
                None
            };
            let fields = variant.active_fields().map(|field| {
            let binding = &field.binding;
            let ty = field.ty;
            quote_spanned!(field.ty_span()=> <#ty as ::typefuzz::Mutate>::encode(#binding, __out);)
        });
            quote!(#pattern => { #tag #(#fields)* })
        });
    quote! {
        if __out.enter_nested() {
            match self { #(#arms)* }
            __out.leave_nested();
        }
    }
}

pub fn expand_decode(container: &Container) -> TokenStream {
    let count = container.variants.len();
    let last = count - 1;
    let arms = container
        .variants
        .iter()
        .enumerate()
        .map(|(index, variant)| {
            let value = construct(variant, |field| {
                let ty = field.ty;
                if field.attrs.skip.is_some() {
                    quote!(<#ty as ::core::default::Default>::default())
                } else {
                    quote_spanned!(field.ty_span()=> <#ty as ::typefuzz::Mutate>::decode(__input))
                }
            });
            if index == last {
                quote!(_ => #value,)
            } else {
                quote!(#index => #value,)
            }
        });
    let empty = count == 1 && container.variants[0].active_fields().next().is_none();
    let tag = if count > 1 {
        quote!(__input.read_tag(#count))
    } else if empty {
        quote!({
            __input.read_byte();
            0usize
        })
    } else {
        quote!(0usize)
    };
    quote! {
        if !__input.enter_nested() {
            return ::typefuzz::__private::smallest();
        }
        let __value = match #tag { #(#arms)* };
        __input.leave_nested();
        __value
    }
}
