//! Deterministic generated worlds for tests and benchmarks.
//!
//! The generator is bit-stable across platforms and versions (SplitMix64, no floating-point
//! library calls whose results vary), so a seed names the same world forever. The benchmark world
//! of the performance issues is [`RandomBoxes::BENCHMARK`]: 2,000 boxes in a 1,000-unit cube, half
//! of them rotated, seed 2024.

use glam::DVec3;

use crate::aabb::Aabb;
use crate::brush::Brush;
use crate::plane::Plane;
use crate::shape::{ConvexHull, Shape};
use crate::world::World;

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast and bit-stable.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next_f64()
    }

    /// Uniform in `[0, n)`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in the box.
    pub fn point_in(&mut self, bounds: &Aabb) -> DVec3 {
        DVec3::new(
            self.range(bounds.min.x, bounds.max.x),
            self.range(bounds.min.y, bounds.max.y),
            self.range(bounds.min.z, bounds.max.z),
        )
    }

    /// A uniformly distributed unit vector (rejection sampling in the unit ball).
    pub fn unit_vector(&mut self) -> DVec3 {
        loop {
            let v = DVec3::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            let l2 = v.length_squared();
            // not a tolerance: rejection sampling keeps vectors long enough to normalise
            if l2 > 1e-6 && l2 <= 1.0 {
                return v / l2.sqrt();
            }
        }
    }

    /// A random rotation as an orthonormal frame `(x, y, z)` (right-handed).
    pub fn frame(&mut self) -> [DVec3; 3] {
        let x = self.unit_vector();
        let helper = if x.x.abs() < 0.9 { DVec3::X } else { DVec3::Y };
        let y0 = helper.cross(x).normalize();
        let z0 = x.cross(y0);
        // Spin about x by a random angle so the frame covers all rotations.
        let angle = self.range(0.0, std::f64::consts::TAU);
        let (s, c) = angle.sin_cos();
        let y = y0 * c + z0 * s;
        [x, y, x.cross(y)]
    }
}

/// A world of random boxes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RandomBoxes {
    /// How many boxes.
    pub count: usize,
    /// Side of the cube `[0, extent]^3` the box centres are drawn from, in units.
    pub extent: f64,
    /// Smallest half side, in units.
    pub min_half: f64,
    /// Largest half side, in units.
    pub max_half: f64,
    /// Share of the boxes that are rotated at random (the rest are axis-aligned).
    pub rotated_share: f64,
    /// The seed.
    pub seed: u64,
}

impl RandomBoxes {
    /// The benchmark world: 2,000 boxes of half sides 4 to 24 in a 1,000-unit cube, half rotated.
    pub const BENCHMARK: RandomBoxes = RandomBoxes {
        count: 2000,
        extent: 1000.0,
        min_half: 4.0,
        max_half: 24.0,
        rotated_share: 0.5,
        seed: 2024,
    };

    /// The same world with another box count in a cube scaled to keep the density.
    pub fn scaled(self, count: usize) -> RandomBoxes {
        RandomBoxes {
            count,
            extent: self.extent * (count as f64 / self.count as f64).cbrt(),
            ..self
        }
    }

    /// The brushes.
    pub fn brushes(&self) -> Vec<Brush> {
        let mut rng = Rng::new(self.seed);
        (0..self.count)
            .map(|i| {
                let centre = DVec3::new(
                    rng.range(0.0, self.extent),
                    rng.range(0.0, self.extent),
                    rng.range(0.0, self.extent),
                );
                let half = DVec3::new(
                    rng.range(self.min_half, self.max_half),
                    rng.range(self.min_half, self.max_half),
                    rng.range(self.min_half, self.max_half),
                );
                // A fixed share of every thousand boxes (7919 is prime to 1000, so the residues
                // of i * 7919 run through all of 0..1000), spread through the sequence.
                let rotated = ((i * 7919) % 1000) as f64 / 1000.0 < self.rotated_share;
                let frame = if rotated {
                    rng.frame()
                } else {
                    [DVec3::X, DVec3::Y, DVec3::Z]
                };
                oriented_box(centre, half, frame)
            })
            .collect()
    }

    /// The world.
    pub fn world(&self) -> World {
        World::from_brushes(self.brushes())
    }
}

/// The agent shapes the tests sweep: Quake's standing player box (`-16,-16,-24` to
/// `16,16,32`), a sphere of radius 12 and a vertical cylinder of radius 14 and half-height 28.
pub fn agent_shapes() -> [Shape; 3] {
    [
        Shape::new_box(
            DVec3::new(-16.0, -16.0, -24.0),
            DVec3::new(16.0, 16.0, 32.0),
        )
        .expect("a valid box"),
        Shape::new_sphere(12.0).expect("a valid sphere"),
        Shape::new_cylinder(14.0, 28.0).expect("a valid cylinder"),
    ]
}

/// A box with centre, half sides along the frame's axes, and the frame.
pub fn oriented_box(centre: DVec3, half: DVec3, frame: [DVec3; 3]) -> Brush {
    let mut planes = Vec::with_capacity(6);
    for (axis, h) in frame.iter().zip(half.to_array()) {
        for n in [*axis, -*axis] {
            planes.push(Plane::new(n, n.dot(centre) + h).expect("frame axes are unit"));
        }
    }
    Brush::from_planes(&planes).expect("a box with positive sides is a valid brush")
}

/// `count` random convex brushes (hulls of 10 points, radius 8 to 40 units) centred uniformly in
/// `region`: the generated world of random convex brushes the backends' agreement tests share.
pub fn random_convex_brushes(seed: u64, count: usize, region: Aabb) -> Vec<Brush> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let centre = rng.point_in(&region);
            let radius = rng.range(8.0, 40.0);
            random_convex_brush(&mut rng, centre, radius, 10)
        })
        .collect()
}

/// A random convex brush: the hull of `points` random points within `radius` of `centre`
/// (retried until they span a volume of at least a tenth of the ball's bounding cube).
pub fn random_convex_brush(rng: &mut Rng, centre: DVec3, radius: f64, points: usize) -> Brush {
    loop {
        let pts: Vec<DVec3> = (0..points.max(4))
            .map(|_| centre + rng.unit_vector() * radius * rng.range(0.3, 1.0))
            .collect();
        if let Ok(hull) = ConvexHull::new(&pts) {
            let brush = hull.polyhedron().clone();
            if brush.volume() > 0.1 * radius * radius * radius {
                return brush;
            }
        }
    }
}

/// Benchmark segments: `count` segments of length `min_len..max_len` in random directions whose
/// start is free for `shape` (by the exact backend), drawn uniformly in `region`. The same seed
/// gives the same segments, so every backend and peer is timed on the same moves. Panics when
/// `region` has too little free space to find them.
pub fn free_segments(
    world: &std::sync::Arc<World>,
    shape: &crate::shape::Shape,
    region: &Aabb,
    count: usize,
    lengths: (f64, f64),
    seed: u64,
) -> Vec<(DVec3, DVec3)> {
    let out = free_moves(world, shape, region, count, lengths, 0.0, seed);
    assert!(
        out.len() == count,
        "no free space for {} in {region:?}",
        shape.describe()
    );
    out
}

/// Like [`free_segments`], with a share `level` (0 to 1) of the moves level (walking) and the rest
/// in random directions; gives up after `1000 * count + 1000` draws and returns what it found.
/// With `level == 0` the moves are exactly [`free_segments`]'.
pub fn free_moves(
    world: &std::sync::Arc<World>,
    shape: &crate::shape::Shape,
    region: &Aabb,
    count: usize,
    (min_len, max_len): (f64, f64),
    level: f64,
    seed: u64,
) -> Vec<(DVec3, DVec3)> {
    use crate::collider::Collider;
    let exact = crate::exact::ExactCollider::new(world.clone());
    let mut ctx = crate::collider::QueryContext::new();
    let prepared = exact
        .prepare(shape)
        .expect("the exact backend takes every shape");
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    let mut attempts = 0usize;
    while out.len() < count && attempts < 1000 * count + 1000 {
        attempts += 1;
        let start = rng.point_in(region);
        if exact.is_solid(&mut ctx, &prepared, start) {
            continue;
        }
        // The level draw only when asked for, so `level == 0` keeps `free_segments`' stream.
        let direction = if level > 0.0 && rng.next_f64() < level {
            let a = rng.range(0.0, std::f64::consts::TAU);
            DVec3::new(a.cos(), a.sin(), 0.0)
        } else {
            rng.unit_vector()
        };
        out.push((start, start + direction * rng.range(min_len, max_len)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn benchmark_world_is_stable() {
        let boxes = RandomBoxes::BENCHMARK.brushes();
        assert_eq!(boxes.len(), 2000);
        let axial = boxes.iter().filter(|b| b.box_planes().len() == 6).count();
        assert_eq!(axial, 1000, "half the boxes are rotated");
        // Bit-stability: the first box never changes for this seed.
        let b = boxes[0].bounds();
        assert_eq!(
            format!("{:.6} {:.6}", b.min, b.max),
            "[596.505372, 72.916035, 287.208735] [649.025701, 121.547782, 309.943588]"
        );
        let again = RandomBoxes::BENCHMARK.brushes();
        assert_eq!(boxes, again);
    }
}
