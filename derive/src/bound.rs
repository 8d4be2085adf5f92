//! Which type parameters need a `Mutate` bound, and the `bound = "..."` override.
//!
//! Like serde, a parameter gets `P: Mutate` only if it appears in the type of a field that is
//! generated, mutated or encoded (not `skip`ped), and not only inside `PhantomData`. For example
//! `struct S<A, B, C> { a: Vec<A>, #[mutate(skip)] b: Vec<B>, c: PhantomData<C> }` gets
//! `A: Mutate` and `Vec<B>: Default`, and no bound on `C`.

use std::collections::BTreeSet;

use syn::{GenericParam, Generics, Ident, Type, WherePredicate};

use crate::ast::Container;

fn is_phantom(ty: &Type) -> bool {
    matches!(ty, Type::Path(path) if path.path.segments.last().is_some_and(|s| s.ident == "PhantomData"))
}

fn used_params(ty: &Type, params: &BTreeSet<Ident>, used: &mut BTreeSet<Ident>) {
    if is_phantom(ty) {
        return;
    }
    match ty {
        Type::Path(path) => {
            if let Some(qself) = &path.qself {
                used_params(&qself.ty, params, used);
            }
            if let Some(first) = path.path.segments.first() {
                if params.contains(&first.ident) {
                    used.insert(first.ident.clone());
                }
            }
            for segment in &path.path.segments {
                if let syn::PathArguments::AngleBracketed(args) = &segment.arguments {
                    for arg in &args.args {
                        if let syn::GenericArgument::Type(inner) = arg {
                            used_params(inner, params, used);
                        }
                    }
                }
            }
        }
        Type::Array(array) => used_params(&array.elem, params, used),
        Type::Slice(slice) => used_params(&slice.elem, params, used),
        Type::Tuple(tuple) => tuple
            .elems
            .iter()
            .for_each(|elem| used_params(elem, params, used)),
        Type::Group(group) => used_params(&group.elem, params, used),
        Type::Paren(paren) => used_params(&paren.elem, params, used),
        Type::Reference(reference) => used_params(&reference.elem, params, used),
        _ => {}
    }
}

/// The generics of the impl: the type's own, plus the inferred or overridden predicates.
pub fn with_bounds(container: &Container) -> Generics {
    let mut generics = container.original.generics.clone();
    let predicates: Vec<WherePredicate> =
        match &container.attrs.bound {
            Some(bound) => bound.clone(),
            None => {
                let params: BTreeSet<Ident> = generics
                    .params
                    .iter()
                    .filter_map(|param| match param {
                        GenericParam::Type(ty) => Some(ty.ident.clone()),
                        _ => None,
                    })
                    .collect();
                let mut used = BTreeSet::new();
                let mut predicates = Vec::new();
                for variant in &container.variants {
                    for field in &variant.fields {
                        if field.attrs.skip.is_some() {
                            let ty = field.ty;
                            predicates.push(syn::parse_quote!(#ty: ::core::default::Default));
                        } else {
                            used_params(field.ty, &params, &mut used);
                        }
                    }
                }
                predicates.extend(used.iter().map(|ident| -> WherePredicate {
                    syn::parse_quote!(#ident: ::typefuzz::Mutate)
                }));
                predicates
            }
        };
    let where_clause = generics.make_where_clause();
    where_clause.predicates.extend(predicates);
    generics
}
