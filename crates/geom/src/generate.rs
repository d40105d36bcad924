//! Deterministic generated worlds for tests and benchmarks.
//!
//! The generator is bit-stable across platforms and versions (SplitMix64, no floating-point
//! library calls whose results vary), so a seed names the same world forever. The benchmark world
//! of the performance issues is [`RandomBoxes::BENCHMARK`]: 2,000 boxes in a 1,000-unit cube, half
//! of them rotated, seed 2024.

use glam::DVec3;

use crate::aabb::Aabb;
use crate::brush::Brush;
use crate::patch::{ControlGrid, PatchPiece, TessellationOptions};
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

/// An open world: a square floor with scattered pillars on it (`sim bench`'s open world, and the
/// onion compile's open benchmark). Pillars are 16 to 96 units wide and 32 to 160 tall, anywhere
/// within 1,900 units per 2,048 of the floor's half side from its centre.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pillars {
    /// How many pillars.
    pub count: usize,
    /// The floor's half side, in units.
    pub half_side: f64,
    /// The seed (`sim bench` takes 99).
    pub seed: u64,
}

impl Pillars {
    /// `count` pillars at `sim bench`'s density: a floor of half side 2,048 units for 200
    /// pillars, growing with the square root of their number; seed 99.
    pub fn at_bench_density(count: usize) -> Pillars {
        Pillars {
            count,
            half_side: 2048.0 * (count as f64 / 200.0).sqrt().max(1.0),
            seed: 99,
        }
    }

    /// The brushes: the floor, then the pillars.
    pub fn brushes(&self) -> Vec<Brush> {
        let half = self.half_side;
        // 2,048 is a power of two: `half / 2048` is exact, so `sim bench` keeps its bits.
        let spread = 1900.0 * (half / 2048.0);
        let mut rng = Rng::new(self.seed);
        let mut brushes = vec![
            Brush::from_aabb(Aabb::new(
                DVec3::new(-half, -half, -16.0),
                DVec3::new(half, half, 0.0),
            ))
            .expect("a floor is a brush"),
        ];
        for _ in 0..self.count {
            let c = DVec3::new(rng.range(-spread, spread), rng.range(-spread, spread), 0.0);
            let h = DVec3::new(
                rng.range(8.0, 48.0),
                rng.range(8.0, 48.0),
                rng.range(32.0, 160.0),
            );
            brushes.push(
                Brush::from_aabb(Aabb::new(c - DVec3::new(h.x, h.y, 0.0), c + h))
                    .expect("a pillar is a brush"),
            );
        }
        brushes
    }

    /// The world.
    pub fn world(&self) -> World {
        World::from_brushes(self.brushes())
    }
}

/// A world of random Quake III patches (biquadratic Bézier grids, [`crate::patch`]) with a few
/// brushes they rest on: the generated patch world of the patch agreement tests.
///
/// - a terrain of 2 x 2 patches of 5 x 5 control points cut from one lattice, so that they
///   share their border curves (one of them written transposed and reversed, as an editor may
///   write a neighbour);
/// - `count` objects at random places, in turn: an arch (half cylinder, Quake III's square
///   control points) standing on two box pillars whose tops hold its feet; a bent pipe (a closed
///   ring of 9 control points, its first and last rows equal); a wavy 5 x 5 sheet in a random
///   frame; a cone (its first row collapsed to a point); and two sheets sharing a border curve
///   in opposite directions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RandomPatches {
    /// How many objects besides the terrain.
    pub count: usize,
    /// Side of the cube `[0, extent]^3` the objects are placed in, in units.
    pub extent: f64,
    /// The seed.
    pub seed: u64,
}

impl RandomPatches {
    /// The world of the agreement tests: 24 objects in a 768-unit cube.
    pub const TEST: RandomPatches = RandomPatches {
        count: 24,
        extent: 768.0,
        seed: 2027,
    };

    /// The second world of the agreement tests: 60 objects in a 1,536-unit cube, another seed
    /// (the tests tessellate it at the default bound, as maps are, where `TEST` gets 2 units).
    pub const LARGE: RandomPatches = RandomPatches {
        count: 60,
        extent: 1536.0,
        seed: 2031,
    };

    /// The patches and the brushes (pillars).
    pub fn parts(&self) -> (Vec<ControlGrid>, Vec<Brush>) {
        let mut rng = Rng::new(self.seed);
        let mut grids = Vec::new();
        let mut brushes = Vec::new();
        // The terrain.
        let size = self.extent / 2.0;
        let lattice: Vec<Vec<DVec3>> = (0..9)
            .map(|r| {
                (0..9)
                    .map(|c| {
                        DVec3::new(
                            r as f64 * size / 8.0,
                            c as f64 * size / 8.0,
                            rng.range(0.0, 64.0),
                        )
                    })
                    .collect()
            })
            .collect();
        for (a, b) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            let transposed = (a, b) == (1, 1);
            let points = (0..5)
                .flat_map(|r| (0..5).map(move |c| (r, c)))
                .map(|(r, c)| {
                    if transposed {
                        lattice[4 * a + (4 - c)][4 * b + r]
                    } else {
                        lattice[4 * a + r][4 * b + c]
                    }
                })
                .collect();
            grids.push(ControlGrid::new(5, 5, points).expect("a 5 x 5 grid"));
        }
        for i in 0..self.count {
            let centre = DVec3::new(
                rng.range(0.1, 0.9) * self.extent,
                rng.range(0.1, 0.9) * self.extent,
                rng.range(0.1, 0.6) * self.extent,
            );
            match i % 5 {
                0 => arch(&mut rng, centre, &mut grids, &mut brushes),
                1 => grids.push(pipe(&mut rng, centre)),
                2 => {
                    let frame = rng.frame();
                    grids.push(sheet(&mut rng, centre, frame, 5));
                }
                3 => grids.push(cone(&mut rng, centre)),
                _ => {
                    let frame = rng.frame();
                    let first = sheet(&mut rng, centre, frame, 3);
                    // The second sheet starts on the first's last row, reversed, and bends away.
                    let shared: Vec<DVec3> = (0..3).rev().map(|c| first.point(2, c)).collect();
                    let away = frame[0] * rng.range(20.0, 60.0);
                    let mut points = Vec::new();
                    for r in 0..3 {
                        for (c, &p) in shared.iter().enumerate() {
                            let wobble = rng.unit_vector() * rng.range(0.0, 20.0);
                            points.push(if r == 0 {
                                p
                            } else {
                                p + away * r as f64 + frame[2] * (8.0 * c as f64) + wobble
                            });
                        }
                    }
                    grids.push(first);
                    grids.push(ControlGrid::new(3, 3, points).expect("a 3 x 3 grid"));
                }
            }
        }
        (grids, brushes)
    }

    /// The world: the brushes, then every facet of the patches as a flat brush, with the
    /// patches' pieces ([`World::patch_pieces`]).
    pub fn world(&self, options: &TessellationOptions) -> World {
        let (grids, brushes) = self.parts();
        patch_world(brushes, &grids, options)
    }
}

/// A world of `brushes` and the patches `grids` tessellated together within `options`: the
/// brushes first, then every facet as a flat brush, patch after patch, with the patches'
/// pieces ([`World::patch_pieces`]). What a map's loader does, for generated and hand-written
/// patch worlds.
pub fn patch_world(
    mut brushes: Vec<Brush>,
    grids: &[ControlGrid],
    options: &TessellationOptions,
) -> World {
    let mut pieces = Vec::new();
    // Test and benchmark worlds: a few patches, far within the facet budget.
    let tessellations = crate::patch::tessellate(grids, options)
        .unwrap_or_else(|e| panic!("a generated patch world: {e}"));
    for (grid, tessellation) in grids.iter().zip(tessellations) {
        let first = brushes.len() as u32;
        for facet in &tessellation.facets {
            brushes.push(
                Brush::from_polygon(&facet.vertices).expect("tessellation makes valid facets"),
            );
        }
        let ids = (first..).map(crate::BrushId);
        pieces.extend(PatchPiece::of_patch(grid, ids.zip(&tessellation.facets)));
    }
    World::from_brushes(brushes)
        .with_patch_pieces(pieces)
        .expect("every piece names facets of this world")
}

/// A standing arch across x or y with its two box pillars.
fn arch(rng: &mut Rng, centre: DVec3, grids: &mut Vec<ControlGrid>, brushes: &mut Vec<Brush>) {
    let radius = rng.range(32.0, 96.0).round();
    let length = rng.range(32.0, 128.0).round();
    let height = rng.range(16.0, 96.0).round();
    let base = centre.round();
    let (across, along) = if rng.next_f64() < 0.5 {
        (DVec3::X, DVec3::Y)
    } else {
        (DVec3::Y, DVec3::X)
    };
    let top = base + DVec3::Z * height;
    let ring = [
        top - across * radius,
        top - across * radius + DVec3::Z * radius,
        top + DVec3::Z * radius,
        top + across * radius + DVec3::Z * radius,
        top + across * radius,
    ];
    let points = (0..3)
        .flat_map(|r| ring.map(|p| p + along * (length * r as f64 / 2.0)))
        .collect();
    grids.push(ControlGrid::new(3, 5, points).expect("a 3 x 5 grid"));
    // Pillars 16 wide under each foot, their tops at the arch's feet.
    for side in [-1.0, 1.0] {
        let foot = top + across * (radius * side);
        let lo = foot - across * 8.0 - DVec3::Z * height;
        let hi = foot + across * 8.0 + along * length;
        brushes.push(
            Brush::from_aabb(Aabb::new(lo.min(hi), lo.max(hi))).expect("a pillar of positive size"),
        );
    }
}

/// A bent pipe: 9 control points around (a closed ring of four quarter circles), 3 along.
fn pipe(rng: &mut Rng, centre: DVec3) -> ControlGrid {
    let frame = rng.frame();
    let radius = rng.range(12.0, 48.0);
    let length = rng.range(48.0, 160.0);
    let bend = rng.unit_vector() * rng.range(0.0, 40.0);
    let (u, v, w) = (frame[0], frame[1], frame[2]);
    let square = [u, u + v, v, v - u, -u, -u - v, -v, u - v, u];
    let points = square
        .iter()
        .flat_map(|&d| {
            (0..3).map(move |k| {
                let along = w * (length * (k as f64 / 2.0 - 0.5));
                centre + along + d * radius + if k == 1 { bend } else { DVec3::ZERO }
            })
        })
        .collect();
    ControlGrid::new(9, 3, points).expect("a 9 x 3 grid")
}

/// A wavy sheet of `side x side` control points in a frame.
fn sheet(rng: &mut Rng, centre: DVec3, frame: [DVec3; 3], side: usize) -> ControlGrid {
    let spacing = rng.range(16.0, 48.0);
    let mut points = Vec::with_capacity(side * side);
    for r in 0..side {
        for c in 0..side {
            let flat = frame[0] * (r as f64 * spacing) + frame[1] * (c as f64 * spacing);
            points.push(centre + flat + frame[2] * rng.range(-spacing, spacing));
        }
    }
    ControlGrid::new(side, side, points).expect("a square grid of odd side")
}

/// A cone: the first row collapsed to the apex, the others a ring of control points.
fn cone(rng: &mut Rng, centre: DVec3) -> ControlGrid {
    let radius = rng.range(16.0, 64.0);
    let height = rng.range(-64.0, 64.0);
    let ring = [
        DVec3::X,
        DVec3::X + DVec3::Y,
        DVec3::Y,
        DVec3::Y - DVec3::X,
        -DVec3::X,
    ];
    let points = (0..3)
        .flat_map(|r| {
            ring.map(|d| match r {
                0 => centre + DVec3::Z * height,
                1 => centre + DVec3::Z * (height / 2.0) + d * (radius / 2.0),
                _ => centre + d * radius,
            })
        })
        .collect();
    ControlGrid::new(3, 5, points).expect("a 3 x 5 grid")
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
    free_draws(
        world,
        shape,
        count,
        seed,
        |rng| rng.point_in(region),
        |rng, start| {
            // The level draw only when asked for, so `level == 0` keeps `free_segments`' stream.
            let direction = if level > 0.0 && rng.next_f64() < level {
                let a = rng.range(0.0, std::f64::consts::TAU);
                DVec3::new(a.cos(), a.sin(), 0.0)
            } else {
                rng.unit_vector()
            };
            start + direction * rng.range(min_len, max_len)
        },
    )
}

/// Benchmark segments near chosen brushes: `count` segments of length `min_len..max_len` in
/// random directions whose start is free for `shape` (by the exact backend) and lies within
/// `margin` units of the bounds of a brush drawn at random among those `near` accepts (facets,
/// say, or brushes that are not). The same seed gives the same segments. Panics when `near`
/// accepts no brush; gives up after `1000 * count + 1000` draws and returns what it found.
pub fn free_segments_near(
    world: &std::sync::Arc<World>,
    shape: &crate::shape::Shape,
    near: impl Fn(&crate::world::WorldBrush) -> bool,
    count: usize,
    (min_len, max_len): (f64, f64),
    margin: f64,
    seed: u64,
) -> Vec<(DVec3, DVec3)> {
    let chosen: Vec<&crate::world::WorldBrush> =
        world.brushes().iter().filter(|b| near(b)).collect();
    assert!(!chosen.is_empty(), "no brush to draw segments near");
    free_draws(
        world,
        shape,
        count,
        seed,
        |rng| {
            let brush = chosen[rng.below(chosen.len())];
            rng.point_in(&brush.brush.bounds().loosened(margin))
        },
        |rng, start| start + rng.unit_vector() * rng.range(min_len, max_len),
    )
}

/// Up to `count` segments: a start drawn by `start`, kept when `shape` is free there (by the
/// exact backend), and its end drawn by `end`; gives up after `1000 * count + 1000` draws.
fn free_draws(
    world: &std::sync::Arc<World>,
    shape: &crate::shape::Shape,
    count: usize,
    seed: u64,
    mut start: impl FnMut(&mut Rng) -> DVec3,
    mut end: impl FnMut(&mut Rng, DVec3) -> DVec3,
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
        let from = start(&mut rng);
        if exact.is_solid(&mut ctx, &prepared, from) {
            continue;
        }
        out.push((from, end(&mut rng, from)));
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
