//! Quake III `patchDef2` patches: a shader, a size header and a grid of control points.

use glam::DVec3;

use super::Parser;
use crate::error::MapError;
use crate::lex::Token;
use crate::map::{Patch, PatchPoint};

/// The largest patch side accepted, in control points. Quake III's `MAX_PATCH_SIZE` is 32 and
/// q3map2 allows more; this bound only keeps a corrupted header from describing an absurd grid.
const MAX_PATCH_SIDE: i64 = 1024;

impl Parser<'_> {
    /// A patch, after `{ patchDef2`; `open` is the `{` before `patchDef2`.
    pub(super) fn patch(&mut self, open: &Token) -> Result<Patch, MapError> {
        self.expect_word("{", "'{' after patchDef2")?;
        let texture = self.texture("a shader name for the patch")?;
        self.expect_word("(", "'(' to open the patch size ( W H 0 0 0 )")?;
        let size_range = 1..=MAX_PATCH_SIDE;
        let token = self.expect("the patch width")?;
        let size_at = [token.line, token.column];
        let width = self.integer_of(&token, size_range.clone(), "the patch width (1 to 1024)")?;
        let token = self.expect("the patch height")?;
        let height = self.integer_of(&token, size_range, "the patch height (1 to 1024)")?;
        for _ in 0..3 {
            self.number("a number of the patch size ( W H 0 0 0 )")?;
        }
        self.expect_word(")", "')' to close the patch size ( W H 0 0 0 )")?;
        self.expect_word("(", "'(' to open the patch's control points")?;
        // Checked against MAX_PATCH_SIDE above, so both fit in usize and their product is small.
        let (width, height) = (width as usize, height as usize);
        let mut points = Vec::new();
        for _ in 0..width {
            self.expect_word("(", "'(' to open a row of patch control points")?;
            for _ in 0..height {
                self.expect_word("(", "'(' to open a patch control point ( x y z u v )")?;
                let x = self.number("the x coordinate of a patch control point")?;
                let y = self.number("the y coordinate of a patch control point")?;
                let z = self.number("the z coordinate of a patch control point")?;
                let u = self.number("the u texture coordinate of a patch control point")?;
                let v = self.number("the v texture coordinate of a patch control point")?;
                self.expect_word(")", "')' to close a patch control point ( x y z u v )")?;
                points.push(PatchPoint {
                    position: DVec3::new(x, y, z),
                    tex_coords: [u, v],
                });
            }
            self.expect_word(
                ")",
                "')' to close a row of patch control points (the header gives the row length)",
            )?;
        }
        self.expect_word(
            ")",
            "')' to close the patch's control points (the header gives the row count)",
        )?;
        self.expect_word("}", "'}' to close patchDef2")?;
        self.expect_word("}", "'}' to close the brush holding patchDef2")?;
        Ok(Patch {
            texture: self.lexer.text(&texture),
            width,
            height,
            points,
            line: open.line,
            column: open.column,
            size_at,
        })
    }
}
