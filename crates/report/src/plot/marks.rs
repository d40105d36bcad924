//! The symbols a plot draws and its legend explains, each drawn by one function in pixels, so
//! that the legend shows exactly the glyph the views draw.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

/// The red of the first divergence.
pub(super) const DIVERGED: RGBColor = RGBColor(214, 0, 0);

/// A symbol of the plot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Marker {
    /// An agent's start: a disc.
    Start,
    /// An agent's end: a square.
    End,
    /// The agent's direction once a second: a filled triangle pointing along the path (the unit
    /// pixel direction, y down).
    Arrow((f64, f64)),
    /// A run's contact with the world: a cross.
    Contact,
    /// The baseline's contact: a ring.
    BaselineContact,
    /// Where a run first parts from its baseline: a red diamond.
    Divergence,
    /// The agent crouches here: a squat box (wider than tall), drawn hollow, the shape of the
    /// lower pose; never a triangle, which is the direction arrow's glyph.
    Crouch,
    /// The agent stands up here: a tall box (taller than wide), drawn hollow.
    StandUp,
    /// The agent asked to stand and the standing pose did not fit: the tall box crossed out.
    StandRefused,
    /// A waypoint of a planned path: a small ring.
    Waypoint,
}

/// Half the width and half the height of the pose marks, pixels.
const POSE_WIDE: i32 = 8;
const POSE_NARROW: i32 = 4;

impl Marker {
    /// Draws the symbol centred at `at` (pixels of `area`) in `colour`.
    pub(super) fn draw<DB: DrawingBackend>(
        self,
        area: &DrawingArea<DB, Shift>,
        at: (i32, i32),
        colour: RGBColor,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let (x, y) = at;
        let boxed = |w: i32, h: i32| [(x - w, y - h), (x + w, y + h)];
        match self {
            Marker::Start => {
                area.draw(&Circle::new(at, 5, colour.filled()))?;
                area.draw(&Circle::new(at, 5, WHITE.stroke_width(1)))
            }
            Marker::End => {
                area.draw(&Rectangle::new(boxed(4, 4), colour.filled()))?;
                area.draw(&Rectangle::new(boxed(4, 4), WHITE.stroke_width(1)))
            }
            Marker::Arrow(d) => area.draw(&Polygon::new(arrowhead(at, d), colour.filled())),
            Marker::Contact => area.draw(&Cross::new(at, 4, colour.stroke_width(2))),
            Marker::BaselineContact => area.draw(&Circle::new(at, 5, colour.stroke_width(1))),
            Marker::Divergence => {
                area.draw(&Polygon::new(diamond(at, 7), DIVERGED.filled()))?;
                let mut outline = diamond(at, 7);
                outline.push(outline[0]);
                area.draw(&PathElement::new(outline, WHITE.stroke_width(1)))
            }
            Marker::Crouch => {
                area.draw(&Rectangle::new(
                    boxed(POSE_WIDE, POSE_NARROW),
                    WHITE.filled(),
                ))?;
                area.draw(&Rectangle::new(
                    boxed(POSE_WIDE, POSE_NARROW),
                    colour.stroke_width(2),
                ))
            }
            Marker::StandUp | Marker::StandRefused => {
                area.draw(&Rectangle::new(
                    boxed(POSE_NARROW, POSE_WIDE),
                    WHITE.filled(),
                ))?;
                area.draw(&Rectangle::new(
                    boxed(POSE_NARROW, POSE_WIDE),
                    colour.stroke_width(2),
                ))?;
                if self == Marker::StandRefused {
                    let (w, h) = (POSE_NARROW + 3, POSE_WIDE + 3);
                    area.draw(&PathElement::new(
                        vec![(x - w, y + h), (x + w, y - h)],
                        DIVERGED.stroke_width(2),
                    ))?;
                }
                Ok(())
            }
            Marker::Waypoint => area.draw(&Circle::new(at, 3, colour.stroke_width(1))),
        }
    }
}

/// What a line of the legend shows beside its words: a symbol, or a sample of a line style.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Swatch {
    /// A symbol.
    Mark(Marker, RGBColor),
    /// A solid line of a colour and width.
    Line(RGBColor, u32),
    /// A dashed line.
    Dashed(RGBColor),
    /// A line with ticks across it (a crouched stretch).
    Ticked(RGBColor),
    /// A line of alternating dashes of these colours (a stretch several agents share).
    Shared(Vec<RGBColor>),
    /// A block of colour.
    Block(RGBColor),
    /// A crowd's colours, dark to light.
    Ramp(Vec<RGBColor>),
}

/// The width of a swatch, pixels.
pub(super) const SWATCH: i32 = 24;

impl Swatch {
    /// Draws the swatch with its middle left at `at` (pixels), [`SWATCH`] wide.
    pub(super) fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        at: (i32, i32),
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let (x, y) = at;
        let line = vec![(x, y), (x + SWATCH - 2, y)];
        match self {
            Swatch::Mark(m, c) => m.draw(area, (x + SWATCH / 2 - 2, y), *c),
            Swatch::Line(c, w) => area.draw(&PathElement::new(line, c.stroke_width(*w))),
            Swatch::Dashed(c) => area.draw(&DashedPathElement::new(line, 4, 3, c.stroke_width(2))),
            Swatch::Ticked(c) => {
                area.draw(&PathElement::new(line, c.stroke_width(2)))?;
                for tx in [x + 4, x + 11, x + 18] {
                    area.draw(&PathElement::new(
                        vec![(tx, y - TICK), (tx, y + TICK)],
                        c.stroke_width(1),
                    ))?;
                }
                Ok(())
            }
            Swatch::Shared(colours) => {
                let n = colours.len().max(1) as i32;
                let dash = (SWATCH - 2) / (2 * n).max(1);
                for k in 0..2 * n {
                    let c = colours[(k % n) as usize];
                    area.draw(&PathElement::new(
                        vec![(x + k * dash, y), (x + (k + 1) * dash, y)],
                        c.stroke_width(3),
                    ))?;
                }
                Ok(())
            }
            Swatch::Block(c) => area.draw(&Rectangle::new(
                [(x, y - 4), (x + SWATCH - 4, y + 4)],
                c.filled(),
            )),
            Swatch::Ramp(colours) => {
                let n = colours.len().max(1) as i32;
                for (k, c) in colours.iter().enumerate() {
                    let k = k as i32;
                    area.draw(&Rectangle::new(
                        [
                            (x + k * (SWATCH - 4) / n, y - 4),
                            (x + (k + 1) * (SWATCH - 4) / n, y + 4),
                        ],
                        c.filled(),
                    ))?;
                }
                Ok(())
            }
        }
    }
}

/// Half the length of a crouched stretch's ticks, pixels.
pub(super) const TICK: i32 = 4;

/// A small filled triangle at `at` pointing along the unit pixel direction `d`.
pub(super) fn arrowhead(at: (i32, i32), d: (f64, f64)) -> Vec<(i32, i32)> {
    let p = |along: f64, across: f64| {
        (
            at.0 + (d.0 * along - d.1 * across).round() as i32,
            at.1 + (d.1 * along + d.0 * across).round() as i32,
        )
    };
    vec![p(7.0, 0.0), p(-4.0, 4.5), p(-4.0, -4.5)]
}

/// A diamond of half-size `r` pixels around `at`.
pub(super) fn diamond(at: (i32, i32), r: i32) -> Vec<(i32, i32)> {
    vec![
        (at.0, at.1 - r),
        (at.0 + r, at.1),
        (at.0, at.1 + r),
        (at.0 - r, at.1),
    ]
}
