use typefuzz::Mutate;

mod custom {
    pub fn generate(_: &mut typefuzz::Context) -> u8 {
        0
    }
    pub fn mutate(_: &mut u8, _: &mut typefuzz::Context) {}
}

#[derive(Clone, Mutate)]
struct Conflict {
    #[mutate(skip, with = custom)]
    field: u8,
}

fn main() {}
