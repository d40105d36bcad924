//! Exact Minkowski expansion of brushes into configuration space.
//!
//! An agent whose origin is at `p` and whose shape is `S` overlaps brush `B` exactly when `p`
//! lies in `B + (-S)`. For a plane `n . x <= d` of `B` the expanded plane is
//! `n . p <= d + h_S(-n)`, with `h_S` the support function of the shape
//! ([`Shape::plane_offset`]). For a box this is exact once the brush carries its bevels
//! ([`Brush::box_planes`]); note the sign: Quake hulls are not centred, and the standing player's
//! floor plane rises by 24 (its feet) while ceilings come down by 32 (its head).

use crate::brush::{Brush, BrushError};
use crate::plane::Plane;
use crate::shape::{BoxShape, Shape};
use crate::tolerance::PARALLEL;

/// The configuration-space planes of `brush` for an agent box: every plane of
/// [`Brush::box_planes`] pushed out by the box's support. Their intersection is exactly
/// `brush + [-maxs, -mins]`; some planes may touch it only along an edge or at a vertex.
pub fn box_expanded_planes(brush: &Brush, shape: &BoxShape) -> Vec<Plane> {
    box_expanded_planes_iter(brush, shape).collect()
}

/// [`box_expanded_planes`] one at a time, without collecting them (the exact backend's box
/// trace stops at the first plane that settles it).
pub fn box_expanded_planes_iter<'a>(
    brush: &'a Brush,
    shape: &BoxShape,
) -> impl Iterator<Item = Plane> + 'a {
    let shape = Shape::Box(*shape);
    brush
        .box_planes()
        .iter()
        .map(move |p| p.shifted(shape.plane_offset(p.normal())))
}

/// The configuration-space brush of `brush` for an agent box (see [`box_expanded_planes`]),
/// with its faces: the planes that only touch it are dropped as redundant.
pub fn box_expanded_brush(brush: &Brush, shape: &BoxShape) -> Result<Brush, BrushError> {
    Brush::from_planes(&box_expanded_planes(brush, shape))
}

#[cfg(test)]
mod tests;

/// The configuration-space planes of `brush` for a convex polyhedral agent `hull` (points
/// relative to the agent's origin): every candidate normal of the Minkowski sum `brush + (-hull)`
/// (brush face normals, the hull's face normals reversed, and the cross products of a brush edge
/// with a hull edge, both ways), each at its exact support `h_B(n) + h_hull(-n)`. Some planes only
/// touch the sum; their intersection is exactly the sum.
pub fn hull_expanded_planes(brush: &Brush, hull: &Brush) -> Vec<Plane> {
    let mut normals: Vec<glam::DVec3> = brush.planes().map(|p| p.normal()).collect();
    normals.extend(hull.planes().map(|p| -p.normal()));
    for eb in brush.edges() {
        let db =
            brush.vertices()[eb.vertices[1] as usize] - brush.vertices()[eb.vertices[0] as usize];
        for eh in hull.edges() {
            let dh =
                hull.vertices()[eh.vertices[1] as usize] - hull.vertices()[eh.vertices[0] as usize];
            let cross = db.cross(dh);
            if cross.length() > PARALLEL * db.length() * dh.length() {
                let n = cross.normalize();
                normals.push(n);
                normals.push(-n);
            }
        }
    }
    normals
        .into_iter()
        .map(|n| Plane::from_unit(n, brush.support(n) + hull.support(-n)))
        .collect()
}
