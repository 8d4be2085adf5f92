//! Code generation: one file per generated capability.

mod codec;
mod fingerprint;
mod generate;
mod leaves;
mod mutate;
mod shrink;
mod structure;
mod subterms;
mod transition;
mod variants;

use proc_macro2::{Group, TokenStream, TokenTree};
use quote::{quote, ToTokens};

use crate::ast::{Container, Variant};

pub fn expand(container: &Container) -> TokenStream {
    let ident = container.ident;
    let generics = crate::bound::with_bounds(container);
    let (impl_generics, type_generics, where_clause) = generics.split_for_impl();
    let generate = generate::expand(container);
    let mutate = mutate::expand(container);
    let shrink = shrink::expand(container);
    let encode = codec::expand_encode(container);
    let decode = codec::expand_decode(container);
    let subterms = subterms::expand(container);
    let fingerprint = fingerprint::expand(container);
    let structure = structure::expand(container);
    let leaves = leaves::expand(container);
    let duplicate = duplicate(container);
    let variants = variants::expand(container, &impl_generics, &type_generics, where_clause);
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::all, clippy::pedantic)]
        const _: () = {
            #variants

            #[automatically_derived]
            #[allow(unused_variables, unused_mut, unreachable_patterns, unreachable_code)]
            impl #impl_generics ::typefuzz::Mutate for #ident #type_generics #where_clause {
                fn generate(__cx: &mut ::typefuzz::Context) -> Self {
                    #generate
                }

                fn mutate(&mut self, __cx: &mut ::typefuzz::Context) {
                    #mutate
                }

                fn mutate_undoable(&mut self, __cx: &mut ::typefuzz::Context) {
                    <Self as ::typefuzz::Mutate>::mutate(self, __cx)
                }

                fn shrink(&self, __cx: &mut ::typefuzz::Context) -> ::typefuzz::__private::Vec<Self> {
                    #shrink
                }

                fn duplicate(&self) -> Self {
                    #duplicate
                }

                fn encode(&self, __out: &mut ::typefuzz::__private::Encoder) {
                    #encode
                }

                fn decode(__input: &mut ::typefuzz::__private::Decoder<'_>) -> Self {
                    #decode
                }

                fn fingerprint(__fingerprint: &mut ::typefuzz::__private::Fingerprint) {
                    #fingerprint
                }

                #subterms

                #structure

                #leaves
            }
        };
    }
}

/// The index of the current variant of `scrutinee` (`&Self`): `0usize` for a struct.
fn variant_index(container: &Container, scrutinee: TokenStream) -> TokenStream {
    if container.is_enum {
        quote!(<Self as __Variants>::__index(#scrutinee))
    } else {
        quote!(0usize)
    }
}

/// A constant table of small numbers (variant indices, field counts) as `(element type, value)`:
/// a byte string, `u8` elements, when every number fits in a byte, else a `usize` array. One
/// literal instead of one per number keeps the expansion of a many-variant enum small (its
/// drop and grow tables hold about one index per pair of variants); readers convert elements
/// with `as usize`, which works for either type.
fn index_table(numbers: &[usize]) -> (TokenStream, TokenStream) {
    if numbers.iter().all(|&n| n <= usize::from(u8::MAX)) {
        let bytes: Vec<u8> = numbers.iter().map(|&n| n as u8).collect();
        let literal = proc_macro2::Literal::byte_string(&bytes);
        (quote!(::core::primitive::u8), quote!(#literal))
    } else {
        (quote!(::core::primitive::usize), quote!(&[#(#numbers),*]))
    }
}

/// [`index_table`] for a table of rows (one per variant), all of the same element type.
fn index_tables(rows: &[Vec<usize>]) -> (TokenStream, TokenStream) {
    let bytes = rows.iter().flatten().all(|&n| n <= usize::from(u8::MAX));
    let rows = rows.iter().map(|row| {
        if bytes {
            index_table(row).1
        } else {
            quote!(&[#(#row),*])
        }
    });
    let element = if bytes {
        quote!(::core::primitive::u8)
    } else {
        quote!(::core::primitive::usize)
    };
    (element, quote!(&[#(#rows),*]))
}

/// `<Self as __Variants>::__fresh(__cx, variant, size)`: variant `variant` with freshly
/// generated fields at size `size` (see `variants.rs`; enums only). Both are expressions that do
/// not use `__cx` (locals), since `__cx` is borrowed for the call.
fn fresh_variant(variant: TokenStream, size: TokenStream) -> TokenStream {
    quote!(<Self as __Variants>::__fresh(__cx, #variant, #size))
}

/// `match self { <arms> _ => {} }` over one optional arm per variant: variants without an arm
/// (nothing to do for them) share the `_` arm, which is left out when every variant has one.
fn match_self(arms: impl IntoIterator<Item = Option<TokenStream>>) -> TokenStream {
    let mut omitted = false;
    let arms: Vec<TokenStream> = (arms.into_iter())
        .filter_map(|arm| {
            omitted |= arm.is_none();
            arm
        })
        .collect();
    let rest = omitted.then(|| quote!(_ => {}));
    quote!(match self { #(#arms)* #rest })
}

/// A copy of the field bound to its binding: `Mutate::duplicate` (see [`duplicate`]), or
/// `Clone::clone` for a field the engine does not otherwise handle through its type's
/// `Mutate` impl (`skip`, `with = ...`).
fn copy_field(field: &crate::ast::Field) -> TokenStream {
    let binding = &field.binding;
    if field.attrs.skip.is_some() || field.attrs.with.is_some() {
        quote!(::core::clone::Clone::clone(#binding))
    } else {
        let ty = field.ty;
        quote!(<#ty as ::typefuzz::Mutate>::duplicate(#binding))
    }
}

/// `Mutate::duplicate`: the value rebuilt with a copy of each field ([`copy_field`]), as
/// `#[derive(Clone)]` does, so that the engine's copies compile no `Clone` impl of the type or
/// of the `Box`es and `Vec`s in it.
fn duplicate(container: &Container) -> TokenStream {
    match_self(container.variants.iter().map(|variant| {
        let pattern = variant.pattern();
        let value = construct(variant, copy_field);
        Some(quote!(#pattern => #value,))
    }))
}

/// `Self::V { a: <expr a>, b: <expr b> }` for every field of `variant`.
fn construct(
    variant: &Variant,
    mut value: impl FnMut(&crate::ast::Field) -> TokenStream,
) -> TokenStream {
    let path = variant.path();
    let fields = variant.fields.iter().map(|field| {
        let member = &field.member;
        let value = value(field);
        quote!(#member: #value)
    });
    quote!(#path { #(#fields),* })
}

/// Rewrites the root of every absolute `::typefuzz` path in `tokens` to `krate`
/// (`#[mutate(crate = "...")]`).
///
/// Every expansion names the runtime as `::typefuzz::...`, the way users see it; this one pass
/// applies the attribute to all of them (and to any capability added later) without threading
/// the path through each file. Only a leading `::` counts, so `other::typefuzz` (say in a field's
/// type) is left alone:
/// `impl ::typefuzz::Mutate for T` becomes `impl typefuzz_engine::Mutate for T` with
/// `crate = "typefuzz_engine"`.
pub fn with_crate_path(tokens: TokenStream, krate: &syn::Path) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = TokenStream::new();
    let mut index = 0;
    while index < trees.len() {
        let absolute_typefuzz = match &trees[index..] {
            [TokenTree::Punct(first), TokenTree::Punct(second), TokenTree::Ident(name), ..] => {
                first.as_char() == ':'
                    && first.spacing() == proc_macro2::Spacing::Joint
                    && second.as_char() == ':'
                    && name == "typefuzz"
                    && !index
                        .checked_sub(1)
                        .is_some_and(|previous| is_path_segment(&trees[previous]))
            }
            _ => false,
        };
        if absolute_typefuzz {
            krate.to_tokens(&mut out);
            index += 3;
            continue;
        }
        match &trees[index] {
            TokenTree::Group(group) => {
                let mut rebased =
                    Group::new(group.delimiter(), with_crate_path(group.stream(), krate));
                rebased.set_span(group.span());
                out.extend([TokenTree::Group(rebased)]);
            }
            tree => out.extend([tree.clone()]),
        }
        index += 1;
    }
    out
}

/// Whether `tree`, just before `::`, is a path segment (`other` in `other::typefuzz`) rather than
/// a keyword that may precede an absolute path (`mut` in `&mut ::typefuzz::Context`).
fn is_path_segment(tree: &TokenTree) -> bool {
    const BEFORE_ABSOLUTE_PATHS: &[&str] = &[
        "as", "break", "const", "dyn", "else", "for", "if", "impl", "in", "let", "match", "move",
        "mut", "ref", "return", "static", "unsafe", "use", "where", "while",
    ];
    match tree {
        TokenTree::Ident(ident) => !BEFORE_ABSOLUTE_PATHS.contains(&ident.to_string().as_str()),
        // `>` ends generics (`impl<A> ::typefuzz::Mutate`), never a segment of the path.
        _ => false,
    }
}

#[cfg(test)]
mod tables {
    #[test]
    fn index_tables_are_byte_strings_while_every_number_fits_in_a_byte() {
        let (element, value) = super::index_tables(&[vec![0, 255], vec![]]);
        assert_eq!(element.to_string(), ":: core :: primitive :: u8");
        assert_eq!(value.to_string(), r#"& [b"\0\xFF" , b""]"#);
        let (element, value) = super::index_tables(&[vec![0, 256], vec![]]);
        assert_eq!(element.to_string(), ":: core :: primitive :: usize");
        assert_eq!(value.to_string(), "& [& [0usize , 256usize] , & []]");
    }
}

#[cfg(test)]
mod size {
    //! Expansion size of the compile-time benchmark's shapes (`bench/compile-time/run.sh`):
    //! the derive's compile time follows the amount of code it emits.

    use crate::ast::Container;
    use crate::ctxt::Ctxt;

    const ENUM30: &str = "pub enum Op {
        Nop, Halt, Pop, Dup, Swap, Over, Add, Sub, Mul, Div,
        Push(i64), Load(u8), Store(u8), Jump(u32), JumpIf(u32, bool),
        Call { target: u32, args: u8 }, Ret { values: u8 },
        Shl(u8), Shr(u8), And(u64), Or(u64), Xor(u64),
        Text(String), Bytes(Vec<u8>), Pair(i32, i32), Maybe(Option<u16>),
        Block(Vec<Op>), Nested(Box<Op>), Label { name: String, at: usize }, Check(char),
    }";
    const EXPR: &str = "pub enum Expr {
        Lit(i64),
        Var(String),
        Bin(Box<Expr>, u8, Box<Expr>),
        Block(Vec<Stmt>, Box<Expr>),
        If { cond: Box<Expr>, then: Box<Stmt>, otherwise: Option<Box<Stmt>> },
    }";
    const STMT: &str = "pub struct Stmt {
        pub label: Option<String>,
        pub body: Vec<Expr>,
        pub next: Option<Box<Stmt>>,
    }";

    /// Bytes of `tokens` as rustc would read them (token stream to string).
    fn bytes(tokens: proc_macro2::TokenStream) -> usize {
        tokens.to_string().len()
    }

    /// Each capability's share of the expansion of `source`, and the whole.
    fn sizes(source: &str) -> Vec<(&'static str, usize)> {
        let input: syn::DeriveInput = syn::parse_str(source).expect("valid input");
        let cx = Ctxt::new();
        let container = Container::from_ast(&cx, &input).expect("valid container");
        cx.check().expect("no errors");
        vec![
            ("total", bytes(super::expand(&container))),
            ("generate", bytes(super::generate::expand(&container))),
            ("mutate", bytes(super::mutate::expand(&container))),
            ("shrink", bytes(super::shrink::expand(&container))),
            ("encode", bytes(super::codec::expand_encode(&container))),
            ("decode", bytes(super::codec::expand_decode(&container))),
            ("subterms", bytes(super::subterms::expand(&container))),
            ("fingerprint", bytes(super::fingerprint::expand(&container))),
            ("structure", bytes(super::structure::expand(&container))),
            ("leaves", bytes(super::leaves::expand(&container))),
        ]
    }

    /// Prints the sizes (`cargo test -p typefuzz-derive --lib size -- --nocapture`; with `DUMP=1`
    /// also the expansions) and bounds the totals, so a change that makes the expansion (and the
    /// compile time) grow again fails. Before the shared helpers: 84,084 / 26,120 / 8,106 bytes.
    /// Taking field shrink candidates by `pop` (no `vec::IntoIter` per field type: 10% fewer IR
    /// lines in the mutual pair) costs a few bytes per field; index tables as byte strings and
    /// structure tokens as literals save more: 58,159 / 24,156 / 7,794 bytes.
    /// Paired mutation's twin table and replay loop, for enum30's `Pair(i32, i32)`: 58,844.
    /// `hash_value` (the distinct-input hash: the variant index, then a match over the variants
    /// with fields): 61,607 / 25,406 / 8,220. `duplicate` (the engine's copies
    /// field by field instead of through `Clone`, which took the `Clone` impls of the type and
    /// of its `Vec`s and `Box`es out of the compiled code: 8% fewer LLVM IR lines in the
    /// mutual pair): 65,029 / 26,842 / 8,758.
    #[test]
    fn benchmark_shapes_expand_to_bounded_code() {
        for (name, source, bound) in [
            ("enum30", ENUM30, 65_500),
            ("mutual Expr", EXPR, 27_000),
            ("mutual Stmt", STMT, 9_000),
        ] {
            let sizes = sizes(source);
            let line: Vec<String> = sizes.iter().map(|(k, v)| format!("{k} {v}")).collect();
            println!("{name}: {}", line.join(", "));
            assert!(
                sizes[0].1 <= bound,
                "{name}: {} bytes > {bound}",
                sizes[0].1
            );
            if std::env::var_os("DUMP").is_some() {
                let input: syn::DeriveInput = syn::parse_str(source).unwrap();
                let cx = Ctxt::new();
                let c = Container::from_ast(&cx, &input).unwrap();
                cx.check().unwrap();
                println!(
                    "{}",
                    prettyplease::unparse(&syn::parse2(super::expand(&c)).unwrap())
                );
            }
        }
    }
}
