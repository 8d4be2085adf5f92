//! The run's artifacts: the corpus it reads and grows (the test's kept corpus, or a directory), the regression file it replays
//! and saves failures to, and the guards that turn a property call that never returns — a hang
//! (the watchdog), a crash or an `exit` (the crash handlers) — into a saved input.
//!
//! Every property call of a run, in the loop and while shrinking, goes through
//! [`RunArtifacts::execute`], so whatever must surround a call is written once, here.
//!
//! # Saving an input that ends the process, without encoding every input
//!
//! The rule: an input that ends the process (a crash, an `exit`, a hang past the per-test
//! limit) is saved before the process dies. The handlers that save it cannot encode a value (a
//! signal handler may not allocate), so the bytes they write must exist before the call. Most
//! tests are mutants of a seed, and for those the loop encodes nothing per test: it arms the
//! guards with a [`Recipe`] — the seed's codec bytes, encoded once when the seed was kept, and
//! the random state and count of the mutations that made the mutant. Mutation is a function of
//! the value, the random state and the [`Context`]'s settings (size bound, operator weights, the
//! run's config), so the next run rebuilds the exact input from the recipe file
//! (`crash-<sha1>.recipe`), writes it as a plain `crash-<sha1>` file and replays it first; the
//! watchdog, a normal thread, rebuilds a hanging input at once.
//!
//! Fresh generations get a recipe too — the random state and size — when the run can tell
//! that the generator, a closure of the user's that may keep state of its own, returned exactly
//! what `T::generate` made from that state: the engine arms a probe in the [`Context`] before
//! the call, and the first `Context::generate` call records its type, the random state before
//! and after it, its size and the value's [`ValueHasher`](crate::mutate::ValueHasher) hash.
//! The recipe is used only if that call was for `T`, started at the state the engine handed
//! over, and left the state where the generator returned it (nothing drawn before or after);
//! and the value returned must hash like the one made: compared before the call on the first
//! 16 fresh inputs of a run and one in 1,024 after, and otherwise after the call, on valid
//! inputs, which the distinct count hashes anyway. `|cx| cx.generate::<T>()` passes; a generator
//! that builds its value otherwise or draws from the context around the call gets its inputs
//! encoded; one caught changing the value loses fresh recipes for the rest of the run. The
//! user's generator is never called an extra time to find out (the call could be observed).
//! The limit: a generator that starts changing the value after the checked start could have
//! one crashing input saved as a recipe of another, until a valid input shows it.
//!
//! Seeds whose bytes do not decode back to the same bytes (deeper than the codec's bound, or a
//! lossy hand-written codec) carry no bytes, and their mutants, like fresh generations the
//! probe could not vouch for, input-to-state mutants (their candidates live in the seed),
//! mutants and generations of types holding a `HashMap` or `HashSet` (mutation follows an
//! iteration order that differs between equal tables), replayed inputs and shrink candidates,
//! are encoded before the call as before.
//! A hand-written [`Mutate`] impl whose mutation depends on anything besides the value and the
//! context (its own random hasher, a global counter) would get recipes that rebuild another
//! input — the limit of this scheme; the run's seed still repeats the search. The engine's unit
//! tests check that every recipe they make rebuilds its mutant.

use std::fmt::Debug;
use std::path::PathBuf;
use std::rc::Rc;

use crate::codec;
use crate::corpus::disk::DiskCorpus;
use crate::corpus::kept::{KeptCorpus, ReplayBudget};
use crate::crash::{CrashGuard, InFlight};
use crate::executor::{self, HangReport, Verdict, Watchdog};
use crate::feedback::Feedback;
use crate::files::{self, RegressionFile};
use crate::fingerprint;
use crate::{Config, Context, IntoOutcome, Mutate, Operators};

/// How an input was made, enough to rebuild it exactly (see the module docs): a mutant from its
/// seed, or a fresh generation from the generator's random state.
#[derive(Clone, Debug)]
pub(crate) struct Recipe {
    /// The context's random state before the first mutation, or before the generator ran.
    pub(crate) state: u64,
    pub(crate) origin: Origin,
}

/// What a [`Recipe`] starts from.
#[derive(Clone, Debug)]
pub(crate) enum Origin {
    /// A seed, whose codec bytes decode back to it, and how many top-level mutations
    /// (`Context::mutate`) were applied to it.
    Seed { parent: Rc<[u8]>, mutations: u32 },
    /// `T::generate` at this size: the run's generator returned exactly what it made (see
    /// `Context::watch_generation`).
    Generated { size: u32 },
}

/// The first bytes of a mutant's recipe file; the version byte changes with the format.
const RECIPE_MAGIC: [u8; 4] = *b"TFR\x01";
/// The first bytes of a fresh generation's recipe file.
const GENERATED_MAGIC: [u8; 4] = *b"TFG\x01";
/// Magic, random state, mutation count or size.
const RECIPE_HEADER: usize = 16;
/// More top-level mutations than any schedule stacks: a recipe claiming more is not one.
const MAX_RECIPE_MUTATIONS: u32 = 1 << 10;

impl Recipe {
    /// The bytes of a recipe file: header, then the parent's bytes (none for a generation).
    #[cfg(test)]
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        [&self.header()[..], self.parent()].concat()
    }

    /// The seed's bytes a mutant's recipe file carries after its header; empty for a generation.
    pub(crate) fn parent(&self) -> &[u8] {
        match &self.origin {
            Origin::Seed { parent, .. } => parent,
            Origin::Generated { .. } => &[],
        }
    }

    fn header(&self) -> [u8; RECIPE_HEADER] {
        let (magic, count) = match self.origin {
            Origin::Seed { mutations, .. } => (RECIPE_MAGIC, mutations),
            Origin::Generated { size } => (GENERATED_MAGIC, size),
        };
        let mut header = [0; RECIPE_HEADER];
        header[..4].copy_from_slice(&magic);
        header[4..12].copy_from_slice(&self.state.to_le_bytes());
        header[12..].copy_from_slice(&count.to_le_bytes());
        header
    }

    /// The value a recipe file's bytes (header, then the parent's bytes) make under a run with
    /// `max_size` and `operators`; `None` if the bytes are not a recipe.
    pub(crate) fn rebuild<T: Mutate>(
        bytes: &[u8],
        max_size: usize,
        operators: Operators,
    ) -> Option<T> {
        let (header, parent) = bytes.split_at_checked(RECIPE_HEADER)?;
        let state = u64::from_le_bytes(header[4..12].try_into().ok()?);
        let count = u32::from_le_bytes(header[12..].try_into().ok()?);
        let mut cx = Context::new(state)
            .with_max_size(max_size)
            .with_operators(operators);
        match header[..4].try_into().ok()? {
            RECIPE_MAGIC if count <= MAX_RECIPE_MUTATIONS => {
                let mut value: T = codec::from_bytes(parent);
                for _ in 0..count {
                    cx.mutate(&mut value);
                }
                Some(value)
            }
            GENERATED_MAGIC if parent.is_empty() && count as usize <= max_size => {
                cx.set_size(count as usize);
                Some(T::generate(&mut cx))
            }
            _ => None,
        }
    }
}

/// [`Recipe::rebuild`], encoded, as the watchdog calls it, with how the input was made.
fn rebuild_bytes<T: Mutate>(
    bytes: &[u8],
    max_size: usize,
    operators: Operators,
) -> Option<(Vec<u8>, &'static str)> {
    let value = Recipe::rebuild::<T>(bytes, max_size, operators)?;
    let made = match bytes[..4] == GENERATED_MAGIC {
        true => "a fresh input, rebuilt from the random state it was generated from",
        false => "a mutant, rebuilt from its seed and the mutation that made it",
    };
    Some((codec::to_bytes(&value), made))
}

/// What a run keeps on disk, and the guard around its property calls.
pub(crate) struct RunArtifacts {
    /// The corpus the engine keeps for the test by itself (`Config::keep_seeds`).
    kept: Option<KeptCorpus>,
    /// A corpus directory: the one the user named, or the one workers exchange seeds through.
    corpus: Option<DiskCorpus>,
    /// Whether the corpus input replayed last came from `kept`.
    replaying_kept: bool,
    regressions: Option<RegressionFile>,
    /// [`Config::replay_first`]: replayed after the regression file's entries.
    replay_first: Vec<Vec<u8>>,
    /// Where crash and hang inputs go (`<test>.artifacts/`), replayed first by the next run.
    artifact_dir: PathBuf,
    watchdog: Option<Watchdog>,
    crash_guard: CrashGuard,
    /// The encoding of the input being run, in a reused buffer: what the crash handlers and the
    /// watchdog save if the call never returns (when it has no recipe).
    encoded: codec::Encoder,
    /// Whether `encoded` holds the input of the last call.
    encoded_current: bool,
    /// The header of the last call's recipe, if it had one, where the guards read it.
    recipe_header: [u8; RECIPE_HEADER],
    /// What rebuilding a recipe needs besides the type: the run's size bound and operators.
    max_size: usize,
    operators: Operators,
    seed: u64,
}

impl RunArtifacts {
    /// Opens what `config` asks for: the corpus directory, the regression file (loaded), the
    /// crash handlers, and a watchdog when a per-test limit is set (its hang report prints
    /// inputs as `T` and `seed`).
    pub(crate) fn open<T: Mutate + Debug>(config: &Config, seed: u64) -> Self {
        let regression_path = config.regression_path();
        let artifact_dir = files::artifact_dir(regression_path.as_deref());
        let replay = replay_command(config);
        // The engine's own corpus (`keep_seeds`) is replayed within a budget and kept small
        // (see `corpus::kept`); a directory the user named is theirs (see `corpus::disk`).
        // Workers on a kept corpus exchange seeds through a directory of their own.
        let (kept, corpus) = match config.corpus_path::<T>() {
            Some(dir) if config.corpus.is_some() => (None, Some(DiskCorpus::new(&dir))),
            Some(file) => (
                Some(KeptCorpus::open(&file, ReplayBudget::of(config))),
                crate::workers::exchange_dir().map(|dir| DiskCorpus::exchange(&dir)),
            ),
            None => (None, None),
        };
        let watchdog = config
            .test_timeout
            .filter(|limit| !limit.is_zero())
            .map(|limit| {
                let (max_size, operators) = (config.max_size, config.operators);
                let rebuild = rebuild_bytes::<T> as fn(&[u8], usize, Operators) -> _;
                let report = HangReport {
                    artifact_dir: artifact_dir.clone(),
                    seed,
                    replay: replay.clone(),
                    describe: describe::<T>,
                    rebuild: Box::new(move |bytes| rebuild(bytes, max_size, operators)),
                };
                Watchdog::start(limit, report)
            });
        RunArtifacts {
            kept,
            corpus,
            replaying_kept: false,
            regressions: regression_path.as_deref().map(RegressionFile::load),
            replay_first: config.replay_first.clone(),
            crash_guard: CrashGuard::new(&artifact_dir, seed, &replay),
            artifact_dir,
            watchdog,
            encoded: codec::Encoder::new(),
            encoded_current: false,
            recipe_header: [0; RECIPE_HEADER],
            max_size: config.max_size,
            operators: config.operators,
            seed,
        }
    }

    /// The inputs replayed first: those that ended an earlier process (crash and hang files:
    /// likeliest to fail again, and a fixed one costs one test), then the regression file's
    /// entries written for `T`'s shape (entries of another shape are reported and kept), then
    /// [`Config::replay_first`].
    ///
    /// Recipe files (see the module docs) are rebuilt into inputs first, and saved as plain
    /// files in their place.
    pub(crate) fn regression_inputs<T: Mutate>(&self) -> Vec<Vec<u8>> {
        let mut inputs = Vec::new();
        if let Some(file) = &self.regressions {
            // Most tests never crashed or hung: one look finds no directory, and nothing to list.
            if self.artifact_dir.is_dir() {
                self.rebuild_recipes::<T>();
                inputs = files::load_artifacts(&self.artifact_dir);
            }
            inputs.extend(file.replayable(fingerprint::of::<T>(), type_name::<T>()));
        }
        inputs.extend(self.replay_first.iter().cloned());
        inputs
    }

    /// Turns the recipe files an earlier process left into the plain input files they rebuild.
    fn rebuild_recipes<T: Mutate>(&self) {
        for (path, bytes) in files::load_recipes(&self.artifact_dir) {
            let name = path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned());
            let prefix = match name {
                Some(name) if name.starts_with("hang-") => "hang",
                _ => "crash",
            };
            let rebuilt = Recipe::rebuild::<T>(&bytes, self.max_size, self.operators)
                .map(|value| codec::to_bytes(&value));
            let saved =
                rebuilt.map(|input| files::write_artifact(&self.artifact_dir, prefix, &input));
            match saved {
                Some(Ok(_)) => {
                    let _ = std::fs::remove_file(&path);
                }
                Some(Err(error)) => eprintln!(
                    "typefuzz: could not save the input rebuilt from {}: {error}",
                    path.display()
                ),
                None => eprintln!(
                    "typefuzz: {} is not a recipe this test's input type rebuilds; skipped",
                    path.display()
                ),
            }
        }
    }

    /// The next corpus input to replay after the regressions: the kept corpus's, within its
    /// replay budget (see [`KeptCorpus::next_input`]), then the corpus directory's (see
    /// [`DiskCorpus::next_input`]); then say whether it was interesting with
    /// [`judge_corpus_input`](Self::judge_corpus_input).
    pub(crate) fn next_corpus_input(&mut self) -> Option<Vec<u8>> {
        let kept = self.kept.as_mut().and_then(KeptCorpus::next_input);
        self.replaying_kept = kept.is_some();
        kept.or_else(|| self.corpus.as_mut()?.next_input())
    }

    /// Whether the corpus input replayed last was interesting: the kept corpus keeps it, or
    /// may remove it as redundant when the run ends (a directory's inputs all stay).
    pub(crate) fn judge_corpus_input(&mut self, useful: bool) {
        if let Some(kept) = self.kept.as_mut().filter(|_| self.replaying_kept) {
            kept.judge(useful);
        }
    }

    /// The corpus directory's inputs written by other processes since the last look (workers
    /// sharing the directory: see [`workers`](crate::workers)).
    pub(crate) fn corpus_new_inputs(&mut self) -> Vec<Vec<u8>> {
        self.corpus
            .as_mut()
            .map(DiskCorpus::load_new)
            .unwrap_or_default()
    }

    /// Adds an interesting input to the kept corpus and the corpus directory; `about_the_property`
    /// says whether it found something about the property or only a new input structure (see
    /// [`KeptCorpus::save`]). A kept input being replayed is already in the kept corpus: its
    /// judgement ([`judge_corpus_input`](Self::judge_corpus_input)) says it was useful.
    pub(crate) fn keep(&mut self, bytes: &[u8], about_the_property: bool) {
        if let Some(kept) = self.kept.as_mut().filter(|_| !self.replaying_kept) {
            kept.save(bytes, about_the_property);
        }
        if let Some(corpus) = &mut self.corpus {
            corpus.save(bytes);
        }
    }

    /// Saves a failing input to the regression file (replacing the entry `replacing`, the
    /// unshrunk form of a minimal input). `Ok(Some(bytes))` when saved, `Ok(None)` when the run
    /// has no regression file, `Err(why)` when it could not be saved — an input deeper than the
    /// codec's bound (its bytes would replay another value) or a file that cannot be written —
    /// so the report never says "saved" for an input that was not.
    pub(crate) fn save_failure<T: Mutate>(
        &mut self,
        input: &T,
        comment: &str,
        replacing: Option<&[u8]>,
    ) -> Result<Option<Vec<u8>>, String> {
        let Some(file) = &mut self.regressions else {
            return Ok(None);
        };
        let mut encoder = codec::Encoder::new();
        input.encode(&mut encoder);
        if encoder.is_truncated() {
            return Err(format!(
                "the failing input could not be saved in full: it is nested deeper than the \
                 codec's bound of {} levels (codec::Decoder::MAX_DEPTH), and its bytes would \
                 replay a smaller, different value; replay it with TYPEFUZZ_SEED={}",
                codec::Decoder::MAX_DEPTH,
                self.seed
            ));
        }
        let bytes = encoder.into_bytes();
        let comment = files::one_line(comment, 200);
        match file.save(&bytes, fingerprint::of::<T>(), &comment, replacing) {
            Ok(()) => Ok(Some(bytes)),
            Err(error) => Err(format!(
                "could not save the failing input to {}: {error}",
                file.path().display()
            )),
        }
    }

    /// The regression file's path, if the run has one.
    pub(crate) fn regression_path(&self) -> Option<PathBuf> {
        self.regressions
            .as_ref()
            .map(|file| file.path().to_path_buf())
    }

    /// Runs the property once on `input`, with what the crash handlers and the watchdog (when a
    /// per-test limit is set) save if the call never returns: `recipe` when the input has one (a
    /// mutant, or a fresh generation the probe vouched for), otherwise the input's encoding
    /// (see the module docs).
    pub(crate) fn execute<T: Mutate, R: IntoOutcome>(
        &mut self,
        property: &mut impl FnMut(&T) -> R,
        input: &T,
        feedback: &Feedback,
        recipe: Option<&Recipe>,
    ) -> Verdict {
        self.encoded_current = false;
        match recipe {
            Some(recipe) => self.recipe_header = recipe.header(),
            None => {
                self.encode(input);
            }
        }
        let in_flight = match recipe {
            Some(recipe) => InFlight {
                parts: [&self.recipe_header, recipe.parent()],
                recipe: true,
            },
            None => InFlight {
                parts: [self.encoded.as_bytes(), &[]],
                recipe: false,
            },
        };
        let _crash = self.crash_guard.arm(in_flight);
        let _watch = self
            .watchdog
            .as_ref()
            .map(|watchdog| watchdog.arm(in_flight));
        executor::execute(property, input, feedback)
    }

    /// The encoding of `input`, the input [`execute`](RunArtifacts::execute) ran last: made
    /// once, on demand (only inputs without a recipe were encoded before their call).
    pub(crate) fn last_input<T: Mutate>(&mut self, input: &T) -> &[u8] {
        if !self.encoded_current {
            self.encode(input);
        }
        self.encoded.as_bytes()
    }

    /// The codec size of the last input executed, if the call encoded it (no recipe).
    pub(crate) fn encoded_len(&self) -> Option<usize> {
        self.encoded_current.then(|| self.encoded.as_bytes().len())
    }

    fn encode<T: Mutate>(&mut self, input: &T) -> &[u8] {
        self.encoded.clear();
        input.encode(&mut self.encoded);
        self.encoded_current = true;
        self.encoded.as_bytes()
    }
}

/// How to run the test again: saved crash and hang inputs are replayed first.
fn replay_command(config: &Config) -> String {
    match &config.name {
        Some(name) => format!(
            "cargo test {name} (replays this test's saved crash and hang inputs first; add \
             TYPEFUZZ_SEED to repeat this run's search)"
        ),
        None => "the property has no name, so the saved input is not replayed automatically; \
                 decode it with typefuzz::codec::from_bytes"
            .into(),
    }
}

/// The type's name without its module path, for messages (`my_crate::ops::Op` -> `Op`).
fn type_name<T>() -> &'static str {
    let full = std::any::type_name::<T>();
    let base = full.split('<').next().unwrap_or(full);
    match base.rfind("::") {
        Some(at) => &full[at + 2..],
        None => full,
    }
}

/// Decodes and formats an input, bounded (for the hang report, which only has bytes).
fn describe<T: Mutate + Debug>(bytes: &[u8]) -> String {
    let input = codec::from_bytes::<T>(bytes);
    crate::format_bounded(crate::MAX_FORMATTED, format_args!("{input:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FeedbackSources;
    use std::time::Duration;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "typefuzz-run-artifacts-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn failures_and_finds_are_read_back_by_the_next_run() {
        let dir = scratch("round-trip");
        let config = Config::default()
            .with_regressions(dir.join("regressions.txt"))
            .with_corpus(dir.join("corpus"));
        let mut artifacts = RunArtifacts::open::<u8>(&config, 1);
        assert!(artifacts.regression_inputs::<u8>().is_empty());
        let unshrunk = artifacts.save_failure(&3u8, "unshrunk", None).unwrap();
        assert_eq!(unshrunk.as_deref(), Some(&[3u8][..]));
        let minimal = artifacts.save_failure(&1u8, "minimal", unshrunk.as_deref());
        assert_eq!(minimal, Ok(Some(vec![1])));
        artifacts.keep(&[7], true);
        artifacts.keep(&[8, 9], true);
        assert_eq!(
            artifacts.regression_path(),
            Some(dir.join("regressions.txt"))
        );
        let mut next = RunArtifacts::open::<u8>(&config, 2);
        assert_eq!(next.regression_inputs::<u8>(), [vec![1]]);
        assert!(
            next.regression_inputs::<u16>().is_empty(),
            "written for another shape"
        );
        let mut corpus: Vec<_> = std::iter::from_fn(|| next.next_corpus_input()).collect();
        corpus.sort();
        assert_eq!(corpus, [vec![7], vec![8, 9]]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn nothing_is_kept_without_paths() {
        let mut artifacts = RunArtifacts::open::<u8>(&Config::default(), 1);
        artifacts.keep(&[1], true);
        assert_eq!(artifacts.save_failure(&1u8, "lost", None), Ok(None));
        assert!(artifacts.regression_inputs::<u8>().is_empty());
        assert!(artifacts.next_corpus_input().is_none());
        assert_eq!(artifacts.regression_path(), None);
    }

    #[test]
    fn execute_runs_the_property_under_the_watchdog() {
        let config = Config::default().with_test_timeout(Duration::from_secs(600));
        let mut artifacts = RunArtifacts::open::<u8>(&config, 1);
        assert!(artifacts.watchdog.is_some());
        let feedback = Feedback::new(FeedbackSources::none());
        let mut property = |x: &u8| assert!(*x < 10, "too big");
        assert_eq!(
            artifacts.execute(&mut property, &3, &feedback, None),
            Verdict::Pass
        );
        assert_eq!(artifacts.last_input(&3u8), [3]);
        let Verdict::Fail { message, .. } = artifacts.execute(&mut property, &30, &feedback, None)
        else {
            panic!("a panicking property fails");
        };
        assert!(message.contains("too big"), "{message}");
    }

    #[test]
    fn a_recipe_rebuilds_the_mutant_it_describes() {
        type Input = Vec<(u8, Option<String>)>;
        let operators = Operators::default();
        let mut cx = Context::new(11).with_max_size(8).with_operators(operators);
        for _ in 0..200 {
            let parent: Input = cx.generate();
            let mut mutant = parent.clone();
            let recipe = Recipe {
                state: cx.rng().get_seed(),
                origin: Origin::Seed {
                    parent: codec::to_bytes(&parent).into(),
                    mutations: 3,
                },
            };
            for _ in 0..3 {
                cx.mutate(&mut mutant);
            }
            let rebuilt = Recipe::rebuild::<Input>(&recipe.to_bytes(), 8, operators);
            assert_eq!(rebuilt, Some(mutant));
        }
        let parent = codec::to_bytes(&vec![(1u8, None::<String>)]);
        assert_eq!(
            Recipe::rebuild::<Input>(&parent, 8, operators),
            None,
            "no header"
        );
        let lying = Recipe {
            state: 1,
            origin: Origin::Seed {
                parent: parent.into(),
                mutations: MAX_RECIPE_MUTATIONS + 1,
            },
        };
        assert_eq!(
            Recipe::rebuild::<Input>(&lying.to_bytes(), 8, operators),
            None
        );
    }

    #[test]
    fn a_recipe_file_left_by_a_crash_is_replayed_as_the_input_it_rebuilds() {
        let dir = scratch("recipe");
        let config = Config::default()
            .with_max_size(8)
            .with_regressions(dir.join("regressions.txt"));
        let artifacts = RunArtifacts::open::<Vec<u16>>(&config, 1);
        let mut cx = Context::new(5).with_max_size(8);
        let parent = vec![7u16, 8, 9];
        let recipe = Recipe {
            state: cx.rng().get_seed(),
            origin: Origin::Seed {
                parent: codec::to_bytes(&parent).into(),
                mutations: 2,
            },
        };
        let mut mutant = parent.clone();
        cx.mutate(&mut mutant);
        cx.mutate(&mut mutant);
        let recipe_path = artifacts
            .artifact_dir
            .join(format!("crash-0{}", files::RECIPE_SUFFIX));
        std::fs::create_dir_all(&artifacts.artifact_dir).unwrap();
        std::fs::write(&recipe_path, recipe.to_bytes()).unwrap();
        assert_eq!(
            artifacts.regression_inputs::<Vec<u16>>(),
            [codec::to_bytes(&mutant)]
        );
        assert!(!recipe_path.exists(), "the plain file replaces the recipe");
        assert_eq!(
            files::load_artifacts(&artifacts.artifact_dir),
            [codec::to_bytes(&mutant)]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_generation_recipe_rebuilds_its_fresh_input() {
        type Input = Vec<(u8, Option<String>)>;
        let operators = Operators::default();
        let mut cx = Context::new(3).with_max_size(8).with_operators(operators);
        for size in 0..=8 {
            cx.set_size(size);
            let recipe = Recipe {
                state: cx.rng().get_seed(),
                origin: Origin::Generated { size: size as u32 },
            };
            let fresh: Input = cx.generate();
            let bytes = recipe.to_bytes();
            assert_eq!(bytes.len(), RECIPE_HEADER, "no parent bytes");
            assert_eq!(Recipe::rebuild::<Input>(&bytes, 8, operators), Some(fresh));
        }
        let too_big = Recipe {
            state: 1,
            origin: Origin::Generated { size: 9 },
        };
        assert_eq!(
            Recipe::rebuild::<Input>(&too_big.to_bytes(), 8, operators),
            None,
            "no run of this bound generated it"
        );
        let mut trailing = too_big.to_bytes();
        trailing[12] = 1;
        trailing.push(0);
        assert_eq!(
            Recipe::rebuild::<Input>(&trailing, 8, operators),
            None,
            "a generation's recipe has no parent"
        );
    }

    #[test]
    fn a_generation_recipe_file_is_replayed_as_the_input_it_rebuilds() {
        let dir = scratch("generation-recipe");
        let config = Config::default()
            .with_max_size(8)
            .with_regressions(dir.join("regressions.txt"));
        let artifacts = RunArtifacts::open::<Vec<u16>>(&config, 1);
        let mut cx = Context::new(9).with_max_size(8);
        cx.set_size(6);
        let recipe = Recipe {
            state: cx.rng().get_seed(),
            origin: Origin::Generated { size: 6 },
        };
        let fresh: Vec<u16> = cx.generate();
        std::fs::create_dir_all(&artifacts.artifact_dir).unwrap();
        let recipe_path = artifacts
            .artifact_dir
            .join(format!("hang-0{}", files::RECIPE_SUFFIX));
        std::fs::write(&recipe_path, recipe.to_bytes()).unwrap();
        let inputs = artifacts.regression_inputs::<Vec<u16>>();
        assert_eq!(inputs, [codec::to_bytes(&fresh)]);
        assert!(!recipe_path.exists(), "the plain file replaces the recipe");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn messages_name_types_without_their_path() {
        assert_eq!(type_name::<Vec<u8>>(), "Vec<u8>");
        assert_eq!(type_name::<Config>(), "Config");
        assert_eq!(describe::<u8>(&[5]), "5");
    }
}
