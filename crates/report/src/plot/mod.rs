//! Trajectory plots (plotters), made for reviewing a regression: a top view (x, y) and a side
//! view (x or y, z) of every run over the world's brushes, and, against a baseline, the distance
//! of each agent from the baseline over time on a log scale.
//!
//! What a reviewer sees: each agent in its own colour, labelled by name at its start (a dot),
//! with an arrowhead every second along its path and a square at its end; the runs' contacts as
//! crosses and the baseline's as rings; the baseline as a pale band under each run's line, so a
//! run that keeps to it draws its line inside the band; the first divergence (step, time, agent,
//! distance) marked and written out; backends whose trajectories are identical drawn once, named
//! together; the paths goto agents planned, through their waypoints, each leg coloured by the
//! link that reaches its end (walk, step, drop, jump; pose changes marked). Both views keep one scale on both axes and are sized to the data, sharing the x axis
//! when the side view looks along y.
//!
//! One drawing function, generic over plotters' `DrawingBackend`, serves SVG files, PNG files,
//! the HTML report (SVG strings) and tests. Text uses the DejaVu Sans Mono font bundled in
//! `cspace-font`, never a system font.

mod compare;
mod outline;

use std::path::Path;

use cspace_geom::{Aabb, DVec3, World};
use plotters::coord::Shift;
use plotters::coord::combinators::IntoLogRange;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

pub use compare::{FirstDivergence, distances, first_divergence, positions_off};
use cspace_nav::LinkKind;
use cspace_scenario::trace::RunRecord;
use cspace_sim::navigation::PlannedPath;
use cspace_sim::{AgentId, EventKind};
pub use outline::{Rect, brush_outline, clip, hull};

/// One trajectory set to draw: a run or a recorded trace.
#[derive(Debug, Clone)]
pub struct Series {
    /// The legend label (the backend's name for a run).
    pub label: String,
    /// The record (sampled trajectory and events), with its numbers as its trace writes them
    /// ([`RunRecord::as_written`]), so that runs and recorded traces compare number for number.
    pub record: RunRecord,
}

/// Why a plot was not written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlotError {
    /// The output file's extension is neither `.svg` nor `.png`.
    #[error("{path}: the plot must be a .svg or .png file")]
    Format {
        /// The file asked for.
        path: String,
    },
    /// The output file cannot be written (a missing folder, no permission).
    #[error("{path}: cannot write the plot: {error}")]
    Write {
        /// The file asked for.
        path: String,
        /// Why.
        error: std::io::Error,
    },
    /// Drawing failed.
    #[error("{path}: {message}")]
    Draw {
        /// The file (or `svg` for an in-memory plot).
        path: String,
        /// What the drawing backend said.
        message: String,
    },
}

/// What a plot shows: runs of one scenario over its world, and optionally the baseline they are
/// compared with.
#[derive(Debug, Clone, Copy)]
pub struct Plot<'a> {
    /// The world whose brushes are outlined.
    pub world: &'a World,
    /// The scenario's agent names, by id.
    pub agent_names: &'a [String],
    /// The runs (one per backend).
    pub runs: &'a [Series],
    /// The recorded trace the runs are compared with.
    pub baseline: Option<&'a Series>,
    /// Distance beyond which a run is off its baseline, units.
    pub tolerance: f64,
    /// The paths the goto agents planned (of the first run; empty when none).
    pub paths: &'a [PlannedPath],
}

/// Colours of agents, in id order (cycled), and of series in other charts: Tableau 10.
pub const AGENT_COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(214, 39, 40),
];
const DIVERGED: RGBColor = RGBColor(214, 0, 0);
/// Planned paths: the colour of a leg by the link that reaches its end (walks in the agent's
/// colour), and of the pose-change marks.
const STEP: RGBColor = RGBColor(200, 160, 0);
const DROP: RGBColor = RGBColor(140, 60, 180);
const JUMP: RGBColor = RGBColor(20, 150, 60);
const CROUCH: RGBColor = RGBColor(30, 90, 220);
const STAND: RGBColor = RGBColor(0, 170, 190);
const BRUSH: RGBColor = RGBColor(150, 150, 150);
const INK: RGBColor = RGBColor(40, 40, 40);

/// Canvas width, pixels.
const WIDTH: u32 = 1400;
/// Space around each chart, pixels.
const MARGIN: u32 = 8;
/// Height of the x axis labels and title under a chart, pixels.
const X_LABELS: u32 = 42;
/// Width of the y axis labels and title left of a chart, pixels.
const Y_LABELS: u32 = 72;
/// A panel's title line, pixels.
const PANEL_TITLE: u32 = 22;
/// The plotting width of every chart, pixels.
const PLOT_WIDTH: u32 = WIDTH - 2 * MARGIN - Y_LABELS;
/// The tallest and shortest view, pixels.
const VIEW_HEIGHT: (f64, f64) = (140.0, 620.0);
/// Room left around the drawn data, units.
const PAD: f64 = 40.0;
/// Crowds larger than this are drawn without names and arrowheads.
const LABELLED_AGENTS: usize = 16;
/// The distance panel's plotting height, pixels.
const DISTANCE_HEIGHT: u32 = 220;
/// The smallest distance the log scale shows, units (traces keep positions to 1e-3).
const DISTANCE_FLOOR: f64 = 1e-4; // not a tolerance: the floor of a log-scale axis

/// One view: which world axes it shows and over what ranges (equal scale on both).
#[derive(Debug, Clone, Copy)]
struct View {
    axes: [usize; 2],
    /// Units per pixel on both axes.
    scale: f64,
    x: (f64, f64),
    y: (f64, f64),
    /// Plotting height, pixels.
    height: u32,
}

impl View {
    /// The view of `axes` over `bounds`, at `scale` units per pixel or coarser so that its height
    /// stays within [`VIEW_HEIGHT`].
    fn fit(bounds: &Aabb, axes: [usize; 2], scale: f64) -> View {
        let [a, b] = axes;
        let h = bounds.max[b] - bounds.min[b];
        let scale = scale.max(h / VIEW_HEIGHT.1);
        let height = (h / scale).clamp(VIEW_HEIGHT.0, VIEW_HEIGHT.1);
        let widen = |lo: f64, hi: f64, pixels: f64| {
            let centre = 0.5 * (lo + hi);
            (centre - 0.5 * pixels * scale, centre + 0.5 * pixels * scale)
        };
        View {
            axes,
            scale,
            x: widen(bounds.min[a], bounds.max[a], f64::from(PLOT_WIDTH)),
            y: widen(bounds.min[b], bounds.max[b], height),
            height: height.round() as u32,
        }
    }

    fn rect(&self) -> Rect {
        Rect {
            min: (self.x.0, self.y.0),
            max: (self.x.1, self.y.1),
        }
    }

    /// The panel's whole height, pixels.
    fn panel_height(&self) -> u32 {
        self.height + PANEL_TITLE + X_LABELS + 2 * MARGIN
    }
}

/// Runs whose trajectories are identical, drawn once.
#[derive(Debug, Clone)]
struct Group<'a> {
    /// `exact = onion = melax-exact`.
    label: String,
    trace: &'a RunRecord,
}

/// Where everything goes.
#[derive(Debug, Clone)]
struct Layout {
    header: u32,
    top: View,
    side: View,
    distance: bool,
}

impl Layout {
    fn height(&self) -> u32 {
        self.header
            + self.top.panel_height()
            + self.side.panel_height()
            + if self.distance {
                DISTANCE_HEIGHT + PANEL_TITLE + X_LABELS + 2 * MARGIN
            } else {
                0
            }
    }
}

impl Plot<'_> {
    /// Writes the plot to `path`: SVG for `.svg`, PNG for `.png`. The picture is drawn in
    /// memory and written whole or not at all (`cspace_scenario::write`): an error leaves the
    /// previous file as it was.
    pub fn write(&self, path: &Path) -> Result<(), PlotError> {
        let bytes = match path.extension().and_then(|e| e.to_str()) {
            Some("svg") => self
                .svg()
                .map_err(|e| match e {
                    PlotError::Draw { message, .. } => PlotError::Draw {
                        path: path.display().to_string(),
                        message,
                    },
                    other => other,
                })?
                .into_bytes(),
            Some("png") => self.png(path)?,
            _ => {
                return Err(PlotError::Format {
                    path: path.display().to_string(),
                });
            }
        };
        cspace_scenario::write::write_whole(path, &bytes).map_err(|error| PlotError::Write {
            path: path.display().to_string(),
            error,
        })
    }

    /// The plot as a PNG file's bytes, drawn into an RGB buffer (`path` names it in errors).
    fn png(&self, path: &Path) -> Result<Vec<u8>, PlotError> {
        cspace_font::register();
        let failed = |message: String| PlotError::Draw {
            path: path.display().to_string(),
            message,
        };
        let (width, height) = self.size();
        let mut rgb = vec![0u8; width as usize * height as usize * 3];
        {
            let root = BitMapBackend::with_buffer(&mut rgb, (width, height)).into_drawing_area();
            self.draw(&root).map_err(|e| failed(e.to_string()))?;
        }
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, width, height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        // As plotters' own PNG encoder (the image crate's): a filter chosen per row.
        encoder.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
        let mut writer = encoder.write_header().map_err(|e| failed(e.to_string()))?;
        writer
            .write_image_data(&rgb)
            .map_err(|e| failed(e.to_string()))?;
        writer.finish().map_err(|e| failed(e.to_string()))?;
        Ok(bytes)
    }

    /// The plot as an SVG document.
    pub fn svg(&self) -> Result<String, PlotError> {
        cspace_font::register();
        let mut text = String::new();
        {
            let root = SVGBackend::with_string(&mut text, self.size()).into_drawing_area();
            self.draw(&root).map_err(|e| PlotError::Draw {
                path: "svg".to_string(),
                message: e.to_string(),
            })?;
        }
        Ok(text)
    }

    /// The canvas size, pixels: as wide as always, as tall as the data needs.
    pub fn size(&self) -> (u32, u32) {
        (WIDTH, self.layout().height())
    }

    /// The first divergence of each run from the baseline (`None` without a baseline or within
    /// the tolerance).
    pub fn first_divergences(&self) -> Vec<Option<FirstDivergence>> {
        self.runs
            .iter()
            .map(|s| {
                self.baseline
                    .and_then(|b| first_divergence(&s.record, &b.record, self.tolerance))
            })
            .collect()
    }

    fn agents(&self) -> usize {
        self.runs
            .iter()
            .chain(self.baseline)
            .map(|s| s.record.header.agents.max(s.record.finals.len()))
            .max()
            .unwrap_or(0)
    }

    fn name(&self, agent: usize) -> String {
        self.agent_names
            .get(agent)
            .cloned()
            .unwrap_or_else(|| agent.to_string())
    }

    /// The runs, identical ones merged, in order.
    fn groups(&self) -> Vec<Group<'_>> {
        let mut groups: Vec<(Vec<&str>, &RunRecord)> = Vec::new();
        for s in self.runs {
            match groups
                .iter_mut()
                .find(|(_, t)| t.samples == s.record.samples && t.finals == s.record.finals)
            {
                Some((labels, _)) => labels.push(&s.label),
                None => groups.push((vec![&s.label], &s.record)),
            }
        }
        groups
            .into_iter()
            .map(|(labels, trace)| Group {
                label: labels.join(" = "),
                trace,
            })
            .collect()
    }

    /// Everything drawn, padded.
    fn bounds(&self) -> Aabb {
        let mut b = Aabb::EMPTY;
        for s in self.runs.iter().chain(self.baseline) {
            let samples = s.record.samples.iter().flat_map(|s| &s.states);
            for p in samples.chain(s.record.finals.iter().map(|f| &f.state)) {
                b = b.including(p.position);
            }
            for (_, point) in contacts(&s.record) {
                b = b.including(point);
            }
        }
        for path in self.paths {
            for w in &path.waypoints {
                b = b.including(w.position);
            }
        }
        if b.is_empty() {
            Aabb::new(DVec3::splat(-64.0), DVec3::splat(64.0))
        } else {
            b.loosened(PAD)
        }
    }

    fn layout(&self) -> Layout {
        let bounds = self.bounds();
        let size = bounds.size();
        let top_scale = (size.x / f64::from(PLOT_WIDTH)).max(size.y / VIEW_HEIGHT.1);
        let top = View::fit(&bounds, [0, 1], top_scale);
        // The side view looks along the horizontal axis the data spans least; along y it shares
        // the top view's x axis (same range, same scale).
        let side = if size.x >= size.y {
            let mut side = View::fit(&bounds, [0, 2], top_scale);
            if side.scale == top.scale {
                side.x = top.x;
            }
            side
        } else {
            View::fit(&bounds, [1, 2], size.y / f64::from(PLOT_WIDTH))
        };
        let header_lines =
            3 + u32::from(self.baseline.is_some()) + u32::from(!self.paths.is_empty());
        Layout {
            header: 12 + 22 * header_lines,
            top,
            side,
            distance: self.baseline.is_some(),
        }
    }

    /// Draws the plot. Generic over the backend (SVG, PNG, a string).
    pub fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        root.fill(&WHITE)?;
        let layout = self.layout();
        let groups = self.groups();
        let first = self
            .baseline
            .and_then(|b| first_divergence(groups.first()?.trace, &b.record, self.tolerance));
        let (header, rest) = root.split_vertically(layout.header);
        self.draw_header(&header, &groups, first.as_ref())?;
        let (top, rest) = rest.split_vertically(layout.top.panel_height());
        let (side, distance) = rest.split_vertically(layout.side.panel_height());
        let along = |axes: [usize; 2]| ["x", "y", "z"][axes[0]];
        self.draw_view(
            &top,
            &layout.top,
            "top view: x across, y up",
            &groups,
            first.as_ref(),
        )?;
        let side_title = format!("side view: {} across, z up", along(layout.side.axes));
        self.draw_view(&side, &layout.side, &side_title, &groups, first.as_ref())?;
        if let Some(baseline) = self.baseline {
            self.draw_distances(&distance, &groups, &baseline.record, first.as_ref())?;
        }
        root.present()?;
        Ok(())
    }

    fn draw_header<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        groups: &[Group<'_>],
        first: Option<&FirstDivergence>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let scenario = self
            .runs
            .first()
            .or(self.baseline)
            .map_or(String::new(), |s| s.record.header.scenario.clone());
        let mut title = format!("{scenario}: ");
        for (i, g) in groups.iter().enumerate() {
            if i > 0 {
                title += ", ";
            }
            title += &format!("{} ({})", g.label, STYLE_NAMES[i % STYLE_NAMES.len()]);
        }
        if let Some(b) = self.baseline {
            title += &format!(" against {} (pale band)", b.label);
        }
        let font = ("sans-serif", 17).into_font().color(&INK);
        let small = ("sans-serif", 14).into_font().color(&INK);
        area.draw(&Text::new(title, (MARGIN as i32, 8), font))?;
        // The agents' colours and names.
        let mut x = MARGIN as i32;
        let y = 34;
        let agents = self.agents();
        if agents <= LABELLED_AGENTS {
            for agent in 0..agents {
                let colour = agent_colour(agent);
                area.draw(&Rectangle::new(
                    [(x, y + 3), (x + 18, y + 11)],
                    colour.filled(),
                ))?;
                let name = self.name(agent);
                area.draw(&Text::new(name.clone(), (x + 24, y), small.clone()))?;
                x += 24 + 9 * name.chars().count() as i32 + 18;
            }
        } else {
            area.draw(&Text::new(
                format!("{agents} agents, one colour each (cycled), unlabelled"),
                (x, y),
                small.clone(),
            ))?;
        }
        // The markers.
        let mut keys = vec![
            (Marker::Start, "start (named)"),
            (Marker::End, "end"),
            (Marker::Arrow, "every second"),
            (Marker::Contact, "contact"),
        ];
        if self.baseline.is_some() {
            keys.push((Marker::BaselineContact, "baseline contact"));
            keys.push((Marker::Divergence, "first divergence"));
        }
        let (mut x, y) = (MARGIN as i32, 56);
        for (marker, text) in keys {
            marker.draw(area, (x + 6, y + 7))?;
            area.draw(&Text::new(text.to_string(), (x + 18, y), small.clone()))?;
            x += 18 + 9 * text.chars().count() as i32 + 22;
        }
        if !self.paths.is_empty() {
            self.draw_path_legend(area, if self.baseline.is_some() { 100 } else { 78 })?;
        }
        if let Some(baseline) = self.baseline {
            let y = 78;
            let off: usize = self
                .runs
                .iter()
                .map(|s| positions_off(&s.record, &baseline.record, self.tolerance))
                .sum();
            let text = match first {
                Some(d) => format!(
                    "first divergence at step {} ({:.3} s): agent {} is {:.3} units from the baseline; {off} sampled positions off by more than {} units",
                    d.step,
                    d.time,
                    self.name(d.agent.0 as usize),
                    d.distance,
                    self.tolerance
                ),
                None => format!(
                    "the run stays within {} units of the baseline at every sample",
                    self.tolerance
                ),
            };
            let colour = if first.is_some() { DIVERGED } else { INK };
            area.draw(&Text::new(
                text,
                (MARGIN as i32, y),
                ("sans-serif", 15).into_font().color(&colour),
            ))?;
        }
        Ok(())
    }

    fn draw_view<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        view: &View,
        title: &str,
        groups: &[Group<'_>],
        first: Option<&FirstDivergence>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let (caption, area) = area.split_vertically(PANEL_TITLE);
        caption.draw(&Text::new(
            title.to_string(),
            ((MARGIN + Y_LABELS) as i32, 4),
            ("sans-serif", 15).into_font().color(&INK),
        ))?;
        let [a, b] = view.axes;
        let axis = ["x", "y", "z"];
        let mut chart = ChartBuilder::on(&area)
            .margin(MARGIN)
            .x_label_area_size(X_LABELS)
            .y_label_area_size(Y_LABELS)
            .build_cartesian_2d(view.x.0..view.x.1, view.y.0..view.y.1)?;
        chart
            .configure_mesh()
            .light_line_style(WHITE.mix(0.0))
            .bold_line_style(BLACK.mix(0.08))
            .x_desc(format!("{} (units)", axis[a]))
            .y_desc(format!("{} (units)", axis[b]))
            .axis_desc_style(("sans-serif", 14))
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()?;
        // The brushes near the data along the axis looked along (a floor far below or a ceiling
        // far above would only hide the paths).
        let depth = 3 - a - b;
        let bounds = self.bounds();
        let (near_lo, near_hi) = (bounds.min[depth] - 64.0, bounds.max[depth] + 64.0);
        for wb in self.world.brushes() {
            let bb = wb.brush.bounds();
            if bb.max[depth] < near_lo || bb.min[depth] > near_hi {
                continue;
            }
            let outline = brush_outline(&wb.brush, view.axes, view.rect());
            if outline.len() < 3 {
                continue;
            }
            let mut closed = outline.clone();
            closed.push(outline[0]);
            chart.draw_series(std::iter::once(Polygon::new(
                outline,
                BRUSH.mix(0.14).filled(),
            )))?;
            chart.draw_series(std::iter::once(PathElement::new(
                closed,
                BRUSH.mix(0.9).stroke_width(1),
            )))?;
        }
        let agents = self.agents();
        let crowd = agents > LABELLED_AGENTS;
        let point = |p: DVec3| (p[a], p[b]);
        self.draw_paths(&mut chart, view.axes)?;
        // The baseline: a pale band per agent, rings at its contacts.
        if let Some(base) = self.baseline {
            for agent in 0..agents {
                let path: Vec<(f64, f64)> = path_of(&base.record, agent).map(point).collect();
                let colour = agent_colour(agent);
                chart.draw_series(std::iter::once(PathElement::new(
                    path,
                    colour.mix(0.28).stroke_width(if crowd { 4 } else { 8 }),
                )))?;
            }
            for (_, p) in contacts(&base.record) {
                chart.draw_series(std::iter::once(Circle::new(
                    point(p),
                    5,
                    INK.mix(0.7).stroke_width(1),
                )))?;
            }
        }
        // The runs: one line style per group of identical runs, one colour per agent.
        for (g, group) in groups.iter().enumerate() {
            for agent in 0..agents {
                let colour = agent_colour(agent);
                let style = colour.stroke_width(if crowd { 1 } else { 2 });
                let path: Vec<(f64, f64)> = path_of(group.trace, agent).map(point).collect();
                match g % STYLE_NAMES.len() {
                    0 => chart.draw_series(std::iter::once(PathElement::new(path, style)))?,
                    k => chart.draw_series(std::iter::once(DashedPathElement::new(
                        path,
                        DASHES[k].0,
                        DASHES[k].1,
                        style,
                    )))?,
                };
            }
            for (agent, p) in contacts(group.trace) {
                chart.draw_series(std::iter::once(Cross::new(
                    point(p),
                    4,
                    agent_colour(agent).stroke_width(2),
                )))?;
            }
        }
        // Starts, ends, arrowheads and names, from the first group (or the baseline alone).
        let trace = groups
            .first()
            .map(|g| g.trace)
            .or(self.baseline.map(|b| &b.record));
        if let Some(trace) = trace {
            let dt = trace.header.time_step;
            // Name labels already placed, in pixels (x0, y0, x1, y1): a label that would overlap
            // one moves up a line, so agents starting side by side stay readable.
            let mut placed: Vec<(i32, i32, i32, i32)> = Vec::new();
            for agent in 0..agents {
                let colour = agent_colour(agent);
                let samples: Vec<(u64, DVec3)> = trace
                    .trajectory(AgentId(agent as u32))
                    .map(|(step, s)| (step, s.position))
                    .collect();
                let (Some(&(_, start)), Some(&(_, end))) = (samples.first(), samples.last()) else {
                    continue;
                };
                chart.draw_series(std::iter::once(
                    EmptyElement::at(point(end))
                        + Rectangle::new([(-4, -4), (4, 4)], colour.filled())
                        + Rectangle::new([(-4, -4), (4, 4)], WHITE.stroke_width(1)),
                ))?;
                chart.draw_series(std::iter::once(
                    EmptyElement::at(point(start))
                        + Circle::new((0, 0), 5, colour.filled())
                        + Circle::new((0, 0), 5, WHITE.stroke_width(1)),
                ))?;
                if crowd {
                    continue;
                }
                // An arrowhead at the first sample of every whole second, pointing along the
                // path (pixels grow down: the vertical component flips).
                let mut next_second = 1.0;
                for w in samples.windows(2) {
                    let (step, p) = w[0];
                    if (step as f64) * dt + cspace_geom::tolerance::TIME_SLACK < next_second {
                        continue;
                    }
                    next_second = ((step as f64) * dt).floor() + 1.0;
                    let d = (w[1].1[a] - p[a], -(w[1].1[b] - p[b]));
                    let length = (d.0 * d.0 + d.1 * d.1).sqrt();
                    // not a tolerance: the path does not move on screen here
                    if length < 1e-6 {
                        continue;
                    }
                    chart.draw_series(std::iter::once(
                        EmptyElement::at(point(p))
                            + Polygon::new(
                                arrowhead((0, 0), (d.0 / length, d.1 / length)),
                                colour.filled(),
                            ),
                    ))?;
                }
                let name = self.name(agent);
                let (px, py) = chart.backend_coord(&point(start));
                let width = 9 * name.chars().count() as i32;
                let mut lift = 20;
                while placed.iter().any(|r| {
                    px + 8 < r.2 && r.0 < px + 8 + width && py - lift < r.3 && r.1 < py - lift + 16
                }) {
                    lift += 17;
                }
                placed.push((px + 8, py - lift, px + 8 + width, py - lift + 16));
                chart.draw_series(std::iter::once(
                    EmptyElement::at(point(start))
                        + Text::new(
                            name,
                            (8, -lift),
                            ("sans-serif", 14).into_font().color(&colour),
                        ),
                ))?;
            }
        }
        if let Some(d) = first {
            let (r, q) = (point(d.run), point(d.baseline));
            chart.draw_series(std::iter::once(PathElement::new(
                vec![r, q],
                DIVERGED.stroke_width(2),
            )))?;
            chart.draw_series(std::iter::once(Circle::new(q, 7, DIVERGED.stroke_width(2))))?;
            chart.draw_series(std::iter::once(
                EmptyElement::at(r)
                    + Polygon::new(diamond((0, 0), 7), DIVERGED.filled())
                    + Text::new(
                        format!("step {}: {:.3} units off", d.step, d.distance),
                        (10, 6),
                        ("sans-serif", 14).into_font().color(&DIVERGED),
                    ),
            ))?;
        }
        Ok(())
    }

    /// The header's line explaining the planned paths' colours.
    fn draw_path_legend<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        y: i32,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let small = ("sans-serif", 14).into_font().color(&INK);
        let mut x = MARGIN as i32;
        area.draw(&Text::new(
            "planned paths (o waypoint):".to_string(),
            (x, y),
            small.clone(),
        ))?;
        x += 9 * 27 + 14;
        let legs: [(&str, RGBColor); 4] = [
            ("walk (agent's colour, dashed)", INK),
            ("step", STEP),
            ("drop", DROP),
            ("jump", JUMP),
        ];
        for (i, (text, colour)) in legs.iter().enumerate() {
            let y0 = y + 7;
            if i == 0 {
                area.draw(&DashedPathElement::new(
                    vec![(x, y0), (x + 22, y0)],
                    4,
                    3,
                    colour.stroke_width(2),
                ))?;
            } else {
                area.draw(&PathElement::new(
                    vec![(x, y0), (x + 22, y0)],
                    colour.stroke_width(3),
                ))?;
            }
            area.draw(&Text::new(text.to_string(), (x + 28, y), small.clone()))?;
            x += 28 + 9 * text.chars().count() as i32 + 18;
        }
        for (text, colour, up) in [("crouch", CROUCH, false), ("stand up", STAND, true)] {
            area.draw(&Polygon::new(
                pose_mark((x + 6, y + 7), up),
                colour.filled(),
            ))?;
            area.draw(&Text::new(text.to_string(), (x + 18, y), small.clone()))?;
            x += 18 + 9 * text.chars().count() as i32 + 18;
        }
        Ok(())
    }

    /// The planned paths under the runs: each leg to a waypoint coloured by the link that
    /// reaches it, the waypoints as rings, pose changes as triangles; plans made again on the way
    /// paler.
    fn draw_paths<DB: DrawingBackend>(
        &self,
        chart: &mut ChartContext<
            '_,
            DB,
            Cartesian2d<
                plotters::coord::types::RangedCoordf64,
                plotters::coord::types::RangedCoordf64,
            >,
        >,
        axes: [usize; 2],
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let [a, b] = axes;
        let point = |p: DVec3| (p[a], p[b]);
        for path in self.paths {
            let agent = agent_colour(path.agent.0 as usize);
            let fade = if path.replan { 0.45 } else { 0.95 };
            for pair in path.waypoints.windows(2) {
                let (from, to) = (point(pair[0].position), point(pair[1].position));
                match pair[1].kind {
                    LinkKind::Walk => {
                        chart.draw_series(std::iter::once(DashedPathElement::new(
                            vec![from, to],
                            5,
                            4,
                            agent.mix(fade).stroke_width(2),
                        )))?;
                    }
                    LinkKind::Step | LinkKind::Drop | LinkKind::Jump => {
                        let colour = match pair[1].kind {
                            LinkKind::Step => STEP,
                            LinkKind::Drop => DROP,
                            _ => JUMP,
                        };
                        chart.draw_series(std::iter::once(PathElement::new(
                            vec![from, to],
                            colour.mix(fade).stroke_width(3),
                        )))?;
                    }
                    LinkKind::Crouch | LinkKind::StandUp => {
                        let up = pair[1].kind == LinkKind::StandUp;
                        let colour = if up { STAND } else { CROUCH };
                        chart.draw_series(std::iter::once(
                            EmptyElement::at(to)
                                + Polygon::new(pose_mark((0, 0), up), colour.mix(fade).filled()),
                        ))?;
                    }
                }
            }
            for w in &path.waypoints {
                chart.draw_series(std::iter::once(Circle::new(
                    point(w.position),
                    3,
                    agent.mix(fade).stroke_width(1),
                )))?;
            }
        }
        Ok(())
    }

    fn draw_distances<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        groups: &[Group<'_>],
        baseline: &RunRecord,
        first: Option<&FirstDivergence>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let (caption, area) = area.split_vertically(PANEL_TITLE);
        caption.draw(&Text::new(
            "distance of each agent from the baseline (log scale; 0 drawn at the floor)"
                .to_string(),
            ((MARGIN + Y_LABELS) as i32, 4),
            ("sans-serif", 15).into_font().color(&INK),
        ))?;
        let series: Vec<Vec<Vec<(f64, f64)>>> = groups
            .iter()
            .map(|g| distances(g.trace, baseline))
            .collect();
        // not a tolerance: the axes' least extents (a thousandth of a second, a hundredth of a unit)
        let end = (baseline.header.steps as f64 * baseline.header.time_step).max(1e-3);
        let largest = series
            .iter()
            .flatten()
            .flatten()
            .fold(0.0f64, |m, (_, d)| m.max(*d));
        let top = (largest * 3.0).max(self.tolerance * 10.0).max(0.01);
        let mut chart = ChartBuilder::on(&area)
            .margin(MARGIN)
            .x_label_area_size(X_LABELS)
            .y_label_area_size(Y_LABELS)
            .build_cartesian_2d(0.0..end, (DISTANCE_FLOOR..top).log_scale())?;
        chart
            .configure_mesh()
            .light_line_style(WHITE.mix(0.0))
            .bold_line_style(BLACK.mix(0.08))
            .x_desc("time (s)")
            .y_desc("distance (units)")
            .axis_desc_style(("sans-serif", 14))
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()?;
        // The tolerance, and the first divergence's time.
        chart.draw_series(std::iter::once(DashedPathElement::new(
            vec![
                (0.0, self.tolerance.max(DISTANCE_FLOOR)),
                (end, self.tolerance.max(DISTANCE_FLOOR)),
            ],
            6,
            4,
            DIVERGED.mix(0.6).stroke_width(1),
        )))?;
        chart.draw_series(std::iter::once(
            EmptyElement::at((0.0, self.tolerance.max(DISTANCE_FLOOR)))
                + Text::new(
                    format!("tolerance {}", self.tolerance),
                    (6, -18),
                    ("sans-serif", 13).into_font().color(&DIVERGED),
                ),
        ))?;
        if let Some(d) = first {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(d.time, DISTANCE_FLOOR), (d.time, top)],
                DIVERGED.stroke_width(1),
            )))?;
        }
        for (g, per_agent) in series.iter().enumerate() {
            for (agent, points) in per_agent.iter().enumerate() {
                let colour = agent_colour(agent);
                let path: Vec<(f64, f64)> = points
                    .iter()
                    .map(|&(t, d)| (t, d.max(DISTANCE_FLOOR)))
                    .collect();
                match g % STYLE_NAMES.len() {
                    0 => chart.draw_series(std::iter::once(PathElement::new(
                        path,
                        colour.stroke_width(2),
                    )))?,
                    k => chart.draw_series(std::iter::once(DashedPathElement::new(
                        path,
                        DASHES[k].0,
                        DASHES[k].1,
                        colour.stroke_width(2),
                    )))?,
                };
            }
        }
        Ok(())
    }
}

/// The symbols the legend explains.
#[derive(Debug, Clone, Copy)]
enum Marker {
    Start,
    End,
    Arrow,
    Contact,
    BaselineContact,
    Divergence,
}

impl Marker {
    /// Draws the symbol at `at` (pixels), as the views draw it.
    fn draw<DB: DrawingBackend>(
        self,
        area: &DrawingArea<DB, Shift>,
        at: (i32, i32),
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        match self {
            Marker::Start => area.draw(&Circle::new(at, 5, INK.filled())),
            Marker::End => area.draw(&Rectangle::new(
                [(at.0 - 4, at.1 - 4), (at.0 + 4, at.1 + 4)],
                INK.filled(),
            )),
            Marker::Arrow => area.draw(&Polygon::new(arrowhead(at, (1.0, 0.0)), INK.filled())),
            Marker::Contact => area.draw(&Cross::new(at, 4, INK.stroke_width(2))),
            Marker::BaselineContact => area.draw(&Circle::new(at, 5, INK.stroke_width(1))),
            Marker::Divergence => area.draw(&Polygon::new(diamond(at, 7), DIVERGED.filled())),
        }
    }
}

/// How each group of identical runs is drawn, as the title names it.
const STYLE_NAMES: [&str; 4] = ["solid", "dashed", "dotted", "long dashes"];
/// Dash and gap lengths per style, pixels (the first style is solid).
const DASHES: [(u32, u32); 4] = [(0, 0), (9, 5), (2, 4), (16, 5)];

fn agent_colour(agent: usize) -> RGBColor {
    AGENT_COLOURS[agent % AGENT_COLOURS.len()]
}

/// An agent's sampled positions, in step order.
fn path_of(trace: &RunRecord, agent: usize) -> impl Iterator<Item = DVec3> + '_ {
    trace
        .trajectory(AgentId(agent as u32))
        .map(|(_, s)| s.position)
}

/// A trace's contacts: (agent, point).
fn contacts(trace: &RunRecord) -> impl Iterator<Item = (usize, DVec3)> + '_ {
    trace.events.iter().filter_map(|e| match e.kind {
        EventKind::Contact(c) => Some((e.agent.0 as usize, c.point)),
        _ => None,
    })
}

/// A small filled triangle at `at` pointing along the unit pixel direction `d`.
fn arrowhead(at: (i32, i32), d: (f64, f64)) -> Vec<(i32, i32)> {
    let p = |along: f64, across: f64| {
        (
            at.0 + (d.0 * along - d.1 * across).round() as i32,
            at.1 + (d.1 * along + d.0 * across).round() as i32,
        )
    };
    vec![p(7.0, 0.0), p(-4.0, 4.5), p(-4.0, -4.5)]
}

/// A triangle marking a pose change at `at`: pointing up for standing up, down for crouching.
fn pose_mark(at: (i32, i32), up: bool) -> Vec<(i32, i32)> {
    let s = if up { -1 } else { 1 };
    vec![
        (at.0 - 6, at.1 - 5 * s),
        (at.0 + 6, at.1 - 5 * s),
        (at.0, at.1 + 6 * s),
    ]
}

/// A diamond of half-size `r` pixels around `at`.
fn diamond(at: (i32, i32), r: i32) -> Vec<(i32, i32)> {
    vec![
        (at.0, at.1 - r),
        (at.0 + r, at.1),
        (at.0, at.1 + r),
        (at.0 - r, at.1),
    ]
}
