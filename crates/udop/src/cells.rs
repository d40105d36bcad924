//! k-UDOPs per cell of a fixed grid over the world (issue 31, "a k-UDOP that pays"): Algorithm 1
//! of seed 004 (Kiglics, Valasek, Bálint) around each cell's centre, over the world's brushes
//! ([`UdopBuilder`]), so that a move whose swept bounding k-DOP lies in the k-UDOP of its start's
//! cell (Algorithm 3) is free without asking any backend.
//!
//! The k-UDOP of a cell is of the world's brushes (the workspace), not of a configuration space:
//! it does not depend on the shape, whose swept k-DOP already holds it. So one index serves every
//! shape and every mover, and a cell's k-UDOP is a pure function of the world, the builder and the
//! cell. That is what lets it be built **lazily and shared**: the first query that needs a cell
//! builds it (a [`OnceLock`] per cell; others wanting the same cell wait for it), and who builds
//! it first cannot change a bit of it, so no answer depends on the order of queries or the number
//! of threads. [`CellUdops::build_all`] builds every cell up front instead (offline, when the
//! collider is made), for the measurements of `docs/udop.md`.
//!
//! # Storage
//!
//! Each cell keeps its `k` distances as `i16` in steps of 1/128 unit ([`STEPS`]) from the cell's
//! centre, **rounded down** (inward: the stored region is a subset of Algorithm 1's), 52 bytes for
//! the 26-DOP: a distance of the capped k-UDOP is at most `R ||v||_1` (`R` the cap, at most
//! [`MAX_RADIUS`]), which fits. A side farther in than `i16::MIN` steps (a centre deep in solid)
//! leaves the cell without a region ([`EMPTY`]): such a region lies outside the cap's cube, so it
//! was empty anyway. The distances are atomics filled once under the cell's `OnceLock` (whose
//! release and acquire order them for readers), so the index needs no `unsafe` and no lock on the
//! read path.
//!
//! # Why a certified answer is the backend's
//!
//! [`UdopBuilder`] proves that Algorithm 1's open region meets no brush (nor patch facet); the
//! stored region is inside it. A shape moving on a segment stays in the convex hull of its two end
//! poses, whose bounding k-DOP along `v_i` reaches `max(a . v_i, b . v_i) + s(v_i)` from the
//! centre (`a`, `b` the ends relative to it, `s` the shape's support): when that is below the
//! stored `h_i` for every `i`, the swept shape lies in the open region, meets no brush, and every
//! backend fulfilling the `Collider` contract (which reports a hit only for overlap deeper than
//! `tolerance::CONTACT`) answers `Hit::miss(end)`. The arithmetic is scaled by [`STEPS`] (a power
//! of two: the scaled test rounds exactly as the unscaled one), and its rounding, about 1e-13
//! units at the cap's distances, is far inside the brushes' growth ([`crate::world::BRUSH_GUARD`],
//! 1e-6).
//!
//! # Hits answered among a cell's nearest brushes
//!
//! A mover resting on a floor probes the ground every step, and a mover walking along a wall
//! slides against it: those traces touch the floor or the wall, so no k-UDOP of every brush
//! holds them. Each cell therefore keeps a second k-UDOP, built around the same centre by the
//! same Algorithm 1 over every brush but its [`NEAR`] nearest plain brushes within a cell edge
//! ([`UdopBuilder::build_pair`]), and those brushes' ids. The argument above, made for the
//! brushes inserted, says a move whose swept k-DOP that region holds overlaps no brush but the
//! ones left out; [`Certificate::Among`] hands them to the backend
//! ([`cspace_geom::Collider::trace_among`]), which answers from their spans alone: the exact
//! backend's answer bit for bit, without its spatial search and without the other brushes'
//! spans ([`cspace_geom::ExactCollider::sweep_among`] gives the argument). It is the touching
//! certificate issue 31's closing notes proposed, for the backend whose answer is a function of
//! the brushes' spans.

use std::sync::atomic::{AtomicI16, AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use cspace_geom::{Aabb, BrushId, QueryCounters, Shape, World};
use glam::DVec3;

use crate::directions::Directions;
use crate::world::{BuildScratch, UdopBuilder};

/// The steps per unit in which a cell's distances are kept, from its centre (1/128 unit, as the
/// onion's and Melax's free indexes keep their boxes). Rounding is down (inward), by less than a
/// step: a mover a skin (1/32) above a floor stays inside the k-UDOP above it. Not a tolerance: a
/// storage unit.
pub const STEPS: f64 = 128.0;

/// The largest cap radius an index takes, in units: a 26-DOP's corner side reaches `R sqrt(3)`,
/// which must fit in `i16` steps ([`STEPS`]): `147 * 1.733 * 128 < 32767`.
pub const MAX_RADIUS: f64 = 147.0;

/// The stored distance of a cell without a region: every side `i16::MIN` steps (-256 units) from
/// the centre, an empty region for a positively spanning set.
pub const EMPTY: i16 = i16::MIN;

/// The most cells a grid has (the cell edge grows until the grid fits).
pub const MAX_CELLS: usize = 1 << 20;

/// How many brushes a cell's second k-UDOP leaves out ([`CellUdops::certificate`]): the nearest
/// plain brushes within a cell edge of its centre. Four holds a floor and the walls of a corner
/// (the crowds' ground probes and slides); a left-out brush the move does not come near costs a
/// bounds test.
pub const NEAR: usize = 4;

/// A left-out slot without a brush.
const NO_BRUSH: u32 = u32::MAX;

/// What a cell knows about a move ([`CellUdops::certificate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Certificate {
    /// The move stays in the cell's k-UDOP of every brush: it meets nothing.
    Free,
    /// The move stays in the cell's k-UDOP of every brush but the first `count` of `brushes`
    /// (sorted by id): it can meet only those.
    Among {
        /// The brushes it can meet, the first `count` of them.
        brushes: [BrushId; NEAR],
        /// How many.
        count: usize,
    },
    /// Neither: the cell is not built, the move leaves both regions, or an end is not finite.
    Unknown,
}

/// How a grid is laid over a world: its cells' edge and how many there may be at most.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridConfig {
    /// The cell edge, in units (grown by 2 % steps while the grid would have more cells than
    /// `max_cells`).
    pub edge: f64,
    /// The most cells, at most [`MAX_CELLS`].
    pub max_cells: usize,
}

/// What an index holds and what building it cost, for the report.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CellStats {
    /// Cells of the grid.
    pub cells: usize,
    /// The grid's cell edge, in units.
    pub edge: f64,
    /// Cells whose k-UDOP has been built.
    pub built: usize,
    /// Of those, the cells whose region contains their centre.
    pub centred: usize,
    /// Of those, the cells left without a region ([`EMPTY`]).
    pub empty: usize,
    /// Bytes of the grid (distances and the per-cell locks).
    pub bytes: usize,
}

/// The k-UDOPs of the cells of a grid over a world, built on first use or all at once.
pub struct CellUdops {
    builder: UdopBuilder,
    origin: DVec3,
    edge: f64,
    inverse: f64,
    dims: [usize; 3],
    /// `dims` as numbers, for the bounds test.
    extent: DVec3,
    k: usize,
    /// True when the directions are the six axes in [`Directions::standard`]'s order (`+x, -x,
    /// +y, -y, +z, -z`), whose test [`holds_on_axes`] writes out.
    axes: bool,
    /// `k` distances per cell, in [`STEPS`] from its centre, rounded down; read only once the
    /// cell's `ready` lock is set.
    distances: Vec<AtomicI16>,
    /// The same for the k-UDOP of every brush but the cell's left-out ones.
    near_distances: Vec<AtomicI16>,
    /// [`NEAR`] brush ids per cell, sorted, [`NO_BRUSH`] after the last: the brushes left out of
    /// `near_distances`' region.
    left_out: Vec<AtomicU32>,
    ready: Vec<OnceLock<()>>,
}

/// Its figures, not its cells.
impl std::fmt::Debug for CellUdops {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CellUdops")
            .field("origin", &self.origin)
            .field("edge", &self.edge)
            .field("dims", &self.dims)
            .field("directions", &self.builder.directions().name())
            .field("radius", &self.builder.radius())
            .finish_non_exhaustive()
    }
}

/// Why an index cannot be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CellError {
    /// The cell edge must be positive and finite.
    #[error("the k-UDOP grid's cell edge must be positive and finite, got {0}")]
    Edge(f64),
    /// The cap radius is past [`MAX_RADIUS`] (the distances would not fit their storage).
    #[error("the k-UDOP cap radius of a cell grid must be at most {MAX_RADIUS}, got {0}")]
    Radius(f64),
    /// A grid has at least one and at most [`MAX_CELLS`] cells.
    #[error("a k-UDOP grid has 1 to {MAX_CELLS} cells, asked for at most {0}")]
    Cells(usize),
}

impl CellUdops {
    /// The grid of `config` over the bounds of `world`'s brushes (grown by half a cell), for the
    /// k-UDOPs of `builder`; no cell built yet.
    pub fn new(
        world: &World,
        builder: UdopBuilder,
        config: GridConfig,
    ) -> Result<CellUdops, CellError> {
        if !(config.edge.is_finite() && config.edge > 0.0) {
            return Err(CellError::Edge(config.edge));
        }
        if builder.radius() > MAX_RADIUS {
            return Err(CellError::Radius(builder.radius()));
        }
        if !(1..=MAX_CELLS).contains(&config.max_cells) {
            return Err(CellError::Cells(config.max_cells));
        }
        let bounds = if world.is_empty() {
            Aabb::new(DVec3::splat(-1.0), DVec3::ONE)
        } else {
            world.bounds()
        };
        let mut edge = config.edge;
        let grown = |edge: f64| bounds.loosened(0.5 * edge);
        let dims_of = |edge: f64| (grown(edge).size() / edge).ceil().max(DVec3::ONE);
        while dims_of(edge).element_product() > config.max_cells as f64 {
            edge *= 1.02;
        }
        let extent = dims_of(edge);
        let dims = [extent.x, extent.y, extent.z].map(|n| n as usize);
        let cells = dims.iter().product::<usize>();
        let k = builder.directions().len();
        let axes = builder.directions().vectors()
            == Directions::<DVec3>::standard(6)
                .expect("the standard 6-DOP is valid")
                .vectors();
        Ok(CellUdops {
            axes,
            origin: grown(edge).min,
            edge,
            inverse: 1.0 / edge,
            dims,
            extent,
            k,
            distances: (0..cells * k).map(|_| AtomicI16::new(EMPTY)).collect(),
            near_distances: (0..cells * k).map(|_| AtomicI16::new(EMPTY)).collect(),
            left_out: (0..cells * NEAR)
                .map(|_| AtomicU32::new(NO_BRUSH))
                .collect(),
            ready: (0..cells).map(|_| OnceLock::new()).collect(),
            builder,
        })
    }

    /// The direction set.
    pub fn directions(&self) -> &Arc<Directions<DVec3>> {
        self.builder.directions()
    }

    /// The builder of the cells' k-UDOPs.
    pub fn builder(&self) -> &UdopBuilder {
        &self.builder
    }

    /// The cell edge, in units.
    pub fn edge(&self) -> f64 {
        self.edge
    }

    /// Cells of the grid.
    pub fn cells(&self) -> usize {
        self.ready.len()
    }

    /// The cell holding `point` and that cell's centre, or `None` outside the grid (or NaN).
    #[inline]
    pub fn cell_of(&self, point: DVec3) -> Option<(usize, DVec3)> {
        let k = (point - self.origin) * self.inverse;
        // False for NaN too.
        if !(k.cmpge(DVec3::ZERO).all() && k.cmplt(self.extent).all()) {
            return None;
        }
        // In range, so `i32` holds them (a conversion to `usize` costs several times the
        // instructions: Melax's free index measured it), truncation is the floor, and back to
        // floats they are the values `centre_of` takes from `usize`, so the centre below is
        // its own, bit for bit (converting an `i32` is one instruction, a `usize` a dozen, and
        // `f64::floor` without SSE 4.1 more).
        let (xi, yi, zi) = (k.x as i32, k.y as i32, k.z as i32);
        let (x, y, z) = (xi as usize, yi as usize, zi as usize);
        if x >= self.dims[0] || y >= self.dims[1] || z >= self.dims[2] {
            return None;
        }
        let cell = (z * self.dims[1] + y) * self.dims[0] + x;
        let corner = DVec3::new(f64::from(xi), f64::from(yi), f64::from(zi));
        Some((cell, self.origin + (corner + 0.5) * self.edge))
    }

    /// The centre of cell `(x, y, z)`: the one point its k-UDOP is built around and tested from.
    #[inline]
    fn centre_of(&self, x: usize, y: usize, z: usize) -> DVec3 {
        self.origin + (DVec3::new(x as f64, y as f64, z as f64) + 0.5) * self.edge
    }

    /// The centre of cell `cell`.
    pub fn cell_centre(&self, cell: usize) -> DVec3 {
        let x = cell % self.dims[0];
        let y = cell / self.dims[0] % self.dims[1];
        let z = cell / self.dims[0] / self.dims[1];
        self.centre_of(x, y, z)
    }

    /// Makes sure cell `cell` is built (building it now, with `scratch`, if no one has), and
    /// counts a build in `counters` when this call made it.
    #[inline]
    pub fn ensure(
        &self,
        world: &World,
        cell: usize,
        scratch: &mut BuildScratch,
        counters: &mut QueryCounters,
    ) {
        if self.ready[cell].get().is_some() {
            return;
        }
        self.ready[cell].get_or_init(|| {
            let started = Instant::now();
            self.fill(world, cell, scratch);
            counters.cache_build_nanos += started.elapsed().as_nanos() as u64;
            counters.cache_rebuilds += 1;
        });
    }

    /// Algorithm 1 around the cell's centre, over every brush and over all but the nearest
    /// ([`UdopBuilder::build_pair`], [`NEAR`] within a cell edge), stored rounded down with the
    /// brushes left out.
    fn fill(&self, world: &World, cell: usize, scratch: &mut BuildScratch) {
        let mut left_out = Vec::with_capacity(NEAR);
        let (all, rest) = self.builder.build_pair(
            scratch,
            world,
            self.cell_centre(cell),
            NEAR,
            self.edge,
            &mut left_out,
        );
        let range = cell * self.k..(cell + 1) * self.k;
        store(&self.distances[range.clone()], all.distances());
        store(&self.near_distances[range], rest.distances());
        for (slot, id) in self.left_out[cell * NEAR..(cell + 1) * NEAR]
            .iter()
            .zip(&left_out)
        {
            slot.store(id.0, Ordering::Relaxed);
        }
    }

    /// Builds every cell not built yet, on up to `threads` threads (each cell is a pure function
    /// of the world and the cell, so the result is the same for any count).
    pub fn build_all(&self, world: &World, threads: usize) {
        let cells = self.cells();
        let threads = threads.clamp(1, cells.max(1));
        let per = cells.div_ceil(threads);
        std::thread::scope(|s| {
            for t in 0..threads {
                s.spawn(move || {
                    let mut scratch = BuildScratch::default();
                    for cell in t * per..((t + 1) * per).min(cells) {
                        self.ready[cell].get_or_init(|| self.fill(world, cell, &mut scratch));
                    }
                });
            }
        });
    }

    /// True when `shape`, whose supports along the directions (plus any margin) times [`STEPS`]
    /// are `supports`, moving from `start` to `end` stays in the k-UDOP of built cell `cell`
    /// centred at `centre` (Algorithm 3 on the swept bounding k-DOP): [`CellUdops::certificate`]
    /// says free. False for a cell not built and for non-finite ends.
    pub fn holds(
        &self,
        cell: usize,
        centre: DVec3,
        start: DVec3,
        end: DVec3,
        supports: &[f64],
    ) -> bool {
        start.is_finite()
            && end.is_finite()
            && self.certificate(cell, centre, start, end, supports) == Certificate::Free
    }

    /// Algorithm 3 for the ends `a`, `b` (from the centre, in steps) against the distances
    /// `stored`: the written-out test over the six axes, or the general one.
    #[inline(always)]
    fn held(&self, stored: &[AtomicI16], a: DVec3, b: DVec3, supports: &[f64]) -> bool {
        if self.axes {
            holds_on_axes(a, b, stored, supports)
        } else {
            holds_along(self.directions().vectors(), a, b, stored, supports)
        }
    }

    /// What built cell `cell` centred at `centre` knows about `shape` (supports as
    /// [`CellUdops::holds`] takes them) moving from `start` to `end`, both finite: free when its
    /// k-UDOP of every brush holds the swept k-DOP, else [`Certificate::Among`] the brushes its
    /// second k-UDOP leaves out when that one holds it (Algorithm 3 on each). Unknown for a cell
    /// not built.
    #[inline]
    pub fn certificate(
        &self,
        cell: usize,
        centre: DVec3,
        start: DVec3,
        end: DVec3,
        supports: &[f64],
    ) -> Certificate {
        if self.ready[cell].get().is_none() {
            return Certificate::Unknown;
        }
        let (a, b) = ((start - centre) * STEPS, (end - centre) * STEPS);
        let range = cell * self.k..(cell + 1) * self.k;
        if self.held(&self.distances[range.clone()], a, b, supports) {
            return Certificate::Free;
        }
        if !self.held(&self.near_distances[range], a, b, supports) {
            return Certificate::Unknown;
        }
        let mut brushes = [BrushId(NO_BRUSH); NEAR];
        let mut count = 0;
        for slot in &self.left_out[cell * NEAR..(cell + 1) * NEAR] {
            let id = slot.load(Ordering::Relaxed);
            if id == NO_BRUSH {
                break;
            }
            brushes[count] = BrushId(id);
            count += 1;
        }
        Certificate::Among { brushes, count }
    }

    /// The supports of `shape` along the directions, plus `margin`, times [`STEPS`]: what
    /// [`CellUdops::holds`] takes.
    pub fn supports(&self, shape: &Shape, margin: f64, out: &mut Vec<f64>) {
        out.clear();
        out.extend(
            self.directions()
                .vectors()
                .iter()
                .map(|v| (shape.support_distance(*v) + margin) * STEPS),
        );
    }

    /// The k-UDOP of cell `cell` as stored (its distances in units, rounded down), if built.
    pub fn stored(&self, cell: usize) -> Option<crate::Udop<DVec3>> {
        self.ready[cell].get()?;
        let distances = self.distances[cell * self.k..(cell + 1) * self.k]
            .iter()
            .map(|q| f64::from(q.load(Ordering::Relaxed)) / STEPS)
            .collect();
        crate::Udop::from_distances(self.directions().clone(), self.cell_centre(cell), distances)
            .ok()
    }

    /// Bytes of the grid: the distances and the per-cell locks.
    pub fn memory_bytes(&self) -> usize {
        (self.distances.capacity() + self.near_distances.capacity())
            * std::mem::size_of::<AtomicI16>()
            + self.left_out.capacity() * std::mem::size_of::<AtomicU32>()
            + self.ready.capacity() * std::mem::size_of::<OnceLock<()>>()
    }

    /// What the index holds now.
    pub fn stats(&self) -> CellStats {
        let mut stats = CellStats {
            cells: self.cells(),
            edge: self.edge,
            bytes: self.memory_bytes(),
            ..CellStats::default()
        };
        for cell in 0..self.cells() {
            if self.ready[cell].get().is_none() {
                continue;
            }
            stats.built += 1;
            let stored = &self.distances[cell * self.k..(cell + 1) * self.k];
            if stored.iter().all(|q| q.load(Ordering::Relaxed) == EMPTY) {
                stats.empty += 1;
            } else if stored.iter().all(|q| q.load(Ordering::Relaxed) > 0) {
                stats.centred += 1;
            }
        }
        stats
    }
}

/// Stores a k-UDOP's distances in [`STEPS`], rounded down. Any side below the storage's floor
/// leaves no region inside the cap's cube: the cell keeps [`EMPTY`] everywhere (as made).
fn store(stored: &[AtomicI16], distances: &[f64]) {
    if distances
        .iter()
        .any(|h| h.is_nan() || h * STEPS < f64::from(i16::MIN))
    {
        return;
    }
    for (q, h) in stored.iter().zip(distances) {
        let steps = (h * STEPS).floor().min(f64::from(i16::MAX));
        q.store(steps as i16, Ordering::Relaxed);
    }
}

/// Algorithm 3 on the swept bounding k-DOP over `directions`: `max(a . v_i, b . v_i) + s_i < h_i`
/// for every `i` (`a`, `b` the ends from the centre, `supports` the shape's `s_i` and `stored` the
/// `h_i`, all in steps).
#[inline]
fn holds_along(
    directions: &[DVec3],
    a: DVec3,
    b: DVec3,
    stored: &[AtomicI16],
    supports: &[f64],
) -> bool {
    directions
        .iter()
        .zip(stored)
        .zip(supports)
        .all(|((v, h), s)| a.dot(*v).max(b.dot(*v)) + s < f64::from(h.load(Ordering::Relaxed)))
}

/// Algorithm 3 over the six axes `+x, -x, +y, -y, +z, -z`, written out: the swept bounding 6-DOP
/// of a shape is its swept bounding box, and `v . a` along an axis is `a`'s coordinate (or its
/// negation) exactly, so this is the general test's answer bit for bit, in a tenth of its
/// instructions (`a`, `b` the ends from the centre and `supports` the shape's, both in steps).
#[inline(always)]
fn holds_on_axes(a: DVec3, b: DVec3, stored: &[AtomicI16], supports: &[f64]) -> bool {
    let h = |i: usize| f64::from(stored[i].load(Ordering::Relaxed));
    let (high, low) = (a.max(b), (-a).max(-b));
    (high.x + supports[0] < h(0))
        & (low.x + supports[1] < h(1))
        & (high.y + supports[2] < h(2))
        & (low.y + supports[3] < h(3))
        & (high.z + supports[4] < h(4))
        & (low.z + supports[5] < h(5))
}

#[cfg(test)]
mod tests {
    use cspace_geom::generate::Rng;

    use super::*;

    /// The written-out test over the six axes answers as the general one, on random ends,
    /// supports and distances (ends on the sides, and zeros of both signs, included).
    #[test]
    fn the_six_axes_test_is_the_general_test() {
        let axes = Directions::<DVec3>::standard(6).unwrap();
        let mut rng = Rng::new(1);
        let mut agreed = [0; 2];
        for i in 0..200_000 {
            let mut point = || {
                let p = DVec3::new(
                    rng.range(-64.0, 64.0),
                    rng.range(-64.0, 64.0),
                    rng.range(-64.0, 64.0),
                ) * STEPS;
                if i % 7 == 0 { p.round() } else { p }
            };
            let (a, b) = (point(), if i % 5 == 0 { -0.0 * point() } else { point() });
            let supports: Vec<f64> = (0..6)
                .map(|_| rng.range(0.0, 40.0).round() * STEPS)
                .collect();
            let stored: Vec<AtomicI16> = (0..6)
                .map(|_| AtomicI16::new(rng.range(-2000.0, 14000.0) as i16))
                .collect();
            let general = holds_along(axes.vectors(), a, b, &stored, &supports);
            assert_eq!(holds_on_axes(a, b, &stored, &supports), general, "{a} {b}");
            agreed[usize::from(general)] += 1;
        }
        assert!(agreed[0] > 1000 && agreed[1] > 1000, "{agreed:?}");
    }
}
