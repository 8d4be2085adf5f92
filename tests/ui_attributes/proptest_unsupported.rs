use typefuzz::test_strategy::proptest;

#[proptest]
fn dependent(#[strategy(1..10u32)] n: u32, #[strategy(0..#n)] below: u32) {
    let _ = (n, below);
}

#[proptest(async = "tokio")]
fn asynchronous(x: u8) {
    let _ = x;
}

#[proptest]
fn returns_bool(x: u8) -> bool {
    x == x
}

#[proptest]
fn mapped(#[map(|x: u8| x / 2)] x: u8) {
    let _ = x;
}

#[proptest]
fn predicate_on_pattern(#[filter(|p: &(u8, u8)| p.0 < p.1)] (a, b): (u8, u8)) {
    let _ = (a, b);
}

#[proptest]
#[filter(is_small)]
fn function_predicate(x: u8) {
    let _ = x;
}

#[proptest]
fn both_strategies(#[strategy(0..10u8)] #[any(())] x: u8) {
    let _ = x;
}

#[proptest]
fn no_arguments() {}

fn main() {}
