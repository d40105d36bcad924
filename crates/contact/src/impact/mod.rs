//! Exact swept times of impact between two agents moving on straight lines.
//!
//! Relative to agent `b`, agent `a` moves on a line; the two overlap where `a`'s origin is inside
//! the configuration-space obstacle `K = b + (-a)`. For box and cylinder pairs `K` is a rounded
//! prism (a rectangle grown by a disc, times a z interval), met by the line in closed form; with a
//! sphere `K` is a core grown by a ball, met by convex root finding. All pairs of boxes, spheres
//! and vertical cylinders are exact; hulls are not agent shapes.

mod rounded_prism;
mod sphere;

use cspace_geom::tolerance::CONTACT;
use cspace_geom::{DVec3, Shape};
use glam::DVec2;

use rounded_prism::RoundedPrism;
use sphere::Core;

/// The first contact of two moving agents.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Impact {
    /// When they first touch, as a fraction of the moves, in `[0, 1]` (0 when they overlap at
    /// the start).
    pub time: f64,
    /// Unit normal pointing from `b` towards `a` at the contact.
    pub normal: DVec3,
    /// The contact point (world coordinates, units): `a`'s touching point at `time`.
    pub point: DVec3,
    /// How deep they overlap at the start (units); 0 when they start apart.
    pub depth: f64,
}

/// A pair of shapes without an exact time of impact.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "no exact time of impact between {a} and {b}: agents are boxes, spheres or vertical cylinders"
)]
pub struct UnsupportedPair {
    /// The first shape.
    pub a: String,
    /// The second shape.
    pub b: String,
}

/// The configuration-space obstacle of `b` for `a`.
enum Obstacle {
    Prism(RoundedPrism),
    Grown(Core, f64),
}

fn obstacle(a: &Shape, b: &Shape) -> Result<Obstacle, UnsupportedPair> {
    let unsupported = || UnsupportedPair {
        a: a.describe(),
        b: b.describe(),
    };
    Ok(match (a, b) {
        (Shape::Box(a), Shape::Box(b)) => Obstacle::Prism(RoundedPrism {
            rect_min: (b.mins - a.maxs).truncate(),
            rect_max: (b.maxs - a.mins).truncate(),
            radius: 0.0,
            z_min: b.mins.z - a.maxs.z,
            z_max: b.maxs.z - a.mins.z,
        }),
        (
            Shape::Box(a),
            Shape::Cylinder {
                radius,
                half_height,
            },
        ) => Obstacle::Prism(RoundedPrism {
            rect_min: -a.maxs.truncate(),
            rect_max: -a.mins.truncate(),
            radius: *radius,
            z_min: -half_height - a.maxs.z,
            z_max: half_height - a.mins.z,
        }),
        (
            Shape::Cylinder {
                radius,
                half_height,
            },
            Shape::Box(b),
        ) => Obstacle::Prism(RoundedPrism {
            rect_min: b.mins.truncate(),
            rect_max: b.maxs.truncate(),
            radius: *radius,
            z_min: b.mins.z - half_height,
            z_max: b.maxs.z + half_height,
        }),
        (
            Shape::Cylinder {
                radius: ra,
                half_height: ha,
            },
            Shape::Cylinder {
                radius: rb,
                half_height: hb,
            },
        ) => Obstacle::Prism(RoundedPrism {
            rect_min: DVec2::ZERO,
            rect_max: DVec2::ZERO,
            radius: ra + rb,
            z_min: -(ha + hb),
            z_max: ha + hb,
        }),
        (Shape::Sphere { radius }, other) => {
            let (core, extra) = core_of(other).ok_or_else(unsupported)?;
            Obstacle::Grown(core, radius + extra)
        }
        (other, Shape::Sphere { radius }) => {
            // b + (-a) = (-a) + ball: the reflected core of a.
            let (core, extra) = core_of(other).ok_or_else(unsupported)?;
            let core = match core {
                Core::Box { min, max } => Core::Box {
                    min: -max,
                    max: -min,
                },
                c => c,
            };
            Obstacle::Grown(core, radius + extra)
        }
        _ => return Err(unsupported()),
    })
}

/// A shape as a core grown by a ball: the core and the ball's radius.
fn core_of(shape: &Shape) -> Option<(Core, f64)> {
    match *shape {
        Shape::Box(b) => Some((
            Core::Box {
                min: b.mins,
                max: b.maxs,
            },
            0.0,
        )),
        Shape::Sphere { radius } => Some((Core::Point, radius)),
        Shape::Cylinder {
            radius,
            half_height,
        } => Some((
            Core::Cylinder {
                radius,
                half_height,
            },
            0.0,
        )),
        Shape::Hull(_) => None,
    }
}

/// The exact first contact of agent `a` (shape, start, motion over the step) with agent `b`.
///
/// `None` when they never overlap by more than [`CONTACT`]; touching is not a contact. When
/// they already overlap at the start, the impact is at time 0 with the overlap depth and the
/// direction of least penetration.
pub fn time_of_impact(
    a: &Shape,
    a_start: DVec3,
    a_motion: DVec3,
    b: &Shape,
    b_start: DVec3,
    b_motion: DVec3,
) -> Result<Option<Impact>, UnsupportedPair> {
    let s = a_start - b_start;
    let d = a_motion - b_motion;
    let found = match obstacle(a, b)? {
        Obstacle::Prism(prism) => prism_impact(&prism, s, d),
        Obstacle::Grown(core, radius) => match sphere::sweep(core, radius, s, d, CONTACT) {
            Err((depth, normal)) => Some((0.0, normal, depth)),
            Ok(hit) => hit.map(|(time, normal)| (time, normal, 0.0)),
        },
    };
    Ok(found.map(|(time, normal, depth)| Impact {
        time,
        normal,
        point: a_start + a_motion * time + a.support_point(-normal),
        depth,
    }))
}

/// `(time, normal, depth)` of the line against a rounded prism, with the contact tolerance: the
/// line must go deeper than [`CONTACT`] inside to count.
fn prism_impact(prism: &RoundedPrism, s: DVec3, d: DVec3) -> Option<(f64, DVec3, f64)> {
    if let Some((depth, normal)) = prism.eroded(CONTACT).penetration(s) {
        return Some((0.0, normal, depth + CONTACT));
    }
    if d == DVec3::ZERO {
        return None;
    }
    let strict = prism.eroded(CONTACT).crossing(s, d)?;
    if strict.enter >= 1.0 || strict.leave <= 0.0 || strict.enter >= strict.leave {
        return None;
    }
    let touch = prism.crossing(s, d).unwrap_or(strict);
    Some((touch.enter.clamp(0.0, 1.0), touch.normal, 0.0))
}

#[cfg(test)]
mod tests;
