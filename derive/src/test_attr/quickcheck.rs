//! `#[quickcheck]` in quickcheck_macros' syntax: `#[quickcheck] fn prop(a: A, b: B) -> R { .. }`
//! becomes `typefuzz::quickcheck! { fn prop(a: A, b: B) -> R { .. } }`, and
//! `#[quickcheck] static prop: fn(A) -> R = f;` (or `static prop: bool = ..;`) a test calling
//! `typefuzz::quickcheck::quickcheck`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Error, FnArg, Item};

const ATTRIBUTE: &str = "#[quickcheck]";

pub fn expand(args: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    if !args.is_empty() {
        return Err(Error::new_spanned(
            args,
            "#[quickcheck] takes no arguments; set the number of tests with QUICKCHECK_TESTS \
             or TYPEFUZZ_CASES",
        ));
    }
    match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Fn(function)) => expand_fn(function),
        Ok(Item::Static(mut item_static)) => {
            let attrs = std::mem::take(&mut item_static.attrs);
            let name = &item_static.ident;
            // A function pointer is the property; any other value (`static ok: bool = ..`) is
            // a property of no arguments.
            let property = match &*item_static.ty {
                syn::Type::BareFn(_) => quote!(#name),
                _ => quote!((|| #name) as fn() -> _),
            };
            Ok(quote! {
                #[test]
                #(#attrs)*
                fn #name() {
                    #item_static
                    ::typefuzz::quickcheck::quickcheck(#property)
                }
            })
        }
        _ => Err(Error::new_spanned(
            item,
            "#[quickcheck] applies to a function `fn prop(arg: Type, ...) -> bool { .. }` \
             or a static holding a function pointer",
        )),
    }
}

fn expand_fn(mut function: syn::ItemFn) -> syn::Result<TokenStream> {
    super::check_signature(&function.sig, ATTRIBUTE)?;
    if let Some(receiver) = function.sig.receiver() {
        return Err(Error::new_spanned(
            receiver,
            "#[quickcheck] properties take no `self`: write a free function of the generated values",
        ));
    }
    for input in &function.sig.inputs {
        if let FnArg::Typed(typed) = input {
            if let Some(attr) = typed.attrs.first() {
                return Err(Error::new_spanned(
                    attr,
                    "#[quickcheck] arguments take no attributes: every argument is generated \
                     from its type",
                ));
            }
        }
    }
    // `quickcheck!` adds `#[test]` itself.
    function.attrs.retain(|attr| !attr.path().is_ident("test"));
    let syn::ItemFn {
        attrs,
        vis,
        sig,
        block,
    } = function;
    let (name, inputs, output) = (&sig.ident, &sig.inputs, &sig.output);
    Ok(quote! {
        ::typefuzz::quickcheck! {
            #(#attrs)*
            #vis fn #name(#inputs) #output #block
        }
    })
}
