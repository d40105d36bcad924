//! Worlds and the comparison with the exact backend shared by the tests.

use std::sync::Arc;

use cspace_geom::generate::{RandomBoxes, Rng, random_convex_brushes};
use cspace_geom::{Aabb, Brush, Collider, DVec3, ExactCollider, Hit, Shape, WithContext, World};
use cspace_onion::{CompileOptions, Compiled, OnionCollider, OnionTree, Pose, compile};

/// An axis-aligned box brush.
pub fn axial(min: [f64; 3], max: [f64; 3]) -> Brush {
    Brush::from_aabb(Aabb::new(DVec3::from_array(min), DVec3::from_array(max))).expect("a box")
}

/// The three Quake poses.
pub fn quake_poses() -> Vec<Pose> {
    vec![
        Pose::quake_standing(),
        Pose::quake_crouching(),
        Pose::quake_large(),
    ]
}

/// The shape of a pose.
pub fn shape(pose: &Pose) -> Shape {
    Shape::new_box(pose.mins, pose.maxs).expect("a valid pose")
}

/// Random boxes at the benchmark's density.
pub fn random_boxes(count: usize, seed: u64) -> World {
    RandomBoxes {
        seed,
        ..RandomBoxes::BENCHMARK.scaled(count)
    }
    .world()
}

/// Random convex brushes (hulls of 10 points) in a 400-unit cube.
pub fn convex_brushes(count: usize, seed: u64) -> World {
    let region = Aabb::new(DVec3::ZERO, DVec3::splat(400.0));
    World::from_brushes(random_convex_brushes(seed, count, region))
}

/// A floor of 4 x 4 touching slabs, walls of touching blocks, and a step.
pub fn touching_floors() -> World {
    let mut brushes = Vec::new();
    for i in 0..4 {
        for j in 0..4 {
            let (x, y) = (i as f64 * 128.0 - 256.0, j as f64 * 128.0 - 256.0);
            brushes.push(axial([x, y, -16.0], [x + 128.0, y + 128.0, 0.0]));
        }
    }
    for k in 0..4 {
        let y = k as f64 * 128.0 - 256.0;
        brushes.push(axial([256.0, y, 0.0], [272.0, y + 128.0, 128.0]));
        brushes.push(axial([-272.0, y, 0.0], [-256.0, y + 128.0, 128.0]));
    }
    brushes.push(axial([0.0, 0.0, 0.0], [64.0, 64.0, 18.0]));
    brushes.push(axial([-64.0, -128.0, 60.0], [64.0, 128.0, 76.0]));
    World::from_brushes(brushes)
}

/// Counts of a comparison.
#[derive(Debug, Default)]
pub struct Tally {
    pub traces: usize,
    pub hits: usize,
    pub start_solid: usize,
    /// Cases excluded by the contact-scale rule (see [`contact_scale`]).
    pub excluded: usize,
    /// Of those, moves sliding in a face across a pinch of the exact backend (see
    /// [`slides_through_a_pinch`]).
    pub pinches: usize,
    /// Traces the onion's free-space index certified as misses (each compared, bit for bit,
    /// with the answer of the same tree's walk).
    pub certified: usize,
    pub failures: Vec<String>,
}

/// Where the segment kinds come from.
#[derive(Debug, Clone, Copy)]
pub enum Start {
    /// Free for the exact backend.
    Empty,
    /// On a face of an expanded brush.
    OnFace,
    /// Anywhere (often inside solid).
    Anywhere,
}

/// Compares the onion backend with the exact one on `count` random segments per pose.
pub fn compare(world: &Arc<World>, poses: &[Pose], count: usize, seed: u64) -> Tally {
    let compiled = compile(world, poses, &CompileOptions::default()).expect("compiles");
    compare_with(world, compiled, poses, count, seed)
}

/// [`compare`] with a compiled tree.
pub fn compare_with(
    world: &Arc<World>,
    compiled: Compiled,
    poses: &[Pose],
    count: usize,
    seed: u64,
) -> Tally {
    let mut onion = WithContext::new(
        OnionCollider::from_compiled(world.clone(), compiled)
            .expect("the tree was compiled from this world"),
    );
    // The same tree without its free-space index: every answer must be the same, bit for bit.
    let mut walked = WithContext::new(
        OnionCollider::new(world.clone(), onion.tree().clone())
            .expect("the same world")
            .without_free_index(),
    );
    let mut exact = WithContext::new(ExactCollider::new(world.clone()));
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    let region = world.bounds().loosened(48.0);
    for pose in poses {
        let shape = shape(pose);
        let o = onion.prepare(&shape).expect("a compiled pose");
        let w = walked.prepare(&shape).expect("a compiled pose");
        let e = exact.prepare(&shape).unwrap();
        let Shape::Box(b) = shape else { unreachable!() };
        // A facet expanded by the point pose has no volume, and no face to start on.
        let expanded: Vec<Brush> = world
            .brushes()
            .iter()
            .filter_map(|wb| {
                let expanded = cspace_geom::expand::box_expanded_brush(&wb.brush, &b);
                assert!(expanded.is_ok() || wb.brush.is_flat(), "{expanded:?}");
                expanded.ok()
            })
            .collect();
        for i in 0..count {
            let kind = match i % 3 {
                0 => Start::Empty,
                1 => Start::OnFace,
                _ => Start::Anywhere,
            };
            let (start, end) = segment(&mut rng, &expanded, &shape, &region, kind, &mut exact);
            let certified = onion.counters().certified;
            let a = onion.trace(&o, start, end);
            let walk = walked.trace(&w, start, end);
            let b = exact.trace(&e, start, end);
            tally.traces += 1;
            tally.certified += (onion.counters().certified - certified) as usize;
            let bits = |h: &Hit| (h.fraction().to_bits(), h.end().to_array().map(f64::to_bits));
            if a != walk || bits(&a) != bits(&walk) {
                tally.failures.push(format!(
                    "{} {kind:?} {start:?} -> {end:?}: the free-space index changed the answer\n  \
                     indexed {a:?}\n  walked {walk:?}",
                    pose.name
                ));
            }
            tally.hits += usize::from(b.is_hit());
            tally.start_solid += usize::from(b.start_solid());
            if let Some(why) = differ(&a, &b) {
                if contact_scale(world, &shape, start, end) {
                    tally.excluded += 1;
                } else if slides_through_a_pinch(world, &shape, start, end, &b) {
                    tally.excluded += 1;
                    tally.pinches += 1;
                } else if tally.failures.len() < 20 {
                    tally.failures.push(format!(
                        "{} {kind:?} {start:?} -> {end:?}: {why}\n  onion {a:?}\n  exact {b:?}",
                        pose.name
                    ));
                } else {
                    tally.failures.push(String::new());
                }
            }
        }
    }
    tally
}

/// A random segment of the given kind.
fn segment(
    rng: &mut Rng,
    expanded: &[Brush],
    shape: &Shape,
    region: &Aabb,
    kind: Start,
    exact: &mut WithContext<ExactCollider>,
) -> (DVec3, DVec3) {
    let prepared = exact.prepare(shape).unwrap();
    let length = rng.range(1.0, 96.0);
    match kind {
        Start::Empty => loop {
            let start = rng.point_in(region);
            if !exact.is_solid(&prepared, start) {
                return (start, start + rng.unit_vector() * length);
            }
        },
        Start::Anywhere => {
            let start = rng.point_in(region);
            (start, start + rng.unit_vector() * length)
        }
        Start::OnFace => {
            let expanded = &expanded[rng.below(expanded.len())];
            let f = rng.below(expanded.face_count());
            let face = expanded.face_polygon(f);
            // A random point of the face: a random convex combination of its vertices.
            let weights: Vec<f64> = face.vertices.iter().map(|_| rng.next_f64()).collect();
            let total: f64 = weights.iter().sum();
            let start = face
                .vertices
                .iter()
                .zip(&weights)
                .map(|(v, w)| *v * (*w / total))
                .sum::<DVec3>();
            let direction = match rng.below(3) {
                // Sliding along the face.
                0 => {
                    let (u, v) = face.plane.basis();
                    let a = rng.range(0.0, std::f64::consts::TAU);
                    u * a.cos() + v * a.sin()
                }
                _ => rng.unit_vector(),
            };
            (start, start + direction * length)
        }
    }
}

pub use cspace_geom::touching::differ;

/// The documented exclusion, for contact-scale cases where the exact backend has seams that the
/// union does not: the segment's start or end lies within 1e-8 of two faces of the configuration
/// space (an edge, or the faces of two touching brushes), or the whole segment lies within 1e-8 of
/// a face shared by two touching brushes (sliding exactly in a seam).
pub fn contact_scale(world: &World, shape: &Shape, start: DVec3, end: DVec3) -> bool {
    let Shape::Box(b) = shape else { return false };
    let expanded: Vec<Vec<cspace_geom::Plane>> = world
        .brushes()
        .iter()
        .map(|wb| cspace_geom::expand::box_expanded_planes(&wb.brush, b))
        .collect();
    let on_two = [start, end].iter().any(|&p| {
        let mut near = 0;
        for planes in &expanded {
            if planes.iter().all(|q| q.signed_distance(p) < 1e-8) {
                near += planes
                    .iter()
                    .filter(|q| q.signed_distance(p).abs() < 1e-8)
                    .count();
            }
        }
        near >= 2
    });
    if on_two {
        return true;
    }
    // Planes (with their brush) the whole segment lies in.
    let mut lying: Vec<(usize, cspace_geom::Plane)> = Vec::new();
    for (i, planes) in expanded.iter().enumerate() {
        for q in planes {
            if q.signed_distance(start).abs() < 1e-8 && q.signed_distance(end).abs() < 1e-8 {
                lying.push((i, *q));
            }
        }
    }
    lying.iter().any(|(i, p)| {
        lying
            .iter()
            .any(|(j, q)| i != j && p.normal().dot(q.normal()) < -0.999_999)
    })
}

/// The exclusion of facets' seams: the move slides in a plane of the configuration space (every
/// point within 1e-8 of a face plane of an expanded brush), and where the exact backend enters
/// solid, it enters one expanded brush at the instant it leaves another (the touch point within
/// 1e-8 of the boundary of two expanded brushes). Neighbouring facets share vertices, so the
/// planes of their expansions through a shared vertex meet in lines that a move sliding in a
/// third facet's face crosses: the exact backend sees the two expansions touch there and leaves
/// one before entering the other (a pinch, with an entry), the union sees one solid.
pub fn slides_through_a_pinch(
    world: &World,
    shape: &Shape,
    start: DVec3,
    end: DVec3,
    exact: &Hit,
) -> bool {
    let (Shape::Box(b), Some(surface)) = (shape, exact.surface()) else {
        return false;
    };
    let expanded: Vec<Vec<cspace_geom::Plane>> = world
        .brushes()
        .iter()
        .map(|wb| cspace_geom::expand::box_expanded_planes(&wb.brush, b))
        .collect();
    let sliding = expanded
        .iter()
        .flatten()
        .any(|q| q.signed_distance(start).abs() < 1e-8 && q.signed_distance(end).abs() < 1e-8);
    if !sliding {
        return false;
    }
    let touch = start + (end - start) * surface.time_of_impact;
    let on_boundary = expanded
        .iter()
        .filter(|planes| {
            let depth = planes
                .iter()
                .map(|q| q.signed_distance(touch))
                .fold(f64::NEG_INFINITY, f64::max);
            depth.abs() < 1e-8
        })
        .count();
    on_boundary >= 2
}

/// Panics with the first failures unless there are none.
pub fn assert_agrees(name: &str, tally: &Tally) {
    eprintln!(
        "{name}: {} traces, {} hits, {} start in solid, {} excluded (contact scale; {} of them \
         sliding through a pinch), {} certified misses (the same answers as the walk's)",
        tally.traces, tally.hits, tally.start_solid, tally.excluded, tally.pinches, tally.certified
    );
    assert!(
        tally.failures.is_empty(),
        "{name}: {} disagreements; first:\n{}",
        tally.failures.len(),
        tally
            .failures
            .iter()
            .filter(|f| !f.is_empty())
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Where the parts of a saved tree lie (the layout of `io.rs`), for editing files.
pub struct Layout {
    /// The first pose.
    pub poses: usize,
    /// The first plane (normal x, y, z, distance: 32 bytes each).
    pub planes: usize,
    /// The first node (plane, front, back: 12 bytes each).
    pub nodes: usize,
    /// The first leaf (8 bytes each).
    pub leaves: usize,
}

impl Layout {
    /// The layout of `tree`'s bytes.
    pub fn of(tree: &OnionTree) -> Layout {
        // The header: magic 8, version 4, world fingerprint 8, four counts 16.
        let poses = 8 + 4 + 8 + 16;
        let planes = poses
            + tree
                .poses()
                .iter()
                .map(|p| 4 + p.name.len() + 48)
                .sum::<usize>();
        let nodes = planes + tree.planes().len() * 32;
        let leaves = nodes + tree.node_count() * 12;
        Layout {
            poses,
            planes,
            nodes,
            leaves,
        }
    }

    /// Plane `i`'s normal (its distance follows at `+ 24`).
    pub fn plane(&self, i: usize) -> usize {
        self.planes + i * 32
    }

    /// Node `i`'s plane index (its front child at `+ 4`, its back child at `+ 8`).
    pub fn node(&self, i: usize) -> usize {
        self.nodes + i * 12
    }

    /// Leaf `i`'s solidity.
    pub fn leaf(&self, i: usize) -> usize {
        self.leaves + i * 8
    }
}

/// The bytes with their checksum recomputed (an edit a checksum cannot catch).
pub fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len();
    let sum = cspace_onion::fnv1a64(&bytes[..n - 8]);
    bytes[n - 8..].copy_from_slice(&sum.to_le_bytes());
    bytes
}

/// Writes `value` at `at`.
pub fn put(bytes: &mut [u8], at: usize, value: &[u8]) {
    bytes[at..at + value.len()].copy_from_slice(value);
}
