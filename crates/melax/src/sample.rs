//! A sample geometry "made by booleaning a number of simple shapes together" (Melax Section 6,
//! Figure 4): overlapping boxes, prisms, a ball, wedges and ramps in a 512-unit room, unioned by
//! the compiler. Used for Figure 5, Figure 6 and Table 1.

use cspace_geom::generate::oriented_box;
use cspace_geom::shape::ConvexHull;
use cspace_geom::{Aabb, Brush, DVec3, Plane, World};

/// The side of the sample's bounding cube, in units.
pub const SAMPLE_SIZE: f64 = 512.0;

fn cuboid(min: DVec3, max: DVec3) -> Brush {
    Brush::from_aabb(Aabb::new(min, max)).expect("a box with volume")
}

/// A vertical prism with `sides` sides around `centre` (radius `radius`, from `z0` to `z1`).
fn prism(centre: DVec3, radius: f64, sides: usize, z0: f64, z1: f64) -> Brush {
    let mut planes = vec![
        Plane::new(DVec3::Z, z1).expect("unit"),
        Plane::new(DVec3::NEG_Z, -z0).expect("unit"),
    ];
    for i in 0..sides {
        let a = std::f64::consts::TAU * i as f64 / sides as f64;
        let n = DVec3::new(a.cos(), a.sin(), 0.0);
        planes.push(Plane::new(n, n.dot(centre) + radius).expect("unit"));
    }
    Brush::from_planes(&planes).expect("a prism with volume")
}

/// A ball: the hull of points on two rings and the poles.
fn ball(centre: DVec3, radius: f64) -> Brush {
    let mut points = vec![centre + DVec3::Z * radius, centre - DVec3::Z * radius];
    for ring in [-0.5f64, 0.0, 0.5] {
        let (z, r) = (ring * radius, (1.0 - ring * ring).sqrt() * radius);
        for i in 0..8 {
            let a = std::f64::consts::TAU * (i as f64 + ring) / 8.0;
            points.push(centre + DVec3::new(a.cos() * r, a.sin() * r, z));
        }
    }
    ConvexHull::new(&points)
        .expect("points around a ball span a volume")
        .polyhedron()
        .clone()
}

/// A wedge along y: a ridge at `top` with slopes of `slope_degrees`, from z = 0.
fn wedge(x: f64, y0: f64, y1: f64, top: f64, slope_degrees: f64) -> Brush {
    let s = slope_degrees.to_radians();
    let apex = DVec3::new(x, 0.0, top);
    let left = DVec3::new(-s.sin(), 0.0, s.cos());
    let right = DVec3::new(s.sin(), 0.0, s.cos());
    Brush::from_planes(&[
        Plane::new(left, left.dot(apex)).expect("unit"),
        Plane::new(right, right.dot(apex)).expect("unit"),
        Plane::new(DVec3::NEG_Z, 0.0).expect("unit"),
        Plane::new(DVec3::Y, y1).expect("unit"),
        Plane::new(DVec3::NEG_Y, -y0).expect("unit"),
    ])
    .expect("a wedge with volume")
}

/// The sample: a floor and two walls, and shapes overlapping them and each other.
pub fn sample_geometry() -> World {
    let h = SAMPLE_SIZE / 2.0;
    let (s, c) = 30f64.to_radians().sin_cos();
    let (s2, c2) = 15f64.to_radians().sin_cos();
    let brushes = vec![
        cuboid(DVec3::new(-h, -h, -16.0), DVec3::new(h, h, 0.0)),
        cuboid(DVec3::new(-h, -h, 0.0), DVec3::new(-h + 16.0, h, 256.0)),
        cuboid(DVec3::new(-h, h - 16.0, 0.0), DVec3::new(h, h, 256.0)),
        cuboid(
            DVec3::new(-120.0, -120.0, 0.0),
            DVec3::new(-40.0, -40.0, 96.0),
        ),
        cuboid(
            DVec3::new(-70.0, -90.0, 60.0),
            DVec3::new(10.0, -10.0, 120.0),
        ),
        prism(DVec3::new(100.0, 100.0, 0.0), 48.0, 12, -8.0, 160.0),
        prism(DVec3::new(140.0, 60.0, 0.0), 32.0, 8, 0.0, 80.0),
        ball(DVec3::new(100.0, 100.0, 170.0), 40.0),
        ball(DVec3::new(-160.0, 150.0, 24.0), 48.0),
        wedge(0.0, 40.0, 200.0, 64.0, 35.0),
        wedge(-60.0, 60.0, 180.0, 40.0, 60.0),
        oriented_box(
            DVec3::new(150.0, -150.0, 30.0),
            DVec3::new(80.0, 40.0, 12.0),
            [DVec3::new(c, 0.0, s), DVec3::Y, DVec3::new(-s, 0.0, c)],
        ),
        oriented_box(
            DVec3::new(-150.0, -160.0, 40.0),
            DVec3::new(50.0, 20.0, 40.0),
            [DVec3::new(c2, s2, 0.0), DVec3::new(-s2, c2, 0.0), DVec3::Z],
        ),
        oriented_box(
            DVec3::new(60.0, -60.0, 20.0),
            DVec3::new(30.0, 30.0, 30.0),
            [
                DVec3::new(c, s, 0.0),
                DVec3::new(-s * c2, c * c2, s2),
                DVec3::new(s * s2, -c * s2, c2),
            ],
        ),
    ];
    World::from_brushes(brushes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_fits_its_cube_and_overlaps() {
        let world = sample_geometry();
        let bounds = world.bounds();
        assert!(
            bounds.size().max_element() <= SAMPLE_SIZE + 1e-9,
            "{bounds:?}"
        );
        let faces: usize = world.brushes().iter().map(|b| b.brush.face_count()).sum();
        assert!(faces > 100, "{faces} faces");
    }
}
