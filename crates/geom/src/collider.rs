//! The contract every collision backend fulfils: [`Collider`] and its answer, [`Hit`].

use crate::Aabb;
use std::any::{Any, TypeId};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use glam::DVec3;

use crate::plane::Plane;
use crate::shape::Shape;
use crate::tolerance::DEFAULT_SKIN;
use crate::world::{BrushId, World};

/// A shape a backend has accepted, ready for traces.
///
/// Made by [`Collider::prepare`], which checks once that the backend can answer for the shape and
/// records the backend's own slot for it (the onion's configuration-space index, say). It is tied
/// to the collider that made it: a backend's queries check (in debug builds) that the `Prepared`
/// they are given came from their own [`ColliderKey`], so a shape prepared by one tree cannot
/// index another tree's spaces. Wrappers that forward `prepare` (the k-UDOP cache) hand out their
/// inner backend's, which is the one that reads the slot.
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared {
    shape: Shape,
    slot: u32,
    skin: f64,
    /// The [`ColliderKey`] of the collider that made it.
    key: u64,
}

impl Prepared {
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

    /// The bounds the shape sweeps moving from `start` to `end`, grown by its skin: what another
    /// body must meet to change the move's answer.
    #[inline]
    pub fn swept_bounds(&self, start: DVec3, end: DVec3) -> Aabb {
        let bounds = self.shape.bounds();
        bounds
            .translated(start)
            .merged(bounds.translated(end))
            .loosened(self.skin)
    }
}

/// The next [`ColliderKey`]: keys are never reused within a process.
static NEXT_KEY: AtomicU64 = AtomicU64::new(1);

/// A collider's identity, and a backend's way into what only it should make or read: each
/// collider holds one, made when the collider is made, and
/// - makes its [`Prepared`] shapes through it ([`ColliderKey::prepare`]), which records the key;
///   its queries then [`ColliderKey::check`] that a `Prepared` is its own (a debug assertion:
///   one from another collider, or another tree, would index the wrong slot);
/// - reaches its scratch in a caller's [`QueryContext`] or [`TypedContext`] through it
///   ([`ColliderKey::parts`], [`ColliderKey::typed_parts`]): the user's context has no accessor of
///   its own, and a backend's scratch type is its own (private, or opaque), so no one else can
///   name it.
///
/// A clone of a collider shares its key (it answers from the same tree, so the same slots). A
/// backend in another crate makes its key with [`ColliderKey::new`]; the key's value only ever
/// compares equal to itself and never enters an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColliderKey(u64);

impl Default for ColliderKey {
    /// A fresh key, as [`ColliderKey::new`].
    fn default() -> ColliderKey {
        ColliderKey::new()
    }
}

impl ColliderKey {
    /// A key no other collider holds.
    pub fn new() -> ColliderKey {
        ColliderKey(NEXT_KEY.fetch_add(1, Ordering::Relaxed))
    }

    /// `shape` prepared by the collider holding this key, in its `slot`, with the default skin
    /// ([`DEFAULT_SKIN`]).
    pub fn prepare(&self, shape: Shape, slot: u32) -> Prepared {
        Prepared {
            shape,
            slot,
            skin: DEFAULT_SKIN,
            key: self.0,
        }
    }

    /// The key's value: a backend's own caches in a shared context are keyed by it (one context
    /// may serve several colliders of one backend, each answering for another world).
    pub(crate) fn value(&self) -> u64 {
        self.0
    }

    /// True when `prepared` was made through this key.
    #[inline]
    pub fn made(&self, prepared: &Prepared) -> bool {
        prepared.key == self.0
    }

    /// Checks, in debug builds, that `prepared` was made through this key: a backend calls it at
    /// the top of its queries. (Release builds skip it; a `Prepared` of another collider is a
    /// caller's bug, like a query outside the numeric domain.)
    #[inline]
    pub fn check(&self, prepared: &Prepared) {
        debug_assert!(
            self.made(prepared),
            "a Prepared shape ({}) used with a collider that did not prepare it: prepare the \
             shape with the collider that traces it",
            prepared.shape.describe()
        );
    }

    /// The backend's scratch of type `T` in `ctx` (made on first use, reused after), with the
    /// context's counters and the mover's cache, borrowed apart. One downcast for a context's first
    /// backend; a lookup by type among the others.
    #[inline]
    pub fn parts<'c, T: Default + Send + Sync + 'static>(
        &self,
        ctx: &'c mut QueryContext,
    ) -> Parts<'c, T> {
        ctx.parts()
    }

    /// The backend's scratch in a typed context, with its counters and mover's cache: a field
    /// read, no lookup.
    #[inline]
    pub fn typed_parts<'c, T>(&self, ctx: &'c mut TypedContext<T>) -> Parts<'c, T> {
        Parts {
            scratch: &mut ctx.scratch,
            counters: &mut ctx.counters,
            mover: &mut ctx.mover,
        }
    }
}

/// What a backend's query borrows from a context ([`ColliderKey::parts`]): its scratch, the
/// counters and the cache of the mover being traced.
#[derive(Debug)]
pub struct Parts<'c, T> {
    /// The backend's scratch.
    pub scratch: &'c mut T,
    /// The context's counters.
    pub counters: &'c mut QueryCounters,
    /// The cache of the mover being traced ([`QueryContext::with_mover`]).
    pub mover: &'c mut MoverCache,
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

/// How a trace ended: the four answers a backend gives, each with only what it means (Quake's
/// `trace_t` keeps two booleans and a plane "not valid if" one of them is set; here no
/// combination can contradict another, as parry's `ShapeCastStatus` does).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TraceOutcome {
    /// The move started free and nothing was in the way: fraction 1, the end reached.
    Miss,
    /// The move started free and was stopped on entering solid at `surface`.
    Hit(HitSurface),
    /// The move started inside solid and left it. A solid region the move starts in never blocks
    /// leaving it: the hit, if any (`Some`), is the first entry into solid after the start region
    /// is left; `None` when the move then reached its end (fraction 1).
    LeftSolid(Option<HitSurface>),
    /// The move never left solid: fraction 0, the end is the start.
    AllSolid,
}

/// A backend's answer for a shape moving on a straight segment from `start` to `end`.
///
/// The shape is free where it overlaps no brush's interior by more than
/// [`crate::tolerance::CONTACT`]; touching and sliding along surfaces are free. Made only by the
/// constructors below, so the fraction, the end and the [`TraceOutcome`] agree: fraction 1 and the
/// segment's end for a move that hit nothing ([`Hit::miss`], [`Hit::left_solid`]), 0 and the start
/// for one that never left solid ([`Hit::solid`]), the skin rule for a blocked one
/// ([`Hit::blocked`]).
///
/// It is read through [`Hit::outcome`] (or the shortcuts [`Hit::surface`], [`Hit::is_hit`],
/// [`Hit::start_solid`], [`Hit::all_solid`]). Inside, the outcome is kept as the surface and where
/// the move started, which the constructors only ever set to one of the four outcomes: a trace's
/// hottest reader, `surface()`, is then one test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    fraction: f64,
    end: DVec3,
    surface: Option<HitSurface>,
    start: Start,
}

/// Where a move started, as [`Hit`] keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Start {
    /// Free.
    Free,
    /// In solid, left it.
    LeftSolid,
    /// In solid, never left it.
    AllSolid,
}

impl Hit {
    /// Nothing in the way (the move started free).
    #[inline]
    pub fn miss(end: DVec3) -> Hit {
        Hit {
            fraction: 1.0,
            end,
            surface: None,
            start: Start::Free,
        }
    }

    /// The move started inside solid, left it and then met nothing.
    #[inline]
    pub fn left_solid(end: DVec3) -> Hit {
        Hit {
            start: Start::LeftSolid,
            ..Hit::miss(end)
        }
    }

    /// Nothing in the way after the start (`start_solid`: the move started inside solid and left
    /// it): [`Hit::left_solid`] or [`Hit::miss`].
    #[inline]
    pub fn free(end: DVec3, start_solid: bool) -> Hit {
        if start_solid {
            Hit::left_solid(end)
        } else {
            Hit::miss(end)
        }
    }

    /// The whole move is inside solid ([`TraceOutcome::AllSolid`]).
    #[inline]
    pub fn solid(start: DVec3) -> Hit {
        Hit {
            fraction: 0.0,
            end: start,
            surface: None,
            start: Start::AllSolid,
        }
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
            start: if start_solid {
                Start::LeftSolid
            } else {
                Start::Free
            },
        }
    }

    /// This answer, for a move traced in a frame translated by `-offset` (a brush model placed
    /// at `offset`: `start - offset` to `end - offset`), as the world sees it: the same outcome
    /// and fraction, the end on the world's segment from `start` to `end`, the surface's plane
    /// and point moved by `offset`, and its brush numbered from `first_brush` (the model's brush
    /// ids following the world's). A Minkowski sum commutes with translation, so the answer is
    /// exactly the model's, moved.
    pub fn translated(&self, offset: DVec3, start: DVec3, end: DVec3, first_brush: u32) -> Hit {
        Hit {
            fraction: self.fraction,
            end: lerp(start, end, self.fraction),
            surface: self.surface.map(|s| HitSurface {
                plane: s.plane.translated(offset),
                point: s.point + offset,
                brush: BrushId(first_brush + s.brush.0),
                time_of_impact: s.time_of_impact,
            }),
            start: self.start,
        }
    }

    /// The answer of a move traced against two things (the world and a brush model, say) on the
    /// same segment, merged as Quake III's `SV_ClipMoveToEntities` merges its entities' traces:
    /// a move that never leaves solid in one never leaves it; otherwise the earliest contact
    /// wins (the smaller time of impact: Quake's fraction before its pull-back; on a tie, `self`),
    /// and the move started in solid when it did in either.
    pub fn nearer(self, other: Hit) -> Hit {
        if self.all_solid() {
            return self;
        }
        if other.all_solid() {
            return other;
        }
        let start = if self.start_solid() || other.start_solid() {
            Start::LeftSolid
        } else {
            Start::Free
        };
        let pick = match (self.surface, other.surface) {
            (_, None) => self,
            (None, Some(_)) => other,
            (Some(a), Some(b)) => {
                if b.time_of_impact < a.time_of_impact {
                    other
                } else {
                    self
                }
            }
        };
        Hit { start, ..pick }
    }

    /// Free fraction of the move, in `[0, 1]`; 1 when nothing was hit.
    ///
    /// After a hit the end is pulled back as Quake III does, so that it stays the skin away
    /// from the hit plane measured along its normal:
    /// `fraction = max(0, (d_start - skin) / (d_start - d_end))` with `d_start`, `d_end` the signed
    /// distances of the segment's ends to the hit plane. It is 0 when the move never leaves solid.
    #[inline]
    pub fn fraction(&self) -> f64 {
        self.fraction
    }

    /// The position reached: `start + fraction * (end - start)` (world coordinates, units).
    #[inline]
    pub fn end(&self) -> DVec3 {
        self.end
    }

    /// How the move ended.
    #[inline]
    pub fn outcome(&self) -> TraceOutcome {
        match (self.start, self.surface) {
            (Start::Free, None) => TraceOutcome::Miss,
            (Start::Free, Some(s)) => TraceOutcome::Hit(s),
            (Start::LeftSolid, surface) => TraceOutcome::LeftSolid(surface),
            (Start::AllSolid, _) => TraceOutcome::AllSolid,
        }
    }

    /// What was hit; `None` when nothing was, or the move never left solid.
    #[inline]
    pub fn surface(&self) -> Option<&HitSurface> {
        self.surface.as_ref()
    }

    /// True when something stopped the move (after the start region, if it started in solid).
    #[inline]
    pub fn is_hit(&self) -> bool {
        self.surface.is_some()
    }

    /// The move starts inside solid ([`TraceOutcome::LeftSolid`] or [`TraceOutcome::AllSolid`]).
    #[inline]
    pub fn start_solid(&self) -> bool {
        self.start != Start::Free
    }

    /// The move never leaves solid (then `fraction == 0`).
    #[inline]
    pub fn all_solid(&self) -> bool {
        self.start == Start::AllSolid
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
    /// Traces a backend's free-space index answered as misses without a walk (the onion's
    /// certified misses; counted in `traces` too).
    pub certified: u64,
    /// Traces the free-space index could not certify, answered by the walk (counted in
    /// `traces` too). The onion's and Melax's indexes say why in `fall_through_reasons` (whose
    /// counts sum to this); the k-UDOP cache counts its own without a reason.
    pub fall_throughs: u64,
    /// Why the onion's and Melax's free-space indexes passed traces to the walk, one count per
    /// [`FallThrough`] (issue 31's "count what the walk does").
    pub fall_through_reasons: FallThroughs,

    /// Traces a free-space cache answered as misses without asking its backend.
    pub cache_skips: u64,
    /// Point queries a free-space cache answered as free without asking its backend.
    pub cache_points_answered: u64,
    /// Traces a free-space cache handed to its backend with the only brushes they can meet
    /// ([`Collider::trace_among`]), sparing the backend its own search (counted by the backend
    /// in `traces` too).
    pub narrowed: u64,
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
        self.certified += other.certified;
        self.fall_throughs += other.fall_throughs;
        self.fall_through_reasons += other.fall_through_reasons;
        self.cache_skips += other.cache_skips;
        self.cache_points_answered += other.cache_points_answered;
        self.narrowed += other.narrowed;
        self.cache_rebuilds += other.cache_rebuilds;
        self.cache_build_nanos += other.cache_build_nanos;
    }
}

impl QueryCounters {
    /// Counts a trace a free-space index passed to the walk, and why: `fall_throughs` and the
    /// reason's count together, so that the reasons always sum to the fall-throughs of the
    /// indexes that give one. Cold and out of line, so that a certified trace's code stays what
    /// it was without the reasons (callgrind over the onion's `trace_loop`).
    #[cold]
    #[inline(never)]
    pub fn fell_through(&mut self, reason: FallThrough) {
        self.fall_throughs += 1;
        self.fall_through_reasons.count(reason);
    }

    /// The traces asked of a free-space index or cache: those it certified, narrowed
    /// ([`Collider::trace_among`]) or let fall through.
    pub fn index_asked(&self) -> u64 {
        self.certified + self.narrowed + self.fall_throughs
    }

    /// The share of [`QueryCounters::index_asked`] certified as misses, in `[0, 1]`; `None` when
    /// no trace was asked.
    pub fn certified_share(&self) -> Option<f64> {
        let asked = self.index_asked();
        (asked > 0).then(|| self.certified as f64 / asked as f64)
    }

    /// The share of [`QueryCounters::index_asked`] narrowed to the brushes they can meet, in
    /// `[0, 1]`; `None` when none was.
    pub fn narrowed_share(&self) -> Option<f64> {
        (self.narrowed > 0).then(|| self.narrowed as f64 / self.index_asked() as f64)
    }

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
        if self.certified + self.fall_throughs > 0 {
            let share = self.certified_share().unwrap_or(0.0);
            write!(
                f,
                "; free-space index: {} certified misses ({:.1}%), {} fell through to the walk",
                self.certified,
                100.0 * share + 0.0,
                self.fall_throughs
            )?;
            let reasons = self.fall_through_reasons;
            if reasons.total() > 0 {
                write!(f, " ({reasons}")?;
                // A wrapper's fall-throughs (the k-UDOP cache's) over an index that gives reasons.
                let unclassified = self.fall_throughs.saturating_sub(reasons.total());
                if unclassified > 0 {
                    write!(f, ", without a reason {unclassified}")?;
                }
                f.write_str(")")?;
            }
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
        if self.narrowed > 0 {
            write!(
                f,
                ", {} traces narrowed to the brushes they can meet",
                self.narrowed
            )?;
        }
        Ok(())
    }
}

/// Why a free-space index could not certify a trace as a miss, so that the walk answered it:
/// the first of the index's tests that failed, in the order it makes them (issue 31: "certified
/// misses and fall-throughs per trace", with the reason; `cspace_onion`'s and `cspace_melax`'s
/// `free_index.rs`). Melax's index, which tries the end's cell when the start's fails, gives the
/// reason of the start's cell. Moves of no length the onion answers with its point query, and
/// the traces of a shape an index does not serve (Melax's hulls and points, its shapes past the
/// eighth), never ask the index: they are no fall-throughs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FallThrough {
    /// The start lies outside the index's grid, and no slab beyond it that the index verified
    /// holds both ends (the onion keeps up to six such slabs per space; Melax's index none).
    OutsideGrid,
    /// The start's cell has no box: wholly solid, none grown there, or the one grown refused by
    /// the verification against the tree when the index was built.
    NoBox,
    /// The start lies outside the box of its cell.
    StartOutside,
    /// The start lies in the box of its cell, the end outside it.
    EndOutside,
}

/// How many traces fell through for each [`FallThrough`] reason (`QueryCounters::
/// fall_through_reasons`; their sum is the fall-throughs of the indexes that give reasons).
///
/// Printed with all four counts in the order the index tests them (outside the grid, no box,
/// start outside, end outside), zeros included: a zero says the reason was looked for and did not
/// happen, and the rows of a table (a backend per row, `sim bench`) then line up count by count.
/// [`QueryCounters`]' `Display` prints them in parentheses after the fall-throughs when any is
/// counted (so not for the k-UDOP cache alone, which gives no reasons), and the fall-throughs
/// counted without a reason, if any, after them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FallThroughs {
    /// [`FallThrough::OutsideGrid`]: the start outside the grid, no slab holding both ends.
    pub outside_grid: u64,
    /// [`FallThrough::NoBox`]: the start's cell has no box.
    pub no_box: u64,
    /// [`FallThrough::StartOutside`]: the start outside its cell's box.
    pub start_outside: u64,
    /// [`FallThrough::EndOutside`]: the start in its cell's box, the end outside.
    pub end_outside: u64,
}

impl FallThroughs {
    /// Counts one trace that fell through for `reason`.
    #[inline]
    pub fn count(&mut self, reason: FallThrough) {
        *match reason {
            FallThrough::OutsideGrid => &mut self.outside_grid,
            FallThrough::NoBox => &mut self.no_box,
            FallThrough::StartOutside => &mut self.start_outside,
            FallThrough::EndOutside => &mut self.end_outside,
        } += 1;
    }

    /// The count for `reason`.
    pub fn of(&self, reason: FallThrough) -> u64 {
        match reason {
            FallThrough::OutsideGrid => self.outside_grid,
            FallThrough::NoBox => self.no_box,
            FallThrough::StartOutside => self.start_outside,
            FallThrough::EndOutside => self.end_outside,
        }
    }

    /// The traces counted for every reason.
    pub fn total(&self) -> u64 {
        self.outside_grid + self.no_box + self.start_outside + self.end_outside
    }
}

impl std::ops::AddAssign for FallThroughs {
    fn add_assign(&mut self, other: FallThroughs) {
        self.outside_grid += other.outside_grid;
        self.no_box += other.no_box;
        self.start_outside += other.start_outside;
        self.end_outside += other.end_outside;
    }
}

impl fmt::Display for FallThroughs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "outside the grid {}, no box {}, start outside {}, end outside {}",
            self.outside_grid, self.no_box, self.start_outside, self.end_outside
        )
    }
}

/// What one moving agent's cache keeps between its queries (the k-UDOP free-space cache keeps
/// its k-UDOP here): opaque to the caller, who keeps one per mover and lends it to the context
/// for the mover's queries ([`QueryContext::with_mover`]). Empty by default.
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
///                 assert!((hit.end().z - (16.0 + 1.0 / 32.0)).abs() < 1e-9);
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
    /// cache, borrowed apart; backends reach it through their key ([`ColliderKey::parts`]).
    #[inline]
    fn parts<T: Default + Send + Sync + 'static>(&mut self) -> Parts<'_, T> {
        let first = self.first.get_or_insert_with(|| Box::new(T::default()));
        let scratch = match first.downcast_mut::<T>() {
            Some(scratch) => scratch,
            None => Self::other(&mut self.others, T::default)
                .downcast_mut::<T>()
                .expect("the scratch under T's id is a T"),
        };
        Parts {
            scratch,
            counters: &mut self.counters,
            mover: &mut self.mover,
        }
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

    /// Runs `queries` with `cache` (a mover's own) lent to the context, and gives it back after:
    /// each mover keeps its cache whichever context (thread) traces it.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use cspace_geom::{Collider, ExactCollider, MoverCache, QueryContext, Shape, World};
    /// use glam::DVec3;
    ///
    /// let exact = ExactCollider::new(Arc::new(World::from_brushes([])));
    /// let ball = exact.prepare(&Shape::new_sphere(16.0)?)?;
    /// let mut ctx = QueryContext::new();
    /// let mut movers: Vec<MoverCache> = (0..3).map(|_| MoverCache::default()).collect();
    /// for mover in &mut movers {
    ///     let hit = ctx.with_mover(mover, |ctx| exact.trace(ctx, &ball, DVec3::ZERO, DVec3::X));
    ///     assert_eq!(hit.fraction(), 1.0);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// If `queries` panics, the mover's cache stays in the context (a cache never changes an
    /// answer, so nothing is wrong after, only a rebuild).
    pub fn with_mover<R>(
        &mut self,
        cache: &mut MoverCache,
        queries: impl FnOnce(&mut QueryContext) -> R,
    ) -> R {
        std::mem::swap(&mut self.mover, cache);
        let result = queries(self);
        std::mem::swap(&mut self.mover, cache);
        result
    }

    /// Takes the counters, leaving zeros (the caller sums them elsewhere).
    pub fn take_counters(&mut self) -> QueryCounters {
        std::mem::take(&mut self.counters)
    }
}

/// A context for one backend whose type the caller knows: its scratch held in place, found with no
/// lookup (a [`QueryContext`] serves any backend, and finds a backend's scratch by its type).
///
/// A backend offering it implements [`TypedCollider`]: `trace_in` and `is_solid_in` take
/// [`ContextFor<Self>`](ContextFor) and answer bit for bit as [`Collider::trace`] and
/// [`Collider::is_solid`] do. For callers that hold the concrete backend (a benchmark, a tool, a
/// navigation graph over the onion's tree); the simulator, whose backend is chosen at run time,
/// keeps a [`QueryContext`].
///
/// ```
/// use std::sync::Arc;
/// use cspace_geom::{Aabb, Brush, Collider, ContextFor, ExactCollider, TypedCollider, Shape, World};
/// use glam::DVec3;
///
/// let floor = Brush::from_aabb(Aabb::new(DVec3::new(-512.0, -512.0, -16.0), DVec3::new(512.0, 512.0, 0.0)))?;
/// let exact = ExactCollider::new(Arc::new(World::from_brushes([floor])));
/// let ball = exact.prepare(&Shape::new_sphere(16.0)?)?;
/// let mut ctx = ContextFor::<ExactCollider>::new();
/// let hit = exact.trace_in(&mut ctx, &ball, DVec3::new(0.0, 0.0, 64.0), DVec3::new(0.0, 0.0, -64.0));
/// assert!(hit.is_hit());
/// assert_eq!(ctx.counters.traces, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct TypedContext<S> {
    /// What the queries with this context did.
    pub counters: QueryCounters,
    scratch: S,
    mover: MoverCache,
}

impl<S: Default> TypedContext<S> {
    /// An empty context.
    pub fn new() -> TypedContext<S> {
        TypedContext {
            counters: QueryCounters::default(),
            scratch: S::default(),
            mover: MoverCache::default(),
        }
    }
}

impl<S> TypedContext<S> {
    /// Runs `queries` with `cache` (a mover's own) lent to the context (as
    /// [`QueryContext::with_mover`]).
    pub fn with_mover<R>(
        &mut self,
        cache: &mut MoverCache,
        queries: impl FnOnce(&mut TypedContext<S>) -> R,
    ) -> R {
        std::mem::swap(&mut self.mover, cache);
        let result = queries(self);
        std::mem::swap(&mut self.mover, cache);
        result
    }

    /// Takes the counters, leaving zeros (the caller sums them elsewhere).
    pub fn take_counters(&mut self) -> QueryCounters {
        std::mem::take(&mut self.counters)
    }
}

/// The typed context of backend `C` ([`TypedContext`] of its scratch).
pub type ContextFor<C> = TypedContext<<C as TypedCollider>::Scratch>;

/// A backend that also answers through a [`TypedContext`] of its own scratch: the same answers
/// as its [`Collider`] queries, without finding the scratch by its type in a [`QueryContext`].
///
/// The backend writes its queries once, over [`Parts`] of its scratch (`trace_parts`,
/// `is_solid_parts`); its [`Collider::trace`] and [`Collider::is_solid`] call them with
/// `key().parts(ctx)`, and `trace_in` / `is_solid_in` (provided) with `key().typed_parts(ctx)`.
pub trait TypedCollider: Collider {
    /// The backend's scratch (opaque: only the backend reads it, through its [`ColliderKey`]).
    type Scratch: Default + Send + Sync + 'static;

    /// The backend's key.
    fn key(&self) -> &ColliderKey;

    /// [`Collider::trace`] over the parts of a context (its scratch, counters and mover's cache).
    fn trace_parts(
        &self,
        parts: Parts<'_, Self::Scratch>,
        shape: &Prepared,
        start: DVec3,
        end: DVec3,
    ) -> Hit;

    /// [`Collider::is_solid`] over the parts of a context.
    fn is_solid_parts(
        &self,
        parts: Parts<'_, Self::Scratch>,
        shape: &Prepared,
        position: DVec3,
    ) -> bool;

    /// [`Collider::trace`] with the backend's own context.
    #[inline]
    fn trace_in(
        &self,
        ctx: &mut ContextFor<Self>,
        shape: &Prepared,
        start: DVec3,
        end: DVec3,
    ) -> Hit {
        self.trace_parts(self.key().typed_parts(ctx), shape, start, end)
    }

    /// [`Collider::is_solid`] with the backend's own context.
    #[inline]
    fn is_solid_in(&self, ctx: &mut ContextFor<Self>, shape: &Prepared, position: DVec3) -> bool {
        self.is_solid_parts(self.key().typed_parts(ctx), shape, position)
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

    /// [`Collider::trace`]'s answer, bit for bit, found among `brushes` only, for a caller that
    /// has proved that the shape swept from `start` to `end` overlaps no other brush of the
    /// world (a k-UDOP of the other brushes holding the swept shape: `cspace-udop`'s cells).
    /// `brushes` are sorted by id. `None` when the backend does not answer from a list of
    /// brushes (the default: the trees answer from their own structure) or not for this query;
    /// the caller then asks [`Collider::trace`].
    fn trace_among(
        &self,
        ctx: &mut QueryContext,
        shape: &Prepared,
        start: DVec3,
        end: DVec3,
        brushes: &[BrushId],
    ) -> Option<Hit> {
        let _ = (ctx, shape, start, end, brushes);
        None
    }
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
            fn trace_among(
                &self,
                ctx: &mut QueryContext,
                shape: &Prepared,
                start: DVec3,
                end: DVec3,
                brushes: &[BrushId],
            ) -> Option<Hit> {
                (**self).trace_among(ctx, shape, start, end, brushes)
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

    /// The fall-throughs' reasons are counted with them, summed by `+=` and printed after them,
    /// all four in the order an index tests them; fall-throughs a wrapper counted without a
    /// reason are printed as such, and counters without reasons (the k-UDOP cache's alone) print
    /// none.
    #[test]
    fn fall_through_reasons_are_summed_and_printed() {
        let mut one = QueryCounters {
            certified: 5,
            ..QueryCounters::default()
        };
        one.fell_through(FallThrough::NoBox);
        one.fell_through(FallThrough::EndOutside);
        let mut sum = one;
        sum += one;
        let expected = FallThroughs {
            no_box: 2,
            end_outside: 2,
            ..FallThroughs::default()
        };
        assert_eq!((sum.fall_throughs, sum.fall_through_reasons), (4, expected));
        let index = "0 traces, 0 hits, 0 point queries; free-space index: 10 certified misses \
                     (71.4%), 4 fell through to the walk";
        let reasons = "outside the grid 0, no box 2, start outside 0, end outside 2";
        assert_eq!(sum.to_string(), format!("{index} ({reasons})"));
        sum.fall_throughs += 1;
        assert!(
            sum.to_string().ends_with(
                "(66.7%), 5 fell through to the walk (outside the grid 0, no box 2, \
                            start outside 0, end outside 2, without a reason 1)"
            ),
            "{sum}"
        );
        let cache = QueryCounters {
            certified: 1,
            fall_throughs: 3,
            ..QueryCounters::default()
        };
        assert!(
            cache.to_string().ends_with("3 fell through to the walk"),
            "{cache}"
        );
    }
}
