//! Algorithm 1 over the brushes of a [`World`] near a point, with a cap that keeps the
//! restriction to nearby brushes conservative.

use std::sync::Arc;

use cspace_geom::tolerance::PLANE_THICKNESS;
use cspace_geom::{Aabb, BrushId, World};
use glam::DVec3;

use crate::directions::Directions;
use crate::geometry::Inflated;
use crate::udop::Udop;
use cspace_geom::tolerance::VERTEX_SLACK;

/// How far brushes are grown before they are inserted, in units: [`PLANE_THICKNESS`].
///
/// Section 3 reads a brush's distance off its vertices, which are plane crossings with rounding
/// errors up to about 1e-8 units (`tolerance::PLANE_THICKNESS` documents it); the exact backend
/// reads solidity off the planes. Growing every brush by 1e-6 puts the plane-defined brush
/// inside the grown vertex hull, so a k-UDOP never overlaps solid by even the rounding.
pub const BRUSH_GUARD: f64 = PLANE_THICKNESS;

/// Slack added to the spatial query's box, in units: twice [`BRUSH_GUARD`], for the same
/// rounding of brush bounds.
pub const QUERY_SLACK: f64 = 2.0 * PLANE_THICKNESS;

/// Why a builder cannot be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum UdopBuilderError {
    /// The cap radius must be positive and finite.
    #[error("the k-UDOP cap radius must be positive and finite, got {0}")]
    Radius(f64),
}

/// The order in which Algorithm 1 visits the nearby brushes (its result depends on the order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BuildOrder {
    /// Nearest first by the distance from the centre to each brush's bounding box, ties by id:
    /// near brushes take the sides first, so far ones are usually already outside.
    #[default]
    Nearest,
    /// By brush id.
    Id,
}

/// Builds k-UDOPs from the brushes of a [`World`] within a cap around the centre.
///
/// # The cap keeps the k-UDOP conservative
///
/// Let `R` be the cap radius, `Q = c + [-R, R]^3` the cube around the centre and
/// `h_i^0 = R ||v_i||_1` the support of `Q - c` along `v_i`. Algorithm 1 starts from the
/// bounding k-DOP of the cube, `P^0 = {x : (x - c) . v_i < h_i^0}` ([`Udop::capped`]), and
/// `B = c + [-R e, R e]` is the bounding box of `P^0`, with `e` =
/// [`Directions::cube_hull_extent`] (finite because the directions positively span). The spatial
/// index returns every brush whose bounds meet `B` (grown by [`QUERY_SLACK`]), and those are
/// inserted (each grown by [`BRUSH_GUARD`]).
///
/// Claim: the resulting region `P` meets no brush of the world.
///
/// 1. Algorithm 1 only ever lowers an `h_i` ([`Udop::insert`]), so `P` is a subset of `P^0`,
///    which is a subset of `B`.
/// 2. A brush the index did not return has bounds disjoint from `B`, so the brush (inside its
///    bounds) is disjoint from `B`, hence from `P`.
/// 3. A brush `g` that was inserted was left, by its insertion, beyond some side:
///    `(x - c) . v_m >= h_m` for all `x` in `g`. Later insertions only lower `h_m`, so this
///    stays true, and `g` is disjoint from the open region `P`.
///
/// With the six axis directions in the set (every standard set), `P^0` is the cube itself and
/// `B = Q`: all `h_i <= R` along the axes holds the polytope inside the cube of half side `R`.
/// Without them, `B` is larger than `Q`; the covering angle `theta` of the set
/// ([`Directions::covering_angle`]) bounds it: `P^0` lies in the ball of radius
/// `max_i h_i^0 / cos(theta) <= sqrt(3) R / cos(theta)`. The cap never cuts into the cube `Q`
/// itself, since `Q` is inside `P^0`.
///
/// A centre inside or touching a brush gives a side at or below zero: a degenerate k-UDOP that
/// does not contain its centre ([`Udop::contains_centre`]), never a wrong one.
#[derive(Debug, Clone)]
pub struct UdopBuilder {
    directions: Arc<Directions<DVec3>>,
    radius: f64,
    order: BuildOrder,
    query_half: DVec3,
    scratch: Vec<(f64, BrushId)>,
}

impl UdopBuilder {
    /// A builder over `directions` with cap radius `radius` (units).
    pub fn new(
        directions: Arc<Directions<DVec3>>,
        radius: f64,
    ) -> Result<UdopBuilder, UdopBuilderError> {
        if !(radius.is_finite() && radius > 0.0) {
            return Err(UdopBuilderError::Radius(radius));
        }
        // The computed extent carries rounding: widen it by a relative 1e-9.
        let query_half = directions.cube_hull_extent() * (radius * (1.0 + VERTEX_SLACK))
            + DVec3::splat(QUERY_SLACK);
        Ok(UdopBuilder {
            directions,
            radius,
            order: BuildOrder::default(),
            query_half,
            scratch: Vec::new(),
        })
    }

    /// The same builder visiting brushes in `order`.
    pub fn with_order(self, order: BuildOrder) -> UdopBuilder {
        UdopBuilder { order, ..self }
    }

    /// The direction set.
    pub fn directions(&self) -> &Arc<Directions<DVec3>> {
        &self.directions
    }

    /// The cap radius, in units.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// The order brushes are visited in.
    pub fn order(&self) -> BuildOrder {
        self.order
    }

    /// The box the spatial index is asked about for a k-UDOP centred at `centre` (`B` above,
    /// grown by [`QUERY_SLACK`]).
    pub fn query_box(&self, centre: DVec3) -> Aabb {
        Aabb::new(centre - self.query_half, centre + self.query_half)
    }

    /// Algorithm 1 at `centre` over the brushes of `world` near it (see the type's docs).
    pub fn build(&mut self, world: &World, centre: DVec3) -> Udop<DVec3> {
        let mut scratch = std::mem::take(&mut self.scratch);
        let udop = self.build_with(&mut scratch, world, centre);
        self.scratch = scratch;
        udop
    }

    /// [`UdopBuilder::build`] with the caller's buffer (the brushes near `centre`, sorted), for a
    /// builder shared between threads.
    pub fn build_with(
        &self,
        scratch: &mut Vec<(f64, BrushId)>,
        world: &World,
        centre: DVec3,
    ) -> Udop<DVec3> {
        let mut udop = Udop::capped(self.directions.clone(), centre, self.radius);
        let query = self.query_box(centre);
        scratch.clear();
        let order = self.order;
        world.for_each_overlapping(&query, |id| {
            let key = match order {
                BuildOrder::Nearest => {
                    let bounds = world.brush(id).brush.bounds();
                    let gap = (bounds.min - centre)
                        .max(centre - bounds.max)
                        .max(DVec3::ZERO);
                    gap.dot(gap)
                }
                BuildOrder::Id => 0.0,
            };
            scratch.push((key, id));
        });
        scratch.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for &(_, id) in scratch.iter() {
            udop.insert(&Inflated {
                geometry: &world.brush(id).brush,
                margin: BRUSH_GUARD,
            });
        }
        udop
    }
}
