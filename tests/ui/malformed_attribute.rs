use typefuzz::Mutate;

#[derive(Clone, Mutate)]
enum Weights {
    #[mutate(weight = "high")]
    A,
    #[mutate(weight = -1)]
    B,
}

#[derive(Clone, Mutate)]
struct Skip {
    #[mutate(skip = true)]
    field: u8,
}

#[derive(Clone, Mutate)]
#[mutate(bound = "this is not a predicate")]
struct Bound<T> {
    field: T,
}

fn main() {}
