//! Named tolerances. Every epsilon in cspace lives here, with its unit and its reason.
//!
//! Worlds are in Quake units (1 unit ~ 1 inch) and lie within [`MAX_COORDINATE`] of the origin;
//! everything computed from them lies within [`WORLD_HALF_EXTENT`]. The tolerances below are
//! absolute distances in those units, chosen for `f64`, whose spacing at 2^20 is 2.3e-10 units.
//! The limits of the numeric domain (largest coordinate, shape, speed, acceleration and time
//! step) are here too; [`crate::domain`] checks them.

/// Half the side of the cube everything cspace computes lies in, in units: 2^20.
///
/// Brush faces are computed by clipping a square of this half size on each plane (Golodetz
/// Listing 4 uses the same device for leaf cells), so a brush reaching beyond it is reported as
/// unbounded. The inputs' limits below keep every expanded brush and every trace of a simulated
/// agent inside it ([`crate::domain`]).
pub const WORLD_HALF_EXTENT: f64 = 1_048_576.0;

// The numeric domain (DESIGN.md "Numeric domain"): the largest inputs cspace accepts. Every
// entry point checks them ([`crate::domain`]); inside them every answer is finite.

/// The largest coordinate of the world's geometry (brush vertices, patch control points, spawn
/// points) and of an agent's position, in units: 2^19.
///
/// Quake III's own bound is `MAX_WORLD_COORD`, 2^17 (`qfiles.h`); Quake's maps stay within
/// +-4096 and most Quake III maps within +-16384. 2^19 leaves four times Quake III's room, and
/// half of [`WORLD_HALF_EXTENT`] for what is computed from it: a brush expanded by the largest
/// shape reaches `2^19 + 2^16 < 2^20` on every axis, and an agent moving at [`MAX_SPEED`] for
/// [`MAX_TIME_STEP`] from `2^19` ends within `2^19 + 2^16`. At 2^20 an `f64` resolves 2.3e-10
/// units, four times finer than [`CONTACT`].
pub const MAX_COORDINATE: f64 = 524_288.0;

/// The largest distance of a shape's point from its origin along any axis, in units: 2^16 (box
/// `mins` and `maxs`, radii, half-heights, hull points). A Quake player is 16 by 56 units;
/// 2^16 is a shape half the size of Quake III's whole world.
pub const MAX_SHAPE_EXTENT: f64 = 65_536.0;

/// The largest speed, in units per second: 2^16, 32 times Quake's `sv_maxvelocity` (2000).
/// Given speeds (a start velocity, a scripted move, a jump) beyond it are refused, and the
/// simulator holds a mover's speed at it, as Quake clamps to `sv_maxvelocity`: a fall from the
/// top of the world to its bottom at Quake's gravity reaches about 41,000.
pub const MAX_SPEED: f64 = 65_536.0;

/// The largest acceleration (gravity), in units per second squared: 2^16, 82 times Quake's 800.
pub const MAX_ACCELERATION: f64 = 65_536.0;

/// The largest rate of a movement constant (acceleration and friction factors), per second:
/// 2^16. Quake's are 10 (`sv_accelerate`), 4 (`sv_friction`) and 1 (air acceleration); at
/// these values a factor only saturates (the whole wished speed is reached, or all speed lost in
/// one step), so larger ones would mean nothing more.
pub const MAX_RATE: f64 = 65_536.0;

/// The longest time step (and physics sub-step), in seconds: 1. Quake III runs 8 to 66 ms;
/// longer steps are split into sub-steps of at most 66 ms, so a longer limit would only mean
/// more sub-steps.
pub const MAX_TIME_STEP: f64 = 1.0;

/// The shortest physics sub-step, in seconds: 0.1 ms. With [`MAX_TIME_STEP`] a step is at most
/// 10,000 sub-steps, so no step runs unbounded (a scenario's `max_substep` may not go below it).
pub const MIN_SUBSTEP: f64 = 1e-4;

/// The most facets the collidable patches of one world may be tessellated into: 2^18 = 262,144,
/// twenty times `unvanquished_chasm.map`'s 12,872 at the default bound ([`PATCH_ERROR`]) and
/// more than twice its 106,642 at an eighth of it. Each facet becomes a flat brush of about a
/// kilobyte and a half (its faces, edges and box planes), so the limit keeps a world's facets
/// within about 400 MB; a patch whose subdivision would go beyond it (a 652-byte map with one 5 x 5
/// patch of control points alternating between heights of +-500,000 asks for 8,388,608 facets
/// and more than 8 GB) is refused with its location, the count and this limit. Counted as the
/// cuts are refined, before a facet is made ([`crate::patch::tessellate`]): the count at most
/// doubles per round of refinement, so the work before the refusal is bounded too.
pub const MAX_PATCH_FACETS: usize = 1 << 18;

/// The most faces of a brush a world file may write (a `.map` brush's face lines, a TOML brush's
/// `planes`): 1,024. Building a brush from its planes clips a polygon on each plane by every
/// other, about the square of the faces (a 20,000-face brush took 27.8 s in `sim map`); at the
/// limit a brush builds in under a second in the dev profile, and its configuration-space
/// brushes (faces and bevels, several times the faces) stay buildable. The corpus's largest is
/// 362 faces (`ericw_qbsp_many_sided_face.map`); Quake III's q3map allows 300 sides
/// (`MAX_BUILD_SIDES`). A brush past it is refused where it is written, before it is built
/// (`Brush::from_written_planes`); a map skips it as an invalid brush.
pub const MAX_BRUSH_FACES: usize = 1024;

/// The smallest cell of the simulator's agent grid, in units: a cell smaller than a unit only
/// lists each agent in more cells (Blow's grid, `cspace-contact`).
pub const MIN_GRID_CELL: f64 = 1.0;

/// How far below the world's lowest point an agent may fall before it has left the world, in
/// units: 4096, the height of a whole Quake map. Quake kills a player who falls into the void
/// with a `trigger_hurt`; cspace stops the agent and records the event.
pub const FALL_MARGIN: f64 = 4096.0;

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

/// Quake III's trace epsilon, units: `SURFACE_CLIP_EPSILON` (0.125) of ioquake3's
/// `code/qcommon/cm_local.h`. Its brush trace counts a move that ends within this distance of a
/// face as a hit and stops the mover this far short of the face; the `quake3` movement profile
/// traces with it (`cspace_sim::MoveParams::quake3`).
pub const QUAKE3_TRACE_EPSILON: f64 = 0.125;

/// Half the side of the line of sight's cube, in units: 1/32 (Quake's `DIST_EPSILON`, as the
/// skin). A point has no extent across a patch facet (which has no interior), so a point's
/// trace passes through every curved wall; this cube's configuration space gives each facet a
/// slab 1/16 unit thick, and grows brushes by 1/32, far below what a line of sight resolves.
pub const SIGHT_HALF: f64 = 1.0 / 32.0;

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

/// The contact band of the tree backends (the onion, Melax), in units: a walk's stretch (or a
/// point) no farther than this from a tree plane lies on it, and only deeper than this behind it
/// (past a shifted plane, for Melax) is it inside. [`CONTACT`] less four times
/// [`PLANE_MERGE`]: a tree's planes are its plane table's, merged within `PLANE_MERGE` (Melax
/// shifts the onion compiler's), so a tree plane can lie that much beyond the plane of the
/// brush the exact backend evaluates (and their arithmetic differs by rounding). With the full
/// `CONTACT`, a position 1.0002e-9 inside a wall was free for the onion and solid for the exact
/// reference (`--verify`; issue 35, item 3): on `quake_e3m5.map`, of 151,164 moves of the
/// standing box ending within 4e-13 of depth `CONTACT` behind a brush face, 1,178 ended free for
/// the onion (350 for melax-exact) and in solid for the exact backend's point query; with this
/// band 4 (onion) and 0 (melax-exact), all at a corner of several brushes, the contact-scale
/// class the onion's agreement tests count. A tree backend errs, by at most 4e-11 units, on
/// the solid side.
pub const TREE_BAND: f64 = CONTACT - 4.0 * PLANE_MERGE;

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

// Directions, normals and determinants (dimensionless).

/// Relative sine below which two directions are parallel: `|a x b| <= PARALLEL * |a| |b|`
/// (edge directions against an axis or another edge, when making bevel planes; a horizontal
/// normal component, when sorting a cylinder's prism into caps and sides). Far above the
/// rounding of a unit vector's components (1e-16), far below any real angle between brush
/// features (1e-9 rad is 4e-3 units of sideways error across the 2^22-unit clip square).
pub const PARALLEL: f64 = 1e-9;

/// How far `|n|^2` of a normal read or carried as unit may be from 1 (a saved plane read back, a
/// validated tree's planes, a normal normalised once and then transformed). A normalised `f64`
/// vector is within 1e-15; planes rebuilt by shifting or negating stay within 1e-12.
pub const UNIT_NORMAL: f64 = 1e-9;

/// Relative length below which a vector computed from inputs of size `s` is zero: a normal from
/// a cross product shorter than `ZERO_LENGTH * s^2`, three normals whose determinant is below it
/// (they meet in no single point). 1e-12 leaves four orders of magnitude above `f64` rounding.
pub const ZERO_LENGTH: f64 = 1e-12;

/// The smallest determinant of three face normals (unit) that places a brush vertex on their
/// intersection when the vertex is snapped back onto its faces: planes meeting at less than
/// about 0.06 degrees (in the weakest direction) move the intersection too far for a rounding.
pub const VERTEX_SNAP_DETERMINANT: f64 = 1e-6;

/// Normals closer than this (largest component difference) are one bevel direction. Bevel
/// normals come from edge directions between welded vertices, so they carry more rounding than
/// face normals; a bevel this close to a kept plane adds at most `1e-7 * size` of error.
pub const BEVEL_NORMAL_EQUAL: f64 = 1e-7;

/// Relative merge tolerance of a convex hull's planes (of the hull's size; normals compared to
/// the same figure): hull planes are built from vertex triples, which repeat the same face many
/// times with rounding in the last bits.
pub const HULL_PLANE_MERGE: f64 = 1e-9;

// Times along a segment (the parameter t of start + t (end - start), dimensionless).

/// Entries into solid (or supports, for a shape's extreme point) closer than this are the same
/// instant: tied surfaces, ranked by the skin pull-back then the brush id (the exact backend's
/// rule, which the onion and Melax follow to report the same plane and brush).
pub const SAME_TIME: f64 = 1e-12;

/// How far before the segment's start a walk's interval begins, so that a solid cell the start
/// lies in is entered below 0 (`t < 0` means "before the start", as in the exact backend's
/// spans over the whole line). Far above [`SAME_TIME`], far below one step of a mover.
pub const BEFORE_START: f64 = 1e-6;

/// Slack of a comparison between a backend's time of impact and the exact one in the error
/// measurement (`melax::measure`): later by more than this is a hit found late.
pub const LATER: f64 = 1e-9;

// Distances, in units.

/// How far beyond the shape's bounds the world's surface search (`World::find_contact`) looks
/// for the brush a plane belongs to, on top of the plane tolerance it is given.
pub const SURFACE_SEARCH: f64 = 1e-3;

/// How far two backends' answers to one move may be apart and still agree, in the agreement
/// tests ([`crate::touching::differ`]): the end position in units, the hit normal per
/// component. Far above the rounding of two exact computations, far below any real difference.
pub const AGREEMENT: f64 = 1e-6;

/// How far apart, in units along the move, a brush's own entry may be from a tree's and still
/// be the surface hit (onion), and the plane tolerance of the onion's fallback surface search.
pub const SAME_HIT: f64 = 1e-6;

/// The plane tolerance of Melax's fallback surface search: its hit planes are shifted planes of
/// an approximate configuration space (paper bevels), which can miss the brush's own plane by
/// far more than rounding.
pub const APPROXIMATE_SURFACE: f64 = 1e-3;

/// Growth of boxes that must hold what rounding puts on their border (a touch point's grid cell,
/// a polygon's bounds when looking for the brushes it may lie in, a start grid cell's margin
/// inside its planes). Far above [`CONTACT`] and the rounding of interpolated points (1e-10 at
/// world scale), far below any feature.
pub const BOX_GROWTH: f64 = 1e-6;

/// How far inside the free space it was grown in a free box of the onion's free-space index is
/// kept, in units: ten times [`BOX_GROWTH`], the margin by which the box must then clear every
/// plane of its space's tree that it does not cross (so the box never touches the solid it was
/// grown up to). Far below the skin (1/32), so a mover resting a skin away from a floor is still
/// inside the box above that floor.
pub const FREE_BOX_INSET: f64 = 1e-5;

/// Relative growth of a bounding sphere that must hold every vertex after rounding (1e-9 of its
/// radius, plus an absolute 1e-9 units).
pub const SPHERE_GROWTH: f64 = 1e-9;

/// Two planes of a leaf cell with normals within [`SAME_TIME`]-like 1e-12 and distances within
/// this many units are the same face when the outside fill matches portals.
pub const PORTAL_PLANE: f64 = 1e-6;

/// Quantisation step of the onion compiler's plane lookup keys (units and normal components):
/// much larger than [`PLANE_MERGE`], so a plane's near-duplicates fall in its cell or a
/// neighbouring one.
pub const PLANE_KEY_STEP: f64 = 1e-8;

/// Melax bevels: normals meeting at exactly the threshold angle are not bevelled (cosine slack).
pub const BEVEL_ANGLE_SLACK: f64 = 1e-9;

/// Melax bevels: two bevel normals closer than this (largest component difference) are one
/// plane.
pub const BEVEL_SAME_NORMAL: f64 = 1e-6;

/// Relative slack of the exact backend's rounded-prism patch tests (patches overlap, so leaning
/// inclusive only repeats a neighbour's answer), at most [`PATCH_SLACK_LIMIT`].
pub const PATCH_SLACK: f64 = 1e-9;

/// The most slack, in units, a rounded shape's patch test takes ([`PATCH_SLACK`] of the move's
/// length grows beyond it): a quarter of [`CONTACT`], so a crossing accepted just outside its
/// patch never turns a shape that is only touching (a cylinder beside a wall, on a floor) into
/// one deeper than `CONTACT` inside (issue 35, item 4), and still far above the rounding of a
/// crossing point (about 1e-12 units at Quake's scale, 1.2e-10 at [`WORLD_HALF_EXTENT`]).
pub const PATCH_SLACK_LIMIT: f64 = CONTACT / 4.0;

/// Relative slack of k-DOP and k-UDOP geometry (vertices of half-space intersections, the reach
/// of a direction set, a direction's length): `VERTEX_SLACK` of the figure's size.
pub const VERTEX_SLACK: f64 = 1e-9;

/// Relative weld of k-UDOP polytope vertices (of the clip square's size).
pub const POLYTOPE_WELD: f64 = 1e-12;

/// The smallest leading coefficient of a quadratic Bezier distance polynomial, relative to its
/// scale, below which the curve is treated as linear.
pub const BEZIER_LINEAR: f64 = 1e-14;

/// How far below the true minimum the Section 3.3 distance of a biquadratic Bezier surface (a
/// Quake III patch piece) to a hyperplane may come out, in units (`cspace-udop`,
/// `geometry::BiquadraticPatch`): its branch and bound stops once its lower bound is within this
/// of a value the surface reaches. The lower bound is conservative whatever the gap; the gap only
/// leaves a k-UDOP side up to this much short of the curve. 1/1024 unit, the patch weld
/// ([`PATCH_WELD`]): below anything a k-UDOP's skip decision resolves.
pub const BEZIER_GAP: f64 = 1.0 / 1024.0;

/// Relative determinant below which two 2D edges are parallel when clipping k-UDOP polygons
/// (`det <= LINE_PARALLEL * |a|^2 |b|^2`).
pub const LINE_PARALLEL: f64 = 1e-24;

// Time, in seconds.

/// Slack of comparisons between simulated times: a script event at exactly `k * dt` fires at
/// step `k` despite the rounding of `k * dt`, and an expectation's deadline counts a step that
/// reaches it to the last bit. Far below any time step (1/1000 s at the least).
pub const TIME_SLACK: f64 = 1e-9;

// Speed, in units per second.

/// A mover going up and away from a plane faster than this is launched, not landing on it
/// (Quake III's `PM_GroundTrace`: `DotProduct(velocity, normal) > 10` with `velocity.z > 0`).
pub const LAUNCH_SPEED: f64 = 10.0;

// Comparisons between backends, in units.

/// The default largest position difference between two backends' trajectories in a scenario
/// (`tolerance` in a scenario file): a thousandth of a unit, the precision traces print.
pub const DEFAULT_AGREEMENT: f64 = 1e-3;

// Areas, in square units.

/// Smallest area of a portal or cell-boundary piece, in square units: navigation
/// (`cspace-nav`) drops pieces of region faces smaller than this while pushing them down a tree,
/// so regions touching along an edge or at a corner are not neighbours. The onion's outside fill
/// drops the same pieces; a real opening an agent can pass is many orders
/// larger, and the rounding of a cut (about 1e-10 units on each side) leaves slivers far smaller.
pub const PORTAL_MIN_AREA: f64 = 1e-9;

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
