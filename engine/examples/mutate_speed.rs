//! Mutations/s against generations/s for representative types (the bar: "a mutation of a seed
//! (clone + mutate) must be cheaper than generating a fresh value of the same size").
//!
//! Run: `cargo run --release -p typefuzz-engine --example mutate_speed`

use std::hint::black_box;
use std::time::{Duration, Instant};

use typefuzz::{Context, Mutate};

#[derive(Clone, Debug, Mutate)]
enum Tree<A> {
    Leaf(A),
    Node(A, Box<Tree<A>>, Box<Tree<A>>),
}

fn nodes<A>(tree: &Tree<A>) -> usize {
    match tree {
        Tree::Leaf(_) => 1,
        Tree::Node(_, l, r) => 1 + nodes(l) + nodes(r),
    }
}

#[derive(Clone, Copy, Debug, Mutate)]
enum Label {
    L,
    H,
}

#[derive(Clone, Copy, Debug, Mutate)]
struct Atom(i64, Label);

#[derive(Clone, Debug, Mutate)]
#[allow(dead_code)]
enum Instr {
    I0,
    I1,
    I2,
    I3,
    I4,
    I5,
    I6,
    I7,
    I8,
    I9,
    P0(i64),
    P1(i64),
    P2(u8),
    P3(u16),
    P4(bool),
    A0(Atom),
    A1(Atom),
    A2(Atom, Atom),
    A3(u8, Label),
    A4(Label),
    B0 { x: i32, y: i32 },
    B1 { l: Label },
    B2(Option<u8>),
    B3(i8),
    B4(u32),
    C0,
    C1(u64),
    C2(Atom, i64),
    C3(char),
    C4(bool, bool),
}

#[derive(Clone, Debug, Mutate)]
struct Machine {
    code: Vec<Instr>,
    stack: Vec<Atom>,
    memory: Vec<Atom>,
    pc: Atom,
}

/// Runs `f` repeatedly for about `budget` and returns calls per second.
fn rate(budget: Duration, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut calls = 0u64;
    while start.elapsed() < budget {
        for _ in 0..256 {
            f();
        }
        calls += 256;
    }
    calls as f64 / start.elapsed().as_secs_f64()
}

fn compare<T: Mutate>(name: &str, seed_value: T, size: usize) {
    let budget = Duration::from_millis(700);
    let mut cx = Context::new(1).with_max_size(size);
    let generations = rate(budget, || {
        cx.set_size(size);
        black_box(T::generate(&mut cx));
    });
    let mut cx = Context::new(2).with_max_size(size);
    let mutations = rate(budget, || {
        let mut value = seed_value.clone();
        cx.mutate(&mut value);
        black_box(value);
    });
    println!(
        "{name:<40} generate {:>12.0}/s   clone+mutate {:>12.0}/s   ratio {:>5.2}x",
        generations,
        mutations,
        mutations / generations
    );
}

fn main() {
    // A ~50-node tree: search seeds for one close to 50 nodes.
    let mut cx = Context::new(0);
    let tree = (0..)
        .map(|_| cx.generate_sized::<Tree<u8>>(60))
        .find(|t| (45..=55).contains(&nodes(t)))
        .expect("a ~50-node tree");
    compare("Tree<u8> (~50 nodes), size 60", tree, 60);

    let mut cx = Context::new(0).with_max_size(20);
    let machine = (0..)
        .map(|_| cx.generate_sized::<Machine>(21))
        .find(|m| m.code.len() == 20)
        .expect("a machine with 20 instructions");
    compare("Machine (Vec<Instr> of 20, 30 variants)", machine, 21);

    let bytes: Vec<u8> = (0..100).map(|i| i as u8).collect();
    compare("Vec<u8> of 100", bytes, 100);
}
