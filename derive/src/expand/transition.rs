//! Switching constructors (constructor drop and grow, and shrinking to simpler variants).
//!
//! Moving from variant `from` to `to`, each field of `to` is filled from a distinct field of
//! `from` with the same type when one is left, and generated otherwise. For example
//! `Node(a, l, r) -> Leaf(_)` takes `a` (drop), `Leaf(a) -> Node(_, _, _)` keeps `a` and
//! generates both subtrees (grow). Which same-type source fills which target is chosen at random
//! for mutation and in order for shrinking.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::construct;
use super::generate::fresh_field;
use crate::ast::{Field, Variant};

/// Can every active field of `to` be filled from a distinct same-type field of `from`?
pub fn is_drop(from: &Variant, to: &Variant) -> bool {
    let available = from.class_counts();
    to.class_counts()
        .iter()
        .all(|(class, needed)| available.get(class).is_some_and(|have| have >= needed))
}

/// Are all active fields of `from` kept by `to` (the paper's superset grow)?
pub fn is_superset(from: &Variant, to: &Variant) -> bool {
    is_drop(to, from)
}

/// How a field of `to` is filled.
enum Fill<'a> {
    /// From one of these same-type fields of `from`; `rank` is the target's index in its class.
    Take {
        sources: Vec<&'a Field<'a>>,
        rank: usize,
        class: usize,
    },
    /// Freshly generated (or `Default` for a skipped field).
    Fresh,
}

fn plan<'a>(from: &'a Variant<'a>, to: &Variant) -> Vec<Fill<'a>> {
    let mut by_class: BTreeMap<&str, Vec<&Field>> = BTreeMap::new();
    for field in from.active_fields() {
        by_class
            .entry(field.class.as_str())
            .or_default()
            .push(field);
    }
    let class_ids: BTreeMap<&str, usize> = by_class
        .keys()
        .enumerate()
        .map(|(i, class)| (*class, i))
        .collect();
    let mut used: BTreeMap<&str, usize> = BTreeMap::new();
    to.fields
        .iter()
        .map(|field| {
            if field.attrs.skip.is_some() {
                return Fill::Fresh;
            }
            let class = field.class.as_str();
            let rank = used.entry(class).or_insert(0);
            match by_class.get(class) {
                Some(sources) if *rank < sources.len() => {
                    let fill = Fill::Take {
                        sources: sources.clone(),
                        rank: *rank,
                        class: class_ids[class],
                    };
                    *rank += 1;
                    fill
                }
                _ => Fill::Fresh,
            }
        })
        .collect()
}

/// Does moving from `from` to `to` keep any field of `from`? When it does not, `to` is built
/// fresh whatever `from` was, and one match arm serves every `from` (see `mutate.rs`).
pub fn keeps_any(from: &Variant, to: &Variant) -> bool {
    plan(from, to)
        .iter()
        .any(|fill| matches!(fill, Fill::Take { .. }))
}

/// Builds variant `to` by moving fields out of the bindings of `from` (mutation: random
/// assignment of same-type sources; uses `__cx` and `__size`).
pub fn moved(from: &Variant, to: &Variant) -> TokenStream {
    let fills = plan(from, to);
    // One random injective assignment per class with several sources.
    let mut picks = BTreeMap::new();
    for fill in &fills {
        if let Fill::Take {
            sources,
            rank,
            class,
        } = fill
        {
            let entry = picks.entry(*class).or_insert((sources.len(), 0usize));
            entry.1 = entry.1.max(rank + 1);
        }
    }
    let pick_lets = picks
        .iter()
        .filter(|(_, (available, _))| *available > 1)
        .map(|(class, (available, count))| {
            let name = format_ident!("__pick{}", class);
            quote!(let #name = ::typefuzz::__private::distinct(__cx, #available, #count);)
        });
    let mut fills = fills.into_iter();
    let value = construct(to, |field| {
        match fills.next().expect("one fill per field") {
            Fill::Take {
                sources,
                rank,
                class,
            } => {
                if sources.len() == 1 {
                    let binding = &sources[0].binding;
                    quote!(::typefuzz::__private::take(#binding, __cx))
                } else {
                    let name = format_ident!("__pick{}", class);
                    let arms = sources.iter().enumerate().map(|(index, source)| {
                        let binding = &source.binding;
                        quote!(#index => ::typefuzz::__private::take(#binding, __cx),)
                    });
                    let last = &sources[sources.len() - 1].binding;
                    quote!(match #name[#rank] { #(#arms)* _ => ::typefuzz::__private::take(#last, __cx) })
                }
            }
            Fill::Fresh => fresh_field(to, field),
        }
    });
    quote!({ #(#pick_lets)* #value })
}

/// Builds variant `to` by cloning fields of `from` in order (shrinking; `to` must be a drop).
pub fn cloned(from: &Variant, to: &Variant) -> TokenStream {
    let mut fills = plan(from, to).into_iter();
    construct(to, |field| {
        match fills.next().expect("one fill per field") {
            Fill::Take { sources, rank, .. } => super::copy_field(sources[rank]),
            Fill::Fresh => {
                let ty = field.ty;
                quote!(<#ty as ::core::default::Default>::default())
            }
        }
    })
}
