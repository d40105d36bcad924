//! Agent shapes and their support functions.
//!
//! Shapes are given relative to the agent's origin. A box is Quake's hull: `mins`/`maxs` need
//! not be centred on the origin (the standing player is `(-16,-16,-24)..(16,16,32)`). Spheres and
//! vertical cylinders are centred on the origin.

use std::sync::Arc;

use glam::DVec3;

use crate::aabb::Aabb;
use crate::brush::Brush;
use crate::domain::{OutOfDomain, Quantity, check_point};
use crate::plane::Plane;
use crate::tolerance::{HULL_PLANE_MERGE, SAME_TIME};

/// Why a shape is not valid.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ShapeError {
    /// A number is NaN or infinite.
    #[error("shape has a non-finite number")]
    NonFinite,
    /// A box with `mins > maxs` on some axis.
    #[error(
        "box mins {} exceed maxs {}",
        crate::domain::vector(*mins),
        crate::domain::vector(*maxs)
    )]
    InvertedBox {
        /// The box minimum corner.
        mins: DVec3,
        /// The box maximum corner.
        maxs: DVec3,
    },
    /// A radius or height that is zero or negative.
    #[error("{what} must be positive, got {value}")]
    NotPositive {
        /// Which dimension.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// A hull whose points do not span a volume, or too many points.
    #[error("convex hull: {0}")]
    Hull(String),
    /// A size beyond [`MAX_SHAPE_EXTENT`](crate::tolerance::MAX_SHAPE_EXTENT).
    #[error(transparent)]
    OutOfDomain(#[from] OutOfDomain),
}

/// An axis-aligned box relative to the agent's origin (Quake's `mins`/`maxs`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxShape {
    /// The minimum corner relative to the origin.
    pub mins: DVec3,
    /// The maximum corner relative to the origin.
    pub maxs: DVec3,
}

/// A convex hull of points relative to the origin, kept with its faces and edges.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexHull {
    brush: Arc<Brush>,
}

impl ConvexHull {
    /// The most points a hull may be built from (construction is quartic in the point count).
    pub const MAX_POINTS: usize = 64;

    /// The convex hull of `points` (at least four, not coplanar, at most [`Self::MAX_POINTS`]).
    pub fn new(points: &[DVec3]) -> Result<ConvexHull, ShapeError> {
        if points.iter().any(|p| !p.is_finite()) {
            return Err(ShapeError::NonFinite);
        }
        if points.len() > Self::MAX_POINTS {
            return Err(ShapeError::Hull(format!(
                "{} points; at most {} are supported",
                points.len(),
                Self::MAX_POINTS
            )));
        }
        let scale = points
            .iter()
            .map(|p| p.abs().max_element())
            .fold(1.0, f64::max);
        let tolerance = HULL_PLANE_MERGE * scale;
        let mut planes: Vec<Plane> = Vec::new();
        let n = points.len();
        for i in 0..n {
            for j in i + 1..n {
                for k in j + 1..n {
                    let normal = (points[j] - points[i]).cross(points[k] - points[i]);
                    if normal.length() <= tolerance * scale {
                        continue;
                    }
                    let normal = normal.normalize();
                    let d = normal.dot(points[i]);
                    let (mut above, mut below) = (false, false);
                    for p in points {
                        let s = normal.dot(*p) - d;
                        above |= s > tolerance;
                        below |= s < -tolerance;
                    }
                    let plane = match (above, below) {
                        (false, true) => Plane::from_unit(normal, d),
                        (true, false) => Plane::from_unit(-normal, -d),
                        _ => continue,
                    };
                    if !planes
                        .iter()
                        .any(|p| p.approx_eq(&plane, HULL_PLANE_MERGE, tolerance))
                    {
                        planes.push(plane);
                    }
                }
            }
        }
        let brush = Brush::from_planes(&planes)
            .map_err(|e| ShapeError::Hull(format!("points do not span a volume ({e})")))?;
        Ok(ConvexHull {
            brush: Arc::new(brush),
        })
    }

    /// The hull as a polyhedron (vertices, faces, edges), relative to the origin.
    pub fn polyhedron(&self) -> &Brush {
        &self.brush
    }
}

/// The shape of a moving agent, relative to its origin.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// An axis-aligned box, as Quake's hulls (a zero-size box is a point: ray queries).
    Box(BoxShape),
    /// A sphere of this radius centred on the origin.
    Sphere {
        /// Radius in units.
        radius: f64,
    },
    /// A vertical (z-axis) cylinder centred on the origin.
    Cylinder {
        /// Radius in units.
        radius: f64,
        /// Half the height, in units: the cylinder spans `-half_height..half_height` in z.
        half_height: f64,
    },
    /// A convex hull of points.
    Hull(ConvexHull),
}

impl Shape {
    /// A box with the given corners (`mins <= maxs`; equal corners make a point), each within
    /// [`MAX_SHAPE_EXTENT`](crate::tolerance::MAX_SHAPE_EXTENT) of the origin.
    pub fn new_box(mins: DVec3, maxs: DVec3) -> Result<Shape, ShapeError> {
        if !mins.is_finite() || !maxs.is_finite() {
            return Err(ShapeError::NonFinite);
        }
        check_point(Quantity::ShapeExtent, mins)?;
        check_point(Quantity::ShapeExtent, maxs)?;
        if mins.cmpgt(maxs).any() {
            return Err(ShapeError::InvertedBox { mins, maxs });
        }
        Ok(Shape::Box(BoxShape { mins, maxs }))
    }

    /// A point (the zero-size box): ray queries.
    pub const POINT: Shape = Shape::Box(BoxShape {
        mins: DVec3::ZERO,
        maxs: DVec3::ZERO,
    });

    /// A sphere of positive radius, at most
    /// [`MAX_SHAPE_EXTENT`](crate::tolerance::MAX_SHAPE_EXTENT).
    pub fn new_sphere(radius: f64) -> Result<Shape, ShapeError> {
        positive("radius", radius)?;
        Ok(Shape::Sphere { radius })
    }

    /// A vertical cylinder of positive radius and half-height, each at most
    /// [`MAX_SHAPE_EXTENT`](crate::tolerance::MAX_SHAPE_EXTENT).
    pub fn new_cylinder(radius: f64, half_height: f64) -> Result<Shape, ShapeError> {
        positive("radius", radius)?;
        positive("half height", half_height)?;
        Ok(Shape::Cylinder {
            radius,
            half_height,
        })
    }

    /// A convex hull of points (see [`ConvexHull::new`]), each within
    /// [`MAX_SHAPE_EXTENT`](crate::tolerance::MAX_SHAPE_EXTENT) of the origin.
    pub fn new_hull(points: &[DVec3]) -> Result<Shape, ShapeError> {
        for p in points.iter().filter(|p| p.is_finite()) {
            check_point(Quantity::ShapeExtent, *p)?;
        }
        Ok(Shape::Hull(ConvexHull::new(points)?))
    }

    /// `max s . direction` over the points `s` of the shape.
    #[inline]
    pub fn support_distance(&self, direction: DVec3) -> f64 {
        match self {
            Shape::Box(b) => box_support(b.mins, b.maxs, direction),
            Shape::Sphere { radius } => radius * direction.length(),
            Shape::Cylinder {
                radius,
                half_height,
            } => {
                radius * (direction.x * direction.x + direction.y * direction.y).sqrt()
                    + half_height * direction.z.abs()
            }
            Shape::Hull(h) => h.brush.support(direction),
        }
    }

    /// How far a world plane with this unit normal moves out in configuration space: the
    /// support of the shape in `-normal` (Melax Section 3's offset; for a box, Quake's
    /// `DotProduct(offsets, normal)` with the corner chosen by the normal's signs).
    #[inline]
    pub fn plane_offset(&self, normal: DVec3) -> f64 {
        self.support_distance(-normal)
    }

    /// A point of the shape maximising `s . direction`; on ties (a face or an edge of a box or
    /// cylinder) the centre of the supporting feature.
    pub fn support_point(&self, direction: DVec3) -> DVec3 {
        match self {
            Shape::Box(b) => {
                let pick = |d: f64, lo: f64, hi: f64| {
                    if d > SAME_TIME {
                        hi
                    } else if d < -SAME_TIME {
                        lo
                    } else {
                        (lo + hi) * 0.5
                    }
                };
                DVec3::new(
                    pick(direction.x, b.mins.x, b.maxs.x),
                    pick(direction.y, b.mins.y, b.maxs.y),
                    pick(direction.z, b.mins.z, b.maxs.z),
                )
            }
            Shape::Sphere { radius } => direction.normalize_or_zero() * *radius,
            Shape::Cylinder {
                radius,
                half_height,
            } => {
                let horizontal = DVec3::new(direction.x, direction.y, 0.0);
                let rim = if horizontal.length() > SAME_TIME {
                    horizontal.normalize() * *radius
                } else {
                    DVec3::ZERO
                };
                let z = if direction.z > SAME_TIME {
                    *half_height
                } else if direction.z < -SAME_TIME {
                    -half_height
                } else {
                    0.0
                };
                rim + DVec3::new(0.0, 0.0, z)
            }
            Shape::Hull(h) => h.brush.support_point(direction),
        }
    }

    /// The bounding box relative to the origin.
    #[inline]
    pub fn bounds(&self) -> Aabb {
        match self {
            Shape::Box(b) => Aabb::new(b.mins, b.maxs),
            Shape::Sphere { radius } => Aabb::new(DVec3::splat(-radius), DVec3::splat(*radius)),
            Shape::Cylinder {
                radius,
                half_height,
            } => Aabb::new(
                DVec3::new(-radius, -radius, -half_height),
                DVec3::new(*radius, *radius, *half_height),
            ),
            Shape::Hull(h) => h.brush.bounds(),
        }
    }

    /// A short human-readable description, as the command line writes shapes
    /// (`box:-16,-16,-24,16,16,32`, `sphere:16`, `cylinder:16,28`).
    pub fn describe(&self) -> String {
        match self {
            Shape::Box(b) => format!(
                "box:{},{},{},{},{},{}",
                b.mins.x, b.mins.y, b.mins.z, b.maxs.x, b.maxs.y, b.maxs.z
            ),
            Shape::Sphere { radius } => format!("sphere:{radius}"),
            Shape::Cylinder {
                radius,
                half_height,
            } => format!("cylinder:{radius},{half_height}"),
            Shape::Hull(h) => format!("hull:{} vertices", h.brush.vertices().len()),
        }
    }
}

/// `max s . d` over the box `[mins, maxs]`.
#[inline]
pub fn box_support(mins: DVec3, maxs: DVec3, d: DVec3) -> f64 {
    let pick = |d: f64, lo: f64, hi: f64| if d >= 0.0 { d * hi } else { d * lo };
    pick(d.x, mins.x, maxs.x) + pick(d.y, mins.y, maxs.y) + pick(d.z, mins.z, maxs.z)
}

fn positive(what: &'static str, value: f64) -> Result<(), ShapeError> {
    if !value.is_finite() {
        return Err(ShapeError::NonFinite);
    }
    if value <= 0.0 {
        return Err(ShapeError::NotPositive { what, value });
    }
    crate::domain::check(Quantity::ShapeExtent, value)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quake_box_offsets() {
        let player = Shape::new_box(
            DVec3::new(-16.0, -16.0, -24.0),
            DVec3::new(16.0, 16.0, 32.0),
        )
        .unwrap();
        // A floor (normal +z) rises by the distance from the origin to the feet.
        assert_eq!(player.plane_offset(DVec3::Z), 24.0);
        // A ceiling (normal -z) comes down by the head height.
        assert_eq!(player.plane_offset(DVec3::NEG_Z), 32.0);
        let n = DVec3::new(1.0, 0.0, 1.0).normalize();
        assert!((player.plane_offset(n) - (16.0 + 24.0) / 2f64.sqrt()).abs() < 1e-12);
        assert_eq!(
            player.support_point(DVec3::NEG_Z),
            DVec3::new(0.0, 0.0, -24.0)
        );
    }

    #[test]
    fn melax_offsets_for_sphere_and_cylinder() {
        let sphere = Shape::new_sphere(5.0).unwrap();
        assert_eq!(sphere.plane_offset(DVec3::new(0.6, 0.0, 0.8)), 5.0);
        let cylinder = Shape::new_cylinder(3.0, 10.0).unwrap();
        // r * sqrt(nx^2 + ny^2) + h * |nz|
        let n = DVec3::new(0.6, 0.0, 0.8);
        assert!((cylinder.plane_offset(n) - (3.0 * 0.6 + 10.0 * 0.8)).abs() < 1e-12);
    }

    #[test]
    fn shapes_beyond_the_numeric_domain_are_refused() {
        use crate::tolerance::MAX_SHAPE_EXTENT as E;
        let too_big = |r: Result<Shape, ShapeError>| {
            matches!(
                r,
                Err(ShapeError::OutOfDomain(OutOfDomain {
                    quantity: Quantity::ShapeExtent,
                    ..
                }))
            )
        };
        assert!(Shape::new_sphere(E).is_ok());
        assert!(too_big(Shape::new_sphere(E.next_up())));
        assert!(too_big(Shape::new_cylinder(2e6, 2e6)));
        assert!(too_big(Shape::new_cylinder(16.0, 1e300)));
        assert!(Shape::new_box(DVec3::splat(-E), DVec3::splat(E)).is_ok());
        assert!(too_big(Shape::new_box(
            DVec3::splat(-16.0),
            DVec3::new(16.0, 16.0, 1e15)
        )));
        let far: Vec<DVec3> = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z * 1e6].into();
        assert!(too_big(Shape::new_hull(&far)));
        assert_eq!(
            Shape::new_cylinder(2e6, 1.0).unwrap_err().to_string(),
            "shape size 2000000 units is beyond cspace's limit of 65536 units (tolerance::MAX_SHAPE_EXTENT)"
        );
    }

    #[test]
    fn hull_of_a_cube_with_interior_points() {
        let mut points = Vec::new();
        for x in [-1.0, 1.0] {
            for y in [-1.0, 1.0] {
                for z in [-1.0, 1.0] {
                    points.push(DVec3::new(x, y, z));
                }
            }
        }
        points.push(DVec3::ZERO);
        points.push(DVec3::new(0.5, 0.0, 0.0));
        let hull = Shape::new_hull(&points).unwrap();
        let Shape::Hull(h) = &hull else {
            unreachable!()
        };
        assert_eq!(h.polyhedron().vertices().len(), 8);
        assert_eq!(h.polyhedron().faces().len(), 6);
        assert_eq!(hull.support_distance(DVec3::new(1.0, 1.0, 0.0)), 2.0);
    }

    #[test]
    fn invalid_shapes_are_refused() {
        assert!(matches!(
            Shape::new_sphere(0.0),
            Err(ShapeError::NotPositive { .. })
        ));
        assert!(matches!(
            Shape::new_cylinder(1.0, f64::NAN),
            Err(ShapeError::NonFinite)
        ));
        assert!(matches!(
            Shape::new_box(DVec3::ONE, DVec3::ZERO),
            Err(ShapeError::InvertedBox { .. })
        ));
        let flat = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::ONE.with_z(0.0)];
        assert!(matches!(Shape::new_hull(&flat), Err(ShapeError::Hull(_))));
    }
}
