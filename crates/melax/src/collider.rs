//! [`MelaxCollider`]: every shape, any size, on one bevelled tree (the [`Collider`] contract).

use std::sync::Arc;

use cspace_geom::collider::{lerp, skin_fraction};
use cspace_geom::exact::{FirstEntry, Span, first_entry, first_entry_across, is_thin};
use cspace_geom::{
    BrushId, Collider, ColliderKey, DVec3, Hit, HitSurface, Parts, Plane, Prepared, QueryContext,
    QueryCounters, Shape, TypedCollider, UnsupportedShape, World, WorldMismatch,
};

use crate::bevel::BevelMode;
use crate::free_index::{FreeIndex, FreeIndexes};
use crate::hit_check::{
    Outcome, Scratch, collect_spans, collect_thin, entry_plane, first_hit, point_solid,
    thin_point_solid, touch_time,
};
use crate::offsets::{
    BoxOffsets, CylinderOffsets, HullOffsets, Offsets, PointOffsets, SphereOffsets,
};
use crate::tree::MelaxTree;
use cspace_geom::tolerance::{APPROXIMATE_SURFACE, CONTACT};

/// Melax's dynamic plane shifting over one [`MelaxTree`]: boxes, spheres, vertical cylinders and
/// convex hulls of any size, without recompiling (Section 3).
///
/// Named `melax` with the paper's bevels, `melax-exact` with the complete box bevels (box traces
/// then agree with the exact backend) and `melax-plain` without bevels. Queries take `&self` and
/// a [`QueryContext`] (the walk's stack and span list; the nodes visited, Figure 6's count, go to
/// its counters), or the typed [`ContextFor<MelaxCollider>`](cspace_geom::ContextFor)
/// ([`TypedCollider`]): one tree serves every thread.
///
/// Spheres and vertical cylinders get a free-space index of their own at their first
/// [`prepare`](Collider::prepare) (issue 31's certified misses, [`crate::free_index`]): a move
/// inside a verified free box of its start's cell is answered a miss without a walk, the walk's
/// own answer bit for bit. The indexes are shared by the collider's clones;
/// [`MelaxCollider::without_free_index`] leaves them out.
#[derive(Debug, Clone)]
pub struct MelaxCollider {
    world: Arc<World>,
    tree: Arc<MelaxTree>,
    /// The shapes' free-space indexes (`None`: left out).
    free: Option<Arc<FreeIndexes>>,
    key: ColliderKey,
}

impl MelaxCollider {
    /// The backend for `world` over `tree`, which must have been built from `world` (same
    /// fingerprint).
    pub fn new(world: Arc<World>, tree: Arc<MelaxTree>) -> Result<MelaxCollider, WorldMismatch> {
        if tree.world_fingerprint() != world.fingerprint() {
            return Err(WorldMismatch {
                tree: tree.world_fingerprint(),
                world: world.fingerprint(),
            });
        }
        Ok(MelaxCollider {
            world,
            tree,
            free: Some(Arc::default()),
            key: ColliderKey::new(),
        })
    }

    /// Compiles `world`'s plain tree with the onion compiler, bevels it with `bevel` and answers
    /// from it ([`crate::compile()`]).
    pub fn compile(
        world: Arc<World>,
        bevel: BevelMode,
    ) -> Result<MelaxCollider, crate::MelaxError> {
        let tree = crate::compile(&world, bevel)?;
        Ok(MelaxCollider {
            world,
            tree: Arc::new(tree),
            free: Some(Arc::default()),
            key: ColliderKey::new(),
        })
    }

    /// The same collider without free-space indexes: every trace walks the tree. The answers are
    /// the same, bit for bit (what the tests compare); only the time differs. Shapes prepared by
    /// it build nothing.
    pub fn without_free_index(mut self) -> MelaxCollider {
        self.free = None;
        self
    }

    /// The free-space indexes built so far (one per sphere, cylinder or box prepared, in the
    /// order of their first prepare).
    pub fn free_indexes(&self) -> impl Iterator<Item = &FreeIndex> {
        self.free.iter().flat_map(|f| f.built())
    }

    /// The free-space index of a shape prepared by this collider, if it has one.
    pub fn free_index(&self, prepared: &Prepared) -> Option<&FreeIndex> {
        self.free.as_ref()?.get(prepared.slot())
    }

    /// The tree answered from.
    pub fn tree(&self) -> &Arc<MelaxTree> {
        &self.tree
    }

    /// The world answered for.
    pub fn world(&self) -> &Arc<World> {
        &self.world
    }

    /// The number of solid cells `shape` at `position` reaches, and the nodes and leaves visited
    /// finding them all (Melax's `F()` with shifted planes; Figure 6's count).
    pub fn cells_reached(
        &self,
        ctx: &mut QueryContext,
        shape: &Shape,
        position: DVec3,
    ) -> (usize, u64) {
        struct Query<'a> {
            tree: &'a MelaxTree,
            position: DVec3,
            scratch: &'a mut Scratch,
        }
        impl FnOnceOffsets<(usize, u64)> for Query<'_> {
            fn call<O: Offsets>(self, offsets: &O) -> (usize, u64) {
                crate::hit_check::cells_reached(self.tree, offsets, self.position, self.scratch)
            }
        }
        let scratch = self.key.parts::<Scratch>(ctx).scratch;
        let query = Query {
            tree: &self.tree,
            position,
            scratch,
        };
        with_offsets(shape, query)
    }

    fn trace_with<O: Offsets>(
        &self,
        parts: Parts<'_, Scratch>,
        offsets: &O,
        prepared: &Prepared,
        start: DVec3,
        end: DVec3,
    ) -> Hit {
        let tree = &*self.tree;
        let skin = prepared.skin();
        let Parts {
            scratch, counters, ..
        } = parts;
        counters.traces += 1;
        let visited = &mut counters.nodes_visited;
        let thin = is_thin(prepared.shape());
        if start == end {
            let solid = if thin {
                thin_point_solid(tree, offsets, start, visited)
            } else {
                point_solid(tree, offsets, start, scratch, visited)
            };
            return if solid {
                Hit::solid(start)
            } else {
                Hit::miss(end)
            };
        }
        // A shape without width across some plane: a segment lying on a plane with solid on
        // both sides, or a start on a seam of touching cells (or on a plane splitting solid)
        // that the move crosses, which is inside their union though it enters the next cell
        // only after the start: the union decides (issue 35; the exact backend's rule).
        let outcome = first_hit(tree, offsets, start, end, skin, scratch, visited);
        let union = thin
            && match outcome {
                Outcome::OnPlane | Outcome::StartSolid => true,
                Outcome::Hit { entry, .. } => {
                    entry_plane(tree, offsets, entry).signed_distance(start) <= CONTACT
                }
                Outcome::Miss => false,
            };
        if union {
            counters.merged += 1;
            let start_solid = thin_point_solid(tree, offsets, start, visited);
            collect_thin(tree, offsets, start, end, scratch, visited);
            let end_solid = || thin_point_solid(tree, offsets, end, &mut 0);
            let Scratch {
                thin_spans,
                facing,
                across,
                ..
            } = scratch;
            let outcome = first_entry_across(
                thin_spans,
                facing,
                (start, end, skin),
                start_solid,
                end_solid,
                across,
            );
            return outcome.into_hit(start, end, |plane, time, cell, start_solid| {
                counters.hits += 1;
                let surface = self.surface(prepared.shape(), cell, plane, time, start, end);
                Hit::blocked(start, end, skin, surface, start_solid)
            });
        }
        match outcome {
            Outcome::Miss => Hit::miss(end),
            Outcome::Hit { cell, entry, .. } => {
                counters.hits += 1;
                let plane = entry_plane(tree, offsets, entry);
                let time = touch_time(&plane, start, end);
                let surface = self.surface(prepared.shape(), cell, plane, time, start, end);
                Hit::blocked(start, end, skin, surface, false)
            }
            Outcome::OnPlane => unreachable!("only a thin shape lies on a plane"),
            Outcome::StartSolid => {
                counters.merged += 1;
                collect_spans(tree, offsets, start, end, scratch, visited);
                let pull_back = |span: &Span| {
                    span.entry.map_or(f64::INFINITY, |(plane, _)| {
                        skin_fraction(
                            plane.signed_distance(start),
                            plane.signed_distance(end),
                            skin,
                        )
                    })
                };
                match first_entry(&mut scratch.spans, pull_back) {
                    None => Hit::miss(end),
                    Some(FirstEntry::AllSolid) => Hit::solid(start),
                    Some(FirstEntry::Free { start_solid }) => Hit::free(end, start_solid),
                    Some(FirstEntry::Hit { start_solid, index }) => {
                        counters.hits += 1;
                        let (span, cell) = scratch.spans[index];
                        let (plane, time) = span
                            .entry
                            .expect("a span entered after the start has an entry plane");
                        let surface = self.surface(prepared.shape(), cell, plane, time, start, end);
                        Hit::blocked(start, end, skin, surface, start_solid)
                    }
                }
            }
        }
    }

    /// The hit surface: the shifted plane, the brush of the cell nearest the shape's touching
    /// point, and the point of that brush nearest it (as the exact backend reports it). Computed
    /// for the returned hit only.
    fn surface(
        &self,
        shape: &Shape,
        cell: u32,
        plane: Plane,
        time: f64,
        start: DVec3,
        end: DVec3,
    ) -> HitSurface {
        let touch = lerp(start, end, time);
        let on_shape = touch + shape.support_point(-plane.normal());
        let mut best: Option<(f64, BrushId, DVec3)> = None;
        for &id in self.tree.brushes_of(cell) {
            let point = self.world.brush(id).brush.closest_point(on_shape);
            let distance = point.distance_squared(on_shape);
            if best.is_none_or(|(d, _, _)| distance < d) {
                best = Some((distance, id, point));
            }
        }
        let (brush, point) = match best {
            Some((_, id, point)) => (id, point),
            // Every solid cell lies in some brush; this only guards a tree built from another
            // world.
            None => self
                .world
                .find_contact(shape, touch, plane.normal(), APPROXIMATE_SURFACE)
                .unwrap_or((BrushId(0), on_shape)),
        };
        HitSurface {
            plane,
            point,
            brush,
            time_of_impact: time,
        }
    }
}

/// Calls `f` with the offsets of `shape` (a zero-size box is a point).
fn with_offsets<R>(shape: &Shape, f: impl FnOnceOffsets<R>) -> R {
    match shape {
        Shape::Box(b) if b.mins == DVec3::ZERO && b.maxs == DVec3::ZERO => f.call(&PointOffsets),
        Shape::Box(b) => f.call(&BoxOffsets::new(b.mins, b.maxs)),
        Shape::Sphere { radius } => f.call(&SphereOffsets { radius: *radius }),
        Shape::Cylinder {
            radius,
            half_height,
        } => f.call(&CylinderOffsets {
            radius: *radius,
            half_height: *half_height,
        }),
        Shape::Hull(h) => f.call(&HullOffsets::new(h)),
    }
}

/// A closure generic over the offsets type.
trait FnOnceOffsets<R> {
    fn call<O: Offsets>(self, offsets: &O) -> R;
}

impl Collider for MelaxCollider {
    fn name(&self) -> &str {
        match self.tree.bevel() {
            BevelMode::Paper { .. } => "melax",
            BevelMode::Exact => "melax-exact",
            BevelMode::None => "melax-plain",
        }
    }

    fn world(&self) -> &Arc<World> {
        &self.world
    }

    fn prepare(&self, shape: &Shape) -> Result<Prepared, UnsupportedShape> {
        let slot = self
            .free
            .as_ref()
            .map_or(0, |f| f.slot_for(&self.world, &self.tree, shape));
        Ok(self.key.prepare(shape.clone(), slot))
    }

    fn trace(&self, ctx: &mut QueryContext, prepared: &Prepared, start: DVec3, end: DVec3) -> Hit {
        // The certificate first, before the scratch is looked up: a certified miss needs only
        // the counters.
        if let Some(hit) = self.certified(&mut ctx.counters, prepared, start, end) {
            return hit;
        }
        self.walk(self.key.parts(ctx), prepared, start, end)
    }

    fn is_solid(&self, ctx: &mut QueryContext, prepared: &Prepared, position: DVec3) -> bool {
        self.is_solid_parts(self.key.parts(ctx), prepared, position)
    }
}

impl TypedCollider for MelaxCollider {
    type Scratch = Scratch;

    #[inline]
    fn key(&self) -> &ColliderKey {
        &self.key
    }

    fn trace_parts(
        &self,
        parts: Parts<'_, Scratch>,
        prepared: &Prepared,
        start: DVec3,
        end: DVec3,
    ) -> Hit {
        if let Some(hit) = self.certified(parts.counters, prepared, start, end) {
            return hit;
        }
        self.walk(parts, prepared, start, end)
    }

    fn is_solid_parts(
        &self,
        parts: Parts<'_, Scratch>,
        prepared: &Prepared,
        position: DVec3,
    ) -> bool {
        cspace_geom::domain::debug_check_trace(position, position);
        self.key.check(prepared);
        if self
            .free_index(prepared)
            .is_some_and(|free| free.certifies(position, position))
        {
            // Inside a verified free box: free, as the walk below finds it.
            parts.counters.point_queries += 1;
            return false;
        }
        let Parts {
            scratch, counters, ..
        } = parts;
        counters.point_queries += 1;
        struct Query<'a> {
            tree: &'a MelaxTree,
            position: DVec3,
            scratch: &'a mut Scratch,
            visited: &'a mut u64,
            thin: bool,
        }
        impl FnOnceOffsets<bool> for Query<'_> {
            fn call<O: Offsets>(self, offsets: &O) -> bool {
                if self.thin {
                    thin_point_solid(self.tree, offsets, self.position, self.visited)
                } else {
                    point_solid(
                        self.tree,
                        offsets,
                        self.position,
                        self.scratch,
                        self.visited,
                    )
                }
            }
        }
        with_offsets(
            prepared.shape(),
            Query {
                tree: &self.tree,
                position,
                scratch,
                visited: &mut counters.nodes_visited,
                thin: is_thin(prepared.shape()),
            },
        )
    }
}

impl MelaxCollider {
    /// The certified miss of a move inside the free box of its start's cell (the shape's
    /// free-space index, [`crate::free_index`]), counted; `None` (a fall-through, counted with
    /// its reason when the shape has an index) when the walk must answer. The domain and the key
    /// are checked here (in debug builds), once per trace.
    #[inline(always)]
    fn certified(
        &self,
        counters: &mut QueryCounters,
        prepared: &Prepared,
        start: DVec3,
        end: DVec3,
    ) -> Option<Hit> {
        cspace_geom::domain::debug_check_trace(start, end);
        self.key.check(prepared);
        let free = self.free_index(prepared)?;
        // The start's cell, then the end's: a move leaving its start's box may lie in the box of
        // the cell it ends in. A fall-through is counted with the start's cell's reason.
        match free.verdict(start, end) {
            Some(reason) if !free.certifies(end, start) => {
                counters.fell_through(reason);
                None
            }
            _ => {
                counters.traces += 1;
                counters.certified += 1;
                Some(Hit::miss(end))
            }
        }
    }

    /// `HitCheckBSP` for the shape, with its offsets.
    #[inline(always)]
    fn walk(
        &self,
        parts: Parts<'_, Scratch>,
        prepared: &Prepared,
        start: DVec3,
        end: DVec3,
    ) -> Hit {
        match prepared.shape() {
            Shape::Box(b) if b.mins == DVec3::ZERO && b.maxs == DVec3::ZERO => {
                self.trace_with(parts, &PointOffsets, prepared, start, end)
            }
            Shape::Box(b) => self.trace_with(
                parts,
                &BoxOffsets::new(b.mins, b.maxs),
                prepared,
                start,
                end,
            ),
            Shape::Sphere { radius } => self.trace_with(
                parts,
                &SphereOffsets { radius: *radius },
                prepared,
                start,
                end,
            ),
            Shape::Cylinder {
                radius,
                half_height,
            } => self.trace_with(
                parts,
                &CylinderOffsets {
                    radius: *radius,
                    half_height: *half_height,
                },
                prepared,
                start,
                end,
            ),
            Shape::Hull(h) => self.trace_with(parts, &HullOffsets::new(h), prepared, start, end),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::NaiveBsp;
    use cspace_geom::generate::{RandomBoxes, Rng};
    use cspace_geom::{Aabb, Brush, ExactCollider, WithContext};

    fn collider(brushes: Vec<Brush>, bevel: BevelMode) -> WithContext<MelaxCollider> {
        let world = Arc::new(World::from_brushes(brushes.clone()));
        let tree = MelaxTree::from_bsp(&world, &NaiveBsp::new(&brushes), bevel);
        tree.validate().unwrap();
        WithContext::new(MelaxCollider::new(world, Arc::new(tree)).unwrap())
    }

    #[test]
    fn spheres_of_any_size_land_on_one_floor() {
        let floor = Brush::from_aabb(Aabb::new(
            DVec3::new(-256.0, -256.0, -16.0),
            DVec3::new(256.0, 256.0, 0.0),
        ))
        .unwrap();
        let mut melax = collider(vec![floor], BevelMode::PAPER);
        for radius in [1.0, 8.0, 20.0] {
            let ball = melax.prepare(&Shape::new_sphere(radius).unwrap()).unwrap();
            let hit = melax.trace(
                &ball,
                DVec3::new(3.0, 2.0, 100.0),
                DVec3::new(3.0, 2.0, -100.0),
            );
            assert!(
                (hit.end().z - (radius + 1.0 / 32.0)).abs() < 1e-9,
                "{hit:?}"
            );
            let surface = hit.surface().unwrap();
            assert_eq!(surface.plane.normal(), DVec3::Z);
            assert!(surface.point.abs_diff_eq(DVec3::new(3.0, 2.0, 0.0), 1e-9));
        }
    }

    /// Exact bevels on a few random boxes: box traces match the exact backend (the integration
    /// tests do this at scale on the onion trees).
    #[test]
    fn exact_bevels_give_exact_box_traces_on_a_naive_tree() {
        let brushes = RandomBoxes::BENCHMARK.scaled(12).brushes();
        let mut melax = collider(brushes.clone(), BevelMode::Exact);
        let world = melax.world().clone();
        let mut exact = WithContext::new(ExactCollider::new(world.clone()));
        let player = Shape::new_box(
            DVec3::new(-16.0, -16.0, -24.0),
            DVec3::new(16.0, 16.0, 32.0),
        )
        .unwrap();
        let shape = melax.prepare(&player).unwrap();
        let reference = exact.prepare(&player).unwrap();
        let mut rng = Rng::new(3);
        let bounds = world.bounds().loosened(40.0);
        for i in 0..4000 {
            let start = rng.point_in(&bounds);
            let end = start + rng.unit_vector() * rng.range(1.0, 200.0);
            let (a, b) = (
                melax.trace(&shape, start, end),
                exact.trace(&reference, start, end),
            );
            assert_eq!(
                (a.is_hit(), a.start_solid(), a.all_solid()),
                (b.is_hit(), b.start_solid(), b.all_solid()),
                "trace {i} {start} -> {end}: melax {a:?} exact {b:?}"
            );
            assert!(
                a.end().abs_diff_eq(b.end(), 1e-6),
                "trace {i}: melax {a:?} exact {b:?}"
            );
        }
    }
}
