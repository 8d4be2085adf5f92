//! `Mutate::mutate`: one of FuzzChick's four operator families (plus regeneration), chosen by
//! `__private::choose` from the candidate counts of the current variant.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::transition::{is_drop, is_superset, keeps_any, moved};
use super::{fresh_variant, index_table, index_tables, match_self, variant_index};
use crate::ast::Container;

/// The static candidate tables of one container.
struct Tables {
    drop: Vec<Vec<usize>>,
    grow: Vec<Vec<usize>>,
    grow_faithful: Vec<Vec<usize>>,
}

fn tables(container: &Container) -> Tables {
    let variants = &container.variants;
    let mut tables = Tables {
        drop: Vec::new(),
        grow: Vec::new(),
        grow_faithful: Vec::new(),
    };
    for (i, from) in variants.iter().enumerate() {
        let others = || variants.iter().enumerate().filter(move |(j, _)| *j != i);
        let drop: Vec<usize> = others()
            .filter(|(_, to)| is_drop(from, to))
            .map(|(j, _)| j)
            .collect();
        let grow: Vec<usize> = others()
            .filter(|(j, _)| !drop.contains(j))
            .map(|(j, _)| j)
            .collect();
        let grow_faithful = grow
            .iter()
            .copied()
            .filter(|&j| is_superset(from, &variants[j]))
            .collect();
        tables.drop.push(drop);
        tables.grow.push(grow);
        tables.grow_faithful.push(grow_faithful);
    }
    tables
}

pub fn expand(container: &Container) -> TokenStream {
    let recursive_type = container
        .variants
        .iter()
        .any(|v| v.fields.iter().any(|f| f.recursive));
    let field_counts: Vec<usize> = (container.variants.iter())
        .map(|variant| variant.active_fields().count())
        .collect();
    let variant = variant_index(container, quote!(self));
    // Each variant's subterm count from a table when it does not depend on the value (`Box<Self>`
    // fields, not `Option`s or `Vec`s of the type): no walk of the subterms on every mutation.
    let fixed_subterms: Option<Vec<usize>> = (container.variants.iter())
        .map(|variant| {
            (variant.active_fields())
                .map(|field| container.self_type.fixed_subterms(field.ty))
                .sum()
        })
        .collect();
    let subterms = match fixed_subterms {
        _ if !recursive_type => quote!(0usize),
        Some(counts) => {
            let (element, table) = index_table(&counts);
            quote!({
                const __SUBTERMS: &[#element] = #table;
                __SUBTERMS[__variant] as ::core::primitive::usize
            })
        }
        None => quote!(::typefuzz::__private::count_subterms(self)),
    };
    let recursive_arms = match_self(container.variants.iter().map(|variant| {
        variant.active_fields().next()?;
        let pattern = variant.pattern();
        let arms = variant.active_fields().enumerate().map(|(index, field)| {
            let binding = &field.binding;
            let ty = field.ty;
            // One level down (`__private::enter_field` around the match below).
            let call = match &field.attrs.with {
                Some(path) => quote_spanned! {field.ty_span()=>
                    #path::mutate(#binding, __cx)
                },
                None => quote_spanned! {field.ty_span()=>
                    <#ty as ::typefuzz::Mutate>::mutate_undoable(#binding, __cx)
                },
            };
            quote!(#index => #call,)
        });
        Some(quote!(#pattern => match __k { #(#arms)* _ => {} },))
    }));

    // Paired mutation (`__private::paired_field`): per variant, each active field's group, the
    // index of the first active field of the same type. A field with its own mutator is alone,
    // and so is a recursive one: a tree's two subtrees are not two sides of one relation.
    // Only types with twins get the table and the replay.
    let groups: Vec<Vec<usize>> = (container.variants.iter())
        .map(|variant| {
            let fields: Vec<_> = variant.active_fields().collect();
            (0..fields.len())
                .map(|i| {
                    let same = |j: usize| {
                        let (a, b) = (fields[i], fields[j]);
                        let alone = |f: &crate::ast::Field| f.attrs.with.is_some() || f.recursive;
                        !alone(a) && !alone(b) && a.class == b.class
                    };
                    (0..i).find(|&j| same(j)).unwrap_or(i)
                })
                .collect()
        })
        .collect();
    let has_twins = groups
        .iter()
        .any(|row| row.iter().enumerate().any(|(i, &g)| g != i))
        && groups.iter().flatten().all(|&g| g <= usize::from(u8::MAX));
    let recursive_choice = if has_twins {
        let rows = groups.iter().map(|row| index_table(row).1);
        quote! {
            const __TWINS: &[&[::core::primitive::u8]] = &[#(#rows),*];
            let mut __twin = ::typefuzz::__private::paired_field(__cx, __TWINS[__variant], __k);
            let __state = __cx.rng().get_seed();
            let mut __k = __k;
            // The field, then its twin if paired: the arms are written once.
            loop {
                let __saved = ::typefuzz::__private::enter_field(__cx, __k);
                #recursive_arms
                ::typefuzz::__private::leave_field(__cx, __saved);
                match __twin.take() {
                    ::core::option::Option::Some(__next) => {
                        // The same draws on an equal field make the same mutation.
                        __cx.rng().seed(__state);
                        __cx.record(::typefuzz::Operator::Paired);
                        __k = __next;
                    }
                    ::core::option::Option::None => break,
                }
            }
        }
    } else {
        quote! {
            let __saved = ::typefuzz::__private::enter_field(__cx, __k);
            #recursive_arms
            ::typefuzz::__private::leave_field(__cx, __saved);
        }
    };

    // A field with its own mutator saves nothing itself: the value is saved whole first and
    // recording paused meanwhile, as the default `Mutate::mutate_undoable` does (the mutator may
    // mutate temporaries). The node rewrites below keep the old value whole in the undo log
    // themselves (`__private::{replace, replace_by_subterm, take}`, `wrap`).
    let has_with =
        (container.variants.iter()).any(|v| v.active_fields().any(|f| f.attrs.with.is_some()));
    let (save_for_with, resume_for_with) = if has_with {
        (
            quote!(let __recording = ::typefuzz::__private::save_whole(self, __cx);),
            quote!(::typefuzz::__private::resume(__cx, __recording);),
        )
    } else {
        (quote!(), quote!())
    };
    let (index_type, field_counts) = index_table(&field_counts);
    let constructor_ops = if container.is_enum {
        let tables = tables(container);
        let (drop_type, drop) = index_tables(&tables.drop);
        let (_, grow) = index_tables(&tables.grow);
        let (_, grow_faithful) = index_tables(&tables.grow_faithful);
        let transition = transition(container);
        quote! {
            const __DROP: &[&[#drop_type]] = #drop;
            const __GROW: &[&[#drop_type]] = #grow;
            const __GROW_FAITHFUL: &[&[#drop_type]] = #grow_faithful;
            let __drop: &[#drop_type] = __DROP[__variant];
            let __grow: &[#drop_type] =
                if __cx.operators().faithful { __GROW_FAITHFUL[__variant] } else { __GROW[__variant] };
            let __candidates = ::typefuzz::__private::Candidates {
                recursive: __FIELDS[__variant] as ::core::primitive::usize,
                subterm: #subterms,
                drop: __drop.len(),
                grow: __grow.len(),
                regenerate: true,
            };
            let __transition = |__this: &mut Self, __to: ::core::primitive::usize, __cx: &mut ::typefuzz::Context| {
                #transition
            };
        }
    } else {
        quote! {
            let __candidates = ::typefuzz::__private::Candidates {
                recursive: __FIELDS[__variant] as ::core::primitive::usize,
                subterm: #subterms,
                drop: 0,
                grow: 0,
                regenerate: false,
            };
        }
    };

    // A recursive type grows by wrapping the value (`__private::wrap`, subterm's inverse) three
    // times in four, so that mutants keep about their seeds' size (`typefuzz-bench mutant-size`
    // measures it); subterm is left alone, it is what focuses the search on a part.
    let switch = quote! {
        __cx.record(::typefuzz::Operator::ConstructorGrow);
        __transition(self, __grow[__k] as ::core::primitive::usize, __cx);
    };
    let grow_arm = if recursive_type {
        quote! {
            if __cx.chance(3, 4) && ::typefuzz::__private::wrap(self, __cx) {
                __cx.record(::typefuzz::Operator::Wrap);
            } else {
                #switch
            }
        }
    } else {
        switch
    };
    // Constructor drop and grow, and regeneration (a restart for an enum, redundant with
    // mutating the fields for a struct), only for enums: a struct has no candidate for them
    // (the counts above are 0), and leaving their arms out spares it `wrap`'s instantiation.
    let constructor_arms = if container.is_enum {
        quote! {
            ::core::option::Option::Some(::typefuzz::__private::Choice::Drop(__k)) => {
                __cx.record(::typefuzz::Operator::ConstructorDrop);
                __transition(self, __drop[__k] as ::core::primitive::usize, __cx);
            }
            ::core::option::Option::Some(::typefuzz::__private::Choice::Grow(__k)) => {
                #grow_arm
            }
            ::core::option::Option::Some(::typefuzz::__private::Choice::Regenerate) => {
                __cx.record(::typefuzz::Operator::Regenerate);
                let __size = ::typefuzz::__private::regenerate_size(__cx);
                let __fresh: Self = __cx.generate_sized(__size);
                ::typefuzz::__private::replace(self, __fresh, __cx);
            }
        }
    } else {
        quote!(::core::option::Option::Some(_) => {})
    };

    quote! {
        const __FIELDS: &[#index_type] = #field_counts;
        let __variant: ::core::primitive::usize = #variant;
        #constructor_ops
        match ::typefuzz::__private::choose(__cx, __candidates) {
            ::core::option::Option::None => {}
            ::core::option::Option::Some(::typefuzz::__private::Choice::Recursive(__k)) => {
                __cx.record(::typefuzz::Operator::Recursive);
                #save_for_with
                #recursive_choice
                #resume_for_with
            }
            ::core::option::Option::Some(::typefuzz::__private::Choice::Subterm(__k)) => {
                __cx.record(::typefuzz::Operator::Subterm);
                ::typefuzz::__private::replace_by_subterm(self, __k, __cx);
            }
            #constructor_arms
        }
    }
}

/// `match (&mut *__this, __to) { (<from pattern>, <to>) => <moved fields> ... }` over the ordered
/// pairs of distinct variants where `to` keeps a field of `from`, then a `_` arm that builds
/// `__to` fresh (`__Variants::__fresh`), then `*__this = new`.
///
/// The fresh arm serves every pair that keeps nothing (to or from a unit variant, between
/// variants with no field type in common), which is most of them: a 30-variant enum has 870
/// ordered pairs, and one arm per pair made the expansion, and its compile time, quadratic.
/// `__to` is never the current variant (the drop and grow tables leave it out), so the fresh
/// arm never rebuilds a value in place of itself.
fn transition(container: &Container) -> TokenStream {
    let mut arms = Vec::new();
    for from in &container.variants {
        let pattern = from.pattern();
        for (to_index, to) in container.variants.iter().enumerate() {
            if std::ptr::eq(from, to) || !keeps_any(from, to) {
                continue;
            }
            let value = moved(from, to);
            arms.push(quote!((#pattern, #to_index) => #value,));
        }
    }
    let fresh = fresh_variant(quote!(__to), quote!(__size));
    // A recursive type's new fields are sized after the value they join (`grow_size_of`), so
    // grow gives back what drop takes; other types' stay small.
    let recursive_type = (container.variants.iter()).any(|v| v.fields.iter().any(|f| f.recursive));
    let size = if recursive_type {
        quote!(::typefuzz::__private::grow_size_of(&*__this, __cx))
    } else {
        quote!(::typefuzz::__private::grow_size(__cx))
    };
    quote! {
        let __size = #size;
        let __new: Self = match (&mut *__this, __to) {
            #(#arms)*
            _ => #fresh,
        };
        // The old value is disposed of, or kept whole in the undo log (its kept fields were
        // cloned by `take` then).
        ::typefuzz::__private::replace(__this, __new, __cx);
    }
}
