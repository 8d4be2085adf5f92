use typefuzz::Mutate;

#[derive(Clone, Mutate)]
enum Never {}

fn main() {}
