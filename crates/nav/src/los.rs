//! Line of sight: Hammersley's ray stabbing (`RayOccluded`) over one configuration space of the
//! onion tree (the zero-size pose: the plain solid BSP), stopping at the first solid stretch.
//!
//! Two things make it cheaper than a trace: it stops at the first solid leaf and reports no
//! surface (no plane, brush or contact point), and it starts below the root. A grid over the
//! tree's extent keeps, for each cell, the deepest node that every segment with both ends in the
//! cell's *loose box* (the cell grown by half a cell on each side) reaches from the root without
//! touching a plane (each plane above it clears the loose box by more than [`PLANE_THICKNESS`]);
//! a short segment starts its walk there, or is answered at once when that is a whole region or
//! solid. (The onion's traces start the same way, `docs/onion.md`.)

use cspace_geom::Aabb;
use cspace_geom::tolerance::PLANE_THICKNESS;
use cspace_onion::OnionTree;
use glam::DVec3;

use crate::bsp::{LEAF, SOLID, SpaceBsp};
use crate::context::NavContext;
use crate::error::NavError;

/// Line-of-sight queries over one configuration space of an onion tree.
///
/// Built from the space of a zero-size pose ([`cspace_onion::Pose::point`]) it answers whether
/// a point sees another: whether the segment between them stays out of solid (touching and
/// grazing are free, as in every backend). Built from a box pose's space it answers whether an
/// agent of that pose can move straight from one origin to the other without touching solid
/// (gravity aside).
#[derive(Debug, Clone)]
pub struct LineOfSight {
    bsp: SpaceBsp,
    space: usize,
    grid: Option<StartGrid>,
}

/// Where short segments start: one node (or region, or solid) per cell of a uniform grid.
#[derive(Debug, Clone)]
struct StartGrid {
    min: DVec3,
    /// One over the cell edge.
    inverse: f64,
    dims: [usize; 3],
    starts: Vec<u32>,
}

/// The most cells of the start grid (4 bytes each).
const GRID_MAX_CELLS: usize = 1 << 18;
/// The smallest cell edge of the start grid, units (half a Quake player).
const GRID_MIN_CELL: f64 = 16.0;

impl StartGrid {
    /// The grid over `bounds` for `bsp`.
    fn new(bsp: &SpaceBsp, bounds: Aabb) -> Option<StartGrid> {
        let finite = bounds.min.is_finite() && bounds.max.is_finite();
        if !finite || bounds.is_empty() || bsp.root & LEAF != 0 {
            return None;
        }
        let size = bounds.size();
        let mut cell = GRID_MIN_CELL;
        let count = |c: f64| (size / c).ceil().max(DVec3::ONE);
        while count(cell).element_product() > GRID_MAX_CELLS as f64 {
            cell *= 2.0;
        }
        let n = count(cell);
        let dims = [n.x as usize, n.y as usize, n.z as usize];
        let mut starts = Vec::with_capacity(dims[0] * dims[1] * dims[2]);
        for z in 0..dims[2] {
            for y in 0..dims[1] {
                for x in 0..dims[0] {
                    let lo = bounds.min + DVec3::new(x as f64, y as f64, z as f64) * cell;
                    let loose = Aabb::new(lo, lo + DVec3::splat(cell)).loosened(cell * 0.5);
                    starts.push(deepest_clear(bsp, &loose));
                }
            }
        }
        Some(StartGrid {
            min: bounds.min,
            inverse: 1.0 / cell,
            dims,
            starts,
        })
    }

    /// The start of a segment from `a` to `b`: the node of `a`'s cell when `b` is in its loose
    /// box, else `None` (the root). (Truncation, not `floor`: the coordinates are checked not
    /// negative first, and `floor` is a library call on baseline x86-64. A point a rounding off
    /// its cell still lies deep inside the loose box, whose planes clear it by
    /// [`PLANE_THICKNESS`].)
    #[inline]
    fn start(&self, a: DVec3, b: DVec3) -> Option<u32> {
        let rel = (a - self.min) * self.inverse;
        // Not negative (and not NaN).
        if !rel.cmpge(DVec3::ZERO).all() {
            return None;
        }
        let (x, y, z) = (rel.x as usize, rel.y as usize, rel.z as usize);
        if x >= self.dims[0] || y >= self.dims[1] || z >= self.dims[2] {
            return None;
        }
        // b in the loose box: within half a cell of a's cell.
        let rb = (b - self.min) * self.inverse - DVec3::new(x as f64, y as f64, z as f64);
        if !(rb.cmpge(DVec3::splat(-0.5)).all() && rb.cmple(DVec3::splat(1.5)).all()) {
            return None;
        }
        Some(self.starts[(z * self.dims[1] + y) * self.dims[0] + x])
    }
}

/// The deepest node reached from the root by every point of `bounds` without coming within
/// [`PLANE_THICKNESS`] of a plane (a region or [`SOLID`] when the whole box is in one).
fn deepest_clear(bsp: &SpaceBsp, bounds: &Aabb) -> u32 {
    let centre = bounds.centre();
    let half = bounds.size() * 0.5;
    let mut at = bsp.root;
    while at & LEAF == 0 {
        let node = &bsp.nodes[at as usize];
        let n = node.plane.normal();
        let d = node.plane.signed_distance(centre);
        let reach = n.abs().dot(half);
        if d - reach > PLANE_THICKNESS {
            at = node.children[0];
        } else if d + reach < -PLANE_THICKNESS {
            at = node.children[1];
        } else {
            break;
        }
    }
    at
}

impl LineOfSight {
    /// Line of sight over configuration space `space` of `tree`, with a start grid over the
    /// tree's planes' extent (`bounds`: the world's bounds grown by the pose's box).
    pub fn new(tree: &OnionTree, space: usize, bounds: Aabb) -> Result<LineOfSight, NavError> {
        if space >= tree.spaces() {
            return Err(NavError::PoseIndex {
                pose: space,
                poses: tree.spaces(),
            });
        }
        let bsp = SpaceBsp::new(tree, space);
        let grid = StartGrid::new(&bsp, bounds);
        Ok(LineOfSight { bsp, space, grid })
    }

    /// The space of the tree answered for.
    pub fn space(&self) -> usize {
        self.space
    }

    /// Branch nodes of the space's pruned tree.
    pub fn node_count(&self) -> usize {
        self.bsp.nodes.len()
    }

    /// True when the segment `a -> b` has no stretch of positive length in solid (Hammersley's
    /// `RayOccluded`, negated): `a` in solid sees nothing; touching and grazing solid do not
    /// block. Agrees with the exact backend's point trace: visible exactly when that trace
    /// neither starts in solid nor hits. Non-finite points see nothing.
    pub fn visible(&self, a: DVec3, b: DVec3, ctx: &mut NavContext) -> bool {
        if !a.is_finite() || !b.is_finite() {
            return false;
        }
        let from = match self.grid.as_ref().and_then(|g| g.start(a, b)) {
            Some(SOLID) => return false,
            Some(start) if start & LEAF != 0 => return true,
            Some(start) => start,
            None => self.bsp.root,
        };
        !self.bsp.occluded_from(from, a, b, &mut ctx.walk)
    }
}
