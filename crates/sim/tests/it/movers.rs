//! Movers in every backend (issue 32): the static world and each mover's own structure, traced
//! each in its frame and merged as `SV_ClipMoveToEntities` merges ([`Scene`]).
//!
//! 1. The composition is exact: on the exact reference, a scene of the world and its movers at
//!    random places answers as the exact reference on one world holding the movers' brushes
//!    moved there, for moves that start free (every shape; touching and sliding along the
//!    movers' faces, movers flush with the floor and a wall: the seams). Both say alike whether a
//!    move starts in solid; a move that does leaves each entity's solid on its own, as in Quake
//!    (`SV_ClipMoveToEntities`), so it may stop where one mover's solid meets another's.
//! 2. Every backend's scene agrees with the exact reference's scene, on random movers, places
//!    and moves (free starts, starts on faces, starts anywhere): the k-UDOP cache bit for bit,
//!    the onion and Melax's exact bevels within the onion agreement tests' criteria (contact-
//!    scale cases excluded and counted). Melax's paper bevels are approximate near edges and
//!    corners by design (`docs/melax.md`) and are measured there, not here.

use std::sync::Arc;

use cspace_entities::{Activation, BinaryMotion, Motion, Mover, MoverKind};
use cspace_geom::generate::{Rng, agent_shapes};
use cspace_geom::touching::differ;
use cspace_geom::{
    Aabb, Brush, Collider, DVec3, ExactCollider, QueryContext, Shape, World, WorldBrush,
};
use cspace_sim::{BackendKind, Models, Scene};

fn cube(min: DVec3, max: DVec3) -> Brush {
    Brush::from_aabb(Aabb::new(min, max)).unwrap()
}

/// A mover of `brushes` (nothing else about it matters to traces).
fn mover(brushes: Vec<Brush>) -> Mover {
    // Solid brushes numbered in order, as a world of them holds them.
    let world = World::from_brushes(brushes);
    let bounds = world.bounds();
    let brushes = world.brushes().to_vec();
    Mover {
        entity: 1,
        line: 1,
        classname: "func_door".into(),
        kind: MoverKind::Door,
        brushes,
        bounds,
        targetname: None,
        target: None,
        killtarget: None,
        delay: 0.0,
        speed: 100.0,
        crusher: false,
        motion: Motion::Binary(BinaryMotion {
            pos1: DVec3::ZERO,
            pos2: DVec3::ZERO,
            wait: 0.0,
            toggle: false,
            starts_at_pos2: false,
        }),
        activation: Activation::Field,
        team: 0,
        spawn_offset: DVec3::ZERO,
        flags: 0,
        team_key: None,
    }
}

/// A generated world: a floor, a wall, random boxes; and movers: one flush on the floor, one flush
/// against the wall, and random ones (one or two boxes each) at random places. Returns the world,
/// the movers and their offsets.
fn generated(seed: u64) -> (Arc<World>, Vec<Mover>, Vec<DVec3>) {
    let mut rng = Rng::new(seed);
    let mut statics = vec![
        cube(
            DVec3::new(-512.0, -512.0, -16.0),
            DVec3::new(512.0, 512.0, 0.0),
        ),
        cube(
            DVec3::new(200.0, -512.0, 0.0),
            DVec3::new(216.0, 512.0, 256.0),
        ),
    ];
    let region = Aabb::new(
        DVec3::new(-480.0, -480.0, 0.0),
        DVec3::new(480.0, 480.0, 200.0),
    );
    for _ in 0..24 {
        let c = rng.point_in(&region);
        let h = DVec3::new(
            rng.range(4.0, 40.0),
            rng.range(4.0, 40.0),
            rng.range(4.0, 40.0),
        );
        statics.push(cube(c - h, c + h));
    }
    let mut movers = vec![
        // Flush on the floor, and moved along it (offsets keep z = 0).
        mover(vec![cube(
            DVec3::new(-100.0, -100.0, 0.0),
            DVec3::new(-60.0, 100.0, 96.0),
        )]),
        // Flush against the wall's face x = 200, and on the floor.
        mover(vec![cube(
            DVec3::new(184.0, -50.0, 0.0),
            DVec3::new(200.0, 50.0, 128.0),
        )]),
    ];
    let mut offsets = vec![
        DVec3::new(rng.range(-64.0, 64.0), rng.range(-64.0, 64.0), 0.0),
        DVec3::new(0.0, rng.range(-64.0, 64.0), 0.0),
    ];
    for _ in 0..6 {
        let parts = 1 + rng.below(2);
        let c = rng.point_in(&region);
        let brushes = (0..parts)
            .map(|_| {
                let at = c + rng.unit_vector() * rng.range(0.0, 24.0);
                let h = DVec3::new(
                    rng.range(4.0, 48.0),
                    rng.range(4.0, 48.0),
                    rng.range(4.0, 48.0),
                );
                cube(at - h, at + h)
            })
            .collect();
        movers.push(mover(brushes));
        offsets.push(rng.unit_vector() * rng.range(0.0, 200.0));
    }
    (Arc::new(World::from_brushes(statics)), movers, offsets)
}

/// The world with the movers' brushes moved to their offsets (the reference's one world).
fn union(world: &World, movers: &[Mover], offsets: &[DVec3]) -> Arc<World> {
    let mut brushes: Vec<WorldBrush> = world.brushes().to_vec();
    for (m, o) in movers.iter().zip(offsets) {
        for b in &m.brushes {
            let planes: Vec<_> = b.brush.planes().map(|p| p.translated(*o)).collect();
            brushes.push(WorldBrush {
                brush: Brush::from_planes(&planes).unwrap(),
                ..b.clone()
            });
        }
    }
    Arc::new(World::new(brushes))
}

/// The scene of `kind` over `world` and `movers` at `offsets`, for `shapes`.
fn scene(
    kind: BackendKind,
    world: &Arc<World>,
    movers: &[Mover],
    offsets: &[DVec3],
    shapes: &[Shape],
) -> Scene {
    let inner = kind
        .build_for(world, shapes)
        .unwrap()
        .expect("takes the shapes");
    let models = Models::build(kind, movers, shapes)
        .unwrap()
        .expect("takes the shapes");
    let mut scene = Scene::new(inner, Arc::new(models));
    for (m, o) in offsets.iter().enumerate() {
        scene.set_offset(m, *o);
    }
    scene
}

/// How a segment starts.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Start {
    /// Anywhere free.
    Free,
    /// On a face of a mover's brush grown by the shape's bounds, sliding along it or leaving in
    /// any direction: touching, and the seams of movers flush with the world.
    OnMoverFace,
    /// Anywhere (often in solid).
    Anywhere,
}

/// A random segment starting as `kind` says, for `shape`.
fn segment(
    rng: &mut Rng,
    kind: Start,
    shape: &Shape,
    movers: &[Mover],
    offsets: &[DVec3],
    reference: &(impl Collider + ?Sized),
    ctx: &mut QueryContext,
) -> (DVec3, DVec3) {
    let region = Aabb::new(
        DVec3::new(-540.0, -540.0, -40.0),
        DVec3::new(540.0, 540.0, 300.0),
    );
    let prepared = reference.prepare(shape).unwrap();
    let length = rng.range(1.0, 160.0);
    loop {
        let (start, direction) = match kind {
            Start::Free | Start::Anywhere => (rng.point_in(&region), rng.unit_vector()),
            Start::OnMoverFace => {
                let m = rng.below(movers.len());
                let b = &movers[m].brushes[rng.below(movers[m].brushes.len())];
                let bounds = shape.bounds();
                let grown = b.brush.bounds().translated(offsets[m]);
                let grown = Aabb::new(grown.min - bounds.max, grown.max - bounds.min);
                let mut p = rng.point_in(&grown);
                let axis = rng.below(3);
                let high = rng.below(2) == 1;
                p[axis] = if high {
                    grown.max[axis]
                } else {
                    grown.min[axis]
                };
                let mut d = rng.unit_vector();
                if rng.below(2) == 0 {
                    d[axis] = 0.0;
                    d = d.normalize_or(DVec3::X);
                }
                (p, d)
            }
        };
        if kind == Start::Anywhere || !reference.is_solid(ctx, &prepared, start) {
            return (start, start + direction * length);
        }
    }
}

/// A contact-scale case: the start or end within 1e-8 of two faces of the world's brushes
/// grown by the box (an edge, or the faces of two brushes touching), or the segment lying within
/// 1e-8 of two opposite faces (sliding in a seam): where the onion's union of each tree's
/// brushes closes what the exact reference's brush-by-brush test leaves open (ARCHITECTURE.md,
/// "Zero-clearance gaps").
fn contact_scale(world: &World, shape: &Shape, start: DVec3, end: DVec3) -> bool {
    let Shape::Box(b) = shape else { return false };
    let expanded: Vec<Vec<cspace_geom::Plane>> = world
        .brushes()
        .iter()
        .map(|wb| cspace_geom::expand::box_expanded_planes(&wb.brush, b))
        .collect();
    let near = |p: DVec3| {
        expanded
            .iter()
            .filter(|planes| planes.iter().all(|q| q.signed_distance(p) < 1e-8))
            .map(|planes| {
                planes
                    .iter()
                    .filter(|q| q.signed_distance(p).abs() < 1e-8)
                    .count()
            })
            .sum::<usize>()
    };
    if near(start) >= 2 || near(end) >= 2 {
        return true;
    }
    let lying: Vec<cspace_geom::Plane> = expanded
        .iter()
        .flatten()
        .filter(|q| q.signed_distance(start).abs() < 1e-8 && q.signed_distance(end).abs() < 1e-8)
        .copied()
        .collect();
    lying.iter().any(|p| {
        lying
            .iter()
            .any(|q| p.normal().dot(q.normal()) < -0.999_999)
    })
}

/// Claim 1: the exact reference's scene answers as the exact reference on the one world, for every
/// shape, from free starts and starts on the movers' faces (a start touching a face and moving
/// into it is in solid for both; from there on Quake's merge differs by design, see below).
#[test]
fn the_exact_scene_is_the_exact_reference_on_the_moved_world() {
    let shapes = agent_shapes();
    for seed in [1, 2, 3] {
        let (world, movers, offsets) = generated(seed);
        let one = ExactCollider::new(union(&world, &movers, &offsets));
        let scene = scene(BackendKind::Exact, &world, &movers, &offsets, &shapes);
        let mut ctx = QueryContext::new();
        let mut rng = Rng::new(seed * 77);
        let (mut traces, mut hits, mut mover_hits, mut started_solid) = (0, 0, 0, 0);
        for shape in &shapes {
            let (s, o) = (scene.prepare(shape).unwrap(), one.prepare(shape).unwrap());
            for i in 0..6000 {
                let kind = if i % 2 == 0 {
                    Start::Free
                } else {
                    Start::OnMoverFace
                };
                let (start, end) =
                    segment(&mut rng, kind, shape, &movers, &offsets, &one, &mut ctx);
                let a = scene.trace(&mut ctx, &s, start, end);
                let b = one.trace(&mut ctx, &o, start, end);
                assert_eq!(
                    a.start_solid(),
                    b.start_solid(),
                    "{start} -> {end}: start in solid"
                );
                if b.start_solid() {
                    // Touching a face and moving into it. From inside solid, each entity's trace
                    // leaves its own solid alone (Quake's semantics): a move from one mover's
                    // solid into the world's solid it overlaps is blocked there, where the one
                    // world sees one solid region.
                    started_solid += 1;
                    continue;
                }
                traces += 1;
                hits += usize::from(b.is_hit());
                mover_hits += usize::from(
                    a.surface()
                        .is_some_and(|h| scene.mover_of_brush(h.brush).is_some()),
                );
                if let Some(why) = differ(&a, &b) {
                    panic!(
                        "seed {seed} {} {kind:?} {start} -> {end}: {why}\n  scene {a:?}\n  one world {b:?}",
                        shape.describe()
                    );
                }
                assert_eq!(
                    scene.is_solid(&mut ctx, &s, end),
                    one.is_solid(&mut ctx, &o, end),
                    "point query at {end}"
                );
            }
        }
        assert!(
            hits > traces / 4 && mover_hits > traces / 10 && started_solid < traces / 10,
            "{hits} hits, {mover_hits} on movers of {traces} ({started_solid} started in solid)"
        );
    }
}

/// Claim 2: each backend's scene against the exact reference's, on the same random movers and
/// places.
#[test]
fn every_backends_scene_agrees_with_the_exact_scene() {
    let boxes = [
        agent_shapes()[0].clone(),
        Shape::new_box(
            DVec3::new(-16.0, -16.0, -24.0),
            DVec3::new(16.0, 16.0, 16.0),
        )
        .unwrap(),
    ];
    let all = agent_shapes();
    for seed in [4, 5] {
        let (world, movers, offsets) = generated(seed);
        for kind in [
            BackendKind::UdopExact,
            BackendKind::Onion,
            BackendKind::MelaxExact,
        ] {
            let shapes: &[Shape] = if kind == BackendKind::UdopExact {
                &all
            } else {
                &boxes
            };
            let tally = compare(kind, seed, &world, &movers, &offsets, shapes);
            assert!(
                tally.scene.is_empty(),
                "seed {seed}, {}: {} of {} differ ({} contact-scale excluded):\n{}",
                kind.name(),
                tally.scene.len(),
                tally.traces,
                tally.excluded,
                tally.scene[..tally.scene.len().min(8)].join("\n")
            );
            assert!(
                tally.excluded * 100 < tally.traces,
                "{} of {} excluded",
                tally.excluded,
                tally.traces
            );
            assert!(
                tally.mover_hits * 20 > tally.traces,
                "{} of {} on movers",
                tally.mover_hits,
                tally.traces
            );
        }
    }
}

/// Claim 3: where a backend is approximate by design (Melax's paper bevels for every shape, and either
/// bevel mode for spheres and cylinders, `docs/melax.md`), movers make it no worse: its scene
/// differs from the exact reference's scene on no more moves than the same backend built on the
/// one world holding the moved brushes differs from it (plus 2 %, the two trees' bevels near the
/// seams being their own), on the same moves.
#[test]
fn approximate_backends_are_no_worse_with_movers() {
    let all = agent_shapes();
    for seed in [4, 5] {
        let (world, movers, offsets) = generated(seed);
        for kind in [BackendKind::Melax, BackendKind::MelaxExact] {
            let tally = compare(kind, seed, &world, &movers, &offsets, &all);
            eprintln!(
                "seed {seed}, {}: the scene differs from the exact scene on {} of {} moves, \
                 the backend on the one world on {}",
                kind.name(),
                tally.scene.len(),
                tally.traces,
                tally.one_world
            );
            assert!(
                tally.scene.len() <= tally.one_world + tally.traces / 50,
                "seed {seed}, {}: {} of {} differ, {} on the one world:\n{}",
                kind.name(),
                tally.scene.len(),
                tally.traces,
                tally.one_world,
                tally.scene[..tally.scene.len().min(8)].join("\n")
            );
            assert!(
                tally.mover_hits * 20 > tally.traces,
                "{} of {} on movers",
                tally.mover_hits,
                tally.traces
            );
        }
    }
}

/// What [`compare`] found.
#[derive(Debug, Default)]
struct Tally {
    traces: usize,
    /// Moves the exact scene stops on a mover's brush.
    mover_hits: usize,
    /// Contact-scale cases excluded from `scene`.
    excluded: usize,
    /// Moves where the backend's scene differs from the exact scene (described).
    scene: Vec<String>,
    /// Moves where the backend built on the one world differs from the exact scene, starting
    /// free (from inside solid Quake's merge differs from one world by design).
    one_world: usize,
}

/// `kind`'s scene against the exact reference's scene on 6,000 moves per shape (free starts,
/// starts on a mover's face, starts anywhere), and the backend built on the one world on the same
/// moves.
fn compare(
    kind: BackendKind,
    seed: u64,
    world: &Arc<World>,
    movers: &[Mover],
    offsets: &[DVec3],
    shapes: &[Shape],
) -> Tally {
    let exact = scene(BackendKind::Exact, world, movers, offsets, shapes);
    let other = scene(kind, world, movers, offsets, shapes);
    let one = union(world, movers, offsets);
    let whole = kind
        .build_for(&one, shapes)
        .unwrap()
        .expect("takes the shapes");
    let mut ctx = QueryContext::new();
    let mut rng = Rng::new(seed * 31 + kind as u64);
    let mut tally = Tally::default();
    for shape in shapes {
        let (e, o, w) = (
            exact.prepare(shape).unwrap(),
            other.prepare(shape).unwrap(),
            whole.prepare(shape).unwrap(),
        );
        for i in 0..6000 {
            let start = [Start::Free, Start::OnMoverFace, Start::Anywhere][i % 3];
            let (a, b) = segment(&mut rng, start, shape, movers, offsets, &exact, &mut ctx);
            let x = exact.trace(&mut ctx, &e, a, b);
            let y = other.trace(&mut ctx, &o, a, b);
            tally.traces += 1;
            tally.mover_hits += usize::from(
                x.surface()
                    .is_some_and(|h| exact.mover_of_brush(h.brush).is_some()),
            );
            if kind == BackendKind::UdopExact {
                assert_eq!(x, y, "{start:?} {a} -> {b}: the cache changed an answer");
                continue;
            }
            if !x.start_solid() {
                let z = whole.trace(&mut ctx, &w, a, b);
                tally.one_world += usize::from(differ(&z, &x).is_some());
            }
            if let Some(why) = differ(&y, &x) {
                if contact_scale(&one, shape, a, b) {
                    tally.excluded += 1;
                } else {
                    tally.scene.push(format!(
                        "{} {start:?} {a} -> {b}: {why}\n  {} {y:?}\n  exact {x:?}",
                        shape.describe(),
                        kind.name()
                    ));
                }
            }
        }
    }
    tally
}

/// A shape the movers' structures were not built for is refused by name, as the onion refuses a
/// box it was not compiled for.
#[test]
fn a_scene_refuses_shapes_its_movers_were_not_built_for() {
    let (world, movers, offsets) = generated(9);
    let shapes = [agent_shapes()[0].clone()];
    let scene = scene(BackendKind::Exact, &world, &movers, &offsets, &shapes);
    let err = scene.prepare(&Shape::new_sphere(5.0).unwrap()).unwrap_err();
    assert!(err.reason.contains("built for other shapes"), "{err}");
}

/// Every mover of every corpus map builds its structure on every backend. The onion's compiler
/// (and Melax's, which compiles through it) failed its own check on E1M1's lone door brushes
/// (movers 22 to 25, 2,000 units from the origin and 14 wide): the squares it cut cells from
/// were sized by the box alone (`covering_half` in `crates/onion/src/compile/cell.rs`).
#[test]
fn every_corpus_mover_builds_on_every_backend() {
    const TEST: &str = "every_corpus_mover_builds_on_every_backend";
    let Some(dir) = cspace_corpus::dir(TEST) else {
        return;
    };
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "map"))
        .collect();
    files.sort();
    let player = Shape::new_box(
        DVec3::new(-16.0, -16.0, -24.0),
        DVec3::new(16.0, 16.0, 32.0),
    )
    .unwrap();
    let mut refused = Vec::new();
    let mut built = 0;
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let options = cspace_mapfile::BuildOptions {
            living: true,
            ..cspace_mapfile::BuildOptions::default()
        };
        let text = std::fs::read(file).unwrap();
        let world = cspace_mapfile::load_world(&text, &name, &options)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let movers = &world.living.movers;
        if movers.is_empty() {
            continue;
        }
        for backend in BackendKind::ALL {
            match Models::build(backend, movers, std::slice::from_ref(&player)) {
                Ok(_) => built += 1,
                Err(e) => refused.push(format!("{name} on {}: {e}", backend.name())),
            }
        }
    }
    eprintln!("{built} backend builds of corpus movers");
    assert!(built > 0, "the corpus has movers");
    assert!(refused.is_empty(), "{refused:#?}");
}

/// A caller's quiet box ([`Scene::trace_in_quiet`], what the stepping loop passes for an agent
/// whose reach meets no mover) never changes an answer: for random boxes that meet no mover's
/// place, on the exact reference and the onion, every move and point query gives the scene's
/// own answer bit for bit, whether the move lies in the box (the static world alone answers) or
/// leaves it (the full trace).
#[test]
fn a_quiet_box_never_changes_an_answer() {
    let (world, movers, offsets) = generated(4);
    let shapes = [agent_shapes()[0].clone()];
    for kind in [BackendKind::Exact, BackendKind::Onion] {
        let scene = scene(kind, &world, &movers, &offsets, &shapes);
        let prepared = scene.prepare(&shapes[0]).unwrap();
        let mut ctx = QueryContext::new();
        let mut rng = Rng::new(17 + kind as u64);
        let (mut inside, mut outside) = (0, 0);
        for i in 0..6000 {
            let start = [Start::Free, Start::OnMoverFace, Start::Anywhere][i % 3];
            let (a, b) = segment(
                &mut rng, start, &shapes[0], &movers, &offsets, &scene, &mut ctx,
            );
            let half = DVec3::new(
                rng.range(20.0, 400.0),
                rng.range(20.0, 400.0),
                rng.range(20.0, 400.0),
            );
            let centre = a + rng.unit_vector() * rng.range(0.0, 100.0);
            let quiet = Aabb::new(centre - half, centre + half);
            if scene.meets_any(&quiet) {
                continue;
            }
            let swept = shapes[0]
                .bounds()
                .translated(a)
                .merged(shapes[0].bounds().translated(b))
                .loosened(prepared.skin());
            if quiet.contains(&swept) {
                inside += 1;
            } else {
                outside += 1;
            }
            assert_eq!(
                scene.trace_in_quiet(&mut ctx, &prepared, a, b, &quiet),
                scene.trace(&mut ctx, &prepared, a, b),
                "{}: {a} -> {b} in {quiet:?}",
                kind.name()
            );
            assert_eq!(
                scene.is_solid_in_quiet(&mut ctx, &prepared, b, &quiet),
                scene.is_solid(&mut ctx, &prepared, b),
                "{}: {b} in {quiet:?}",
                kind.name()
            );
        }
        assert!(
            inside > 500 && outside > 500,
            "{}: {inside} moves inside quiet boxes, {outside} leaving them",
            kind.name()
        );
    }
}
