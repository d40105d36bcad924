//! Trajectory plots (plotters): a top view (x against y) and a side view (x or y against z) of
//! every run, the world's brushes drawn as outlines, contact points marked, and a recorded trace
//! overlaid as the baseline with the places where the run departs from it highlighted.
//!
//! One drawing function, generic over plotters' `DrawingBackend`, serves SVG files, PNG files
//! and tests (`SVGBackend::with_string`). Text uses the DejaVu Sans Mono font bundled in
//! `cspace-font` (with its license), never a system font.

use std::path::Path;

use cspace_geom::{Aabb, DVec3, World};
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::trace::{Trace, TraceEventKind};

/// One trajectory set to draw: a run or a recorded trace.
#[derive(Debug, Clone)]
pub struct Series {
    /// The legend label.
    pub label: String,
    /// The trace (sampled trajectory and events).
    pub trace: Trace,
}

/// Colours of runs, in order.
const PALETTE: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(23, 190, 207),
];
const BASELINE: RGBColor = RGBColor(20, 20, 20);
const DIVERGED: RGBColor = RGBColor(214, 39, 40);
const BRUSH: RGBColor = RGBColor(170, 170, 170);

/// Writes the plot to `path`: SVG for `.svg`, PNG for `.png`.
pub fn render(
    world: &World,
    series: &[Series],
    baseline: Option<&Series>,
    tolerance: f64,
    path: &Path,
) -> anyhow::Result<()> {
    let size = (1400, 720);
    cspace_font::register();
    match path.extension().and_then(|e| e.to_str()) {
        Some("svg") => {
            let root = SVGBackend::new(path, size).into_drawing_area();
            draw(&root, world, series, baseline, tolerance)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        }
        Some("png") => {
            let root = BitMapBackend::new(path, size).into_drawing_area();
            draw(&root, world, series, baseline, tolerance)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        }
        _ => anyhow::bail!("{}: the plot must be a .svg or .png file", path.display()),
    }
    Ok(())
}

/// The plot as an SVG string (for tests and previews).
pub fn svg_string(
    world: &World,
    series: &[Series],
    baseline: Option<&Series>,
    tolerance: f64,
) -> anyhow::Result<String> {
    cspace_font::register();
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (1400, 720)).into_drawing_area();
        draw(&root, world, series, baseline, tolerance).map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    Ok(text)
}

/// The places where a run departs from the baseline by more than `tolerance` (same step and
/// agent), as positions of the run.
pub fn divergences(run: &Trace, baseline: &Trace, tolerance: f64) -> Vec<DVec3> {
    let mut out = Vec::new();
    for s in &run.trajectory {
        if let Some(b) = baseline
            .trajectory
            .iter()
            .find(|b| b.step == s.step && b.agent == s.agent)
            && b.position.distance(s.position) > tolerance
        {
            out.push(s.position);
        }
    }
    out
}

/// Everything drawn, for framing the views.
fn extent(series: &[Series], baseline: Option<&Series>) -> Aabb {
    let mut b = Aabb::EMPTY;
    for s in series.iter().chain(baseline) {
        for p in &s.trace.trajectory {
            b = b.including(p.position);
        }
        for e in &s.trace.events {
            if let TraceEventKind::Contact { point, .. } = e.kind {
                b = b.including(point);
            }
        }
    }
    if b.is_empty() {
        Aabb::new(DVec3::splat(-64.0), DVec3::splat(64.0))
    } else {
        b.loosened(64.0)
    }
}

/// A range widened about its centre so that `range / pixels` equals `scale`.
fn widen(lo: f64, hi: f64, pixels: f64, scale: f64) -> (f64, f64) {
    let centre = 0.5 * (lo + hi);
    let half = 0.5 * pixels * scale;
    (centre - half, centre + half)
}

/// The 2D convex hull of points (monotone chain), counter-clockwise, closed.
fn hull(mut points: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let cross = |o: (f64, f64), a: (f64, f64), b: (f64, f64)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut h: Vec<(f64, f64)> = Vec::new();
    for &p in &points {
        while h.len() >= 2 && cross(h[h.len() - 2], h[h.len() - 1], p) <= 0.0 {
            h.pop();
        }
        h.push(p);
    }
    let lower = h.len() + 1;
    for &p in points.iter().rev().skip(1) {
        while h.len() >= lower && cross(h[h.len() - 2], h[h.len() - 1], p) <= 0.0 {
            h.pop();
        }
        h.push(p);
    }
    h
}

/// Draws the two views. Generic over the backend (SVG, PNG, a string).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    world: &World,
    series: &[Series],
    baseline: Option<&Series>,
    tolerance: f64,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let (top, side) = root.split_horizontally(root.dim_in_pixel().0 / 2);
    let bounds = extent(series, baseline);
    // The side view looks along whichever horizontal axis the trajectories span least.
    let size = bounds.size();
    let along_x = size.x >= size.y;
    let views: [(&DrawingArea<DB, Shift>, &str, [usize; 2]); 2] = [
        (&top, "top view (x, y)", [0, 1]),
        (
            &side,
            if along_x {
                "side view (x, z)"
            } else {
                "side view (y, z)"
            },
            [if along_x { 0 } else { 1 }, 2],
        ),
    ];
    let title = series
        .first()
        .map_or(String::new(), |s| s.trace.header.scenario.clone());
    for (area, caption, [a, b]) in views {
        let (w, h) = area.dim_in_pixel();
        // Equal scale on both axes.
        let (pw, ph) = (w as f64 - 90.0, h as f64 - 110.0);
        let scale =
            ((bounds.max[a] - bounds.min[a]) / pw).max((bounds.max[b] - bounds.min[b]) / ph);
        let (x0, x1) = widen(bounds.min[a], bounds.max[a], pw, scale);
        let (y0, y1) = widen(bounds.min[b], bounds.max[b], ph, scale);
        let mut chart = ChartBuilder::on(area)
            .caption(format!("{title}: {caption}"), ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(30)
            .y_label_area_size(50)
            .build_cartesian_2d(x0..x1, y0..y1)?;
        chart
            .configure_mesh()
            .light_line_style(WHITE.mix(0.0))
            .draw()?;
        // Brushes whose projection meets the view, as outlines.
        for wb in world.brushes() {
            let bb = wb.brush.bounds();
            if bb.max[a] < x0 || bb.min[a] > x1 || bb.max[b] < y0 || bb.min[b] > y1 {
                continue;
            }
            let outline = hull(wb.brush.vertices().iter().map(|v| (v[a], v[b])).collect());
            chart.draw_series(std::iter::once(Polygon::new(
                outline.clone(),
                BRUSH.mix(0.12).filled(),
            )))?;
            chart.draw_series(std::iter::once(PathElement::new(
                outline,
                BRUSH.stroke_width(1),
            )))?;
        }
        // Baseline first, under the runs.
        if let Some(base) = baseline {
            draw_series(&mut chart, &base.trace, BASELINE, &base.label, [a, b])?;
        }
        for (i, s) in series.iter().enumerate() {
            draw_series(
                &mut chart,
                &s.trace,
                PALETTE[i % PALETTE.len()],
                &s.label,
                [a, b],
            )?;
            if let Some(base) = baseline {
                let off = divergences(&s.trace, &base.trace, tolerance);
                if !off.is_empty() {
                    chart
                        .draw_series(
                            off.iter()
                                .map(|p| Circle::new((p[a], p[b]), 5, DIVERGED.stroke_width(2))),
                        )?
                        .label(format!("{}: off the baseline by > {tolerance}", s.label))
                        .legend(|(x, y)| Circle::new((x + 10, y), 5, DIVERGED.stroke_width(2)));
                }
            }
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()?;
    }
    root.present()?;
    Ok(())
}

type Chart<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

fn draw_series<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    trace: &Trace,
    colour: RGBColor,
    label: &str,
    [a, b]: [usize; 2],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let agents = trace.header.agents.max(trace.finals.len());
    for agent in 0..agents {
        let path: Vec<(f64, f64)> = trace
            .trajectory
            .iter()
            .filter(|s| s.agent.0 as usize == agent)
            .map(|s| (s.position[a], s.position[b]))
            .collect();
        let line = chart.draw_series(LineSeries::new(path, colour.stroke_width(2)))?;
        if agent == 0 {
            line.label(label.to_string()).legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        }
    }
    let contacts: Vec<(f64, f64)> = trace
        .events
        .iter()
        .filter_map(|e| match e.kind {
            TraceEventKind::Contact { point, .. } => Some((point[a], point[b])),
            TraceEventKind::Other(_) => None,
        })
        .collect();
    chart.draw_series(
        contacts
            .into_iter()
            .map(|p| Cross::new(p, 4, colour.stroke_width(2))),
    )?;
    Ok(())
}
