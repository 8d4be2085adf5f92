//! The derive's internal AST: one shape (a list of variants of fields) for structs and enums,
//! each node keeping its `original` syntax for spans.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields, Ident, Member, Type};

use crate::attr;
use crate::ctxt::Ctxt;
use crate::ty::{always_indirect, SelfType};

pub struct Container<'a> {
    pub ident: &'a Ident,
    pub original: &'a DeriveInput,
    pub attrs: attr::Container,
    pub is_enum: bool,
    pub variants: Vec<Variant<'a>>,
    pub self_type: SelfType,
}

pub struct Variant<'a> {
    /// `None` for a struct (its single "variant" is the struct itself).
    pub ident: Option<&'a Ident>,
    pub attrs: attr::Variant,
    pub fields: Vec<Field<'a>>,
}

pub struct Field<'a> {
    pub member: Member,
    pub ty: &'a Type,
    pub attrs: attr::Field,
    /// The local name the field is bound to in generated patterns.
    pub binding: Ident,
    /// Type equality class (canonical spelling of the type).
    pub class: String,
    /// The field's type contains the container type (it is recursive).
    pub recursive: bool,
    /// The field's type is `Box<Self>`: exactly one subterm (see `generate::fresh_field`).
    pub boxed_self: bool,
}

impl<'a> Container<'a> {
    pub fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Option<Container<'a>> {
        let attrs = attr::container(cx, &input.attrs);
        let (_, type_generics, _) = input.generics.split_for_impl();
        let ident = &input.ident;
        let self_type = SelfType {
            ident: ident.clone(),
            full: quote!(#ident #type_generics),
        };
        let (is_enum, variants) = match &input.data {
            Data::Struct(data) => {
                let fields = fields_from_ast(cx, &data.fields, &self_type);
                let variant = Variant {
                    ident: None,
                    attrs: attr::Variant { weight: 1 },
                    fields,
                };
                (false, vec![variant])
            }
            Data::Enum(data) => {
                let variants = data
                    .variants
                    .iter()
                    .map(|variant| Variant {
                        ident: Some(&variant.ident),
                        attrs: attr::variant(cx, &variant.attrs),
                        fields: fields_from_ast(cx, &variant.fields, &self_type),
                    })
                    .collect();
                (true, variants)
            }
            Data::Union(data) => {
                cx.error(
                    data.union_token,
                    "#[derive(Mutate)] does not support unions: the active field is not known, so \
                     no value can be mutated safely; use an enum, or implement Mutate by hand",
                );
                return None;
            }
        };
        Some(Container {
            ident,
            original: input,
            attrs,
            is_enum,
            variants,
            self_type,
        })
    }
}

fn fields_from_ast<'a>(cx: &Ctxt, fields: &'a Fields, self_type: &SelfType) -> Vec<Field<'a>> {
    fields
        .iter()
        .enumerate()
        .map(|(index, field)| {
            let member = match &field.ident {
                Some(ident) => Member::Named(ident.clone()),
                None => Member::Unnamed(index.into()),
            };
            Field {
                member,
                ty: &field.ty,
                attrs: attr::field(cx, &field.attrs),
                binding: format_ident!("__field{}", index),
                class: self_type.canonical(&field.ty),
                recursive: self_type.mentions_self(&field.ty),
                boxed_self: self_type.is_boxed_self(&field.ty),
            }
        })
        .collect()
}

impl<'a> Variant<'a> {
    /// `Self::Name` for enum variants, `Self` for structs.
    pub fn path(&self) -> TokenStream {
        match self.ident {
            Some(ident) => quote!(Self::#ident),
            None => quote!(Self),
        }
    }

    /// A pattern binding every field by reference: `Self::V { 0: __field0, 1: __field1 }`.
    pub fn pattern(&self) -> TokenStream {
        let path = self.path();
        let members = self.fields.iter().map(|field| &field.member);
        let bindings = self.fields.iter().map(|field| &field.binding);
        quote!(#path { #(#members: #bindings),* })
    }

    /// A pattern matching the variant without binding anything.
    pub fn pattern_any(&self) -> TokenStream {
        let path = self.path();
        quote!(#path { .. })
    }

    /// Fields that take part in mutation, shrinking and the codec (not `skip`ped).
    pub fn active_fields(&self) -> impl Iterator<Item = &Field<'a>> {
        self.fields
            .iter()
            .filter(|field| field.attrs.skip.is_none())
    }

    /// Generation level: 0 needs no indirection, 1 needs `Box`/`Rc`/`Arc` but not its own type,
    /// 2 always contains its own type (see `derive_support::choose_variant`).
    pub fn level(&self, self_type: &SelfType) -> u8 {
        let fields = || self.active_fields();
        if fields().any(|field| self_type.always_contains_self(field.ty)) {
            2
        } else if fields().any(|field| always_indirect(field.ty) || field.recursive) {
            1
        } else {
            0
        }
    }

    /// How many fields of each type class (active fields only).
    pub fn class_counts(&self) -> std::collections::BTreeMap<&str, usize> {
        let mut counts = std::collections::BTreeMap::new();
        for field in self.active_fields() {
            *counts.entry(field.class.as_str()).or_insert(0) += 1;
        }
        counts
    }
}

impl Field<'_> {
    /// The span user-facing errors about this field's type should point at.
    pub fn ty_span(&self) -> Span {
        syn::spanned::Spanned::span(self.ty)
    }
}
