//! Line of sight against the exact backend's trace of the sight cube (`Pose::sight`, half side
//! 1/32): visible exactly when the trace neither starts in solid nor hits, on random segments,
//! short free ones, and ones grazing box faces; and curved walls (patch facets) block it.

use std::sync::Arc;

use cspace_geom::generate::{Rng, free_moves};
use cspace_geom::tolerance::SIGHT_HALF;
use cspace_geom::{Collider, DVec3, ExactCollider, Shape, WithContext, World};
use cspace_nav::{LineOfSight, NavContext};
use cspace_onion::{CompileOptions, Pose, compile};

use crate::common::{nav, random_world};

/// The segments of a world: random ones anywhere around it, short ones starting free, and ones
/// lying on faces of its axial boxes grown by the sight cube (grazing: touching is free).
pub fn segments(world: &Arc<World>, count: usize, seed: u64) -> Vec<(DVec3, DVec3)> {
    let mut rng = Rng::new(seed);
    let bounds = world.bounds().loosened(64.0);
    let mut out = Vec::with_capacity(count);
    for _ in 0..count / 3 {
        out.push((rng.point_in(&bounds), rng.point_in(&bounds)));
    }
    // Maps mostly solid inside their bounds may give fewer.
    out.extend(free_moves(
        world,
        &Shape::from(&Pose::sight()),
        &world.bounds(),
        count / 3,
        (1.0, 200.0),
        0.0,
        seed,
    ));
    let axial: Vec<_> = world
        .brushes()
        .iter()
        .map(|b| &b.brush)
        .filter(|b| b.box_planes().len() == 6)
        .collect();
    while out.len() < count && !axial.is_empty() {
        let b = axial[rng.below(axial.len())].bounds();
        // A point on a face of the cube's space (the face moved out by the cube's half side),
        // moving along that face (or out of it, or into it).
        let axis = rng.below(3);
        let mut a = rng.point_in(&b);
        a[axis] = if rng.below(2) == 0 {
            b.min[axis] - SIGHT_HALF
        } else {
            b.max[axis] + SIGHT_HALF
        };
        let mut d = DVec3::ZERO;
        match rng.below(4) {
            0 => d[axis] = rng.range(-64.0, 64.0),
            _ => d[(axis + 1 + rng.below(2)) % 3] = rng.range(-200.0, 200.0),
        }
        out.push((a, a + d));
    }
    out
}

/// What comparing line of sight with the exact trace of the sight cube found.
#[derive(Debug, Default)]
pub struct Tally {
    /// Segments compared.
    pub segments: usize,
    /// Segments the exact trace finds blocked.
    pub blocked: usize,
    /// Disagreements excluded by the contact-scale rule ([`contact_scale`]).
    pub excluded: usize,
    /// Other disagreements.
    pub disagreements: usize,
}

/// Compares `los` with the exact trace of the sight cube over `segments`, printing the first
/// few disagreements.
pub fn compare(
    name: &str,
    world: &Arc<World>,
    los: &LineOfSight,
    segments: &[(DVec3, DVec3)],
) -> Tally {
    let mut exact = WithContext::new(ExactCollider::new(world.clone()));
    let point = exact.prepare(&Shape::from(&Pose::sight())).unwrap();
    let mut ctx = NavContext::new();
    let mut tally = Tally::default();
    for &(a, b) in segments {
        let hit = exact.trace(&point, a, b);
        let clear = !hit.start_solid() && !hit.is_hit();
        tally.segments += 1;
        tally.blocked += usize::from(!clear);
        if los.visible(a, b, &mut ctx) != clear {
            if contact_scale(world, a, b) {
                tally.excluded += 1;
                continue;
            }
            tally.disagreements += 1;
            if tally.disagreements <= 5 {
                eprintln!(
                    "{name}: {a} -> {b}: exact {hit:?}, line of sight {}",
                    !clear
                );
            }
        }
    }
    tally
}

/// The onion's documented exclusion (`crates/onion/tests/it/common.rs`, `contact_scale`;
/// ARCHITECTURE.md, "Zero-clearance gaps"), for a point: a contact-scale case where the exact
/// backend, judging each brush alone, has a seam that the tree's union of the brushes has not.
/// The segment's start or end lies within 1e-8 of two faces (an edge, or the faces of two
/// touching brushes), or the whole segment lies within 1e-8 of a face shared by two touching
/// brushes (grazing exactly in a seam).
pub fn contact_scale(world: &World, start: DVec3, end: DVec3) -> bool {
    const NEAR: f64 = 1e-8;
    let planes: Vec<Vec<cspace_geom::Plane>> = world
        .brushes()
        .iter()
        .map(|wb| wb.brush.planes().collect())
        .collect();
    let on_two = [start, end].iter().any(|&p| {
        let mut near = 0;
        for brush in &planes {
            if brush.iter().all(|q| q.signed_distance(p) < NEAR) {
                near += brush
                    .iter()
                    .filter(|q| q.signed_distance(p).abs() < NEAR)
                    .count();
            }
        }
        near >= 2
    });
    if on_two {
        return true;
    }
    let mut lying: Vec<(usize, cspace_geom::Plane)> = Vec::new();
    for (i, brush) in planes.iter().enumerate() {
        for q in brush {
            if q.signed_distance(start).abs() < NEAR && q.signed_distance(end).abs() < NEAR {
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

#[test]
fn line_of_sight_agrees_with_the_exact_trace_of_the_sight_cube() {
    for seed in [1, 2, 3] {
        let world = random_world(seed, 200, 500.0);
        let tree = compile(&world, &[Pose::sight()], &CompileOptions::default())
            .unwrap()
            .tree;
        let los = LineOfSight::new(&tree, 0).unwrap();
        let segments = segments(&world, 30_000, seed);
        let blocked = {
            let mut ctx = NavContext::new();
            segments
                .iter()
                .filter(|(a, b)| !los.visible(*a, *b, &mut ctx))
                .count()
        };
        assert!(
            blocked > 5_000 && blocked < 25_000,
            "a test of both answers: {blocked}"
        );
        let tally = compare("random boxes", &world, &los, &segments);
        assert_eq!(tally.disagreements, 0, "seed {seed}: {tally:?}");
    }
}

#[test]
fn the_navigation_graphs_line_of_sight_agrees_too() {
    // The sight space of the tree of three poses: split by the boxes' planes as well.
    let world = random_world(4, 120, 400.0);
    let (_, nav) = nav(&world);
    let los = nav.line_of_sight().expect("the tree has the sight pose");
    assert_eq!(los.space(), 2);
    let segments = segments(&world, 20_000, 4);
    let tally = compare("three poses", &world, los, &segments);
    assert_eq!(tally.disagreements, 0, "{tally:?}");
}

#[test]
fn degenerate_segments_ask_the_point_query() {
    let world = random_world(5, 40, 300.0);
    let tree = compile(&world, &[Pose::sight()], &CompileOptions::default())
        .unwrap()
        .tree;
    let los = LineOfSight::new(&tree, 0).unwrap();
    let mut ctx = NavContext::new();
    let mut rng = Rng::new(6);
    for _ in 0..2000 {
        let p = rng.point_in(&world.bounds());
        assert_eq!(los.visible(p, p, &mut ctx), !tree.is_solid(0, p), "{p}");
    }
    assert!(!los.visible(DVec3::NAN, DVec3::ZERO, &mut ctx));
    assert!(!los.visible(DVec3::ZERO, DVec3::INFINITY, &mut ctx));
    assert!(LineOfSight::new(&tree, 1).is_err());
}

/// Curved walls block the line of sight: on a world of patches (terrain, arches, pipes, cones
/// and sheets, tessellated at 4 units), the sight cube's line of sight agrees with the exact
/// trace of the cube, and where that trace is blocked by a facet only (the exact point trace
/// passes: a facet has no interior) the line of sight is blocked too, while the point's line of
/// sight sees through.
#[test]
fn curved_walls_block_the_line_of_sight() {
    use cspace_geom::generate::RandomPatches;
    use cspace_geom::patch::TessellationOptions;
    let world = Arc::new(RandomPatches::TEST.world(&TessellationOptions::new(4.0).unwrap()));
    let tree = compile(
        &world,
        &[Pose::sight(), Pose::point()],
        &CompileOptions::default(),
    )
    .unwrap()
    .tree;
    let (sight, point) = (
        LineOfSight::new(&tree, 0).unwrap(),
        LineOfSight::new(&tree, 1).unwrap(),
    );
    let segments = segments(&world, 30_000, 7);
    let tally = compare("patches", &world, &sight, &segments);
    assert_eq!(tally.disagreements, 0, "{tally:?}");
    let mut exact = WithContext::new(ExactCollider::new(world.clone()));
    let ray = exact.prepare(&Shape::POINT).unwrap();
    let mut ctx = NavContext::new();
    let mut through_facets = 0;
    for &(a, b) in &segments {
        let hit = exact.trace(&ray, a, b);
        if hit.start_solid() || hit.is_hit() || sight.visible(a, b, &mut ctx) {
            continue;
        }
        // Clear for a point, blocked for the cube: a facet, or a brush passed within 1/32.
        if point.visible(a, b, &mut ctx) {
            through_facets += 1;
        }
    }
    eprintln!(
        "patch world: of {} segments, {through_facets} block the cube and not the point",
        segments.len()
    );
    assert!(
        through_facets > 2_000,
        "the point sees through curved walls on {through_facets} segments: a test of them"
    );
}

/// A depth ray's fraction ([`LineOfSight::first_blocked`]) is the exact backend's time of impact
/// of the sight cube, and it is `None` exactly when the segment is visible: on random segments,
/// short free ones and ones grazing faces.
#[test]
fn first_blocked_is_the_time_of_impact_of_the_sight_cube() {
    let world = random_world(9, 40, 300.0);
    let tree = compile(&world, &[Pose::sight()], &CompileOptions::default())
        .unwrap()
        .tree;
    let los = LineOfSight::new(&tree, 0).unwrap();
    let mut exact = WithContext::new(ExactCollider::new(world.clone()));
    let cube = exact.prepare(&Shape::from(&Pose::sight())).unwrap();
    let mut ctx = NavContext::new();
    let (mut hits, mut compared) = (0, 0);
    for (a, b) in segments(&world, 6_000, 10) {
        let blocked = los.first_blocked(a, b, &mut ctx);
        assert_eq!(blocked.is_none(), los.visible(a, b, &mut ctx), "{a} -> {b}");
        let hit = exact.trace(&cube, a, b);
        if hit.start_solid() || contact_scale(&world, a, b) {
            continue;
        }
        compared += 1;
        match (hit.surface(), blocked) {
            (Some(surface), Some(f)) => {
                hits += 1;
                let apart = (f - surface.time_of_impact).abs() * a.distance(b);
                assert!(
                    apart < 1e-6,
                    "{a} -> {b}: blocked at {f}, exact time of impact {} ({apart} units apart)",
                    surface.time_of_impact
                );
            }
            (None, None) => {}
            (exact, sight) => panic!("{a} -> {b}: exact {exact:?}, line of sight {sight:?}"),
        }
    }
    assert!(
        hits > 500,
        "{hits} of {compared} segments blocked: a test of the fraction"
    );
    assert_eq!(
        los.first_blocked(DVec3::NAN, DVec3::ZERO, &mut ctx),
        Some(0.0)
    );
}
