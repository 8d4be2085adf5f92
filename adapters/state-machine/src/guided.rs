//! Model-guided shrink candidates: candidates found by replaying the model alone, which
//! [`Commands::shrink`] cannot do by itself (it sees bytes, not commands).
//!
//! **Canonical bytes.** A command inserted by mutation carries more choice bytes than its strategy
//! reads, and many bytes it reads do not change the value (the low bytes of a wide draw):
//! zeroing them one at a time is as many accepted shrink steps, each a round of candidates,
//! none visible to the user (about 120 of 135 steps on the bank test). The first candidate cuts
//! every command's bytes to the shortest prefix that decodes to the same commands (found by
//! bisection on the prefix length, comparing the `Debug` text of the decoded sequence) and
//! zeroes every byte that does not change it, so shrinking spends its steps on the commands.
//!
//! **Repaired deletions.** Greedy deletion stops in a local minimum as soon as every single
//! deletion disables a later command. Two shapes are common:
//!
//! - **Dependent commands**: `Freeze(0) .. Unfreeze(0)` with other commands between them, or an
//!   `Open(3)` used only by commands that are themselves junk. Deleting either alone disables the
//!   other; a *cascade* deletes a command, then the first command that became disabled, and so
//!   on (at most [`MAX_CASCADE`] more), until the sequence is enabled again.
//! - **Split quantities**: `Deposit(150), Deposit(18), .., Withdraw(149), Withdraw(19), Close`:
//!   the balance must be exactly zero at `Close`, so deleting any one amount disables the
//!   sequence. A *repair* deletes a command, then searches one earlier command's choice bytes
//!   (`Withdraw(19)` -> `Withdraw(168)`) for a value that enables the rest again.
//!
//! The repair search bisects one 4-byte little-endian word of the command's choice bytes — the
//! unit proptest's pass-through RNG reads, so the word is (part of) one draw, and a draw maps to
//! its value monotonically (`rand`'s uniform sampling multiplies the word by the range's width).
//! The model says where a replay stops: with the word at 1 (the smallest draw `rand` accepts) the
//! sequence above stops at `Close` (money left), at `u32::MAX` at the withdrawal itself (more
//! than the balance); bisecting between two words that stop at different commands narrows down
//! to the boundary, where the amount is exactly right and the whole sequence is enabled. A word
//! with the same stop at both ends, or whose command is disabled at both ends, is left alone.
//! Two words past the end of a command's bytes are bisected too: a command whose bytes end
//! early reads its last parameters from the padding after them.
//!
//! When no single word mends a deletion, the command where the replay stops is switched to
//! another kind — its first or second word (where a `prop_oneof!` reads which alternative) set
//! to each of 16 values spread over the range — and its other words bisected again
//! (`Transfer(3, 4, 957)` to an account whose `Open` was deleted becomes `Withdraw(3, 957)`),
//! or reads the old command's parameters with one of them cut out, as a constructor drop does
//! (`Transfer(0, 2, 193)` from an account whose `Deposit` was deleted becomes `Deposit(2, 193)`).
//!
//! The engine runs each candidate as any other: it is accepted only if it still fails, with every
//! precondition re-checked. The adapter hands the model to the run's context
//! ([`GuidedModel`], a context extension); without one there are no guided candidates. Each shrink step spends at most
//! [`MAX_REPLAYS`] model replays and [`MAX_TIME`] on them.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use typefuzz_engine::Context;

use crate::commands::{padding, Commands};

/// Model replays one shrink step may spend on canonical bytes, and again on cascades and
/// repairs.
const MAX_REPLAYS: usize = 8192;
/// Time one shrink step may spend on canonical bytes, and again on cascades and repairs.
const MAX_TIME: Duration = Duration::from_millis(500);
/// Commands a cascade deletes besides the first.
const MAX_CASCADE: usize = 4;
/// Repairs offered per deletion: an enabled sequence need not fail, the engine decides.
const MAX_REPAIRS: usize = 4;
/// Values tried for the word that chooses the command when switching a command's kind (a power
/// of two).
const SWITCHES: u32 = 16;
/// Bytes bisected at once: one word of the pass-through RNG.
const WORD: usize = 4;
/// Words bisected past the end of a command's bytes, where its strategy reads the padding.
const WORDS_PAST_THE_END: usize = 2;

/// What guided shrinking asks the model.
pub(crate) trait ShrinkModel {
    /// The index of the first command of `commands` that is not enabled, or `None` when every
    /// command is.
    fn first_disabled(&mut self, commands: &Commands) -> Option<usize>;
    /// Writes the decoded sequence's `Debug` text to `out` (cleared first); false if a command is
    /// not enabled.
    fn describe(&mut self, commands: &Commands, out: &mut String) -> bool;
}

/// The model replay of the run in progress: an extension of the run's [`Context`] (set by the
/// adapter), which `Commands::shrink` hands to [`canonical`] and [`deletions`].
#[derive(Clone)]
pub(crate) struct GuidedModel(Rc<RefCell<Box<dyn ShrinkModel>>>);

impl GuidedModel {
    pub(crate) fn new(model: impl ShrinkModel + 'static) -> Self {
        GuidedModel(Rc::new(RefCell::new(Box::new(model))))
    }
}

/// Runs `f` with the context's model, if any (and if it is not busy: models do not shrink).
fn with_model<T>(cx: &Context, f: impl FnOnce(&mut dyn ShrinkModel) -> T) -> Option<T> {
    let model = cx.extension::<GuidedModel>()?;
    let mut model = model.0.try_borrow_mut().ok()?;
    Some(f(model.as_mut()))
}

/// `commands` with every command's (and the initial state's) bytes cut to the shortest prefix
/// that decodes to the same sequence, and every byte that can be zero without changing what the
/// sequence decodes to set to zero; `None` if that changes nothing or there is no model.
pub(crate) fn canonical(commands: &Commands, cx: &Context) -> Option<Commands> {
    with_model(cx, |model| {
        let mut same = Same {
            model,
            text: String::new(),
            probe_text: String::new(),
            replays: 0,
            started: Instant::now(),
        };
        if !same.model.describe(commands, &mut same.text) {
            return None;
        }
        let mut canonical = commands.clone();
        for index in 0..=commands.steps.len() {
            // The shortest length in `low..=high` that decodes the same; `high` always does.
            let (mut low, mut high) = (0, bytes_of(&mut canonical, index).len());
            while low < high {
                let middle = low + (high - low) / 2;
                let mut probe = canonical.clone();
                bytes_of(&mut probe, index).truncate(middle);
                if same.decoding(&probe) {
                    high = middle;
                } else {
                    low = middle + 1;
                }
            }
            bytes_of(&mut canonical, index).truncate(high);
            // Zeros where the value does not matter: a whole word at once, else byte by byte
            // (the low bytes of a wide draw often do not change the value drawn).
            for word in (0..high).step_by(WORD) {
                let end = (word + WORD).min(high);
                if bytes_of(&mut canonical, index)[word..end]
                    .iter()
                    .all(|&b| b == 0)
                {
                    continue;
                }
                let mut probe = canonical.clone();
                bytes_of(&mut probe, index)[word..end].fill(0);
                if same.decoding(&probe) {
                    canonical = probe;
                    continue;
                }
                for byte in word..end {
                    if bytes_of(&mut canonical, index)[byte] == 0 {
                        continue;
                    }
                    let mut probe = canonical.clone();
                    bytes_of(&mut probe, index)[byte] = 0;
                    if same.decoding(&probe) {
                        canonical = probe;
                    }
                }
            }
        }
        (canonical != *commands).then_some(canonical)
    })
    .flatten()
}

/// The words of `bytes` a repair bisects: its own, and [`WORDS_PAST_THE_END`] more. A command
/// whose bytes end early reads its last parameters from the padding after them (canonical bytes
/// end where the padding reads the same values; mutation leaves commands short), and those
/// parameters need mending as much as the others.
fn words_of(bytes: &[u8]) -> usize {
    bytes.len().div_ceil(WORD) + WORDS_PAST_THE_END
}

/// Sets the word at `offset` of `bytes` to `value`, first extending `bytes` up to it with the
/// padding the replay reads there (so the bytes before the word keep their values).
fn set_word(bytes: &mut Vec<u8>, offset: usize, value: u32) {
    if bytes.len() < offset + WORD {
        let missing = offset + WORD - bytes.len();
        bytes.extend_from_slice(&padding()[..missing]);
    }
    bytes[offset..offset + WORD].copy_from_slice(&value.to_le_bytes());
}

/// The initial state's bytes (`index` 0) or command `index - 1`'s.
fn bytes_of(commands: &mut Commands, index: usize) -> &mut Vec<u8> {
    match index {
        0 => &mut commands.init,
        _ => &mut commands.steps[index - 1],
    }
}

/// Whether probes decode to the same sequence as the one described in `text`, within the same
/// bounds as the other guided candidates.
struct Same<'a> {
    model: &'a mut dyn ShrinkModel,
    text: String,
    probe_text: String,
    replays: usize,
    started: Instant,
}

impl Same<'_> {
    /// Past the bounds every probe counts as different, so the bytes are left as they are.
    fn decoding(&mut self, probe: &Commands) -> bool {
        if self.replays >= MAX_REPLAYS || self.started.elapsed() >= MAX_TIME {
            return false;
        }
        self.replays += 1;
        self.model.describe(probe, &mut self.probe_text) && self.probe_text == self.text
    }
}

/// Appends the cascaded and repaired deletions of `commands` to `out`: every candidate is one
/// command shorter or more, and enabled from start to end. Nothing without a model in the context.
pub(crate) fn deletions(commands: &Commands, cx: &Context, out: &mut Vec<Commands>) {
    with_model(cx, |model| {
        let mut search = Search {
            model,
            replays: 0,
            started: Instant::now(),
        };
        search.run(commands, out);
    });
}

struct Search<'a> {
    model: &'a mut dyn ShrinkModel,
    replays: usize,
    started: Instant,
}

impl Search<'_> {
    fn exhausted(&self) -> bool {
        self.replays >= MAX_REPLAYS || self.started.elapsed() >= MAX_TIME
    }

    fn first_disabled(&mut self, commands: &Commands) -> Option<usize> {
        self.replays += 1;
        self.model.first_disabled(commands)
    }

    fn run(&mut self, commands: &Commands, out: &mut Vec<Commands>) {
        // The single deletions that disable the sequence, from the back (deletions that keep it
        // enabled are plain shrink candidates already), with the command where each stops.
        let mut broken = Vec::new();
        for index in (0..commands.steps.len()).rev() {
            if self.exhausted() {
                return;
            }
            let mut deleted = commands.clone();
            deleted.steps.remove(index);
            if let Some(at) = self.first_disabled(&deleted) {
                broken.push((deleted, at));
            }
        }
        for (deleted, at) in &broken {
            if self.exhausted() {
                return;
            }
            if let Some(cascaded) = self.cascade(deleted.clone(), *at) {
                out.push(cascaded);
            }
        }
        let mut unrepaired = Vec::new();
        for (deleted, at) in &broken {
            let mut found = 0;
            // The command where the replay stops, then the ones before it, nearest first; each
            // command's last word first (a `prop_oneof!` reads which command in its first word,
            // the parameters after it).
            'targets: for target in (0..=*at).rev() {
                let words = deleted.steps.get(target).map_or(0, |bytes| words_of(bytes));
                for word in (0..words).rev() {
                    if self.exhausted() {
                        return;
                    }
                    if let Some(repaired) = self.bisect(deleted, target, word * WORD) {
                        out.push(repaired);
                        found += 1;
                        if found == MAX_REPAIRS {
                            break 'targets;
                        }
                    }
                }
            }
            if found == 0 {
                unrepaired.push((deleted, *at));
            }
        }
        // Last, for deletions no single word mends: another kind of command where the replay
        // stops, with one of its parameters bisected (`Transfer(3, 4, 957)` needs account 4,
        // whose `Open` is deleted; `Withdraw(3, 957)` does the same to account 3).
        for (deleted, at) in unrepaired {
            if let Some(repaired) = self.switch_command(deleted, at) {
                out.push(repaired);
            }
            if self.exhausted() {
                return;
            }
        }
    }

    /// Sets the first or second word of command `target` (where a `prop_oneof!` reads which
    /// command to draw: a `u32`, or the high half of a `u64`) to each of [`SWITCHES`] values
    /// spread over its range — one per alternative of up to that many equally weighted ones —
    /// and for each, bisects the command's other words (see [`Search::bisect`]).
    fn switch_command(&mut self, deleted: &Commands, target: usize) -> Option<Commands> {
        let words = words_of(deleted.steps.get(target)?);
        for switch in 0..2 {
            for step in 0..SWITCHES {
                // Odd and in the middle of its share of the range (see `bisect`).
                let value = (step << (32 - SWITCHES.trailing_zeros())) | (1 << 27) | 1;
                let mut switched = deleted.clone();
                let at = WORD * switch;
                set_word(&mut switched.steps[target], at, value);
                if self.exhausted() {
                    return None;
                }
                if self.first_disabled(&switched).is_none() {
                    return Some(switched);
                }
                // The new kind reading the old one's parameters with one dropped, as a
                // constructor drop does (`Transfer(0, 2, 193)` -> `Deposit(2, 193)`): one or
                // two words (a `u32` or a `u64` draw) cut after the switched word.
                for word in switch + 1..words {
                    for cut in 1..=2 {
                        if self.exhausted() {
                            return None;
                        }
                        let bytes = &switched.steps[target];
                        if (word + cut) * WORD > bytes.len() {
                            break;
                        }
                        let mut dropped = switched.clone();
                        dropped.steps[target].drain(word * WORD..(word + cut) * WORD);
                        if self.first_disabled(&dropped).is_none() {
                            return Some(dropped);
                        }
                    }
                }
                for word in (0..words).rev().filter(|&word| word != switch) {
                    if self.exhausted() {
                        return None;
                    }
                    if let Some(repaired) = self.bisect(&switched, target, word * WORD) {
                        return Some(repaired);
                    }
                }
            }
        }
        None
    }

    /// Deletes the command where `deleted` stops (at `at`), then the next one where it stops,
    /// until it is enabled: `None` if that takes more than [`MAX_CASCADE`] deletions.
    fn cascade(&mut self, mut deleted: Commands, mut at: usize) -> Option<Commands> {
        for _ in 0..MAX_CASCADE {
            if at >= deleted.steps.len() {
                return None;
            }
            deleted.steps.remove(at);
            match self.first_disabled(&deleted) {
                None => return Some(deleted),
                Some(next) => at = next,
            }
        }
        None
    }

    /// Searches the word at `offset` of command `target`'s bytes for a value that enables all
    /// of `deleted` (see the module docs).
    fn bisect(&mut self, deleted: &Commands, target: usize, offset: usize) -> Option<Commands> {
        let mut probe = deleted.clone();
        // Not 0: `rand`'s uniform sampling rejects a word whose product with the range's width
        // is (almost) a multiple of 2^32 — 0 for every range whose width is not a power of two —
        // and draws again, from the bytes after it; 1 is accepted for every width.
        let (mut low, mut high) = (1u32, u32::MAX);
        let Some(low_stop) = self.stop_with_word(&mut probe, target, offset, low) else {
            return Some(probe);
        };
        let Some(high_stop) = self.stop_with_word(&mut probe, target, offset, high) else {
            return Some(probe);
        };
        if low_stop == high_stop || (low_stop <= target && high_stop <= target) {
            return None;
        }
        while high - low > 1 && !self.exhausted() {
            // Odd: a dyadic middle times an even range width is a multiple of 2^32, the one
            // word `rand` rejects (see above), and the redraw would send the search astray.
            let mut middle = low + (high - low) / 2;
            if middle | 1 < high {
                middle |= 1;
            }
            match self.stop_with_word(&mut probe, target, offset, middle) {
                None => return Some(probe),
                Some(stop) if stop == low_stop => low = middle,
                Some(_) => high = middle,
            }
        }
        None
    }

    /// Sets the word at `offset` of command `target` to `word` and says where the sequence
    /// stops (`None`: it is enabled).
    fn stop_with_word(
        &mut self,
        probe: &mut Commands,
        target: usize,
        offset: usize,
        word: u32,
    ) -> Option<usize> {
        set_word(&mut probe.steps[target], offset, word);
        self.first_disabled(probe)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};

    use super::*;
    use crate::machine::Model;
    use proptest::strategy::ValueTree;
    use typefuzz_engine::Mutate;

    /// A wallet: deposits, withdrawals up to the balance, and `Close` at a zero balance.
    struct Wallet;

    #[derive(Clone, Debug, PartialEq)]
    enum Command {
        Deposit(u32),
        Withdraw(u32),
        Close,
    }

    impl ReferenceStateMachine for Wallet {
        /// The balance, and whether money was ever deposited.
        type State = (u32, bool);
        type Transition = Command;

        fn init_state() -> BoxedStrategy<(u32, bool)> {
            Just((0, false)).boxed()
        }

        fn transitions(_: &(u32, bool)) -> BoxedStrategy<Command> {
            prop_oneof![
                (1..=100u32).prop_map(Command::Deposit),
                (1..=100u32).prop_map(Command::Withdraw),
                Just(Command::Close),
            ]
            .boxed()
        }

        fn preconditions(&(balance, _): &(u32, bool), command: &Command) -> bool {
            match *command {
                Command::Deposit(_) => true,
                Command::Withdraw(x) => x <= balance,
                Command::Close => balance == 0,
            }
        }

        fn apply((balance, funded): (u32, bool), command: &Command) -> (u32, bool) {
            match *command {
                Command::Deposit(x) => (balance + x, true),
                Command::Withdraw(x) => (balance - x, funded),
                Command::Close => (balance, funded),
            }
        }
    }

    /// The bug: closing a wallet that ever held money. Random sequences reach it with the money
    /// split over several deposits and withdrawals, where every single deletion disables `Close`.
    struct WalletTest;

    impl StateMachineTest for WalletTest {
        type SystemUnderTest = ();
        type Reference = Wallet;

        fn init_test(_: &(u32, bool)) {}

        fn apply((): (), &(_, funded): &(u32, bool), command: Command) {
            assert!(
                !(funded && command == Command::Close),
                "closed a funded wallet"
            );
        }
    }

    #[test]
    fn split_quantities_shrink_to_one_deposit_and_one_withdrawal() {
        for seed in 1..=5 {
            let config = typefuzz_engine::Config::default()
                .with_seed(seed)
                .with_cases(20_000);
            let proptest = proptest::test_runner::Config::default();
            let run = crate::run_with::<WalletTest>(&config, &proptest, 1..16);
            let original = run.original.expect("the bug is found");
            let minimal = run.minimal.expect("the bug is found");
            let transitions = minimal.transitions();
            assert!(
                matches!(
                    transitions[..],
                    [Command::Deposit(x), Command::Withdraw(y), Command::Close] if x == y
                ),
                "seed {seed}: {minimal}\nfrom {original}"
            );
        }
    }

    /// A wallet with a shop: `Pay(shop, x)` needs the shop open and reads its amount after the
    /// shop's number, where `Withdraw(x)` reads its amount right after the choice of command.
    struct Shop;

    #[derive(Clone, Debug, PartialEq)]
    enum Purchase {
        Deposit(u32),
        Withdraw(u32),
        Pay(usize, u32),
        OpenShop,
        Close,
    }

    impl ReferenceStateMachine for Shop {
        /// The balance, whether money was ever deposited, whether the shop is open.
        type State = (u32, bool, bool);
        type Transition = Purchase;

        fn init_state() -> BoxedStrategy<Self::State> {
            Just((0, false, false)).boxed()
        }

        fn transitions(_: &Self::State) -> BoxedStrategy<Purchase> {
            // `Close` first and `Pay` last: bisecting which command `Pay` is, between the
            // two, stops at the payment at both ends and is skipped.
            prop_oneof![
                Just(Purchase::Close),
                (1..=100u32).prop_map(Purchase::Deposit),
                (1..=100u32).prop_map(Purchase::Withdraw),
                Just(Purchase::OpenShop),
                (0..3usize, 1..=100u32).prop_map(|(shop, x)| Purchase::Pay(shop, x)),
            ]
            .boxed()
        }

        fn preconditions(&(balance, _, open): &Self::State, command: &Purchase) -> bool {
            match *command {
                Purchase::Deposit(_) => true,
                Purchase::Withdraw(x) => x <= balance,
                Purchase::Pay(_, x) => open && x <= balance,
                Purchase::OpenShop => !open,
                Purchase::Close => balance == 0,
            }
        }

        fn apply((balance, funded, open): Self::State, command: &Purchase) -> Self::State {
            match *command {
                Purchase::Deposit(x) => (balance + x, true, open),
                Purchase::Withdraw(x) | Purchase::Pay(_, x) => (balance - x, funded, open),
                Purchase::OpenShop => (balance, funded, true),
                Purchase::Close => (balance, funded, open),
            }
        }
    }

    /// The choice bytes that `transitions` reads to draw a command `wanted` accepts.
    fn bytes_of_a(wanted: impl Fn(&Purchase) -> bool) -> Vec<u8> {
        use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};
        for seed in 0u8.. {
            let rng = TestRng::from_seed(RngAlgorithm::Recorder, &[seed; 32]);
            let mut runner = TestRunner::new_with_rng(Default::default(), rng);
            let tree = Shop::transitions(&(0, false, false))
                .new_tree(&mut runner)
                .unwrap();
            if wanted(&tree.current()) {
                return runner.rng().bytes_used();
            }
        }
        unreachable!("some seed draws every command")
    }

    #[test]
    fn a_payment_whose_shop_is_deleted_shrinks_to_a_withdrawal() {
        // Deposit(x), OpenShop, Pay(_, x), Close: every single deletion disables a later command,
        // and the payment must become a withdrawal of the same amount, read from another offset.
        let deposit = bytes_of_a(|c| matches!(c, Purchase::Deposit(_)));
        let mut pay = bytes_of_a(|c| matches!(c, Purchase::Pay(..)));
        let mut model = Model::<Shop>::new(&Default::default());
        let mut start = Commands {
            init: vec![],
            steps: vec![
                deposit.clone(),
                bytes_of_a(|c| *c == Purchase::OpenShop),
                pay.clone(),
                bytes_of_a(|c| *c == Purchase::Close),
            ],
        };
        // Give the payment the deposit's amount: search its last word for it.
        let last = pay.len() - WORD;
        let mut found = false;
        for value in (1..=u32::MAX).step_by(1 << 20) {
            pay[last..].copy_from_slice(&value.to_le_bytes());
            start.steps[2] = pay.clone();
            if model.first_disabled(&start).is_none() {
                found = true;
                break;
            }
        }
        assert!(found, "no payment amount matches the deposit");
        let fails = |model: &mut Model<Shop>, commands: &Commands| {
            model.decode(commands).is_some_and(|trace| {
                let transitions = trace.transitions();
                transitions.contains(&Purchase::Close)
                    && trace.steps.iter().any(|(_, (_, funded, _))| *funded)
            })
        };
        assert!(fails(&mut model, &start));
        let mut cx = typefuzz_engine::Context::new(0)
            .with_extension(GuidedModel::new(Model::<Shop>::new(&Default::default())));
        let mut current = start;
        while let Some(next) = current
            .shrink(&mut cx)
            .into_iter()
            .find(|candidate| fails(&mut model, candidate))
        {
            current = next;
        }
        let minimal = model.decode(&current).unwrap().transitions();
        assert!(
            matches!(
                minimal[..],
                [Purchase::Deposit(x), Purchase::Withdraw(y), Purchase::Close] if x == y
            ),
            "{minimal:?}"
        );
    }

    #[test]
    fn without_a_model_there_are_no_guided_candidates() {
        let commands = Commands {
            init: vec![],
            steps: vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]],
        };
        let mut out = Vec::new();
        let cx = typefuzz_engine::Context::new(0);
        deletions(&commands, &cx, &mut out);
        assert!(out.is_empty());
        assert_eq!(canonical(&commands, &cx), None);
    }
}
