//! Where a short query may start its walk: a grid over the tree's extent whose every cell knows
//! the deepest node of a space's tree that holds the cell's loose box well inside (or the
//! uniform subtree that does), and the deepest that holds the cell itself (its tight box, for a
//! segment that stays in its cell, as an agent's ground probe and most of its steps do: 13 %
//! fewer nodes walked in the 1,000-agent E1M1 crowd).
//!
//! Not in Golodetz: an addition for speed. A segment inside one loose box is on the same side
//! of every plane above that node, by more than [`MARGIN`], at every point, so the walk from the
//! root would go straight down to it without recording a plane, splitting the segment or taking
//! both sides: starting there gives the same intervals, bit for bit, without the top levels.

use cspace_geom::Plane;
use glam::DVec3;

use super::{REGION, SpaceNode};
use cspace_geom::tolerance::BOX_GROWTH;

/// How far inside every plane above its node a loose box must be ([`BOX_GROWTH`]).
const MARGIN: f64 = BOX_GROWTH;

/// The most cells a grid has (four bytes each per space).
const MAX_CELLS: f64 = 65_536.0;

/// The smallest cell edge, in units.
const MIN_CELL: f64 = 16.0;

/// A uniform grid of cells of edge `cell` from `origin`. Cell `i`'s loose box reaches half a
/// cell beyond it on every side, so any segment starting in the cell and shorter than half a
/// cell along each axis lies in it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct GridShape {
    origin: DVec3,
    cell: f64,
    inverse: f64,
    dims: [usize; 3],
    /// `dims` as numbers, for the bounds test.
    extent: DVec3,
}

impl GridShape {
    /// The grid over the extent of the axial planes (every expanded brush has them, as its
    /// bevels), or `None` when they do not bound all three axes.
    pub fn over(planes: &[Plane]) -> Option<GridShape> {
        let mut lo = DVec3::splat(f64::INFINITY);
        let mut hi = DVec3::splat(f64::NEG_INFINITY);
        for p in planes {
            let n = p.normal();
            for axis in 0..3 {
                let at = if n[axis] == 1.0 {
                    p.dist()
                } else if n[axis] == -1.0 {
                    -p.dist()
                } else {
                    continue;
                };
                lo[axis] = lo[axis].min(at);
                hi[axis] = hi[axis].max(at);
            }
        }
        let size = hi - lo;
        if !(size.is_finite() && size.min_element() >= 0.0) {
            return None;
        }
        let volume = size.max(DVec3::splat(MIN_CELL)).element_product();
        let mut cell = (volume / MAX_CELLS).cbrt().max(MIN_CELL);
        // A flat or thin extent has fewer cells along its short axes than the cube root
        // assumes, so the others would have more: grow the cells until the count fits (also
        // for the wild extents of a file not yet validated).
        let dims = |cell: f64| (size / cell).ceil().max(DVec3::ONE);
        while dims(cell).element_product() > MAX_CELLS {
            cell *= 1.02;
        }
        let dims = dims(cell);
        Some(GridShape {
            origin: lo,
            cell,
            inverse: 1.0 / cell,
            dims: [dims.x, dims.y, dims.z].map(|k| k as usize),
            extent: dims,
        })
    }

    /// The box the cells cover.
    pub fn bounds(&self) -> cspace_geom::Aabb {
        cspace_geom::Aabb::new(self.origin, self.origin + self.extent * self.cell)
    }

    /// The number of cells.
    pub fn count(&self) -> usize {
        self.dims.iter().product()
    }

    /// The cell holding `point`, if any.
    #[inline]
    pub fn cell_of_point(&self, point: DVec3) -> Option<usize> {
        self.cell_of(point, point).map(|(cell, _)| cell)
    }

    /// The cell holding `point` and that cell's lower corner, if any.
    #[inline]
    pub fn cell_and_corner(&self, point: DVec3) -> Option<(usize, DVec3)> {
        let k = (point - self.origin) * self.inverse;
        let axis = |k: f64, extent: f64| (k >= 0.0 && k < extent).then_some(k as usize);
        let (x, y, z) = (
            axis(k.x, self.extent.x)?,
            axis(k.y, self.extent.y)?,
            axis(k.z, self.extent.z)?,
        );
        let corner = self.origin + DVec3::new(x as f64, y as f64, z as f64) * self.cell;
        Some((self.index([x, y, z]), corner))
    }

    /// Cell `index`'s box (not loose), grown by `margin` on every side for the rounding of
    /// [`GridShape::cell_of_point`].
    pub fn cell_box(&self, index: usize, margin: f64) -> cspace_geom::Aabb {
        let x = index % self.dims[0];
        let y = index / self.dims[0] % self.dims[1];
        let z = index / self.dims[0] / self.dims[1];
        let lo = self.origin + DVec3::new(x as f64, y as f64, z as f64) * self.cell;
        cspace_geom::Aabb::new(lo, lo + DVec3::splat(self.cell)).loosened(margin)
    }

    /// The index of the cell at `[x, y, z]`.
    fn index(&self, [x, y, z]: [usize; 3]) -> usize {
        (z * self.dims[1] + y) * self.dims[0] + x
    }

    /// Calls `visit` with the index of every cell whose box may meet `lo..hi`: a superset (one
    /// cell more on every side than the boxes need, for rounding), in index order; the caller
    /// tests each cell's own box.
    pub fn for_each_cell_near(&self, lo: DVec3, hi: DVec3, mut visit: impl FnMut(usize)) {
        let range = |axis: usize| -> Option<(usize, usize)> {
            let last = self.dims[axis] as f64 - 1.0;
            let from = ((lo[axis] - self.origin[axis]) * self.inverse).floor() - 1.0;
            let to = ((hi[axis] - self.origin[axis]) * self.inverse).floor() + 1.0;
            // Also false for NaN: nothing near.
            (from <= last && to >= 0.0).then(|| (from.max(0.0) as usize, to.min(last) as usize))
        };
        let (Some(xs), Some(ys), Some(zs)) = (range(0), range(1), range(2)) else {
            return;
        };
        for z in zs.0..=zs.1 {
            for y in ys.0..=ys.1 {
                for x in xs.0..=xs.1 {
                    visit(self.index([x, y, z]));
                }
            }
        }
    }

    /// The loose box of the cell at `[x, y, z]`.
    fn loose_box(&self, at: [usize; 3]) -> (DVec3, DVec3) {
        self.grown_box(at, 0.5)
    }

    /// The box of the cell at `[x, y, z]` (its *tight box*).
    fn tight_box(&self, at: [usize; 3]) -> (DVec3, DVec3) {
        self.grown_box(at, 0.0)
    }

    /// The cell at `[x, y, z]` grown by `by` cells on every side.
    fn grown_box(&self, at: [usize; 3], by: f64) -> (DVec3, DVec3) {
        let corner = |k: [f64; 3]| self.origin + DVec3::new(k[0], k[1], k[2]) * self.cell;
        let [x, y, z] = at.map(|k| k as f64);
        (
            corner([x - by, y - by, z - by]),
            corner([x + 1.0 + by, y + 1.0 + by, z + 1.0 + by]),
        )
    }

    /// The cell whose loose box holds both `a` and `b`: the cell of `a`, if `b` is in its loose
    /// box; and whether `b` is in its tight box too. (Tested in cell coordinates, which may round
    /// a point a hair outside the box that was classified; [`MARGIN`] is far wider than that.)
    #[inline]
    fn cell_of(&self, a: DVec3, b: DVec3) -> Option<(usize, bool)> {
        let ka = (a - self.origin) * self.inverse;
        let kb = (b - self.origin) * self.inverse;
        let axis = |ka: f64, kb: f64, extent: f64| -> Option<(usize, bool)> {
            if !(ka >= 0.0 && ka < extent) {
                return None;
            }
            // Truncation is the floor on non-negatives (and no libm call); the grid has fewer
            // than 2^31 cells along an axis.
            let k = ka as i32;
            let off = kb - f64::from(k);
            (-0.5..=1.5)
                .contains(&off)
                .then_some((k as usize, (0.0..=1.0).contains(&off)))
        };
        let (x, tx) = axis(ka.x, kb.x, self.extent.x)?;
        let (y, ty) = axis(ka.y, kb.y, self.extent.y)?;
        let (z, tz) = axis(ka.z, kb.z, self.extent.z)?;
        Some((self.index([x, y, z]), tx & ty & tz))
    }
}

/// One space's starts: per cell, a node index or a uniform child reference for its loose box
/// and one for its tight box (side by side: one fetch).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StartGrid {
    starts: Vec<[u32; 2]>,
}

impl StartGrid {
    /// The starts of the tree `nodes` (rooted at `root`) over `shape`.
    pub fn new(shape: &GridShape, nodes: &[SpaceNode], root: u32) -> StartGrid {
        let mut starts = Vec::with_capacity(shape.count());
        for z in 0..shape.dims[2] {
            for y in 0..shape.dims[1] {
                for x in 0..shape.dims[0] {
                    // The tight box is inside the loose one: its descent goes on from there.
                    let loose = descend(nodes, root, shape.loose_box([x, y, z]));
                    let tight = descend(nodes, loose, shape.tight_box([x, y, z]));
                    starts.push([loose, tight]);
                }
            }
        }
        StartGrid { starts }
    }

    /// Where the walk of `a -> b` may start, or `None` (from the root).
    #[inline]
    pub fn start(&self, shape: &GridShape, a: DVec3, b: DVec3) -> Option<u32> {
        shape
            .cell_of(a, b)
            .map(|(i, tight)| self.starts[i][usize::from(tight)])
    }

    pub fn memory_bytes(&self) -> usize {
        self.starts.capacity() * std::mem::size_of::<[u32; 2]>()
    }

    /// The tight start of cell `index` (its deepest node, region or [`crate::SOLID`]).
    pub fn tight(&self, index: usize) -> u32 {
        self.starts[index][1]
    }
}

/// The deepest node below `at` whose planes all clear the box `(lo, hi)` by more than
/// [`MARGIN`] (or the uniform subtree holding it).
fn descend(nodes: &[SpaceNode], mut at: u32, (lo, hi): (DVec3, DVec3)) -> u32 {
    let (centre, half) = ((lo + hi) * 0.5, (hi - lo) * 0.5);
    while at & REGION == 0 {
        let node = &nodes[at as usize];
        let d = node.signed_distance(centre);
        let reach = half.dot(node.plane.normal().abs());
        if d - reach > MARGIN {
            at = node.children[0];
        } else if d + reach < -MARGIN {
            at = node.children[1];
        } else {
            break;
        }
    }
    at
}

#[cfg(test)]
mod tests {
    use cspace_geom::generate::{RandomBoxes, Rng};
    use cspace_geom::{Aabb, World};
    use glam::DVec3;

    use super::*;
    use crate::trace::WalkScratch;
    use crate::{CompileOptions, OnionTree, Pose, compile};

    fn tree_of(world: &World) -> OnionTree {
        let poses = [
            Pose::quake_standing(),
            Pose::quake_crouching(),
            Pose::point(),
        ];
        compile(world, &poses, &CompileOptions::default())
            .unwrap()
            .tree
    }

    /// Short moves from random starts, from starts exactly on the tree's axial planes (moving
    /// along, into and away from them) and from cell corners, in and around the world.
    fn moves(tree: &OnionTree, bounds: &Aabb, count: usize, seed: u64) -> Vec<(DVec3, DVec3)> {
        let mut rng = Rng::new(seed);
        let region = bounds.loosened(16.0);
        let cell = tree.space_tree(0).starts.as_ref().expect("a grid").0.cell;
        let axial: Vec<(usize, f64)> = tree
            .planes()
            .iter()
            .filter_map(|p| {
                let n = p.normal();
                (0..3)
                    .find(|&k| n[k].abs() == 1.0)
                    .map(|k| (k, p.dist() * n[k]))
            })
            .collect();
        (0..count)
            .map(|i| {
                let mut a = DVec3::new(
                    rng.range(region.min.x, region.max.x),
                    rng.range(region.min.y, region.max.y),
                    rng.range(region.min.z, region.max.z),
                );
                // Up to a cell along each axis: ends anywhere in the start's loose box, and
                // beyond it.
                let mut d = if i % 8 == 0 {
                    rng.unit_vector() * rng.range(0.0, 60.0)
                } else {
                    DVec3::new(
                        rng.range(-cell, cell),
                        rng.range(-cell, cell),
                        rng.range(-cell, cell),
                    )
                };
                match i % 4 {
                    0 => {}
                    1 | 2 => {
                        let (k, at) = axial[rng.below(axial.len())];
                        a[k] = at;
                        if i % 4 == 1 {
                            d[k] = 0.0;
                        }
                    }
                    _ => a = a.round(),
                }
                (a, a + d)
            })
            .collect()
    }

    /// The walk from the grid's start gives what the walk from the root gives, bit for bit, for
    /// the collider's query, Listing 5 and the point query, in every space.
    fn starts_agree_with_the_root(world: &World, count: usize, seed: u64) {
        let tree = tree_of(world);
        let mut rooted = tree.clone();
        for space in &mut rooted.space_trees {
            assert!(space.starts.is_some(), "a grid over a bounded world");
            space.starts = None;
        }
        let mut scratch = WalkScratch::default();
        let mut from_cells = 0;
        for (a, b) in moves(&tree, &world.bounds(), count, seed) {
            for space in 0..tree.spaces() {
                let grid = tree.space_tree(space);
                if grid.start(a, b) != grid.root {
                    from_cells += 1;
                }
                assert_eq!(
                    tree.space_tree(space).first_entry(a, b, &mut scratch),
                    rooted.space_tree(space).first_entry(a, b, &mut scratch),
                    "{a} -> {b} in space {space}"
                );
                assert_eq!(
                    tree.transition_once(space, a, b, false, &mut scratch),
                    rooted.transition_once(space, a, b, false, &mut scratch),
                    "{a} -> {b} in space {space}"
                );
                assert_eq!(tree.is_solid(space, a), rooted.is_solid(space, a), "{a}");
            }
        }
        // Many moves start below the root (else the test shows nothing).
        assert!(
            from_cells * 4 > count * tree.spaces(),
            "{from_cells} of {} walks started below the root",
            count * tree.spaces()
        );
    }

    #[test]
    fn starts_from_the_grid_agree_with_the_root_on_random_boxes() {
        let world = RandomBoxes {
            count: 150,
            extent: 400.0,
            ..RandomBoxes::BENCHMARK
        }
        .world();
        starts_agree_with_the_root(&world, 6_000, 11);
    }

    #[test]
    fn starts_from_the_grid_agree_with_the_root_on_touching_blocks() {
        // A grid-aligned floor and walls of touching blocks: many planes through cell corners.
        let mut brushes = Vec::new();
        for x in 0..8 {
            for y in 0..8 {
                let lo = DVec3::new(x as f64 * 32.0, y as f64 * 32.0, 0.0);
                let height = if x == 0 || y == 7 { 128.0 } else { 16.0 };
                brushes.push(
                    cspace_geom::Brush::from_aabb(Aabb::new(
                        lo,
                        lo + DVec3::new(32.0, 32.0, height),
                    ))
                    .unwrap(),
                );
            }
        }
        starts_agree_with_the_root(&World::from_brushes(brushes), 6_000, 12);
    }

    /// Every plane above a cell's start is cleared, by more than the queries' tolerance, by all
    /// eight corners of the cell's loose box (checked corner by corner, not as the grid computes
    /// it), so no segment inside the box can touch or cross it; and likewise for the start of
    /// the cell's tight box, which is at or below the loose box's start.
    #[test]
    fn every_plane_above_a_start_clears_its_box() {
        let world = RandomBoxes {
            count: 150,
            extent: 400.0,
            ..RandomBoxes::BENCHMARK
        }
        .world();
        let tree = tree_of(&world);
        let (mut below_root, mut tight_deeper) = (0, 0);
        for space in 0..tree.spaces() {
            let st = tree.space_tree(space);
            let (shape, grid) = st.starts.as_ref().unwrap();
            for (i, &[loose, tight]) in grid.starts.iter().enumerate() {
                let at = [
                    i % shape.dims[0],
                    i / shape.dims[0] % shape.dims[1],
                    i / shape.dims[0] / shape.dims[1],
                ];
                for (start, (lo, hi)) in
                    [(loose, shape.loose_box(at)), (tight, shape.tight_box(at))]
                {
                    let corners: Vec<DVec3> = (0..8)
                        .map(|k| {
                            DVec3::select(
                                glam::BVec3::new(k & 1 != 0, k & 2 != 0, k & 4 != 0),
                                hi,
                                lo,
                            )
                        })
                        .collect();
                    let mut node = st.root;
                    let mut passed_loose = loose == st.root;
                    while node != start {
                        assert!(
                            node & REGION == 0,
                            "cell {at:?}: the start is not below the root"
                        );
                        let n = &st.nodes[node as usize];
                        let d: Vec<f64> = corners.iter().map(|&c| n.signed_distance(c)).collect();
                        node = if d.iter().all(|&d| d > 2.0 * cspace_geom::tolerance::CONTACT) {
                            n.children[0]
                        } else if d
                            .iter()
                            .all(|&d| d < -2.0 * cspace_geom::tolerance::CONTACT)
                        {
                            n.children[1]
                        } else {
                            panic!("cell {at:?}: node {node} above the start is touched: {d:?}");
                        };
                        passed_loose |= node == loose;
                    }
                    assert!(
                        passed_loose,
                        "cell {at:?}: the tight start is not below the loose one"
                    );
                }
                below_root += usize::from(loose != st.root);
                tight_deeper += usize::from(tight != loose);
            }
        }
        assert!(
            below_root > 0 && tight_deeper > 0,
            "{below_root} {tight_deeper}"
        );
    }

    /// The grid over a 512-unit cube's faces.
    fn grid_over_cube() -> GridShape {
        let brush =
            cspace_geom::Brush::from_aabb(Aabb::new(DVec3::ZERO, DVec3::splat(512.0))).unwrap();
        let planes: Vec<Plane> = brush.faces().iter().map(|f| f.plane).collect();
        GridShape::over(&planes).unwrap()
    }

    /// A plane touching a cell's loose (or tight) box, or nearer to it than [`MARGIN`], stops the
    /// descent there; one clear of it by more is passed.
    #[test]
    fn a_plane_on_the_loose_box_stops_the_descent() {
        let shape = grid_over_cube();
        let (_, hi) = shape.loose_box([0, 0, 0]);
        let start_of_cell_0 = |x: f64| {
            let node = SpaceNode {
                plane: Plane::from_unit_normal(DVec3::X, x).unwrap(),
                children: [crate::tree::SOLID, REGION],
            };
            StartGrid::new(&shape, &[node], 0).starts[0]
        };
        assert_eq!(start_of_cell_0(hi.x)[0], 0);
        assert_eq!(start_of_cell_0(hi.x + MARGIN * 0.5)[0], 0);
        assert_eq!(start_of_cell_0(hi.x + MARGIN * 2.0)[0], REGION);
        assert_eq!(start_of_cell_0(hi.x - 1.0)[0], 0);
        // The tight box (the cell itself) the same way, below the loose box's face.
        let (_, tight_hi) = shape.tight_box([0, 0, 0]);
        assert_eq!(start_of_cell_0(tight_hi.x), [0, 0]);
        assert_eq!(start_of_cell_0(tight_hi.x + MARGIN * 0.5), [0, 0]);
        assert_eq!(start_of_cell_0(tight_hi.x + MARGIN * 2.0), [0, REGION]);
    }

    /// However flat, long or wild the extent, the grid keeps to its cell budget.
    #[test]
    fn the_cell_count_stays_within_its_budget() {
        let extents = [
            DVec3::new(4096.0, 4096.0, 16.0),
            DVec3::new(2e6, 2e6, 1.0),
            DVec3::new(1e6, 8.0, 8.0),
            DVec3::new(1e300, 1e-300, 16.0),
            DVec3::splat(1.0),
        ];
        for size in extents {
            let planes = [
                Plane::from_unit_normal(DVec3::X, 0.0).unwrap(),
                Plane::from_unit_normal(DVec3::Y, 0.0).unwrap(),
                Plane::from_unit_normal(DVec3::Z, 0.0).unwrap(),
                Plane::from_unit_normal(DVec3::X, size.x).unwrap(),
                Plane::from_unit_normal(DVec3::Y, size.y).unwrap(),
                Plane::from_unit_normal(DVec3::Z, size.z).unwrap(),
            ];
            let shape = GridShape::over(&planes).unwrap();
            assert!(
                shape.count() as f64 <= MAX_CELLS,
                "{size}: {:?}",
                shape.dims
            );
            assert!(shape.cell_of_point(size * 0.5).is_some(), "{size}");
        }
    }

    /// A segment leaving its start's loose box, or starting outside the grid, starts at the root;
    /// one inside its start's cell starts at the tight box's node.
    #[test]
    fn segments_outside_one_loose_box_start_at_the_root() {
        let shape = grid_over_cube();
        let c = shape.cell;
        let inside = DVec3::splat(c * 2.25);
        let tight = |a: DVec3, b: DVec3| shape.cell_of(a, b).map(|(_, tight)| tight);
        assert_eq!(tight(inside, inside + DVec3::splat(c * 0.7)), Some(true));
        assert_eq!(tight(inside, inside + DVec3::splat(c * 0.75)), Some(true));
        assert_eq!(tight(inside, inside + DVec3::splat(c * 0.8)), Some(false));
        assert_eq!(tight(inside, inside - DVec3::splat(c * 0.25)), Some(true));
        assert_eq!(tight(inside, inside - DVec3::splat(c * 0.7)), Some(false));
        assert_eq!(shape.cell_of(inside, inside + DVec3::X * c * 1.3), None);
        assert_eq!(shape.cell_of(inside, inside - DVec3::Z * c * 0.8), None);
        assert_eq!(shape.cell_of(DVec3::splat(-1.0), DVec3::splat(-1.0)), None);
        assert_eq!(
            shape.cell_of(DVec3::splat(600.0), DVec3::splat(600.0)),
            None
        );
    }
}
