//! The curved surfaces behind a world's facets: each biquadratic piece with its facets and the
//! bound that ties them together, kept in the [`World`](crate::World) beside the facets' flat
//! brushes (for the k-UDOPs of `cspace-udop`, which bound the curve instead of its facets, and for
//! reports that measure the tessellation).

use glam::DVec3;

use super::{ControlGrid, Facet, eval_piece};
use crate::brush::{Brush, BrushId};

/// One facet of a [`PatchPiece`]: its brush in the world and its cell of the piece.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PieceFacet {
    /// The facet's flat brush.
    pub brush: BrushId,
    /// Its cell's parameter ranges within the piece: `[[s0, s1], [t0, t1]]` ([`Facet::cell`]).
    pub cell: [[f64; 2]; 2],
}

/// A biquadratic Bézier piece of a collidable patch and the facets it became.
///
/// Every point of every facet lies within [`PatchPiece::error_bound`] of the point of the
/// surface with the same parameters ([`Facet::error_bound`]: the convex hull bound of the
/// tessellation, plus the weld's move), so a bound on the surface grown by `error_bound` is a
/// bound on the facets.
#[derive(Debug, Clone, PartialEq)]
pub struct PatchPiece {
    /// The 3 x 3 control net as the map wrote it (before the weld): `net[a][b]` is row `a`
    /// (parameter `s`), column `b` (parameter `t`), as [`ControlGrid::piece`] gives it.
    pub net: [[DVec3; 3]; 3],
    /// The largest [`Facet::error_bound`] of its facets, in units.
    pub error_bound: f64,
    /// Its facets, in tessellation order (never empty).
    pub facets: Vec<PieceFacet>,
}

impl PatchPiece {
    /// The surface point at parameters `(s, t)` in `[0, 1]^2`.
    pub fn point(&self, s: f64, t: f64) -> DVec3 {
        eval_piece(&self.net, s, t)
    }

    /// The largest distance measured from points of the surface to the facets of their cell,
    /// the facets' brushes looked up by `brush` (in the world holding this piece's facets:
    /// [`World::piece_error`](crate::World::piece_error)): `samples x samples` points per cell, as
    /// [`measured_error`](super::measured_error) measures a tessellation. At most
    /// [`PatchPiece::error_bound`]; a cell with a facet `brush` does not know is left out.
    pub fn measured_error<'w>(
        &self,
        brush: impl Fn(BrushId) -> Option<&'w Brush>,
        samples: usize,
    ) -> f64 {
        let mut worst: f64 = 0.0;
        let mut start = 0;
        while start < self.facets.len() {
            // The facets of one cell are consecutive.
            let cell = self.facets[start].cell;
            let end = start
                + self.facets[start..]
                    .iter()
                    .take_while(|f| f.cell == cell)
                    .count();
            let group = &self.facets[start..end];
            let brushes: Option<Vec<&Brush>> = group.iter().map(|f| brush(f.brush)).collect();
            if let Some(brushes) = brushes {
                worst = worst.max(super::facets::cell_error(
                    &self.net,
                    cell,
                    brushes.into_iter(),
                    samples,
                ));
            }
            start = end;
        }
        worst
    }

    /// The pieces of one tessellated patch: `facets` pairs each facet of the patch's
    /// tessellation (made from `grid`) with the brush it became. Pieces in row-major order of
    /// `[i, j]`; a piece with no facet (every cell degenerate) is left out.
    pub fn of_patch<'a>(
        grid: &ControlGrid,
        facets: impl IntoIterator<Item = (BrushId, &'a Facet)>,
    ) -> Vec<PatchPiece> {
        let [rows, columns] = grid.pieces();
        let mut pieces: Vec<Option<PatchPiece>> = vec![None; rows * columns];
        for (brush, facet) in facets {
            let [i, j] = facet.piece.map(|x| x as usize);
            if i >= rows || j >= columns {
                continue;
            }
            let piece = pieces[i * columns + j].get_or_insert_with(|| PatchPiece {
                net: grid.piece([i, j]),
                error_bound: 0.0,
                facets: Vec::new(),
            });
            piece.error_bound = piece.error_bound.max(facet.error_bound);
            piece.facets.push(PieceFacet {
                brush,
                cell: facet.cell,
            });
        }
        pieces.into_iter().flatten().collect()
    }
}

/// Why pieces do not fit a world.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PieceError {
    /// A piece names a brush the world does not have.
    #[error("patch piece {piece} names brush {brush}, beyond the world's {brushes} brushes")]
    UnknownBrush {
        /// The piece's index.
        piece: usize,
        /// The brush named.
        brush: BrushId,
        /// The world's brush count.
        brushes: usize,
    },
    /// A piece names a brush that is not a flat brush (a facet).
    #[error("patch piece {piece} names brush {brush}, which is not a facet")]
    NotAFacet {
        /// The piece's index.
        piece: usize,
        /// The brush named.
        brush: BrushId,
    },
    /// Two pieces (or one, twice) name the same facet.
    #[error("patch piece {piece} names facet {brush}, already a facet of piece {other}")]
    SharedFacet {
        /// The piece's index.
        piece: usize,
        /// The facet.
        brush: BrushId,
        /// The piece that named it first.
        other: usize,
    },
    /// A piece without facets, a non-finite control point or error bound.
    #[error("patch piece {piece} is not a piece: {what}")]
    Malformed {
        /// The piece's index.
        piece: usize,
        /// What is wrong.
        what: &'static str,
    },
}
