//! The run's artifacts: the corpus directory it reads and grows, the regression file it replays
//! and saves failures to, and the guards that turn a property call that never returns — a hang
//! (the watchdog), a crash or an `exit` (the crash handlers) — into a saved input.
//!
//! Every property call of a run, in the loop and while shrinking, goes through
//! [`RunArtifacts::execute`], so whatever must surround a call is written once, here.

use std::fmt::Debug;
use std::path::PathBuf;

use crate::artifacts::{self, RegressionFile};
use crate::codec;
use crate::corpus::disk::{DiskCorpus, ReplayBudget};
use crate::crash::CrashGuard;
use crate::executor::{self, HangReport, Verdict, Watchdog};
use crate::feedback::Feedback;
use crate::fingerprint;
use crate::{Config, IntoOutcome, Mutate};

/// What a run keeps on disk, and the guard around its property calls.
pub(crate) struct RunArtifacts {
    corpus: Option<DiskCorpus>,
    regressions: Option<RegressionFile>,
    /// Where crash and hang inputs go (`<test>.artifacts/`), replayed first by the next run.
    artifact_dir: PathBuf,
    watchdog: Option<Watchdog>,
    crash_guard: CrashGuard,
    /// The encoding of the input being run, in a reused buffer: what the crash handlers and the
    /// watchdog save if the call never returns, and what the unique count reads after a pass.
    encoded: codec::Encoder,
    seed: u64,
}

impl RunArtifacts {
    /// Opens what `config` asks for: the corpus directory, the regression file (loaded), the
    /// crash handlers, and a watchdog when a per-test limit is set (its hang report prints
    /// inputs as `T` and `seed`).
    pub(crate) fn open<T: Mutate + Debug>(config: &Config, seed: u64) -> Self {
        let regression_path = config.regression_path();
        let artifact_dir = artifacts::artifact_dir(regression_path.as_deref());
        let replay = replay_command(config);
        let watchdog = config
            .test_timeout
            .filter(|limit| !limit.is_zero())
            .map(|limit| {
                let report = HangReport {
                    artifact_dir: artifact_dir.clone(),
                    seed,
                    replay: replay.clone(),
                    describe: describe::<T>,
                };
                Watchdog::start(limit, report)
            });
        RunArtifacts {
            corpus: config.corpus_path::<T>().map(|dir| {
                // The engine's own directory (`keep_seeds`) is replayed within a budget and kept
                // small; a directory the user named is theirs (see `corpus::disk`).
                let budget = config.corpus.is_none().then(|| ReplayBudget::of(config));
                DiskCorpus::new(&dir, budget)
            }),
            regressions: regression_path.as_deref().map(RegressionFile::load),
            crash_guard: CrashGuard::new(&artifact_dir, seed, &replay),
            artifact_dir,
            watchdog,
            encoded: codec::Encoder::new(),
            seed,
        }
    }

    /// The inputs replayed first: those that ended an earlier process (crash and hang files:
    /// likeliest to fail again, and a fixed one costs one test), then the regression file's
    /// entries written for `T`'s shape (entries of another shape are reported and kept).
    pub(crate) fn regression_inputs<T: Mutate>(&self) -> Vec<Vec<u8>> {
        let Some(file) = &self.regressions else {
            return Vec::new();
        };
        let mut inputs = artifacts::load_artifacts(&self.artifact_dir);
        inputs.extend(file.replayable(fingerprint::of::<T>(), type_name::<T>()));
        inputs
    }

    /// The next input of the corpus directory to replay after the regressions, within the
    /// replay budget (see [`DiskCorpus::next_input`]); then say whether it was interesting with
    /// [`judge_corpus_input`](Self::judge_corpus_input).
    pub(crate) fn next_corpus_input(&mut self) -> Option<Vec<u8>> {
        self.corpus.as_mut()?.next_input()
    }

    /// Whether the corpus input replayed last was interesting: the corpus keeps it, or may
    /// remove it as redundant when the run ends.
    pub(crate) fn judge_corpus_input(&mut self, useful: bool) {
        if let Some(corpus) = &mut self.corpus {
            corpus.judge(useful);
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

    /// Adds an interesting input to the corpus directory.
    pub(crate) fn keep(&mut self, bytes: &[u8]) {
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
        let comment = artifacts::one_line(comment, 200);
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

    /// Runs the property once on `input`, with its encoding where the crash handlers and the
    /// watchdog (when a per-test limit is set) save it if the call never returns.
    pub(crate) fn execute<T: Mutate, R: IntoOutcome>(
        &mut self,
        property: &mut impl FnMut(&T) -> R,
        input: &T,
        feedback: &Feedback,
    ) -> Verdict {
        self.encoded.clear();
        input.encode(&mut self.encoded);
        let bytes = self.encoded.as_bytes();
        let _crash = self.crash_guard.arm(bytes);
        let _watch = self.watchdog.as_ref().map(|watchdog| watchdog.arm(bytes));
        executor::execute(property, input, feedback)
    }

    /// The encoding of the input [`execute`](RunArtifacts::execute) ran last.
    pub(crate) fn last_input(&self) -> &[u8] {
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

/// Decodes and formats an input (for the hang report, which only has bytes).
fn describe<T: Mutate + Debug>(bytes: &[u8]) -> String {
    format!("{:?}", codec::from_bytes::<T>(bytes))
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
        artifacts.keep(&[7]);
        artifacts.keep(&[8, 9]);
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
        artifacts.keep(&[1]);
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
            artifacts.execute(&mut property, &3, &feedback),
            Verdict::Pass
        );
        assert_eq!(artifacts.last_input(), [3]);
        let Verdict::Fail { message, .. } = artifacts.execute(&mut property, &30, &feedback) else {
            panic!("a panicking property fails");
        };
        assert!(message.contains("too big"), "{message}");
    }

    #[test]
    fn messages_name_types_without_their_path() {
        assert_eq!(type_name::<Vec<u8>>(), "Vec<u8>");
        assert_eq!(type_name::<Config>(), "Config");
        assert_eq!(describe::<u8>(&[5]), "5");
    }
}
