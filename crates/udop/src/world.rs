//! Algorithm 1 over the brushes of a [`World`] near a point, with a cap that keeps the
//! restriction to nearby brushes conservative.

use std::sync::Arc;

use cspace_geom::patch::PatchPiece;
use cspace_geom::tolerance::{PATCH_WELD, PLANE_THICKNESS};
use cspace_geom::{Aabb, BrushId, World};
use glam::DVec3;

use crate::directions::Directions;
use crate::geometry::{BiquadraticPatch, Inflated};
use crate::udop::Udop;
use cspace_geom::tolerance::VERTEX_SLACK;

/// How far brushes are grown before they are inserted, in units: [`PLANE_THICKNESS`].
///
/// Section 3 reads a brush's distance off its vertices, which are plane crossings with rounding
/// errors up to about 1e-8 units (`tolerance::PLANE_THICKNESS` documents it); the exact backend
/// reads solidity off the planes. Growing every brush by 1e-6 puts the plane-defined brush
/// inside the grown vertex hull, so a k-UDOP never overlaps solid by even the rounding.
pub const BRUSH_GUARD: f64 = PLANE_THICKNESS;

/// Slack added to the spatial query's box, in units: twice [`BRUSH_GUARD`], for the same
/// rounding of brush bounds.
pub const QUERY_SLACK: f64 = 2.0 * PLANE_THICKNESS;

/// How far a patch piece's surface bound is lowered before it stands for the piece's facets, in
/// units: [`PATCH_WELD`] plus [`BRUSH_GUARD`].
///
/// Every facet vertex is a point of the surface of the piece's welded net, whose control points
/// moved at most `PATCH_WELD` (so every point of its surface did), and a facet is the hull of its
/// vertices; its flat brush then carries the rounding `BRUSH_GUARD` absorbs for every brush (as
/// does the net of a part halved from the piece, whose rounding is far smaller). No error bound
/// of the tessellation enters: a facet lies in the hull of the surface points at its corners.
pub const PIECE_GUARD: f64 = PATCH_WELD + BRUSH_GUARD;

/// What Algorithm 1 inserts for the facets of a patch.
///
/// Both are conservative. Measured (`docs/udop.md`, "Next to patches"): in
/// `unvanquished_chasm.map` the two skip the same share of moves near patches (53.6% and 53.8%)
/// and the curves build a 26-UDOP there in 48 us against 59 us; in the generated patch world,
/// whose random sheets, pipes and cones crowd together, the facets build in 19 us against 32 us.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PatchBound {
    /// Each piece with a facet near the centre once, by its Bézier surface (Section 3.3 on the
    /// piece's rows and columns, `geometry::BiquadraticPatch`) lowered by [`PIECE_GUARD`], a
    /// piece near the centre in parts ([`PIECE_HALVINGS`]). The k-UDOP then holds no point of
    /// the curved surface either; a piece far from the centre is one insertion instead of one
    /// per facet, and its control points usually show it beyond a side at once.
    #[default]
    Curves,
    /// Each facet near the centre as the flat brush it is, like any brush.
    Facets,
}

/// A builder's scratch: the brushes near a centre (sorted) and the patch pieces inserted.
#[derive(Debug, Clone, Default)]
pub struct BuildScratch {
    brushes: Vec<(f64, BrushId)>,
    /// The pieces inserted, sorted.
    pieces: Vec<u32>,
}

/// How many times a patch piece near a k-UDOP's centre may be halved before it is inserted
/// ([`PatchBound::Curves`]): up to 2^4 parts.
pub const PIECE_HALVINGS: u32 = 4;

/// Inserts the part `part` (parameters `range` of `piece`) into `udop`, halved first while it is
/// nearer to the centre than it is wide and a halving falls between cells of the tessellation.
///
/// Algorithm 1 moves one side in until all of a geometry lies beyond it: a piece curving around
/// the centre would pull that side in to the piece's nearest point along it, far nearer than
/// the sides its facets take. Parts fit closer. A part is cut only where the tessellation's
/// cells are (no facet's cell straddles the cut), so every facet lies in one part, whose surface
/// holds the facet's vertices (cell corners): one side leaves the whole facet beyond it.
fn insert_part(
    udop: &mut Udop<DVec3>,
    piece: &PatchPiece,
    part: BiquadraticPatch<DVec3>,
    range: [[f64; 2]; 2],
    level: u32,
) {
    let bounds = Aabb::from_points(part.net.iter().flatten().copied());
    let centre = udop.centre();
    let gap = (bounds.min - centre)
        .max(centre - bounds.max)
        .max(DVec3::ZERO);
    if level < PIECE_HALVINGS && gap.length() < bounds.size().length() {
        // The longer parameter direction first (measured on the net's middle row and column).
        let across_rows_first =
            part.net[0][1].distance(part.net[2][1]) >= part.net[1][0].distance(part.net[1][2]);
        for across_rows in [across_rows_first, !across_rows_first] {
            let k = if across_rows { 0 } else { 1 };
            let [a, b] = range[k];
            let cut = (a + b) * 0.5;
            if piece
                .facets
                .iter()
                .any(|f| f.cell[k][0] < cut && cut < f.cell[k][1])
            {
                continue;
            }
            let (first, second) = part.halves(across_rows);
            let (mut low, mut high) = (range, range);
            low[k][1] = cut;
            high[k][0] = cut;
            insert_part(udop, piece, first, low, level + 1);
            insert_part(udop, piece, second, high, level + 1);
            return;
        }
    }
    udop.insert(&Inflated {
        geometry: &part,
        margin: PIECE_GUARD,
    });
}

/// Why a builder cannot be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum UdopBuilderError {
    /// The cap radius must be positive and finite.
    #[error("the k-UDOP cap radius must be positive and finite, got {0}")]
    Radius(f64),
}

/// The order in which Algorithm 1 visits the nearby brushes (its result depends on the order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BuildOrder {
    /// Nearest first by the distance from the centre to each brush's bounding box, ties by id:
    /// near brushes take the sides first, so far ones are usually already outside.
    #[default]
    Nearest,
    /// By brush id.
    Id,
}

/// Builds k-UDOPs from the brushes of a [`World`] within a cap around the centre.
///
/// # The cap keeps the k-UDOP conservative
///
/// Let `R` be the cap radius, `Q = c + [-R, R]^3` the cube around the centre and
/// `h_i^0 = R ||v_i||_1` the support of `Q - c` along `v_i`. Algorithm 1 starts from the
/// bounding k-DOP of the cube, `P^0 = {x : (x - c) . v_i < h_i^0}` ([`Udop::capped`]), and
/// `B = c + [-R e, R e]` is the bounding box of `P^0`, with `e` =
/// [`Directions::cube_hull_extent`] (finite because the directions positively span). The spatial
/// index returns every brush whose bounds meet `B` (grown by [`QUERY_SLACK`]), and those are
/// inserted (each grown by [`BRUSH_GUARD`]).
///
/// Claim: the resulting region `P` meets no brush of the world.
///
/// 1. Algorithm 1 only ever lowers an `h_i` ([`Udop::insert`]), so `P` is a subset of `P^0`,
///    which is a subset of `B`.
/// 2. A brush the index did not return has bounds disjoint from `B`, so the brush (inside its
///    bounds) is disjoint from `B`, hence from `P`.
/// 3. A brush `g` that was inserted was left, by its insertion, beyond some side:
///    `(x - c) . v_m >= h_m` for all `x` in `g`. Later insertions only lower `h_m`, so this
///    stays true, and `g` is disjoint from the open region `P`. A patch facet whose piece was
///    inserted instead ([`PatchBound::Curves`]) lies beyond the side that left the piece's
///    surface, lowered by [`PIECE_GUARD`], beyond: the facet lies in that half-space.
///
/// With the six axis directions in the set (every standard set), `P^0` is the cube itself and
/// `B = Q`: all `h_i <= R` along the axes holds the polytope inside the cube of half side `R`.
/// Without them, `B` is larger than `Q`; the covering angle `theta` of the set
/// ([`Directions::covering_angle`]) bounds it: `P^0` lies in the ball of radius
/// `max_i h_i^0 / cos(theta) <= sqrt(3) R / cos(theta)`. The cap never cuts into the cube `Q`
/// itself, since `Q` is inside `P^0`.
///
/// A centre inside or touching a brush gives a side at or below zero: a degenerate k-UDOP that
/// does not contain its centre ([`Udop::contains_centre`]), never a wrong one.
#[derive(Debug, Clone)]
pub struct UdopBuilder {
    directions: Arc<Directions<DVec3>>,
    radius: f64,
    order: BuildOrder,
    patches: PatchBound,
    query_half: DVec3,
    scratch: BuildScratch,
}

impl UdopBuilder {
    /// A builder over `directions` with cap radius `radius` (units).
    pub fn new(
        directions: Arc<Directions<DVec3>>,
        radius: f64,
    ) -> Result<UdopBuilder, UdopBuilderError> {
        if !(radius.is_finite() && radius > 0.0) {
            return Err(UdopBuilderError::Radius(radius));
        }
        // The computed extent carries rounding: widen it by a relative 1e-9.
        let query_half = directions.cube_hull_extent() * (radius * (1.0 + VERTEX_SLACK))
            + DVec3::splat(QUERY_SLACK);
        Ok(UdopBuilder {
            directions,
            radius,
            order: BuildOrder::default(),
            patches: PatchBound::default(),
            query_half,
            scratch: BuildScratch::default(),
        })
    }

    /// The same builder visiting brushes in `order`.
    pub fn with_order(self, order: BuildOrder) -> UdopBuilder {
        UdopBuilder { order, ..self }
    }

    /// The same builder bounding patch facets as `patches` says.
    pub fn with_patches(self, patches: PatchBound) -> UdopBuilder {
        UdopBuilder { patches, ..self }
    }

    /// What the builder inserts for patch facets.
    pub fn patches(&self) -> PatchBound {
        self.patches
    }

    /// The direction set.
    pub fn directions(&self) -> &Arc<Directions<DVec3>> {
        &self.directions
    }

    /// The cap radius, in units.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// The order brushes are visited in.
    pub fn order(&self) -> BuildOrder {
        self.order
    }

    /// The box the spatial index is asked about for a k-UDOP centred at `centre` (`B` above,
    /// grown by [`QUERY_SLACK`]).
    pub fn query_box(&self, centre: DVec3) -> Aabb {
        Aabb::new(centre - self.query_half, centre + self.query_half)
    }

    /// Algorithm 1 at `centre` over the brushes of `world` near it (see the type's docs).
    pub fn build(&mut self, world: &World, centre: DVec3) -> Udop<DVec3> {
        let mut scratch = std::mem::take(&mut self.scratch);
        let udop = self.build_with(&mut scratch, world, centre);
        self.scratch = scratch;
        udop
    }

    /// [`UdopBuilder::build`] with the caller's scratch, for a builder shared between threads.
    pub fn build_with(
        &self,
        scratch: &mut BuildScratch,
        world: &World,
        centre: DVec3,
    ) -> Udop<DVec3> {
        self.gather(scratch, world, centre);
        self.insert_gathered(scratch, world, centre, &[])
    }

    /// Algorithm 1 at `centre` twice over the same nearby brushes: over all of them, and over
    /// all but the `near` nearest plain brushes whose bounds come within `reach` units of the
    /// centre (patch facets stay in when the builder inserts their pieces: leaving one facet out
    /// would not move the piece's side). Returns the two k-UDOPs and the brushes left out of the
    /// second, sorted by id, into `left_out`.
    ///
    /// The second region meets no brush but those left out (the type's claim, for the brushes
    /// inserted): a move whose swept shape it holds can meet only them, which is what
    /// [`cspace_geom::Collider::trace_among`] asks of its caller.
    pub fn build_pair(
        &self,
        scratch: &mut BuildScratch,
        world: &World,
        centre: DVec3,
        near: usize,
        reach: f64,
        left_out: &mut Vec<BrushId>,
    ) -> (Udop<DVec3>, Udop<DVec3>) {
        self.gather(scratch, world, centre);
        let all = self.insert_gathered(scratch, world, centre, &[]);
        left_out.clear();
        let reach_squared = reach * reach;
        left_out.extend(
            scratch
                .brushes
                .iter()
                .filter(|&&(gap, id)| {
                    gap <= reach_squared
                        && (self.patches == PatchBound::Facets || world.facet_piece(id).is_none())
                })
                .take(near)
                .map(|&(_, id)| id),
        );
        left_out.sort_unstable();
        let rest = self.insert_gathered(scratch, world, centre, left_out);
        (all, rest)
    }

    /// The brushes whose bounds meet the query box around `centre`, into `scratch.brushes`,
    /// sorted as [`BuildOrder`] says, each with the square of its bounds' distance from the
    /// centre (0 in the [`BuildOrder::Id`] order).
    fn gather(&self, scratch: &mut BuildScratch, world: &World, centre: DVec3) {
        let query = self.query_box(centre);
        let brushes = &mut scratch.brushes;
        brushes.clear();
        let order = self.order;
        world.for_each_overlapping(&query, |id| {
            let key = match order {
                BuildOrder::Nearest => {
                    let bounds = world.brush(id).brush.bounds();
                    let gap = (bounds.min - centre)
                        .max(centre - bounds.max)
                        .max(DVec3::ZERO);
                    gap.dot(gap)
                }
                BuildOrder::Id => 0.0,
            };
            brushes.push((key, id));
        });
        brushes.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    }

    /// Algorithm 1 at `centre` over the gathered brushes but those in `skip`.
    fn insert_gathered(
        &self,
        scratch: &mut BuildScratch,
        world: &World,
        centre: DVec3,
        skip: &[BrushId],
    ) -> Udop<DVec3> {
        let mut udop = Udop::capped(self.directions.clone(), centre, self.radius);
        let BuildScratch { brushes, pieces } = scratch;
        pieces.clear();
        for &(_, id) in brushes.iter() {
            if skip.contains(&id) {
                continue;
            }
            let piece = match self.patches {
                PatchBound::Curves => world.facet_piece(id),
                PatchBound::Facets => None,
            };
            match piece {
                Some(piece) => {
                    // Each piece once, where its nearest facet comes.
                    let key = piece as u32;
                    if let Err(at) = pieces.binary_search(&key) {
                        pieces.insert(at, key);
                        let piece = &world.patch_pieces()[piece];
                        let whole = BiquadraticPatch { net: piece.net };
                        insert_part(&mut udop, piece, whole, [[0.0, 1.0], [0.0, 1.0]], 0);
                    }
                }
                None => {
                    udop.insert(&Inflated {
                        geometry: &world.brush(id).brush,
                        margin: BRUSH_GUARD,
                    });
                }
            }
        }
        udop
    }
}
