//! Certified misses (issue 31, `free_index.rs`): a collider with its free-space indexes answers
//! every trace and point query exactly as the same tree answers without them, `==` on the whole
//! `Hit` (never a tolerance), for both bevel modes, spheres and cylinders: on the generated
//! worlds, random patches, lattice worlds of touching boxes (moves resting on faces, lying in the
//! planes of seams, through edges and corners, of zero length) and every corpus map. Segments:
//! random ones anywhere, free moves of the bench's lengths, moves between random points and
//! corners of the indexes' own boxes (what they certify), moves of zero length, and moves that
//! rest on the surface a walk found (from the touching position, along the hit plane).

use std::sync::Arc;

use cspace_geom::generate::{RandomBoxes, Rng, free_moves};
use cspace_geom::touching::{LatticeWorld, touching_segments};
use cspace_geom::{Collider, DVec3, FallThrough, QueryContext, Shape, World};
use cspace_melax::{BevelMode, MelaxCollider, MelaxTree, compile};
use cspace_onion::{CompileOptions, OnionCollider, Pose};

use crate::common::{self, NamedWorld};

/// The shapes with an index: the bench's sphere and cylinder, Quake's player box (not centred
/// on its origin), and smaller ones.
fn shapes() -> [Shape; 6] {
    [
        Shape::new_sphere(16.0).unwrap(),
        Shape::new_cylinder(16.0, 28.0).unwrap(),
        common::player(),
        Shape::new_sphere(3.0).unwrap(),
        Shape::new_cylinder(5.0, 2.0).unwrap(),
        Shape::new_box(
            glam::DVec3::new(-4.0, -3.0, -2.0),
            glam::DVec3::new(5.0, 4.0, 9.0),
        )
        .unwrap(),
    ]
}

/// What one comparison saw.
#[derive(Debug, Default)]
struct Seen {
    traces: u64,
    certified: u64,
    points: u64,
}

/// Traces `segments` with the index and without it, and checks the answers are equal, hit for
/// hit; point queries at both ends likewise.
fn agree(
    name: &str,
    indexed: &MelaxCollider,
    walked: &MelaxCollider,
    shape: &Shape,
    segments: &[(DVec3, DVec3)],
    seen: &mut Seen,
) {
    let (a, b) = (
        indexed.prepare(shape).unwrap(),
        walked.prepare(shape).unwrap(),
    );
    assert!(indexed.free_index(&a).is_some(), "{name}: no index");
    assert!(walked.free_index(&b).is_none());
    let (mut ca, mut cb) = (QueryContext::new(), QueryContext::new());
    for &(start, end) in segments {
        let (x, y) = (
            indexed.trace(&mut ca, &a, start, end),
            walked.trace(&mut cb, &b, start, end),
        );
        assert_eq!(
            x,
            y,
            "{name}, {}: {start} -> {end} ({start:?} -> {end:?})",
            shape.describe()
        );
        for p in [start, end] {
            assert_eq!(
                indexed.is_solid(&mut ca, &a, p),
                walked.is_solid(&mut cb, &b, p),
                "{name}, {}: point {p:?}",
                shape.describe()
            );
        }
    }
    assert_eq!(cb.counters.certified + cb.counters.fall_throughs, 0);
    assert_eq!(
        ca.counters.certified + ca.counters.fall_throughs,
        segments.len() as u64
    );
    seen.traces += segments.len() as u64;
    seen.certified += ca.counters.certified;
    seen.points += 2 * segments.len() as u64;
}

/// The segments of the module docs for `shape` in `world`, `count` of each kind.
fn segments(
    world: &Arc<World>,
    melax: &MelaxCollider,
    shape: &Shape,
    count: usize,
    seed: u64,
) -> Vec<(DVec3, DVec3)> {
    let mut rng = Rng::new(seed);
    let bounds = world.bounds().loosened(32.0);
    let mut out = Vec::new();
    // Anywhere, any length up to 80 units (some start in solid, some leave the grid).
    for _ in 0..count {
        let start = rng.point_in(&bounds);
        out.push((start, start + rng.unit_vector() * rng.range(0.0, 80.0)));
    }
    // The bench's moves: free starts, 10 to 50 units, half of them level.
    out.extend(free_moves(
        world,
        shape,
        &bounds,
        count,
        (10.0, 50.0),
        0.5,
        seed,
    ));
    // Inside the index's boxes: random points, corners, and zero-length moves.
    let prepared = melax.prepare(shape).unwrap();
    let boxes: Vec<[DVec3; 2]> = melax
        .free_index(&prepared)
        .expect("an index")
        .boxes()
        .collect();
    // (A world with no free space at the shape's size has none: a cube map of one brush.)
    for _ in 0..count * usize::from(!boxes.is_empty()) {
        let [lo, hi] = boxes[rng.below(boxes.len())];
        let inside = |rng: &mut Rng| {
            DVec3::new(
                rng.range(lo.x, hi.x),
                rng.range(lo.y, hi.y),
                rng.range(lo.z, hi.z),
            )
        };
        let corner = |rng: &mut Rng| {
            DVec3::new(
                [lo.x, hi.x][rng.below(2)],
                [lo.y, hi.y][rng.below(2)],
                [lo.z, hi.z][rng.below(2)],
            )
        };
        let start = inside(&mut rng);
        let segment = match rng.below(4) {
            0 => (start, inside(&mut rng)),
            1 => (corner(&mut rng), corner(&mut rng)),
            2 => (start, start),
            // Out of the box, a little or far.
            _ => (start, start + rng.unit_vector() * rng.range(0.0, 100.0)),
        };
        out.push(segment);
    }
    // Resting on the surface a walk found: from the touching position (the hit's end less the
    // skin) and from the end itself, along the hit plane, and into it.
    let mut ctx = QueryContext::new();
    let walked = melax.clone().without_free_index();
    let plain = walked.prepare(shape).unwrap();
    let probes = free_moves(world, shape, &bounds, count, (20.0, 120.0), 0.5, seed + 1);
    for (start, end) in probes {
        let hit = walked.trace(&mut ctx, &plain, start, end);
        let Some(surface) = hit.surface() else {
            continue;
        };
        let n = surface.plane.normal();
        let along = n.any_orthonormal_vector() * rng.range(1.0, 60.0);
        let touching = hit.end() - n * plain.skin();
        out.push((touching, touching + along));
        out.push((hit.end(), hit.end() + along));
        out.push((hit.end(), hit.end() - n));
        out.push((touching, touching));
    }
    out
}

/// Checks `named` for both bevel modes and every shape; returns what was seen.
fn check(named: &NamedWorld, count: usize, modes: &[BevelMode]) -> Seen {
    let mut seen = Seen::default();
    for &bevel in modes {
        let tree = Arc::new(compile(&named.world, bevel).unwrap());
        let indexed = MelaxCollider::new(named.world.clone(), tree.clone()).unwrap();
        let walked = MelaxCollider::new(named.world.clone(), tree.clone())
            .unwrap()
            .without_free_index();
        for (k, shape) in shapes().iter().enumerate() {
            let segments = segments(&named.world, &indexed, shape, count, 7 + k as u64);
            agree(&named.name, &indexed, &walked, shape, &segments, &mut seen);
        }
        memory_within_the_tree(&named.name, &indexed, &tree);
    }
    seen
}

/// Each index holds at most the tree's bytes.
fn memory_within_the_tree(name: &str, melax: &MelaxCollider, tree: &MelaxTree) {
    for index in melax.free_indexes() {
        assert!(
            index.memory_bytes() <= tree.memory_bytes().max(12),
            "{name}: index of {} bytes, tree of {}",
            index.memory_bytes(),
            tree.memory_bytes()
        );
    }
}

#[test]
fn certified_misses_are_the_walks_answers_in_generated_worlds() {
    let mut worlds = common::generated();
    worlds.push(common::patches());
    let mut seen = Seen::default();
    for named in &worlds {
        let s = check(named, 1500, &[BevelMode::PAPER, BevelMode::Exact]);
        // Every world gives the index work: a test that certified nothing would prove nothing.
        assert!(
            s.certified * 10 > s.traces,
            "{}: {} of {} certified",
            named.name,
            s.certified,
            s.traces
        );
        seen.traces += s.traces;
        seen.certified += s.certified;
        seen.points += s.points;
    }
    eprintln!("generated worlds: {seen:?}");
    assert!(seen.traces > 100_000, "{seen:?}");
}

/// Lattice worlds of touching boxes: rests on faces, seams, moves in the planes of faces and of
/// the tree's splits, through edges and corners, zero-length moves (geom's `touching`).
#[test]
fn certified_misses_are_the_walks_answers_on_touching_configurations() {
    let mut seen = Seen::default();
    for seed in 0..6 {
        let lattice = LatticeWorld::generate(seed);
        let world = Arc::new(lattice.world());
        for bevel in [BevelMode::PAPER, BevelMode::Exact] {
            let tree = Arc::new(compile(&world, bevel).unwrap());
            let indexed = MelaxCollider::new(world.clone(), tree.clone()).unwrap();
            let walked = MelaxCollider::new(world.clone(), tree)
                .unwrap()
                .without_free_index();
            for shape in shapes().iter().chain(&[
                Shape::new_sphere(8.0).unwrap(),
                Shape::new_cylinder(8.0, 16.0).unwrap(),
            ]) {
                let mut rng = Rng::new(seed * 17 + 3);
                let segments = touching_segments(&lattice, &mut rng, 1000, false);
                agree(
                    &format!("lattice {seed}, {bevel:?}"),
                    &indexed,
                    &walked,
                    shape,
                    &segments,
                    &mut seen,
                );
            }
        }
    }
    eprintln!("lattice worlds: {seen:?}");
    assert!(seen.certified * 20 > seen.traces, "{seen:?}");
}

/// Every corpus map, both bevel modes (skipped by name when `CSPACE_MAPS` is unset).
#[test]
fn certified_misses_are_the_walks_answers_on_the_corpus() {
    let Some(maps) = common::corpus("certified_misses_are_the_walks_answers_on_the_corpus") else {
        return;
    };
    let mut seen = Seen::default();
    for named in &maps {
        let s = check(named, 400, &[BevelMode::PAPER, BevelMode::Exact]);
        seen.traces += s.traces;
        seen.certified += s.certified;
        seen.points += s.points;
    }
    eprintln!("corpus: {seen:?}");
    assert!(seen.certified * 5 > seen.traces, "{seen:?}");
}

/// A flat box and a point get no index (their walks answer), a full box does; a shape
/// prepared past the limit of indexed shapes gets none either, with the same answers.
#[test]
fn only_spheres_cylinders_and_full_boxes_get_an_index_and_at_most_eight() {
    let named = common::room();
    let tree = Arc::new(compile(&named.world, BevelMode::PAPER).unwrap());
    let melax = MelaxCollider::new(named.world.clone(), tree.clone()).unwrap();
    let flat = Shape::new_box(
        glam::DVec3::new(-16.0, -16.0, 0.0),
        glam::DVec3::new(16.0, 16.0, 0.0),
    )
    .unwrap();
    for shape in [flat, Shape::POINT] {
        let prepared = melax.prepare(&shape).unwrap();
        assert!(melax.free_index(&prepared).is_none(), "{shape:?}");
    }
    let player = melax.prepare(&common::player()).unwrap();
    assert!(melax.free_index(&player).is_some());
    // The player's index is the first of the eight.
    let radii: Vec<f64> = (1..=10).map(f64::from).collect();
    for (k, &r) in radii.iter().enumerate() {
        let prepared = melax.prepare(&Shape::new_sphere(r).unwrap()).unwrap();
        assert_eq!(
            melax.free_index(&prepared).is_some(),
            k + 1 < cspace_melax::free_index::MAX_INDEXED_SHAPES
        );
    }
    // The same shape again finds its index.
    let again = melax.prepare(&Shape::new_sphere(1.0).unwrap()).unwrap();
    assert!(melax.free_index(&again).is_some());
    assert_eq!(
        melax.free_indexes().count(),
        cspace_melax::free_index::MAX_INDEXED_SHAPES
    );
}

/// Over thousands of random moves of a random world, from inside the indexes' grids and beyond
/// them, every trace that Melax's index (sphere, player box) or the onion's (player box) does not
/// certify falls through for exactly one reason: trace by trace, a trace is certified or counted
/// once with one reason, the reasons sum to the fall-throughs, and each reason occurs. (The
/// onion's index is checked here too, beside Melax's, with the same loop: this crate depends on
/// the onion's.)
#[test]
fn every_fall_through_has_one_reason_in_melax_and_the_onion() {
    let world = Arc::new(
        RandomBoxes {
            count: 200,
            extent: 500.0,
            ..RandomBoxes::BENCHMARK
        }
        .world(),
    );
    let melax = MelaxCollider::new(
        world.clone(),
        Arc::new(compile(&world, BevelMode::PAPER).unwrap()),
    )
    .unwrap();
    let standing = Pose::quake_standing();
    let compiled = cspace_onion::compile(
        &world,
        std::slice::from_ref(&standing),
        &CompileOptions::default(),
    )
    .unwrap();
    let onion = OnionCollider::from_compiled(world.clone(), compiled).unwrap();
    let runs: [(&dyn Collider, Shape); 3] = [
        (&melax, Shape::new_sphere(16.0).unwrap()),
        (&melax, common::player()),
        (&onion, Shape::from(&standing)),
    ];
    // Some starts beyond the grids, which cover the brushes' bounds grown by the shape's.
    let bounds = world.bounds().loosened(64.0);
    for (collider, shape) in runs {
        let name = format!("{}, {}", collider.name(), shape.describe());
        let prepared = collider.prepare(&shape).unwrap();
        let mut ctx = QueryContext::new();
        let mut rng = Rng::new(31);
        for _ in 0..4000 {
            let from = rng.point_in(&bounds);
            let to = from + rng.unit_vector() * rng.range(1.0, 120.0);
            let before = ctx.counters;
            collider.trace(&mut ctx, &prepared, from, to);
            let after = ctx.counters;
            let certified = after.certified - before.certified;
            let fell = after.fall_throughs - before.fall_throughs;
            let reasons = after.fall_through_reasons.total() - before.fall_through_reasons.total();
            assert_eq!(
                (certified + fell, reasons),
                (1, fell),
                "{name}: {from} -> {to}"
            );
        }
        let counters = ctx.counters;
        let reasons = counters.fall_through_reasons;
        assert_eq!(
            reasons.total(),
            counters.fall_throughs,
            "{name}: {counters}"
        );
        for reason in [
            FallThrough::OutsideGrid,
            FallThrough::NoBox,
            FallThrough::StartOutside,
            FallThrough::EndOutside,
        ] {
            assert!(reasons.of(reason) > 0, "{name}: no {reason:?}: {counters}");
        }
        assert!(counters.certified > 0, "{name}: {counters}");
        eprintln!("{name}: {counters}");
    }
}
