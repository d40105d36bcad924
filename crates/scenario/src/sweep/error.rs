//! Why a sweep cannot be run or merged.

use crate::error::Error;

/// Why a sweep cannot be loaded or its shards merged: a file it names is bad, it has no runs or
/// too many, or merged shards lack runs.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SweepError {
    /// A file the sweep reads (the sweep file, a scenario, a map, a shard's lines) is bad.
    #[error(transparent)]
    File(#[from] Error),
    /// A sweep with no runs, or with more than [`MAX_RUNS`](super::MAX_RUNS).
    #[error("{}", if *runs == 0 {
        format!("the sweep has no runs: {}", left_out.join("; "))
    } else {
        format!("the sweep has {runs} runs; one sweep holds at most {} (split its seeds)", super::MAX_RUNS)
    })]
    Size {
        /// How many runs it has.
        runs: u128,
        /// What it leaves out, and why (a backend that cannot run a scenario).
        left_out: Vec<String>,
    },
    /// The shards of a sweep, merged, lack runs (`sim sweep --merge`).
    #[error(
        "{missing} of the sweep's {runs} runs are missing (the first: {}): merge the lines of every shard",
        first.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
    )]
    MissingRuns {
        /// How many runs are missing.
        missing: u64,
        /// How many runs the sweep has.
        runs: u64,
        /// The first missing run ids (at most 10).
        first: Vec<u64>,
    },
}

impl From<crate::location::LocatedError> for SweepError {
    fn from(e: crate::location::LocatedError) -> SweepError {
        SweepError::File(e.into())
    }
}
