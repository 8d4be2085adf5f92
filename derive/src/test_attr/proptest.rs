//! `#[proptest]` in test-strategy's syntax, rewritten into `typefuzz::proptest! { .. }`:
//!
//! | test-strategy | `proptest!` |
//! |---|---|
//! | `name: Type` | `name: Type` (`any::<Type>()`) |
//! | `#[strategy(expr)] name: Type` | `name in expr` |
//! | `#[any(params)] name: Type` | `name in any_with::<Type>(params)` |
//! | `#[filter(..)]` on an argument or the function | `prop_assume!(..)` first in the body |
//! | `#[proptest(config)]`, `#[proptest(cases = N, ..)]` | `#![proptest_config(..)]` |

use proc_macro2::{Group, TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Attribute, Error, Expr, FnArg, Ident, Pat, ReturnType, Token, Type};

const ATTRIBUTE: &str = "#[proptest]";

/// The `proptest` crate as the drop-in re-exports it.
fn proptest_crate() -> TokenStream {
    quote!(::typefuzz::proptest::__private::proptest)
}

pub fn expand(args: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let config_type = quote!(::typefuzz::proptest::__private::ProptestConfig);
    let config = if args.is_empty() {
        None
    } else {
        Some(base_and_fields(args, &config_type, "#[proptest(..)]")?)
    };
    let mut function = super::parse_fn(item, ATTRIBUTE)?;
    super::check_signature(&function.sig, ATTRIBUTE)?;
    if let ReturnType::Type(_, ty) = &function.sig.output {
        if !matches!(&**ty, Type::Tuple(tuple) if tuple.elems.is_empty()) {
            return Err(Error::new_spanned(
                ty,
                "#[proptest] properties return `()`: check with `prop_assert!` and friends",
            ));
        }
    }
    if !matches!(function.vis, syn::Visibility::Inherited) {
        return Err(Error::new_spanned(
            &function.vis,
            "#[proptest] tests are private functions: remove the visibility",
        ));
    }
    if function.sig.inputs.is_empty() {
        return Err(Error::new_spanned(
            &function.sig,
            "#[proptest] needs at least one generated argument; without one, use #[test]",
        ));
    }

    let mut assumptions = Vec::new();
    let mut kept = Vec::new();
    for attr in std::mem::take(&mut function.attrs) {
        if attr.path().is_ident("test") {
            continue; // added below, once
        } else if attr.path().is_ident("filter") {
            assumptions.push(filter(&attr, None)?);
        } else {
            kept.push(attr);
        }
    }

    let mut arguments = Vec::new();
    for input in &function.sig.inputs {
        let FnArg::Typed(typed) = input else {
            return Err(Error::new_spanned(
                input,
                "#[proptest] tests take no `self`: write a free function of the generated values",
            ));
        };
        let (pat, ty) = (&typed.pat, &typed.ty);
        let mut strategy = None;
        for attr in &typed.attrs {
            let path = attr.path();
            if path.is_ident("strategy") || path.is_ident("any") {
                if strategy.is_some() {
                    return Err(Error::new_spanned(
                        attr,
                        "an argument takes one of #[strategy(..)] and #[any(..)]",
                    ));
                }
                let tokens = attr.meta.require_list()?.tokens.clone();
                reject_dependency(&tokens)?;
                strategy = Some(if path.is_ident("strategy") {
                    let expr: Expr = syn::parse2(tokens)?;
                    expr.into_token_stream()
                } else {
                    let proptest = proptest_crate();
                    let params = base_and_fields(
                        tokens,
                        &quote!(<#ty as #proptest::arbitrary::Arbitrary>::Parameters),
                        "#[any(..)]",
                    )?;
                    quote!(#proptest::arbitrary::any_with::<#ty>(#params))
                });
            } else if path.is_ident("filter") {
                assumptions.push(filter(attr, Some(pat))?);
            } else if ["allow", "expect", "warn", "deny"]
                .iter()
                .any(|lint| path.is_ident(lint))
            {
                // Lint levels on a binding: `proptest!` has no place for them.
            } else {
                return Err(Error::new_spanned(
                    attr,
                    "#[proptest] arguments take #[strategy(..)], #[any(..)] and #[filter(..)] \
                     (#[by_ref] and #[map] are not supported: use #[strategy(expr.prop_map(..))])",
                ));
            }
        }
        arguments.push(match strategy {
            Some(strategy) => quote!(#pat in #strategy),
            None => quote!(#pat: #ty),
        });
    }

    let config = config.map(|config| quote!(#![proptest_config(#config)]));
    let name = &function.sig.ident;
    let block = &function.block;
    let proptest = proptest_crate();
    Ok(quote! {
        ::typefuzz::proptest! {
            #config
            #(#kept)*
            #[test]
            fn #name(#(#arguments),*) {
                #(#proptest::prop_assume!(#assumptions);)*
                #block
            }
        }
    })
}

/// `base, field = value, ..` (test-strategy's `#[proptest(..)]` and `#[any(..)]`): the base
/// expression (default: `Default::default()`) with the named fields overwritten.
fn base_and_fields(tokens: TokenStream, ty: &TokenStream, form: &str) -> syn::Result<TokenStream> {
    let usage = format!(
        "expected {form} with a value, `field = value` pairs, or a value followed by pairs \
         (`async = ..` and `dump` are not supported)"
    );
    let items = Punctuated::<Expr, Token![,]>::parse_terminated
        .parse2(tokens.clone())
        .map_err(|error| Error::new(error.span(), &usage))?;
    let mut base = None;
    let mut fields = Vec::new();
    for (index, item) in items.into_iter().enumerate() {
        match item {
            Expr::Assign(assign) => {
                let field = match &*assign.left {
                    Expr::Path(path) if path.path.get_ident().is_some() => {
                        path.path.get_ident().cloned()
                    }
                    _ => None,
                };
                let field = field.ok_or_else(|| Error::new_spanned(&assign.left, &usage))?;
                fields.push((field, assign.right));
            }
            expr if index == 0 => {
                if matches!(&expr, Expr::Path(path) if path.path.is_ident("dump")) {
                    return Err(Error::new_spanned(expr, &usage));
                }
                base = Some(expr);
            }
            expr => return Err(Error::new_spanned(expr, &usage)),
        }
    }
    let base = base.map_or_else(
        || quote!(<#ty as ::core::default::Default>::default()),
        ToTokens::into_token_stream,
    );
    if fields.is_empty() {
        return Ok(base);
    }
    let (names, values): (Vec<Ident>, Vec<Box<Expr>>) = fields.into_iter().unzip();
    Ok(quote!({
        // The fields are assigned after the base, as test-strategy does: clippy's
        // struct-update suggestion cannot name `<T as Arbitrary>::Parameters`.
        #[allow(clippy::field_reassign_with_default)]
        let value = {
            let mut value: #ty = #base;
            #(value.#names = #values;)*
            value
        };
        value
    }))
}

/// The condition of `#[filter(..)]` / `#[filter("name", ..)]`: an expression over `#argument`s,
/// or (on an argument, without `#`) a predicate called with a reference to that argument.
fn filter(attr: &Attribute, argument: Option<&Pat>) -> syn::Result<TokenStream> {
    let tokens = attr.meta.require_list()?.tokens.clone();
    // A leading `"name",` labels the filter in test-strategy's rejection messages.
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let labelled = matches!(
        trees.as_slice(),
        [TokenTree::Literal(label), TokenTree::Punct(comma), ..]
            if label.to_string().starts_with('"') && comma.as_char() == ','
    );
    let condition: TokenStream = trees
        .into_iter()
        .skip(if labelled { 2 } else { 0 })
        .collect();
    if contains_hash(&condition) {
        let expr: Expr = syn::parse2(strip_hashes(condition)?)?;
        return Ok(expr.into_token_stream());
    }
    let predicate: Expr = syn::parse2(condition)?;
    match argument {
        Some(Pat::Ident(binding)) => {
            let ident = &binding.ident;
            Ok(quote!((#predicate)(&#ident)))
        }
        Some(pat) => Err(Error::new_spanned(
            pat,
            "a predicate #[filter(f)] needs the argument bound to a name; or write \
             #[filter(condition over #names)]",
        )),
        None => Err(Error::new_spanned(
            attr,
            "#[filter(..)] on the function takes a condition over the arguments, written `#name`",
        )),
    }
}

fn contains_hash(tokens: &TokenStream) -> bool {
    tokens.clone().into_iter().any(|tree| match tree {
        TokenTree::Punct(punct) => punct.as_char() == '#',
        TokenTree::Group(group) => contains_hash(&group.stream()),
        _ => false,
    })
}

/// `#name` -> `name`.
fn strip_hashes(tokens: TokenStream) -> syn::Result<TokenStream> {
    let mut out = TokenStream::new();
    let mut trees = tokens.into_iter().peekable();
    while let Some(tree) = trees.next() {
        match tree {
            TokenTree::Punct(punct) if punct.as_char() == '#' => match trees.next() {
                Some(TokenTree::Ident(ident)) if ident != "self" => {
                    out.extend([TokenTree::Ident(ident)])
                }
                _ => {
                    return Err(Error::new(
                        punct.span(),
                        "`#` in #[filter(..)] names an argument of the test: `#name`",
                    ))
                }
            },
            TokenTree::Group(group) => {
                let mut inner = Group::new(group.delimiter(), strip_hashes(group.stream())?);
                inner.set_span(group.span());
                out.extend([TokenTree::Group(inner)]);
            }
            tree => out.extend([tree]),
        }
    }
    Ok(out)
}

/// test-strategy's dependent strategies (`#[strategy(0..#n)]`) have no `proptest!` form.
fn reject_dependency(tokens: &TokenStream) -> syn::Result<()> {
    for tree in tokens.clone() {
        match tree {
            TokenTree::Punct(punct) if punct.as_char() == '#' => {
                return Err(Error::new(
                    punct.span(),
                    "strategies that depend on other arguments (`#name`) are not supported: \
                     generate the arguments together, e.g. #[strategy((1..10u32).prop_flat_map(|n| (Just(n), 0..n)))] \
                     on one tuple argument",
                ))
            }
            TokenTree::Group(group) => {
                reject_dependency(&group.stream())?
            }
            _ => {}
        }
    }
    Ok(())
}
