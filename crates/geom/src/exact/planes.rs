//! Spans of polyhedral shapes (boxes, convex hulls): Quake III's brush trace over the
//! configuration-space planes.

use glam::DVec3;

use super::Span;
use crate::brush::Brush;
use crate::expand::{box_expanded_planes_iter, hull_expanded_planes};
use crate::plane::Plane;
use crate::shape::BoxShape;
use crate::tolerance::CONTACT;

/// The span of an agent box against `brush` (its [`Brush::box_planes`] pushed out by the box).
pub(crate) fn span_box(brush: &Brush, shape: &BoxShape, start: DVec3, end: DVec3) -> Option<Span> {
    span_of_planes(box_expanded_planes_iter(brush, shape), start, end)
}

/// The span of a convex hull agent against `brush` (see [`hull_expanded_planes`]).
pub(crate) fn span_hull(brush: &Brush, hull: &Brush, start: DVec3, end: DVec3) -> Option<Span> {
    span_of_planes(hull_expanded_planes(brush, hull).into_iter(), start, end)
}

/// `CM_TraceThroughBrush` without the skin: the parameter interval over which the line is deeper
/// than [`CONTACT`] behind every plane, the loose end of that interval (within [`CONTACT`]), and
/// the entering plane with its touch time. `None` when the line is never that deep.
pub fn span_of_planes(
    planes: impl Iterator<Item = Plane>,
    start: DVec3,
    end: DVec3,
) -> Option<Span> {
    let mut enter = f64::NEG_INFINITY;
    let mut leave = f64::INFINITY;
    let mut leave_loose = f64::INFINITY;
    let mut entry = None;
    for plane in planes {
        let d1 = plane.signed_distance(start);
        let d2 = plane.signed_distance(end);
        let rate = d1 - d2;
        if rate == 0.0 {
            if d1 >= -CONTACT {
                // Parallel and never deeper than CONTACT behind this plane.
                return None;
            }
            continue;
        }
        // Where the line is CONTACT deep behind the plane, and where CONTACT in front of it.
        let deep = (d1 + CONTACT) / rate;
        if rate > 0.0 {
            if deep > enter {
                enter = deep;
                entry = Some((plane, d1 / rate));
            }
        } else {
            leave = leave.min(deep);
            leave_loose = leave_loose.min((d1 - CONTACT) / rate);
        }
        if enter >= leave {
            return None;
        }
    }
    Some(Span {
        enter,
        leave,
        leave_loose,
        entry,
    })
}
