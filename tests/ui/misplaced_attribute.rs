use typefuzz::Mutate;

#[derive(Clone, Mutate)]
#[mutate(weight = 2)]
enum OnType {
    #[mutate(skip)]
    A,
    B {
        #[mutate(weight = 3)]
        field: u8,
        #[mutate(bound = "u8: Copy")]
        other: u8,
    },
}

fn main() {}
