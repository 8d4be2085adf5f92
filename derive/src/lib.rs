//! Procedural macros of [typefuzz](https://docs.rs/typefuzz): `#[derive(Mutate)]` and
//! `assume!`. Use them through the `typefuzz` crate, which re-exports both.
//!
//! The derive parses the input once into an internal AST (`ast`), reads `#[mutate(...)]`
//! attributes (`attr`), checks cross-cutting rules (`valid`), infers bounds (`bound`) and
//! generates one impl (`expand`); on any error it emits every error at once plus a stub impl
//! (`fallback`).

mod assume;
mod ast;
mod attr;
mod bound;
mod ctxt;
mod expand;
mod fallback;
mod sometimes;
mod test_attr;
mod ty;
mod valid;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derives `typefuzz::Mutate`: sized generation, FuzzChick's type-aware mutation operators,
/// shrinking and the byte codec. See the `typefuzz` crate for the attributes.
#[proc_macro_derive(Mutate, attributes(mutate))]
pub fn derive_mutate(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(&input)
        .unwrap_or_else(|error| {
            let stub = fallback::expand(&input, error);
            // The stub names the runtime where the type asked, if that part of its attributes
            // parsed (its own errors are already in `error`).
            let cx = ctxt::Ctxt::new();
            let krate = attr::container(&cx, &input.attrs).krate;
            let _ = cx.check();
            match krate {
                Some(krate) => expand::with_crate_path(stub, &krate),
                None => stub,
            }
        })
        .into()
}

fn derive(input: &DeriveInput) -> syn::Result<proc_macro2::TokenStream> {
    let cx = ctxt::Ctxt::new();
    let container = ast::Container::from_ast(&cx, input);
    if let Some(container) = &container {
        valid::check(&cx, container);
    }
    cx.check()?;
    let container = container.expect("errors were reported");
    let tokens = expand::expand(&container);
    Ok(match &container.attrs.krate {
        Some(krate) => expand::with_crate_path(tokens, krate),
        None => tokens,
    })
}

/// `assume!(condition)`: discards the current test case when `condition` is false, and reports
/// how close it came to true so the engine can climb towards valid inputs. See `typefuzz::assume`.
#[proc_macro]
pub fn assume(input: TokenStream) -> TokenStream {
    assume::expand(input.into()).into()
}

/// `sometimes!(condition, name)`: records the label `name` when `condition` holds, and logs the
/// operands of the comparisons in `condition` for input-to-state mutation. See
/// `typefuzz::sometimes`.
#[proc_macro]
pub fn sometimes(input: TokenStream) -> TokenStream {
    sometimes::expand(input.into()).into()
}

/// `#[quickcheck]` in quickcheck_macros' syntax, run by typefuzz: use it as
/// `typefuzz::quickcheck_macros::quickcheck` (feature `quickcheck`), where it is documented.
#[proc_macro_attribute]
pub fn quickcheck(args: TokenStream, item: TokenStream) -> TokenStream {
    test_attr::quickcheck::expand(args.into(), item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// `#[proptest]` in test-strategy's syntax, run by typefuzz: use it as
/// `typefuzz::test_strategy::proptest` (feature `proptest`), where it is documented.
#[proc_macro_attribute]
pub fn proptest(args: TokenStream, item: TokenStream) -> TokenStream {
    test_attr::proptest::expand(args.into(), item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

#[cfg(test)]
mod tests {
    //! Expansion snapshots: reviewers read the generated code in `src/snapshots/`.

    fn expand(source: &str) -> String {
        let input: syn::DeriveInput = syn::parse_str(source).expect("valid input");
        let tokens = super::derive(&input).expect("derive succeeds");
        prettyplease::unparse(&syn::parse2(tokens).expect("expansion parses as a file"))
    }

    #[test]
    fn a_crate_path_replaces_every_typefuzz_root() {
        let expanded = expand(
            r#"#[mutate(crate = "typefuzz_engine", bound = "A: ::typefuzz::Mutate")]
            enum Tree<A> { Leaf(A), Node(#[mutate(skip)] u8, Box<Tree<A>>) }"#,
        );
        assert!(!expanded.contains("::typefuzz::"), "{expanded}");
        assert!(
            expanded.contains("impl<A> typefuzz_engine::Mutate for Tree<A>"),
            "{expanded}"
        );
        assert!(
            expanded.contains("typefuzz_engine::__private::"),
            "{expanded}"
        );
        // A path that merely ends in `typefuzz` is not a root.
        let krate: syn::Path = syn::parse_quote!(elsewhere);
        for kept in [
            quote::quote!(other::typefuzz::X),
            quote::quote!(crate::typefuzz::X),
        ] {
            let rebased = crate::expand::with_crate_path(kept.clone(), &krate);
            assert_eq!(rebased.to_string(), kept.to_string());
        }
        let rebased =
            crate::expand::with_crate_path(quote::quote!(&mut ::typefuzz::Context), &krate);
        assert_eq!(rebased.to_string(), "& mut elsewhere :: Context");
    }

    #[test]
    fn expand_recursive_generic_enum() {
        insta::assert_snapshot!(expand(
            "enum Tree<A> { Leaf(A), Node(A, Box<Tree<A>>, Box<Tree<A>>) }"
        ));
    }

    #[test]
    fn expand_struct_with_attributes() {
        insta::assert_snapshot!(expand(
            "struct Machine { code: Vec<Instr>, #[mutate(skip)] cache: Vec<u8>, #[mutate(with = pc)] pc: u16 }"
        ));
    }

    #[test]
    fn expand_weighted_fieldless_and_mixed_enum() {
        insta::assert_snapshot!(expand(
            "enum Instr { Nop, Push(i64), #[mutate(weight = 3)] Call { target: u16, args: u8 } }"
        ));
    }
}
