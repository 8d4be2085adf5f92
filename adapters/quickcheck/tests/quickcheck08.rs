//! A suite written for quickcheck 0.8 (rand 0.6 `Gen` trait, `StdGen`,
//! `Arbitrary::arbitrary<G: Gen>`), in the style of petgraph's graph properties, runs under the
//! drop-in with the macro path changed: an `Arbitrary`-only graph type with its own shrinker,
//! patterns, `TestResult` discards, the builder, and a failure shrunk by the user's shrinker,
//! saved and replayed.
//!
//! `cargo test -p typefuzz-quickcheck --no-default-features --features quickcheck08`
//! (`typefuzz_quickcheck::quickcheck!` is 0.8's there; with 1.x or 0.9 on too,
//! `v0_8::quickcheck!`).

extern crate quickcheck08 as quickcheck;

use quickcheck::{Arbitrary, Gen, StdGen, TestResult};
use typefuzz_quickcheck::genotype::Genotype;
use typefuzz_quickcheck::v0_8::QuickCheck;

/// A directed graph as an edge list, `Arbitrary` only (no `Mutate`), written against 0.8's API
/// the way petgraph writes its graph generators: node count from `g.size()`, edges by index.
#[derive(Clone, Debug, PartialEq)]
struct Graph {
    nodes: usize,
    edges: Vec<(usize, usize)>,
}

impl Arbitrary for Graph {
    fn arbitrary<G: Gen>(g: &mut G) -> Self {
        let nodes = usize::arbitrary(g) % g.size().max(1) + 1;
        let count = usize::arbitrary(g) % (2 * nodes);
        let edges = (0..count)
            .map(|_| (usize::arbitrary(g) % nodes, usize::arbitrary(g) % nodes))
            .collect();
        Graph { nodes, edges }
    }

    /// Drops one edge at a time (petgraph's graphs shrink by removing parts).
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let graph = self.clone();
        Box::new((0..self.edges.len()).map(move |i| {
            let mut smaller = graph.clone();
            smaller.edges.remove(i);
            smaller
        }))
    }
}

/// `Arbitrary` and `Mutate`: typed mutation.
#[derive(Clone, Debug, typefuzz::Mutate)]
struct Weight(u16);

impl Arbitrary for Weight {
    fn arbitrary<G: Gen>(g: &mut G) -> Self {
        Weight(u16::arbitrary(g))
    }
}

#[cfg(not(any(feature = "quickcheck1", feature = "quickcheck09")))]
use typefuzz_quickcheck::quickcheck as properties;
#[cfg(any(feature = "quickcheck1", feature = "quickcheck09"))]
use typefuzz_quickcheck::v0_8::quickcheck as properties;

properties! {
    /// Doc comments and attributes pass through.
    fn edges_stay_in_range(graph: Graph) -> bool {
        graph.edges.iter().all(|&(a, b)| a < graph.nodes && b < graph.nodes)
    }

    fn weights_add_up(ws: Vec<Weight>) -> bool {
        let total: u64 = ws.iter().map(|w| u64::from(w.0)).sum();
        total <= u64::from(u16::MAX) * ws.len() as u64
    }

    /// Patterns in argument position, as petgraph's own properties write them.
    fn reversed_edges_keep_their_count(mut graph: Graph, (flip, _): (bool, u8)) -> TestResult {
        if graph.edges.is_empty() {
            return TestResult::discard();
        }
        let count = graph.edges.len();
        if flip {
            graph.edges.iter_mut().for_each(|(a, b)| std::mem::swap(a, b));
        }
        TestResult::from_bool(graph.edges.len() == count)
    }
}

#[test]
fn failures_are_shrunk_by_arbitrary_and_replayed() {
    fn acyclic_without_loops(graph: Graph) -> bool {
        graph.edges.iter().all(|&(a, b)| a != b)
    }
    let report = QuickCheck::new()
        .seed(1)
        .name("quickcheck08::acyclic_without_loops")
        .quicktest(acyclic_without_loops as fn(Graph) -> bool);
    let failure = report.failure.expect("a graph with a self-loop");
    // The user's shrinker removed every edge but the loop.
    let (minimal,) = failure.minimal.args();
    assert_eq!(minimal.edges.len(), 1, "{minimal:?}");
    assert_eq!(minimal.edges[0].0, minimal.edges[0].1);
    let file = failure.regression_file.expect("saved");
    // The next run replays the saved seed and shrink path first.
    let again = QuickCheck::new()
        .seed(2)
        .name("quickcheck08::acyclic_without_loops")
        .quicktest(acyclic_without_loops as fn(Graph) -> bool);
    assert_eq!(again.stats.regressions_replayed, 1);
    let replayed = again.failure.expect("replayed");
    assert_eq!(replayed.tests, 1);
    assert_eq!(replayed.minimal.args(), failure.minimal.args());
    let _ = std::fs::remove_file(file);
}

#[test]
fn typed_builder_mutates() {
    // quickcheck 0.8 draws integers below the generator size: only typed mutation reaches
    // 60000 at size 100. The run starts with quickcheck's own 100 fresh tests and mutates after
    // them, so it asks for more than quickcheck's default count.
    fn light(w: Weight) -> bool {
        w.0 < 60_000
    }
    let report = QuickCheck::new()
        .seed(3)
        .tests(1_000)
        .name("quickcheck08::light")
        .quicktest_typed(light as fn(Weight) -> bool);
    assert!(report.stats.mutated > 0);
    let failure = report.failure.expect("a weight of 60000 or more");
    assert_eq!(failure.minimal.0 .0 .0, 60_000, "{:?}", failure.minimal);
    let _ = std::fs::remove_file(failure.regression_file.expect("saved"));
}

#[test]
fn generation_is_a_function_of_the_seed() {
    use typefuzz_quickcheck::bridge::Version;
    use typefuzz_quickcheck::v0_8::V0_8;
    let mut first: StdGen<_> = V0_8::gen(50, 9);
    let mut second = V0_8::gen(50, 9);
    assert_eq!(Graph::arbitrary(&mut first), Graph::arbitrary(&mut second));
    assert_eq!(first.size(), 50);
}
