//! The scaling plots (plotters, SVG): nanoseconds per trace and build time against the box
//! count, log-log, one line per backend and query. Text uses the font of `cspace-font`.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::query::Query;
use crate::suite::{Report, boxes_name};

/// One line: a label and its points `(boxes, value)`.
pub type Series = (String, Vec<(f64, f64)>);

/// The series' colours: the simulator's plot colours (Tableau 10).
const PALETTE: [RGBColor; 10] = cspace_report::plot::AGENT_COLOURS;

/// ns per trace against the box count: one series per backend and query (rays and boxes).
pub fn trace_series(report: &Report) -> Vec<Series> {
    let mut series: Vec<Series> = Vec::new();
    let mut worlds: Vec<_> = report.worlds.iter().filter(|w| w.boxes.is_some()).collect();
    worlds.sort_by_key(|w| w.boxes);
    for query in [Query::Ray, Query::Box] {
        for world in &worlds {
            let boxes = world.boxes.unwrap_or(0) as f64;
            for row in world.rows.iter().filter(|r| r.query == query) {
                if let Ok(f) = &row.figures {
                    let label = format!("{} {}", query.name(), row.backend);
                    push(&mut series, label, (boxes, f.timing.median_ns));
                }
            }
        }
    }
    series
}

/// Build time (ms) against the box count: one series per structure.
pub fn build_series(report: &Report) -> Vec<Series> {
    let mut series: Vec<Series> = Vec::new();
    let mut counts = report.config.scaling.clone();
    counts.sort_unstable();
    for count in counts {
        let name = boxes_name(count);
        for b in report.builds.iter().filter(|b| b.world == name) {
            let ms = b.build.as_secs_f64() * 1e3;
            push(&mut series, b.backend.clone(), (count as f64, ms.max(1e-4)));
        }
    }
    series
}

fn push(series: &mut Vec<Series>, label: String, point: (f64, f64)) {
    match series.iter_mut().find(|(l, _)| *l == label) {
        Some((_, points)) => points.push(point),
        None => series.push((label, vec![point])),
    }
}

/// The chart as an SVG document.
pub fn svg(title: &str, y_label: &str, series: &[Series]) -> anyhow::Result<String> {
    svg_with(title, "boxes in the world", y_label, series)
}

/// [`svg`] with its own x axis title.
pub fn svg_with(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
) -> anyhow::Result<String> {
    cspace_font::register();
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (960, 600)).into_drawing_area();
        draw(&root, title, x_label, y_label, series)
            .map_err(|e| anyhow::anyhow!("plot {title}: {e}"))?;
    }
    Ok(text)
}

/// Agent steps per second against threads: one series per crowd size, world and backend.
pub fn thread_series(report: &Report) -> Vec<Series> {
    let mut series: Vec<Series> = Vec::new();
    for row in &report.threads {
        let label = format!("{} agents, {}, {}", row.agents, row.world, row.backend);
        push(&mut series, label, (row.threads as f64, row.median()));
    }
    series
}

/// Draws the chart on any plotters backend.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let points = series.iter().flat_map(|(_, p)| p.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in points {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if x0 > x1 {
        (x0, x1, y0, y1) = (1.0, 10.0, 1.0, 10.0);
    }
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(72)
        .build_cartesian_2d(
            (x0 / 1.5..x1 * 1.5).log_scale(),
            (y0 / 2.0..y1 * 2.0).log_scale(),
        )?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y}"))
        .label_style(("sans-serif", 14))
        .draw()?;
    for (i, (label, points)) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                colour.stroke_width(2),
            ))?
            .label(label.as_str())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(2)));
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 4, colour.filled())))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()?;
    root.present()?;
    Ok(())
}
