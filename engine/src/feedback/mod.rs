//! Feedback: what makes an input interesting (coverage, labels, targets, preconditions).

pub mod coverage;
