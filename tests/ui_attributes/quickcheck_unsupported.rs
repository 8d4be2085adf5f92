use typefuzz::quickcheck_macros::quickcheck;

#[quickcheck(tests = 100)]
fn with_arguments(x: u8) -> bool {
    x == x
}

#[quickcheck]
fn generic<T: Clone>(x: T) -> bool {
    let _ = x.clone();
    true
}

#[quickcheck]
async fn asynchronous(x: u8) -> bool {
    x == x
}

#[quickcheck]
fn attributed(#[strategy(0..10u8)] x: u8) -> bool {
    x < 10
}

#[quickcheck]
struct NotAProperty;

fn main() {}
