//! The static world: brushes with ids, where they came from, and a spatial index.

use std::fmt;
use std::sync::Arc;

use glam::DVec3;

use crate::aabb::Aabb;
use crate::aabb_tree::AabbTree;
use crate::brush::Brush;
pub use crate::brush::BrushId;
use crate::patch::{PatchPiece, PieceError};
use crate::shape::Shape;
use crate::tolerance::SURFACE_SEARCH;

/// What an agent collides with in a brush.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Contents {
    /// Ordinary solid: walls, floors, sky, detail, closed doors.
    Solid,
    /// Invisible clip: blocks agents only (Quake's `clip`, Quake III's `common/playerclip`).
    Clip,
}

/// Where a brush came from, for error messages and reports.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BrushSource {
    /// The file it was read from, when there is one.
    pub file: Option<Arc<str>>,
    /// The 1-based line where the brush starts (0 when unknown).
    pub line: u32,
    /// The index of its entity in the file (0 is worldspawn).
    pub entity: u32,
    /// The index of the brush within its entity; for a patch facet, the index of the patch
    /// within its entity (patches are counted apart from brushes).
    pub brush: u32,
    /// Set for a facet of a tessellated patch ([`crate::patch`]): which facet of the patch
    /// `brush` it is; `line` is then the patch's line.
    pub facet: Option<u32>,
}

impl fmt::Display for BrushSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}:{}: ", self.line)?;
        }
        match self.facet {
            Some(facet) => write!(
                f,
                "entity {} patch {} facet {facet}",
                self.entity, self.brush
            ),
            None => write!(f, "entity {} brush {}", self.entity, self.brush),
        }
    }
}

/// A brush of the world with its provenance.
#[derive(Debug, Clone, PartialEq)]
pub struct WorldBrush {
    /// The geometry.
    pub brush: Brush,
    /// What it blocks.
    pub contents: Contents,
    /// Where it came from.
    pub source: BrushSource,
}

/// The static, brush-built world every backend answers for.
///
/// Brushes keep their order; [`BrushId`] is the index. All brushes block agents (non-solid
/// brushes never enter a `World`).
///
/// A world made from a map with patches also keeps the curved pieces its facets come from
/// ([`World::with_patch_pieces`]); no backend reads them (they collide with the facets), but a
/// bound on a piece grown by its error bound is a bound on its facets.
#[derive(Debug, Clone, Default)]
pub struct World {
    brushes: Vec<WorldBrush>,
    index: AabbTree,
    pieces: Vec<PatchPiece>,
    /// Per brush, the index of the piece it is a facet of (`u32::MAX`: none); empty when the
    /// world has no pieces.
    facet_piece: Vec<u32>,
}

impl World {
    /// A fingerprint of the collision geometry: FNV-1a over every brush's face planes (the
    /// bits of normal and distance), in brush order. Trees saved from a world remember it, so a
    /// tree is never used with another world.
    pub fn fingerprint(&self) -> u64 {
        let mut bytes = Vec::with_capacity(self.brushes().len() * 6 * 32 + 8);
        bytes.extend_from_slice(&(self.brushes().len() as u64).to_le_bytes());
        for wb in self.brushes() {
            bytes.extend_from_slice(&(wb.brush.faces().len() as u64).to_le_bytes());
            for face in wb.brush.faces() {
                let (n, d) = (face.plane.normal(), face.plane.dist());
                for x in [n.x, n.y, n.z, d] {
                    bytes.extend_from_slice(&x.to_bits().to_le_bytes());
                }
            }
        }
        fnv1a64(&bytes)
    }

    /// A world from its brushes.
    pub fn new(brushes: Vec<WorldBrush>) -> World {
        let boxes: Vec<Aabb> = brushes.iter().map(|b| b.brush.bounds()).collect();
        World {
            index: AabbTree::new(&boxes),
            brushes,
            pieces: Vec::new(),
            facet_piece: Vec::new(),
        }
    }

    /// The same world with the curved pieces its facets come from (replacing any it had). Each
    /// piece must name facets of this world (flat brushes), none named twice; the brushes, their
    /// ids and the [`World::fingerprint`] do not change.
    pub fn with_patch_pieces(mut self, pieces: Vec<PatchPiece>) -> Result<World, PieceError> {
        let mut facet_piece = vec![u32::MAX; if pieces.is_empty() { 0 } else { self.len() }];
        for (p, piece) in pieces.iter().enumerate() {
            let malformed = |what| PieceError::Malformed { piece: p, what };
            if piece.facets.is_empty() {
                return Err(malformed("it has no facet"));
            }
            if !piece.net.iter().flatten().all(|x| x.is_finite()) {
                return Err(malformed("a control point is not finite"));
            }
            if !(piece.error_bound.is_finite() && piece.error_bound >= 0.0) {
                return Err(malformed("its error bound is not a finite number >= 0"));
            }
            for facet in &piece.facets {
                let brush = facet.brush;
                let Some(slot) = facet_piece.get_mut(brush.0 as usize) else {
                    return Err(PieceError::UnknownBrush {
                        piece: p,
                        brush,
                        brushes: self.brushes.len(),
                    });
                };
                if !self.brushes[brush.0 as usize].brush.is_flat() {
                    return Err(PieceError::NotAFacet { piece: p, brush });
                }
                if *slot != u32::MAX {
                    return Err(PieceError::SharedFacet {
                        piece: p,
                        brush,
                        other: *slot as usize,
                    });
                }
                *slot = p as u32;
            }
        }
        self.pieces = pieces;
        self.facet_piece = facet_piece;
        Ok(self)
    }

    /// The curved pieces behind the world's facets (empty for a world of brushes only, or one
    /// built without them).
    pub fn patch_pieces(&self) -> &[PatchPiece] {
        &self.pieces
    }

    /// The index in [`World::patch_pieces`] of the piece brush `id` is a facet of, if any.
    pub fn facet_piece(&self, id: BrushId) -> Option<usize> {
        self.facet_piece
            .get(id.0 as usize)
            .filter(|&&p| p != u32::MAX)
            .map(|&p| p as usize)
    }

    /// A world of bare brushes, solid, with no provenance (handy in tests and benchmarks).
    pub fn from_brushes(brushes: impl IntoIterator<Item = Brush>) -> World {
        World::new(
            brushes
                .into_iter()
                .enumerate()
                .map(|(i, brush)| WorldBrush {
                    brush,
                    contents: Contents::Solid,
                    source: BrushSource {
                        brush: i as u32,
                        ..BrushSource::default()
                    },
                })
                .collect(),
        )
    }

    /// All brushes, in id order.
    pub fn brushes(&self) -> &[WorldBrush] {
        &self.brushes
    }

    /// The brush with this id.
    pub fn brush(&self, id: BrushId) -> &WorldBrush {
        &self.brushes[id.0 as usize]
    }

    /// [`PatchPiece::measured_error`] of a piece whose facets are brushes of this world.
    pub fn piece_error(&self, piece: &PatchPiece, samples: usize) -> f64 {
        piece.measured_error(
            |id| self.brushes.get(id.0 as usize).map(|b| &b.brush),
            samples,
        )
    }

    /// The number of brushes.
    pub fn len(&self) -> usize {
        self.brushes.len()
    }

    /// True when there is no brush.
    pub fn is_empty(&self) -> bool {
        self.brushes.is_empty()
    }

    /// Bytes the world occupies: its brushes (geometry and provenance, not the shared file
    /// names) and its spatial index, for memory reports.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<World>()
            + (self.brushes.capacity() - self.brushes.len()) * std::mem::size_of::<WorldBrush>()
            + self
                .brushes
                .iter()
                .map(|b| {
                    b.brush.memory_bytes() + std::mem::size_of::<WorldBrush>()
                        - std::mem::size_of::<Brush>()
                })
                .sum::<usize>()
            + self.index.memory_bytes()
            + self
                .pieces
                .iter()
                .map(|p| {
                    std::mem::size_of::<PatchPiece>()
                        + p.facets.capacity() * std::mem::size_of::<crate::patch::PieceFacet>()
                })
                .sum::<usize>()
            + self.facet_piece.capacity() * std::mem::size_of::<u32>()
    }

    /// The number of nodes of the spatial index over the brushes' bounds.
    pub fn index_node_count(&self) -> usize {
        self.index.node_count()
    }

    /// The bounds of all brushes (empty for an empty world).
    pub fn bounds(&self) -> Aabb {
        self.index.bounds()
    }

    /// Calls `visit` with every brush whose bounds intersect `query`.
    pub fn for_each_overlapping(&self, query: &Aabb, mut visit: impl FnMut(BrushId)) {
        self.index
            .for_each_overlapping(query, |i| visit(BrushId(i)));
    }

    /// Calls `visit` with every brush whose bounds a shape with bounds `shape_bounds` (relative
    /// to its origin) may touch while its origin moves from `start` to `end`.
    pub fn for_each_along(
        &self,
        start: DVec3,
        end: DVec3,
        shape_bounds: &Aabb,
        mut visit: impl FnMut(BrushId),
    ) {
        self.index
            .for_each_along(start, end, shape_bounds, |i| visit(BrushId(i)));
    }

    /// Which brush a shape touches, and where, given the shape's position at the time of impact
    /// and the configuration-space normal of the hit plane (pointing towards the shape).
    ///
    /// For backends that find the hit plane without knowing the brush (the onion and Melax
    /// trees). Among the brushes that reach the world plane the shape touches (their support
    /// along `normal` equals the plane's distance within `tolerance` units), the one closest to
    /// the shape's touching point wins; ties go to the lower id. Returns the brush and the contact
    /// point on its surface (as [`crate::ExactCollider`] reports it).
    pub fn find_contact(
        &self,
        shape: &Shape,
        position: DVec3,
        normal: DVec3,
        tolerance: f64,
    ) -> Option<(BrushId, DVec3)> {
        // The world plane the shape touches: n . x = n . position - offset.
        let world_dist = normal.dot(position) - shape.plane_offset(normal);
        let on_shape = position + shape.support_point(-normal);
        let query = shape
            .bounds()
            .translated(position)
            .loosened(tolerance + SURFACE_SEARCH);
        let mut best: Option<(f64, BrushId, DVec3)> = None;
        self.for_each_overlapping(&query, |id| {
            let brush = &self.brush(id).brush;
            // The brush reaches the plane from behind: its support along the normal is the plane.
            if (brush.support(normal) - world_dist).abs() > tolerance {
                return;
            }
            let point = brush.closest_point(on_shape);
            let distance = point.distance(on_shape);
            if best.is_none_or(|(d, b, _)| distance < d || (distance == d && id < b)) {
                best = Some((distance, id, point));
            }
        });
        best.map(|(_, id, point)| (id, point))
    }
}

/// FNV-1a, 64 bits: a small, stable (never seeded) hash for checksums and fingerprints of saved
/// files.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash = Fnv1a64::new();
    hash.write(bytes);
    hash.finish()
}

/// [`fnv1a64`] fed piece by piece, without gathering the bytes first: the same hash of the
/// same bytes however they are cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fnv1a64(u64);

impl Fnv1a64 {
    /// The hash of no bytes.
    pub fn new() -> Fnv1a64 {
        Fnv1a64(0xcbf2_9ce4_8422_2325)
    }

    /// Feeds `bytes`.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// The hash of every byte fed.
    pub fn finish(self) -> u64 {
        self.0
    }
}

impl Default for Fnv1a64 {
    fn default() -> Fnv1a64 {
        Fnv1a64::new()
    }
}

/// A compiled structure (an onion or Melax tree) used with a world it was not built from: it
/// answers for its own world only, which it remembers by [`World::fingerprint`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "the tree was compiled from another world (tree {tree:#018x}, world {world:#018x}); compile it for this one"
)]
pub struct WorldMismatch {
    /// The fingerprint the tree remembers.
    pub tree: u64,
    /// The fingerprint of the world given.
    pub world: u64,
}
