//! `assume!(expr)`: discard the run when `expr` is false, and score how close `expr` was to true
//! (>= 0 exactly when true: `a < b` scores `b - a - 1`, `&&` the minimum, `||` the maximum, `!`
//! the negation) from its structure, so the engine can climb towards valid inputs.
//!
//! The expansion evaluates every operand once, keeps Rust's short-circuiting for `&&`, `||`,
//! `.all` and `.any`, and produces an `f64` that is `>= 0` exactly when `expr` is true (the
//! runtime helpers in `typefuzz::__private` clamp each comparison's score to its truth value).
//! Worked example: `assume!(x < 10 && !v.is_empty())` becomes, in essence,
//!
//! ```text
//! let l = { let (a, b) = (&(x), &(10)); lt(*a < *b, number(a), Some(Int(10))) };   // 9 - x
//! let score = if l < 0.0 { l } else { min(l, { let b: bool = !v.is_empty(); ... }) };
//! if !SITE.check(score) { return Discard::discard(); }
//! ```

use proc_macro2::{Span, TokenStream};
use quote::{quote, ToTokens};
use syn::parse::{Parse, ParseStream};
use syn::visit::Visit;
use syn::{BinOp, Expr, ExprClosure, ExprLit, ExprMethodCall, Lit, Pat, UnOp};

/// The macro input: an expression, optionally followed by a comma.
struct Input {
    condition: Expr,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let condition: Expr = input.parse()?;
        if input.peek(syn::Token![,]) {
            let _: syn::Token![,] = input.parse()?;
        }
        if !input.is_empty() {
            return Err(input.error("assume! takes one boolean expression: `assume!(x < 10)`"));
        }
        Ok(Input { condition })
    }
}

/// Expands `assume!(expr)`.
pub fn expand(input: TokenStream) -> TokenStream {
    let Input { condition } = match syn::parse2::<Input>(input) {
        Ok(input) => input,
        Err(error) => return error.to_compile_error(),
    };
    let text = condition.to_token_stream().to_string();
    let score = score(&condition);
    let site = ident("__TYPEFUZZ_ASSUME_SITE");
    let value = ident("__typefuzz_score");
    quote! {
        {
            #[allow(unused_imports)]
            use ::typefuzz::__private::{AssumeViaNumber as _, AssumeViaOther as _};
            #[allow(unused_imports)]
            use ::typefuzz::__private::{
                CmpLogViaBytes as _, CmpLogViaMutate as _, CmpLogViaOther as _, CmpLogViaScalar as _,
            };
            static #site: ::typefuzz::__private::AssumeSite = ::typefuzz::__private::AssumeSite::new(
                ::core::concat!(::core::file!(), ":", ::core::line!(), ":", ::core::column!()),
                #text,
            );
            let #value: f64 = #score;
            if !#site.check(#value) {
                return ::typefuzz::__private::Discard::discard();
            }
        }
    }
}

/// A hygienic local name: invisible to the user's expression, whatever names it uses.
fn ident(name: &str) -> syn::Ident {
    syn::Ident::new(name, Span::mixed_site())
}

/// An `f64` expression that is `>= 0` exactly when `expr` is true.
fn score(expr: &Expr) -> TokenStream {
    match expr {
        Expr::Paren(inner) => score(&inner.expr),
        Expr::Group(inner) => score(&inner.expr),
        Expr::Lit(ExprLit {
            lit: Lit::Bool(value),
            ..
        }) => {
            if value.value {
                quote!(1.0f64)
            } else {
                quote!(-1.0f64)
            }
        }
        Expr::Unary(unary) if matches!(unary.op, UnOp::Not(_)) => {
            let inner = score(&unary.expr);
            quote!(::typefuzz::__private::assume_not(#inner))
        }
        Expr::Binary(binary) => match binary.op {
            BinOp::And(_) => {
                let (left, right) = (score(&binary.left), score(&binary.right));
                let (l, r) = (ident("__typefuzz_left"), ident("__typefuzz_right"));
                // `q` runs only when `p` holds, as in Rust; a false `p` already bounds the min.
                quote!({
                    let #l: f64 = #left;
                    if #l < 0.0 { #l } else { let #r: f64 = #right; if #r < #l { #r } else { #l } }
                })
            }
            BinOp::Or(_) => {
                let (left, right) = (score(&binary.left), score(&binary.right));
                let (l, r) = (ident("__typefuzz_left"), ident("__typefuzz_right"));
                quote!({
                    let #l: f64 = #left;
                    if #l >= 0.0 { #l } else { let #r: f64 = #right; if #r > #l { #r } else { #l } }
                })
            }
            BinOp::Lt(_) => comparison(&binary.left, &binary.right, quote!(<), "assume_lt", false),
            BinOp::Le(_) => comparison(&binary.left, &binary.right, quote!(<=), "assume_le", false),
            BinOp::Gt(_) => comparison(&binary.left, &binary.right, quote!(>), "assume_lt", true),
            BinOp::Ge(_) => comparison(&binary.left, &binary.right, quote!(>=), "assume_le", true),
            BinOp::Eq(_) => comparison(&binary.left, &binary.right, quote!(==), "assume_eq", false),
            BinOp::Ne(_) => {
                let (a, b) = (ident("__typefuzz_a"), ident("__typefuzz_b"));
                let (left, right) = (&binary.left, &binary.right);
                let log = log_operands(left, right, &a, &b);
                quote!({
                    let #a = &(#left);
                    let #b = &(#right);
                    #log
                    ::typefuzz::__private::assume_boolean(*#a != *#b)
                })
            }
            _ => atom(expr),
        },
        Expr::MethodCall(call) => fold(call).unwrap_or_else(|| atom(expr)),
        _ => atom(expr),
    }
}

/// Any other boolean expression: `1` or `-1`.
fn atom(expr: &Expr) -> TokenStream {
    let truth = ident("__typefuzz_truth");
    quote!({
        let #truth: bool = #expr;
        ::typefuzz::__private::assume_boolean(#truth)
    })
}

/// `left op right`, scored by `helper` (with the operands swapped for `>` and `>=`).
fn comparison(left: &Expr, right: &Expr, op: TokenStream, helper: &str, swap: bool) -> TokenStream {
    let (a, b) = (ident("__typefuzz_a"), ident("__typefuzz_b"));
    let helper = syn::Ident::new(helper, Span::call_site());
    let number_a = number(left, &a);
    let number_b = number(right, &b);
    let (first, second) = if swap {
        (number_b, number_a)
    } else {
        (number_a, number_b)
    };
    let log = log_operands(left, right, &a, &b);
    quote!({
        let #a = &(#left);
        let #b = &(#right);
        #log
        ::typefuzz::__private::#helper(*#a #op *#b, #first, #second)
    })
}

/// Logs the operands for input-to-state mutation (strings, `char`s, `bool`s, derived values;
/// integers are logged by the scoring helpers). Not when one side is a numeric literal: its type
/// may still be an inference variable, on which no method can be resolved.
pub(crate) fn log_operands(
    left: &Expr,
    right: &Expr,
    a: &syn::Ident,
    b: &syn::Ident,
) -> TokenStream {
    if literal_number(left, false).is_some() || literal_number(right, false).is_some() {
        return TokenStream::new();
    }
    // The borrows select the impl (autoref dispatch); clippy would call some of them needless.
    quote! {
        #[allow(clippy::needless_borrow)]
        let () = (&&&&::typefuzz::__private::CmpLogOperands(#a, #b)).record();
    }
}

/// The operand's number: known at compile time for a numeric literal (whose type may still be
/// an inference variable, on which no method can be called), else found by autoref dispatch.
fn number(expr: &Expr, bound: &syn::Ident) -> TokenStream {
    if let Some(literal) = literal_number(expr, false) {
        return literal;
    }
    quote!((&::typefuzz::__private::AssumeOperand(#bound)).assume_number())
}

fn literal_number(expr: &Expr, negate: bool) -> Option<TokenStream> {
    match expr {
        Expr::Paren(inner) => literal_number(&inner.expr, negate),
        Expr::Group(inner) => literal_number(&inner.expr, negate),
        Expr::Unary(unary) if matches!(unary.op, UnOp::Neg(_)) => {
            literal_number(&unary.expr, !negate)
        }
        Expr::Lit(ExprLit {
            lit: Lit::Int(int), ..
        }) => {
            let value: i128 = int.base10_parse().ok()?;
            let value = if negate { value.checked_neg()? } else { value };
            Some(
                quote!(::core::option::Option::Some(::typefuzz::__private::AssumeNumber::Int(#value))),
            )
        }
        Expr::Lit(ExprLit {
            lit: Lit::Float(float),
            ..
        }) => {
            let value: f64 = float.base10_parse().ok()?;
            let value = if negate { -value } else { value };
            Some(
                quote!(::core::option::Option::Some(::typefuzz::__private::AssumeNumber::Float(#value))),
            )
        }
        _ => None,
    }
}

/// Logs two integer operands for input-to-state mutation (what the scoring helpers do for
/// `assume!`), for macros that do not score: a literal's number is known here, a variable's is
/// found by autoref dispatch.
pub(crate) fn log_numbers(
    left: &Expr,
    right: &Expr,
    a: &syn::Ident,
    b: &syn::Ident,
) -> TokenStream {
    let (first, second) = (number(left, a), number(right, b));
    quote!(::typefuzz::__private::cmplog_numbers(#first, #second);)
}

/// `iterator.all(|x| p)` / `iterator.any(|x| p)`: the min / max of `p`'s score over the elements
/// visited, stopping where Rust's `all` / `any` stop. `None` when the call is not of that shape
/// (or its closure `return`s or uses `?`, which would mean something else once inlined).
fn fold(call: &ExprMethodCall) -> Option<TokenStream> {
    let all = match call.method.to_string().as_str() {
        "all" => true,
        "any" => false,
        _ => return None,
    };
    if call.args.len() != 1 || call.turbofish.is_some() {
        return None;
    }
    let Expr::Closure(closure) = &call.args[0] else {
        return None;
    };
    if closure.inputs.len() != 1 || closure.asyncness.is_some() || escapes(closure) {
        return None;
    }
    let (pattern, ty) = match &closure.inputs[0] {
        Pat::Type(typed) => (&*typed.pat, Some(&*typed.ty)),
        other => (other, None),
    };
    let binding = match ty {
        Some(ty) => quote!(let #pattern: #ty = __typefuzz_item;),
        None => quote!(let #pattern = __typefuzz_item;),
    };
    let body = score(&closure.body);
    let receiver = &call.receiver;
    let (iterator, item, accumulated, element) = (
        ident("__typefuzz_iterator"),
        syn::Ident::new("__typefuzz_item", Span::call_site()),
        ident("__typefuzz_accumulated"),
        ident("__typefuzz_element"),
    );
    let (empty, better, stop) = if all {
        (
            quote!(1.0f64),
            quote!(#element < #accumulated),
            quote!(#element < 0.0),
        )
    } else {
        (
            quote!(-1.0f64),
            quote!(#element > #accumulated),
            quote!(#element >= 0.0),
        )
    };
    Some(quote!({
        let #iterator = &mut (#receiver);
        let mut #accumulated: ::core::option::Option<f64> = ::core::option::Option::None;
        while let ::core::option::Option::Some(#item) = ::core::iter::Iterator::next(#iterator) {
            #binding
            let #element: f64 = #body;
            #accumulated = match #accumulated {
                ::core::option::Option::Some(#accumulated) if !(#better) => ::core::option::Option::Some(#accumulated),
                _ => ::core::option::Option::Some(#element),
            };
            if #stop {
                break;
            }
        }
        match #accumulated {
            ::core::option::Option::Some(#accumulated) => #accumulated,
            ::core::option::Option::None => #empty,
        }
    }))
}

/// Whether the closure body contains a `return` or `?` of its own (not inside a nested closure
/// or async block), which inlining would turn into a return from the enclosing function.
fn escapes(closure: &ExprClosure) -> bool {
    struct Finder(bool);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_expr_return(&mut self, _: &'ast syn::ExprReturn) {
            self.0 = true;
        }
        fn visit_expr_try(&mut self, _: &'ast syn::ExprTry) {
            self.0 = true;
        }
        fn visit_expr_closure(&mut self, _: &'ast ExprClosure) {}
        fn visit_expr_async(&mut self, _: &'ast syn::ExprAsync) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut finder = Finder(false);
    finder.visit_expr(&closure.body);
    finder.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion_parses_as_an_expression() {
        for input in [
            quote!(x < 10),
            quote!(a <= b && !(c == -3) || d.iter().all(|&e| e > 2.5)),
            quote!(v.iter().any(|x: &u8| *x != 0),),
            quote!(is_bst(&tree)),
        ] {
            let output = expand(input.clone());
            syn::parse2::<syn::Block>(output.clone()).unwrap_or_else(|e| {
                panic!("assume!({input}) expanded to invalid code: {e}\n{output}")
            });
        }
    }

    #[test]
    fn closures_that_return_are_atoms() {
        let output = expand(quote!(v.iter().all(|x| {
            if *x {
                return true;
            }
            false
        })));
        assert!(
            !output.to_string().contains("__typefuzz_iterator"),
            "{output}"
        );
    }

    #[test]
    fn bad_input_is_a_spanned_error() {
        let output = expand(quote!(x < 1, y));
        assert!(output.to_string().contains("compile_error"), "{output}");
    }
}
