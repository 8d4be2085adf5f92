//! Code generation: one file per generated capability.

mod codec;
mod fingerprint;
mod generate;
mod leaves;
mod mutate;
mod shrink;
mod structure;
mod subterms;
mod transition;

use proc_macro2::{Group, TokenStream, TokenTree};
use quote::{quote, ToTokens};

use crate::ast::{Container, Variant};

pub fn expand(container: &Container) -> TokenStream {
    let ident = container.ident;
    let generics = crate::bound::with_bounds(container);
    let (impl_generics, type_generics, where_clause) = generics.split_for_impl();
    let generate = generate::expand(container);
    let mutate = mutate::expand(container);
    let shrink = shrink::expand(container);
    let encode = codec::expand_encode(container);
    let decode = codec::expand_decode(container);
    let subterms = subterms::expand(container);
    let fingerprint = fingerprint::expand(container);
    let structure = structure::expand(container);
    let leaves = leaves::expand(container);
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::all, clippy::pedantic)]
        const _: () = {
            #[automatically_derived]
            #[allow(unused_variables, unused_mut, unreachable_patterns, unreachable_code)]
            impl #impl_generics ::typefuzz::Mutate for #ident #type_generics #where_clause {
                fn generate(__cx: &mut ::typefuzz::Context) -> Self {
                    #generate
                }

                fn mutate(&mut self, __cx: &mut ::typefuzz::Context) {
                    #mutate
                }

                fn shrink(&self, __cx: &mut ::typefuzz::Context) -> ::typefuzz::__private::Vec<Self> {
                    #shrink
                }

                fn encode(&self, __out: &mut ::typefuzz::__private::Encoder) {
                    #encode
                }

                fn decode(__input: &mut ::typefuzz::__private::Decoder<'_>) -> Self {
                    #decode
                }

                fn fingerprint(__fingerprint: &mut ::typefuzz::__private::Fingerprint) {
                    #fingerprint
                }

                #subterms

                #structure

                #leaves
            }
        };
    }
}

/// `match self { Self::A { .. } => 0usize, ... }`: the index of the current variant.
fn variant_index(container: &Container, scrutinee: TokenStream) -> TokenStream {
    if !container.is_enum {
        return quote!(0usize);
    }
    let arms = container
        .variants
        .iter()
        .enumerate()
        .map(|(index, variant)| {
            let pattern = variant.pattern_any();
            quote!(#pattern => #index,)
        });
    quote!(match #scrutinee { #(#arms)* })
}

/// `Self::V { a: <expr a>, b: <expr b> }` for every field of `variant`.
fn construct(
    variant: &Variant,
    mut value: impl FnMut(&crate::ast::Field) -> TokenStream,
) -> TokenStream {
    let path = variant.path();
    let fields = variant.fields.iter().map(|field| {
        let member = &field.member;
        let value = value(field);
        quote!(#member: #value)
    });
    quote!(#path { #(#fields),* })
}

/// Rewrites the root of every absolute `::typefuzz` path in `tokens` to `krate`
/// (`#[mutate(crate = "...")]`).
///
/// Every expansion names the runtime as `::typefuzz::...`, the way users see it; this one pass
/// applies the attribute to all of them (and to any capability added later) without threading
/// the path through each file. Only a leading `::` counts, so `other::typefuzz` (say in a field's
/// type) is left alone:
/// `impl ::typefuzz::Mutate for T` becomes `impl typefuzz_engine::Mutate for T` with
/// `crate = "typefuzz_engine"`.
pub fn with_crate_path(tokens: TokenStream, krate: &syn::Path) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = TokenStream::new();
    let mut index = 0;
    while index < trees.len() {
        let absolute_typefuzz = match &trees[index..] {
            [TokenTree::Punct(first), TokenTree::Punct(second), TokenTree::Ident(name), ..] => {
                first.as_char() == ':'
                    && first.spacing() == proc_macro2::Spacing::Joint
                    && second.as_char() == ':'
                    && name == "typefuzz"
                    && !index
                        .checked_sub(1)
                        .is_some_and(|previous| is_path_segment(&trees[previous]))
            }
            _ => false,
        };
        if absolute_typefuzz {
            krate.to_tokens(&mut out);
            index += 3;
            continue;
        }
        match &trees[index] {
            TokenTree::Group(group) => {
                let mut rebased =
                    Group::new(group.delimiter(), with_crate_path(group.stream(), krate));
                rebased.set_span(group.span());
                out.extend([TokenTree::Group(rebased)]);
            }
            tree => out.extend([tree.clone()]),
        }
        index += 1;
    }
    out
}

/// Whether `tree`, just before `::`, is a path segment (`other` in `other::typefuzz`) rather than
/// a keyword that may precede an absolute path (`mut` in `&mut ::typefuzz::Context`).
fn is_path_segment(tree: &TokenTree) -> bool {
    const BEFORE_ABSOLUTE_PATHS: &[&str] = &[
        "as", "break", "const", "dyn", "else", "for", "if", "impl", "in", "let", "match", "move",
        "mut", "ref", "return", "static", "unsafe", "where", "while",
    ];
    match tree {
        TokenTree::Ident(ident) => !BEFORE_ABSOLUTE_PATHS.contains(&ident.to_string().as_str()),
        // `>` ends generics (`impl<A> ::typefuzz::Mutate`), never a segment of the path.
        _ => false,
    }
}
