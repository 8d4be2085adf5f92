use typefuzz::Mutate;

#[derive(Clone, Copy, Mutate)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
