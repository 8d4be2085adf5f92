//! Type analysis at expansion time: which field types are (or contain) the type being derived,
//! and how to reach those subterms.
//!
//! Matching is syntactic: a path whose last segment is the container's name (or `Self`) is the
//! container type. Recursion is only seen through the wrappers typefuzz knows: `Box`, `Rc`,
//! `Arc`, `Option`, `Vec`, `VecDeque`, arrays, slices-in-boxes and tuples. For example, in
//! `enum Tree { Leaf, Node(Box<Tree>, Vec<Option<Tree>>) }` both fields of `Node` contain a
//! `Tree`, and only the first one does so *mandatorily* (a `Vec` may be empty), which is what
//! decides whether the type has a finite value.

use proc_macro2::{TokenStream, TokenTree};
use quote::{format_ident, quote, ToTokens};
use syn::{GenericArgument, Ident, PathArguments, Type};

/// The wrappers through which subterms are seen.
enum Wrapper<'a> {
    /// `Box<T>`: always holds one `T`.
    Box(&'a Type),
    /// `Rc<T>` / `Arc<T>`: always holds one `T`, shared (mutable access via `make_mut`).
    Shared(&'a Type, TokenStream),
    /// `Option<T>`: holds zero or one `T`.
    Option(&'a Type),
    /// `Vec<T>` / `VecDeque<T>`: holds any number of `T`.
    Sequence(&'a Type),
    /// `[T; N]`: holds N (assumed > 0) `T`s.
    Array(&'a Type),
    /// `(A, B, ...)`.
    Tuple(Vec<&'a Type>),
}

fn single_argument(args: &PathArguments) -> Option<&Type> {
    match args {
        PathArguments::AngleBracketed(bracketed) => {
            let mut types = bracketed.args.iter().filter_map(|arg| match arg {
                GenericArgument::Type(ty) => Some(ty),
                _ => None,
            });
            let first = types.next()?;
            types.next().is_none().then_some(first)
        }
        _ => None,
    }
}

fn unwrap_group(mut ty: &Type) -> &Type {
    loop {
        match ty {
            Type::Group(group) => ty = &group.elem,
            Type::Paren(paren) => ty = &paren.elem,
            _ => return ty,
        }
    }
}

fn wrapper(ty: &Type) -> Option<Wrapper<'_>> {
    match unwrap_group(ty) {
        Type::Path(path) if path.qself.is_none() => {
            let last = path.path.segments.last()?;
            let inner = single_argument(&last.arguments)?;
            match last.ident.to_string().as_str() {
                "Box" => Some(Wrapper::Box(inner)),
                "Rc" => Some(Wrapper::Shared(inner, quote!(::std::rc::Rc::make_mut))),
                "Arc" => Some(Wrapper::Shared(inner, quote!(::std::sync::Arc::make_mut))),
                "Option" => Some(Wrapper::Option(inner)),
                "Vec" | "VecDeque" => Some(Wrapper::Sequence(inner)),
                _ => None,
            }
        }
        Type::Array(array) => Some(Wrapper::Array(&array.elem)),
        Type::Tuple(tuple) if !tuple.elems.is_empty() => {
            Some(Wrapper::Tuple(tuple.elems.iter().collect()))
        }
        _ => None,
    }
}

/// Knows the container's name and decides matches against it.
pub struct SelfType {
    pub ident: Ident,
    /// The container's type as written in its own definition (`Tree<A>`), replacing `Self`.
    pub full: TokenStream,
}

impl SelfType {
    /// Is `ty` the container type itself?
    pub fn is_self(&self, ty: &Type) -> bool {
        match unwrap_group(ty) {
            Type::Path(path) if path.qself.is_none() => {
                let segments = &path.path.segments;
                if segments.len() == 1 && segments[0].ident == "Self" {
                    return true;
                }
                segments.last().is_some_and(|last| last.ident == self.ident)
            }
            _ => false,
        }
    }

    /// Does `ty` contain the container type anywhere (even optionally, as in `Vec<Self>`)?
    pub fn mentions_self(&self, ty: &Type) -> bool {
        if self.is_self(ty) {
            return true;
        }
        let mut found = false;
        visit_types(ty, &mut |inner| found |= self.is_self(inner));
        found
    }

    /// Is `ty` `Box<Self>` (the container type, boxed once)?
    pub fn is_boxed_self(&self, ty: &Type) -> bool {
        matches!(wrapper(ty), Some(Wrapper::Box(inner)) if self.is_self(inner))
    }

    /// Does every value of `ty` contain a value of the container type?
    pub fn always_contains_self(&self, ty: &Type) -> bool {
        if self.is_self(ty) {
            return true;
        }
        match wrapper(ty) {
            Some(Wrapper::Box(inner) | Wrapper::Shared(inner, _) | Wrapper::Array(inner)) => {
                self.always_contains_self(inner)
            }
            Some(Wrapper::Tuple(elems)) => elems.iter().any(|elem| self.always_contains_self(elem)),
            Some(Wrapper::Option(_) | Wrapper::Sequence(_)) | None => false,
        }
    }

    /// How many values of the container type [`visit`](Self::visit) finds in every value of
    /// `ty`, when that does not depend on the value: 1 for `Self` and `Box<Self>`, 0 for a type
    /// without one, the sum for a tuple; `None` for an `Option`, sequence or array holding one
    /// (their count is the value's).
    pub fn fixed_subterms(&self, ty: &Type) -> Option<usize> {
        if self.is_self(ty) {
            return Some(1);
        }
        match wrapper(ty) {
            None => Some(0),
            Some(Wrapper::Box(inner) | Wrapper::Shared(inner, _)) => self.fixed_subterms(inner),
            Some(Wrapper::Option(inner) | Wrapper::Sequence(inner) | Wrapper::Array(inner)) => {
                (self.fixed_subterms(inner)? == 0).then_some(0)
            }
            Some(Wrapper::Tuple(elems)) => elems.iter().map(|elem| self.fixed_subterms(elem)).sum(),
        }
    }

    /// A canonical string for type equality, with `Self` spelled as the container type.
    pub fn canonical(&self, ty: &Type) -> String {
        fn replace(tokens: TokenStream, full: &TokenStream, out: &mut TokenStream) {
            for tree in tokens {
                match tree {
                    TokenTree::Ident(ident) if ident == "Self" => out.extend(full.clone()),
                    TokenTree::Group(group) => {
                        let mut inner = TokenStream::new();
                        replace(group.stream(), full, &mut inner);
                        out.extend([TokenTree::Group(proc_macro2::Group::new(
                            group.delimiter(),
                            inner,
                        ))]);
                    }
                    other => out.extend([other]),
                }
            }
        }
        let mut replaced = TokenStream::new();
        replace(
            unwrap_group(ty).to_token_stream(),
            &self.full,
            &mut replaced,
        );
        replaced.to_string()
    }

    /// Code calling `visit` on every container-typed value reachable in `expr` (an expression
    /// of type `&ty`, or `&mut ty` when `mutable`), or `None` when `ty` cannot contain one.
    pub fn visit(
        &self,
        ty: &Type,
        expr: TokenStream,
        mutable: bool,
        level: usize,
    ) -> Option<TokenStream> {
        if self.is_self(ty) {
            return Some(quote!(__visit(#expr);));
        }
        let binding = format_ident!("__sub{}", level);
        let next = level + 1;
        match wrapper(ty)? {
            Wrapper::Box(inner) => {
                let reborrow = if mutable {
                    quote!(&mut **#expr)
                } else {
                    quote!(&**#expr)
                };
                self.visit(inner, reborrow, mutable, next)
            }
            Wrapper::Shared(inner, make_mut) => {
                let access = if mutable {
                    quote!(#make_mut(#expr))
                } else {
                    quote!(&**#expr)
                };
                self.visit(inner, access, mutable, next)
            }
            Wrapper::Option(inner) => {
                let body = self.visit(inner, quote!(#binding), mutable, next)?;
                Some(quote!(if let ::core::option::Option::Some(#binding) = #expr { #body }))
            }
            Wrapper::Sequence(inner) | Wrapper::Array(inner) => {
                let body = self.visit(inner, quote!(#binding), mutable, next)?;
                let iter = if mutable {
                    quote!(iter_mut)
                } else {
                    quote!(iter)
                };
                Some(quote!(for #binding in (#expr).#iter() { #body }))
            }
            Wrapper::Tuple(elems) => {
                let mut bodies = Vec::new();
                for (index, elem) in elems.iter().enumerate() {
                    let index = syn::Index::from(index);
                    let access = if mutable {
                        quote!(&mut #binding.#index)
                    } else {
                        quote!(&#binding.#index)
                    };
                    bodies.extend(self.visit(elem, access, mutable, next));
                }
                if bodies.is_empty() {
                    return None;
                }
                Some(quote!({ let #binding = #expr; #(#bodies)* }))
            }
        }
    }
}

/// Calls `f` on every type nested inside `ty` (generic arguments, tuple and array elements).
pub fn visit_types<'a>(ty: &'a Type, f: &mut dyn FnMut(&'a Type)) {
    match ty {
        Type::Path(path) => {
            if let Some(qself) = &path.qself {
                f(&qself.ty);
                visit_types(&qself.ty, f);
            }
            for segment in &path.path.segments {
                if let PathArguments::AngleBracketed(args) = &segment.arguments {
                    for arg in &args.args {
                        if let GenericArgument::Type(inner) = arg {
                            f(inner);
                            visit_types(inner, f);
                        }
                    }
                }
            }
        }
        Type::Array(array) => {
            f(&array.elem);
            visit_types(&array.elem, f);
        }
        Type::Slice(slice) => {
            f(&slice.elem);
            visit_types(&slice.elem, f);
        }
        Type::Tuple(tuple) => {
            for elem in &tuple.elems {
                f(elem);
                visit_types(elem, f);
            }
        }
        Type::Group(group) => visit_types(&group.elem, f),
        Type::Paren(paren) => visit_types(&paren.elem, f),
        Type::Reference(reference) => {
            f(&reference.elem);
            visit_types(&reference.elem, f);
        }
        _ => {}
    }
}

/// Does every value of `ty` need a `Box`/`Rc`/`Arc` (the only way generation can recurse
/// without end at size 0)?
pub fn always_indirect(ty: &Type) -> bool {
    match wrapper(ty) {
        Some(Wrapper::Box(_) | Wrapper::Shared(..)) => true,
        Some(Wrapper::Array(inner)) => always_indirect(inner),
        Some(Wrapper::Tuple(elems)) => elems.iter().any(|elem| always_indirect(elem)),
        Some(Wrapper::Option(_) | Wrapper::Sequence(_)) | None => false,
    }
}
