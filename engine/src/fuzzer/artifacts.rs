//! The run's artifacts: the corpus directory it reads and grows, the regression file it replays
//! and saves failures to, and the watchdog that turns a hanging property call into a saved input.
//!
//! Every property call of a run, in the loop and while shrinking, goes through
//! [`RunArtifacts::execute`], so whatever must surround a call (the watchdog today) is written
//! once, here.

use std::fmt::Debug;
use std::path::{Path, PathBuf};

use crate::artifacts::RegressionFile;
use crate::codec;
use crate::corpus::disk::DiskCorpus;
use crate::executor::{self, Verdict, Watchdog};
use crate::feedback::Feedback;
use crate::{Config, IntoOutcome, Mutate};

/// What a run keeps on disk, and the guard around its property calls.
pub(crate) struct RunArtifacts {
    corpus: Option<DiskCorpus>,
    regressions: Option<RegressionFile>,
    watchdog: Option<Watchdog>,
}

impl RunArtifacts {
    /// Opens what `config` asks for: the corpus directory, the regression file (loaded), and a
    /// watchdog when a per-test limit is set (its hang report prints inputs as `T` and `seed`).
    pub(crate) fn open<T: Mutate + Debug>(config: &Config, seed: u64) -> Self {
        let regression_path = config.regression_path();
        let watchdog = config.test_timeout.map(|limit| {
            let dir = artifact_dir(regression_path.as_deref());
            Watchdog::start(limit, dir, seed, describe::<T>)
        });
        RunArtifacts {
            corpus: config.corpus.as_deref().map(DiskCorpus::new),
            regressions: regression_path.as_deref().map(RegressionFile::load),
            watchdog,
        }
    }

    /// The saved failing inputs, replayed first.
    pub(crate) fn regression_inputs(&self) -> Vec<Vec<u8>> {
        self.regressions.as_ref().map_or_else(Vec::new, |file| {
            file.entries()
                .iter()
                .map(|entry| entry.bytes.clone())
                .collect()
        })
    }

    /// The corpus directory's inputs, loaded after the regressions.
    pub(crate) fn corpus_inputs(&self) -> Vec<Vec<u8>> {
        self.corpus
            .as_ref()
            .map(DiskCorpus::load)
            .unwrap_or_default()
    }

    /// Adds an interesting input to the corpus directory.
    pub(crate) fn keep(&mut self, bytes: &[u8]) {
        if let Some(corpus) = &mut self.corpus {
            corpus.save(bytes);
        }
    }

    /// Saves a failing input to the regression file (replacing the entry `replacing`, the
    /// unshrunk form of a minimal input); a write error is reported on stderr, not fatal.
    pub(crate) fn save_failure(&mut self, bytes: &[u8], comment: &str, replacing: Option<&[u8]>) {
        if let Some(file) = &mut self.regressions {
            if let Err(error) = file.save(bytes, comment, replacing) {
                eprintln!(
                    "typefuzz: could not save the failing input to {}: {error}",
                    file.path().display()
                );
            }
        }
    }

    /// The regression file's path, if the run has one.
    pub(crate) fn regression_path(&self) -> Option<PathBuf> {
        self.regressions
            .as_ref()
            .map(|file| file.path().to_path_buf())
    }

    /// Runs the property once on `input`, under the watchdog when a per-test limit is set.
    pub(crate) fn execute<T: Mutate, R: IntoOutcome>(
        &self,
        property: &mut impl FnMut(&T) -> R,
        input: &T,
        feedback: &Feedback,
    ) -> Verdict {
        if let Some(watchdog) = &self.watchdog {
            watchdog.arm(codec::to_bytes(input));
        }
        let verdict = executor::execute(property, input, feedback);
        if let Some(watchdog) = &self.watchdog {
            watchdog.disarm();
        }
        verdict
    }
}

/// Where hang inputs go: beside the regression file, else the current directory (libFuzzer's).
fn artifact_dir(regression_path: Option<&Path>) -> PathBuf {
    regression_path
        .and_then(Path::parent)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
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
        assert!(artifacts.regression_inputs().is_empty());
        artifacts.save_failure(&[1, 2, 3], "unshrunk", None);
        artifacts.save_failure(&[1], "minimal", Some(&[1, 2, 3]));
        artifacts.keep(&[7]);
        artifacts.keep(&[8, 9]);
        assert_eq!(
            artifacts.regression_path(),
            Some(dir.join("regressions.txt"))
        );
        let next = RunArtifacts::open::<u8>(&config, 2);
        assert_eq!(next.regression_inputs(), [vec![1]]);
        let mut corpus = next.corpus_inputs();
        corpus.sort();
        assert_eq!(corpus, [vec![7], vec![8, 9]]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn nothing_is_kept_without_paths() {
        let mut artifacts = RunArtifacts::open::<u8>(&Config::default(), 1);
        artifacts.keep(&[1]);
        artifacts.save_failure(&[1], "lost", None);
        assert!(artifacts.regression_inputs().is_empty());
        assert!(artifacts.corpus_inputs().is_empty());
        assert_eq!(artifacts.regression_path(), None);
    }

    #[test]
    fn execute_runs_the_property_under_the_watchdog() {
        let config = Config::default().with_test_timeout(Duration::from_secs(600));
        let artifacts = RunArtifacts::open::<u8>(&config, 1);
        assert!(artifacts.watchdog.is_some());
        let feedback = Feedback::new(FeedbackSources::none());
        let mut property = |x: &u8| assert!(*x < 10, "too big");
        assert_eq!(
            artifacts.execute(&mut property, &3, &feedback),
            Verdict::Pass
        );
        let Verdict::Fail { message, .. } = artifacts.execute(&mut property, &30, &feedback) else {
            panic!("a panicking property fails");
        };
        assert!(message.contains("too big"), "{message}");
    }

    #[test]
    fn hang_inputs_go_beside_the_regression_file() {
        assert_eq!(
            artifact_dir(Some(Path::new("a/b/r.txt"))),
            PathBuf::from("a/b")
        );
        assert_eq!(artifact_dir(Some(Path::new("r.txt"))), PathBuf::from("."));
        assert_eq!(artifact_dir(None), PathBuf::from("."));
        assert_eq!(describe::<u8>(&[5]), "5");
    }
}
