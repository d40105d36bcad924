//! The free-space cache: a [`Collider`] that skips the wrapped backend for moves that provably
//! stay inside the mover's k-UDOP.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cspace_geom::{Collider, Hit, Prepared, Shape, UnsupportedShape, World};
use glam::DVec3;

use crate::directions::Directions;
use crate::udop::Udop;
use crate::world::{BuildOrder, UdopBuilder, UdopBuilderError};

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
        }
    }
}

/// What the cache did: plain counters with [`fmt::Display`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CacheCounters {
    /// Traces asked of the cache.
    pub traces: u64,
    /// Traces answered as free moves without the wrapped backend.
    pub skipped: u64,
    /// Point queries asked of the cache.
    pub point_queries: u64,
    /// Point queries answered as free without the wrapped backend.
    pub points_answered: u64,
    /// k-UDOPs built.
    pub rebuilds: u64,
    /// Time spent building them (wall clock; reported, never used in an answer).
    pub build_time: Duration,
}

impl CacheCounters {
    /// The share of traces skipped, in `[0, 1]` (0 without traces).
    pub fn skip_rate(&self) -> f64 {
        if self.traces == 0 {
            0.0
        } else {
            self.skipped as f64 / self.traces as f64
        }
    }
}

impl fmt::Display for CacheCounters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let each = if self.rebuilds == 0 {
            0.0
        } else {
            self.build_time.as_secs_f64() * 1e6 / self.rebuilds as f64
        };
        write!(
            f,
            "traces {}, skipped {} ({:.1}%), point queries {} (answered {}), rebuilds {}, \
             build time {:.3} ms ({:.2} us each)",
            self.traces,
            self.skipped,
            100.0 * self.skip_rate() + 0.0,
            self.point_queries,
            self.points_answered,
            self.rebuilds,
            self.build_time.as_secs_f64() * 1e3,
            each + 0.0,
        )
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
/// Each mover (keyed by [`Prepared::mover`]) keeps a k-UDOP built from the world's brushes at
/// the centre of its bounds. A trace whose swept bounding k-DOP (the shape's bounding k-DOP at
/// start and at end, merged, grown by the [`Margin`]) lies inside that k-UDOP (Algorithm 3) is
/// answered `Hit::miss(end)` without asking the wrapped backend: the shape then never comes
/// within the margin of any brush, so every backend fulfilling the [`Collider`] contract
/// answers exactly that (fraction 1, the end unchanged, nothing hit, not in solid). Any other
/// trace is answered by the wrapped backend, and the mover's k-UDOP is rebuilt where the trace
/// ended (unless it was built there already). Traces without a mover id pass through. A point
/// query whose grown shape lies in the mover's k-UDOP is answered "not solid"; others pass
/// through.
///
/// The cache never changes an answer, it only skips work: the same inputs give the same
/// answers whatever it holds. Movers live in a `BTreeMap`, so nothing depends on hash order.
pub struct UdopCache {
    inner: Box<dyn Collider>,
    world: Arc<World>,
    builder: UdopBuilder,
    margin: Margin,
    name: String,
    /// Per mover: the k-UDOP and the position (of the shape's origin) it was built for.
    movers: BTreeMap<u64, (Udop<DVec3>, DVec3)>,
    counters: CacheCounters,
}

impl fmt::Debug for UdopCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UdopCache")
            .field("name", &self.name)
            .field("directions", &self.builder.directions().name())
            .field("radius", &self.builder.radius())
            .field("margin", &self.margin)
            .field("movers", &self.movers.len())
            .field("counters", &self.counters)
            .finish()
    }
}

impl UdopCache {
    /// A cache over `inner`, which answers for `world`.
    pub fn new(
        inner: Box<dyn Collider>,
        world: Arc<World>,
        config: CacheConfig,
    ) -> Result<UdopCache, CacheError> {
        if let Margin::Units(m) = config.margin
            && !(m.is_finite() && m >= 0.0)
        {
            return Err(CacheError::Margin(m));
        }
        let builder = UdopBuilder::new(config.directions, config.radius)?.with_order(config.order);
        Ok(UdopCache {
            name: format!("udop+{}", inner.name()),
            inner,
            world,
            builder,
            margin: config.margin,
            movers: BTreeMap::new(),
            counters: CacheCounters::default(),
        })
    }

    /// The counters so far.
    pub fn counters(&self) -> &CacheCounters {
        &self.counters
    }

    /// Sets every counter back to zero.
    pub fn reset_counters(&mut self) {
        self.counters = CacheCounters::default();
    }

    /// The k-UDOP kept for `mover`, if any.
    pub fn udop(&self, mover: u64) -> Option<&Udop<DVec3>> {
        self.movers.get(&mover).map(|(udop, _)| udop)
    }

    /// Drops the k-UDOP kept for `mover` (a mover that left, or teleported).
    pub fn forget(&mut self, mover: u64) {
        self.movers.remove(&mover);
    }

    /// Drops every k-UDOP.
    pub fn clear(&mut self) {
        self.movers.clear();
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

    /// Builds the k-UDOP of `mover` around the centre of `shape`'s bounds at `position`, unless
    /// the one it has was built for that very position (a mover that did not move, such as one
    /// resting on a floor probing the ground below it).
    fn rebuild(&mut self, mover: u64, shape: &Shape, position: DVec3) {
        if self
            .movers
            .get(&mover)
            .is_some_and(|(_, built)| *built == position)
        {
            return;
        }
        let started = Instant::now();
        let centre = position + shape.bounds().centre();
        let udop = self.builder.build(&self.world, centre);
        self.counters.build_time += started.elapsed();
        self.counters.rebuilds += 1;
        self.movers.insert(mover, (udop, position));
    }
}

impl Collider for UdopCache {
    fn name(&self) -> &str {
        &self.name
    }

    fn prepare(&self, shape: &Shape) -> Result<Prepared, UnsupportedShape> {
        self.inner.prepare(shape)
    }

    fn trace(&mut self, prepared: &Prepared, start: DVec3, end: DVec3) -> Hit {
        self.counters.traces += 1;
        let Some(mover) = prepared.mover() else {
            return self.inner.trace(prepared, start, end);
        };
        let shape = prepared.shape();
        if !self.movers.contains_key(&mover) && start.is_finite() {
            self.rebuild(mover, shape, start);
        }
        let margin = self.margin(prepared);
        if let Some((udop, _)) = self.movers.get(&mover)
            && udop.contains_swept_shape(shape, start, end, margin)
        {
            self.counters.skipped += 1;
            return Hit::miss(end);
        }
        let hit = self.inner.trace(prepared, start, end);
        // Rebuild only when the k-UDOP no longer serves: when the mover, at the end of this
        // move and with the move's horizontal part repeated, would not fit in it. A resting
        // agent's ground probe (straight down, into the floor that bounds the k-UDOP) or a
        // bump into a wall well inside it keep the k-UDOP; rebuilding after every answered
        // trace would rebuild once a step for every walking agent. Answers never depend on
        // this choice: a skip is always decided by Algorithm 3.
        if hit.end.is_finite() {
            let ahead = hit.end + DVec3::new(end.x - start.x, end.y - start.y, 0.0);
            let serves = self
                .movers
                .get(&mover)
                .is_some_and(|(udop, _)| udop.contains_swept_shape(shape, hit.end, ahead, margin));
            if !serves {
                self.rebuild(mover, shape, hit.end);
            }
        }
        hit
    }

    fn counters(&self) -> Option<String> {
        Some(self.counters().to_string())
    }

    fn is_solid(&mut self, prepared: &Prepared, position: DVec3) -> bool {
        self.counters.point_queries += 1;
        let margin = self.margin(prepared);
        if let Some(mover) = prepared.mover()
            && let Some((udop, _)) = self.movers.get(&mover)
            && udop.contains_swept_shape(prepared.shape(), position, position, margin)
        {
            // The grown shape lies in the open region, which meets no brush: not in solid.
            self.counters.points_answered += 1;
            return false;
        }
        self.inner.is_solid(prepared, position)
    }
}
