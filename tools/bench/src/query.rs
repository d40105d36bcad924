//! The four kinds of trace the suite times, and the shape each sweeps.

use cspace_geom::{DVec3, Shape};

/// A kind of trace: a ray, or a shape swept along a segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Query {
    /// A point moving on the segment (a zero-size box for our backends, `cast_ray` for parry).
    Ray,
    /// The Quake player box, `(-16,-16,-24)..(16,16,32)` (parry: a cuboid `cast_shapes`).
    Box,
    /// A sphere of radius 16 (parry: a ball).
    Sphere,
    /// A vertical cylinder of radius 16 and height 56 (parry: a cylinder turned to stand on z).
    Cylinder,
}

impl Query {
    /// Every kind, in report order.
    pub const ALL: [Query; 4] = [Query::Ray, Query::Box, Query::Sphere, Query::Cylinder];

    /// Radius of the sphere and the cylinder, in units (the player box's half width).
    pub const RADIUS: f64 = 16.0;
    /// Half height of the cylinder, in units (the player box's half height).
    pub const HALF_HEIGHT: f64 = 28.0;

    /// The name in tables.
    pub fn name(self) -> &'static str {
        match self {
            Query::Ray => "ray",
            Query::Box => "box",
            Query::Sphere => "sphere",
            Query::Cylinder => "cylinder",
        }
    }

    /// The shape our backends sweep.
    pub fn shape(self) -> Shape {
        match self {
            Query::Ray => Shape::new_box(DVec3::ZERO, DVec3::ZERO).expect("a point is a valid box"),
            Query::Box => cspace_scenario::bench::player(),
            Query::Sphere => Shape::new_sphere(Self::RADIUS).expect("a positive radius"),
            Query::Cylinder => {
                Shape::new_cylinder(Self::RADIUS, Self::HALF_HEIGHT).expect("positive sizes")
            }
        }
    }

    /// What parry is asked, as the tables name it.
    pub fn peer_name(self) -> &'static str {
        match self {
            Query::Ray => "parry cast_ray",
            Query::Box => "parry cuboid cast_shapes",
            Query::Sphere => "parry ball cast_shapes",
            Query::Cylinder => "parry cylinder cast_shapes",
        }
    }
}
