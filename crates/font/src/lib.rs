//! The font of cspace's plots: DejaVu Sans Mono, kept in `assets/fonts` with its license
//! (`DejaVu-LICENSE`: Bitstream Vera, permissive), registered with plotters as `sans-serif`, and
//! the glyph layout that PNG plots are drawn with.
//!
//! plotters measures SVG text with a registered font when its `ab_glyph` feature is on (the
//! workspace turns it on so that no system font is needed); every tool that draws calls
//! [`register`] first. SVG text is laid out by whatever shows the SVG. PNG text is laid out
//! here ([`layout`], [`Typeset`]): plotters' own bitmap text puts each glyph's ink at the start
//! of its advance, dropping the glyph's left side bearing, so in a monospace font a narrow glyph
//! (`.`, `,`, `-`, `1`) sits against its left neighbour and leaves a gap on its right ("1. 282"
//! for `1.282`). [`layout`] places every glyph at its pen position plus its own bearing, as the
//! font says, and [`Typeset`] is a drawing backend that draws text with it.

mod typeset;

use std::sync::Once;

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};

pub use typeset::Typeset;

/// The font file's bytes.
pub const DEJAVU_SANS_MONO: &[u8] = include_bytes!("../assets/fonts/DejaVuSansMono.ttf");

/// plotters' text size is this many times the em size, pixels: its SVG backend writes a size
/// `s` as `font-size: s / 1.24` (`plotters-svg`, `svg.rs`), so [`layout`] and [`Typeset`] draw
/// PNG text at that em size too, and a plot's PNG and SVG show text of one size.
pub const SIZE_PER_EM: f64 = 1.24;

/// Registers the bundled font as plotters' `sans-serif` (once per process; later calls do
/// nothing).
pub fn register() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The font is part of the build; failing to read it is a broken build, not bad input.
        plotters::style::register_font(
            "sans-serif",
            plotters::style::FontStyle::Normal,
            DEJAVU_SANS_MONO,
        )
        .map_err(|_| "invalid font")
        .expect("the bundled DejaVu font is a valid TrueType font");
    });
}

fn font() -> FontRef<'static> {
    // The font is part of the build; failing to read it is a broken build, not bad input.
    FontRef::try_from_slice(DEJAVU_SANS_MONO)
        .expect("the bundled DejaVu font is a valid TrueType font")
}

/// One glyph of a laid-out line of text, in pixels from the line's start on its baseline (x to
/// the right, y down).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedGlyph {
    /// The character.
    pub ch: char,
    /// The pen position: where the glyph's advance starts.
    pub pen: f32,
    /// The advance: how far the pen moves on (kerning with the next glyph included).
    pub advance: f32,
    /// The ink's bounds `(min x, min y, max x, max y)`, pixels (a blank glyph has none).
    pub ink: Option<(f32, f32, f32, f32)>,
}

/// A line of text laid out at `em` pixels per em, as the font's metrics place it: each glyph at
/// its pen position, its ink offset by its own side bearing, the pen moved on by its advance
/// and the kerning with the next glyph.
pub fn layout(text: &str, em: f64) -> Vec<PlacedGlyph> {
    let font = font();
    let scaled = font.as_scaled(scale(&font, em));
    let mut pen = 0.0f32;
    let mut out: Vec<PlacedGlyph> = Vec::with_capacity(text.len());
    let mut previous = None;
    for ch in text.chars() {
        let id = scaled.glyph_id(ch);
        if let Some(p) = previous {
            let kern = scaled.kern(p, id);
            pen += kern;
            if let Some(last) = out.last_mut() {
                last.advance += kern;
            }
        }
        let glyph = id.with_scale_and_position(scaled.scale(), ab_glyph::point(pen, 0.0));
        let ink = scaled.outline_glyph(glyph).map(|o| {
            let b = o.px_bounds();
            (b.min.x, b.min.y, b.max.x, b.max.y)
        });
        let advance = scaled.h_advance(id);
        out.push(PlacedGlyph {
            ch,
            pen,
            advance,
            ink,
        });
        pen += advance;
        previous = Some(id);
    }
    out
}

/// The width of `text` laid out at `em` pixels per em, pixels (the sum of its advances).
pub fn text_width(text: &str, em: f64) -> f64 {
    f64::from(layout(text, em).iter().map(|g| g.advance).sum::<f32>())
}

/// The width of `text` at plotters' text size `size` (see [`SIZE_PER_EM`]), pixels.
pub fn plot_text_width(text: &str, size: f64) -> f64 {
    text_width(text, size / SIZE_PER_EM)
}

/// The ab_glyph scale whose em is `em` pixels (ab_glyph scales by the height from descent to
/// ascent).
fn scale(font: &FontRef<'static>, em: f64) -> PxScale {
    let units = font.units_per_em().unwrap_or(2048.0);
    PxScale::from((em as f32) * font.height_unscaled() / units)
}

/// Calls `ink(x, y, coverage)` for every pixel the glyphs of `text`, laid out by [`layout`] at
/// `em` pixels per em with the baseline at y = 0 and the pen starting at x = 0, cover (coverage
/// in (0, 1]).
pub fn rasterize(text: &str, em: f64, mut ink: impl FnMut(i32, i32, f32)) {
    let font = font();
    let scaled = font.as_scaled(scale(&font, em));
    for placed in layout(text, em) {
        let id = scaled.glyph_id(placed.ch);
        let glyph = id.with_scale_and_position(scaled.scale(), ab_glyph::point(placed.pen, 0.0));
        if let Some(outline) = scaled.outline_glyph(glyph) {
            let b = outline.px_bounds();
            outline.draw(|x, y, c| {
                if c > 0.0 {
                    ink(b.min.x as i32 + x as i32, b.min.y as i32 + y as i32, c);
                }
            });
        }
    }
}

/// The height of the font's `x` at `em` pixels per em, pixels: SVG's `ex` unit, by which the
/// SVG backend places a centred line's baseline.
pub fn x_height(em: f64) -> f64 {
    layout("x", em)
        .first()
        .and_then(|g| g.ink)
        .map_or(0.5 * em, |(_, top, _, _)| -f64::from(top))
}

#[cfg(test)]
mod tests {
    use plotters::prelude::*;

    use super::*;

    #[test]
    fn svg_text_is_measured_with_the_bundled_font() {
        super::register();
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (200, 100)).into_drawing_area();
            root.draw(&Text::new("cspace", (10, 10), ("sans-serif", 16)))
                .unwrap();
            root.present().unwrap();
        }
        assert!(svg.contains("cspace"));
    }

    /// Every glyph of a monospace line has one advance, and its ink lies within its own cell,
    /// centred for the narrow marks: numbers read as numbers ("1.282", not "1. 282").
    #[test]
    fn narrow_glyphs_sit_in_the_middle_of_their_cells() {
        let em = 14.0 / SIZE_PER_EM;
        let line = layout("-0.1,2345 6789", em);
        let advance = line[0].advance;
        for g in &line {
            assert!(
                (g.advance - advance).abs() < 1e-4,
                "{:?}: advance {} against {advance}",
                g.ch,
                g.advance
            );
            let Some((x0, _, x1, _)) = g.ink else {
                assert_eq!(g.ch, ' ');
                continue;
            };
            assert!(
                x0 >= g.pen - 1.0 && x1 <= g.pen + g.advance + 1.0,
                "{:?}: ink {x0}..{x1} outside its cell {}..{}",
                g.ch,
                g.pen,
                g.pen + g.advance
            );
            if matches!(g.ch, '.' | ',' | '-' | '1') {
                let middle = 0.5 * (x0 + x1);
                let centre = g.pen + 0.5 * g.advance;
                assert!(
                    (middle - centre).abs() < 0.2 * advance,
                    "{:?}: ink centred at {middle}, its cell at {centre}",
                    g.ch
                );
            }
        }
        // The widths the plots reserve are the advances' sum.
        assert!((text_width("1.282", em) - 5.0 * f64::from(advance)).abs() < 1e-3);
    }

    /// The columns of a rendered line that hold ink (any channel darker than the white page).
    fn inked_columns(text: &str, typeset: bool) -> Vec<bool> {
        super::register();
        let (w, h) = (120u32, 30u32);
        let mut buffer = vec![255u8; (w * h * 3) as usize];
        {
            let bitmap = BitMapBackend::with_buffer(&mut buffer, (w, h));
            let style = ("sans-serif", 20).into_font().color(&BLACK);
            if typeset {
                let root = super::Typeset(bitmap).into_drawing_area();
                root.draw(&Text::new(text, (2, 2), style)).unwrap();
                root.present().unwrap();
            } else {
                let root = bitmap.into_drawing_area();
                root.draw(&Text::new(text, (2, 2), style)).unwrap();
                root.present().unwrap();
            }
        }
        (0..w as usize)
            .map(|x| (0..h as usize).any(|y| buffer[(y * w as usize + x) * 3] < 160))
            .collect()
    }

    /// Runs of inked columns: (first, last).
    fn runs(columns: &[bool]) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = Vec::new();
        for (x, &ink) in columns.iter().enumerate() {
            match out.last_mut() {
                Some(r) if ink && r.1 + 1 == x => r.1 = x,
                _ if ink => out.push((x, x)),
                _ => {}
            }
        }
        out
    }

    /// The regression: plotters' bitmap text drew `1.282` as "1. 282", the point against the 1
    /// and a wide gap after it. Drawn through [`Typeset`] the gaps on both sides of the point
    /// are within a pixel of each other.
    #[test]
    fn a_decimal_point_is_drawn_between_its_digits() {
        let ink = runs(&inked_columns("1.2", true));
        assert_eq!(ink.len(), 3, "{ink:?}");
        let (left, right) = (ink[1].0 - ink[0].1, ink[2].0 - ink[1].1);
        assert!(
            left.abs_diff(right) <= 1,
            "gaps {left} and {right} px around the point: {ink:?}"
        );
        // The same text through plotters' own layout, for the record of what was wrong.
        let plain = runs(&inked_columns("1.2", false));
        let (l, r) = (plain[1].0 - plain[0].1, plain[2].0 - plain[1].1);
        assert!(r > l + 1, "plotters' layout was fixed upstream: {plain:?}");
    }
}
