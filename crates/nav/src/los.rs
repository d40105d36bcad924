//! Line of sight: Hammersley's ray stabbing (`RayOccluded`) over one configuration space of the
//! onion tree (the sight pose's, a cube of half side 1/32: the plain solid BSP grown by 1/32, in
//! which patch facets are slabs 1/16 thick), stopping at the first solid stretch.
//!
//! Two things make it cheaper than a trace: it stops at the first solid leaf and reports no
//! surface (no plane, brush or contact point), and it starts below the root: the walk is the
//! onion's own over the space's pruned tree ([`SpaceTree::walk`]), which starts a short segment
//! at the deepest node every segment in its grid cell's loose box reaches without touching a
//! plane, and answers at once when that is a whole region or solid (`docs/onion.md`).

use cspace_onion::{OnionTree, SpaceTree};
use glam::DVec3;

use crate::context::NavContext;
use crate::error::NavError;

/// Line-of-sight queries over one configuration space of an onion tree.
///
/// Built from the space of the sight pose ([`cspace_onion::Pose::sight`]) it answers whether a
/// point sees another: whether a cube of half side 1/32 moves from one to the other without
/// entering solid (touching and grazing are free, as in every backend), so curved walls (patch
/// facets, which have no interior) block it. Built from a zero-size pose's space
/// ([`cspace_onion::Pose::point`]) it answers for the segment itself, and sees through facets.
/// Built from an agent's pose's space it answers whether that agent can move straight from one
/// origin to the other without touching solid (gravity aside).
#[derive(Debug, Clone)]
pub struct LineOfSight {
    bsp: SpaceTree,
    space: usize,
}

impl LineOfSight {
    /// Line of sight over configuration space `space` of `tree` (its pruned tree is copied).
    pub fn new(tree: &OnionTree, space: usize) -> Result<LineOfSight, NavError> {
        if space >= tree.spaces() {
            return Err(NavError::PoseIndex {
                pose: space,
                poses: tree.spaces(),
            });
        }
        Ok(LineOfSight {
            bsp: tree.space_tree(space).clone(),
            space,
        })
    }

    /// The space of the tree answered for.
    pub fn space(&self) -> usize {
        self.space
    }

    /// Branch nodes of the space's pruned tree.
    pub fn node_count(&self) -> usize {
        self.bsp.nodes().len()
    }

    /// True when the segment `a -> b` has no stretch of positive length in solid (Hammersley's
    /// `RayOccluded`, negated): `a` in solid sees nothing; touching and grazing solid do not
    /// block. Agrees with the exact backend's trace of the space's box (for the sight pose, the
    /// cube of half side 1/32): visible exactly when that trace neither starts in solid nor
    /// hits. Non-finite points see nothing.
    pub fn visible(&self, a: DVec3, b: DVec3, ctx: &mut NavContext) -> bool {
        if !a.is_finite() || !b.is_finite() {
            return false;
        }
        if a == b {
            return !self.bsp.is_solid(a);
        }
        // Blocked by the first stretch of positive length in solid.
        self.bsp
            .walk(a, b, &mut ctx.walk, |s| !(s.solid() && s.t1 > s.t0))
    }

    /// Where the segment `a -> b` is first blocked, as a fraction of it in [0, 1]: the start of
    /// its first stretch of positive length in solid (0 when `a` is in solid), or `None` when
    /// it is [`visible`](LineOfSight::visible) (the same walk, which goes on to name the
    /// stretch). A depth ray: `a + f * (b - a)` is where the sight pose's cube first enters
    /// solid, the exact backend's time of impact for that cube. Non-finite points are blocked
    /// at 0.
    pub fn first_blocked(&self, a: DVec3, b: DVec3, ctx: &mut NavContext) -> Option<f64> {
        if !a.is_finite() || !b.is_finite() {
            return Some(0.0);
        }
        if a == b {
            return self.bsp.is_solid(a).then_some(0.0);
        }
        let mut blocked = None;
        self.bsp.walk(a, b, &mut ctx.walk, |s| {
            if s.solid() && s.t1 > s.t0 {
                blocked = Some(s.t0);
                false
            } else {
                true
            }
        });
        blocked
    }
}
