//! Bevel planes that make a brush's plane set exact under expansion by an axis-aligned box.
//!
//! The Minkowski sum of two convex polyhedra is bounded by planes whose normals are face normals
//! of either operand or cross products of an edge of one with an edge of the other. For a box the
//! faces are axial and the edges are the axes, so the complete set is: the brush's faces, the six
//! axial planes, and for each brush edge `e` and axis `a` the plane through the edge with normal
//! `e x a` (or its opposite) that has the whole brush behind it. This is qbsp's bevel rule and
//! q3map's `AddBrushBevels`; hesperus2's `BrushExpander` does the same.

use glam::DVec3;

use super::Brush;
use crate::plane::Plane;
use crate::tolerance::PLANE_THICKNESS;
use crate::tolerance::{BEVEL_NORMAL_EQUAL, PARALLEL};

/// The face planes, then the missing axial planes, then the edge bevels.
pub(super) fn box_planes(brush: &Brush) -> Vec<Plane> {
    let mut planes: Vec<Plane> = brush.planes().collect();
    let bounds = brush.bounds();
    for (normal, dist) in bounds.face_planes() {
        push_unique(&mut planes, Plane::axial(normal, dist));
    }
    for edge in brush.edges() {
        let a = brush.vertices()[edge.vertices[0] as usize];
        let b = brush.vertices()[edge.vertices[1] as usize];
        let Some(direction) = (b - a).try_normalize() else {
            continue;
        };
        for axis in [DVec3::X, DVec3::Y, DVec3::Z] {
            let cross = direction.cross(axis);
            // An edge parallel to the axis gives no bevel with it.
            let Some(normal) = cross.try_normalize().filter(|_| cross.length() > PARALLEL) else {
                continue;
            };
            for normal in [normal, -normal] {
                let dist = normal.dot(a);
                let support = brush.support(normal);
                if support <= dist + PLANE_THICKNESS {
                    // At the support, not through `a`: a bevel accepted within the thickness
                    // must still have the whole brush behind it.
                    push_unique(&mut planes, Plane::from_unit(normal, support));
                }
            }
        }
    }
    planes
}

/// Appends `plane` unless a plane with (nearly) the same normal is already there. Every plane
/// here supports the brush, so the same normal means the same plane.
fn push_unique(planes: &mut Vec<Plane>, plane: Plane) {
    if !planes
        .iter()
        .any(|p| p.normal().abs_diff_eq(plane.normal(), BEVEL_NORMAL_EQUAL))
    {
        planes.push(plane);
    }
}
