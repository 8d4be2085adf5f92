//! The crossover side: splice a same-type subterm of one input into another.

use typefuzz_engine::codec::from_bytes;
use typefuzz_engine::{Context, Mutate};

use crate::cache::{lookup, InputCache};
use crate::mutator::with_context;

/// libFuzzer's custom crossover for inputs of type `T`: decodes `first` and `second`, replaces a
/// random proper subterm of `first` (a value of type `T` inside it, see
/// [`Mutate::visit_subterms`]) by a random subterm of `second` (`second` itself included), and
/// writes the encoding to `out`. Returns its length, or 0 (libFuzzer's "no crossover") if it does
/// not fit in `out`.
///
/// A type with no subterms of its own type (`Vec<u8>`, a flat struct, an enum without recursive
/// variants) is crossed over on its encoding instead: a prefix of `first` followed by a suffix of
/// `second`, which for a sequence keeps the first elements of one input and the last of the
/// other. Those bytes are the output as they are, when they fit in `out`: they decode to the
/// child, and encoding it again would cost a pass over it per crossover (half of libFuzzer's
/// mutation calls). Otherwise (or if the splice is empty) the child's own encoding is written,
/// if it fits.
///
/// This decodes both inputs on every call; `fuzz_target!` uses [`InputCache::crossover`], which
/// gives the same children and skips the decoding when it has seen the bytes.
///
/// ```
/// use typefuzz::codec::{from_bytes, to_bytes};
/// use typefuzz::Mutate;
///
/// #[derive(Clone, Debug, PartialEq, Mutate)]
/// enum Expr {
///     Num(u8),
///     Add(Box<Expr>, Box<Expr>),
/// }
///
/// let first = Expr::Add(Box::new(Expr::Num(1)), Box::new(Expr::Num(2)));
/// let second = Expr::Num(9);
/// let mut out = [0u8; 64];
/// let len = typefuzz_libfuzzer::crossover::<Expr>(&to_bytes(&first), &to_bytes(&second), &mut out, 5);
/// let child: Expr = from_bytes(&out[..len]);
/// let nine = Box::new(Expr::Num(9));
/// assert!(
///     child == Expr::Add(nine.clone(), Box::new(Expr::Num(2)))
///         || child == Expr::Add(Box::new(Expr::Num(1)), nine)
/// );
/// ```
pub fn crossover<T: Mutate>(first: &[u8], second: &[u8], out: &mut [u8], seed: u32) -> usize {
    InputCache::<T>::new().crossover(first, second, out, seed)
}

impl<T: Mutate> InputCache<T> {
    /// [`crossover`](crate::crossover) (same arguments, same children for the same seed),
    /// reading the parents from the cache when it holds them and remembering the child for the
    /// execution that follows.
    ///
    /// ```
    /// use typefuzz::codec::to_bytes;
    /// use typefuzz_libfuzzer::{crossover, InputCache};
    ///
    /// let first = to_bytes(&vec![1u8, 2, 3]);
    /// let second = to_bytes(&vec![7u8, 8]);
    /// let mut inputs = InputCache::<Vec<u8>>::new();
    /// for seed in 0..20 {
    ///     let (mut cached, mut plain) = ([0u8; 32], [0u8; 32]);
    ///     let len = inputs.crossover(&first, &second, &mut cached, seed);
    ///     assert_eq!(len, crossover::<Vec<u8>>(&first, &second, &mut plain, seed));
    ///     assert_eq!(cached[..len], plain[..len]);
    /// }
    /// ```
    pub fn crossover(&mut self, first: &[u8], second: &[u8], out: &mut [u8], seed: u32) -> usize {
        self.note_chain(first);
        let (child, spliced) = with_context(seed, |cx| self.child(first, second, cx));
        // An empty splice is not written as it is: 0 is libFuzzer's "no crossover".
        if spliced && (1..=out.len()).contains(&self.splice.len()) {
            let len = self.splice.len();
            out[..len].copy_from_slice(&self.splice);
            self.remember_last_spliced(child);
            return len;
        }
        self.encoder.clear();
        child.encode(&mut self.encoder);
        let len = self.encoder.as_bytes().len();
        if len > out.len() {
            self.spare = Some(child);
            return 0;
        }
        out[..len].copy_from_slice(self.encoder.as_bytes());
        self.remember_last(child);
        len
    }

    /// The child of the values `first` and `second` decode to (see [`crossover`]), and whether
    /// it is the value of the splice in `self.splice`.
    fn child(&mut self, first: &[u8], second: &[u8], cx: &mut Context) -> (T, bool) {
        let parent = lookup(&self.last, &mut self.recent, first);
        let slots = count_proper_subterms(parent);
        if slots == 0 {
            return (self.splice_encodings(first, second, cx), true);
        }
        let mut child = Self::copy_into_spare(&mut self.spare, parent);
        let donor = lookup(&self.last, &mut self.recent, second);
        let piece = pick_subterm(donor, cx);
        let mut index = cx.below(slots);
        replace_proper_subterm(&mut child, &mut index, &mut Some(piece));
        (child, false)
    }

    /// One-point crossover of two encodings: a prefix of `first` followed by a suffix of
    /// `second`, left in `self.splice`, decoded.
    fn splice_encodings(&mut self, first: &[u8], second: &[u8], cx: &mut Context) -> T {
        let cut_first = cx.below(first.len() + 1);
        let cut_second = cx.below(second.len() + 1);
        self.splice.clear();
        self.splice.extend_from_slice(&first[..cut_first]);
        self.splice.extend_from_slice(&second[cut_second..]);
        from_bytes(&self.splice)
    }
}

/// The number of values of type `T` strictly inside `value`, at any depth.
fn count_proper_subterms<T: Mutate>(value: &T) -> usize {
    let mut count = 0;
    for_each_proper_subterm(value, &mut |_| count += 1);
    count
}

/// Calls `f` on every value of type `T` strictly inside `value`, in pre-order.
fn for_each_proper_subterm<T: Mutate>(value: &T, f: &mut dyn FnMut(&T)) {
    value.visit_subterms(&mut |subterm| {
        f(subterm);
        for_each_proper_subterm(subterm, f);
    });
}

/// A uniformly chosen subterm of `value`, `value` itself included (reservoir sampling: one pass,
/// no list of subterms kept).
fn pick_subterm<T: Mutate>(value: &T, cx: &mut Context) -> T {
    let mut seen = 1usize;
    let mut chosen: Option<T> = None;
    for_each_proper_subterm(value, &mut |subterm| {
        seen += 1;
        if cx.below(seen) == 0 {
            chosen = Some(subterm.clone());
        }
    });
    chosen.unwrap_or_else(|| value.clone())
}

/// Replaces the proper subterm number `*index` (pre-order, as [`for_each_proper_subterm`]) of
/// `value` by `piece`.
fn replace_proper_subterm<T: Mutate>(value: &mut T, index: &mut usize, piece: &mut Option<T>) {
    value.visit_subterms_mut(&mut |subterm| {
        if piece.is_none() {
            return;
        }
        if *index == 0 {
            if let Some(piece) = piece.take() {
                *subterm = piece;
            }
            return;
        }
        *index -= 1;
        replace_proper_subterm(subterm, index, piece);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use typefuzz_engine::codec::{to_bytes, Decoder, Encoder};

    /// A hand-written recursive type (unit tests here do not use the derive): a list of bytes.
    #[derive(Clone, Debug, PartialEq)]
    enum List {
        Nil,
        Cons(u8, Box<List>),
    }

    impl List {
        fn from_slice(items: &[u8]) -> List {
            items
                .iter()
                .rev()
                .fold(List::Nil, |tail, &x| List::Cons(x, Box::new(tail)))
        }
        fn to_vec(&self) -> Vec<u8> {
            let mut out = Vec::new();
            let mut node = self;
            while let List::Cons(x, tail) = node {
                out.push(*x);
                node = tail;
            }
            out
        }
    }

    impl Mutate for List {
        fn generate(cx: &mut Context) -> Self {
            let items: Vec<u8> = cx.generate();
            List::from_slice(&items)
        }
        fn mutate(&mut self, cx: &mut Context) {
            let mut items = self.to_vec();
            items.mutate(cx);
            *self = List::from_slice(&items);
        }
        fn shrink(&self, _: &mut Context) -> Vec<Self> {
            match self {
                List::Nil => Vec::new(),
                List::Cons(_, tail) => vec![(**tail).clone()],
            }
        }
        fn encode(&self, out: &mut Encoder) {
            self.to_vec().encode(out)
        }
        fn decode(input: &mut Decoder<'_>) -> Self {
            List::from_slice(&Vec::<u8>::decode(input))
        }
        fn visit_subterms(&self, visit: &mut dyn FnMut(&Self)) {
            if let List::Cons(_, tail) = self {
                visit(tail);
            }
        }
        fn visit_subterms_mut(&mut self, visit: &mut dyn FnMut(&mut Self)) {
            if let List::Cons(_, tail) = self {
                visit(tail);
            }
        }
    }

    #[test]
    fn subterm_splice_keeps_a_prefix_of_the_first_and_a_suffix_of_the_second() {
        let first = to_bytes(&List::from_slice(&[1, 2, 3]));
        let second = to_bytes(&List::from_slice(&[7, 8]));
        let mut children = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let mut out = [0u8; 32];
            let len = crossover::<List>(&first, &second, &mut out, seed);
            let child: List = from_bytes(&out[..len]);
            children.insert(child.to_vec());
        }
        // Proper subterms of [1,2,3]: the tails after 1, 2 and 3. Donors: [7,8], [8], [].
        let mut expected = std::collections::BTreeSet::new();
        for keep in 1..=3 {
            for donor in [&[7u8, 8][..], &[8], &[]] {
                let mut v = vec![1u8, 2, 3][..keep].to_vec();
                v.extend_from_slice(donor);
                expected.insert(v);
            }
        }
        assert_eq!(children, expected);
    }

    #[test]
    fn flat_types_splice_their_encodings() {
        // Vec<u8> has no Vec<u8> subterms: prefix of one encoding + suffix of the other.
        let first = to_bytes(&vec![1u8; 4]);
        let second = to_bytes(&vec![2u8; 4]);
        let mut mixed = false;
        let mut inputs = InputCache::<Vec<u8>>::new();
        for seed in 0..200 {
            let mut out = [0u8; 16];
            let len = inputs.crossover(&first, &second, &mut out, seed);
            let out = &out[..len];
            // An empty splice (both cuts at an end) is written as the empty vector's encoding.
            let is_splice = (0..=first.len())
                .any(|cut| out.starts_with(&first[..cut]) && second.ends_with(&out[cut..]))
                || out == to_bytes(&Vec::<u8>::new());
            assert!(
                is_splice,
                "{out:?} is a prefix of {first:?} and a suffix of {second:?}"
            );
            // The child served to the execution is what the bytes decode to.
            let child: Vec<u8> = from_bytes(out);
            assert_eq!(inputs.value_of(out), child);
            mixed |= child.contains(&1) && child.contains(&2);
        }
        assert!(mixed, "some child holds elements of both parents");
    }

    #[test]
    fn a_splice_too_long_for_the_output_is_written_as_its_childs_encoding() {
        // Bytes after a value's encoding are never read: splices of these parents decode to
        // at most two elements (three bytes encoded) but can be up to 15 bytes long.
        let mut first = to_bytes(&vec![1u8; 2]);
        first.extend_from_slice(&[0; 10]);
        let second = to_bytes(&vec![2u8; 2]);
        let mut inputs = InputCache::<Vec<u8>>::new();
        for seed in 0..200 {
            let mut out = [0u8; 3];
            let len = inputs.crossover(&first, &second, &mut out, seed);
            assert!(len > 0, "seed {seed}: the child's encoding fits");
            let child: Vec<u8> = from_bytes(&out[..len]);
            assert_eq!(inputs.value_of(&out[..len]), child);
        }
    }

    #[test]
    fn a_child_that_does_not_fit_is_no_crossover() {
        let long = to_bytes(&List::from_slice(&[5; 20]));
        let mut out = [0u8; 4];
        let mut fitted = 0;
        for seed in 0..50 {
            let len = crossover::<List>(&long, &long, &mut out, seed);
            assert!(len <= 4);
            fitted += usize::from(len > 0);
        }
        // Replacing a tail by a whole 20-element list never fits in 4 bytes; short ones may.
        assert!(fitted < 50);
    }
}
