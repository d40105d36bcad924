//! The exact reference backend: the shape swept against every brush it may touch.
//!
//! Per brush, the parameter interval over which the shape overlaps the brush's interior is
//! computed exactly:
//! - boxes and convex hulls: Quake III's brush trace (`CM_TraceThroughBrush`) over the brush's
//!   planes pushed out by the shape's support, plus the bevels that make the plane set equal to
//!   the Minkowski sum ([`crate::expand`]);
//! - spheres and vertical cylinders: the line against the brush rounded by the shape (faces,
//!   edge cylinders and vertex spheres; for the cylinder, flat caps and sheared edge cylinders),
//!   see the `rounded` module.
//!
//! The intervals of all brushes are then merged, so touching brushes form one solid without
//! seams, and the hit is the first entry from empty space into solid (after the solid region the
//! move starts in, if any). A box without width along some axis (a point, a flat box) can lie in
//! the plane of a seam, touching each brush alone and inside their union: the `thin` module
//! takes the brushes in the sectors around it, and decides a point (or a start) by whether the
//! brushes it touches cover every direction around it (the `cover` module). This is the
//! yardstick every other backend is measured against.

mod cover;
mod planes;
mod rounded;
mod thin;

pub use cover::{ActivePlane, MAX_PLANES, covers_point, direction_exists};
pub use planes::span_of_planes;
pub use thin::{AcrossScratch, MergedEntry, THIN, first_entry_across};

use std::sync::Arc;

use glam::DVec3;

use crate::collider::{
    Collider, ColliderKey, Hit, HitSurface, Parts, Prepared, QueryContext, TypedCollider,
    UnsupportedShape,
};
use crate::plane::Plane;
use crate::shape::{BoxShape, Shape};
use crate::tolerance::CONTACT;
use crate::tolerance::SAME_TIME;
use crate::world::{BrushId, World};

/// Where a segment overlaps one convex solid (a brush, a BSP cell), in segment parameters
/// (`start + t * (end - start)`, `t` over the whole line, not clamped).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    /// First `t` at which the shape is deeper than [`CONTACT`] inside the brush.
    pub enter: f64,
    /// Last `t` at which it is deeper than [`CONTACT`] inside.
    pub leave: f64,
    /// Last `t` at which it is within [`CONTACT`] of the brush (closes seams between touching
    /// brushes whatever the angle of the move).
    pub leave_loose: f64,
    /// Where the shape first touches the brush: the configuration-space plane and the touch time.
    pub entry: Option<(Plane, f64)>,
}

/// The exact reference backend over a [`World`].
#[derive(Debug, Clone)]
pub struct ExactCollider {
    world: Arc<World>,
    key: ColliderKey,
}

/// The exact backend's scratch in a [`QueryContext`] or its typed context
/// ([`ContextFor<ExactCollider>`](crate::ContextFor)): the cylinder prisms of the brushes met so
/// far (per half-height), and the brush and span lists of a trace, reused. Opaque.
#[derive(Debug, Default)]
pub struct ExactScratch {
    prisms: rounded::Cache,
    ids: Vec<BrushId>,
    spans: Vec<(Span, BrushId)>,
    thin: thin::ThinScratch,
}

impl ExactCollider {
    /// The backend for `world`.
    pub fn new(world: Arc<World>) -> ExactCollider {
        ExactCollider {
            world,
            key: ColliderKey::new(),
        }
    }

    /// The world answered for.
    pub fn world(&self) -> &Arc<World> {
        &self.world
    }

    /// The span of the line `start + t * (end - start)` over which `shape` overlaps brush `id`.
    fn span(
        &self,
        prisms: &mut rounded::Cache,
        id: BrushId,
        shape: &Shape,
        start: DVec3,
        end: DVec3,
    ) -> Option<Span> {
        let brush = &self.world.brush(id).brush;
        match shape {
            Shape::Box(b) => planes::span_box(brush, b, start, end),
            Shape::Hull(h) => planes::span_hull(brush, h.polyhedron(), start, end),
            Shape::Sphere { radius } => rounded::span_sphere(brush, *radius, start, end),
            Shape::Cylinder {
                radius,
                half_height,
            } => {
                let prism = prisms.prism(self.key.value(), id, brush, *half_height);
                rounded::span_cylinder(prism, *radius, start, end)
            }
        }
    }

    /// True when `shape` at `position` is deeper than the contact tolerance inside brush `id`.
    fn brush_contains(
        &self,
        prisms: &mut rounded::Cache,
        id: BrushId,
        shape: &Shape,
        position: DVec3,
    ) -> bool {
        // Any line through the point will do: inside means the span around t = 0 is open.
        let probe = position + DVec3::X;
        self.span(prisms, id, shape, position, probe)
            .is_some_and(|s| s.enter < 0.0 && s.leave > 0.0)
    }

    fn solid_at(&self, scratch: &mut ExactScratch, shape: &Shape, position: DVec3) -> bool {
        let query = shape.bounds().translated(position).loosened(CONTACT);
        let ids = &mut scratch.ids;
        ids.clear();
        self.world.for_each_overlapping(&query, |id| ids.push(id));
        ids.sort_unstable();
        if let Shape::Box(b) = shape
            && thin::is_thin(b)
        {
            // The union decides (a point on the seam of two brushes is inside).
            self.thin_brushes(scratch, b, position, position);
            return scratch.thin.point_solid(b, position);
        }
        let prisms = &mut scratch.prisms;
        ids.iter()
            .any(|&id| self.brush_contains(prisms, id, shape, position))
    }

    /// The brushes in `scratch.ids` with their planes for a thin box's segment (see the `thin`
    /// module), into `scratch.thin`.
    fn thin_brushes(&self, scratch: &mut ExactScratch, shape: &BoxShape, start: DVec3, end: DVec3) {
        let ExactScratch { ids, thin, .. } = scratch;
        thin.clear();
        for &id in ids.iter() {
            let brush = &self.world.brush(id).brush;
            thin.add_brush(
                id,
                crate::expand::box_expanded_planes_iter(brush, shape),
                shape,
                start,
                end,
            );
        }
    }
}

impl ExactCollider {
    /// The answer for a move entering brush `id` through `plane` at `time_of_impact`: the contact
    /// point on the brush, the skin pull-back.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn blocked(
        &self,
        shape: &Shape,
        start: DVec3,
        end: DVec3,
        skin: f64,
        plane: Plane,
        time_of_impact: f64,
        id: BrushId,
        start_solid: bool,
    ) -> Hit {
        let touch = crate::collider::lerp(start, end, time_of_impact.clamp(0.0, 1.0));
        let on_shape = touch + shape.support_point(-plane.normal());
        let point = self.world.brush(id).brush.closest_point(on_shape);
        let surface = HitSurface {
            plane,
            point,
            brush: id,
            time_of_impact: time_of_impact.clamp(0.0, 1.0),
        };
        Hit::blocked(start, end, skin, surface, start_solid)
    }
}

impl Collider for ExactCollider {
    fn name(&self) -> &str {
        "exact"
    }

    fn world(&self) -> &Arc<World> {
        &self.world
    }

    fn prepare(&self, shape: &Shape) -> Result<Prepared, UnsupportedShape> {
        Ok(self.key.prepare(shape.clone(), 0))
    }

    fn trace(&self, ctx: &mut QueryContext, prepared: &Prepared, start: DVec3, end: DVec3) -> Hit {
        self.trace_parts(self.key.parts(ctx), prepared, start, end)
    }

    fn is_solid(&self, ctx: &mut QueryContext, prepared: &Prepared, position: DVec3) -> bool {
        self.is_solid_parts(self.key.parts(ctx), prepared, position)
    }

    fn trace_among(
        &self,
        ctx: &mut QueryContext,
        prepared: &Prepared,
        start: DVec3,
        end: DVec3,
        brushes: &[BrushId],
    ) -> Option<Hit> {
        self.key.check(prepared);
        let Parts {
            scratch, counters, ..
        } = self.key.parts::<ExactScratch>(ctx);
        let hit = self.sweep_among(
            scratch,
            prepared.shape(),
            prepared.skin(),
            start,
            end,
            brushes,
        )?;
        counters.traces += 1;
        counters.hits += u64::from(hit.is_hit());
        Some(hit)
    }
}

impl TypedCollider for ExactCollider {
    type Scratch = ExactScratch;

    #[inline]
    fn key(&self) -> &ColliderKey {
        &self.key
    }

    fn trace_parts(
        &self,
        parts: Parts<'_, ExactScratch>,
        prepared: &Prepared,
        start: DVec3,
        end: DVec3,
    ) -> Hit {
        crate::domain::debug_check_trace(start, end);
        self.key.check(prepared);
        let Parts {
            scratch, counters, ..
        } = parts;
        counters.traces += 1;
        let hit = self.sweep(scratch, prepared.shape(), prepared.skin(), start, end);
        counters.hits += u64::from(hit.is_hit());
        hit
    }

    fn is_solid_parts(
        &self,
        parts: Parts<'_, ExactScratch>,
        prepared: &Prepared,
        position: DVec3,
    ) -> bool {
        crate::domain::debug_check_trace(position, position);
        self.key.check(prepared);
        parts.counters.point_queries += 1;
        self.solid_at(parts.scratch, prepared.shape(), position)
    }
}

impl ExactCollider {
    /// The exact answer for `shape` with `skin` swept from `start` to `end`, without a
    /// [`Prepared`] (the answer does not depend on a slot): what another backend answers when its
    /// own structure cannot (the onion's, for a hit whose brush it cannot find). Counting is the
    /// caller's.
    pub fn sweep(
        &self,
        scratch: &mut ExactScratch,
        shape: &Shape,
        skin: f64,
        start: DVec3,
        end: DVec3,
    ) -> Hit {
        self.sweep_from(scratch, shape, skin, start, end, None)
            .expect("a sweep over the spatial index always answers")
    }

    /// [`ExactCollider::sweep`]'s answer when the shape swept from `start` to `end` overlaps no
    /// brush outside `brushes` (sorted by id): the caller's proof stands in for the spatial
    /// index ([`Collider::trace_among`]). `None` for a move that stays put and for a thin box,
    /// whose answers come from the union of the brushes around it, not from their spans.
    ///
    /// The answer is `sweep`'s bit for bit: a brush the swept shape does not overlap never
    /// yields a span that `sweep` keeps (kept spans go deeper than [`CONTACT`] into their
    /// brush), so `sweep` keeps the spans of the listed brushes that its index returns, and a
    /// listed brush the index would not return (its bounds are farther than the candidate
    /// bounds from the move) has no kept span either. The bounds test only skips the latter
    /// early.
    pub fn sweep_among(
        &self,
        scratch: &mut ExactScratch,
        shape: &Shape,
        skin: f64,
        start: DVec3,
        end: DVec3,
        brushes: &[BrushId],
    ) -> Option<Hit> {
        self.sweep_from(scratch, shape, skin, start, end, Some(brushes))
    }

    /// The sweep over the brushes the spatial index returns along the move (`among` `None`), or
    /// over those of `among` whose bounds meet the move's candidate bounds (then `None` for a
    /// move that stays put and for a thin box). One body for both. It, [`first_entry`] and the
    /// hit surface are always inlined, as the compiler laid out `sweep` alone: left to it, one or
    /// another went out of line and the exact backend's traces took 0.5 to 3 % more instructions
    /// on `quake3_ramp.toml` (callgrind, four layouts tried).
    #[inline(always)]
    fn sweep_from(
        &self,
        scratch: &mut ExactScratch,
        shape: &Shape,
        skin: f64,
        start: DVec3,
        end: DVec3,
        among: Option<&[BrushId]>,
    ) -> Option<Hit> {
        let thin = is_thin(shape);
        if among.is_some() && (start == end || thin) {
            return None;
        }
        if start == end {
            return Some(if self.solid_at(scratch, shape, start) {
                Hit::solid(start)
            } else {
                Hit::miss(end)
            });
        }
        let bounds = shape.bounds().loosened(CONTACT * 16.0 + skin);
        scratch.ids.clear();
        let ids = &mut scratch.ids;
        match among {
            None => {
                self.world
                    .for_each_along(start, end, &bounds, |id| ids.push(id));
                ids.sort_unstable();
            }
            Some(brushes) => {
                let swept = bounds.translated(start).merged(bounds.translated(end));
                ids.extend(
                    brushes
                        .iter()
                        .copied()
                        .filter(|&id| self.world.brush(id).brush.bounds().intersects(&swept)),
                );
            }
        }
        if let Shape::Box(b) = shape
            && thin
        {
            self.thin_brushes(scratch, b, start, end);
            let start_solid = scratch.thin.point_solid(b, start);
            let outcome = scratch.thin.first_entry(b, start, end, skin, start_solid);
            return Some(
                outcome.into_hit(start, end, |plane, time, id, start_solid| {
                    self.blocked(shape, start, end, skin, plane, time, id, start_solid)
                }),
            );
        }
        let ExactScratch {
            prisms, ids, spans, ..
        } = scratch;
        spans.clear();
        for &id in ids.iter() {
            if let Some(span) = self.span(prisms, id, shape, start, end) {
                // Keep spans that meet [0, 1].
                if span.enter < 1.0 && span.leave_loose > 0.0 && span.enter < span.leave {
                    spans.push((span, id));
                }
            }
        }
        let pull_back = |span: &Span| {
            span.entry.map_or(f64::INFINITY, |(plane, _)| {
                crate::collider::skin_fraction(
                    plane.signed_distance(start),
                    plane.signed_distance(end),
                    skin,
                )
            })
        };
        let Some(first) = first_entry(spans, pull_back) else {
            return Some(Hit::miss(end));
        };
        Some(match first {
            FirstEntry::AllSolid => Hit::solid(start),
            FirstEntry::Free { start_solid } => Hit::free(end, start_solid),
            FirstEntry::Hit { start_solid, index } => {
                let (span, id) = spans[index];
                let (plane, time_of_impact) = span.entry.expect("entry spans have an entry plane");
                self.blocked(
                    shape,
                    start,
                    end,
                    skin,
                    plane,
                    time_of_impact,
                    id,
                    start_solid,
                )
            }
        })
    }
}

/// The outcome of merging the spans of every solid along a segment.
#[derive(Debug, PartialEq)]
pub enum FirstEntry {
    /// The segment never leaves solid.
    AllSolid,
    /// No entry from empty space into solid within the segment.
    Free {
        /// The segment starts in solid (and leaves it).
        start_solid: bool,
    },
    /// The first entry is `spans[index]` (after sorting).
    Hit {
        /// The segment starts in solid (and leaves it before this entry).
        start_solid: bool,
        /// The entry's index in the sorted spans.
        index: usize,
    },
}

/// Merges spans (sorted here by entry) into the solid region the segment starts in, and finds the
/// first entry into solid after it.
///
/// A span that starts no later than the loose end of the current region joins it, so a seam
/// between touching brushes is not empty space. Spans entered at the same instant (an edge or a
/// corner shared by two brushes) are tied; `pull_back` scores them and the smallest wins, so the
/// mover ends up clear of all of them.
#[inline(always)]
pub fn first_entry<T: Ord + Copy>(
    spans: &mut [(Span, T)],
    pull_back: impl Fn(&Span) -> f64,
) -> Option<FirstEntry> {
    if spans.is_empty() {
        return None;
    }
    spans.sort_by(|a, b| a.0.enter.total_cmp(&b.0.enter).then(a.1.cmp(&b.1)));
    let start_solid = spans.iter().any(|(s, _)| s.enter < 0.0 && s.leave > 0.0);
    let mut next = 0;
    if start_solid {
        let (mut reach, mut reach_loose) = (0.0f64, 0.0f64);
        while next < spans.len() && spans[next].0.enter <= reach_loose {
            let s = spans[next].0;
            reach_loose = reach_loose.max(s.leave_loose);
            reach = reach.max(s.leave);
            next += 1;
        }
        if reach >= 1.0 {
            return Some(FirstEntry::AllSolid);
        }
    } else {
        // Spans entered before the start and left by it were only touched at the start.
        while next < spans.len() && spans[next].0.enter < 0.0 {
            next += 1;
        }
    }
    if next == spans.len() {
        return Some(FirstEntry::Free { start_solid });
    }
    let first_time = spans[next].0.enter;
    let mut best = next;
    let mut best_score = f64::INFINITY;
    for (i, (span, _)) in spans.iter().enumerate().skip(next) {
        if span.enter > first_time + SAME_TIME {
            break;
        }
        let score = pull_back(span);
        if score < best_score {
            best_score = score;
            best = i;
        }
    }
    Some(FirstEntry::Hit {
        start_solid,
        index: best,
    })
}

/// True when `shape` has no width along some axis (a point, a flat box, a segment): the shapes
/// whose configuration space has seams between touching solids, which the union closes (the
/// `thin` module; issue 35).
pub fn is_thin(shape: &Shape) -> bool {
    matches!(shape, Shape::Box(b) if thin::is_thin(b))
}

#[cfg(test)]
mod tests;
