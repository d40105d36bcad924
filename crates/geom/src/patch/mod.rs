//! Quake III curved surfaces: grids of biquadratic Bézier pieces (`patchDef2`), tessellated into
//! convex planar facets within a guaranteed error bound.
//!
//! A [`ControlGrid`] of `rows x columns` control points (both odd, at least 3) is a mesh of
//! `(rows - 1) / 2 x (columns - 1) / 2` biquadratic Bézier pieces that share their border rows
//! and columns (Quake III `cm_patch.c`, `CM_GeneratePatchCollide`, and the renderer's
//! `tr_curve.c`). [`tessellate`] turns a set of grids into [`Facet`]s:
//!
//! - **A tensor grid per patch.** Each piece is cut into cells by parameter values shared along
//!   its whole strip of pieces (every piece of a strip has the same cuts across it), as Quake III
//!   subdivides whole columns and rows of a patch: pieces of one patch meet vertex for vertex.
//! - **Adaptive, with a bound.** A cell is cut in half (across the direction that bends most)
//!   until its *error bound* is at most [`TessellationOptions::max_error`]: the control net of
//!   the cell (from the blossom of the piece) lies within `dev` of the bilinear patch of its four
//!   corners, and the two triangles of a non-planar cell lie within `twist / 4` of that bilinear
//!   patch (`twist = |c00 - c01 - c10 + c11|`), so by the convex hull property every point of the
//!   surface lies within `dev + twist / 4` of the point of the facets with the same parameters,
//!   and every point of the facets within that of the surface. Quake III's collision uses a
//!   flatness of 16 units (`SUBDIVIDE_DISTANCE`) measured on curve midpoints only; the default
//!   here is [`PATCH_ERROR`].
//! - **No cracks between patches.** Quake III subdivides each patch on its own, so two patches
//!   sharing an edge can be cut differently along it and leave cracks and T-junctions (players
//!   snag on and fall through such seams). Here every boundary curve of every piece (its three
//!   control points, in either direction) is matched against the other patches' curves; strips
//!   that share a curve are cut by the union of their cuts, so a curve shared by two patches gets
//!   the same vertices, bit for bit, in both (the vertices of a curve are computed from its own
//!   three control points, symmetrically in its direction). Curves are matched by exact
//!   coordinates after the weld below; a curve that meets another only in part (one patch's
//!   border spanning two pieces of its neighbour) is not matched.
//! - **Welded first.** Control points of different patches closer than
//!   [`PATCH_WELD`](crate::tolerance::PATCH_WELD) are made one point before anything else, so
//!   that edges written with an editor's float rounding are shared exactly; the facets' bounds
//!   include the move.
//! - **Degenerate input is handled.** Coincident corners of a cell are welded (within
//!   [`VERTEX_WELD`]) so a collapsed row or column gives triangles; a cell with no area left gives
//!   no facet and is counted ([`PatchTessellation::degenerate_cells`]).
//! - **Facets are convex planar polygons.** A cell whose four corners are coplanar (within
//!   [`FACET_PLANAR`]) and convex is one quadrilateral; otherwise two triangles, split along the
//!   diagonal whose triangles face the same way (the shorter one when both do).
//!
//! [`VERTEX_WELD`]: crate::tolerance::VERTEX_WELD
//! [`FACET_PLANAR`]: crate::tolerance::FACET_PLANAR

mod bezier;
mod facets;
mod piece;
mod strips;
#[cfg(test)]
mod tests;
mod weld;

use glam::DVec3;

pub use bezier::{CellBound, cell_bound, eval_curve, eval_piece};
pub use piece::{PatchPiece, PieceError, PieceFacet};

use crate::tolerance::{MAX_COORDINATE, MAX_PATCH_FACETS, PATCH_ERROR};

/// The deepest cut of a piece: a piece is cut into at most `2^MAX_LEVEL` cells along each
/// direction. At the default error bound no piece of the corpus goes past level 6; a smaller bound
/// (or a piece thousands of units across) may stop here above the bound, and the facets then
/// carry the bound actually reached ([`Facet::error_bound`]).
pub const MAX_LEVEL: u32 = 10;

/// Why a grid of control points is not a usable patch.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PatchError {
    /// A side is even or smaller than 3: biquadratic pieces need `2k + 1` control points a side.
    #[error(
        "patch is {rows} x {columns} control points; both sides must be odd and at least 3 \
         (biquadratic pieces share their border rows)"
    )]
    Size {
        /// Rows of control points.
        rows: usize,
        /// Control points per row.
        columns: usize,
    },
    /// The number of points is not `rows * columns`.
    #[error("patch of {rows} x {columns} control points has {found} points")]
    PointCount {
        /// Rows of control points.
        rows: usize,
        /// Control points per row.
        columns: usize,
        /// Points given.
        found: usize,
    },
    /// A control point has a NaN or infinite coordinate.
    #[error("control point (row {row}, column {column}) is not finite")]
    NonFinite {
        /// Its row (0-based).
        row: usize,
        /// Its column (0-based).
        column: usize,
    },
    /// A control point is beyond the world limit.
    #[error(
        "control point (row {row}, column {column}) reaches {} units from the origin, beyond the \
         limit of +-{} units",
        crate::domain::number(*reach),
        crate::domain::number(*limit)
    )]
    OutOfWorld {
        /// The largest coordinate of the point, in magnitude.
        reach: f64,
        /// Its row (0-based).
        row: usize,
        /// Its column (0-based).
        column: usize,
        /// The limit, in units.
        limit: f64,
    },
    /// An error bound that is not a positive finite number.
    #[error("the tessellation error bound must be a positive finite number of units, not {value}")]
    ErrorBound {
        /// The value given.
        value: f64,
    },
}

/// The control points of one patch: `rows` rows of `columns` points (Quake III writes a
/// `patchDef2` as `( W H 0 0 0 )` and `W` rows of `H` points).
#[derive(Debug, Clone, PartialEq)]
pub struct ControlGrid {
    rows: usize,
    columns: usize,
    points: Vec<DVec3>,
}

impl ControlGrid {
    /// A grid from its points, row after row. Both sides must be odd and at least 3, every
    /// point finite and within [`MAX_COORDINATE`] of the origin (the world's geometry,
    /// [`crate::domain`]).
    pub fn new(rows: usize, columns: usize, points: Vec<DVec3>) -> Result<ControlGrid, PatchError> {
        if rows < 3 || columns < 3 || rows.is_multiple_of(2) || columns.is_multiple_of(2) {
            return Err(PatchError::Size { rows, columns });
        }
        if rows.checked_mul(columns) != Some(points.len()) {
            return Err(PatchError::PointCount {
                rows,
                columns,
                found: points.len(),
            });
        }
        for (i, p) in points.iter().enumerate() {
            let (row, column) = (i / columns, i % columns);
            if !p.is_finite() {
                return Err(PatchError::NonFinite { row, column });
            }
            if p.abs().max_element() > MAX_COORDINATE {
                return Err(PatchError::OutOfWorld {
                    reach: p.abs().max_element(),
                    row,
                    column,
                    limit: MAX_COORDINATE,
                });
            }
        }
        Ok(ControlGrid {
            rows,
            columns,
            points,
        })
    }

    /// Rows of control points.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Control points per row.
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// The control points, row after row.
    pub fn points(&self) -> &[DVec3] {
        &self.points
    }

    /// The control point at `row`, `column` (both 0-based, in range).
    pub fn point(&self, row: usize, column: usize) -> DVec3 {
        self.points[row * self.columns + column]
    }

    /// Pieces across the rows and along them: `[(rows - 1) / 2, (columns - 1) / 2]`.
    pub fn pieces(&self) -> [usize; 2] {
        [(self.rows - 1) / 2, (self.columns - 1) / 2]
    }

    /// The 3 x 3 control net of piece `[i, j]`: `net[a][b]` is the point at row `2i + a`,
    /// column `2j + b`.
    pub fn piece(&self, piece: [usize; 2]) -> [[DVec3; 3]; 3] {
        let [i, j] = piece;
        std::array::from_fn(|a| std::array::from_fn(|b| self.point(2 * i + a, 2 * j + b)))
    }

    /// The surface point of piece `[i, j]` at parameters `s` (across rows) and `t` (along them),
    /// both in `[0, 1]`.
    pub fn surface_point(&self, piece: [usize; 2], s: f64, t: f64) -> DVec3 {
        eval_piece(&self.piece(piece), s, t)
    }
}

/// How finely patches are tessellated, and how many facets they may make.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TessellationOptions {
    max_error: f64,
    max_facets: usize,
}

impl TessellationOptions {
    /// Options with the given error bound, in units (positive and finite), and at most
    /// [`MAX_PATCH_FACETS`] facets.
    pub fn new(max_error: f64) -> Result<TessellationOptions, PatchError> {
        if max_error.is_finite() && max_error > 0.0 {
            Ok(TessellationOptions {
                max_error,
                max_facets: MAX_PATCH_FACETS,
            })
        } else {
            Err(PatchError::ErrorBound { value: max_error })
        }
    }

    /// The same with another facet budget (at most [`MAX_PATCH_FACETS`] is taken).
    pub fn with_max_facets(self, max_facets: usize) -> TessellationOptions {
        TessellationOptions {
            max_facets: max_facets.min(MAX_PATCH_FACETS),
            ..self
        }
    }

    /// The largest distance allowed between the surface and its facets, in units.
    pub fn max_error(&self) -> f64 {
        self.max_error
    }

    /// The most facets the patches may make together.
    pub fn max_facets(&self) -> usize {
        self.max_facets
    }
}

impl Default for TessellationOptions {
    /// [`PATCH_ERROR`] (see there for the choice) and [`MAX_PATCH_FACETS`].
    fn default() -> TessellationOptions {
        TessellationOptions {
            max_error: PATCH_ERROR,
            max_facets: MAX_PATCH_FACETS,
        }
    }
}

/// Patches whose subdivision within the error bound would make more facets than the budget
/// ([`TessellationOptions::max_facets`], at most [`MAX_PATCH_FACETS`]): refused before a facet
/// is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "patch subdivision within the error bound needs {facets} facets or more (patch {patch} the      most), beyond the limit of {limit} (tolerance::MAX_PATCH_FACETS is {max}); the control      points bend too sharply for their size: a wider error bound needs fewer",
    max = MAX_PATCH_FACETS
)]
pub struct FacetBudget {
    /// The index of the patch with the most cells when the count passed the budget.
    pub patch: usize,
    /// The facets counted then (two per cell): what the subdivision needs at the least.
    pub facets: usize,
    /// The budget.
    pub limit: usize,
}

/// One facet of a tessellated patch: a convex planar polygon (3 or 4 vertices), ready for
/// [`Brush::from_polygon`](crate::Brush::from_polygon).
#[derive(Debug, Clone, PartialEq)]
pub struct Facet {
    /// The vertices, in the order of the grid cell's corners (either winding is a facet: it is
    /// solid from both sides).
    pub vertices: Vec<DVec3>,
    /// The piece `[i, j]` of the patch it comes from.
    pub piece: [u32; 2],
    /// The cell's parameter ranges within its piece: `[[s0, s1], [t0, t1]]`.
    pub cell: [[f64; 2]; 2],
    /// The guaranteed bound on the distance, in units, between the surface over the cell and
    /// the cell's facets (both ways, point for point at equal parameters).
    pub error_bound: f64,
}

/// The facets of one patch, with what was found while making them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PatchTessellation {
    /// The facets, cell by cell, row after row.
    pub facets: Vec<Facet>,
    /// The vertex grid's size: `[rows, columns]` of vertices.
    pub grid: [usize; 2],
    /// The largest [`Facet::error_bound`] (0 without facets).
    pub error_bound: f64,
    /// Cells left without a facet: no area (collapsed rows or columns, coincident points).
    pub degenerate_cells: usize,
}

/// Tessellates `patches` together (so that patches sharing a boundary curve get the same
/// vertices on it), one [`PatchTessellation`] per patch, in order. Deterministic.
///
/// The facets are counted as the cuts are refined, before any is made: past
/// [`TessellationOptions::max_facets`] the patches are refused ([`FacetBudget`]), so neither
/// the memory nor the work grows beyond the budget whatever the control points.
pub fn tessellate(
    patches: &[ControlGrid],
    options: &TessellationOptions,
) -> Result<Vec<PatchTessellation>, FacetBudget> {
    let (welded, moved) = weld::weld(patches);
    let cuts = strips::refine(&welded, options.max_error, options.max_facets).map_err(
        |(patch, facets)| FacetBudget {
            patch,
            facets,
            limit: options.max_facets,
        },
    )?;
    Ok(welded
        .iter()
        .zip(moved)
        .enumerate()
        .map(|(p, (grid, moved))| {
            let mut tessellation = facets::facets_of(grid, &cuts.of_patch(p));
            if moved > 0.0 {
                // The welded surface is within `moved` of the written one.
                for facet in &mut tessellation.facets {
                    facet.error_bound += moved;
                }
                tessellation.error_bound += moved;
            }
            tessellation
        })
        .collect())
}

/// The largest distance, in units, from points of the surface to the facets of their cell,
/// over `samples x samples` points per cell (its corners and interior, evenly spaced): a
/// measurement of what [`Facet::error_bound`] bounds.
pub fn measured_error(grid: &ControlGrid, tessellation: &PatchTessellation, samples: usize) -> f64 {
    facets::measured_error(grid, tessellation, samples)
}
