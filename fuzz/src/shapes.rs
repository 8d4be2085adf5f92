//! Derived types that cover the derive's input shapes: recursion through `Box`, `Option` and
//! `Vec`, generics, named/tuple/unit structs, every variant shape, floats and maps.

use std::collections::BTreeMap;
use std::rc::Rc;

use typefuzz::Mutate;

/// A recursive expression: self in `Box`, `Vec` and `Option<Box<_>>`.
#[derive(Clone, Debug, PartialEq, Mutate)]
pub enum Expr {
    /// A literal.
    Num(i32),
    /// A variable.
    Var(String),
    /// Negation.
    Neg(Box<Expr>),
    /// Addition.
    Add(Box<Expr>, Box<Expr>),
    /// A call with arguments.
    Call { name: String, args: Vec<Expr> },
    /// A conditional with an optional else branch.
    If(Box<Expr>, Box<Expr>, Option<Box<Expr>>),
}

/// A generic binary tree, recursive through `Box`.
#[derive(Clone, Debug, PartialEq, Mutate)]
pub enum Tree<T> {
    /// A leaf.
    Leaf(T),
    /// An inner node.
    Node(Box<Tree<T>>, T, Box<Tree<T>>),
}

/// Statements: mutual recursion with [`Expr`], self in `Vec` and `Box`, a unit variant.
#[derive(Clone, Debug, PartialEq, Mutate)]
pub enum Stmt {
    /// `let name = expr`.
    Let(String, Expr),
    /// A block.
    Block(Vec<Stmt>),
    /// A loop.
    While(Expr, Box<Stmt>),
    /// Nothing.
    Nop,
}

/// A named struct mixing std types, arrays, tuples, a map and an `Rc`.
#[derive(Clone, Debug, PartialEq, Mutate)]
pub struct Program {
    /// The name.
    pub name: String,
    /// The statements.
    pub body: Vec<Stmt>,
    /// Flags.
    pub flags: (bool, u8, char),
    /// Fixed-size data.
    pub weights: [i16; 3],
    /// A table.
    pub table: BTreeMap<u8, Tree<u16>>,
    /// Shared data.
    pub shared: Rc<Option<u64>>,
}

/// A tuple struct with floats: `PartialEq` does not hold for NaN, so the checks compare encodings.
#[derive(Clone, Debug, Mutate)]
pub struct Sample(pub f32, pub Vec<f64>, pub Unit);

/// A unit struct.
#[derive(Clone, Debug, PartialEq, Mutate)]
pub struct Unit;
