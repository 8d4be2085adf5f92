//! `#[derive(Mutate)]` on the shapes users write: wide instruction enums, mutually recursive
//! ASTs, generics, every std type, `Copy` enums, attributes, and a hostile scope.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::marker::PhantomData;
use std::rc::Rc;
use std::sync::Arc;

use typefuzz::codec::{from_bytes, to_bytes};
use typefuzz::{Context, Mutate, Operators};

/// Asserts `decode(encode(v)) == v`, comparing `Debug` output and bytes so NaN counts as equal.
fn assert_round_trip<T: Mutate + std::fmt::Debug>(value: &T) {
    let bytes = to_bytes(value);
    let back: T = from_bytes(&bytes);
    assert_eq!(
        format!("{back:?}"),
        format!("{value:?}"),
        "codec round trip"
    );
    assert_eq!(to_bytes(&back), bytes);
}

/// Generates, mutates, shrinks and round-trips values of `T` over many seeds.
fn exercise<T: Mutate + std::fmt::Debug>(seeds: u64) {
    // Under Miri (`cargo +nightly miri test --test derive_shapes`), which runs ~1000x slower,
    // a few seeds: enough for every shape's in-place mutation and undo to be checked.
    let seeds = if cfg!(miri) { seeds.min(3) } else { seeds };
    for seed in 0..seeds {
        let mut cx = Context::new(seed).with_max_size(12);
        let mut value: T = cx.generate();
        for round in 0..20 {
            // The engine's in-place mutation of seeds: same mutant, and undone exactly.
            if let Err(problem) =
                typefuzz::__private::check_undo(&mut value, &mut cx, 1 + round % 4)
            {
                panic!("seed {seed}: {problem}");
            }
            cx.mutate(&mut value);
            assert_round_trip(&value);
            // The engine's copies (`Mutate::duplicate`, field by field) are the value's clones.
            let (copy, clone) = (value.duplicate(), value.clone());
            assert_eq!(format!("{copy:?}"), format!("{clone:?}"), "duplicate");
            assert_eq!(to_bytes(&copy), to_bytes(&clone), "duplicate");
        }
        for candidate in value.shrink(&mut cx) {
            assert_round_trip(&candidate);
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Mutate)]
enum Reg {
    R0,
    R1,
    R2,
    R3,
}

#[derive(Clone, Debug, PartialEq, Mutate)]
enum Instr {
    Nop,
    Halt,
    Push(i64),
    Pop,
    Dup,
    Swap,
    Add,
    Sub,
    Mul,
    Div(bool),
    Load(Reg),
    Store(Reg),
    LoadImm(Reg, i32),
    Move { from: Reg, to: Reg },
    Jump(u16),
    JumpIf(u16, Reg),
    Call { target: u16, args: u8 },
    Ret,
    Not,
    And(Reg, Reg),
    Or(Reg, Reg),
    Xor(Reg, Reg, Reg),
    Shl(u8),
    Shr(u8),
    Print(String),
    Assert(Option<Reg>),
    Table(Vec<u16>),
    Pair((u8, i8)),
    Float(f64),
    Char(char),
}

#[derive(Clone, Debug, PartialEq, Mutate)]
struct Machine {
    code: Vec<Instr>,
    stack: Vec<(i64, bool)>,
    memory: [u8; 8],
    pc: u16,
}

#[test]
fn thirty_variant_instruction_enum() {
    exercise::<Instr>(200);
    exercise::<Machine>(50);
    // Every variant is reachable by generation.
    let mut cx = Context::new(1);
    let mut seen = HashSet::new();
    for _ in 0..20_000 {
        let instr: Instr = cx.generate();
        seen.insert(std::mem::discriminant(&instr));
    }
    assert_eq!(seen.len(), 30);
}

#[derive(Clone, Debug, PartialEq, Mutate)]
enum Expr {
    Lit(i64),
    Var(String),
    Bin(Box<Expr>, char, Box<Expr>),
    Block(Vec<Stmt>),
    If(Box<Expr>, Box<Stmt>, Option<Box<Stmt>>),
}

#[derive(Clone, Debug, PartialEq, Mutate)]
enum Stmt {
    Let(String, Expr),
    Expr(Expr),
    While(Expr, Vec<Stmt>),
    Return(Option<Expr>),
}

fn expr_nodes(expr: &Expr) -> usize {
    1 + match expr {
        Expr::Lit(_) | Expr::Var(_) => 0,
        Expr::Bin(l, _, r) => expr_nodes(l) + expr_nodes(r),
        Expr::Block(stmts) => stmts.iter().map(stmt_nodes).sum(),
        Expr::If(c, t, e) => expr_nodes(c) + stmt_nodes(t) + e.as_deref().map_or(0, stmt_nodes),
    }
}

fn stmt_nodes(stmt: &Stmt) -> usize {
    1 + match stmt {
        Stmt::Let(_, e) | Stmt::Expr(e) => expr_nodes(e),
        Stmt::While(e, body) => expr_nodes(e) + body.iter().map(stmt_nodes).sum::<usize>(),
        Stmt::Return(e) => e.as_ref().map_or(0, expr_nodes),
    }
}

#[test]
fn mutually_recursive_types_terminate_and_grow_with_size() {
    exercise::<Expr>(100);
    exercise::<Stmt>(100);
    let mean_nodes = |size: usize| {
        let mut cx = Context::new(9);
        let total: usize = (0..300)
            .map(|_| expr_nodes(&cx.generate_sized::<Expr>(size)))
            .sum();
        total as f64 / 300.0
    };
    let (small, medium, large) = (mean_nodes(0), mean_nodes(6), mean_nodes(30));
    assert_eq!(small, 1.0, "size 0 builds leaves only");
    assert!(
        small < medium && medium < large,
        "{small} < {medium} < {large}"
    );
}

#[derive(Clone, Debug, PartialEq, Mutate)]
enum Tree<A> {
    Leaf(A),
    Node(A, Box<Tree<A>>, Box<Tree<A>>),
}

fn depth<A>(tree: &Tree<A>) -> usize {
    match tree {
        Tree::Leaf(_) => 1,
        Tree::Node(_, l, r) => 1 + depth(l).max(depth(r)),
    }
}

#[test]
fn mutation_never_deepens_past_the_size_budget() {
    for operators in [Operators::default(), Operators::fuzzchick()] {
        let mut cx = Context::new(4).with_max_size(10).with_operators(operators);
        let mut tree: Tree<u8> = cx.generate();
        for _ in 0..5000 {
            cx.mutate(&mut tree);
            assert!(
                depth(&tree) <= 11,
                "depth {} > budget: {tree:?}",
                depth(&tree)
            );
        }
    }
}

#[derive(Clone, Debug, PartialEq, Mutate)]
struct Generic<K, V> {
    entries: Vec<(K, V)>,
    first: Option<K>,
}

#[derive(Clone, Debug, PartialEq, Mutate)]
struct Rose<T> {
    label: T,
    children: Vec<Rose<T>>,
}

#[test]
fn generic_types() {
    exercise::<Tree<u8>>(100);
    exercise::<Tree<String>>(50);
    exercise::<Generic<u8, Tree<i16>>>(50);
    exercise::<Rose<char>>(50);
}

#[derive(Clone, Debug, PartialEq, Mutate)]
struct EveryStdType {
    a: (i8, i16, i32, i64, i128, isize),
    b: (u8, u16, u32, u64, u128, usize),
    floats: (f32, f64),
    flags: (bool, char, ()),
    text: String,
    list: Vec<u8>,
    deque: VecDeque<i32>,
    boxed: Box<u16>,
    shared: Rc<String>,
    atomic: Arc<Vec<bool>>,
    maybe: Option<u64>,
    outcome: Result<u8, String>,
    hash_map: HashMap<u8, String>,
    tree_map: BTreeMap<i16, Vec<u8>>,
    hash_set: HashSet<u32>,
    tree_set: BTreeSet<char>,
    array: [i8; 5],
    big_tuple: (u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8),
    marker: PhantomData<fn() -> u8>,
}

impl EveryStdType {
    /// Float fields compared bitwise, so that NaN round-trips count as equal.
    fn canonical(&self) -> String {
        format!(
            "{:?} {:x} {:x}",
            (&self.a, &self.b, &self.text, &self.list),
            self.floats.0.to_bits(),
            self.floats.1.to_bits()
        )
    }
}

#[test]
fn struct_with_every_std_type() {
    for seed in 0..60 {
        let mut cx = Context::new(seed);
        let mut value: EveryStdType = cx.generate();
        for _ in 0..20 {
            cx.mutate(&mut value);
            let back: EveryStdType = from_bytes(&to_bytes(&value));
            assert_eq!(back.canonical(), value.canonical());
            assert_eq!(
                (&back.hash_map, &back.tree_map, &back.array),
                (&value.hash_map, &value.tree_map, &value.array)
            );
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Mutate)]
enum Label {
    Low,
    High,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Mutate)]
struct Atom(i32, Label);

#[derive(Clone, Debug, PartialEq, Eq, Mutate)]
struct Unit;

#[test]
fn copy_enums_tuple_and_unit_structs() {
    exercise::<Label>(50);
    exercise::<Atom>(50);
    exercise::<Unit>(5);
    let mut cx = Context::new(0);
    let mut unit = Unit;
    cx.mutate(&mut unit); // a single value: nothing to do, nothing panics
    assert!(unit.shrink(&mut cx).is_empty());
}

mod custom {
    use typefuzz::{Context, Operator};

    pub fn generate(cx: &mut Context) -> u32 {
        cx.below(10) as u32 * 2
    }

    pub fn mutate(value: &mut u32, cx: &mut Context) {
        cx.record(Operator::Custom);
        *value = (*value + 2) % 20;
    }
}

#[derive(Clone, Debug, PartialEq, Mutate)]
struct Attributes {
    #[mutate(with = custom)]
    even: u32,
    #[mutate(skip)]
    cache: Vec<String>,
    plain: u8,
}

#[derive(Clone, Debug, PartialEq, Mutate)]
enum Weighted {
    #[mutate(weight = 0)]
    Never(u8),
    #[mutate(weight = 9)]
    Often,
    Rarely,
}

#[derive(Clone, Debug, PartialEq, Mutate)]
#[mutate(bound = "T: typefuzz::Mutate + Copy")]
struct Bounded<T> {
    value: T,
}

#[test]
fn attributes_skip_with_weight_bound() {
    let mut cx = Context::new(2);
    for _ in 0..500 {
        let mut value: Attributes = cx.generate();
        assert!(value.even % 2 == 0 && value.cache.is_empty());
        value.cache.push("kept".into());
        cx.mutate(&mut value);
        assert_eq!(value.even % 2, 0, "the custom mutator keeps it even");
        assert_eq!(
            value.cache,
            vec!["kept".to_string()],
            "skipped fields are never touched"
        );
        let back: Attributes = from_bytes(&to_bytes(&value));
        assert!(back.cache.is_empty(), "skipped fields decode as Default");
        assert_eq!((back.even, back.plain), (value.even, value.plain));
    }
    let drawn: Vec<Weighted> = (0..1000).map(|_| cx.generate()).collect();
    assert!(!drawn.iter().any(|w| matches!(w, Weighted::Never(_))));
    let often = drawn.iter().filter(|w| **w == Weighted::Often).count();
    assert!(often > 800, "weight 9 vs 1: {often}");
    exercise::<Bounded<u8>>(20);
}

#[derive(Clone, Debug, PartialEq, Mutate)]
struct Borrowed<'a> {
    name: String,
    marker: PhantomData<&'a str>,
}

#[test]
fn lifetimes_where_the_type_owns_its_data() {
    exercise::<Borrowed<'static>>(20);
}

/// Generated code must not depend on what `Result`, `Option`, `Box`, ... mean at the use site.
mod hostile {
    #![allow(dead_code, non_camel_case_types, clippy::all)]
    struct Result;
    struct Ok;
    struct Err;
    struct Option;
    struct Some;
    struct None;
    struct Box;
    struct Vec;
    struct Default;
    struct Clone;
    struct usize;
    mod core {}
    mod std {}

    #[derive(::std::clone::Clone, ::std::fmt::Debug, PartialEq, typefuzz::Mutate)]
    pub enum Hostile {
        A(::std::option::Option<::std::boxed::Box<Hostile>>),
        B {
            items: ::std::vec::Vec<u8>,
            #[mutate(skip)]
            skipped: ::std::string::String,
        },
        C,
    }
}

#[test]
fn hostile_scope_shadowing_prelude_names() {
    exercise::<hostile::Hostile>(100);
}

/// Types of the user's own called `Option`, `Box` and `Vec`: the derived `shrink` takes their
/// fields' candidates from their own `shrink` (the std wrappers' shortcut does not apply to
/// them), and std wrapper fields get what their own `shrink` gives.
mod own_wrappers {
    #[derive(Clone, Debug, PartialEq, typefuzz::Mutate)]
    pub struct Option<T>(pub T);

    #[derive(Clone, Debug, PartialEq, typefuzz::Mutate)]
    pub enum Box<T> {
        Empty,
        Full(T),
    }

    #[derive(Clone, Debug, PartialEq, typefuzz::Mutate)]
    pub struct Vec<T> {
        pub first: T,
    }

    #[derive(Clone, Debug, PartialEq, typefuzz::Mutate)]
    pub struct Holder {
        pub maybe: Option<u8>,
        pub boxed: Box<u8>,
        pub list: Vec<u8>,
        pub std: ::std::option::Option<::std::boxed::Box<u8>>,
        pub std_list: ::std::vec::Vec<u8>,
    }
}

#[test]
fn own_types_named_like_std_wrappers_shrink_as_themselves() {
    use own_wrappers::{Box as OwnBox, Holder, Option as OwnOption, Vec as OwnVec};
    let holder = Holder {
        maybe: OwnOption(7),
        boxed: OwnBox::Full(9),
        list: OwnVec { first: 4 },
        std: Some(Box::new(5)),
        std_list: vec![6, 0, 2],
    };
    let mut cx = Context::new(3);
    let candidates = holder.shrink(&mut cx);
    let mut expected = Vec::new();
    // Field by field, in declaration order: each field's own candidates, the rest unchanged.
    macro_rules! field_candidates {
        ($($field:ident),*) => {$(
            for $field in holder.$field.shrink(&mut cx) {
                expected.push(Holder {
                    $field,
                    ..holder.clone()
                });
            }
        )*};
    }
    field_candidates!(maybe, boxed, list, std, std_list);
    assert_eq!(candidates, expected);
    exercise::<Holder>(20);
}

#[derive(Clone, Debug, PartialEq, Mutate)]
enum List {
    Cons(u8, Box<List>),
    Nil,
}

/// Builds and dismantles a 100,000-deep list without recursion (Rust's drop glue recurses).
fn deep_list(depth: usize) -> List {
    let mut list = List::Nil;
    for i in 0..depth {
        list = List::Cons(i as u8, Box::new(list));
    }
    list
}

fn dismantle(mut list: List) {
    while let List::Cons(_, tail) = list {
        list = *tail;
    }
}

#[test]
fn values_nested_100_000_deep() {
    let mut cx = Context::new(0);
    let mut list = deep_list(100_000);
    let bytes = to_bytes(&list);
    assert!(bytes.len() < 10_000, "encoding stops at the depth bound");
    let decoded: List = from_bytes(&bytes);
    dismantle(decoded);
    assert!(
        list.shrink(&mut cx).is_empty(),
        "too deep to clone safely: no candidates"
    );
    for seed in 0..200 {
        cx.reseed(seed);
        cx.mutate(&mut list);
    }
    dismantle(list);
}

/// Groups `values` by their codec bytes and by their `Mutate::hash_value`: the two partitions
/// must agree (equal values hash equally, distinct values do not collide), and no value of a
/// derived type is opaque to the hash.
fn hashes_tell_values_apart<T: Mutate + std::fmt::Debug>(seeds: u64) -> usize {
    use std::collections::hash_map::Entry;
    use typefuzz::mutate::ValueHasher;
    let mut by_hash: HashMap<u64, Vec<u8>> = HashMap::new();
    for seed in 0..seeds {
        let mut cx = Context::new(seed).with_max_size(12);
        let mut value: T = cx.generate();
        for _ in 0..20 {
            let hash = ValueHasher::of(&value).expect("derived values hash whole");
            assert_eq!(ValueHasher::of(&value.clone()), Some(hash), "{value:?}");
            match by_hash.entry(hash) {
                Entry::Occupied(bytes) => {
                    assert_eq!(bytes.get(), &to_bytes(&value), "{value:?} collides")
                }
                Entry::Vacant(slot) => {
                    slot.insert(to_bytes(&value));
                }
            }
            cx.mutate(&mut value);
        }
    }
    let distinct: HashSet<&Vec<u8>> = by_hash.values().collect();
    assert_eq!(distinct.len(), by_hash.len(), "two hashes for one value");
    by_hash.len()
}

#[test]
fn derived_value_hashes_agree_with_equality() {
    // Thousands of distinct values of each shape (an assertion on the count keeps the test from
    // passing on a generator that repeats itself).
    assert!(hashes_tell_values_apart::<Machine>(100) > 1000);
    assert!(hashes_tell_values_apart::<Stmt>(100) > 1000);
    assert!(hashes_tell_values_apart::<Tree<u8>>(100) > 500);
    assert!(hashes_tell_values_apart::<Rose<Option<i8>>>(100) > 500);
    assert!(hashes_tell_values_apart::<EveryStdType>(50) > 500);
    assert!(hashes_tell_values_apart::<Attributes>(100) > 500);
    assert!(hashes_tell_values_apart::<Atom>(100) > 500);
    assert_eq!(hashes_tell_values_apart::<Unit>(10), 1);
    // Variants with the same fields are told apart by their index.
    use typefuzz::mutate::ValueHasher;
    assert_ne!(ValueHasher::of(&Label::Low), ValueHasher::of(&Label::High));
}
