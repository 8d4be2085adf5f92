//! What the feedback state tells the statistics: coverage and label counts, per-`assume!`-site
//! discard counts, per-label hits and best target values, named from the process-wide registries
//! so the loop never reads the state's fields or the registries itself.

use super::recorder::LastRun;
use super::state::Feedback;
use super::{assume, labels, targets};
use crate::{AssumeStats, LabelStats};

/// Per `assume!` site id: `(evaluations, discards)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct AssumeSiteCounts(Vec<(u64, u64)>);

impl AssumeSiteCounts {
    /// Adds the sites `run` evaluated; a negative score is a discard.
    pub(super) fn count(&mut self, run: &LastRun) {
        let sites = &mut self.0;
        for &(id, score) in &run.assumes {
            let index = id as usize;
            if sites.len() <= index {
                sites.resize(index + 1, (0, 0));
            }
            sites[index].0 += 1;
            if score < 0.0 {
                sites[index].1 += 1;
            }
        }
    }

    /// The sites evaluated at least once, named.
    fn named(&self) -> Vec<AssumeStats> {
        (self.0.iter().enumerate())
            .filter(|(_, (evaluations, _))| *evaluations > 0)
            .map(|(id, &(evaluations, discards))| {
                let (location, expression) = assume::site(id as u32);
                AssumeStats {
                    location: location.into(),
                    expression: expression.into(),
                    evaluations,
                    discards,
                }
            })
            .collect()
    }
}

/// The feedback part of [`Stats`](crate::Stats).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct FeedbackStats {
    pub(crate) coverage_points: u64,
    pub(crate) coverage_features: u64,
    pub(crate) label_points: u64,
    pub(crate) structure_features: u64,
    pub(crate) assume_sites: Vec<AssumeStats>,
    /// Every registered label, so `sometimes!` conditions never satisfied show with 0 hits.
    pub(crate) labels: Vec<LabelStats>,
    /// Targets seen, with their best value.
    pub(crate) targets: Vec<(String, f64)>,
}

impl Feedback {
    /// What the state says about the run so far. Coverage and label counts are those of the
    /// current search (since the last restart); `assume!` site counts are the whole run's.
    pub(crate) fn snapshot(&self) -> FeedbackStats {
        FeedbackStats {
            coverage_points: self.coverage_points,
            coverage_features: self.coverage_features,
            label_points: self.labels_points,
            structure_features: self.structure_features(),
            assume_sites: self.assume_sites.named(),
            labels: (0..labels::LABELS.len())
                .map(|id| LabelStats {
                    name: labels::name(id as u32).into(),
                    hits: self.label_hits.get(id).copied().unwrap_or(0),
                })
                .collect(),
            targets: (self.targets_best().iter().enumerate())
                .filter(|(_, best)| best.is_finite())
                .map(|(id, &best)| (targets::name(id as u32).to_string(), best))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feedback::{begin_run, end_run};
    use crate::FeedbackSources;

    /// Runs `body` as if it were a property call and lets `feedback` observe it.
    fn observe(feedback: &mut Feedback, body: impl FnOnce()) {
        begin_run();
        body();
        end_run();
        feedback.observe(None, false);
    }

    #[test]
    fn snapshot_counts_assume_sites_labels_and_targets() {
        static SITE: assume::AssumeSite = assume::AssumeSite::new("here.rs:1:1", "x > 0");
        static LABEL: labels::Label = labels::Label::new("snapshot-test-label");
        static TARGET: targets::Target = targets::Target::new("snapshot-test-target");
        let mut feedback = Feedback::new(FeedbackSources::default());
        observe(&mut feedback, || {
            SITE.check(-1.0);
        });
        observe(&mut feedback, || {
            SITE.check(1.0);
            LABEL.hit();
            TARGET.observe(7.0);
        });
        feedback.restart();
        observe(&mut feedback, || {
            SITE.check(-2.0);
            LABEL.hit();
        });
        let snapshot = feedback.snapshot();
        let site = (snapshot.assume_sites.iter())
            .find(|site| site.location == "here.rs:1:1")
            .expect("the site is reported");
        assert_eq!(
            (site.evaluations, site.discards),
            (3, 2),
            "kept across restarts"
        );
        assert_eq!(site.expression, "x > 0");
        let label = (snapshot.labels.iter())
            .find(|label| label.name == "snapshot-test-label")
            .expect("the label is reported");
        assert_eq!(label.hits, 1, "label hits are the current search's");
        assert_eq!(snapshot.label_points, 1);
        assert!(
            !(snapshot.targets.iter()).any(|(name, _)| name == "snapshot-test-target"),
            "the target's best was forgotten by the restart"
        );
    }
}
