//! Named tolerances. Every epsilon in cspace lives here, with its unit and its reason.
//!
//! Worlds are in Quake units (1 unit ~ 1 inch) and span at most [`WORLD_HALF_EXTENT`] from the
//! origin; all tolerances below are absolute distances in those units, chosen for `f64`, whose
//! rounding error on coordinates of that size is below 1e-11 units.

/// Half the side of the cube every world must fit in, in units: 2^20.
///
/// Brush faces are computed by clipping a square of this half size on each plane (Golodetz
/// Listing 4 uses the same device for leaf cells), so a brush reaching beyond it is reported as
/// unbounded. Quake's own limit is +-4096 (Q1) or +-65536 (Q3), well inside.
pub const WORLD_HALF_EXTENT: f64 = 1_048_576.0;

/// Plane thickness, in units: a point closer than this to a plane is *on* it.
///
/// Used when classifying vertices and polygons against planes while building brushes and
/// compiling trees (qbsp's `ON_EPSILON`, which is 0.1 for `float`). For `f64` geometry within
/// [`WORLD_HALF_EXTENT`] the vertices of brushes with nearly parallel faces (the 362-sided disc of
/// `ericw_qbsp_many_sided_face.map`) carry errors near 1e-8, so the thickness is kept two orders
/// above that.
pub const PLANE_THICKNESS: f64 = 1e-6;

/// Contact tolerance, in units: how deep a point must be inside an expanded brush to count as in
/// solid. Touching, grazing and sliding along a surface are free.
///
/// It is far below [`PLANE_THICKNESS`] so that a point 1e-6 inside a face is solid, and far above
/// the rounding error of a plane evaluation (about 1e-12 at world scale), so that a point placed
/// exactly on a face is reliably free in every backend.
pub const CONTACT: f64 = 1e-9;

/// Default skin, in units: 1/32, Quake's `DIST_EPSILON`.
///
/// After a hit the mover is pulled back along the segment until it is this far from the hit
/// plane (measured along the plane's normal), so that the next trace never starts in solid.
pub const DEFAULT_SKIN: f64 = 1.0 / 32.0;

/// Two unit normals closer than this (in the maximum of their component differences) are the same
/// direction: used to merge duplicate planes and to keep bevel planes from duplicating face or
/// axial planes (the Source engine's duplicate-bevel bug).
pub const NORMAL_EQUAL: f64 = 1e-9;

/// Vertices closer than this, in units, are welded into one when a brush's boundary is built;
/// faces narrower than about twice this are edges. Brush vertices are exact plane crossings
/// whose copies on different faces differ by rounding only (below 1e-8 even for nearly parallel
/// faces), and no real brush feature is this small.
pub const VERTEX_WELD: f64 = 1e-6;

/// Onion compiler cut thickness, in units: a polygon vertex closer than this to a splitting plane
/// is on it when the onion BSP compiler classifies and splits polygons (a quarter of
/// [`CONTACT`]).
///
/// [`PLANE_THICKNESS`] is far too loose there: configuration-space faces a few 1e-9 apart are
/// different surfaces, and the tree must separate them for its answers to agree with the exact
/// backend at [`CONTACT`] scale.
pub const ONION_CUT: f64 = CONTACT / 4.0;

/// Plane merge tolerance, in units (and in normal components): two planes closer than this are
/// one plane of an onion BSP's deduplicated plane table. Well above the rounding of a plane
/// computed from `.map` points (about 1e-13 at world scale), well below [`ONION_CUT`].
pub const PLANE_MERGE: f64 = 1e-11;

/// How far back along the move a trace's start is nudged when a tree query finds a move that
/// starts free entirely in solid (Golodetz: rounding "when the source endpoint of the movement ray
/// is on an empty/solid boundary"), in units. Far above [`CONTACT`], far below the skin.
pub const START_NUDGE: f64 = 1e-6;

/// Guard band of a tree walk's one-side shortcut, in units: a stretch of a move farther than
/// this beyond a (shifted) plane's contact band along its whole length takes that side alone,
/// without the crossing times a straddling stretch needs. The shortcut gives the general case's
/// answer bit for bit (those times would change nothing); the band only has to cover the
/// rounding of the distances and times it stands in for (below 1e-9 within
/// [`WORLD_HALF_EXTENT`]).
pub const SIDE_GUARD: f64 = 1e-7;

/// Facet planarity, in units: the vertices of a flat brush (a patch facet,
/// [`Brush::from_polygon`](crate::Brush::from_polygon)) lie within this of their common plane,
/// and a cell of a patch's tessellation grid whose four corners do is one quadrilateral facet
/// (otherwise it is split into two triangles).
///
/// Equal to [`CONTACT`]: a facet's two faces are placed at its vertices' support both ways, so
/// the facet is a slab at most `2 * CONTACT` thick, which no point is ever deeper than [`CONTACT`]
/// inside (a facet has no interior, as Quake III's facets have none). Quake III's
/// `PLANE_TRI_EPSILON` (0.1 units, `cm_patch.c`) merges far more, at the cost of facets that leave
/// the surface they stand for.
pub const FACET_PLANAR: f64 = CONTACT;

/// Default error bound of patch tessellation, in units: every point of a Quake III curved
/// surface lies within this distance of the facets that stand for it, and every point of the
/// facets within this distance of the surface, at equal parameters ([`crate::patch`];
/// configurable with [`TessellationOptions`](crate::patch::TessellationOptions)).
///
/// Quake III's collision subdivides a patch until the midpoint of every row and column curve is
/// within 16 units of its chord (`SUBDIVIDE_DISTANCE`, `cm_patch.c`): a heuristic on curves,
/// not a bound on the surface, and coarse (pipes of chasm come out square). Its renderer's
/// default error is 4 units (`r_subdivisions`). Ours is that, as a guaranteed bound on the
/// surface itself, so that a collision surface is never further from the true curve than the
/// drawn one is allowed to be; on `unvanquished_chasm.map` the worst distance measured between
/// the surface and its facets is about half the bound (1.8 units), against 7.2 at a bound of 16.
/// Each halving of the bound doubles the facets (chasm: 12,528 facets at 4, 26,410 at 2) and
/// more than doubles the onion compile, whose CSG union grows with the overlaps of neighbouring
/// facets (`docs/patches.md`).
pub const PATCH_ERROR: f64 = 4.0;

/// Control-point weld of patch tessellation, in units: control points of patches closer than
/// this are made one point (the first met, in patch order) before tessellating, so that two
/// patches an editor meant to share an edge share it exactly ([`crate::patch`]).
///
/// Editors store patch coordinates as 32-bit floats and write them with their rounding: on
/// `unvanquished_chasm.map`, 72 of the 492 border curves shared by two patches differ by
/// 1.2e-4 units (`1843.9998779297` against `1844`). 1/1024 unit welds those and nothing a
/// mapper places on purpose (Quake III's own grid snapping is 1/8 unit); the surface moves by at
/// most this much, which each facet's error bound includes.
pub const PATCH_WELD: f64 = 1.0 / 1024.0;
