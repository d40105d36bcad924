//! The paper's 2D Bézier example (Figure 1: an unbounding 12-DOP built about a point against a
//! point, a segment, a circle and a quadratic Bézier curve, one geometry at a time) and a
//! Section 3.5 example (k-UDOPs inside a closed parametric boundary, from its Hermite pieces less
//! their error term), drawn as PNG.

use std::sync::Arc;

use cspace_udop::geometry::{
    Ball, DerivativeBound, HermiteApproximation, HermiteOrder, Point, QuadraticBezier, Segment,
};
use cspace_udop::polytope::convex_intersection;
use cspace_udop::{Directions, Geometry, Insertion, Udop};
use glam::DVec2;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Half the side of the square each panel shows, in scene units.
const VIEW: f64 = 4.0;

/// Figure 1's scene: the centre and the geometries in the order they are inserted.
struct Scene {
    centre: DVec2,
    point: Point<DVec2>,
    segment: Segment<DVec2>,
    circle: Ball<DVec2>,
    curve: QuadraticBezier<DVec2>,
}

impl Scene {
    fn figure1() -> Scene {
        Scene {
            centre: DVec2::ZERO,
            point: Point(DVec2::new(1.7, 1.0)),
            segment: Segment {
                a: DVec2::new(-2.8, 0.9),
                b: DVec2::new(-1.0, 2.5),
            },
            circle: Ball {
                centre: DVec2::new(-0.9, -2.2),
                radius: 0.7,
            },
            curve: QuadraticBezier {
                points: [
                    DVec2::new(0.9, -2.9),
                    DVec2::new(3.9, -2.0),
                    DVec2::new(2.4, 0.2),
                ],
            },
        }
    }

    /// The geometries with their names, in insertion order.
    fn geometries(&self) -> [(&'static str, &dyn Geometry<DVec2>); 4] {
        [
            ("point", &self.point),
            ("segment", &self.segment),
            ("circle", &self.circle),
            ("quadratic Bezier", &self.curve),
        ]
    }
}

type Panel<'a, DB> = DrawingArea<DB, Shift>;

/// The k-UDOP's region within the view (sides at infinity drawn at the view's edge). plotters
/// clamps points outside a chart to its edge, which bends lines: everything drawn is clipped to
/// the view first.
fn region(udop: &Udop<DVec2>) -> Vec<DVec2> {
    let polygon = capped_polygon(udop);
    let view = [
        DVec2::new(-VIEW, -VIEW),
        DVec2::new(VIEW, -VIEW),
        DVec2::new(VIEW, VIEW),
        DVec2::new(-VIEW, VIEW),
    ];
    convex_intersection(&polygon, &view)
}

/// The k-UDOP's polygon (Section 4.1) with every infinite side moved to ten views away.
fn capped_polygon(udop: &Udop<DVec2>) -> Vec<DVec2> {
    let capped: Vec<f64> = udop
        .distances()
        .iter()
        .map(|h| h.min(10.0 * VIEW))
        .collect();
    Udop::from_distances(udop.directions().clone(), udop.centre(), capped)
        .ok()
        .and_then(|u| u.polygon().ok())
        .unwrap_or_default()
}

/// The part of the segment `a`-`b` inside the view (Liang and Barsky), if any.
fn clipped(a: DVec2, b: DVec2) -> Option<[DVec2; 2]> {
    let d = b - a;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-d.x, a.x + VIEW),
        (d.x, VIEW - a.x),
        (-d.y, a.y + VIEW),
        (d.y, VIEW - a.y),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else if p < 0.0 {
            t0 = t0.max(q / p);
        } else {
            t1 = t1.min(q / p);
        }
    }
    (t0 < t1).then(|| [a + d * t0, a + d * t1])
}

/// The closed outline of a polygon, for plotters (whose `Polygon` is always filled).
fn outline(polygon: Vec<DVec2>) -> Vec<(f64, f64)> {
    let first = polygon.first().copied();
    to_plot(polygon.into_iter().chain(first))
}

/// The centre's colour.
const DARK_GREEN: RGBColor = RGBColor(0, 120, 0);

fn to_plot(points: impl IntoIterator<Item = DVec2>) -> Vec<(f64, f64)> {
    points.into_iter().map(|p| (p.x, p.y)).collect()
}

/// Draws one geometry of the scene in `style`.
fn draw_geometry<DB: DrawingBackend>(
    chart: &mut ChartContext<
        '_,
        DB,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    scene: &Scene,
    index: usize,
    style: ShapeStyle,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    match index {
        0 => {
            let p = scene.point.0;
            chart
                .draw_series(std::iter::once(Circle::new((p.x, p.y), 4, style.filled())))
                .map_err(e)?;
        }
        1 => {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    to_plot([scene.segment.a, scene.segment.b]),
                    style,
                )))
                .map_err(e)?;
        }
        2 => {
            let c = scene.circle;
            let ring = (0..=96).map(|i| {
                let a = std::f64::consts::TAU * i as f64 / 96.0;
                c.centre + DVec2::new(a.cos(), a.sin()) * c.radius
            });
            chart
                .draw_series(std::iter::once(PathElement::new(to_plot(ring), style)))
                .map_err(e)?;
        }
        _ => {
            let curve = (0..=96).map(|i| scene.curve.at(i as f64 / 96.0));
            chart
                .draw_series(std::iter::once(PathElement::new(to_plot(curve), style)))
                .map_err(e)?;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    to_plot(scene.curve.points),
                    RGBColor(230, 150, 150).stroke_width(1),
                )))
                .map_err(e)?;
        }
    }
    Ok(())
}

/// One panel of Figure 1: the k-UDOP after `inserted` geometries, the one just inserted in red.
fn figure1_panel<DB: DrawingBackend>(
    area: &Panel<'_, DB>,
    scene: &Scene,
    udop: &Udop<DVec2>,
    inserted: usize,
    caption: &str,
    moved: Option<usize>,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 15))
        .margin(8)
        .build_cartesian_2d(-VIEW..VIEW, -VIEW..VIEW)
        .map_err(e)?;
    chart
        .draw_series(std::iter::once(Polygon::new(
            to_plot(region(udop)),
            RGBColor(205, 240, 205).filled(),
        )))
        .map_err(e)?;
    // The directions (thin lines from the centre) and each side's line where it is finite.
    for (i, (v, h)) in udop
        .directions()
        .vectors()
        .iter()
        .zip(udop.distances())
        .enumerate()
    {
        let c = scene.centre;
        let reach = if h.is_finite() { *h } else { 2.0 * VIEW };
        if let Some(ray) = clipped(c, c + *v * reach) {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    to_plot(ray),
                    RGBColor(190, 190, 190).stroke_width(1),
                )))
                .map_err(e)?;
        }
        if h.is_finite() {
            let foot = c + *v * *h;
            let along = DVec2::new(-v.y, v.x) * (2.0 * VIEW);
            let style = if moved == Some(i) {
                RED.stroke_width(2)
            } else {
                RGBColor(120, 190, 120).stroke_width(1)
            };
            if let Some(line) = clipped(foot - along, foot + along) {
                chart
                    .draw_series(std::iter::once(PathElement::new(to_plot(line), style)))
                    .map_err(e)?;
            }
        }
    }
    chart
        .draw_series(std::iter::once(PathElement::new(
            outline(region(udop)),
            DARK_GREEN.stroke_width(2),
        )))
        .map_err(e)?;
    for index in 0..4 {
        let style = if index + 1 == inserted {
            RED.stroke_width(3)
        } else if index < inserted {
            BLACK.stroke_width(2)
        } else {
            RGBColor(160, 160, 160).stroke_width(2)
        };
        draw_geometry(&mut chart, scene, index, style)?;
    }
    chart
        .draw_series(std::iter::once(Circle::new(
            (scene.centre.x, scene.centre.y),
            5,
            DARK_GREEN.filled(),
        )))
        .map_err(e)?;
    Ok(())
}

/// Figure 1: six panels, the start (every `h_i` infinite), one per geometry inserted, and the
/// final k-UDOP with its sides counted. Returns the captions (what each step did).
pub fn draw_figure1<DB: DrawingBackend>(root: Panel<'_, DB>) -> Result<Vec<String>, String>
where
    DB::ErrorType: 'static,
{
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let root = root
        .titled(
            "Figure 1 (Kiglics, Valasek, Balint): an unbounding 12-DOP built about a point",
            ("sans-serif", 20),
        )
        .map_err(e)?;
    let panels = root.split_evenly((2, 3));
    let scene = Scene::figure1();
    let directions = Arc::new(Directions::<DVec2>::evenly_spread(12).expect("12 directions"));
    let mut udop = Udop::unbounded(directions, scene.centre);
    let mut captions = vec!["start: every h_i = +inf".to_owned()];
    figure1_panel(&panels[0], &scene, &udop, 0, &captions[0], None)?;
    for (k, (name, geometry)) in scene.geometries().into_iter().enumerate() {
        let (caption, moved) = match udop.insert(geometry) {
            Insertion::Cut { direction } => (
                format!(
                    "{name}: side {direction} moved to {:.2}",
                    udop.distances()[direction]
                ),
                Some(direction),
            ),
            Insertion::Outside { direction } => {
                (format!("{name}: already beyond side {direction}"), None)
            }
            Insertion::Collapsed => (format!("{name}: collapsed"), None),
        };
        figure1_panel(&panels[k + 1], &scene, &udop, k + 1, &caption, moved)?;
        captions.push(caption);
    }
    // The sides left at infinity lie far beyond the four that close the polygon.
    let sides = capped_polygon(&udop).len();
    let caption = format!("final: {sides} sides of 12 directions");
    figure1_panel(&panels[5], &scene, &udop, 5, &caption, None)?;
    captions.push(caption);
    root.present().map_err(e)?;
    Ok(captions)
}

/// The closed boundary of the Section 3.5 example and its derivative: `|p''| <= 9.22`,
/// `|p''''| <= 52.32` (each component's bound, added in quadrature).
fn boundary(t: f64) -> DVec2 {
    DVec2::new(
        3.0 * t.cos() + 0.6 * (3.0 * t).cos(),
        2.2 * t.sin() + 0.4 * (2.0 * t).sin(),
    )
}

fn boundary_derivative(t: f64) -> DVec2 {
    DVec2::new(
        -3.0 * t.sin() - 1.8 * (3.0 * t).sin(),
        2.2 * t.cos() + 0.8 * (2.0 * t).cos(),
    )
}

/// The Section 3.5 example: two panels (linear pieces with the bound on `p''`, cubic Hermite
/// pieces with the bound on `p''''`), each with the boundary, the pieces widened by their error
/// term, and 16-UDOPs at three centres built from the pieces. Returns one line per panel.
pub fn draw_section35<DB: DrawingBackend>(root: Panel<'_, DB>) -> Result<Vec<String>, String>
where
    DB::ErrorType: 'static,
{
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let root = root
        .titled(
            "Section 3.5: k-UDOPs inside a parametric boundary, from Hermite pieces less their error",
            ("sans-serif", 20),
        )
        .map_err(e)?;
    let panels = root.split_evenly((1, 2));
    let tau = std::f64::consts::TAU;
    let directions = Arc::new(Directions::<DVec2>::evenly_spread(16).expect("16 directions"));
    let centres = [
        DVec2::new(-1.4, 0.3),
        DVec2::new(1.2, -0.6),
        DVec2::new(0.2, 1.1),
    ];
    let mut lines = Vec::new();
    for (panel, (order, pieces, bound, label)) in panels.iter().zip([
        (
            HermiteOrder::Linear,
            12,
            9.22,
            "linear, 12 pieces, |p''| <= 9.22",
        ),
        (
            HermiteOrder::Cubic,
            6,
            52.32,
            "cubic Hermite, 6 pieces, |p''''| <= 52.32",
        ),
    ]) {
        let approx = HermiteApproximation::new(
            boundary,
            boundary_derivative,
            [0.0, tau],
            pieces,
            order,
            DerivativeBound::Euclidean(bound),
        )
        .map_err(|e| e.to_string())?;
        let caption = format!("{label}: E = {:.3}; 16-UDOPs at 3 points", approx.error());
        let (width, height) = panel.dim_in_pixel();
        let mut chart = ChartBuilder::on(panel)
            .caption(&caption, ("sans-serif", 15))
            .margin(8)
            .build_cartesian_2d(-VIEW..VIEW, -VIEW..VIEW)
            .map_err(e)?;
        // The band: every piece drawn 2E wide (in pixels of this panel's scale).
        let pixels_per_unit = f64::from(width.min(height)) / (2.0 * VIEW) * 0.9;
        let band = (2.0 * approx.error() * pixels_per_unit).round().max(1.0) as u32;
        // The band under the pieces, then the pieces.
        let styles = [
            RGBColor(190, 205, 255).stroke_width(band),
            BLUE.stroke_width(1),
        ];
        for style in styles {
            for piece in approx.pieces() {
                let points = (0..=32).map(|i| piece.at(i as f64 / 32.0));
                chart
                    .draw_series(std::iter::once(PathElement::new(to_plot(points), style)))
                    .map_err(e)?;
            }
        }
        let curve = (0..=512).map(|i| boundary(tau * i as f64 / 512.0));
        chart
            .draw_series(std::iter::once(PathElement::new(
                to_plot(curve),
                BLACK.stroke_width(2),
            )))
            .map_err(e)?;
        let colours = [DARK_GREEN, RGBColor(200, 100, 0), RGBColor(120, 0, 160)];
        for (centre, colour) in centres.into_iter().zip(colours) {
            let udop = Udop::build(directions.clone(), centre, approx.pieces());
            chart
                .draw_series(std::iter::once(PathElement::new(
                    outline(region(&udop)),
                    colour.stroke_width(2),
                )))
                .map_err(e)?;
            chart
                .draw_series(std::iter::once(Circle::new(
                    (centre.x, centre.y),
                    5,
                    colour.filled(),
                )))
                .map_err(e)?;
        }
        lines.push(caption);
    }
    root.present().map_err(e)?;
    Ok(lines)
}
