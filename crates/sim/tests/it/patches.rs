//! Walking over Quake III patches (issue 20): an agent walking over a ridge of adjacent patches,
//! up a curved ramp and along a pipe never snags (it keeps walking pace, step after step, across
//! every seam between pieces and between patches) and never ends a step inside a facet (the
//! exact backend's point query at every step), on every backend that answers for its shape
//! exactly: exact, udop+exact, onion and melax-exact.
//!
//! Melax with the paper's bevels is left out: its bevels are for brushes (edges sharper than 90
//! degrees, a level top plane; Melax Section 5) and facets meeting at shallow angles get none, so
//! a box can catch on a facet's edge (`scenarios/chasm_curves.toml` says where). Its own tests
//! measure its error.

use std::sync::Arc;

use cspace_geom::generate::patch_world;
use cspace_geom::patch::{ControlGrid, TessellationOptions};
use cspace_geom::{Aabb, Brush, Collider, DVec3, ExactCollider, Shape, WithContext, World};
use cspace_sim::{
    Action, AgentSpec, AgentState, BackendKind, EventKind, MoveParams, Pose, Recording,
    ScriptEvent, Scripted, ScriptedAgent, Sim, SimConfig,
};

const DT: f64 = 1.0 / 64.0;

/// The backends held to "never snags, never inside a facet".
const EXACT_FOR_BOXES: [BackendKind; 4] = [
    BackendKind::Exact,
    BackendKind::UdopExact,
    BackendKind::Onion,
    BackendKind::MelaxExact,
];

fn standing() -> Shape {
    Shape::new_box(
        DVec3::new(-16.0, -16.0, -24.0),
        DVec3::new(16.0, 16.0, 32.0),
    )
    .unwrap()
}

fn block(min: [f64; 3], max: [f64; 3]) -> Brush {
    Brush::from_aabb(Aabb::new(DVec3::from_array(min), DVec3::from_array(max))).unwrap()
}

/// A patch of `rows x columns` control points.
fn grid(rows: usize, columns: usize, points: impl IntoIterator<Item = DVec3>) -> ControlGrid {
    ControlGrid::new(rows, columns, points.into_iter().collect()).unwrap()
}

/// A player walking along `direction` (horizontal) from `start`.
fn walker(start: DVec3, direction: [f64; 2]) -> ScriptedAgent {
    ScriptedAgent {
        spec: AgentSpec::new(standing(), start),
        script: vec![ScriptEvent {
            at: 0.0,
            action: Action::Move {
                direction: DVec3::new(direction[0], direction[1], 0.0),
                speed: 320.0,
            },
        }]
        .into(),
    }
}

/// Runs `agents` in `world` on each backend of [`EXACT_FOR_BOXES`] for `steps` steps.
fn run(world: &Arc<World>, agents: &[ScriptedAgent], steps: u64) -> Vec<Sim> {
    EXACT_FOR_BOXES
        .iter()
        .map(|kind| {
            let collider = kind
                .build_for(world, &[standing()])
                .unwrap()
                .expect("every backend here takes boxes");
            let config = SimConfig {
                params: MoveParams::default(),
                dt: DT,
                recording: Recording::Sampled { every: 1 },
                ..SimConfig::default()
            };
            let mut run = Scripted::new(collider, config, agents).unwrap();
            run.run(steps);
            run.sim
        })
        .collect()
}

/// Every sampled state of `agent` (one per step, the step's index with it).
fn path(sim: &Sim, agent: usize) -> Vec<(u64, AgentState)> {
    sim.samples()
        .iter()
        .map(|s| (s.step, s.states[agent]))
        .collect()
}

/// The checks of the module's docs for `agent` over the steps `walking` (once up to speed and
/// while it should be walking): every step covers at least `pace` of walking speed along the
/// ground (a snag, or a stop at a seam, covers far less), no step ends in solid, and the mover
/// was never found stuck.
fn assert_walks_clean(
    sim: &Sim,
    world: &Arc<World>,
    agent: usize,
    walking: std::ops::Range<usize>,
    pace: f64,
    what: &str,
) {
    let states = path(sim, agent);
    let mut exact = WithContext::new(ExactCollider::new(world.clone()));
    let prepared = exact.prepare(&standing()).unwrap();
    for (step, s) in &states {
        assert_eq!(s.pose, Pose::Standing);
        assert!(
            !exact.is_solid(&prepared, s.position),
            "{what} on {}: step {step} ends inside a facet at {}",
            sim.backend(),
            s.position
        );
    }
    for w in states[walking].windows(2) {
        let covered = w[1].1.position.distance(w[0].1.position);
        assert!(
            covered > pace * 320.0 * DT,
            "{what} on {}: snagged at step {}: {covered:.3} units at {} (pace {pace})",
            sim.backend(),
            w[1].0,
            w[0].1.position
        );
    }
    let stuck = sim
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Unstuck { .. } | EventKind::Stuck { .. }))
        .count();
    assert_eq!(stuck, 0, "{what} on {}", sim.backend());
}

/// A ridge of six patches: a left and a right slope meeting at the apex (x = 0, z = 64), each
/// curving from the floor (36.9 degrees at its foot) to 14 degrees at the apex, in three lengths
/// along y that share their border rows; the right slopes are written transposed.
fn ridge() -> Arc<World> {
    let left = [(-128.0, 0.0), (-64.0, 48.0), (0.0, 64.0)];
    let right = [(0.0, 64.0), (64.0, 48.0), (128.0, 0.0)];
    let mut grids = Vec::new();
    for y0 in [-384.0, -128.0, 128.0] {
        let ys = [y0, y0 + 128.0, y0 + 256.0];
        grids.push(grid(
            3,
            3,
            ys.iter()
                .flat_map(|&y| left.map(|(x, z)| DVec3::new(x, y, z))),
        ));
        grids.push(grid(
            3,
            3,
            right
                .iter()
                .flat_map(|&(x, z)| ys.map(|y| DVec3::new(x, y, z))),
        ));
    }
    let floor = block([-1024.0, -1024.0, -16.0], [1024.0, 1024.0, 0.0]);
    Arc::new(patch_world(
        vec![floor],
        &grids,
        &TessellationOptions::default(),
    ))
}

#[test]
fn walking_along_and_over_a_ridge_of_adjacent_patches_never_snags() {
    let world = ridge();
    let agents = [
        // On the apex, along it: across the seams between the lengths, on the seam between the
        // slopes.
        walker(DVec3::new(0.0, -360.0, 100.0), [0.0, 1.0]),
        // Up one slope, over the apex and down the other, across the patches.
        walker(DVec3::new(-240.0, -40.0, 24.03125), [1.0, 0.0]),
    ];
    for sim in run(&world, &agents, 128) {
        assert_walks_clean(&sim, &world, 0, 40..128, 0.95, "along the ridge");
        assert_walks_clean(&sim, &world, 1, 10..128, 0.8, "over the ridge");
        // Balanced on the apex all the way, standing on it (origin 24 above it, and the skin).
        for (_, s) in &path(&sim, 0)[40..] {
            assert!(
                s.position.x.abs() < 1e-6 && (s.position.z - (64.0 + 24.0)).abs() < 0.1,
                "{}: left the apex at {}",
                sim.backend(),
                s.position
            );
        }
        let over = sim.states().collect::<Vec<_>>()[1].position;
        assert!(
            over.x > 250.0 && (over.z - 24.03125).abs() < 0.1,
            "{}: did not get over the ridge: {over}",
            sim.backend()
        );
    }
}

#[test]
fn walking_up_a_curved_ramp_never_snags() {
    // scenarios/curved_ramp.map: from the floor up to a platform 96 units up, flat at both ends,
    // steepest (36.9 degrees) where its two pieces meet; then the platform.
    let profile = [
        (0.0, 0.0),
        (64.0, 0.0),
        (128.0, 48.0),
        (192.0, 96.0),
        (256.0, 96.0),
    ];
    let ramp = grid(
        3,
        5,
        [-128.0, 0.0, 128.0]
            .iter()
            .flat_map(|&y| profile.map(|(x, z)| DVec3::new(x, y, z))),
    );
    let brushes = vec![
        block([-256.0, -256.0, -16.0], [768.0, 256.0, 0.0]),
        block([256.0, -256.0, 0.0], [768.0, 256.0, 96.0]),
    ];
    let world = Arc::new(patch_world(
        brushes,
        &[ramp],
        &TessellationOptions::default(),
    ));
    let agents = [
        walker(DVec3::new(-128.0, -64.0, 24.03125), [1.0, 0.0]),
        walker(DVec3::new(-128.0, -100.0, 24.03125), [1.0, 0.3]),
    ];
    for sim in run(&world, &agents, 96) {
        assert_walks_clean(&sim, &world, 0, 10..96, 0.95, "up the ramp");
        assert_walks_clean(&sim, &world, 1, 10..96, 0.9, "up the ramp at an angle");
        for s in sim.states() {
            assert!(
                s.position.x > 300.0 && (s.position.z - 120.03125).abs() < 0.1,
                "{}: not up on the platform: {}",
                sim.backend(),
                s.position
            );
        }
    }
}

/// A pipe along y: a ring of 9 control points (four quarter circles, Quake III's square control
/// points) of `radius` around the axis `(x, z)`, two lengths of 256 sharing their middle ring.
fn pipe(radius: f64, x: f64, z: f64) -> Vec<ControlGrid> {
    let square = [
        (1.0, 0.0),
        (1.0, 1.0),
        (0.0, 1.0),
        (-1.0, 1.0),
        (-1.0, 0.0),
        (-1.0, -1.0),
        (0.0, -1.0),
        (1.0, -1.0),
        (1.0, 0.0),
    ];
    [-256.0, 0.0]
        .iter()
        .map(|&y0| {
            grid(
                9,
                3,
                square.iter().flat_map(|&(u, v)| {
                    [y0, y0 + 128.0, y0 + 256.0]
                        .map(|y| DVec3::new(x + u * radius, y, z + v * radius))
                }),
            )
        })
        .collect()
}

#[test]
fn walking_along_a_pipe_inside_and_on_top_never_snags() {
    // Inside a pipe of radius 96 (its floor the seam at the bottom of the ring) and on top of a
    // pipe of radius 32 lying on the floor beside it (its top the seam at the top of the ring).
    let mut grids = pipe(96.0, 0.0, 96.0);
    grids.extend(pipe(32.0, 256.0, 32.0));
    let floor = block([-1024.0, -1024.0, -16.0], [1024.0, 1024.0, 0.0]);
    let world = Arc::new(patch_world(
        vec![floor],
        &grids,
        &TessellationOptions::default(),
    ));
    let agents = [
        walker(DVec3::new(0.0, -230.0, 40.0), [0.0, 1.0]),
        walker(DVec3::new(256.0, -230.0, 100.0), [0.0, 1.0]),
    ];
    for sim in run(&world, &agents, 80) {
        assert_walks_clean(&sim, &world, 0, 20..80, 0.95, "inside the pipe");
        assert_walks_clean(&sim, &world, 1, 20..80, 0.95, "on top of the pipe");
        let [inside, on_top] = [0, 1].map(|i| sim.states().collect::<Vec<_>>()[i].position);
        assert!(
            // In the bottom's valley (the facets either side of the seam are not mirror images,
            // so it drifts a little off the axis).
            inside.y > 100.0 && inside.x.abs() < 8.0 && inside.z < 30.0,
            "{}: inside {inside}",
            sim.backend()
        );
        assert!(
            on_top.y > 100.0 && (on_top.x - 256.0).abs() < 1e-6 && on_top.z > 64.0 + 23.9,
            "{}: on top {on_top}",
            sim.backend()
        );
    }
}
