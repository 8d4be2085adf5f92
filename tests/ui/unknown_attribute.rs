use typefuzz::Mutate;

#[derive(Clone, Mutate)]
#[mutate(frobnicate)]
struct Container {
    #[mutate(sometimes)]
    field: u8,
}

#[derive(Clone, Mutate)]
enum Variants {
    #[mutate(wieght = 3)]
    A,
    B,
}

fn main() {}
