//! The font of cspace's plots: DejaVu Sans Mono, kept in `assets/fonts` with its license
//! (`DejaVu-LICENSE`: Bitstream Vera, permissive), registered with plotters as `sans-serif`.
//!
//! plotters draws bitmap text, and measures SVG text, with a registered font when its `ab_glyph`
//! feature is on (the workspace turns it on so that PNG plots need no system fonts). Every tool
//! that draws calls [`register`] first.

use std::sync::Once;

/// The font file's bytes.
pub const DEJAVU_SANS_MONO: &[u8] = include_bytes!("../assets/fonts/DejaVuSansMono.ttf");

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

#[cfg(test)]
mod tests {
    use plotters::prelude::*;

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
}
