//! `#[mutate(...)]` attributes, parsed with `parse_nested_meta`; every mistake is a spanned error.

use syn::{Attribute, LitStr, Path, WherePredicate};

use crate::ctxt::Ctxt;

/// Container attributes: `#[mutate(bound = "T: Mutate + Eq")]`, `#[mutate(crate = "path")]`.
#[derive(Default)]
pub struct Container {
    pub bound: Option<Vec<WherePredicate>>,
    /// Where the generated code finds typefuzz's runtime, instead of `::typefuzz` (serde's
    /// `#[serde(crate = "...")]`): for the engine's own tests, or a crate re-exporting typefuzz.
    pub krate: Option<Path>,
}

/// Variant attributes: `#[mutate(weight = N)]`.
pub struct Variant {
    pub weight: u32,
}

/// Field attributes: `#[mutate(skip)]`, `#[mutate(with = path)]`.
#[derive(Default)]
pub struct Field {
    pub skip: Option<proc_macro2::Span>,
    pub with: Option<Path>,
}

const CONTAINER_KEYS: &str =
    "expected `bound = \"...\"` or `crate = \"...\"` (container attributes are: bound, crate)";
const VARIANT_KEYS: &str = "expected `weight = N` (variant attributes are: weight)";
const FIELD_KEYS: &str = "expected `skip` or `with = path` (field attributes are: skip, with)";

fn mutate_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|attr| attr.path().is_ident("mutate"))
}

pub fn container(cx: &Ctxt, attrs: &[Attribute]) -> Container {
    let mut out = Container::default();
    for attr in mutate_attrs(attrs) {
        let result = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("bound") {
                let lit: LitStr = meta.value()?.parse()?;
                if out.bound.is_some() {
                    return Err(meta.error(
                        "duplicate `bound` attribute: merge the predicates into one string",
                    ));
                }
                let predicates = lit
                    .parse_with(syn::punctuated::Punctuated::<WherePredicate, syn::Token![,]>::parse_terminated)
                    .map_err(|err| {
                        syn::Error::new(
                            lit.span(),
                            format!("`bound` must hold where-clause predicates such as \"T: typefuzz::Mutate + Eq\": {err}"),
                        )
                    })?;
                out.bound = Some(predicates.into_iter().collect());
                Ok(())
            } else if meta.path.is_ident("crate") {
                let lit: LitStr = meta.value()?.parse()?;
                let path: Path = lit.parse().map_err(|_| {
                    syn::Error::new(
                        lit.span(),
                        "`crate` must be a path to typefuzz or a crate re-exporting it, such as \
                         \"typefuzz\" or \"::my_facade::typefuzz\"",
                    )
                })?;
                if out.krate.replace(path).is_some() {
                    return Err(meta.error("duplicate `crate` attribute: keep one"));
                }
                Ok(())
            } else if meta.path.is_ident("weight") {
                Err(meta.error("`weight` belongs on an enum variant, not on the type"))
            } else if meta.path.is_ident("skip") || meta.path.is_ident("with") {
                Err(meta.error("`skip` and `with` belong on a field, not on the type"))
            } else {
                Err(meta.error(format!("unknown typefuzz attribute: {CONTAINER_KEYS}")))
            }
        });
        if let Err(err) = result {
            cx.push(err);
        }
    }
    out
}

pub fn variant(cx: &Ctxt, attrs: &[Attribute]) -> Variant {
    let mut weight = None;
    for attr in mutate_attrs(attrs) {
        let result = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("weight") {
                let expr: syn::Expr = meta.value()?.parse()?;
                let value = match &expr {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Int(lit),
                        ..
                    }) => lit.base10_parse::<u32>().ok(),
                    _ => None,
                };
                let value = value.ok_or_else(|| {
                    syn::Error::new_spanned(
                        &expr,
                        "`weight` must be a whole number from 0 to 4294967295, e.g. `weight = 3`",
                    )
                })?;
                if weight.replace(value).is_some() {
                    return Err(meta.error("duplicate `weight` attribute: keep one"));
                }
                Ok(())
            } else if meta.path.is_ident("skip") || meta.path.is_ident("with") {
                Err(meta.error("`skip` and `with` belong on a field, not on a variant"))
            } else if meta.path.is_ident("bound") {
                Err(meta.error("`bound` belongs on the type, not on a variant"))
            } else if meta.path.is_ident("crate") {
                Err(meta.error("`crate` belongs on the type, not on a variant"))
            } else {
                Err(meta.error(format!("unknown typefuzz attribute: {VARIANT_KEYS}")))
            }
        });
        if let Err(err) = result {
            cx.push(err);
        }
    }
    Variant {
        weight: weight.unwrap_or(1),
    }
}

pub fn field(cx: &Ctxt, attrs: &[Attribute]) -> Field {
    let mut out = Field::default();
    for attr in mutate_attrs(attrs) {
        let result = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("skip") {
                if meta.input.peek(syn::Token![=]) {
                    return Err(meta.error("`skip` takes no value: write `#[mutate(skip)]`"));
                }
                if out
                    .skip
                    .replace(meta.path.get_ident().unwrap().span())
                    .is_some()
                {
                    return Err(meta.error("duplicate `skip` attribute: keep one"));
                }
                Ok(())
            } else if meta.path.is_ident("with") {
                let path: Path = meta.value()?.parse()?;
                if out.with.replace(path).is_some() {
                    return Err(meta.error("duplicate `with` attribute: keep one"));
                }
                Ok(())
            } else if meta.path.is_ident("weight") {
                Err(meta.error("`weight` belongs on an enum variant, not on a field"))
            } else if meta.path.is_ident("bound") {
                Err(meta.error("`bound` belongs on the type, not on a field"))
            } else if meta.path.is_ident("crate") {
                Err(meta.error("`crate` belongs on the type, not on a field"))
            } else {
                Err(meta.error(format!("unknown typefuzz attribute: {FIELD_KEYS}")))
            }
        });
        if let Err(err) = result {
            cx.push(err);
        }
    }
    out
}
