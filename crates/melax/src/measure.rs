//! The error of a backend against the exact reference, measured on the same segments (Melax
//! Section 5's "invisible walls" and Figure 1's early rebound, counted instead of assumed).

use cspace_geom::tolerance::LATER;
use cspace_geom::{Collider, DVec3, ExactCollider, Hit, QueryContext, Shape};

/// How a backend's answers differ from the exact backend's on the same segments.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ErrorReport {
    /// Traces compared.
    pub traces: usize,
    /// Traces where one hits and the other does not.
    pub hit_differs: usize,
    /// Hits where the exact shape passes freely: Melax's "invisible walls" (Section 5).
    pub invisible_walls: usize,
    /// The worst invisible wall: how far short of the segment's end the backend stopped, in
    /// units, where the exact shape goes all the way.
    pub worst_invisible_wall: f64,
    /// Misses (or later hits) where the exact backend hits: the backend would let the shape
    /// through or into solid. Zero for a conservative backend.
    pub tunnels: usize,
    /// Traces whose `start_solid` differs.
    pub start_solid_differs: usize,
    /// Starts free for the exact shape but inside the backend's (shifted cells reach further
    /// than the shape).
    pub phantom_start_solid: usize,
    /// Where both hit from a free start: exact time of impact minus the backend's, in units along the segment
    /// (positive: the backend stops early, Figure 1's sphere A), sorted.
    pub toi_differences: Vec<f64>,
}

impl ErrorReport {
    /// The share of traces (in `[0, 1]`) whose hit/miss differs.
    pub fn hit_differs_share(&self) -> f64 {
        self.hit_differs as f64 / self.traces.max(1) as f64
    }

    /// The `q` quantile (`0..=1`) of the time-of-impact differences, in units (0 when none).
    pub fn toi_quantile(&self, q: f64) -> f64 {
        let d = &self.toi_differences;
        if d.is_empty() {
            return 0.0;
        }
        d[((d.len() - 1) as f64 * q).round() as usize]
    }
}

/// Compares `backend` with `exact` for `shape` on `segments` (`ctx` holds both backends'
/// scratch and counts their queries).
pub fn compare(
    ctx: &mut QueryContext,
    backend: &dyn Collider,
    exact: &ExactCollider,
    shape: &Shape,
    segments: &[(DVec3, DVec3)],
) -> ErrorReport {
    let ours = backend.prepare(shape).expect("the backend takes the shape");
    let theirs = exact
        .prepare(shape)
        .expect("the exact backend takes every shape");
    let mut report = ErrorReport::default();
    for &(start, end) in segments {
        let a = backend.trace(ctx, &ours, start, end);
        let b = exact.trace(ctx, &theirs, start, end);
        record(&mut report, start, end, &a, &b);
    }
    report.toi_differences.sort_by(|x, y| x.total_cmp(y));
    report
}

/// The time at which a hit touches (1 for a miss, 0 for a move that never leaves solid).
fn touch(hit: &Hit) -> f64 {
    match hit.surface() {
        Some(s) => s.time_of_impact,
        None if hit.all_solid() => 0.0,
        None => 1.0,
    }
}

fn record(report: &mut ErrorReport, start: DVec3, end: DVec3, a: &Hit, b: &Hit) {
    let length = start.distance(end);
    report.traces += 1;
    report.start_solid_differs += usize::from(a.start_solid() != b.start_solid());
    let (ta, tb) = (touch(a), touch(b));
    if a.is_hit() != b.is_hit() {
        report.hit_differs += 1;
    }
    if a.is_hit() && !b.is_hit() && !b.start_solid() {
        report.invisible_walls += 1;
        report.worst_invisible_wall = report.worst_invisible_wall.max((1.0 - ta) * length);
    }
    // Conservative: wherever the exact shape enters solid, the backend has stopped by then (or
    // says the start is solid).
    if b.is_hit() && !b.start_solid() && !a.start_solid() && (!a.is_hit() || ta > tb + LATER) {
        report.tunnels += 1;
    }
    if b.start_solid() && !a.start_solid() {
        report.tunnels += 1;
    }
    if a.start_solid() && !b.start_solid() {
        report.phantom_start_solid += 1;
    }
    if a.is_hit() && b.is_hit() && !a.start_solid() && !b.start_solid() {
        report.toi_differences.push((tb - ta) * length);
    }
}
