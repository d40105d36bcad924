//! The onion tree as a [`Collider`] for box shapes whose `mins`/`maxs` equal a compiled pose.

use std::sync::Arc;

use cspace_geom::collider::{lerp, skin_fraction};
use cspace_geom::exact::{ExactScratch, span_of_planes};
use cspace_geom::expand::box_expanded_planes_iter;
use cspace_geom::shape::BoxShape;
use cspace_geom::tolerance::CONTACT;
use cspace_geom::{
    Aabb, BrushId, Collider, ColliderKey, ExactCollider, Hit, HitSurface, Parts, Plane, Prepared,
    QueryContext, Shape, TypedCollider, UnsupportedShape, World, WorldMismatch,
};
use glam::DVec3;

use crate::compile::Compiled;
use crate::free_index::{FreeIndex, FreeIndexStats};
use crate::trace::{SolidEntry, WalkScratch};
use crate::tree::OnionTree;
use crate::tree::start_grid::GridShape;
use cspace_geom::tolerance::{BOX_GROWTH, SAME_HIT, SAME_TIME, SURFACE_SEARCH};

/// How far the hit surface query reaches beyond the box at its touch position.
const NEAR: f64 = SAME_HIT + CONTACT + SURFACE_SEARCH;

/// For each cell of a space's [`GridShape`], the brushes whose bounds the surface query of a touch
/// in that cell may meet (every brush meeting the cell grown by the box and [`NEAR`]): the query
/// scans a short list instead of walking the world's bounding-volume tree. The set a query finds
/// is the same: each listed brush is tested as that tree tests it.
///
/// It also keeps, for the space's box, every brush's [`Brush::box_planes`] pushed out by the box
/// (brush `b`'s are `planes[plane_offsets[b]..plane_offsets[b + 1]]`, the same values the exact
/// backend computes per trace) and every brush's bounds in one dense array.
///
/// [`Brush::box_planes`]: cspace_geom::Brush::box_planes
#[derive(Debug)]
struct NearBrushes {
    /// `None` for a tree without a grid: every query goes to the world's index.
    shape: Option<GridShape>,
    /// Cell `i`'s brushes are `ids[offsets[i]..offsets[i + 1]]`.
    offsets: Vec<u32>,
    ids: Vec<BrushId>,
    /// Per brush id, its bounds.
    bounds: Vec<Aabb>,
    /// Per brush id, where its pushed-out planes start in `planes` (one more entry at the end).
    plane_offsets: Vec<u32>,
    planes: Vec<Plane>,
}

impl NearBrushes {
    fn new(world: &World, shape: Option<&GridShape>, agent: &BoxShape) -> NearBrushes {
        let reach = Aabb::new(agent.mins, agent.maxs).loosened(NEAR);
        let mut plane_offsets = Vec::with_capacity(world.len() + 1);
        let mut planes = Vec::new();
        plane_offsets.push(0);
        for brush in world.brushes() {
            planes.extend(box_expanded_planes_iter(&brush.brush, agent));
            plane_offsets.push(planes.len() as u32);
        }
        let bounds: Vec<Aabb> = world.brushes().iter().map(|b| b.brush.bounds()).collect();
        let mut offsets = Vec::new();
        let mut ids = Vec::new();
        if let Some(shape) = shape {
            // Each brush into the cells whose query region meets its bounds (one pass over the
            // brushes, instead of a query of the world's index per cell), then grouped by cell:
            // a stable sort keeps each cell's brushes in id order.
            let mut pairs: Vec<(usize, BrushId)> = Vec::new();
            for (id, b) in bounds.iter().enumerate() {
                shape.for_each_cell_near(b.min - reach.max, b.max - reach.min, |cell| {
                    // Grown by a micro-unit more for the rounding of the touch point's cell.
                    let region = shape.cell_box(cell, BOX_GROWTH);
                    if Aabb::new(region.min + reach.min, region.max + reach.max).intersects(b) {
                        pairs.push((cell, BrushId(id as u32)));
                    }
                });
            }
            pairs.sort_by_key(|&(cell, _)| cell);
            offsets = vec![0u32; shape.count() + 1];
            for &(cell, _) in &pairs {
                offsets[cell + 1] += 1;
            }
            for cell in 0..shape.count() {
                offsets[cell + 1] += offsets[cell];
            }
            ids = pairs.into_iter().map(|(_, id)| id).collect();
        }
        NearBrushes {
            shape: shape.cloned(),
            offsets,
            ids,
            bounds,
            plane_offsets,
            planes,
        }
    }

    /// Brush `id`'s planes pushed out by the space's box.
    fn planes(&self, id: BrushId) -> &[Plane] {
        let i = id.0 as usize;
        &self.planes[self.plane_offsets[i] as usize..self.plane_offsets[i + 1] as usize]
    }

    /// Calls `visit` with each brush whose bounds meet `query`, a box around `touch`; false when
    /// `touch` is outside the grid (nothing visited).
    fn for_each(&self, touch: DVec3, query: &Aabb, mut visit: impl FnMut(BrushId)) -> bool {
        let Some(cell) = self.shape.as_ref().and_then(|s| s.cell_of_point(touch)) else {
            return false;
        };
        let range = self.offsets[cell] as usize..self.offsets[cell + 1] as usize;
        for &id in &self.ids[range] {
            if self.bounds[id.0 as usize].intersects(query) {
                visit(id);
            }
        }
        true
    }
}

/// Space `space`'s [`NearBrushes`], over its start grid.
fn near_brushes(tree: &OnionTree, world: &World, space: usize) -> NearBrushes {
    let pose = &tree.poses()[space];
    let grid = tree.space_tree(space).starts.as_ref().map(|(grid, _)| grid);
    let agent = BoxShape {
        mins: pose.mins,
        maxs: pose.maxs,
    };
    NearBrushes::new(world, grid, &agent)
}

/// The onion backend: answers box traces for the compiled poses from one [`OnionTree`].
///
/// The tree decides whether and when a move enters solid; the plane and brush reported are those
/// of the world brushes entered at that time (the exact backend's rule for edges and corners:
/// the smallest skin pull-back wins, then the lower brush id), with [`World::find_contact`] as a
/// fallback. If neither finds a brush (the tree and the brushes disagreeing about an entry by
/// more than [`SAME_HIT`], which no test has produced), the answer is the exact reference's for
/// the move. Queries take `&self` and a [`QueryContext`] holding the walk's stack (or the typed
/// [`ContextFor<OnionCollider>`](cspace_geom::ContextFor), [`TypedCollider`]): one collider
/// serves every thread.
#[derive(Debug)]
pub struct OnionCollider {
    world: Arc<World>,
    tree: Arc<OnionTree>,
    /// Per space, made with the collider (a build cost, not a first hit's).
    near: Vec<NearBrushes>,
    /// Per space, the free-space index in front of the walk (none without a start grid, or
    /// when left out: [`OnionCollider::without_free_index`]).
    free: Vec<Option<FreeIndex>>,
    /// What building the indexes found, summed over the spaces.
    free_stats: FreeIndexStats,
    /// The answer for a hit whose brush is not found.
    exact: ExactCollider,
    key: ColliderKey,
}

/// The onion backend's scratch in a [`QueryContext`] or its typed context
/// ([`ContextFor<OnionCollider>`](cspace_geom::ContextFor)). Opaque.
#[derive(Debug, Default)]
pub struct OnionScratch {
    walk: WalkScratch,
    /// Brushes entered at the tree's hit time: (entry, brush, pull-back, plane, touch time).
    candidates: Vec<(f64, BrushId, f64, Plane, f64)>,
    /// The exact reference's, for a hit whose brush is not found.
    exact: ExactScratch,
}

impl OnionCollider {
    /// The backend for `world` over `tree`, which must have been compiled from `world` (same
    /// fingerprint): a tree answers for its own world only.
    pub fn new(
        world: Arc<World>,
        tree: impl Into<Arc<OnionTree>>,
    ) -> Result<OnionCollider, WorldMismatch> {
        OnionCollider::build(world, tree.into(), true)
    }

    /// [`OnionCollider::new`] without building the free-space index: every trace walks the tree
    /// (the same answers, bit for bit). For small worlds traced only where they are (a mover's
    /// brush model, traced when a move's bounds meet it), the index would cost more to build
    /// than it saves.
    pub fn new_unindexed(
        world: Arc<World>,
        tree: impl Into<Arc<OnionTree>>,
    ) -> Result<OnionCollider, WorldMismatch> {
        OnionCollider::build(world, tree.into(), false)
    }

    fn build(
        world: Arc<World>,
        tree: Arc<OnionTree>,
        indexed: bool,
    ) -> Result<OnionCollider, WorldMismatch> {
        let fingerprint = world.fingerprint();
        if tree.world_fingerprint() != fingerprint {
            return Err(WorldMismatch {
                tree: tree.world_fingerprint(),
                world: fingerprint,
            });
        }
        let near = (0..tree.spaces())
            .map(|space| near_brushes(&tree, &world, space))
            .collect();
        let mut free_stats = FreeIndexStats::default();
        let free = (0..tree.spaces())
            .map(|space| {
                if !indexed {
                    return None;
                }
                let pose = &tree.poses()[space];
                let space_tree = tree.space_tree(space);
                let (grid, _) = space_tree.starts.as_ref()?;
                let (index, stats) =
                    FreeIndex::build(&world, space_tree, grid, pose.mins, pose.maxs);
                free_stats += stats;
                Some(index)
            })
            .collect();
        Ok(OnionCollider {
            exact: ExactCollider::new(world.clone()),
            world,
            tree,
            near,
            free,
            free_stats,
            key: ColliderKey::new(),
        })
    }

    /// The same collider without its free-space index: every trace walks the tree. The answers
    /// are the same, bit for bit (what the tests compare); only the time differs.
    pub fn without_free_index(mut self) -> OnionCollider {
        self.free = vec![None; self.free.len()];
        self.free_stats = FreeIndexStats::default();
        self
    }

    /// What building the free-space index found (cells, boxes; summed over the spaces).
    pub fn free_index_stats(&self) -> FreeIndexStats {
        self.free_stats
    }

    /// Bytes of the free-space index (all spaces).
    pub fn free_index_bytes(&self) -> usize {
        self.free
            .iter()
            .flatten()
            .map(FreeIndex::memory_bytes)
            .sum()
    }

    /// Space `space`'s free-space index, for the tests.
    #[cfg(test)]
    pub(crate) fn free_index(&self, space: usize) -> Option<&FreeIndex> {
        self.free[space].as_ref()
    }

    /// The backend for a compiled tree (see [`OnionCollider::new`]).
    pub fn from_compiled(
        world: Arc<World>,
        compiled: Compiled,
    ) -> Result<OnionCollider, WorldMismatch> {
        OnionCollider::new(world, compiled.tree)
    }

    /// The tree.
    pub fn tree(&self) -> &Arc<OnionTree> {
        &self.tree
    }

    /// The world answered for.
    pub fn world(&self) -> &Arc<World> {
        &self.world
    }

    /// The surface entered at `time` by `shape` moving `start -> end`.
    #[allow(clippy::too_many_arguments)]
    fn surface(
        &self,
        candidates: &mut Vec<(f64, BrushId, f64, Plane, f64)>,
        space: usize,
        shape: &BoxShape,
        start: DVec3,
        end: DVec3,
        skin: f64,
        time: f64,
        tree_plane: Option<Plane>,
    ) -> Option<HitSurface> {
        let length = start.distance(end);
        let touch = lerp(start, end, time);
        let as_shape = Shape::Box(*shape);
        let query = as_shape.bounds().translated(touch).loosened(NEAR);
        candidates.clear();
        let world = &self.world;
        let near = &self.near[space];
        // A box without width across a plane the move lies in enters the union there, not a
        // brush on its own: a brush counts by its other planes (the exact backend's rule).
        let thin = cspace_geom::exact::is_thin(&as_shape);
        let width = shape.maxs - shape.mins;
        let lies = |p: &Plane| {
            thin && p.signed_distance(start).abs() <= CONTACT
                && p.signed_distance(end).abs() <= CONTACT
                && (width * p.normal().abs()).element_sum() <= cspace_geom::exact::THIN
        };
        // Brush `id`'s entry near `time` with its planes pushed out by `band`: the enter time,
        // the plane (back where it was) and its touch time, and the skin pull-back it gives.
        // (A band of 0 keeps the planes as they are, bit for bit: no signed zero changes.)
        let entry = |id: BrushId, band: f64| {
            let shift = |p: Plane, by: f64| if band == 0.0 { p } else { p.shifted(by) };
            let planes = near
                .planes(id)
                .iter()
                .map(|&p| shift(p, band))
                .filter(|p| !lies(p));
            let span = span_of_planes(planes, start, end)?;
            let (plane, toi) = span.entry?;
            if span.enter >= span.leave || (toi - time).abs() * length > SAME_HIT {
                return None;
            }
            let plane = shift(plane, -band);
            let score = skin_fraction(
                plane.signed_distance(start),
                plane.signed_distance(end),
                skin,
            );
            Some((span.enter, plane, toi, score))
        };
        let at = |id: BrushId, plane: Plane, toi: f64| {
            let toi = toi.clamp(0.0, 1.0);
            let on_shape = lerp(start, end, toi) + as_shape.support_point(-plane.normal());
            HitSurface {
                plane,
                point: self.world.brush(id).brush.closest_point(on_shape),
                brush: id,
                time_of_impact: toi,
            }
        };
        let mut consider = |id: BrushId| {
            if let Some((enter, plane, toi, score)) = entry(id, 0.0) {
                candidates.push((enter, id, score, plane, toi));
            }
        };
        if !near.for_each(touch, &query, &mut consider) {
            world.for_each_overlapping(&query, &mut consider);
        }
        // The exact backend's tie rule: the earliest entries (within 1e-12), then the smallest
        // pull-back, then the earliest (entry, brush id).
        candidates.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut best = None;
        if let Some(first) = candidates.first() {
            let mut best_score = f64::INFINITY;
            for c in candidates.iter() {
                if c.0 > first.0 + SAME_TIME {
                    break;
                }
                if c.2 < best_score {
                    best_score = c.2;
                    best = Some((c.1, c.3, c.4));
                }
            }
        }
        if let Some((id, plane, toi)) = best {
            return Some(at(id, plane, toi));
        }
        if let Some(plane) = tree_plane
            && let Some((brush, point)) =
                self.world
                    .find_contact(&as_shape, touch, plane.normal(), SAME_HIT)
        {
            return Some(HitSurface {
                plane,
                point,
                brush,
                time_of_impact: time.clamp(0.0, 1.0),
            });
        }
        // No brush is entered there, only touched: the union closes a gap the box fits with no
        // room to spare (ARCHITECTURE.md, "Zero-clearance gaps"). The surface is that of the
        // brush the move would enter first were it a contact band wider (the exact backend's
        // tie rule among those touched then).
        let mut touched: Option<(f64, BrushId, Plane, f64)> = None;
        let mut consider = |id: BrushId| {
            if let Some((_, plane, toi, score)) = entry(id, 2.0 * CONTACT)
                && touched.is_none_or(|t| (score, id) < (t.0, t.1))
            {
                touched = Some((score, id, plane, toi));
            }
        };
        if !near.for_each(touch, &query, &mut consider) {
            world.for_each_overlapping(&query, &mut consider);
        }
        let (_, id, plane, toi) = touched?;
        Some(at(id, plane, toi))
    }
}

impl Collider for OnionCollider {
    fn name(&self) -> &str {
        "onion"
    }

    fn world(&self) -> &Arc<World> {
        &self.world
    }

    fn prepare(&self, shape: &Shape) -> Result<Prepared, UnsupportedShape> {
        if let Shape::Box(b) = shape
            && let Some(space) = self.tree.space_of(b.mins, b.maxs)
        {
            return Ok(self.key.prepare(shape.clone(), space as u32));
        }
        let poses: Vec<String> = self.tree.poses().iter().map(|p| p.describe()).collect();
        Err(UnsupportedShape {
            backend: "onion".into(),
            shape: shape.describe(),
            reason: format!(
                "the tree answers only for its compiled box poses ({}); compile one for this shape",
                poses.join(" ")
            ),
        })
    }

    #[inline]
    fn trace(&self, ctx: &mut QueryContext, prepared: &Prepared, start: DVec3, end: DVec3) -> Hit {
        self.trace_parts(self.key.parts(ctx), prepared, start, end)
    }

    fn is_solid(&self, ctx: &mut QueryContext, prepared: &Prepared, position: DVec3) -> bool {
        self.is_solid_parts(self.key.parts(ctx), prepared, position)
    }
}

impl TypedCollider for OnionCollider {
    type Scratch = OnionScratch;

    #[inline]
    fn key(&self) -> &ColliderKey {
        &self.key
    }

    #[inline(always)]
    fn trace_parts(
        &self,
        parts: Parts<'_, OnionScratch>,
        prepared: &Prepared,
        start: DVec3,
        end: DVec3,
    ) -> Hit {
        cspace_geom::domain::debug_check_trace(start, end);
        self.key.check(prepared);
        let Parts {
            scratch, counters, ..
        } = parts;
        counters.traces += 1;
        let space = prepared.slot() as usize;
        if start == end {
            return if self.tree.is_solid(space, start) {
                Hit::solid(start)
            } else {
                Hit::miss(end)
            };
        }
        if let Some(free) = &self.free[space] {
            match free.verdict(start, end) {
                None => {
                    counters.certified += 1;
                    return Hit::miss(end);
                }
                Some(reason) => counters.fell_through(reason),
            }
        }
        let Shape::Box(shape) = prepared.shape() else {
            unreachable!("prepare accepts boxes only")
        };
        let entry = self
            .tree
            .space_tree(space)
            .first_entry(start, end, &mut scratch.walk);
        counters.nodes_visited += std::mem::take(&mut scratch.walk.visited);
        match entry {
            SolidEntry::AllSolid => Hit::solid(start),
            SolidEntry::Free { start_solid } => Hit::free(end, start_solid),
            SolidEntry::Hit {
                start_solid,
                time,
                plane,
            } => {
                let skin = prepared.skin();
                let surface = self.surface(
                    &mut scratch.candidates,
                    space,
                    shape,
                    start,
                    end,
                    skin,
                    time,
                    plane,
                );
                let hit = match surface {
                    Some(surface) => Hit::blocked(start, end, skin, surface, start_solid),
                    // No brush entered at the tree's entry: the exact reference answers.
                    None => {
                        self.exact
                            .sweep(&mut scratch.exact, prepared.shape(), skin, start, end)
                    }
                };
                counters.hits += u64::from(hit.is_hit());
                hit
            }
        }
    }

    fn is_solid_parts(
        &self,
        parts: Parts<'_, OnionScratch>,
        prepared: &Prepared,
        position: DVec3,
    ) -> bool {
        cspace_geom::domain::debug_check_trace(position, position);
        self.key.check(prepared);
        parts.counters.point_queries += 1;
        self.tree.is_solid(prepared.slot() as usize, position)
    }
}

#[cfg(test)]
mod tests {
    use cspace_geom::WithContext;
    use cspace_geom::generate::{RandomBoxes, free_moves};

    use super::*;
    use crate::{CompileOptions, Pose, compile};

    /// The counters name the nodes visited: none for a move inside one uniform region found from
    /// the start grid, some for a move across the tree.
    #[test]
    fn counters_count_the_nodes_visited() {
        let floor = cspace_geom::Brush::from_aabb(Aabb::new(
            DVec3::new(-512.0, -512.0, -64.0),
            DVec3::new(512.0, 512.0, 0.0),
        ))
        .unwrap();
        let ceiling = cspace_geom::Brush::from_aabb(Aabb::new(
            DVec3::new(-512.0, -512.0, 512.0),
            DVec3::new(512.0, 512.0, 576.0),
        ))
        .unwrap();
        let world = Arc::new(World::from_brushes([floor, ceiling]));
        let pose = Pose::quake_standing();
        let tree = compile(
            &world,
            std::slice::from_ref(&pose),
            &CompileOptions::default(),
        )
        .unwrap()
        .tree;
        let mut onion = WithContext::new(OnionCollider::new(world, tree).unwrap());
        let shape = onion
            .prepare(&Shape::new_box(pose.mins, pose.maxs).unwrap())
            .unwrap();
        let visited = |onion: &WithContext<OnionCollider>| onion.counters().nodes_visited;
        // Between floor and ceiling, far from every plane: the grid's start is the empty region.
        onion.trace(
            &shape,
            DVec3::new(0.0, 0.0, 300.0),
            DVec3::new(10.0, 0.0, 300.0),
        );
        assert_eq!(visited(&onion), 0);
        // Down through the floor: the walk tests planes.
        assert!(
            onion
                .trace(
                    &shape,
                    DVec3::new(0.0, 0.0, 300.0),
                    DVec3::new(0.0, 0.0, -30.0)
                )
                .is_hit()
        );
        assert!(visited(&onion) > 0);
    }

    /// The brushes a surface query visits through the per-cell lists are those the world's index
    /// gives, for touches anywhere in and around the grid; and whole traces agree field for field.
    #[test]
    fn near_brush_lists_find_what_the_world_index_finds() {
        let world = Arc::new(
            RandomBoxes {
                count: 200,
                extent: 400.0,
                ..RandomBoxes::BENCHMARK
            }
            .world(),
        );
        let poses = [Pose::quake_standing(), Pose::quake_large()];
        let tree = Arc::new(
            compile(&world, &poses, &CompileOptions::default())
                .unwrap()
                .tree,
        );
        let mut rng = cspace_geom::generate::Rng::new(3);
        let region = world.bounds().loosened(80.0);
        let mut in_grid = 0;
        for (space, pose) in poses.iter().enumerate() {
            let shape = tree.space_tree(space).starts.as_ref().map(|(s, _)| s);
            let bounds = Aabb::new(pose.mins, pose.maxs);
            let agent = BoxShape {
                mins: pose.mins,
                maxs: pose.maxs,
            };
            let near = NearBrushes::new(&world, shape, &agent);
            // Each brush's planes, pushed out by the box as the exact backend pushes them.
            for (id, brush) in world.brushes().iter().enumerate() {
                let pushed = cspace_geom::expand::box_expanded_planes(&brush.brush, &agent);
                assert_eq!(near.planes(BrushId(id as u32)), &pushed[..]);
            }
            for _ in 0..20_000 {
                let touch = DVec3::new(
                    rng.range(region.min.x, region.max.x),
                    rng.range(region.min.y, region.max.y),
                    rng.range(region.min.z, region.max.z),
                );
                let query = bounds.translated(touch).loosened(NEAR);
                let (mut listed, mut indexed) = (Vec::new(), Vec::new());
                if near.for_each(touch, &query, |id| listed.push(id)) {
                    in_grid += 1;
                    world.for_each_overlapping(&query, |id| indexed.push(id));
                    listed.sort();
                    indexed.sort();
                    assert_eq!(listed, indexed, "touch {touch} in space {space}");
                }
            }
        }
        assert!(in_grid > 20_000, "{in_grid} touches in the grid");

        let mut listed = WithContext::new(OnionCollider::new(world.clone(), tree.clone()).unwrap());
        let mut indexed = WithContext::new(OnionCollider::new(world.clone(), tree).unwrap());
        indexed.collider.near = poses
            .iter()
            .map(|p| {
                let agent = BoxShape {
                    mins: p.mins,
                    maxs: p.maxs,
                };
                NearBrushes::new(&world, None, &agent)
            })
            .collect();
        for pose in &poses {
            let shape = Shape::new_box(pose.mins, pose.maxs).unwrap();
            let (in_lists, in_index) = (
                listed.prepare(&shape).unwrap(),
                indexed.prepare(&shape).unwrap(),
            );
            for (a, b) in free_moves(&world, &shape, &region, 2000, (10.0, 80.0), 0.3, 5) {
                assert_eq!(
                    listed.trace(&in_lists, a, b),
                    indexed.trace(&in_index, a, b),
                    "{a} -> {b}"
                );
            }
        }
    }

    /// When the tree enters solid where no brush is entered (here a collider whose brushes have
    /// been taken away after the tree was compiled with them, which only a test can make), the
    /// answer is the exact reference's for the move, not a hit without a surface.
    #[test]
    fn a_tree_entry_without_a_brush_is_answered_by_the_exact_reference() {
        let wall = cspace_geom::Brush::from_aabb(Aabb::new(
            DVec3::new(64.0, -256.0, -256.0),
            DVec3::new(96.0, 256.0, 256.0),
        ))
        .unwrap();
        let floor = cspace_geom::Brush::from_aabb(Aabb::new(
            DVec3::new(-256.0, -256.0, -96.0),
            DVec3::new(256.0, 256.0, -64.0),
        ))
        .unwrap();
        let world = Arc::new(World::from_brushes([wall, floor.clone()]));
        let pose = Pose::quake_standing();
        let tree = compile(
            &world,
            std::slice::from_ref(&pose),
            &CompileOptions::default(),
        )
        .unwrap()
        .tree;
        let mut onion = OnionCollider::new(world, tree).unwrap();
        // The floor alone: the tree still has the wall, the brushes and their lists do not.
        let floor_only = Arc::new(World::from_brushes([floor]));
        onion.near = vec![NearBrushes::new(
            &floor_only,
            onion
                .tree
                .space_tree(0)
                .starts
                .as_ref()
                .map(|(grid, _)| grid),
            &BoxShape {
                mins: pose.mins,
                maxs: pose.maxs,
            },
        )];
        onion.world = floor_only.clone();
        onion.exact = ExactCollider::new(floor_only.clone());
        let mut onion = WithContext::new(onion);
        let shape = Shape::new_box(pose.mins, pose.maxs).unwrap();
        let prepared = onion.prepare(&shape).unwrap();
        let mut exact = WithContext::new(ExactCollider::new(floor_only));
        let reference = exact.prepare(&shape).unwrap();
        // Into the wall the tree has: the exact answer is a miss, with the end reached.
        let (a, b) = (DVec3::new(0.0, 0.0, 0.0), DVec3::new(60.0, 0.0, 0.0));
        let hit = onion.trace(&prepared, a, b);
        assert_eq!(hit, exact.trace(&reference, a, b));
        assert_eq!(hit.outcome(), cspace_geom::TraceOutcome::Miss);
        assert_eq!((hit.fraction(), hit.end()), (1.0, b));
        assert_eq!(onion.counters().hits, 0);
        // Down onto the floor both have: the ordinary answer.
        let (a, b) = (DVec3::new(0.0, 0.0, 0.0), DVec3::new(0.0, 0.0, -80.0));
        let hit = onion.trace(&prepared, a, b);
        assert!(hit.is_hit());
        assert_eq!(hit, exact.trace(&reference, a, b));
        assert_eq!(onion.counters().hits, 1);
    }

    /// A shape prepared by one collider is refused (in debug builds) by another, even one over
    /// the same tree: its slot indexes the spaces of the tree that made it.
    #[test]
    #[cfg(debug_assertions)]
    fn a_shape_prepared_by_another_collider_is_refused() {
        let world = Arc::new(World::from_brushes([]));
        let poses = [Pose::quake_standing(), Pose::quake_crouching()];
        let tree = Arc::new(
            compile(&world, &poses, &CompileOptions::default())
                .unwrap()
                .tree,
        );
        let (one, other) = (
            OnionCollider::new(world.clone(), tree.clone()).unwrap(),
            OnionCollider::new(world, tree).unwrap(),
        );
        let shape = Shape::from(&poses[1]);
        let prepared = one.prepare(&shape).unwrap();
        let mut ctx = QueryContext::new();
        let (a, b) = (DVec3::ZERO, DVec3::X);
        assert!(one.trace(&mut ctx, &prepared, a, b).fraction() == 1.0);
        let refused = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            other.trace(&mut ctx, &prepared, a, b)
        }));
        let message = refused.expect_err("another collider's shape is refused");
        let message = message
            .downcast_ref::<String>()
            .map(String::as_str)
            .unwrap_or_default();
        assert!(message.contains("did not prepare it"), "{message}");
        assert!(other.key.made(&other.prepare(&shape).unwrap()));
    }
}
