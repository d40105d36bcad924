//! A drawing backend that sets text with the bundled font's own metrics ([`crate::layout`]) and
//! passes everything else to the backend it wraps.

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

use crate::{SIZE_PER_EM, plot_text_width, rasterize, x_height};

/// A pixel backend (plotters' `BitMapBackend`) whose text is laid out by [`crate::layout`] at
/// plotters' size over [`SIZE_PER_EM`] pixels per em, anchored as the SVG backend anchors it
/// (`dy` of 0.76 em for the top, half an x-height for the centre and the bottom), so that the
/// PNG and the SVG of one plot put the same text in the same place at the same size. Every
/// other call goes to the wrapped backend as it is.
#[derive(Debug)]
pub struct Typeset<B: DrawingBackend>(pub B);

impl<B: DrawingBackend> DrawingBackend for Typeset<B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.fill_polygon(vert, style)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        (iw, ih): (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.blit_bitmap(pos, (iw, ih), src)
    }

    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        let em = style.size() / SIZE_PER_EM;
        Ok((
            plot_text_width(text, style.size()).ceil() as u32,
            em.ceil() as u32,
        ))
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let em = style.size() / SIZE_PER_EM;
        let width = plot_text_width(text, style.size());
        let anchor = style.anchor();
        let dx = match anchor.h_pos {
            HPos::Left => 0.0,
            HPos::Center => -0.5 * width,
            HPos::Right => -width,
        };
        // The baseline below the anchor, as the SVG backend's `dy` puts it.
        let dy = match anchor.v_pos {
            VPos::Top => 0.76 * em,
            VPos::Center => 0.5 * x_height(em),
            VPos::Bottom => -0.5 * x_height(em),
        };
        let (dx, dy) = (dx.round() as i32, dy.round() as i32);
        let transform = style.transform();
        let (w, h) = self.0.get_size();
        let mut result = Ok(());
        rasterize(text, em, |x, y, coverage| {
            if result.is_err() {
                return;
            }
            let (x, y) = transform.transform(x + dx, y + dy);
            let (x, y) = (pos.0 + x, pos.1 + y);
            if x >= 0 && y >= 0 && x < w as i32 && y < h as i32 {
                let ink = BackendColor {
                    alpha: color.alpha * f64::from(coverage.min(1.0)),
                    rgb: color.rgb,
                };
                result = self.0.draw_pixel((x, y), ink);
            }
        });
        result
    }
}
