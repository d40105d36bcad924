//! Interleaved A/B timing: every participant runs the same batch of segments in turn, the order
//! rotating from batch to batch, so that clock drift, turbo and cache effects hit all sides alike.
//! Each pass gives one figure per participant; the report quotes the median over the passes.

use std::hint::black_box;
use std::time::Instant;

use cspace_geom::DVec3;

/// Something that answers segment traces: one of our backends or a peer.
pub trait Tracer {
    /// The first time of impact along the segment from `start` to `end`, as a fraction of the
    /// segment in `[0, 1]` before any skin pull-back; `None` when nothing is hit.
    fn trace(&mut self, start: DVec3, end: DVec3) -> Option<f64>;
}

/// One participant's time per operation over the passes, in nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timing {
    /// The median over the passes.
    pub median_ns: f64,
    /// The fastest pass.
    pub low_ns: f64,
    /// The slowest pass.
    pub high_ns: f64,
}

impl Timing {
    /// The timing of the per-pass figures `ns` (at least one).
    pub fn of(ns: &[f64]) -> Timing {
        let mut sorted = ns.to_vec();
        sorted.sort_by(f64::total_cmp);
        Timing {
            median_ns: median_of_sorted(&sorted),
            low_ns: sorted.first().copied().unwrap_or(f64::NAN),
            high_ns: sorted.last().copied().unwrap_or(f64::NAN),
        }
    }

    /// The spread of the passes around the median, in percent of it (half the range).
    pub fn spread_percent(&self) -> f64 {
        50.0 * (self.high_ns - self.low_ns) / self.median_ns
    }
}

pub use cspace_scenario::bench::median_of_sorted;

/// Runs every tracer over `segments` once, untimed, and returns their answers (the warm-up pass,
/// whose answers the agreement figures compare).
pub fn record(
    tracers: &mut [&mut dyn Tracer],
    segments: &[(DVec3, DVec3)],
) -> Vec<Vec<Option<f64>>> {
    tracers
        .iter_mut()
        .map(|t| segments.iter().map(|&(a, b)| t.trace(a, b)).collect())
        .collect()
}

/// Times `tracers` over `segments` in `passes` passes of batches of `batch` segments, the order
/// of the tracers rotating with each batch. Returns one [`Timing`] per tracer (ns per trace).
pub fn interleaved(
    tracers: &mut [&mut dyn Tracer],
    segments: &[(DVec3, DVec3)],
    passes: usize,
    batch: usize,
) -> Vec<Timing> {
    let n = tracers.len();
    let mut per_pass = vec![Vec::with_capacity(passes); n];
    let mut turn = 0usize;
    for _ in 0..passes.max(1) {
        let mut nanos = vec![0u128; n];
        for chunk in segments.chunks(batch.max(1)) {
            for k in 0..n {
                let i = (turn + k) % n;
                let tracer = &mut *tracers[i];
                let clock = Instant::now();
                for &(a, b) in chunk {
                    black_box(tracer.trace(black_box(a), black_box(b)));
                }
                nanos[i] += clock.elapsed().as_nanos();
            }
            turn += 1;
        }
        for (i, ns) in nanos.into_iter().enumerate() {
            per_pass[i].push(ns as f64 / segments.len().max(1) as f64);
        }
    }
    per_pass.iter().map(|ns| Timing::of(ns)).collect()
}

/// Times whole runs: `run(participant, pass)` returns the nanoseconds per operation of one run;
/// each pass runs every participant once, starting one further along the list each pass.
pub fn interleaved_runs<E>(
    participants: usize,
    passes: usize,
    mut run: impl FnMut(usize, usize) -> Result<f64, E>,
) -> Result<Vec<Timing>, E> {
    let mut per_pass = vec![Vec::with_capacity(passes); participants];
    for pass in 0..passes.max(1) {
        for k in 0..participants {
            let i = (pass + k) % participants;
            per_pass[i].push(run(i, pass)?);
        }
    }
    Ok(per_pass.iter().map(|ns| Timing::of(ns)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timings_keep_the_median_and_the_extremes() {
        let t = Timing::of(&[5.0, 1.0, 3.0]);
        assert_eq!((t.low_ns, t.median_ns, t.high_ns), (1.0, 3.0, 5.0));
    }

    #[test]
    fn runs_rotate_and_visit_everyone_each_pass() {
        let mut order = Vec::new();
        let timings = interleaved_runs::<()>(3, 2, |i, _| {
            order.push(i);
            Ok(i as f64)
        })
        .unwrap();
        assert_eq!(order, [0, 1, 2, 1, 2, 0]);
        assert_eq!(timings[2].median_ns, 2.0);
    }
}
