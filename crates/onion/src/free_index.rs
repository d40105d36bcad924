//! The free-space index in front of the walk (issue 31, "certified misses"): per cell of a
//! space's start grid, an axis-aligned box of free configuration space around the cell, so that
//! a move whose two ends lie in the box of its start's cell is answered a miss with one look-up
//! and two point-in-box tests, without walking the tree.
//!
//! Each box is a k-UDOP of the six axis directions (Kiglics, Valasek and Bálint, seed 004:
//! Algorithm 1 with the cap `R` = [`FREE_BOX_CAP`], around the cell's centre, or around the
//! centre pushed out of the bounds that hold it ([`ConfigBounds::grown_in_cell`]), over the
//! configuration-space bounds of the brushes, nearest first), built offline per cell instead of
//! per mover at run time, and kept [`FREE_BOX_INSET`] inside what Algorithm 1 found. It is then
//! *verified against the space's own query tree*: the box is kept only if every node plane it
//! does not cross clears it by more than [`BOX_GROWTH`] and no subtree it reaches is solid
//! (a box descent of the tree, as the start grid's, cutting the box at the axial planes it
//! crosses). So what a box certifies is the tree's meaning, outside fill and zero-volume leaves
//! included, not the brushes'. Beyond the grid, the six slabs out to the domain's edge that the
//! same descent finds free certify the moves that stay in one of them. Every other move falls
//! through to the walk, counted with its reason ([`FreeIndex::verdict`],
//! `cspace_geom::FallThrough`): outside the grid, no box, the start outside it, or the end.
//!
//! Why the answer is the walk's, bit for bit: every point of a segment with both ends in the box
//! is in the box (convexity). At a node whose plane the box clears by more than `BOX_GROWTH`,
//! every point of the segment (and of its stretches, interpolated within 1e-10 at world scale)
//! is on the box's side by more than [`cspace_geom::tolerance::CONTACT`], so the walk goes that
//! side only; where the box crosses a plane the descent took both sides. So every region the
//! walk reaches is one the descent reached, and all of those are empty: the walk finds no
//! solid stretch, its answer is `Free { start_solid: false }`, which the collider turns into
//! `Hit::miss(end)`, the answer given here. The unit tests and the agreement tests compare the
//! two answers on every trace.

use cspace_geom::tolerance::{BOX_GROWTH, FREE_BOX_INSET, WORLD_HALF_EXTENT};
use cspace_geom::{Aabb, FallThrough, World};
use glam::DVec3;
use rayon::prelude::*;

use crate::tree::start_grid::GridShape;
use crate::tree::{REGION, SOLID, SpaceTree};

/// The cap of a cell's free box: at most this far from the cell's centre along each axis, in
/// units (Algorithm 1's radius; two Quake player widths). Measured on E1M1's benchmark segments
/// (`trace_loop`, docs/onion.md): a cap of 32 certifies 51.9 % of them, 64 certifies 88.3 %, 128
/// certifies 83.2 % (larger boxes reach solid through the brushes' bounds more often and are
/// refused by the tree) and takes twice as long to build.
pub const FREE_BOX_CAP: f64 = 64.0;

/// The most nodes the verification of one box visits before the box is given up (a bound on
/// the build time of a box crossing much of the tree; not a tolerance).
const MAX_VERIFY_NODES: usize = 4096;

/// The most nodes the verification of one slab beyond the grid visits (once per slab and
/// space; not a tolerance).
const MAX_SLAB_NODES: usize = 1 << 20;

/// How far beyond the grid's side a slab begins, in units: the outermost brushes' faces lie on
/// the grid's sides, and a slab touching them would cross their planes (not a tolerance: a gap
/// far wider than [`BOX_GROWTH`]; a move in it only falls through to the walk).
const SLAB_GAP: f64 = 1.0;

/// The steps per unit in which a box's corners are kept, relative to its cell's lower corner
/// (1/128 unit; with [`FREE_BOX_CAP`] they fit in an `i16`). Rounding is inward, so a mover a
/// skin (1/32) above a floor stays inside the box above it. Not a tolerance: a storage unit.
const STEPS: f64 = 128.0;

/// No box: a lower corner above the upper one on x.
const NONE: [i16; 6] = [1, 0, 0, 0, 0, 0];

/// One space's free-space index: per start-grid cell, a verified free box or none.
#[derive(Debug, Clone)]
pub(crate) struct FreeIndex {
    shape: GridShape,
    /// Per cell, its box `[lo.x, lo.y, lo.z, hi.x, hi.y, hi.z]` in [`STEPS`] from the cell's
    /// lower corner ([`NONE`] for none): 12 bytes, one fetch.
    cells: Vec<[i16; 6]>,
    /// The slabs beyond the grid's six sides (out to the domain's edge) that the tree verified
    /// free, for moves outside every cell: a body falling in the void beneath an open world.
    outside: Vec<[DVec3; 2]>,
}

/// What building an index found, for the report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FreeIndexStats {
    /// Cells of the grid.
    pub cells: usize,
    /// Cells wholly in solid (no box looked for).
    pub solid: usize,
    /// Cells whose box was found and verified.
    pub boxes: usize,
    /// Cells whose box Algorithm 1 left empty (the cell's centre in or at a brush's bounds).
    pub empty: usize,
    /// Cells whose box the tree refused (it reaches solid, or too many nodes).
    pub refused: usize,
    /// Slabs beyond the grid's sides (six per space) the tree verified free.
    pub slabs: usize,
    /// Microseconds the build took (wall clock; reported, never used in an answer).
    pub build_micros: u64,
}

impl std::ops::AddAssign for FreeIndexStats {
    fn add_assign(&mut self, o: FreeIndexStats) {
        self.cells += o.cells;
        self.solid += o.solid;
        self.boxes += o.boxes;
        self.empty += o.empty;
        self.refused += o.refused;
        self.slabs += o.slabs;
        self.build_micros += o.build_micros;
    }
}

/// What became of one cell while building (counted into [`FreeIndexStats`]).
#[derive(Debug, Clone, Copy)]
enum Outcome {
    Solid,
    Empty,
    Refused,
    Boxed,
}

impl FreeIndex {
    /// The index of space `space` (the box pose `mins`, `maxs`) of `world` over the cells of
    /// `shape`, the space's start grid.
    pub fn build(
        world: &World,
        space: &SpaceTree,
        shape: &GridShape,
        mins: DVec3,
        maxs: DVec3,
    ) -> (FreeIndex, FreeIndexStats) {
        let started = std::time::Instant::now();
        // Each brush's bounds in the space: `B + [-maxs, -mins]`.
        let bounds = ConfigBounds::new(world, mins, maxs);
        // Each cell's box is a function of the world, the tree and the cell alone, so the
        // cells are built on rayon's threads and collected in cell order: the index does not
        // depend on the thread count.
        let built: Vec<([i16; 6], Outcome)> = (0..shape.count())
            .into_par_iter()
            .map_init(
                || (Vec::new(), Vec::new()),
                |(near, stack), cell| {
                    if space.cell_is_solid(cell) {
                        return (NONE, Outcome::Solid);
                    }
                    let cell_box = shape.cell_box(cell, 0.0);
                    let found = bounds.grown_in_cell(&cell_box, near);
                    let Some((_, found)) = found else {
                        return (NONE, Outcome::Empty);
                    };
                    // Kept in steps from the cell's corner, rounded inward; the box verified
                    // is the one kept.
                    match quantized(found, cell_box.min)
                        .filter(|(_, free)| box_is_free(space, free, stack, MAX_VERIFY_NODES))
                    {
                        Some((kept, _)) => (kept, Outcome::Boxed),
                        None => (NONE, Outcome::Refused),
                    }
                },
            )
            .collect();
        let mut stats = FreeIndexStats {
            cells: shape.count(),
            ..FreeIndexStats::default()
        };
        for (_, outcome) in &built {
            *match outcome {
                Outcome::Solid => &mut stats.solid,
                Outcome::Empty => &mut stats.empty,
                Outcome::Refused => &mut stats.refused,
                Outcome::Boxed => &mut stats.boxes,
            } += 1;
        }
        let mut cells = Vec::with_capacity(built.len());
        cells.extend(built.iter().map(|&(cell, _)| cell));
        let mut stack = Vec::new();
        let outside: Vec<_> = slabs_beyond(shape.bounds())
            .into_iter()
            .filter(|slab| box_is_free(space, slab, &mut stack, MAX_SLAB_NODES))
            .collect();
        stats.slabs = outside.len();
        let index = FreeIndex {
            shape: shape.clone(),
            cells,
            outside,
        };
        stats.build_micros = started.elapsed().as_micros() as u64;
        (index, stats)
    }

    /// `None` when the move `a -> b` lies in the free box of `a`'s cell (a certified miss), or
    /// in one of the slabs beyond the grid when `a` is outside it; else why not: the first of the
    /// tests that failed, in the order they are made (the grid, the cell's box, the start, the
    /// end). The reason is read off the test that failed, so a certified move costs what it did
    /// when this answered a `bool` (callgrind, `trace_loop`).
    #[inline(always)]
    pub fn verdict(&self, a: DVec3, b: DVec3) -> Option<FallThrough> {
        let Some((cell, corner)) = self.shape.cell_and_corner(a) else {
            return self.verdict_outside(a, b);
        };
        let q = &self.cells[cell];
        let lo = DVec3::new(f64::from(q[0]), f64::from(q[1]), f64::from(q[2]));
        let hi = DVec3::new(f64::from(q[3]), f64::from(q[4]), f64::from(q[5]));
        let (a, b) = ((a - corner) * STEPS, (b - corner) * STEPS);
        // False for NaN too, and for a cell without a box (lo.x > hi.x).
        if a.cmpge(lo).all() && a.cmple(hi).all() && b.cmpge(lo).all() && b.cmple(hi).all() {
            return None;
        }
        Some(fall_through_in_box(lo, hi, a))
    }

    /// [`FreeIndex::verdict`] for a move starting outside the grid: `None` when one of the free
    /// slabs beyond it holds both ends (not for NaN).
    #[cold]
    fn verdict_outside(&self, a: DVec3, b: DVec3) -> Option<FallThrough> {
        let inside = self.outside.iter().any(|[lo, hi]| {
            a.cmpge(*lo).all() && a.cmple(*hi).all() && b.cmpge(*lo).all() && b.cmple(*hi).all()
        });
        (!inside).then_some(FallThrough::OutsideGrid)
    }

    /// Bytes of the cells' boxes.
    pub fn memory_bytes(&self) -> usize {
        self.cells.capacity() * std::mem::size_of::<[i16; 6]>()
    }

    /// The boxes, for the tests.
    #[cfg(test)]
    pub fn boxes(&self) -> Vec<[DVec3; 2]> {
        (0..self.cells.len())
            .filter_map(|i| self.free_box(i))
            .collect()
    }

    /// Cell `i`'s box, if it has one, for the tests.
    #[cfg(test)]
    fn free_box(&self, i: usize) -> Option<[DVec3; 2]> {
        let corner = self.shape.cell_box(i, 0.0).min;
        let q = self.cells[i].map(f64::from);
        (self.cells[i] != NONE).then(|| {
            [
                corner + DVec3::new(q[0], q[1], q[2]) / STEPS,
                corner + DVec3::new(q[3], q[4], q[5]) / STEPS,
            ]
        })
    }
}

/// Why a move whose start `a` lies in a cell whose box is `[lo, hi]` (in any frame, `a` in the
/// same; a lower corner above the upper one on x for none) is not in the box: no box, the start
/// outside it, or else the end (the caller asks only about moves not in the box). Out of line,
/// so that a certified move's code is what it was without the reasons. Melax's index keeps its
/// boxes so too.
#[cold]
#[inline(never)]
pub fn fall_through_in_box(lo: DVec3, hi: DVec3, a: DVec3) -> FallThrough {
    if lo.x > hi.x {
        FallThrough::NoBox
    } else if !(a.cmpge(lo).all() && a.cmple(hi).all()) {
        FallThrough::StartOutside
    } else {
        FallThrough::EndOutside
    }
}

/// Algorithm 1 (seed 004) over the six axis directions `+x, -x, +y, -y, +z, -z` around `centre`,
/// capped at [`FREE_BOX_CAP`], over the boxes of `expanded` that `near` lists (nearest first):
/// each brush's bounds not yet outside the box move the side along which they are farthest in to
/// them. `None` when a brush's bounds hold the centre (within [`FREE_BOX_INSET`]). The box
/// returned is inset by `FREE_BOX_INSET`. Melax's free-space index builds its boxes with it too.
pub fn algorithm_1(expanded: &[Aabb], near: &[(f64, u32)], centre: DVec3) -> Option<[DVec3; 2]> {
    let mut h = [FREE_BOX_CAP; 6];
    for &(_, id) in near {
        let e = &expanded[id as usize];
        let d = [
            e.min.x - centre.x,
            centre.x - e.max.x,
            e.min.y - centre.y,
            centre.y - e.max.y,
            e.min.z - centre.z,
            centre.z - e.max.z,
        ];
        if (0..6).any(|k| d[k] >= h[k]) {
            continue;
        }
        let mut m = 0;
        for k in 1..6 {
            if d[k] > d[m] {
                m = k;
            }
        }
        if d[m] <= FREE_BOX_INSET {
            return None;
        }
        h[m] = d[m];
    }
    let inset = DVec3::splat(FREE_BOX_INSET);
    let lo = centre - DVec3::new(h[1], h[3], h[5]) + inset;
    let hi = centre + DVec3::new(h[0], h[2], h[4]) - inset;
    Some([lo, hi])
}

/// The brushes' bounds of a world in the configuration space of a shape whose bounds are
/// `[mins, maxs]` around its origin (`B + [-maxs, -mins]`): what a free-space index grows its
/// boxes among ([`ConfigBounds::grown_in_cell`]). Melax's free-space index grows its boxes so
/// too.
#[derive(Debug)]
pub struct ConfigBounds<'a> {
    world: &'a World,
    expanded: Vec<Aabb>,
    mins: DVec3,
    maxs: DVec3,
}

impl<'a> ConfigBounds<'a> {
    /// The bounds of `world`'s brushes for the shape bounds `[mins, maxs]`.
    pub fn new(world: &'a World, mins: DVec3, maxs: DVec3) -> ConfigBounds<'a> {
        let expanded = world
            .brushes()
            .iter()
            .map(|b| {
                let bounds = b.brush.bounds();
                Aabb::new(bounds.min - maxs, bounds.max - mins)
            })
            .collect();
        ConfigBounds {
            world,
            expanded,
            mins,
            maxs,
        }
    }

    /// Algorithm 1 for the cell `cell`: around the cell's centre, or, when a brush's bounds hold
    /// the centre, around the first of the centre and the centres of the cell's eight octants
    /// that, pushed out of them along one axis (up first), stays in the cell. `near` is
    /// scratch. Returns the seed and the box, or `None`.
    pub fn grown_in_cell(
        &self,
        cell: &Aabb,
        near: &mut Vec<(f64, u32)>,
    ) -> Option<(DVec3, [DVec3; 2])> {
        let centre = cell.centre();
        self.near(centre, near);
        if let Some(found) = algorithm_1(&self.expanded, near, centre) {
            return Some((centre, found));
        }
        // The centre, then the centres of the cell's eight octants, each pushed out in turn.
        let size = cell.max - cell.min;
        let seed = std::iter::once(centre)
            .chain((0..8).map(|k: u32| {
                let at = |bit: u32| if k & bit == 0 { 0.25 } else { 0.75 };
                cell.min + size * DVec3::new(at(1), at(2), at(4))
            }))
            .find_map(|from| pushed_out(&self.expanded, near, from, cell))?;
        self.near(seed, near);
        algorithm_1(&self.expanded, near, seed).map(|found| (seed, found))
    }

    /// Into `near`, the brushes whose bounds meet the cap's cube around `seed`, with their
    /// squared distances from it, nearest first (ties by brush id: one order, whatever the
    /// world index's).
    fn near(&self, seed: DVec3, near: &mut Vec<(f64, u32)>) {
        let cap = DVec3::splat(FREE_BOX_CAP);
        near.clear();
        self.world.for_each_overlapping(
            &Aabb::new(seed - cap + self.mins, seed + cap + self.maxs),
            |id| {
                let e = &self.expanded[id.0 as usize];
                let gap = (e.min - seed).max(seed - e.max).max(DVec3::ZERO);
                near.push((gap.length_squared(), id.0));
            },
        );
        near.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    }
}

/// The order in which [`pushed_out`] tries the directions: up first (a cell whose centre lies
/// in a floor's expanded bounds holds the places where agents stand, just above it), then down,
/// then across.
const PUSH_ORDER: [(usize, f64); 6] = [
    (2, 1.0),
    (2, -1.0),
    (0, 1.0),
    (0, -1.0),
    (1, 1.0),
    (1, -1.0),
];

/// Where a cell's box grows from when the bounds of a brush of `near` hold its `centre`: the
/// centre pushed along one axis out of every such bounds in turn (to [`FREE_BOX_INSET`] four
/// times beyond them), in the first direction of [`PUSH_ORDER`] that ends in `cell` (not in
/// the paper: Algorithm 1 grows around one given point; the box is still verified by the tree,
/// so the seed changes what is certified, never an answer). `None` when no direction does.
fn pushed_out(expanded: &[Aabb], near: &[(f64, u32)], centre: DVec3, cell: &Aabb) -> Option<DVec3> {
    let clearance = 4.0 * FREE_BOX_INSET;
    let holding = |p: DVec3| {
        near.iter()
            .map(|&(_, id)| &expanded[id as usize])
            .find(|e| (e.min - p).max(p - e.max).max_element() <= FREE_BOX_INSET)
    };
    'directions: for (axis, sign) in PUSH_ORDER {
        let mut p = centre;
        // Each push leaves one bounds for good (the coordinate only grows along the
        // direction), so `near.len()` pushes reach free space or the cell's side.
        for _ in 0..=near.len() {
            let Some(e) = holding(p) else {
                return Some(p);
            };
            p[axis] = if sign > 0.0 {
                e.max[axis] + clearance
            } else {
                e.min[axis] - clearance
            };
            if !(cell.min[axis]..=cell.max[axis]).contains(&p[axis]) {
                continue 'directions;
            }
        }
    }
    None
}

/// The box `[lo, hi]` rounded inward to steps of 1/128 unit (`STEPS`) from `corner`: its steps
/// and the box they stand for, or `None` when it is empty or does not fit in `i16`. Melax's
/// free-space index keeps its boxes so too.
pub fn quantized([lo, hi]: [DVec3; 2], corner: DVec3) -> Option<([i16; 6], [DVec3; 2])> {
    let (lo, hi) = ((lo - corner) * STEPS, (hi - corner) * STEPS);
    let q = [
        lo.x.ceil(),
        lo.y.ceil(),
        lo.z.ceil(),
        hi.x.floor(),
        hi.y.floor(),
        hi.z.floor(),
    ];
    let fits = q
        .iter()
        .all(|v| (f64::from(i16::MIN)..=f64::from(i16::MAX)).contains(v));
    let free = [
        corner + DVec3::new(q[0], q[1], q[2]) / STEPS,
        corner + DVec3::new(q[3], q[4], q[5]) / STEPS,
    ];
    (fits && free[0].cmple(free[1]).all()).then(|| (q.map(|v| v as i16), free))
}

/// The six slabs beyond the sides of `grid` (the box the start grid covers, which holds every
/// brush's expanded bounds), each from [`SLAB_GAP`] beyond the grid's side out to the domain's
/// edge ([`WORLD_HALF_EXTENT`]): the slab below, above, and beside it on each axis.
fn slabs_beyond(grid: Aabb) -> Vec<[DVec3; 2]> {
    let edge = DVec3::splat(WORLD_HALF_EXTENT);
    let mut slabs = Vec::with_capacity(6);
    for axis in 0..3 {
        let (mut below, mut above) = ([-edge, edge], [-edge, edge]);
        below[1][axis] = grid.min[axis] - SLAB_GAP;
        above[0][axis] = grid.max[axis] + SLAB_GAP;
        slabs.extend(
            [below, above]
                .into_iter()
                .filter(|[lo, hi]| lo.cmplt(*hi).all()),
        );
    }
    slabs
}

/// True when every subtree of `space` the box `[lo, hi]` reaches is empty, going down a node's
/// side only where the box clears its plane by more than [`BOX_GROWTH`] (both sides otherwise);
/// false also past `max_nodes` nodes. Where an axial plane is crossed, each side goes on with
/// the box cut at the plane (kept `BOX_GROWTH` beyond it: every point a walk may send to that
/// side is within the band of the plane or on the side), so that a subtree whose cell lies
/// wholly beyond the cut is not reached through the box's other side.
fn box_is_free(
    space: &SpaceTree,
    [lo, hi]: &[DVec3; 2],
    stack: &mut Vec<(u32, DVec3, DVec3)>,
    max_nodes: usize,
) -> bool {
    stack.clear();
    stack.push((space.root, *lo, *hi));
    let mut visited = 0;
    while let Some((at, lo, hi)) = stack.pop() {
        if at & REGION != 0 {
            if at == SOLID {
                return false;
            }
            continue;
        }
        visited += 1;
        if visited > max_nodes {
            return false;
        }
        let node = &space.nodes[at as usize];
        let (centre, half) = ((lo + hi) * 0.5, (hi - lo) * 0.5);
        let d = node.signed_distance(centre);
        let normal = node.plane.normal();
        let reach = half.dot(normal.abs());
        if d - reach > BOX_GROWTH {
            stack.push((node.children[0], lo, hi));
        } else if d + reach < -BOX_GROWTH {
            stack.push((node.children[1], lo, hi));
        } else if let Some(axis) = (0..3).find(|&k| normal[k].abs() == 1.0) {
            // The plane is `x[axis] = at` with the front where `x[axis] * sign > at * sign`.
            let sign = normal[axis];
            let at = node.plane.dist() * sign;
            let (mut front, mut back) = ((lo, hi), (lo, hi));
            if sign > 0.0 {
                front.0[axis] = front.0[axis].max(at - BOX_GROWTH);
                back.1[axis] = back.1[axis].min(at + BOX_GROWTH);
            } else {
                front.1[axis] = front.1[axis].min(at + BOX_GROWTH);
                back.0[axis] = back.0[axis].max(at - BOX_GROWTH);
            }
            stack.push((node.children[0], front.0, front.1));
            stack.push((node.children[1], back.0, back.1));
        } else {
            stack.push((node.children[0], lo, hi));
            stack.push((node.children[1], lo, hi));
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use cspace_geom::generate::{RandomBoxes, Rng};
    use cspace_geom::{Aabb, Collider, ExactCollider, FallThroughs, QueryContext, Shape};
    use glam::DVec3;

    use super::FreeIndex;
    use crate::{CompileOptions, OnionCollider, Pose, compile};

    /// The onion for `world` and the standing box compiled with `options`, with and without
    /// its index, and the shape prepared for each.
    fn indexed_and_walked(
        world: Arc<cspace_geom::World>,
        options: &CompileOptions,
    ) -> (
        OnionCollider,
        OnionCollider,
        cspace_geom::Prepared,
        cspace_geom::Prepared,
    ) {
        let pose = Pose::quake_standing();
        let tree = Arc::new(
            compile(&world, std::slice::from_ref(&pose), options)
                .unwrap()
                .tree,
        );
        let indexed = OnionCollider::new(world.clone(), tree.clone()).unwrap();
        let walked = OnionCollider::new(world, tree)
            .unwrap()
            .without_free_index();
        let shape = Shape::from(&pose);
        let (a, b) = (
            indexed.prepare(&shape).unwrap(),
            walked.prepare(&shape).unwrap(),
        );
        (indexed, walked, a, b)
    }

    /// [`indexed_and_walked`] for a 1,024-unit floor slab (top at 0).
    fn on_a_floor() -> (
        OnionCollider,
        OnionCollider,
        cspace_geom::Prepared,
        cspace_geom::Prepared,
    ) {
        let floor = cspace_geom::Brush::from_aabb(cspace_geom::Aabb::new(
            glam::DVec3::new(-512.0, -512.0, -64.0),
            glam::DVec3::new(512.0, 512.0, 0.0),
        ))
        .unwrap();
        let world = Arc::new(cspace_geom::World::from_brushes([floor]));
        indexed_and_walked(world, &CompileOptions::default())
    }

    /// A cell whose centre lies in a floor's expanded bounds (a standing box's origin level, 24
    /// units above the floor) still gets a box, grown from the centre pushed up out of them, and
    /// a walk along the floor a skin above it is certified, as the walk answers it. With the
    /// box grown from the centre only (as before `pushed_out`), the cell had none.
    #[test]
    fn a_cell_whose_centre_is_in_a_floor_certifies_walks_on_the_floor() {
        let (indexed, walked, a, b) = on_a_floor();
        // The floor's expanded top is at 24; the top layer of cells spans it.
        let index = indexed.free_index(0).expect("a grid");
        let (cell, _) = index
            .shape
            .cell_and_corner(glam::DVec3::new(0.0, 0.0, 24.5))
            .unwrap();
        let centre = index.shape.cell_box(cell, 0.0).centre();
        assert!(
            centre.z <= 24.0,
            "the cell's centre {centre} is above the floor's bounds"
        );
        let (mut a_ctx, mut b_ctx) = (QueryContext::new(), QueryContext::new());
        let skin = 1.0 / 32.0;
        let mut rng = Rng::new(3);
        for _ in 0..200 {
            let from = glam::DVec3::new(
                rng.range(-400.0, 400.0),
                rng.range(-400.0, 400.0),
                24.0 + skin,
            );
            let to = from + glam::DVec3::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0), 0.0);
            let mine = indexed.trace(&mut a_ctx, &a, from, to);
            assert_eq!(
                mine,
                walked.trace(&mut b_ctx, &b, from, to),
                "{from} -> {to}"
            );
            assert!(!mine.is_hit());
        }
        assert!(a_ctx.counters.certified > 150, "{}", a_ctx.counters);
    }

    /// Beneath the floor and beside it, outside every cell, the slabs the tree verified certify
    /// the moves that stay in one of them, and only those, as the walk answers them.
    #[test]
    fn slabs_beyond_the_grid_certify_moves_that_stay_in_them() {
        let (indexed, walked, a, b) = on_a_floor();
        let index = indexed.free_index(0).expect("a grid");
        assert_eq!(index.outside.len(), 6, "every slab around a floor is free");
        let (mut a_ctx, mut b_ctx) = (QueryContext::new(), QueryContext::new());
        for (from, to, inside) in [
            ([0.0, 0.0, -5000.0], [10.0, 0.0, -5100.0], true),
            ([900.0, 0.0, 10.0], [2000.0, 40.0, -300.0], true),
            ([0.0, 0.0, -200.0], [0.0, 0.0, 30.0], false),
            ([0.0, 0.0, -200.0], [0.0, 0.0, -90.0], false),
            ([0.0, 0.0, -200.0], [900.0, 0.0, -200.0], true),
            ([0.0, 0.0, -200.0], [900.0, 0.0, 10.0], false),
        ] {
            let (from, to) = (glam::DVec3::from(from), glam::DVec3::from(to));
            let before = a_ctx.counters.certified;
            let mine = indexed.trace(&mut a_ctx, &a, from, to);
            assert_eq!(
                mine,
                walked.trace(&mut b_ctx, &b, from, to),
                "{from} -> {to}"
            );
            assert_eq!(a_ctx.counters.certified > before, inside, "{from} -> {to}");
        }
    }

    /// Traces `from -> to` on the floor of [`on_a_floor`] with the index and without it (the
    /// same answer), and returns what the index counted: one fall-through, and why.
    fn fell_through(from: glam::DVec3, to: glam::DVec3) -> FallThroughs {
        let (indexed, walked, a, b) = on_a_floor();
        let (mut a_ctx, mut b_ctx) = (QueryContext::new(), QueryContext::new());
        assert_eq!(
            indexed.trace(&mut a_ctx, &a, from, to),
            walked.trace(&mut b_ctx, &b, from, to),
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

    /// Each cell of an index, with its box if it has one.
    type Cells = Vec<(Aabb, Option<[DVec3; 2]>)>;

    /// The floor's index (the standing box's space), and its cells, for the tests of the
    /// reasons.
    fn floor_cells() -> (FreeIndex, Cells) {
        let (indexed, ..) = on_a_floor();
        let index = indexed.free_index(0).expect("a grid").clone();
        let cells = (0..index.cells.len())
            .map(|i| (index.shape.cell_box(i, 0.0), index.free_box(i)))
            .collect();
        (index, cells)
    }

    /// A move starting in a cell wholly inside the floor (solid for the standing box: no box
    /// was looked for) falls through for the reason that its cell has no box.
    #[test]
    fn a_move_from_a_cell_without_a_box_falls_through_for_no_box() {
        let (_, cells) = floor_cells();
        let (cell, _) = cells
            .iter()
            .find(|(_, found)| found.is_none())
            .expect("a cell without a box inside the floor");
        let from = cell.centre();
        let expected = FallThroughs {
            no_box: 1,
            ..FallThroughs::default()
        };
        assert_eq!(fell_through(from, from + DVec3::X), expected);
    }

    /// A move starting in a cell that has a box, but below the box (the cells across the
    /// floor's expanded top have their boxes above it), falls through for the reason that its
    /// start is outside its cell's box.
    #[test]
    fn a_move_from_outside_its_cells_box_falls_through_for_start_outside() {
        let (_, cells) = floor_cells();
        let (cell, [lo, _]) = cells
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
        assert_eq!(fell_through(from, from + DVec3::X), expected);
    }

    /// A move from the middle of a cell's part of its box to 200 units away (a box reaches at
    /// most [`FREE_BOX_CAP`] from the point it grew from) falls through for the reason that its
    /// end is outside its start's cell's box.
    #[test]
    fn a_move_leaving_its_starts_box_falls_through_for_end_outside() {
        let (_, cells) = floor_cells();
        let (cell, [lo, hi]) = cells
            .iter()
            .find_map(|&(cell, found)| found.map(|b| (cell, b)))
            .expect("a cell with a box");
        // A box may reach beyond its cell (above the grid, where the slab above would certify).
        let from = (lo.max(cell.min) + hi.min(cell.max)) * 0.5;
        let to = from + DVec3::new(200.0, 0.0, 0.0);
        assert!(to.x > hi.x);
        let expected = FallThroughs {
            end_outside: 1,
            ..FallThroughs::default()
        };
        assert_eq!(fell_through(from, to), expected);
    }

    /// A move from beneath the grid up into it (out of the free slab below the floor) falls
    /// through for the reason that it starts outside the grid and no slab holds both its ends.
    #[test]
    fn a_move_from_outside_the_grid_into_it_falls_through_for_outside_grid() {
        let (index, _) = floor_cells();
        let grid = index.shape.bounds();
        let from = DVec3::new(0.0, 0.0, grid.min.z - 100.0);
        let to = DVec3::new(0.0, 0.0, grid.max.z - 1.0);
        assert!(index.shape.cell_and_corner(from).is_none());
        assert!(index.shape.cell_and_corner(to).is_some());
        let expected = FallThroughs {
            outside_grid: 1,
            ..FallThroughs::default()
        };
        assert_eq!(fell_through(from, to), expected);
    }

    /// Around a sealed room compiled with its outside filled, the void is solid for the tree:
    /// no slab survives the verification, and a move out there is the walk's (solid) answer.
    #[test]
    fn slabs_around_a_filled_room_are_refused() {
        let wall = |lo: [f64; 3], hi: [f64; 3]| {
            cspace_geom::Brush::from_aabb(cspace_geom::Aabb::new(lo.into(), hi.into())).unwrap()
        };
        let world = Arc::new(cspace_geom::World::from_brushes([
            wall([-272.0, -272.0, -16.0], [272.0, 272.0, 0.0]),
            wall([-272.0, -272.0, 256.0], [272.0, 272.0, 272.0]),
            wall([-272.0, -272.0, 0.0], [-256.0, 272.0, 256.0]),
            wall([256.0, -272.0, 0.0], [272.0, 272.0, 256.0]),
            wall([-256.0, -272.0, 0.0], [256.0, -256.0, 256.0]),
            wall([-256.0, 256.0, 0.0], [256.0, 272.0, 256.0]),
        ]));
        let options = CompileOptions {
            fill_outside: true,
            spawn_points: vec![glam::DVec3::new(0.0, 0.0, 64.0)],
            ..CompileOptions::default()
        };
        let (indexed, walked, a, b) = indexed_and_walked(world, &options);
        assert_eq!(indexed.free_index(0).expect("a grid").outside.len(), 0);
        let (mut a_ctx, mut b_ctx) = (QueryContext::new(), QueryContext::new());
        let (from, to) = (
            glam::DVec3::new(0.0, 0.0, -5000.0),
            glam::DVec3::new(10.0, 0.0, -5100.0),
        );
        let mine = indexed.trace(&mut a_ctx, &a, from, to);
        assert_eq!(mine, walked.trace(&mut b_ctx, &b, from, to));
        assert!(mine.all_solid(), "{mine:?}");
        assert_eq!(a_ctx.counters.certified, 0);
    }

    /// Every box holds no solid point of its space (the exact point query at its corners, its
    /// centre and random points), and every move inside a box is answered, by the collider with
    /// its index, as the collider without it answers it: a miss, bit for bit. Moves anywhere
    /// else agree too.
    #[test]
    fn boxes_are_free_and_certified_moves_are_the_walks_misses() {
        let world = Arc::new(
            RandomBoxes {
                count: 300,
                extent: 600.0,
                ..RandomBoxes::BENCHMARK
            }
            .world(),
        );
        let poses = [
            Pose::quake_standing(),
            Pose::quake_crouching(),
            Pose::point(),
        ];
        let tree = Arc::new(
            compile(&world, &poses, &CompileOptions::default())
                .unwrap()
                .tree,
        );
        let indexed = OnionCollider::new(world.clone(), tree.clone()).unwrap();
        let walked = OnionCollider::new(world.clone(), tree)
            .unwrap()
            .without_free_index();
        let stats = indexed.free_index_stats();
        assert!(stats.boxes > 100, "{stats:?}");
        assert_eq!(walked.free_index_bytes(), 0);
        let exact = ExactCollider::new(world.clone());
        let mut rng = Rng::new(17);
        let (mut a_ctx, mut b_ctx, mut e_ctx) = (
            QueryContext::new(),
            QueryContext::new(),
            QueryContext::new(),
        );
        for (space, pose) in poses.iter().enumerate() {
            let shape = Shape::from(pose);
            let (a, b, e) = (
                indexed.prepare(&shape).unwrap(),
                walked.prepare(&shape).unwrap(),
                exact.prepare(&shape).unwrap(),
            );
            let index = indexed.free_index(space).expect("a grid");
            for [lo, hi] in index.boxes().iter().step_by(7) {
                let inside = |rng: &mut Rng| {
                    glam::DVec3::new(
                        rng.range(lo.x, hi.x),
                        rng.range(lo.y, hi.y),
                        rng.range(lo.z, hi.z),
                    )
                };
                for p in [*lo, *hi, (*lo + *hi) * 0.5, inside(&mut rng)] {
                    assert!(
                        !exact.is_solid(&mut e_ctx, &e, p),
                        "{p} in box {lo} {hi} of space {space} is solid"
                    );
                }
                for _ in 0..8 {
                    let (from, to) = (inside(&mut rng), inside(&mut rng));
                    let mine = indexed.trace(&mut a_ctx, &a, from, to);
                    let theirs = walked.trace(&mut b_ctx, &b, from, to);
                    assert_eq!(mine, theirs, "{from} -> {to} in space {space}");
                    assert_eq!(mine.fraction().to_bits(), 1.0f64.to_bits());
                }
            }
            let bounds = world.bounds().loosened(64.0);
            for _ in 0..20_000 {
                let from = rng.point_in(&bounds);
                let to = from + rng.unit_vector() * rng.range(0.0, 80.0);
                let mine = indexed.trace(&mut a_ctx, &a, from, to);
                let theirs = walked.trace(&mut b_ctx, &b, from, to);
                assert_eq!(mine, theirs, "{from} -> {to} in space {space}");
            }
        }
        let (certified, walks) = (a_ctx.counters.certified, a_ctx.counters.fall_throughs);
        assert!(certified > 1000 && walks > 1000, "{}", a_ctx.counters);
        assert_eq!(b_ctx.counters.certified + b_ctx.counters.fall_throughs, 0);
        assert_eq!(a_ctx.counters.traces, b_ctx.counters.traces);
    }
}
