//! What a `.map` file says, as written: entities with their key/value pairs, brushes of faces,
//! and patches.

use std::fmt;
use std::sync::Arc;

use cspace_geom::patch::{ControlGrid, PatchError};
use glam::DVec3;

/// A parsed `.map` file: its entities in file order (the first is normally `worldspawn`).
#[derive(Debug, Clone, PartialEq)]
pub struct MapFile {
    /// The display name given to [`MapFile::parse`]; it names the file in errors and in every
    /// brush's [`BrushSource`](cspace_geom::BrushSource).
    pub file: Arc<str>,
    /// The entities, in file order.
    pub entities: Vec<Entity>,
    /// How many face lines were written in each format.
    pub face_formats: FormatCounts,
}

impl MapFile {
    /// The formats of the face lines, in [`FaceFormat`] order, each listed once.
    pub fn formats(&self) -> Vec<FaceFormat> {
        self.face_formats.formats()
    }

    /// The number of brushes in all entities (patches not included).
    pub fn brush_count(&self) -> usize {
        self.entities.iter().map(|e| e.brushes.len()).sum()
    }

    /// The number of `patchDef2` patches in all entities.
    pub fn patch_count(&self) -> usize {
        self.entities.iter().map(|e| e.patches.len()).sum()
    }

    /// The number of brush faces (face lines) in all entities.
    pub fn face_count(&self) -> usize {
        self.entities
            .iter()
            .flat_map(|e| &e.brushes)
            .map(|b| b.faces.len())
            .sum()
    }
}

/// An entity: key/value pairs, brushes and patches.
#[derive(Debug, Clone, PartialEq)]
pub struct Entity {
    /// The key/value pairs in file order; a key may repeat (see [`Entity::get`]).
    pub properties: Vec<(String, String)>,
    /// The brushes, in file order; a brush's index here is its `brush` in
    /// [`BrushSource`](cspace_geom::BrushSource).
    pub brushes: Vec<MapBrush>,
    /// The `patchDef2` patches, in file order.
    pub patches: Vec<Patch>,
    /// The 1-based line of the entity's opening `{`.
    pub line: u32,
}

impl Entity {
    /// The value of `key`; when the key repeats, the last value wins, as in Quake's tools (qbsp's
    /// `ValueForKey` finds the pair parsed last).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.properties
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `classname`.
    pub fn classname(&self) -> Option<&str> {
        self.get("classname")
    }
}

/// A brush as written: its faces, three points and a texture each.
#[derive(Debug, Clone, PartialEq)]
pub struct MapBrush {
    /// The faces, in file order.
    pub faces: Vec<MapFace>,
    /// The 1-based line of the brush's opening `{`.
    pub line: u32,
}

/// One face line of a brush.
#[derive(Debug, Clone, PartialEq)]
pub struct MapFace {
    /// Three points on the face plane, as written. The outward normal is
    /// `(p0 - p1) x (p2 - p1)` (see [`Plane::from_map_points`](cspace_geom::Plane::from_map_points));
    /// the points need not be vertices of the brush.
    pub points: [DVec3; 3],
    /// The texture (Quake) or shader (Quake III) name, as written.
    pub texture: String,
    /// How the texture is projected.
    pub projection: TextureProjection,
    /// The Quake 2 / Quake III legacy `contents flags value` integers, when written.
    pub flags: Option<SurfaceFlags>,
    /// The 1-based line of the face's first `(`.
    pub line: u32,
    /// The 1-based column of the face's first `(`.
    pub column: u32,
}

impl MapFace {
    /// The format of this face line.
    pub fn format(&self) -> FaceFormat {
        match (&self.projection, self.flags.is_some()) {
            (TextureProjection::Standard { .. }, false) => FaceFormat::Quake,
            (TextureProjection::Standard { .. }, true) => FaceFormat::Quake2,
            (TextureProjection::Valve220 { .. }, false) => FaceFormat::Valve220,
            (TextureProjection::Valve220 { .. }, true) => FaceFormat::Valve220Quake2,
        }
    }
}

/// The texture projection of a face, in texels, degrees and texels per unit as written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TextureProjection {
    /// Quake standard: `xoff yoff rot xscale yscale`, axes chosen from the face normal.
    Standard {
        /// Texture offset `[x, y]`, in texels.
        offset: [f64; 2],
        /// Rotation, in degrees.
        rotation: f64,
        /// Scale `[x, y]` (may be negative: a mirrored texture).
        scale: [f64; 2],
    },
    /// Valve 220: `[ ux uy uz uoff ] [ vx vy vz voff ] rot xscale yscale`, explicit axes.
    Valve220 {
        /// The texture's u axis.
        u_axis: DVec3,
        /// Offset along u, in texels.
        u_offset: f64,
        /// The texture's v axis.
        v_axis: DVec3,
        /// Offset along v, in texels.
        v_offset: f64,
        /// Rotation, in degrees (informational: the axes already include it).
        rotation: f64,
        /// Scale `[x, y]`.
        scale: [f64; 2],
    },
}

/// The three integers that Quake 2 and Quake III legacy brushes add to a face line.
///
/// Quake 2 and Quake III agree on the bits used here: contents `CONTENTS_LAVA` 8,
/// `CONTENTS_SLIME` 16, `CONTENTS_WATER` 32, `CONTENTS_MIST`/`CONTENTS_FOG` 64,
/// `CONTENTS_PLAYERCLIP` 0x10000, `CONTENTS_ORIGIN` 0x1000000, `CONTENTS_DETAIL` 0x8000000; surface
/// flags `SURF_HINT` 0x100 and `SURF_SKIP` 0x200 (Q2 `qfiles.h`, Q3 `surfaceflags.h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SurfaceFlags {
    /// Contents bits (a negative number in the file is taken as its 32-bit two's complement).
    pub contents: u32,
    /// Surface flag bits (same rule).
    pub surface: u32,
    /// The value (light emission in Quake 2).
    pub value: i32,
}

/// The syntax of a face line, told apart by its fields after the texture name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FaceFormat {
    /// Quake standard: 5 fields.
    Quake,
    /// Valve 220: bracketed texture axes, 3 more fields.
    Valve220,
    /// Quake 2 standard, also Quake III legacy brushes: the Quake fields and `contents flags value`.
    Quake2,
    /// Valve 220 axes followed by `contents flags value` (TrenchBroom's Quake 2 Valve format).
    Valve220Quake2,
}

impl FaceFormat {
    /// Every format, in order.
    pub const ALL: [FaceFormat; 4] = [
        FaceFormat::Quake,
        FaceFormat::Valve220,
        FaceFormat::Quake2,
        FaceFormat::Valve220Quake2,
    ];

    /// A short stable name: `quake`, `valve220`, `quake2`, `valve220_quake2`.
    pub fn name(self) -> &'static str {
        match self {
            FaceFormat::Quake => "quake",
            FaceFormat::Valve220 => "valve220",
            FaceFormat::Quake2 => "quake2",
            FaceFormat::Valve220Quake2 => "valve220_quake2",
        }
    }
}

impl fmt::Display for FaceFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FaceFormat::Quake => "Quake standard",
            FaceFormat::Valve220 => "Valve 220",
            FaceFormat::Quake2 => "Quake 2 / Quake III legacy",
            FaceFormat::Valve220Quake2 => "Valve 220 with Quake 2 flags",
        })
    }
}

/// Face lines counted by format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FormatCounts {
    /// Quake standard face lines.
    pub quake: usize,
    /// Valve 220 face lines.
    pub valve220: usize,
    /// Quake 2 / Quake III legacy face lines.
    pub quake2: usize,
    /// Valve 220 face lines with Quake 2 flags.
    pub valve220_quake2: usize,
}

impl FormatCounts {
    /// The count for one format.
    pub fn get(&self, format: FaceFormat) -> usize {
        match format {
            FaceFormat::Quake => self.quake,
            FaceFormat::Valve220 => self.valve220,
            FaceFormat::Quake2 => self.quake2,
            FaceFormat::Valve220Quake2 => self.valve220_quake2,
        }
    }

    /// Adds one face line of `format`.
    pub fn add(&mut self, format: FaceFormat) {
        match format {
            FaceFormat::Quake => self.quake += 1,
            FaceFormat::Valve220 => self.valve220 += 1,
            FaceFormat::Quake2 => self.quake2 += 1,
            FaceFormat::Valve220Quake2 => self.valve220_quake2 += 1,
        }
    }

    /// The formats with at least one face line, in [`FaceFormat`] order.
    pub fn formats(&self) -> Vec<FaceFormat> {
        FaceFormat::ALL
            .into_iter()
            .filter(|&f| self.get(f) > 0)
            .collect()
    }
}

/// A Quake III `patchDef2` patch: a grid of control points of biquadratic Bézier pieces.
///
/// Parsed as written; its size is checked when the world is built
/// ([`build_world`](crate::build_world) tessellates it into facets, or skips it with a reason).
#[derive(Debug, Clone, PartialEq)]
pub struct Patch {
    /// The shader name.
    pub texture: String,
    /// The number of rows as written (the `W` of the header `( W H 0 0 0 )`).
    pub width: usize,
    /// The number of control points per row (the `H` of the header).
    pub height: usize,
    /// The control points, row after row: `width * height` of them.
    pub points: Vec<PatchPoint>,
    /// The 1-based line of the patch's opening `{` (the one before `patchDef2`).
    pub line: u32,
    /// The 1-based column of that `{`.
    pub column: u32,
    /// The 1-based line and column of the width in the size header `( W H 0 0 0 )`: where a
    /// patch of a bad size is reported.
    pub size_at: [u32; 2],
}

impl Patch {
    /// The control points as the tessellation takes them (`width` rows of `height` points),
    /// checked: both sides odd and at least 3, every point inside the world.
    pub fn control_grid(&self) -> Result<ControlGrid, PatchError> {
        ControlGrid::new(
            self.width,
            self.height,
            self.points.iter().map(|p| p.position).collect(),
        )
    }

    /// The control point in `row` (`< width`) at `index` (`< height`).
    pub fn point(&self, row: usize, index: usize) -> Option<&PatchPoint> {
        if row < self.width && index < self.height {
            self.points.get(row * self.height + index)
        } else {
            None
        }
    }
}

/// A patch control point: position and texture coordinates, `( x y z u v )`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PatchPoint {
    /// The position, in world units.
    pub position: DVec3,
    /// The texture coordinates `[u, v]`.
    pub tex_coords: [f64; 2],
}
