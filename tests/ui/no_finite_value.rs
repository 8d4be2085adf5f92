use typefuzz::Mutate;

#[derive(Clone, Mutate)]
enum Endless {
    More(Box<Endless>),
    Pair(u8, (Box<Endless>, u8)),
}

#[derive(Clone, Mutate)]
struct Chain {
    label: u8,
    next: Box<Chain>,
}

fn main() {}
