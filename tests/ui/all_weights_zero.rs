use typefuzz::Mutate;

#[derive(Clone, Mutate)]
enum Unreachable {
    #[mutate(weight = 0)]
    A,
    #[mutate(weight = 0)]
    B(u8),
}

fn main() {}
