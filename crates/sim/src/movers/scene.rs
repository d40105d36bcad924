//! The static world and the movers where they are now, as one collider.

use std::borrow::Cow;
use std::sync::Arc;

use cspace_geom::{
    Aabb, BrushId, Collider, ColliderKey, DVec3, Hit, Prepared, QueryContext, Shape,
    UnsupportedShape, World,
};

use super::models::Models;
use crate::box_grid::BoxGrid;

/// The static world's collider and every mover's model at its current place, answering as one
/// collider: a trace runs on the static world and on every mover whose place meets the move's
/// swept bounds, each in the mover's frame (the segment translated by minus its offset: a
/// Minkowski sum commutes with translation, so each structure stays exact), merged as Quake III's
/// `SV_ClipMoveToEntities` merges its entities' traces ([`Hit::nearer`]: a move never leaving
/// solid in one never leaves it; otherwise the earliest contact wins, and starting in solid in
/// any is starting in solid). A point is solid when it is solid in the world or in a mover.
///
/// Brush ids: the world's first, then each mover's, in mover order ([`Scene::mover_of_brush`]).
/// The k-UDOP cache wraps the world only (its certified misses are of the world); movers are
/// always traced, so a cache never changes an answer.
///
/// A mover's place changes between steps ([`Scene::set_offset`], `&mut self`); queries take
/// `&self`, so every thread traces one scene while the places stand still.
pub struct Scene {
    key: ColliderKey,
    inner: Arc<dyn Collider>,
    models: Arc<Models>,
    /// Each of the models' shapes, prepared for `inner`.
    inner_prepared: Vec<Option<Prepared>>,
    /// Each mover's offset from where the file draws it.
    offsets: Vec<DVec3>,
    /// Each mover's bounds at its offset.
    placed: Vec<Aabb>,
    /// Each mover's first brush id in the scene.
    first_brush: Vec<u32>,
    /// Which movers a box may meet.
    grid: BoxGrid,
    /// Each mover: removed from the world ([`Scene::remove`]).
    removed: Vec<bool>,
}

impl std::fmt::Debug for Scene {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scene")
            .field("backend", &self.inner.name())
            .field("movers", &self.offsets.len())
            .finish()
    }
}

impl Scene {
    /// The world `inner` answers for, with `models` at offset zero (where the file draws them).
    pub fn new(inner: Arc<dyn Collider>, models: Arc<Models>) -> Scene {
        let inner_prepared = models
            .shapes()
            .iter()
            .map(|s| inner.prepare(s).ok())
            .collect();
        let mut first_brush = Vec::with_capacity(models.len());
        let mut next = inner.world().len() as u32;
        for m in 0..models.len() {
            first_brush.push(next);
            next += models.brush_count(m);
        }
        let offsets = vec![DVec3::ZERO; models.len()];
        let placed: Vec<Aabb> = (0..models.len()).map(|m| models.bounds(m)).collect();
        let mut grid = BoxGrid::new((0..models.len()).map(|m| models.reach(m)).collect());
        for (m, p) in placed.iter().enumerate() {
            grid.placed(m, p);
        }
        let removed = vec![false; models.len()];
        Scene {
            key: ColliderKey::new(),
            inner,
            models,
            inner_prepared,
            offsets,
            placed,
            first_brush,
            grid,
            removed,
        }
    }

    /// Removes mover `m` from the world for good (a Quake 1 `killtarget`): no trace or point
    /// query meets it any more; its offset is kept.
    pub fn remove(&mut self, m: usize) {
        self.removed[m] = true;
        self.placed[m] = Aabb::EMPTY;
    }

    /// Per mover, in mover order: removed ([`Scene::remove`]).
    pub fn removed(&self) -> &[bool] {
        &self.removed
    }

    /// The static world's collider.
    pub fn inner(&self) -> &Arc<dyn Collider> {
        &self.inner
    }

    /// The movers' structures.
    pub fn models(&self) -> &Arc<Models> {
        &self.models
    }

    /// Moves mover `m` to `offset` (from where the file draws it).
    pub fn set_offset(&mut self, m: usize, offset: DVec3) {
        self.offsets[m] = offset;
        if !self.removed[m] {
            self.placed[m] = self.models.bounds(m).translated(offset);
            self.grid.placed(m, &self.placed[m]);
        }
    }

    /// Mover `m`'s offset.
    pub fn offset(&self, m: usize) -> DVec3 {
        self.offsets[m]
    }

    /// Every mover's offset, in mover order.
    pub fn offsets(&self) -> &[DVec3] {
        &self.offsets
    }

    /// Mover `m`'s bounds where it is now.
    pub fn placed(&self, m: usize) -> Aabb {
        self.placed[m]
    }

    /// The mover a scene brush belongs to (`None` for the world's).
    pub fn mover_of_brush(&self, brush: BrushId) -> Option<usize> {
        let after = self.first_brush.partition_point(|&f| f <= brush.0);
        let m = after.checked_sub(1)?;
        (brush.0 < self.first_brush[m] + self.models.brush_count(m)).then_some(m)
    }

    /// The world's prepared shape for the scene's `prepared`, with its skin: the one prepared
    /// with the scene's shape when the skins are the same bits (a simulation's shapes), else a
    /// copy with the other skin.
    fn inner_shape(&self, prepared: &Prepared) -> Cow<'_, Prepared> {
        let inner = self.inner_prepared[prepared.slot() as usize]
            .as_ref()
            .expect("the scene prepares only shapes its world takes");
        if inner.skin().to_bits() == prepared.skin().to_bits() {
            Cow::Borrowed(inner)
        } else {
            Cow::Owned(inner.clone().with_skin(prepared.skin()))
        }
    }

    /// Sweeps `prepared` against mover `m` alone, where it is now (world coordinates).
    pub fn trace_mover(
        &self,
        ctx: &mut QueryContext,
        m: usize,
        prepared: &Prepared,
        start: DVec3,
        end: DVec3,
    ) -> Option<Hit> {
        if self.removed[m] {
            return None;
        }
        let collider = self.models.collider(m)?;
        let shape = self
            .models
            .prepared(m, prepared.slot() as usize)
            .clone()
            .with_skin(prepared.skin());
        let o = self.offsets[m];
        let local = collider.trace(ctx, &shape, start - o, end - o);
        Some(local.translated(o, start, end, self.first_brush[m]))
    }

    /// True when `prepared` at `position` overlaps mover `m` where it is now.
    pub fn in_mover(
        &self,
        ctx: &mut QueryContext,
        m: usize,
        prepared: &Prepared,
        position: DVec3,
    ) -> bool {
        let Some(collider) = self.models.collider(m) else {
            return false;
        };
        if self.removed[m] {
            return false;
        }
        let shape = self.models.prepared(m, prepared.slot() as usize);
        collider.is_solid(ctx, shape, position - self.offsets[m])
    }

    /// True when some mover can meet `bounds` wherever its clock takes it: its reach (every place
    /// its motion goes, [`cspace_entities::Mover::travel_bounds`]) or its place now meets them.
    pub fn may_meet(&self, bounds: &Aabb) -> bool {
        let mut any = false;
        self.grid.candidates(bounds, |m| {
            any = self.models.reach(m).intersects(bounds) || self.placed[m].intersects(bounds);
            !any
        });
        any
    }

    /// True when some mover's place meets `bounds`.
    pub fn meets_any(&self, bounds: &Aabb) -> bool {
        let mut any = false;
        self.meeting(bounds, |_| {
            any = true;
            false
        });
        any
    }

    /// [`Collider::trace`] for a caller that knows `quiet` meets no mover's place (checked
    /// once with [`Scene::meets_any`] while the movers stand still, as they do while the agents
    /// move): a move whose swept bounds lie in `quiet` meets no mover either, so the static
    /// world's answer is the scene's and no mover is looked up; any other move is traced in full.
    pub fn trace_in_quiet(
        &self,
        ctx: &mut QueryContext,
        prepared: &Prepared,
        start: DVec3,
        end: DVec3,
        quiet: &Aabb,
    ) -> Hit {
        let swept = prepared.swept_bounds(start, end);
        if quiet.contains(&swept) {
            self.key.check(prepared);
            self.inner
                .trace(ctx, &self.inner_shape(prepared), start, end)
        } else {
            self.trace_swept(ctx, prepared, start, end, &swept)
        }
    }

    /// [`Collider::is_solid`] for a caller that knows `quiet` meets no mover's place (as
    /// [`Scene::trace_in_quiet`]).
    pub fn is_solid_in_quiet(
        &self,
        ctx: &mut QueryContext,
        prepared: &Prepared,
        position: DVec3,
        quiet: &Aabb,
    ) -> bool {
        if quiet.contains(&prepared.shape().bounds().translated(position)) {
            self.key.check(prepared);
            self.inner
                .is_solid(ctx, &self.inner_shape(prepared), position)
        } else {
            self.is_solid(ctx, prepared, position)
        }
    }

    /// [`Collider::trace`] of a move whose swept bounds are `swept`
    /// ([`Prepared::swept_bounds`]).
    fn trace_swept(
        &self,
        ctx: &mut QueryContext,
        prepared: &Prepared,
        start: DVec3,
        end: DVec3,
        swept: &Aabb,
    ) -> Hit {
        self.key.check(prepared);
        let mut hit = self
            .inner
            .trace(ctx, &self.inner_shape(prepared), start, end);
        if hit.all_solid() {
            return hit;
        }
        self.meeting(swept, |m| {
            if let Some(mover) = self.trace_mover(ctx, m, prepared, start, end) {
                hit = hit.nearer(mover);
            }
            !hit.all_solid()
        });
        hit
    }

    /// Calls `each` with every mover whose place meets `bounds`, in mover order, until it says
    /// stop (the grid lists the candidates; their places decide).
    fn meeting(&self, bounds: &Aabb, mut each: impl FnMut(usize) -> bool) {
        self.grid
            .candidates(bounds, |m| !self.placed[m].intersects(bounds) || each(m));
    }
}

impl Collider for Scene {
    fn name(&self) -> &str {
        self.inner.name()
    }

    /// The static world (the movers' brushes are [`Scene::models`]'s).
    fn world(&self) -> &Arc<World> {
        self.inner.world()
    }

    fn prepare(&self, shape: &Shape) -> Result<Prepared, UnsupportedShape> {
        let refused = |reason: String| UnsupportedShape {
            backend: self.inner.name().to_string(),
            shape: shape.describe(),
            reason,
        };
        let index = self.models.shape_index(shape).ok_or_else(|| {
            refused(
                "the movers' structures were built for other shapes; build them with this one"
                    .to_string(),
            )
        })?;
        if self.inner_prepared[index].is_none() {
            return Err(self.inner.prepare(shape).unwrap_err());
        }
        Ok(self.key.prepare(shape.clone(), index as u32))
    }

    fn trace(&self, ctx: &mut QueryContext, prepared: &Prepared, start: DVec3, end: DVec3) -> Hit {
        self.trace_swept(
            ctx,
            prepared,
            start,
            end,
            &prepared.swept_bounds(start, end),
        )
    }

    fn is_solid(&self, ctx: &mut QueryContext, prepared: &Prepared, position: DVec3) -> bool {
        self.key.check(prepared);
        if self
            .inner
            .is_solid(ctx, &self.inner_shape(prepared), position)
        {
            return true;
        }
        let bounds = prepared.shape().bounds().translated(position);
        let mut solid = false;
        self.meeting(&bounds, |m| {
            solid = self.in_mover(ctx, m, prepared, position);
            !solid
        });
        solid
    }
}
