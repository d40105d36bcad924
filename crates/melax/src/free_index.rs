//! Certified misses for Melax's spheres, cylinders and boxes (issue 31): per cell of a grid over
//! the world, an axis-aligned box of positions where the shape's walk over the bevelled tree, with
//! the shape's own plane shifts, reaches no solid cell. A move whose two ends lie in the box of
//! its start's cell is answered a miss with one look-up and two point-in-box tests (then, failing
//! that, in the box of its end's cell: 3.5 points more of E1M1's benchmark moves); every other move
//! falls through to `HitCheckBSP`, and the answer is the walk's, bit for bit, counted with the
//! reason its start's cell gave ([`FreeIndex::verdict`], `cspace_geom::FallThrough`). A point
//! query inside a box is answered free the same way.
//!
//! The index depends on the shape (the planes are shifted by its support), so it is built per
//! shape: at the shape's first [`prepare`](cspace_geom::Collider::prepare), kept in the collider
//! behind an `Arc` (clones share it) and found again by the [`Prepared`](cspace_geom::Prepared)'s
//! slot ([`FreeIndexes`]). A box is made in three steps:
//!
//! 1. Algorithm 1 of the k-UDOP paper (seed 004, Kiglics, Valasek and Bálint) with the six axis
//!    directions around the cell's centre (or, when a brush's grown bounds hold the centre, the
//!    first of it and the cell's octant centres that pushed out of them, up first, stays in the
//!    cell: `cspace_onion::ConfigBounds::grown_in_cell`), capped at the onion's
//!    [`FREE_BOX_CAP`] from it, over the brushes' bounds grown by the shape's bounds (nearest
//!    first): each brush not yet outside the box moves the side along which it is farthest in to
//!    it, and the box is kept [`FREE_BOX_INSET`](cspace_geom::tolerance::FREE_BOX_INSET) inside.
//!    This is a guess only.
//! 2. The box is rounded inward to 1/128 unit from the cell's lower corner (six `i16`, 12 bytes
//!    per cell: one fetch).
//! 3. The rounded box is **verified against the Melax tree with the shape's offsets**
//!    ([`box_is_free`]): a descent from the root that skips a node's under (solid-facing) child
//!    only where the whole box is more than [`BOX_GROWTH`] above the plane shifted up by the
//!    shape's support in `-n`, and its over child only where the box is more than `BOX_GROWTH`
//!    below the plane shifted down by the support in `+n`; the box is refused if the descent
//!    reaches a solid cell (or passes [`MAX_VERIFY_NODES`]). A refused box is shrunk toward the
//!    point it grew from and tried again ([`SHRINK`]), and a cell with no such point tries the
//!    cell itself. So what a box certifies is the tree's meaning under
//!    plane shifting, bevels and facet cells included (paper bevels' invisible walls too), not
//!    the brushes'.
//!
//! Why a certified answer is the walk's, bit for bit (the descent argument of the onion's index,
//! `cspace_onion`'s `free_index.rs`, with shifted planes): every point of a segment with both ends
//! in the box is in the box. Every solid cell has an ancestor whose side towards it the descent
//! skipped; there, every point of the segment is past that side's shifted plane by more than
//! `BOX_GROWTH` less the rounding of a distance (about 2e-10 units within
//! [`WORLD_HALF_EXTENT`](cspace_geom::tolerance::WORLD_HALF_EXTENT)), so `hit_check`'s `split`
//! and `back_run` give that side no part of `[0, 1]`: its interval is empty, or lies before the
//! start (the walk begins [`BEFORE_START`](cspace_geom::tolerance::BEFORE_START) before it), and
//! a solid cell reached only before the start is neither a hit nor a start in solid. So the walk
//! finds no entry and answers `Hit::miss(end)`; a move of zero length is a point query, which the
//! same skipped sides answer free (also for a shape without width, whose point query takes a side
//! within [`TREE_BAND`](cspace_geom::tolerance::TREE_BAND) of its plane: `BOX_GROWTH` is a
//! thousand times that). The tests compare the two answers, `==` on the whole `Hit`, on generated
//! worlds and the corpus, for both bevel modes, spheres, cylinders and boxes.

use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use cspace_geom::exact::is_thin;
use cspace_geom::tolerance::BOX_GROWTH;
use cspace_geom::{Aabb, DVec3, FallThrough, Shape, World};
pub use cspace_onion::FREE_BOX_CAP;
use cspace_onion::{ConfigBounds, fall_through_in_box, quantized};
use rayon::prelude::*;

use crate::offsets::{BoxOffsets, CylinderOffsets, Offsets, SphereOffsets};
use crate::tree::{EMPTY, LEAF, MelaxTree};

/// The most cells an index has (12 bytes each).
pub const MAX_CELLS: usize = 1 << 18;

/// The smallest cell edge, in units: twice the onion's start grid's, so that a small dense world
/// (the bench's 2,000 random boxes, whose tree allows 115,000 cells of 16 units) does not spend
/// more on its index than on its tree; the corpus maps' cells are larger anyway (E1M1 62, e3m5
/// 82, chasm 69 units).
const MIN_CELL: f64 = 32.0;

/// The most nodes the verification of one box visits before the box is given up (a bound on the
/// build time of a box crossing much of the tree; not a tolerance).
pub const MAX_VERIFY_NODES: usize = 4096;

/// How a refused box is shrunk toward the point it grew from before it is tried again: to these
/// fractions of its reach from the centre, in turn.
pub const SHRINK: [f64; 2] = [0.5, 0.25];

/// The most distinct shapes of one collider that get an index; the shapes prepared after them are
/// walked (the same answers), so a crowd of agents of random sizes builds at most this many.
pub const MAX_INDEXED_SHAPES: usize = 8;

/// The steps per unit in which a box's corners are kept, relative to its cell's lower corner
/// (1/128 unit; with [`FREE_BOX_CAP`] they fit in an `i16`). Rounding is inward, so a mover a
/// skin (1/32) above a floor stays inside the box above that floor. Not a tolerance: a storage
/// unit.
const STEPS: f64 = 128.0;

/// No box: a lower corner above the upper one on x.
const NONE: [i16; 6] = [1, 0, 0, 0, 0, 0];

/// One shape's free-space index over one tree: per grid cell, a verified free box or none.
#[derive(Clone)]
pub struct FreeIndex {
    origin: DVec3,
    cell: f64,
    inverse: f64,
    dims: [usize; 3],
    /// `dims` as numbers, for the bounds test.
    extent: DVec3,
    /// Per cell, its box `[lo.x, lo.y, lo.z, hi.x, hi.y, hi.z]` in [`STEPS`] from the cell's
    /// lower corner ([`NONE`] for none).
    cells: Vec<[i16; 6]>,
    stats: FreeIndexStats,
}

/// Its figures, not its cells (a collider's `Debug` stays short).
impl std::fmt::Debug for FreeIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FreeIndex")
            .field("origin", &self.origin)
            .field("cell", &self.cell)
            .field("dims", &self.dims)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

/// What building an index found, for the report.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct FreeIndexStats {
    /// Cells of the grid.
    pub cells: usize,
    /// The grid's cell edge, in units.
    pub cell_edge: f64,
    /// Cells whose box was verified free.
    pub boxes: usize,
    /// Of those, the boxes verified only once shrunk (or the cell itself).
    pub shrunk: usize,
    /// Cells without a box (no candidate the tree found free).
    pub refused: usize,
    /// Microseconds the build took (wall clock; reported, never used in an answer).
    pub build_micros: u64,
    /// Bytes of the cells' boxes.
    pub bytes: usize,
}

impl FreeIndex {
    /// Whether [`FreeIndex::build`] indexes `shape`: spheres, vertical cylinders and boxes with
    /// width across every axis (a flat box's answers go through the union rule of thin shapes,
    /// which the verification does not model; the point and hulls walk).
    pub fn indexes(shape: &Shape) -> bool {
        match shape {
            Shape::Sphere { .. } | Shape::Cylinder { .. } => true,
            Shape::Box(_) => !is_thin(shape),
            Shape::Hull(_) => false,
        }
    }

    /// The index of `shape` (a sphere, a vertical cylinder or a box with width across every
    /// axis) over `tree`, built from `world`; `None` for other shapes (hulls, flat boxes, the
    /// point). The grid covers the world's bounds grown by the shape's, with at
    /// most [`MAX_CELLS`] cells and at most the tree's own bytes
    /// ([`MelaxTree::memory_bytes`]) of boxes.
    pub fn build(world: &World, tree: &MelaxTree, shape: &Shape) -> Option<FreeIndex> {
        if !FreeIndex::indexes(shape) {
            return None;
        }
        match *shape {
            Shape::Sphere { radius } => Some(FreeIndex::build_with(
                world,
                tree,
                &SphereOffsets { radius },
                [-DVec3::splat(radius), DVec3::splat(radius)],
            )),
            Shape::Cylinder {
                radius,
                half_height,
            } => Some(FreeIndex::build_with(
                world,
                tree,
                &CylinderOffsets {
                    radius,
                    half_height,
                },
                [
                    -DVec3::new(radius, radius, half_height),
                    DVec3::new(radius, radius, half_height),
                ],
            )),
            Shape::Box(b) => Some(FreeIndex::build_with(
                world,
                tree,
                &BoxOffsets::new(b.mins, b.maxs),
                [b.mins, b.maxs],
            )),
            _ => None,
        }
    }

    /// The index for the shape whose plane shifts are `offsets` and whose bounds are
    /// `[mins, maxs]` around its origin.
    fn build_with<O: Offsets + Sync>(
        world: &World,
        tree: &MelaxTree,
        offsets: &O,
        [mins, maxs]: [DVec3; 2],
    ) -> FreeIndex {
        let started = Instant::now();
        let bounds = if world.is_empty() {
            Aabb::new(DVec3::splat(-1.0), DVec3::ONE)
        } else {
            world.bounds()
        };
        let bounds = Aabb::new(bounds.min - maxs, bounds.max - mins);
        let size = bounds.size();
        let budget = MAX_CELLS
            .min(tree.memory_bytes() / std::mem::size_of::<[i16; 6]>())
            .max(1);
        let volume = size.max(DVec3::splat(MIN_CELL)).element_product();
        let mut cell = (volume / budget as f64).cbrt().max(MIN_CELL);
        let dims_of = |cell: f64| (size / cell).ceil().max(DVec3::ONE);
        while dims_of(cell).element_product() > budget as f64 {
            cell *= 1.02;
        }
        let extent = dims_of(cell);
        let dims = [extent.x, extent.y, extent.z].map(|k| k as usize);
        let mut index = FreeIndex {
            origin: bounds.min,
            cell,
            inverse: 1.0 / cell,
            dims,
            extent,
            cells: Vec::with_capacity(dims.iter().product()),
            stats: FreeIndexStats {
                cells: dims.iter().product(),
                cell_edge: cell,
                ..FreeIndexStats::default()
            },
        };
        // Each brush's bounds in the shape's configuration space.
        let grown = ConfigBounds::new(world, mins, maxs);
        // Each cell's box is a function of the world, the tree, the shape and the cell alone,
        // so the cells are built on rayon's threads and collected in cell order: the index does
        // not depend on the thread count.
        let built: Vec<([i16; 6], bool)> = (0..index.stats.cells)
            .into_par_iter()
            .map_init(
                || (Vec::new(), Vec::new()),
                |(near, stack), i| {
                    let cell_box = index.cell_box(i);
                    let found = grown.grown_in_cell(&cell_box, near);
                    let centre = found.map_or(cell_box.centre(), |(seed, _)| seed);
                    let found = found.map(|(_, found)| found);
                    let candidates = found
                        .into_iter()
                        .flat_map(|[lo, hi]| {
                            std::iter::once(1.0).chain(SHRINK).map(move |s| {
                                [centre + (lo - centre) * s, centre + (hi - centre) * s]
                            })
                        })
                        .chain(found.is_none().then_some([cell_box.min, cell_box.max]));
                    for (k, candidate) in candidates.enumerate() {
                        let Some((steps, free)) = quantized(candidate, cell_box.min) else {
                            continue;
                        };
                        if box_is_free(tree, offsets, &free, stack) {
                            return (steps, k > 0 || found.is_none());
                        }
                    }
                    (NONE, false)
                },
            )
            .collect();
        for &(kept, shrunk) in &built {
            if kept == NONE {
                index.stats.refused += 1;
            } else {
                index.stats.boxes += 1;
                index.stats.shrunk += usize::from(shrunk);
            }
            index.cells.push(kept);
        }
        index.stats.bytes = index.memory_bytes();
        index.stats.build_micros = started.elapsed().as_micros() as u64;
        index
    }

    /// Cell `i`'s box.
    fn cell_box(&self, i: usize) -> Aabb {
        let x = i % self.dims[0];
        let y = i / self.dims[0] % self.dims[1];
        let z = i / self.dims[0] / self.dims[1];
        let lo = self.origin + DVec3::new(x as f64, y as f64, z as f64) * self.cell;
        Aabb::new(lo, lo + DVec3::splat(self.cell))
    }

    /// The box of `a`'s cell and the cell's lower corner; `None` outside the grid (and for NaN).
    #[inline(always)]
    fn cell_of(&self, a: DVec3) -> Option<(&[i16; 6], DVec3)> {
        let k = (a - self.origin) * self.inverse;
        // False for NaN too.
        if !(k.cmpge(DVec3::ZERO).all() && k.cmplt(self.extent).all()) {
            return None;
        }
        // In range, so `i32` holds them (a conversion to `usize` costs far more instructions).
        let (x, y, z) = (k.x as i32, k.y as i32, k.z as i32);
        let corner = self.origin + DVec3::new(f64::from(x), f64::from(y), f64::from(z)) * self.cell;
        let at = (z as usize * self.dims[1] + y as usize) * self.dims[0] + x as usize;
        Some((self.cells.get(at)?, corner))
    }

    /// True when the move `a -> b` lies in the free box of `a`'s cell: a certified miss.
    #[inline(always)]
    pub fn certifies(&self, a: DVec3, b: DVec3) -> bool {
        self.verdict(a, b).is_none()
    }

    /// `None` when the move `a -> b` lies in the free box of `a`'s cell (a certified miss); else
    /// why not: the first of the tests that failed, in the order they are made (the grid, which
    /// this index keeps no slabs beyond, then the cell's box, the start, the end). The reason is
    /// read off the test that failed, so a certified move costs what it did when this answered a
    /// `bool` (callgrind, `melax_free_index`).
    #[inline(always)]
    pub fn verdict(&self, a: DVec3, b: DVec3) -> Option<FallThrough> {
        let Some((q, corner)) = self.cell_of(a) else {
            return Some(FallThrough::OutsideGrid);
        };
        let (a, b) = ((a - corner) * STEPS, (b - corner) * STEPS);
        let inside = |p: DVec3| {
            (p.x >= f64::from(q[0]))
                & (p.y >= f64::from(q[1]))
                & (p.z >= f64::from(q[2]))
                & (p.x <= f64::from(q[3]))
                & (p.y <= f64::from(q[4]))
                & (p.z <= f64::from(q[5]))
        };
        // False for a cell without a box (lo.x > hi.x), and for NaN.
        if inside(a) & inside(b) {
            return None;
        }
        let [lo, hi] = [[q[0], q[1], q[2]], [q[3], q[4], q[5]]]
            .map(|c| DVec3::new(f64::from(c[0]), f64::from(c[1]), f64::from(c[2])));
        Some(fall_through_in_box(lo, hi, a))
    }

    /// Bytes of the cells' boxes.
    pub fn memory_bytes(&self) -> usize {
        self.cells.capacity() * std::mem::size_of::<[i16; 6]>()
    }

    /// What building it found.
    pub fn stats(&self) -> FreeIndexStats {
        self.stats
    }

    /// The boxes (lower and upper corners), for the tests.
    pub fn boxes(&self) -> impl Iterator<Item = [DVec3; 2]> + '_ {
        (0..self.cells.len()).filter_map(|i| self.free_box(i))
    }

    /// Cell `i`'s box (lower and upper corners), if it has one.
    fn free_box(&self, i: usize) -> Option<[DVec3; 2]> {
        let corner = self.cell_box(i).min;
        let q = self.cells[i].map(f64::from);
        (self.cells[i] != NONE).then(|| {
            [
                corner + DVec3::new(q[0], q[1], q[2]) / STEPS,
                corner + DVec3::new(q[3], q[4], q[5]) / STEPS,
            ]
        })
    }
}

/// True when the walk of the shape whose plane shifts are `offsets` reaches no solid cell from
/// any position in `[lo, hi]`: the descent goes down a node's under child unless the box is more
/// than [`BOX_GROWTH`] above its plane shifted up by the shape's support in `-n`, and down its
/// over child unless the box is more than `BOX_GROWTH` below its plane shifted down by the
/// support in `+n` (Melax Section 3's shifts, as `hit_check` applies them). False when it reaches
/// a solid cell, or past [`MAX_VERIFY_NODES`] nodes.
pub fn box_is_free<O: Offsets>(
    tree: &MelaxTree,
    offsets: &O,
    [lo, hi]: &[DVec3; 2],
    stack: &mut Vec<u32>,
) -> bool {
    let (centre, half) = ((*lo + *hi) * 0.5, (*hi - *lo) * 0.5);
    stack.clear();
    stack.push(tree.root);
    let mut visited = 0;
    while let Some(child) = stack.pop() {
        if child == EMPTY {
            continue;
        }
        if child & LEAF != 0 {
            return false;
        }
        visited += 1;
        if visited > MAX_VERIFY_NODES {
            return false;
        }
        let node = &tree.nodes[child as usize];
        let (back, front) = offsets.offsets(node.normal, node.horizontal());
        let d = node.normal.dot(centre) - node.dist;
        let reach = half.dot(node.normal.abs());
        // The under (solid-facing) child is pushed last, so walked first: a box that reaches
        // solid is refused sooner (the order changes no answer).
        if d + reach + front >= -BOX_GROWTH {
            stack.push(node.children[0]);
        }
        if d - reach - back <= BOX_GROWTH {
            stack.push(node.children[1]);
        }
    }
    true
}

/// The indexes of one collider, one per distinct shape prepared (at most
/// [`MAX_INDEXED_SHAPES`]): built at a shape's first prepare, found again by the slot its
/// [`Prepared`](cspace_geom::Prepared) carries (slot `k + 1` for the `k`-th shape, 0 for none).
/// The shapes are kept under a lock that only `prepare` takes; a trace reads its index through a
/// `OnceLock` (one load), without locking.
#[derive(Debug)]
pub struct FreeIndexes {
    shapes: Mutex<Vec<Shape>>,
    slots: [OnceLock<Option<FreeIndex>>; MAX_INDEXED_SHAPES],
}

impl Default for FreeIndexes {
    fn default() -> FreeIndexes {
        FreeIndexes {
            shapes: Mutex::new(Vec::new()),
            slots: std::array::from_fn(|_| OnceLock::new()),
        }
    }
}

impl FreeIndexes {
    /// The slot of `shape`'s index, built now if it is the shape's first prepare (0: none, for a
    /// shape [`FreeIndex::build`] does not index, or past [`MAX_INDEXED_SHAPES`]).
    pub fn slot_for(&self, world: &World, tree: &MelaxTree, shape: &Shape) -> u32 {
        if !FreeIndex::indexes(shape) {
            return 0;
        }
        // A poisoned lock only means another prepare panicked: its shape list is still whole.
        let mut shapes = self.shapes.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = shapes.iter().position(|s| s == shape) {
            return k as u32 + 1;
        }
        let k = shapes.len();
        if k == MAX_INDEXED_SHAPES {
            return 0;
        }
        self.slots[k].get_or_init(|| FreeIndex::build(world, tree, shape));
        shapes.push(shape.clone());
        k as u32 + 1
    }

    /// The index in `slot`, if any.
    #[inline(always)]
    pub fn get(&self, slot: u32) -> Option<&FreeIndex> {
        let k = (slot as usize).checked_sub(1)?;
        self.slots.get(k)?.get()?.as_ref()
    }

    /// The indexes built so far, in the order of their shapes' first prepare.
    pub fn built(&self) -> impl Iterator<Item = &FreeIndex> {
        self.slots.iter().map_while(OnceLock::get).flatten()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use cspace_geom::generate::{RandomBoxes, Rng};
    use cspace_geom::{Aabb, Brush, Collider, FallThroughs, QueryContext, Shape, World};

    use super::*;
    use crate::offsets::PointOffsets;
    use crate::testing::NaiveBsp;
    use crate::{BevelMode, MelaxCollider};

    /// The box `[lo, hi]` above a floor whose top is at z = 0 is free for a point and for shapes
    /// reaching less far down than its bottom, and refused for one reaching further: the
    /// verification shifts the planes by the shape's support.
    #[test]
    fn a_box_is_verified_with_the_shapes_plane_shifts() {
        let floor = Brush::from_aabb(Aabb::new(
            DVec3::new(-256.0, -256.0, -16.0),
            DVec3::new(256.0, 256.0, 0.0),
        ))
        .unwrap();
        let world = World::from_brushes([floor.clone()]);
        let tree = MelaxTree::from_bsp(&world, &NaiveBsp::new(&[floor]), BevelMode::PAPER);
        let free = [DVec3::new(-8.0, -8.0, 10.0), DVec3::new(8.0, 8.0, 40.0)];
        let mut stack = Vec::new();
        assert!(box_is_free(&tree, &PointOffsets, &free, &mut stack));
        let sphere = |radius| SphereOffsets { radius };
        assert!(box_is_free(&tree, &sphere(9.9), &free, &mut stack));
        assert!(!box_is_free(&tree, &sphere(10.0), &free, &mut stack));
        let cylinder = |radius, half_height| CylinderOffsets {
            radius,
            half_height,
        };
        assert!(box_is_free(&tree, &cylinder(40.0, 9.9), &free, &mut stack));
        assert!(!box_is_free(&tree, &cylinder(1.0, 10.0), &free, &mut stack));
        // Just above the shifted floor, but within the verification's margin of it.
        let grazing = [
            DVec3::new(-8.0, -8.0, 10.0 + BOX_GROWTH / 2.0),
            DVec3::new(8.0, 8.0, 40.0),
        ];
        assert!(!box_is_free(&tree, &sphere(10.0), &grazing, &mut stack));
        let clear = [
            DVec3::new(-8.0, -8.0, 10.0 + 2.0 * BOX_GROWTH),
            DVec3::new(8.0, 8.0, 40.0),
        ];
        assert!(box_is_free(&tree, &sphere(10.0), &clear, &mut stack));
    }

    /// Every box of an index holds no position the walk finds in solid (corners, centres and
    /// random points, by the point query of the collider without indexes), and the index's
    /// bytes stay within the tree's.
    #[test]
    fn boxes_hold_no_solid_position() {
        let world = Arc::new(
            RandomBoxes {
                count: 300,
                extent: 600.0,
                ..RandomBoxes::BENCHMARK
            }
            .world(),
        );
        for bevel in [BevelMode::PAPER, BevelMode::Exact] {
            let tree = Arc::new(crate::compile(&world, bevel).unwrap());
            let melax = MelaxCollider::new(world.clone(), tree.clone()).unwrap();
            let walked = melax.clone().without_free_index();
            let mut ctx = QueryContext::new();
            let mut rng = Rng::new(3);
            for shape in [
                Shape::new_sphere(16.0).unwrap(),
                Shape::new_cylinder(16.0, 28.0).unwrap(),
            ] {
                let index = FreeIndex::build(&world, &tree, &shape).unwrap();
                let stats = index.stats();
                assert!(stats.boxes > stats.cells / 4, "{stats:?}");
                assert_eq!(stats.boxes + stats.refused, stats.cells);
                assert!(index.memory_bytes() <= tree.memory_bytes());
                let prepared = walked.prepare(&shape).unwrap();
                for [lo, hi] in index.boxes().step_by(3) {
                    let random = DVec3::new(
                        rng.range(lo.x, hi.x),
                        rng.range(lo.y, hi.y),
                        rng.range(lo.z, hi.z),
                    );
                    for p in [lo, hi, (lo + hi) * 0.5, random] {
                        assert!(
                            !walked.is_solid(&mut ctx, &prepared, p),
                            "{p} in box {lo} {hi} is solid for {}",
                            shape.describe()
                        );
                    }
                }
            }
        }
    }

    /// A sphere of radius 16 on a floor 512 units thick (top at 0), with and without its index:
    /// the colliders, the shape prepared for each, and the index's cells (each cell with its
    /// box, if it has one).
    struct OnAFloor {
        indexed: MelaxCollider,
        walked: MelaxCollider,
        cells: Vec<(Aabb, Option<[DVec3; 2]>)>,
        extent: Aabb,
    }

    fn on_a_floor() -> OnAFloor {
        let floor = Brush::from_aabb(Aabb::new(
            DVec3::new(-512.0, -512.0, -512.0),
            DVec3::new(512.0, 512.0, 0.0),
        ))
        .unwrap();
        let world = Arc::new(World::from_brushes([floor]));
        let tree = Arc::new(crate::compile(&world, BevelMode::PAPER).unwrap());
        let indexed = MelaxCollider::new(world.clone(), tree.clone()).unwrap();
        let walked = indexed.clone().without_free_index();
        let prepared = indexed.prepare(&sphere()).unwrap();
        let index = indexed.free_index(&prepared).expect("an index");
        let cells = (0..index.cells.len())
            .map(|i| (index.cell_box(i), index.free_box(i)))
            .collect();
        let extent = Aabb::new(index.origin, index.origin + index.extent * index.cell);
        OnAFloor {
            indexed,
            walked,
            cells,
            extent,
        }
    }

    fn sphere() -> Shape {
        Shape::new_sphere(16.0).unwrap()
    }

    impl OnAFloor {
        /// Traces `from -> to` with the index and without it (the same answer), and returns
        /// what the index counted: one fall-through, and why.
        fn fell_through(&self, from: DVec3, to: DVec3) -> FallThroughs {
            let (a, b) = (
                self.indexed.prepare(&sphere()).unwrap(),
                self.walked.prepare(&sphere()).unwrap(),
            );
            let (mut a_ctx, mut b_ctx) = (QueryContext::new(), QueryContext::new());
            assert_eq!(
                self.indexed.trace(&mut a_ctx, &a, from, to),
                self.walked.trace(&mut b_ctx, &b, from, to),
                "{from} -> {to}"
            );
            let counters = a_ctx.counters;
            assert_eq!(
                (counters.certified, counters.fall_throughs),
                (0, 1),
                "{from} -> {to}: {counters}"
            );
            counters.fall_through_reasons
        }
    }

    /// A move starting in a cell inside the floor, where no candidate box is free, falls
    /// through for the reason that its cell has no box.
    #[test]
    fn a_move_from_a_cell_without_a_box_falls_through_for_no_box() {
        let floor = on_a_floor();
        let (cell, _) = floor
            .cells
            .iter()
            .find(|(_, found)| found.is_none())
            .expect("a cell without a box inside the floor");
        let from = cell.centre();
        let expected = FallThroughs {
            no_box: 1,
            ..FallThroughs::default()
        };
        assert_eq!(floor.fell_through(from, from + DVec3::X), expected);
    }

    /// A move starting in a cell that has a box, but below the box (the cells across the
    /// floor's top have their boxes above it), and staying in the cell, falls through for the
    /// reason that its start is outside its cell's box.
    #[test]
    fn a_move_from_outside_its_cells_box_falls_through_for_start_outside() {
        let floor = on_a_floor();
        let (cell, [lo, _]) = floor
            .cells
            .iter()
            .find_map(|&(cell, found)| {
                found
                    .filter(|[lo, _]| lo.z > cell.min.z + 1.0)
                    .map(|b| (cell, b))
            })
            .expect("a cell whose box does not reach its bottom");
        let from = DVec3::new(cell.centre().x, cell.centre().y, (cell.min.z + lo.z) * 0.5);
        let expected = FallThroughs {
            start_outside: 1,
            ..FallThroughs::default()
        };
        assert_eq!(floor.fell_through(from, from + DVec3::X), expected);
    }

    /// A move from the middle of a cell's part of its box to 300 units away (a box reaches at
    /// most [`FREE_BOX_CAP`] from the point it grew from, so the box of the end's cell does not
    /// hold the start either) falls through for the reason that its end is outside its start's
    /// cell's box.
    #[test]
    fn a_move_leaving_its_starts_box_falls_through_for_end_outside() {
        let floor = on_a_floor();
        let (cell, [lo, hi]) = floor
            .cells
            .iter()
            .find_map(|&(cell, found)| found.map(|b| (cell, b)))
            .expect("a cell with a box");
        let from = (lo.max(cell.min) + hi.min(cell.max)) * 0.5;
        let to = from + DVec3::new(300.0, 0.0, 0.0);
        // The box of the end's cell, if any, does not hold the start.
        let end_box = floor
            .cells
            .iter()
            .find(|(c, _)| c.contains_point(to))
            .and_then(|&(_, b)| b);
        assert!(end_box.is_none_or(|[lo, hi]| !Aabb::new(lo, hi).contains_point(from)));
        let expected = FallThroughs {
            end_outside: 1,
            ..FallThroughs::default()
        };
        assert_eq!(floor.fell_through(from, to), expected);
    }

    /// A move far beneath the floor, outside the grid (this index keeps no slabs beyond it),
    /// falls through for that reason.
    #[test]
    fn a_move_outside_the_grid_falls_through_for_outside_grid() {
        let floor = on_a_floor();
        let from = DVec3::new(0.0, 0.0, floor.extent.min.z - 100.0);
        assert!(!floor.extent.contains_point(from));
        let expected = FallThroughs {
            outside_grid: 1,
            ..FallThroughs::default()
        };
        assert_eq!(
            floor.fell_through(from, from + DVec3::new(10.0, 0.0, -10.0)),
            expected
        );
    }
}
