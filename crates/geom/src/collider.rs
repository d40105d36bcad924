//! The contract every collision backend fulfils: [`Collider`] and its answer, [`Hit`].

use std::any::{Any, TypeId};
use std::fmt;
use std::sync::Arc;

use glam::DVec3;

use crate::plane::Plane;
use crate::shape::Shape;
use crate::tolerance::DEFAULT_SKIN;
use crate::world::{BrushId, World};

/// A shape a backend has accepted, ready for traces.
///
/// Made by [`Collider::prepare`], which checks once that the backend can answer for the shape and
/// records the backend's own slot for it (the onion's configuration-space index, say).
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared {
    shape: Shape,
    slot: u32,
    skin: f64,
}

impl Prepared {
    /// A prepared shape with the backend's `slot` and the default skin.
    pub fn new(shape: Shape, slot: u32) -> Prepared {
        Prepared {
            shape,
            slot,
            skin: DEFAULT_SKIN,
        }
    }

    /// The same with another skin (units; see [`Hit::fraction`]).
    pub fn with_skin(self, skin: f64) -> Prepared {
        Prepared { skin, ..self }
    }

    /// The shape.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The backend's slot for the shape.
    pub fn slot(&self) -> u32 {
        self.slot
    }

    /// The skin, in units.
    pub fn skin(&self) -> f64 {
        self.skin
    }
}

/// A backend cannot answer for a shape.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the {backend} backend cannot trace {shape}: {reason}")]
pub struct UnsupportedShape {
    /// The backend's name.
    pub backend: String,
    /// The shape, as the command line writes it.
    pub shape: String,
    /// Why, and what it can do instead.
    pub reason: String,
}

/// The surface a trace hit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HitSurface {
    /// The plane the shape's origin hit, in the shape's configuration space: a world plane
    /// pushed out by the shape's support. Its normal points from the obstacle towards the mover.
    pub plane: Plane,
    /// The contact point on the world surface (world coordinates, units): where the shape
    /// touches the obstacle at [`HitSurface::time_of_impact`].
    pub point: DVec3,
    /// The brush hit.
    pub brush: BrushId,
    /// Fraction of the segment at which the shape first touches the obstacle, in `[0, 1]`,
    /// before the skin pull-back; `fraction <= time_of_impact`.
    pub time_of_impact: f64,
}

/// A backend's answer for a shape moving on a straight segment from `start` to `end`.
///
/// The shape is free where it overlaps no brush's interior by more than
/// [`crate::tolerance::CONTACT`]; touching and sliding along surfaces are free.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// Free fraction of the move, in `[0, 1]`; 1 means nothing was hit.
    ///
    /// After a hit the end is pulled back as Quake III does, so that it stays the skin away
    /// from the hit plane measured along its normal:
    /// `fraction = max(0, (d_start - skin) / (d_start - d_end))` with `d_start`, `d_end` the signed
    /// distances of the segment's ends to the hit plane. It is 0 when the move never leaves solid.
    pub fraction: f64,
    /// The position reached: `start + fraction * (end - start)`.
    pub end: DVec3,
    /// What was hit; `None` when `fraction == 1` or the move never leaves solid.
    pub surface: Option<HitSurface>,
    /// The move starts inside solid. A solid region the move starts in never blocks leaving it:
    /// the hit, if any, is the first entry into solid after the start region is left.
    pub start_solid: bool,
    /// The move never leaves solid (then `fraction == 0`).
    pub all_solid: bool,
}

impl Hit {
    /// Nothing in the way.
    pub fn miss(end: DVec3) -> Hit {
        Hit {
            fraction: 1.0,
            end,
            surface: None,
            start_solid: false,
            all_solid: false,
        }
    }

    /// The whole move is inside solid.
    pub fn all_solid(start: DVec3) -> Hit {
        Hit {
            fraction: 0.0,
            end: start,
            surface: None,
            start_solid: true,
            all_solid: true,
        }
    }

    /// True when something stopped the move.
    pub fn is_hit(&self) -> bool {
        self.surface.is_some()
    }

    /// A blocked move: the fraction from the skin rule on `plane` whose signed distances at the
    /// segment's ends are `d_start` and `d_end` (`d_start > d_end`).
    pub fn blocked(
        start: DVec3,
        end: DVec3,
        skin: f64,
        surface: HitSurface,
        start_solid: bool,
    ) -> Hit {
        let d_start = surface.plane.signed_distance(start);
        let d_end = surface.plane.signed_distance(end);
        let fraction = skin_fraction(d_start, d_end, skin).min(surface.time_of_impact);
        Hit {
            fraction,
            end: lerp(start, end, fraction),
            surface: Some(surface),
            start_solid,
            all_solid: false,
        }
    }
}

/// `max(0, (d_start - skin) / (d_start - d_end))`, clamped to `[0, 1]` (Quake III's
/// `CM_TraceThroughBrush` with `SURFACE_CLIP_EPSILON`).
#[inline]
pub fn skin_fraction(d_start: f64, d_end: f64, skin: f64) -> f64 {
    let denominator = d_start - d_end;
    if denominator <= 0.0 {
        return 0.0;
    }
    ((d_start - skin) / denominator).clamp(0.0, 1.0)
}

/// `a + (b - a) * t`, with `t == 1` giving exactly `b`.
#[inline]
pub fn lerp(a: DVec3, b: DVec3, t: f64) -> DVec3 {
    if t == 1.0 { b } else { a + (b - a) * t }
}

/// What the queries answered with one [`QueryContext`] did: plain counters, summed by the caller
/// across contexts (`+=`), printed with [`fmt::Display`].
///
/// The tree backends count the nodes their walks test; the k-UDOP free-space cache counts what it
/// answered without the backend it wraps (whose own traces count as `traces`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QueryCounters {
    /// Traces answered by a backend (not counting those a cache skipped).
    pub traces: u64,
    /// Traces that hit something.
    pub hits: u64,
    /// Point queries answered by a backend.
    pub point_queries: u64,
    /// Branch nodes and leaves the tree walks tested (onion, Melax: Figure 6's measure).
    pub nodes_visited: u64,
    /// Melax traces that started inside a bevelled cell and merged every cell's span.
    pub merged: u64,
    /// Traces a free-space cache answered as misses without asking its backend.
    pub cache_skips: u64,
    /// Point queries a free-space cache answered as free without asking its backend.
    pub cache_points_answered: u64,
    /// Free-space regions (k-UDOPs) a cache built.
    pub cache_rebuilds: u64,
    /// Nanoseconds spent building them (wall clock; reported, never used in an answer).
    pub cache_build_nanos: u64,
}

impl std::ops::AddAssign for QueryCounters {
    fn add_assign(&mut self, other: QueryCounters) {
        self.traces += other.traces;
        self.hits += other.hits;
        self.point_queries += other.point_queries;
        self.nodes_visited += other.nodes_visited;
        self.merged += other.merged;
        self.cache_skips += other.cache_skips;
        self.cache_points_answered += other.cache_points_answered;
        self.cache_rebuilds += other.cache_rebuilds;
        self.cache_build_nanos += other.cache_build_nanos;
    }
}

impl QueryCounters {
    /// The share of the traces asked that a cache skipped, in `[0, 1]`.
    pub fn skip_rate(&self) -> f64 {
        let asked = self.traces + self.cache_skips;
        if asked == 0 {
            0.0
        } else {
            self.cache_skips as f64 / asked as f64
        }
    }
}

impl fmt::Display for QueryCounters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} traces, {} hits, {} point queries",
            self.traces, self.hits, self.point_queries
        )?;
        if self.nodes_visited > 0 {
            let queries = (self.traces + self.point_queries).max(1);
            write!(
                f,
                ", {} nodes visited ({:.1} per query)",
                self.nodes_visited,
                self.nodes_visited as f64 / queries as f64
            )?;
        }
        if self.merged > 0 {
            write!(f, ", {} merged from a solid start", self.merged)?;
        }
        if self.cache_skips + self.cache_points_answered + self.cache_rebuilds > 0 {
            let each = if self.cache_rebuilds == 0 {
                0.0
            } else {
                // not a tolerance: nanoseconds to microseconds
                self.cache_build_nanos as f64 * 1e-3 / self.cache_rebuilds as f64
            };
            write!(
                f,
                "; cache: {} traces skipped ({:.1}%), {} point queries answered, {} k-UDOPs built ({:.2} us each)",
                self.cache_skips,
                100.0 * self.skip_rate() + 0.0,
                self.cache_points_answered,
                self.cache_rebuilds,
                each + 0.0
            )?;
        }
        Ok(())
    }
}

/// What one moving agent's cache keeps between its queries (the k-UDOP free-space cache keeps
/// its k-UDOP here): opaque to the caller, who keeps one per mover and lends it to the context
/// for the mover's queries ([`QueryContext::swap_mover`]). Empty by default.
#[derive(Default)]
pub struct MoverCache(Option<Box<dyn Any + Send + Sync>>);

impl fmt::Debug for MoverCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "MoverCache(filled)"
        } else {
            "MoverCache(empty)"
        })
    }
}

impl MoverCache {
    /// The cache as a `T`, made (empty) on first use or when it held something else.
    pub fn get_or_default<T: Default + Send + Sync + 'static>(&mut self) -> &mut T {
        if !self.0.as_ref().is_some_and(|b| b.is::<T>()) {
            self.0 = Some(Box::new(T::default()));
        }
        self.0
            .as_mut()
            .and_then(|b| b.downcast_mut::<T>())
            .expect("the cache holds a T: it was just made one")
    }

    /// Empties the cache (a mover that teleported, or left).
    pub fn clear(&mut self) {
        self.0 = None;
    }
}

/// A caller-owned, reusable context for queries on any backend: the scratch space a backend's
/// walk needs (made on first use, reused after, so a trace allocates nothing once warm), the
/// counters, and the cache of the mover being traced.
///
/// Backends take `&self` and a context, so one world and one compiled tree serve any number of
/// threads with no copy and no lock: each thread keeps its own context (Jolt's
/// `NarrowPhaseQuery`, parry's query dispatcher). Answers never depend on what a context holds.
///
/// ```
/// use std::sync::Arc;
/// use cspace_geom::{Aabb, Brush, Collider, ExactCollider, QueryContext, Shape, World};
/// use glam::DVec3;
///
/// let floor = Brush::from_aabb(Aabb::new(DVec3::new(-512.0, -512.0, -16.0), DVec3::new(512.0, 512.0, 0.0)))?;
/// let exact = ExactCollider::new(Arc::new(World::from_brushes([floor])));
/// let ball = exact.prepare(&Shape::new_sphere(16.0)?)?;
/// // Two threads, one collider, a context each; the counters are summed afterwards.
/// let counters = std::thread::scope(|s| {
///     let threads: Vec<_> = (0..2)
///         .map(|i| {
///             let (exact, ball) = (&exact, &ball);
///             s.spawn(move || {
///                 let mut ctx = QueryContext::new();
///                 let x = 100.0 * i as f64;
///                 let hit = exact.trace(&mut ctx, ball, DVec3::new(x, 0.0, 64.0), DVec3::new(x, 0.0, -64.0));
///                 assert!((hit.end.z - (16.0 + 1.0 / 32.0)).abs() < 1e-9);
///                 ctx.counters
///             })
///         })
///         .collect();
///     let mut total = cspace_geom::QueryCounters::default();
///     for t in threads {
///         total += t.join().unwrap();
///     }
///     total
/// });
/// assert_eq!((counters.traces, counters.hits), (2, 2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
pub struct QueryContext {
    /// What the queries with this context did.
    pub counters: QueryCounters,
    /// The first backend's scratch, held in the context itself: a trace looks its scratch up once,
    /// and a context usually serves one backend, so the common lookup is one downcast.
    first: Option<Box<dyn Any + Send + Sync>>,
    /// The scratch of other backends (a cache's and the backend it wraps, say).
    others: Vec<(TypeId, Box<dyn Any + Send + Sync>)>,
    mover: MoverCache,
}

impl fmt::Debug for QueryContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("QueryContext")
            .field("counters", &self.counters)
            .field(
                "scratch_kinds",
                &(usize::from(self.first.is_some()) + self.others.len()),
            )
            .field("mover", &self.mover)
            .finish()
    }
}

impl QueryContext {
    /// An empty context.
    pub fn new() -> QueryContext {
        QueryContext::default()
    }

    /// The backend's scratch of type `T` (made on first use), the counters and the mover's
    /// cache, borrowed apart.
    #[inline]
    pub fn parts<T: Default + Send + Sync + 'static>(
        &mut self,
    ) -> (&mut T, &mut QueryCounters, &mut MoverCache) {
        let first = self.first.get_or_insert_with(|| Box::new(T::default()));
        let scratch = match first.downcast_mut::<T>() {
            Some(scratch) => scratch,
            None => Self::other(&mut self.others, T::default)
                .downcast_mut::<T>()
                .expect("the scratch under T's id is a T"),
        };
        (scratch, &mut self.counters, &mut self.mover)
    }

    /// The scratch under `id` among the others, made with `make` if there is none.
    fn other<T: Send + Sync + 'static>(
        others: &mut Vec<(TypeId, Box<dyn Any + Send + Sync>)>,
        make: fn() -> T,
    ) -> &mut Box<dyn Any + Send + Sync> {
        let id = TypeId::of::<T>();
        let index = match others.iter().position(|(t, _)| *t == id) {
            Some(i) => i,
            None => {
                others.push((id, Box::new(make())));
                others.len() - 1
            }
        };
        &mut others[index].1
    }

    /// Lends `cache` (a mover's own) to the context for the mover's queries, and takes back the
    /// one it held: call it before and after a mover's queries, so that each mover keeps its
    /// cache whichever context (thread) traces it.
    pub fn swap_mover(&mut self, cache: &mut MoverCache) {
        std::mem::swap(&mut self.mover, cache);
    }

    /// Takes the counters, leaving zeros (the caller sums them elsewhere).
    pub fn take_counters(&mut self) -> QueryCounters {
        std::mem::take(&mut self.counters)
    }
}

/// A collision backend: answers swept-shape traces and point queries against a static world.
///
/// Backends: `exact` ([`crate::exact::ExactCollider`]), `onion`, `melax`, and the k-UDOP cache
/// wrapping any of them. Every backend answers in the same shape so any two can be compared.
/// Queries take `&self` and a caller-owned [`QueryContext`]: a backend is `Send + Sync`, shared
/// by every thread, each with its own context.
///
/// **Domain** ([`crate::domain`]): the world within
/// [`MAX_COORDINATE`](crate::tolerance::MAX_COORDINATE), shapes within
/// [`MAX_SHAPE_EXTENT`](crate::tolerance::MAX_SHAPE_EXTENT) (as [`Shape`]'s constructors make
/// them), and query positions within [`WORLD_HALF_EXTENT`](crate::tolerance::WORLD_HALF_EXTENT)
/// on every axis ([`crate::domain::check_trace`]). Inside it every answer is finite; outside it
/// the answer is unspecified (debug builds panic on a query outside it). Input
/// from users is checked where it enters (the map and world readers, the simulator's scenarios
/// and `sim trace`), with an error that names the value and the limit.
pub trait Collider: Send + Sync {
    /// The backend's name as the command line spells it (`exact`, `onion`, ...).
    fn name(&self) -> &str;

    /// The world it answers for.
    fn world(&self) -> &Arc<World>;

    /// Checks that this backend can answer for `shape` and prepares it.
    fn prepare(&self, shape: &Shape) -> Result<Prepared, UnsupportedShape>;

    /// Sweeps `shape` from `start` to `end`.
    fn trace(&self, ctx: &mut QueryContext, shape: &Prepared, start: DVec3, end: DVec3) -> Hit;

    /// True when `shape` placed at `position` overlaps solid (deeper than the contact tolerance).
    fn is_solid(&self, ctx: &mut QueryContext, shape: &Prepared, position: DVec3) -> bool;
}

/// A shared or boxed collider is a collider.
macro_rules! forward_collider {
    ($($pointer:ty),*) => {$(
        impl<C: Collider + ?Sized> Collider for $pointer {
            fn name(&self) -> &str {
                (**self).name()
            }
            fn world(&self) -> &Arc<World> {
                (**self).world()
            }
            fn prepare(&self, shape: &Shape) -> Result<Prepared, UnsupportedShape> {
                (**self).prepare(shape)
            }
            fn trace(&self, ctx: &mut QueryContext, shape: &Prepared, start: DVec3, end: DVec3) -> Hit {
                (**self).trace(ctx, shape, start, end)
            }
            fn is_solid(&self, ctx: &mut QueryContext, shape: &Prepared, position: DVec3) -> bool {
                (**self).is_solid(ctx, shape, position)
            }
        }
    )*};
}

forward_collider!(Box<C>, std::sync::Arc<C>, &C);

/// A collider with a [`QueryContext`] of its own: the simplest handle for queries from one thread
/// (tools, tests, examples). Threads share the collider itself and keep a context each.
///
/// It dereferences to the collider, so `prepare` and the backend's own methods are at hand.
#[derive(Debug, Default)]
pub struct WithContext<C> {
    /// The collider.
    pub collider: C,
    /// Its context.
    pub ctx: QueryContext,
}

impl<C: Collider> WithContext<C> {
    /// `collider` with a new context.
    pub fn new(collider: C) -> WithContext<C> {
        WithContext {
            collider,
            ctx: QueryContext::new(),
        }
    }

    /// [`Collider::trace`] with this handle's context.
    pub fn trace(&mut self, shape: &Prepared, start: DVec3, end: DVec3) -> Hit {
        self.collider.trace(&mut self.ctx, shape, start, end)
    }

    /// [`Collider::is_solid`] with this handle's context.
    pub fn is_solid(&mut self, shape: &Prepared, position: DVec3) -> bool {
        self.collider.is_solid(&mut self.ctx, shape, position)
    }

    /// The counters of every query so far.
    pub fn counters(&self) -> QueryCounters {
        self.ctx.counters
    }
}

impl<C> std::ops::Deref for WithContext<C> {
    type Target = C;

    fn deref(&self) -> &C {
        &self.collider
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skin_fraction_follows_quake() {
        // Start 10 units in front, end 10 behind: touch at 0.5, pulled back by 1/32 along 20.
        assert_eq!(
            skin_fraction(10.0, -10.0, 1.0 / 32.0),
            (10.0 - 1.0 / 32.0) / 20.0
        );
        // Already within the skin: no progress.
        assert_eq!(skin_fraction(0.01, -5.0, 1.0 / 32.0), 0.0);
        // Parallel or moving away: no progress through this plane.
        assert_eq!(skin_fraction(1.0, 1.0, 1.0 / 32.0), 0.0);
    }
}
