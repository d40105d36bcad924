//! The free-space cache: a [`Collider`] that skips the wrapped backend for moves that provably
//! stay inside the mover's k-UDOP.

use std::fmt;
use std::sync::Arc;
use std::time::Instant;

use cspace_geom::{
    Collider, ColliderKey, Hit, Prepared, QueryContext, Shape, UnsupportedShape, World,
};
use glam::DVec3;

use crate::directions::Directions;
use crate::udop::Udop;
use crate::world::{BuildOrder, BuildScratch, PatchBound, UdopBuilder, UdopBuilderError};

/// How much the swept bounding k-DOP is grown before Algorithm 3 (units).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Margin {
    /// The prepared shape's skin (default 1/32 unit): a skipped move stays more than a skin
    /// away from every brush, so even a backend that reports hits within the skin (Quake's
    /// `SURFACE_CLIP_EPSILON` rule) would have said "free".
    #[default]
    Skin,
    /// A fixed margin, at least 0. With a margin below the skin, a mover resting a skin above a
    /// floor can still skip its moves along the floor; that is right for backends that, like
    /// the exact one, only report a hit on overlap deeper than `tolerance::CONTACT`.
    Units(f64),
}

/// How the cache builds and tests its k-UDOPs.
#[derive(Debug, Clone)]
pub struct CacheConfig {
    /// The direction set (default: the standard 26-DOP).
    pub directions: Arc<Directions<DVec3>>,
    /// The cap radius of each k-UDOP, in units (default 64: two player widths. In
    /// `RandomBoxes::BENCHMARK` a cap of 128 skips 66.6% of 5-unit walking moves against 65.3%
    /// for 64, but builds cost 10.6 us instead of 3.3 us: the nearest brushes decide the sides,
    /// the far ones only cost time).
    pub radius: f64,
    /// The order Algorithm 1 visits brushes in (default nearest first).
    pub order: BuildOrder,
    /// The growth of the swept k-DOP (default the skin).
    pub margin: Margin,
    /// What the k-UDOPs insert for patch facets (default the curved pieces, [`PatchBound`]).
    pub patches: PatchBound,
}

impl Default for CacheConfig {
    fn default() -> CacheConfig {
        CacheConfig {
            directions: Arc::new(
                Directions::<DVec3>::standard(26).expect("the standard 26-DOP is valid"),
            ),
            radius: 64.0,
            order: BuildOrder::Nearest,
            margin: Margin::Skin,
            patches: PatchBound::Curves,
        }
    }
}

/// Why a cache cannot be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CacheError {
    /// The builder refused the configuration.
    #[error(transparent)]
    Builder(#[from] UdopBuilderError),
    /// A margin must be finite and at least 0.
    #[error("the cache margin must be finite and at least 0, got {0}")]
    Margin(f64),
}

/// The k-UDOP free-space cache over another backend.
///
/// Each mover keeps a k-UDOP built from the world's brushes at the centre of its bounds, in the
/// [`MoverCache`](cspace_geom::MoverCache) it lends the query context
/// ([`QueryContext::with_mover`]; the simulator keeps one per agent, so each agent keeps its
/// k-UDOP whichever thread moves it). A trace whose swept
/// bounding k-DOP (the shape's bounding k-DOP at start and at end, merged, grown by the
/// [`Margin`]) lies inside that k-UDOP (Algorithm 3) is answered `Hit::miss(end)` without asking
/// the wrapped backend: the shape then never comes within the margin of any brush, so every
/// backend fulfilling the [`Collider`] contract answers exactly that (fraction 1, the end
/// unchanged, nothing hit, not in solid). Any other trace is answered by the wrapped backend, and
/// the k-UDOP is rebuilt where the trace ended (unless it was built there already). A point query
/// whose grown shape lies in the k-UDOP is answered "not solid"; others pass through.
///
/// The cache never changes an answer, it only skips work: a k-UDOP holds free space whoever built
/// it, so a context traced for several movers without lending each its own cache answers the
/// same (it only rebuilds more often).
///
/// Its [`Prepared`] shapes are the wrapped backend's (`prepare` forwards), which checks them.
pub struct UdopCache {
    inner: Box<dyn Collider>,
    world: Arc<World>,
    builder: UdopBuilder,
    margin: Margin,
    name: String,
    /// The key to the cache's scratch in a context.
    key: ColliderKey,
}

/// A mover's k-UDOP and the position (of the shape's origin) it was built for, kept in its
/// [`MoverCache`](cspace_geom::MoverCache).
#[derive(Debug, Default)]
pub struct MoverUdop {
    built: Option<(Udop<DVec3>, DVec3)>,
}

impl MoverUdop {
    /// The k-UDOP kept, if any.
    pub fn udop(&self) -> Option<&Udop<DVec3>> {
        self.built.as_ref().map(|(udop, _)| udop)
    }
}

/// The cache's scratch in a [`QueryContext`]: the builder's.
#[derive(Debug, Default)]
struct CacheScratch {
    build: BuildScratch,
}

impl fmt::Debug for UdopCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UdopCache")
            .field("name", &self.name)
            .field("directions", &self.builder.directions().name())
            .field("radius", &self.builder.radius())
            .field("margin", &self.margin)
            .finish()
    }
}

impl UdopCache {
    /// A cache over `inner`, which answers for `world`.
    pub fn new(
        world: Arc<World>,
        inner: Box<dyn Collider>,
        config: CacheConfig,
    ) -> Result<UdopCache, CacheError> {
        if let Margin::Units(m) = config.margin
            && !(m.is_finite() && m >= 0.0)
        {
            return Err(CacheError::Margin(m));
        }
        let builder = UdopBuilder::new(config.directions, config.radius)?
            .with_order(config.order)
            .with_patches(config.patches);
        Ok(UdopCache {
            name: format!("udop+{}", inner.name()),
            inner,
            world,
            builder,
            margin: config.margin,
            key: ColliderKey::new(),
        })
    }

    /// The wrapped backend.
    pub fn inner(&self) -> &dyn Collider {
        self.inner.as_ref()
    }

    fn margin(&self, prepared: &Prepared) -> f64 {
        match self.margin {
            Margin::Skin => prepared.skin().max(0.0),
            Margin::Units(m) => m,
        }
    }

    /// Builds the mover's k-UDOP around the centre of `shape`'s bounds at `position`, unless the
    /// one it has was built for that very position (a mover that did not move, such as one
    /// resting on a floor probing the ground below it).
    fn rebuild(&self, ctx: &mut QueryContext, shape: &Shape, position: DVec3) {
        let parts = self.key.parts::<CacheScratch>(ctx);
        let (scratch, counters) = (parts.scratch, parts.counters);
        let kept = parts.mover.get_or_default::<MoverUdop>();
        if kept.built.as_ref().is_some_and(|(_, at)| *at == position) {
            return;
        }
        let started = Instant::now();
        let centre = position + shape.bounds().centre();
        let udop = self
            .builder
            .build_with(&mut scratch.build, &self.world, centre);
        counters.cache_build_nanos += started.elapsed().as_nanos() as u64;
        counters.cache_rebuilds += 1;
        kept.built = Some((udop, position));
    }

    /// True when the mover's k-UDOP holds `shape` swept from `start` to `end`, grown by `margin`.
    fn holds(
        &self,
        ctx: &mut QueryContext,
        shape: &Shape,
        start: DVec3,
        end: DVec3,
        margin: f64,
    ) -> bool {
        self.key
            .parts::<CacheScratch>(ctx)
            .mover
            .get_or_default::<MoverUdop>()
            .built
            .as_ref()
            .is_some_and(|(udop, _)| udop.contains_swept_shape(shape, start, end, margin))
    }
}

impl Collider for UdopCache {
    fn name(&self) -> &str {
        &self.name
    }

    fn world(&self) -> &Arc<World> {
        &self.world
    }

    fn prepare(&self, shape: &Shape) -> Result<Prepared, UnsupportedShape> {
        self.inner.prepare(shape)
    }

    fn trace(&self, ctx: &mut QueryContext, prepared: &Prepared, start: DVec3, end: DVec3) -> Hit {
        let shape = prepared.shape();
        let margin = self.margin(prepared);
        let empty = self
            .key
            .parts::<CacheScratch>(ctx)
            .mover
            .get_or_default::<MoverUdop>()
            .built
            .is_none();
        if empty && start.is_finite() {
            self.rebuild(ctx, shape, start);
        }
        if self.holds(ctx, shape, start, end, margin) {
            ctx.counters.cache_skips += 1;
            return Hit::miss(end);
        }
        let hit = self.inner.trace(ctx, prepared, start, end);
        // Rebuild only when the k-UDOP no longer serves: when the mover, at the end of this
        // move and with the move's horizontal part repeated, would not fit in it. A resting
        // agent's ground probe (straight down, into the floor that bounds the k-UDOP) or a
        // bump into a wall well inside it keep the k-UDOP; rebuilding after every answered
        // trace would rebuild once a step for every walking agent. Answers never depend on
        // this choice: a skip is always decided by Algorithm 3.
        if hit.end().is_finite() {
            let ahead = hit.end() + DVec3::new(end.x - start.x, end.y - start.y, 0.0);
            if !self.holds(ctx, shape, hit.end(), ahead, margin) {
                self.rebuild(ctx, shape, hit.end());
            }
        }
        hit
    }

    fn is_solid(&self, ctx: &mut QueryContext, prepared: &Prepared, position: DVec3) -> bool {
        let margin = self.margin(prepared);
        if self.holds(ctx, prepared.shape(), position, position, margin) {
            // The grown shape lies in the open region, which meets no brush: not in solid.
            ctx.counters.cache_points_answered += 1;
            return false;
        }
        self.inner.is_solid(ctx, prepared, position)
    }
}
