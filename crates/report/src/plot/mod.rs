//! Trajectory plots (plotters), made for reviewing a regression: a top view (x, y) and a side
//! view (x or y, z) of every run over the world's brushes, and, against a baseline, the distance
//! of each agent from the baseline over time on a log scale.
//!
//! What a reviewer sees: each agent in its own colour ([`palette`]: agents named one by one in
//! distinct colours, each crowd in shades of a hue of its own, with its agent range in the
//! legend), labelled by name at its start (a dot), with an arrowhead every second along its path
//! and a square at its end; its pose as the trace records it, sample by sample: ticks across the
//! line where it is crouched, a squat box where it crouches, a tall box where it stands up, the
//! tall box crossed out where standing was refused; the runs' contacts as crosses and the
//! baseline's as rings; the baseline as a pale band under each run's line, so a run that keeps
//! to it draws its line inside the band; stretches where agents' lines lie on one another (agents
//! at one height in a side view) in alternating dashes of their colours (`share.rs`); the first
//! divergence (step, time, agent, distance) marked with the legend's diamond and written out;
//! backends whose trajectories are identical drawn once, named together; the paths goto agents
//! planned, through their waypoints at their heights, over the floors the plan crosses (a leg up
//! a ramp follows the ramp), each piece coloured by how it is reached (walk, step, drop, jump;
//! pose changes marked) and the pieces that are not walks named. Both views keep one scale on
//! both axes and are sized to the data, sharing the x axis when the side view looks along y.
//! Every text is at least [`TEXT`] in plotters' size (11.3 pixels in the SVG).
//!
//! One drawing function, generic over plotters' `DrawingBackend`, serves SVG files, PNG files,
//! the HTML report (SVG strings) and tests. Text uses the DejaVu Sans Mono font bundled in
//! `cspace-font`, never a system font.

mod compare;
mod marks;
mod outline;
pub mod palette;
mod share;

use std::path::Path;

use cspace_geom::{Aabb, DVec3, World};
use plotters::coord::Shift;
use plotters::coord::combinators::IntoLogRange;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

pub use compare::{FirstDivergence, distances, first_divergence, positions_off};
use cspace_nav::LinkKind;
use cspace_scenario::Crowd;
use cspace_scenario::trace::RunRecord;
use cspace_sim::navigation::PlannedPath;
use cspace_sim::{AgentId, EventKind, Pose};
use marks::{DIVERGED, Marker, SWATCH, Swatch, TICK};
pub use outline::{Rect, brush_outline, clip, hull};
pub use palette::{AGENT_COLOURS, Palette};

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
    /// The scenario's crowds (empty when none): each is drawn in shades of a hue of its own and
    /// named in the legend with its agents' ids.
    pub crowds: &'a [Crowd],
}

/// Planned paths: the colour of a piece by how it is reached (walks in the agent's colour), and
/// of the pose-change marks.
const STEP: RGBColor = RGBColor(200, 160, 0);
const DROP: RGBColor = RGBColor(140, 60, 180);
const JUMP: RGBColor = RGBColor(20, 150, 60);
const CROUCH: RGBColor = RGBColor(30, 90, 220);
const STAND: RGBColor = RGBColor(0, 170, 190);
const BRUSH: RGBColor = RGBColor(150, 150, 150);
const INK: RGBColor = RGBColor(40, 40, 40);

/// The smallest text, plotters' size: the SVG writes it as `font-size` 14 / 1.24 = 11.3 pixels
/// ([`cspace_font::SIZE_PER_EM`]), which the HTML report shows at its own size (at least 11
/// pixels, the floor of readable text on a screen). Axis labels, names and legends use it.
pub const TEXT: u32 = 14;
/// Panel titles and the divergence line, plotters' size.
const HEADING: u32 = 15;
/// The plot's title, plotters' size.
const TITLE: u32 = 17;

/// Canvas width, pixels: the HTML report shows plots at this size, no smaller.
pub const WIDTH: u32 = 1280;
/// Space around each chart, pixels.
const MARGIN: u32 = 8;
/// Height of the x axis labels and title under a chart, pixels.
const X_LABELS: u32 = 44;
/// Width of the y axis labels and title left of a chart, pixels.
const Y_LABELS: u32 = 76;
/// A panel's title line, pixels.
const PANEL_TITLE: u32 = 22;
/// A line of the header, pixels.
const LINE: u32 = 22;
/// The plotting width of every chart, pixels.
const PLOT_WIDTH: u32 = WIDTH - 2 * MARGIN - Y_LABELS;
/// The tallest and shortest view, pixels.
const VIEW_HEIGHT: (f64, f64) = (140.0, 620.0);
/// Room left around the drawn data, units.
const PAD: f64 = 40.0;
/// Agents beyond this many are not named one by one in the legend (crowds are named as
/// crowds), and their starts are named only where a name does not cover another.
const LABELLED_AGENTS: usize = 16;
/// The distance panel's plotting height, pixels.
const DISTANCE_HEIGHT: u32 = 220;
/// The smallest distance the log scale shows, units (traces keep positions to 1e-3).
const DISTANCE_FLOOR: f64 = 1e-4; // not a tolerance: the floor of a log-scale axis
/// The spacing of a crouched stretch's ticks, pixels.
const TICK_SPACING: f64 = 12.0;

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
    /// The legend's rows, each laid out left to right.
    legend: Vec<Vec<(Swatch, String)>>,
    top: View,
    side: View,
    distance: bool,
}

impl Layout {
    /// The header: the title, the legend's rows and, against a baseline, the divergence line.
    fn header(&self) -> u32 {
        12 + LINE * (1 + self.legend.len() as u32 + u32::from(self.distance))
    }

    fn height(&self) -> u32 {
        self.header()
            + self.top.panel_height()
            + self.side.panel_height()
            + if self.distance {
                DISTANCE_HEIGHT + PANEL_TITLE + X_LABELS + 2 * MARGIN
            } else {
                0
            }
    }
}

/// The font of every text: the bundled DejaVu Sans Mono, registered as `sans-serif`.
fn font(size: u32, colour: &RGBColor) -> TextStyle<'static> {
    ("sans-serif", size).into_font().color(colour)
}

/// The width of `text` at plotters' size `size`, pixels (the bundled font's advances).
fn width_of(text: &str, size: u32) -> i32 {
    cspace_font::plot_text_width(text, f64::from(size)).ceil() as i32
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
            // Text laid out by the bundled font's own metrics (plotters' bitmap text drew
            // "1.282" as "1. 282").
            let root = cspace_font::Typeset(BitMapBackend::with_buffer(&mut rgb, (width, height)))
                .into_drawing_area();
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

    fn palette(&self) -> Palette {
        Palette::new(self.agents(), self.crowds)
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
            for p in path.floors.iter().flatten() {
                b = b.including(p.position);
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
        Layout {
            legend: self.legend(),
            top,
            side,
            distance: self.baseline.is_some(),
        }
    }

    /// The legend's entries, in rows that fit the width: the agents (or crowds), the symbols,
    /// and the planned paths' pieces.
    fn legend(&self) -> Vec<Vec<(Swatch, String)>> {
        let palette = self.palette();
        let agents = self.agents();
        let mut rows: Vec<Vec<(Swatch, String)>> = Vec::new();
        // The agents: one by one when few, else by crowd.
        let mut who: Vec<(Swatch, String)> = Vec::new();
        let in_crowd = |agent: usize| {
            self.crowds
                .iter()
                .any(|c| c.agents.contains(&(agent as u32)))
        };
        let single: Vec<usize> = (0..agents).filter(|&a| !in_crowd(a)).collect();
        if single.len() <= LABELLED_AGENTS {
            for &agent in &single {
                who.push((Swatch::Block(palette.colour(agent)), self.name(agent)));
            }
        } else {
            who.push((
                Swatch::Ramp(single.iter().take(5).map(|&a| palette.colour(a)).collect()),
                format!(
                    "{} agents, ten colours cycled, named at their starts",
                    single.len()
                ),
            ));
        }
        for crowd in self.crowds {
            let (first, last) = (crowd.agents.start, crowd.agents.end.saturating_sub(1));
            who.push((
                Swatch::Ramp(palette.ramp(crowd)),
                format!(
                    "{}: agents {first}-{last}, dark to light by id (ids at their starts)",
                    crowd.name
                ),
            ));
        }
        flow(&mut rows, who);
        let mut keys = vec![
            (
                Swatch::Mark(Marker::Start, INK),
                "start (named)".to_string(),
            ),
            (Swatch::Mark(Marker::End, INK), "end".to_string()),
            (
                Swatch::Mark(Marker::Arrow((1.0, 0.0)), INK),
                "every second".to_string(),
            ),
            (Swatch::Mark(Marker::Contact, INK), "contact".to_string()),
            (Swatch::Ticked(INK), "crouched".to_string()),
            (Swatch::Mark(Marker::Crouch, INK), "crouches".to_string()),
            (Swatch::Mark(Marker::StandUp, INK), "stands up".to_string()),
            (
                Swatch::Mark(Marker::StandRefused, INK),
                "stand refused".to_string(),
            ),
            (
                Swatch::Shared(vec![AGENT_COLOURS[0], AGENT_COLOURS[1]]),
                "agents on one line".to_string(),
            ),
        ];
        if self.baseline.is_some() {
            keys.push((
                Swatch::Mark(Marker::BaselineContact, INK),
                "baseline contact".to_string(),
            ));
            keys.push((
                Swatch::Mark(Marker::Divergence, INK),
                "first divergence".to_string(),
            ));
        }
        flow(&mut rows, keys);
        if !self.paths.is_empty() {
            flow(
                &mut rows,
                vec![
                    (
                        Swatch::Mark(Marker::Waypoint, INK),
                        "planned paths: waypoint".to_string(),
                    ),
                    (
                        Swatch::Dashed(INK),
                        "walk (agent's colour, dashed)".to_string(),
                    ),
                    (Swatch::Line(STEP, 3), "step".to_string()),
                    (Swatch::Line(DROP, 3), "drop".to_string()),
                    (Swatch::Line(JUMP, 3), "jump".to_string()),
                    (Swatch::Mark(Marker::Crouch, CROUCH), "crouch".to_string()),
                    (Swatch::Mark(Marker::StandUp, STAND), "stand up".to_string()),
                ],
            );
        }
        rows
    }

    /// Draws the plot. Generic over the backend (SVG, PNG, a string).
    pub fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        root.fill(&WHITE)?;
        let layout = self.layout();
        let groups = self.groups();
        let palette = self.palette();
        let first = self
            .baseline
            .and_then(|b| first_divergence(groups.first()?.trace, &b.record, self.tolerance));
        let (header, rest) = root.split_vertically(layout.header());
        self.draw_header(&header, &layout, &groups, first.as_ref())?;
        let (top, rest) = rest.split_vertically(layout.top.panel_height());
        let (side, distance) = rest.split_vertically(layout.side.panel_height());
        let along = |axes: [usize; 2]| ["x", "y", "z"][axes[0]];
        let views = Views {
            groups: &groups,
            palette: &palette,
            first: first.as_ref(),
        };
        self.draw_view(&top, &layout.top, "top view: x across, y up", &views)?;
        let side_title = format!("side view: {} across, z up", along(layout.side.axes));
        self.draw_view(&side, &layout.side, &side_title, &views)?;
        if let Some(baseline) = self.baseline {
            self.draw_distances(
                &distance,
                &groups,
                &palette,
                &baseline.record,
                first.as_ref(),
            )?;
        }
        root.present()?;
        Ok(())
    }

    fn draw_header<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        layout: &Layout,
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
        area.draw(&Text::new(title, (MARGIN as i32, 8), font(TITLE, &INK)))?;
        let mut y = 8 + LINE as i32;
        for row in &layout.legend {
            let mut x = MARGIN as i32;
            for (swatch, text) in row {
                swatch.draw(area, (x, y + 8))?;
                area.draw(&Text::new(
                    text.clone(),
                    (x + SWATCH + 4, y),
                    font(TEXT, &INK),
                ))?;
                x += legend_width(text);
            }
            y += LINE as i32;
        }
        if let Some(baseline) = self.baseline {
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
            area.draw(&Text::new(text, (MARGIN as i32, y), font(HEADING, &colour)))?;
        }
        Ok(())
    }

    fn draw_view<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        view: &View,
        title: &str,
        views: &Views<'_>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let (caption, area) = area.split_vertically(PANEL_TITLE);
        caption.draw(&Text::new(
            title.to_string(),
            ((MARGIN + Y_LABELS) as i32, 4),
            font(HEADING, &INK),
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
            .axis_desc_style(font(TEXT, &INK))
            .label_style(font(TEXT, &INK))
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
        // Everything else in pixels of the plotting area.
        let pixels = chart.plotting_area().strip_coord_spec();
        let base = pixels.get_base_pixel();
        let px = |p: DVec3| {
            let (x, y) = chart.backend_coord(&(p[a], p[b]));
            (x - base.0, y - base.1)
        };
        let pxf = |p: DVec3| {
            let (x, y) = px(p);
            (f64::from(x), f64::from(y))
        };
        let agents = self.agents();
        let crowd = agents > LABELLED_AGENTS;
        let palette = views.palette;
        self.draw_paths(&pixels, &px, palette)?;
        // The baseline: a pale band per agent, rings at its contacts.
        if let Some(base) = self.baseline {
            for agent in 0..agents {
                let path: Vec<(i32, i32)> = path_of(&base.record, agent).map(px).collect();
                pixels.draw(&PathElement::new(
                    path,
                    palette
                        .colour(agent)
                        .mix(0.28)
                        .stroke_width(if crowd { 4 } else { 8 }),
                ))?;
            }
            for (_, p) in contacts(&base.record) {
                Marker::BaselineContact.draw(&pixels, px(p), INK)?;
            }
        }
        // The runs: one line style per group of identical runs, one colour per agent; where
        // agents' lines lie on one another, alternating dashes of their colours.
        for (g, group) in views.groups.iter().enumerate() {
            let lines: Vec<Vec<(f64, f64)>> = (0..agents)
                .map(|agent| path_of(group.trace, agent).map(pxf).collect())
                .collect();
            let own = share::own_stretches(&lines);
            for (agent, stretches) in own.into_iter().enumerate() {
                let style = palette
                    .colour(agent)
                    .stroke_width(if crowd { 1 } else { 2 });
                for stretch in stretches {
                    let stretch: Vec<(i32, i32)> = stretch
                        .iter()
                        .map(|&(x, y)| (x.round() as i32, y.round() as i32))
                        .collect();
                    match g % STYLE_NAMES.len() {
                        0 => pixels.draw(&PathElement::new(stretch, style))?,
                        k => pixels.draw(&DashedPathElement::new(
                            stretch,
                            DASHES[k].0,
                            DASHES[k].1,
                            style,
                        ))?,
                    };
                }
            }
            for (agent, p) in contacts(group.trace) {
                Marker::Contact.draw(&pixels, px(p), palette.colour(agent))?;
            }
        }
        // Poses, starts, ends, arrowheads and names, from the first group (or the baseline
        // alone).
        let trace = views
            .groups
            .first()
            .map(|g| g.trace)
            .or(self.baseline.map(|b| &b.record));
        if let Some(trace) = trace {
            self.draw_poses(&pixels, trace, &pxf, palette)?;
            let dt = trace.header.time_step;
            // Name labels already placed, in pixels (x0, y0, x1, y1): a label that would overlap
            // one moves up a line (in a crowd it is left out), so agents starting side by side
            // stay readable.
            let mut placed: Vec<(i32, i32, i32, i32)> = Vec::new();
            for agent in 0..agents {
                let colour = palette.colour(agent);
                let samples: Vec<(u64, DVec3)> = trace
                    .trajectory(AgentId(agent as u32))
                    .map(|(step, s)| (step, s.position))
                    .collect();
                let (Some(&(_, start)), Some(&(_, end))) = (samples.first(), samples.last()) else {
                    continue;
                };
                Marker::End.draw(&pixels, px(end), colour)?;
                Marker::Start.draw(&pixels, px(start), colour)?;
                if !crowd {
                    // An arrowhead at the first sample of every whole second, pointing along
                    // the path (pixels grow down).
                    let mut next_second = 1.0;
                    for w in samples.windows(2) {
                        let (step, p) = w[0];
                        if (step as f64) * dt + cspace_geom::tolerance::TIME_SLACK < next_second {
                            continue;
                        }
                        next_second = ((step as f64) * dt).floor() + 1.0;
                        let (p0, p1) = (pxf(p), pxf(w[1].1));
                        let d = (p1.0 - p0.0, p1.1 - p0.1);
                        let length = d.0.hypot(d.1);
                        // not a tolerance: the path does not move on screen here
                        if length < 0.5 {
                            continue;
                        }
                        Marker::Arrow((d.0 / length, d.1 / length)).draw(&pixels, px(p), colour)?;
                    }
                }
                let name = self.name(agent);
                let (sx, sy) = px(start);
                let width = width_of(&name, TEXT);
                let height = 16;
                let overlaps = |lift: i32, placed: &[(i32, i32, i32, i32)]| {
                    placed.iter().any(|r| {
                        sx + 8 < r.2
                            && r.0 < sx + 8 + width
                            && sy - lift < r.3
                            && r.1 < sy - lift + height
                    })
                };
                let mut lift = 20;
                if crowd {
                    if overlaps(lift, &placed) {
                        continue;
                    }
                } else {
                    while overlaps(lift, &placed) {
                        lift += 17;
                    }
                }
                placed.push((sx + 8, sy - lift, sx + 8 + width, sy - lift + height));
                pixels.draw(&Text::new(name, (sx + 8, sy - lift), font(TEXT, &colour)))?;
            }
        }
        if let Some(d) = views.first {
            let (r, q) = (px(d.run), px(d.baseline));
            pixels.draw(&PathElement::new(vec![r, q], DIVERGED.stroke_width(2)))?;
            Marker::Divergence.draw(&pixels, r, DIVERGED)?;
            pixels.draw(&Text::new(
                format!("step {}: {:.3} units off", d.step, d.distance),
                (r.0 + 10, r.1 + 6),
                font(TEXT, &DIVERGED),
            ))?;
        }
        Ok(())
    }

    /// Each agent's pose as `trace` records it: ticks across its line between two crouched
    /// samples, a crouch mark where a sample is crouched after a standing one (or the first
    /// sample is crouched), a stand-up mark where it stands again, and a refused stand where the
    /// trace records one (at the agent's position then, between its samples).
    fn draw_poses<DB: DrawingBackend>(
        &self,
        pixels: &DrawingArea<DB, Shift>,
        trace: &RunRecord,
        pxf: &dyn Fn(DVec3) -> (f64, f64),
        palette: &Palette,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let round = |p: (f64, f64)| (p.0.round() as i32, p.1.round() as i32);
        for agent in 0..self.agents() {
            let colour = palette.colour(agent);
            let samples: Vec<(u64, DVec3, Pose)> = trace
                .trajectory(AgentId(agent as u32))
                .map(|(step, s)| (step, s.position, s.pose))
                .collect();
            // Ticks every TICK_SPACING pixels along the crouched stretches.
            let mut carry = 0.5 * TICK_SPACING;
            for w in samples.windows(2) {
                let (p0, p1) = (pxf(w[0].1), pxf(w[1].1));
                if !(w[0].2 == Pose::Crouching && w[1].2 == Pose::Crouching) {
                    carry = 0.5 * TICK_SPACING;
                    continue;
                }
                let d = (p1.0 - p0.0, p1.1 - p0.1);
                let length = d.0.hypot(d.1);
                let mut at = carry;
                while at <= length {
                    let t = at / length;
                    let c = (p0.0 + d.0 * t, p0.1 + d.1 * t);
                    let n = (
                        -d.1 / length * f64::from(TICK),
                        d.0 / length * f64::from(TICK),
                    );
                    pixels.draw(&PathElement::new(
                        vec![round((c.0 - n.0, c.1 - n.1)), round((c.0 + n.0, c.1 + n.1))],
                        colour.stroke_width(1),
                    ))?;
                    at += TICK_SPACING;
                }
                carry = at - length;
            }
            let mut before = Pose::Standing;
            for &(_, p, pose) in &samples {
                if pose != before {
                    let mark = match pose {
                        Pose::Crouching => Marker::Crouch,
                        Pose::Standing => Marker::StandUp,
                    };
                    mark.draw(pixels, round(pxf(p)), colour)?;
                }
                before = pose;
            }
            let mut drawn: Vec<(i32, i32)> = Vec::new();
            for e in trace.events.iter().filter(|e| e.agent.0 as usize == agent) {
                if !matches!(e.kind, EventKind::StandRefused) {
                    continue;
                }
                let Some(p) = position_at(&samples, e.step) else {
                    continue;
                };
                let at = round(pxf(p));
                if drawn
                    .iter()
                    .any(|d| (d.0 - at.0).abs() + (d.1 - at.1).abs() < 8)
                {
                    continue;
                }
                drawn.push(at);
                Marker::StandRefused.draw(pixels, at, colour)?;
            }
        }
        Ok(())
    }

    /// The planned paths under the runs, over the floors the plan crosses: each piece coloured
    /// by how it is reached (walks dashed in the agent's colour; steps, drops and jumps in their
    /// colours and named), the waypoints as rings, pose changes as the pose marks; plans made
    /// again on the way paler.
    fn draw_paths<DB: DrawingBackend>(
        &self,
        pixels: &DrawingArea<DB, Shift>,
        px: &dyn Fn(DVec3) -> (i32, i32),
        palette: &Palette,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        for path in self.paths {
            let agent = palette.colour(path.agent.0 as usize);
            let fade = if path.replan { 0.45 } else { 0.95 };
            let mut named: Vec<(i32, i32)> = Vec::new();
            for leg in &path.floors {
                for pair in leg.windows(2) {
                    let (from, to) = (px(pair[0].position), px(pair[1].position));
                    let colour = match pair[1].kind {
                        LinkKind::Walk => {
                            pixels.draw(&DashedPathElement::new(
                                vec![from, to],
                                5,
                                4,
                                agent.mix(fade).stroke_width(2),
                            ))?;
                            continue;
                        }
                        LinkKind::Step => STEP,
                        LinkKind::Drop => DROP,
                        LinkKind::Jump | LinkKind::Push => JUMP,
                        // The agent does not travel between the volume and the destination.
                        LinkKind::Teleport => continue,
                        LinkKind::Crouch | LinkKind::StandUp => {
                            let up = pair[1].kind == LinkKind::StandUp;
                            let (mark, colour) = if up {
                                (Marker::StandUp, STAND)
                            } else {
                                (Marker::Crouch, CROUCH)
                            };
                            mark.draw(pixels, to, colour)?;
                            continue;
                        }
                    };
                    pixels.draw(&PathElement::new(
                        vec![from, to],
                        colour.mix(fade).stroke_width(3),
                    ))?;
                    // The piece's kind beside its middle, once per place.
                    let middle = ((from.0 + to.0) / 2 + 6, (from.1 + to.1) / 2 - 18);
                    if named
                        .iter()
                        .all(|n| (n.0 - middle.0).abs() > 40 || (n.1 - middle.1).abs() > 14)
                    {
                        named.push(middle);
                        pixels.draw(&Text::new(
                            pair[1].kind.name().to_string(),
                            middle,
                            font(TEXT, &colour),
                        ))?;
                    }
                }
            }
            for w in &path.waypoints {
                Marker::Waypoint.draw(pixels, px(w.position), agent)?;
            }
        }
        Ok(())
    }

    fn draw_distances<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        groups: &[Group<'_>],
        palette: &Palette,
        baseline: &RunRecord,
        first: Option<&FirstDivergence>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let (caption, area) = area.split_vertically(PANEL_TITLE);
        caption.draw(&Text::new(
            "distance of each agent from the baseline (log scale; 0 drawn at the floor)"
                .to_string(),
            ((MARGIN + Y_LABELS) as i32, 4),
            font(HEADING, &INK),
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
            .axis_desc_style(font(TEXT, &INK))
            .label_style(font(TEXT, &INK))
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
                    font(TEXT, &DIVERGED),
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
                let colour = palette.colour(agent);
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

/// What both views draw over the brushes.
struct Views<'a> {
    groups: &'a [Group<'a>],
    palette: &'a Palette,
    first: Option<&'a FirstDivergence>,
}

/// How each group of identical runs is drawn, as the title names it.
const STYLE_NAMES: [&str; 4] = ["solid", "dashed", "dotted", "long dashes"];
/// Dash and gap lengths per style, pixels (the first style is solid).
const DASHES: [(u32, u32); 4] = [(0, 0), (9, 5), (2, 4), (16, 5)];

/// The room a legend entry takes: its swatch, its text and a gap, pixels.
fn legend_width(text: &str) -> i32 {
    SWATCH + 4 + width_of(text, TEXT) + 22
}

/// Appends `entries` to the legend's `rows`, starting a row, and a new one whenever the next
/// entry would run past the canvas.
fn flow(rows: &mut Vec<Vec<(Swatch, String)>>, entries: Vec<(Swatch, String)>) {
    let room = (WIDTH - 2 * MARGIN) as i32;
    let mut used = 0;
    let mut row: Vec<(Swatch, String)> = Vec::new();
    for (swatch, text) in entries {
        let w = legend_width(&text);
        if !row.is_empty() && used + w > room {
            rows.push(std::mem::take(&mut row));
            used = 0;
        }
        used += w;
        row.push((swatch, text));
    }
    if !row.is_empty() {
        rows.push(row);
    }
}

/// An agent's position at `step`, between its samples (the last sample at or before it, moved
/// towards the next in proportion).
fn position_at(samples: &[(u64, DVec3, Pose)], step: u64) -> Option<DVec3> {
    let after = samples.iter().position(|s| s.0 >= step)?;
    let (s1, p1, _) = samples[after];
    if after == 0 || s1 == step {
        return Some(p1);
    }
    let (s0, p0, _) = samples[after - 1];
    Some(p0.lerp(p1, (step - s0) as f64 / (s1 - s0) as f64))
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

#[cfg(test)]
mod tests;
