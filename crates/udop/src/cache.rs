//! The free-space cache: a [`Collider`] that skips the wrapped backend for moves that provably
//! stay inside the k-UDOP of a grid cell they start (or end) in.

use std::fmt;
use std::sync::Arc;

use cspace_geom::{
    Aabb, Collider, ColliderKey, Hit, Prepared, QueryContext, Shape, UnsupportedShape, World,
};
use glam::DVec3;

use crate::cells::{CellError, CellUdops, Certificate, GridConfig};
use crate::directions::Directions;
use crate::world::{
    BuildOrder, BuildScratch, PatchBound, QUERY_SLACK, UdopBuilder, UdopBuilderError,
};

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
    /// The direction set (default: the six axes, the standard 6-DOP: on the 1,000-agent crowds
    /// of E1M1 and the open world the 14-, 18- and 26-DOP certify the same share of traces within
    /// 1 %, and their test costs several times as much, `docs/udop.md`).
    pub directions: Arc<Directions<DVec3>>,
    /// The cap radius of each cell's k-UDOP, in units, at most [`MAX_RADIUS`](crate::cells::MAX_RADIUS) (default 64).
    pub radius: f64,
    /// The order Algorithm 1 visits brushes in (default nearest first).
    pub order: BuildOrder,
    /// The growth of the swept k-DOP (default the skin).
    pub margin: Margin,
    /// What the k-UDOPs insert for patch facets (default the curved pieces, [`PatchBound`]).
    pub patches: PatchBound,
    /// The grid of cells the k-UDOPs are built for (default: 64-unit cells, at most
    /// [`DEFAULT_MAX_CELLS`]).
    pub grid: GridConfig,
    /// Build every cell when the cache is made, on this many threads (`None`, the default: each
    /// cell when a query first needs it).
    pub prebuild: Option<usize>,
}

/// The default most cells of a cache's grid: 2^18 (4.2 MB with the 6-DOP's 16 bytes per cell;
/// E1M1's grid of 64-unit cells has 29,400, chasm's reaches the bound with 86-unit cells).
pub const DEFAULT_MAX_CELLS: usize = 1 << 18;

impl Default for CacheConfig {
    fn default() -> CacheConfig {
        CacheConfig {
            directions: Arc::new(
                Directions::<DVec3>::standard(6).expect("the standard 6-DOP is valid"),
            ),
            radius: 64.0,
            order: BuildOrder::Nearest,
            margin: Margin::Skin,
            patches: PatchBound::Curves,
            grid: GridConfig {
                edge: 64.0,
                max_cells: DEFAULT_MAX_CELLS,
            },
            prebuild: None,
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
    /// The grid refused the configuration.
    #[error(transparent)]
    Grid(#[from] CellError),
    /// A margin must be finite and at least 0.
    #[error("the cache margin must be finite and at least 0, got {0}")]
    Margin(f64),
}

/// The k-UDOP free-space cache over another backend.
///
/// The world is cut into the cells of a fixed grid ([`CellUdops`]); each cell has a k-UDOP of the
/// world's brushes built around its centre (Algorithm 1, with the cap of [`UdopBuilder`]), on the
/// first query that needs it and shared by every mover, context and thread from then on. A trace
/// whose swept bounding k-DOP (the shape's bounding k-DOP at start and at end, merged, grown by
/// the [`Margin`]) lies inside the k-UDOP of its start's cell (the cell holding the centre of the
/// shape's bounds at the start) is answered `Hit::miss(end)` without
/// asking the wrapped backend (Algorithm 3): the shape then never comes within the margin of any
/// brush, so every backend fulfilling the [`Collider`] contract answers exactly that (fraction 1,
/// the end unchanged, nothing hit, not in solid). So is a trace whose swept bounds, grown by the
/// margin, stay outside the bounds of every brush (a mover fallen out of a sealed map). A trace
/// whose swept k-DOP lies in the cell's second k-UDOP, of every brush but the cell's nearest few,
/// is handed to the wrapped backend with those brushes ([`Collider::trace_among`]: the exact
/// backend then answers from their spans alone, bit for bit its own answer; a backend that does
/// not answer that way is asked `trace`). Any other trace is the wrapped backend's. A
/// point query whose grown shape lies in its cell's k-UDOP is answered "not solid"; others pass
/// through.
///
/// The cache never changes an answer, it only skips work; and what it skips does not depend on
/// which query built a cell first, nor on the thread count: a cell's k-UDOP is a pure function of
/// the world, the configuration and the cell.
///
/// Counted in the context's [`QueryCounters`](cspace_geom::QueryCounters): `certified` and
/// `cache_skips` (the traces answered here), `narrowed` (those handed to the wrapped backend with
/// the brushes they can meet), `fall_throughs` (those handed to it without; the backend counts
/// its own `traces`), `cache_points_answered`, and `cache_rebuilds` /
/// `cache_build_nanos` for the cells this context's queries built.
///
/// Its [`Prepared`] shapes are the wrapped backend's (`prepare` forwards), which checks them.
pub struct UdopCache {
    inner: Box<dyn Collider>,
    world: Arc<World>,
    cells: CellUdops,
    /// The bounds of every brush of the world, grown by [`QUERY_SLACK`] (the rounding of brush
    /// bounds); empty for an empty world.
    solid_bounds: Aabb,
    margin: Margin,
    name: String,
    /// The key to the cache's scratch in a context.
    key: ColliderKey,
}

/// The cache's scratch in a [`QueryContext`]: the builder's, and what it keeps of the shapes
/// traced through it.
#[derive(Debug, Default)]
struct CacheScratch {
    build: BuildScratch,
    /// The shapes traced, the last one asked first; at most [`KEPT_SHAPES`] (a context serves
    /// the agents of a group in turn, standing and crouching: with one kept shape, a crouching
    /// agent's every trace recomputed its supports).
    shapes: Vec<KeptShape>,
}

/// How many shapes a context keeps ([`CacheScratch::shapes`]); past it, the oldest is dropped.
const KEPT_SHAPES: usize = 8;

/// A shape traced through a context, with the margin it was traced with.
#[derive(Debug)]
struct KeptShape {
    shape: Shape,
    margin: f64,
    /// Its supports along the directions plus the margin, in steps ([`CellUdops::supports`]).
    supports: Vec<f64>,
    /// Its bounds grown by the margin.
    bounds: Aabb,
    /// The centre of its bounds: the point whose cell is looked up.
    offset: DVec3,
}

impl fmt::Debug for UdopCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UdopCache")
            .field("name", &self.name)
            .field("cells", &self.cells)
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
        let cells = CellUdops::new(&world, builder, config.grid)?;
        if let Some(threads) = config.prebuild {
            cells.build_all(&world, threads);
        }
        let solid_bounds = if world.is_empty() {
            Aabb::new(DVec3::INFINITY, DVec3::NEG_INFINITY)
        } else {
            world.bounds().loosened(QUERY_SLACK)
        };
        Ok(UdopCache {
            name: format!("udop+{}", inner.name()),
            inner,
            world,
            cells,
            solid_bounds,
            margin: config.margin,
            key: ColliderKey::new(),
        })
    }

    /// The wrapped backend.
    pub fn inner(&self) -> &dyn Collider {
        self.inner.as_ref()
    }

    /// The cells' k-UDOPs.
    pub fn cells(&self) -> &CellUdops {
        &self.cells
    }

    fn margin(&self, prepared: &Prepared) -> f64 {
        match self.margin {
            Margin::Skin => prepared.skin().max(0.0),
            Margin::Units(m) => m,
        }
    }

    /// What the cell of `start` knows about the prepared shape swept from `start` to `end`,
    /// grown by the margin (building the cell if no one has): free when its k-UDOP holds the
    /// swept shape, or when the swept shape stays outside the world's bounds; among the cell's
    /// left-out brushes when its second k-UDOP holds it ([`CellUdops::certificate`]).
    fn certificate(
        &self,
        ctx: &mut QueryContext,
        prepared: &Prepared,
        start: DVec3,
        end: DVec3,
    ) -> Certificate {
        // `0 x` is zero for every finite `x` and NaN for infinities and NaN: one test for the six
        // coordinates (what `is_finite` on each says, in a sixth of the instructions).
        if !(start * 0.0 + end * 0.0).cmpeq(DVec3::ZERO).all() {
            return Certificate::Unknown;
        }
        let margin = self.margin(prepared);
        let shape = prepared.shape();
        let parts = self.key.parts::<CacheScratch>(ctx);
        let (scratch, counters) = (parts.scratch, parts.counters);
        let shapes = &mut scratch.shapes;
        let at = shapes
            .iter()
            .position(|kept| kept.shape == *shape && kept.margin.to_bits() == margin.to_bits());
        match at {
            Some(0) => {}
            Some(at) => shapes[..=at].rotate_right(1),
            None => {
                let mut supports = Vec::new();
                self.cells.supports(shape, margin, &mut supports);
                let bounds = shape.bounds();
                shapes.truncate(KEPT_SHAPES - 1);
                shapes.insert(
                    0,
                    KeptShape {
                        shape: shape.clone(),
                        margin,
                        supports,
                        bounds: bounds.loosened(margin),
                        offset: bounds.centre(),
                    },
                );
            }
        }
        let kept = &shapes[0];
        if let Some((cell, centre)) = self.cells.cell_of(start + kept.offset) {
            self.cells
                .ensure(&self.world, cell, &mut scratch.build, counters);
            let certificate = self
                .cells
                .certificate(cell, centre, start, end, &kept.supports);
            if certificate != Certificate::Unknown {
                return certificate;
            }
        }
        // Every brush lies inside the world's bounds: a shape that stays outside them meets none
        // (a mover fallen out of a sealed map, or past the edge of an open one).
        let swept = kept
            .bounds
            .translated(start)
            .merged(kept.bounds.translated(end));
        if swept.intersects(&self.solid_bounds) {
            Certificate::Unknown
        } else {
            Certificate::Free
        }
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
        match self.certificate(ctx, prepared, start, end) {
            Certificate::Free => {
                ctx.counters.certified += 1;
                ctx.counters.cache_skips += 1;
                return Hit::miss(end);
            }
            Certificate::Among { brushes, count } => {
                if let Some(hit) =
                    self.inner
                        .trace_among(ctx, prepared, start, end, &brushes[..count])
                {
                    ctx.counters.narrowed += 1;
                    return hit;
                }
            }
            Certificate::Unknown => {}
        }
        ctx.counters.fall_throughs += 1;
        self.inner.trace(ctx, prepared, start, end)
    }

    fn is_solid(&self, ctx: &mut QueryContext, prepared: &Prepared, position: DVec3) -> bool {
        if self.certificate(ctx, prepared, position, position) == Certificate::Free {
            // The grown shape lies in the open region, which meets no brush: not in solid.
            ctx.counters.cache_points_answered += 1;
            return false;
        }
        self.inner.is_solid(ctx, prepared, position)
    }
}

#[cfg(test)]
mod tests {
    use cspace_geom::{Brush, ExactCollider};

    use super::*;

    /// A move with a non-finite end is never certified, in a cell whose k-UDOP holds the finite
    /// end nor outside the world's bounds (the exact backend refuses such moves in debug builds,
    /// so the certificate is asked directly).
    #[test]
    fn moves_with_a_non_finite_end_get_no_certificate() {
        let floor = Brush::from_aabb(Aabb::new(
            DVec3::new(-256.0, -256.0, -64.0),
            DVec3::new(256.0, 256.0, 0.0),
        ))
        .unwrap();
        let world = Arc::new(World::from_brushes(vec![floor]));
        let cache = UdopCache::new(
            world.clone(),
            Box::new(ExactCollider::new(world)),
            CacheConfig::default(),
        )
        .unwrap();
        let mut ctx = QueryContext::new();
        let shape = Shape::new_box(DVec3::splat(-8.0), DVec3::splat(8.0)).unwrap();
        let prepared = cache.prepare(&shape).unwrap();
        let start = DVec3::new(0.0, 0.0, 100.0);
        assert_eq!(
            cache.certificate(&mut ctx, &prepared, start, start + DVec3::X),
            Certificate::Free
        );
        let far = DVec3::new(0.0, 0.0, 4000.0);
        assert_eq!(
            cache.certificate(&mut ctx, &prepared, far, far + DVec3::X),
            Certificate::Free
        );
        for end in [
            DVec3::new(f64::NAN, 0.0, 100.0),
            DVec3::new(f64::INFINITY, 0.0, 100.0),
            DVec3::new(0.0, f64::NEG_INFINITY, 100.0),
            DVec3::new(0.0, 0.0, f64::NAN),
        ] {
            for (a, b) in [(start, end), (end, start), (far, end)] {
                assert_eq!(
                    cache.certificate(&mut ctx, &prepared, a, b),
                    Certificate::Unknown,
                    "{a} -> {b}"
                );
            }
        }
    }
}
