use typefuzz::Mutate;

#[derive(Clone)]
struct Opaque;

#[derive(Clone, Mutate)]
struct Holder {
    ok: u8,
    opaque: Opaque,
}

fn main() {}
