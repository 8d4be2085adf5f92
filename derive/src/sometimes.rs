//! `sometimes!(condition, name)`: records the label `name` when `condition` holds (as the
//! engine's `macro_rules!` version does) and, seeing the expression, logs the operands of the
//! comparisons in it for input-to-state mutation (`typefuzz::feedback::cmplog`), the way
//! `assume!` does. `&&`, `||`, `!` and parentheses are looked through, keeping Rust's
//! short-circuiting; each comparison evaluates its operands once:
//!
//! ```text
//! sometimes!(x[0] == Shape::Circle(3) && n > 2, "circle")
//! // becomes, in essence,
//! LABEL.sometimes({ let a = &(x[0]); let b = &(Shape::Circle(3)); log(a, b); *a == *b }
//!     && { let a = &(n); let b = &(2); log_numbers(a, 2); *a > *b })
//! ```

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::{BinOp, Expr, UnOp};

use crate::assume::{log_numbers, log_operands};

struct Input {
    condition: Expr,
    name: Expr,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let usage = "sometimes! takes a condition and a name: `sometimes!(x > 3, \"big\")`";
        let condition: Expr = input.parse()?;
        if !input.peek(syn::Token![,]) {
            return Err(input.error(usage));
        }
        let _: syn::Token![,] = input.parse()?;
        let name: Expr = input.parse()?;
        if input.peek(syn::Token![,]) {
            let _: syn::Token![,] = input.parse()?;
        }
        if !input.is_empty() {
            return Err(input.error(usage));
        }
        Ok(Input { condition, name })
    }
}

/// Expands `sometimes!(condition, name)`.
pub fn expand(input: TokenStream) -> TokenStream {
    let Input { condition, name } = match syn::parse2::<Input>(input) {
        Ok(input) => input,
        Err(error) => return error.to_compile_error(),
    };
    let condition = logged(&condition);
    let label = syn::Ident::new("__TYPEFUZZ_LABEL", Span::mixed_site());
    quote! {
        {
            #[allow(unused_imports)]
            use ::typefuzz::__private::{AssumeViaNumber as _, AssumeViaOther as _};
            #[allow(unused_imports)]
            use ::typefuzz::__private::{
                CmpLogViaBytes as _, CmpLogViaMutate as _, CmpLogViaOther as _, CmpLogViaScalar as _,
            };
            static #label: ::typefuzz::__private::Label = ::typefuzz::__private::Label::new(#name);
            #label.sometimes(#condition)
        }
    }
}

/// `expr` as a `bool` expression that also logs the operands of its comparisons.
fn logged(expr: &Expr) -> TokenStream {
    match expr {
        Expr::Paren(inner) => {
            let inner = logged(&inner.expr);
            quote!((#inner))
        }
        Expr::Group(inner) => logged(&inner.expr),
        Expr::Unary(unary) if matches!(unary.op, UnOp::Not(_)) => {
            let inner = logged(&unary.expr);
            quote!(!(#inner))
        }
        Expr::Binary(binary) => {
            let (left, right) = (&binary.left, &binary.right);
            let op = &binary.op;
            match binary.op {
                BinOp::And(_) | BinOp::Or(_) => {
                    let (left, right) = (logged(left), logged(right));
                    quote!((#left) #op (#right))
                }
                BinOp::Eq(_)
                | BinOp::Ne(_)
                | BinOp::Lt(_)
                | BinOp::Le(_)
                | BinOp::Gt(_)
                | BinOp::Ge(_) => {
                    let (a, b) = (
                        syn::Ident::new("__typefuzz_a", Span::mixed_site()),
                        syn::Ident::new("__typefuzz_b", Span::mixed_site()),
                    );
                    let operands = log_operands(left, right, &a, &b);
                    let numbers = log_numbers(left, right, &a, &b);
                    quote!({
                        let #a = &(#left);
                        let #b = &(#right);
                        #operands
                        #numbers
                        *#a #op *#b
                    })
                }
                _ => quote!(#expr),
            }
        }
        _ => quote!(#expr),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion_parses_as_an_expression() {
        for input in [
            quote!(x < 10, "small"),
            quote!(a <= b && !(c == -3) || d, "mixed",),
            quote!(v.is_empty(), String::from("empty")),
        ] {
            let output = expand(input.clone());
            syn::parse2::<syn::Block>(output.clone()).unwrap_or_else(|e| {
                panic!("sometimes!({input}) expanded to invalid code: {e}\n{output}")
            });
        }
    }

    #[test]
    fn a_missing_name_is_an_error() {
        let output = expand(quote!(x < 1));
        assert!(output.to_string().contains("compile_error"), "{output}");
    }
}
