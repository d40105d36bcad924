//! `sim sweep --merge`: the JSON lines of a sweep's shards put back in run order, byte for byte
//! the lines a single run of the whole sweep writes. Every run must be there exactly once.

use std::path::Path;

use serde::Deserialize;

use super::SweepError;
use crate::location::LocatedError;

/// How many missing run ids an error lists.
const MISSING_LISTED: usize = 10;

/// What a line must have for the merge (the rest is copied as it is).
#[derive(Deserialize)]
struct Key {
    run: u64,
    runs: u64,
    passed: bool,
    error: Option<String>,
}

/// The merged lines, in run order, with the sweep's verdict.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Merged {
    /// The lines, in run order, without newlines.
    pub lines: Vec<String>,
    /// Runs whose expectations were not all met (errors included).
    pub failed: u64,
    /// Runs that could not be made.
    pub errors: u64,
}

/// Merges the lines of `inputs` (each a file's name and text). A line that is not a sweep's,
/// a run found twice, lines of sweeps of different sizes and a missing run are errors, located
/// at the line (`file:line:1`) where there is one.
pub fn merge(inputs: &[(&Path, &str)]) -> Result<Merged, SweepError> {
    let mut runs: Option<(u64, &Path, usize)> = None;
    let mut found: Vec<(u64, &Path, usize, &str, Key)> = Vec::new();
    for &(file, text) in inputs {
        for (number, line) in text.lines().enumerate() {
            let number = number + 1;
            let at = |message: String| -> SweepError {
                LocatedError {
                    file: file.to_path_buf(),
                    line: number,
                    column: 1,
                    message,
                }
                .into()
            };
            if line.trim().is_empty() {
                continue;
            }
            let key: Key = serde_json::from_str(line).map_err(|e| {
                at(format!(
                    "not a line of `sim sweep` (a JSON object with run, runs, passed, error): {e}"
                ))
            })?;
            match runs {
                None => runs = Some((key.runs, file, number)),
                Some((n, f, l)) if n != key.runs => {
                    return Err(at(format!(
                        "a sweep of {} runs, but {}:{l} is of a sweep of {n} runs",
                        key.runs,
                        f.display()
                    )));
                }
                Some(_) => {}
            }
            if key.run >= key.runs {
                return Err(at(format!(
                    "run {} of a sweep of {} runs",
                    key.run, key.runs
                )));
            }
            found.push((key.run, file, number, line, key));
        }
    }
    found.sort_by_key(|f| f.0);
    if let Some(w) = found.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(LocatedError {
            file: w[1].1.to_path_buf(),
            line: w[1].2,
            column: 1,
            message: format!(
                "run {} is here and at {}:{}: each run belongs to one shard",
                w[1].0,
                w[0].1.display(),
                w[0].2
            ),
        }
        .into());
    }
    let total = runs.map_or(0, |r| r.0);
    if (found.len() as u64) < total {
        // The first few missing ids, to say which shard is short.
        let mut first = Vec::new();
        let mut expected = 0;
        for run in found.iter().map(|f| f.0).chain(std::iter::once(total)) {
            first.extend((expected..run).take(MISSING_LISTED.saturating_sub(first.len())));
            expected = run + 1;
        }
        return Err(SweepError::MissingRuns {
            missing: total - found.len() as u64,
            runs: total,
            first,
        });
    }
    let mut merged = Merged::default();
    for (.., line, key) in found {
        merged.failed += u64::from(!key.passed);
        merged.errors += u64::from(key.error.is_some());
        merged.lines.push(line.to_string());
    }
    Ok(merged)
}
