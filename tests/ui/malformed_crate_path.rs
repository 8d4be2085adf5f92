use typefuzz::Mutate;

#[derive(Clone, Mutate)]
#[mutate(crate = "not a path")]
struct NotAPath {
    x: u8,
}

#[derive(Clone, Mutate)]
#[mutate(crate = typefuzz)]
struct NotAString;

#[derive(Clone, Mutate)]
#[mutate(crate = "typefuzz", crate = "typefuzz")]
struct Twice;

#[derive(Clone, Mutate)]
enum OnAVariant {
    #[mutate(crate = "typefuzz")]
    A,
}

fn main() {}
