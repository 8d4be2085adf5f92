use typefuzz::Mutate;

#[derive(Clone, Default, Mutate)]
struct Twice {
    #[mutate(skip, skip)]
    field: u8,
}

#[derive(Clone, Mutate)]
enum Weights {
    #[mutate(weight = 1)]
    #[mutate(weight = 2)]
    A,
    B,
}

fn main() {}
