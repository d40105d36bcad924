//! Face lines: three points, a texture, and the texture fields whose count tells the format.

use glam::DVec3;

use super::Parser;
use crate::error::MapError;
use crate::lex::Token;
use crate::map::{MapFace, SurfaceFlags, TextureProjection};

/// Fields of a Valve 220 projection: `[ ux uy uz uoff ] [ vx vy vz voff ] rot xscale yscale`.
const VALVE_FIELDS: usize = 15;
/// Fields of a Quake standard projection: `xoff yoff rot xscale yscale`.
const QUAKE_FIELDS: usize = 5;
/// Fields Quake 2 / Quake III legacy brushes add: `contents flags value`.
const FLAG_FIELDS: usize = 3;

/// Integers accepted for the 32-bit flag fields: any `i32` or `u32`.
const FLAG_RANGE: std::ops::RangeInclusive<i64> = i32::MIN as i64..=u32::MAX as i64;

impl Parser<'_> {
    /// A face, after its first `(`.
    pub(super) fn face(&mut self, open: &Token) -> Result<MapFace, MapError> {
        let p0 = self.point_rest()?;
        self.expect_word("(", "'(' to start the second point of the face")?;
        let p1 = self.point_rest()?;
        self.expect_word("(", "'(' to start the third point of the face")?;
        let p2 = self.point_rest()?;
        let texture = self.texture("a texture name after the three points of the face")?;

        // The fields are the rest of the texture's line (Quake's `TokenAvailable`).
        let mut fields = std::mem::take(&mut self.fields);
        fields.clear();
        while let Some(token) = self.peek()? {
            if token.line != texture.line {
                break;
            }
            fields.push(token);
            self.next()?;
        }
        let result = self.projection(&texture, &fields);
        self.fields = fields;
        let (projection, flags) = result?;

        let face = MapFace {
            points: [p0, p1, p2],
            texture: self.lexer.text(&texture),
            projection,
            flags,
            line: open.line,
            column: open.column,
        };
        self.formats.add(face.format());
        Ok(face)
    }

    /// The rest of a point after its `(`: three numbers and `)`.
    fn point_rest(&mut self) -> Result<DVec3, MapError> {
        let x = self.number("the x coordinate of a plane point")?;
        let y = self.number("the y coordinate of a plane point")?;
        let z = self.number("the z coordinate of a plane point")?;
        self.expect_word(")", "')' to close a plane point")?;
        Ok(DVec3::new(x, y, z))
    }

    /// The projection and flags from a face's fields.
    fn projection(
        &self,
        texture: &Token,
        fields: &[Token],
    ) -> Result<(TextureProjection, Option<SurfaceFlags>), MapError> {
        let valve = fields.first().is_some_and(|t| self.lexer.is_word(t, "["));
        let base = if valve { VALVE_FIELDS } else { QUAKE_FIELDS };
        if fields.len() != base && fields.len() != base + FLAG_FIELDS {
            return Err(MapError::FaceFieldCount {
                at: self.lexer.location(fields.first().unwrap_or(texture)),
                count: fields.len(),
                texture: self.lexer.quote(texture),
            });
        }
        let projection = if valve {
            let bracket = |i: usize, word: &str, expected: &str| {
                if self.lexer.is_word(&fields[i], word) {
                    Ok(())
                } else {
                    Err(self.unexpected(&fields[i], expected))
                }
            };
            bracket(5, "]", "']' to close the texture's u axis")?;
            bracket(6, "[", "'[' to open the texture's v axis")?;
            bracket(11, "]", "']' to close the texture's v axis")?;
            let n = |i: usize, expected| self.number_of(&fields[i], expected);
            const AXIS: &str = "a texture axis component";
            TextureProjection::Valve220 {
                u_axis: DVec3::new(n(1, AXIS)?, n(2, AXIS)?, n(3, AXIS)?),
                u_offset: n(4, "the texture's u offset")?,
                v_axis: DVec3::new(n(7, AXIS)?, n(8, AXIS)?, n(9, AXIS)?),
                v_offset: n(10, "the texture's v offset")?,
                rotation: n(12, "the texture rotation")?,
                scale: [
                    n(13, "the texture's x scale")?,
                    n(14, "the texture's y scale")?,
                ],
            }
        } else {
            let n = |i: usize, expected| self.number_of(&fields[i], expected);
            TextureProjection::Standard {
                offset: [
                    n(0, "the texture's x offset")?,
                    n(1, "the texture's y offset")?,
                ],
                rotation: n(2, "the texture rotation")?,
                scale: [
                    n(3, "the texture's x scale")?,
                    n(4, "the texture's y scale")?,
                ],
            }
        };
        let flags = if fields.len() == base + FLAG_FIELDS {
            let int = |i: usize, expected| {
                // Two's complement: a negative i32 keeps its bits.
                Ok::<_, MapError>(self.integer_of(&fields[i], FLAG_RANGE, expected)? as u32)
            };
            Some(SurfaceFlags {
                contents: int(base, "the contents flags (a 32-bit integer)")?,
                surface: int(base + 1, "the surface flags (a 32-bit integer)")?,
                value: int(base + 2, "the surface value (a 32-bit integer)")? as i32,
            })
        } else {
            None
        };
        Ok((projection, flags))
    }
}
