//! `goto` in a living world (issue 32, stage 4): the planner plans through what the entities
//! do, and the follower goes through with the movement model while the world acts.
//!
//! - across a teleporter: two rooms nothing joins but a Quake 1 `trigger_teleport`; the agent
//!   walks into it, is teleported (the living world's triggers), and goes on to its goal from
//!   the destination;
//! - through a closed Quake 1 door: the agent walks into its field, waits while it opens (the
//!   planner counted its opening time), and goes through without planning again;
//! - a door that only opens when fired is a wall: the goal behind it is unreachable.

use std::sync::Arc;

use cspace_entities::{Dialect, EntityInput, spawn};
use cspace_geom::{Brush, DVec3, World};
use cspace_sim::navigation::Planner;

use crate::living::{cube, player};
use cspace_sim::record::GotoFailure;
use cspace_sim::{
    AgentId, AgentSpec, BackendKind, Event, EventKind, Intent, Living, Models, Recording, Sim,
    SimConfig,
};

/// A living simulation of `statics` and `entities` (after the worldspawn, Quake 1's rules) on
/// the exact backend, with one goto agent standing at `start` and the living world's planner.
fn living_goto(statics: Vec<Brush>, entities: Vec<EntityInput>, start: DVec3) -> (Sim, AgentId) {
    let mut inputs = vec![EntityInput::new(0, 1, [("classname", "worldspawn")])];
    inputs.extend(entities);
    let entities = Arc::new(spawn(&inputs, Dialect::Quake1));
    assert!(entities.warnings.is_empty(), "{:?}", entities.warnings);
    let world = Arc::new(World::from_brushes(statics));
    let shapes = [player()];
    let backend = BackendKind::Exact;
    let collider = backend.build_for(&world, &shapes).unwrap().unwrap();
    let models = Models::build(backend, &entities.movers, &shapes)
        .unwrap()
        .unwrap();
    let spec = AgentSpec::new(player(), start);
    let params = SimConfig::default().params;
    let planner =
        Planner::build_living(&world, &entities, &[(AgentId(0), &spec)], &params, &[]).unwrap();
    let config = SimConfig {
        recording: Recording::Events,
        verify: true,
        planner: Some(Arc::new(planner)),
        living: Some(Living {
            entities,
            models: Arc::new(models),
        }),
        ..SimConfig::default()
    };
    let mut sim = Sim::new(collider, config).unwrap();
    let id = sim.spawn(spec).unwrap();
    (sim, id)
}

/// Sends the agent to `goal` and steps until its goto ends (at most `seconds`): its events.
fn go(sim: &mut Sim, id: AgentId, goal: DVec3, seconds: f64) -> Vec<Event> {
    sim.set_intent(
        id,
        Intent {
            goto: Some(goal),
            ..Intent::default()
        },
    )
    .unwrap();
    let steps = (seconds / sim.dt()) as u64;
    for _ in 0..steps {
        sim.step();
        let ended = sim.events().iter().any(|e| {
            e.agent == id
                && matches!(
                    e.kind,
                    EventKind::Arrived { .. } | EventKind::GotoFailed { .. }
                )
        });
        if ended {
            break;
        }
    }
    sim.events()
        .iter()
        .filter(|e| e.agent == id)
        .cloned()
        .collect()
}

fn arrived(events: &[Event]) -> bool {
    events
        .iter()
        .any(|e| matches!(e.kind, EventKind::Arrived { .. }))
}

fn replans(events: &[Event]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Planned { replan: true, .. }))
        .count()
}

/// Room A over x -1024..-512, room B over 512..1024, nothing between; a Quake 1 teleporter in
/// room A (x -800..-736, y -32..32) sends agents to a destination in room B at (640, 0, 24),
/// facing +x (the agent appears 27 above it).
fn teleporter_rooms() -> (Vec<Brush>, Vec<EntityInput>) {
    let statics = vec![
        cube([-1024.0, -256.0, -16.0], [-512.0, 256.0, 0.0]),
        cube([512.0, -256.0, -16.0], [1024.0, 256.0, 0.0]),
    ];
    let entities = vec![
        EntityInput::new(
            1,
            10,
            [("classname", "trigger_teleport"), ("target", "out")],
        )
        .with_solid(cube([-800.0, -32.0, 0.0], [-736.0, 32.0, 64.0])),
        EntityInput::new(
            2,
            20,
            [
                ("classname", "info_teleport_destination"),
                ("targetname", "out"),
                ("origin", "640 0 24"),
                ("angle", "0"),
            ],
        ),
    ];
    (statics, entities)
}

#[test]
fn goto_across_a_teleporter_arrives() {
    let (statics, entities) = teleporter_rooms();
    let (mut sim, id) = living_goto(statics, entities, DVec3::new(-960.0, 0.0, 24.03125));
    let goal = DVec3::new(960.0, 128.0, 24.0);
    let events = go(&mut sim, id, goal, 20.0);
    let me = sim.agent(id).unwrap();
    assert!(arrived(&events), "{events:?}\nends at {me:?}");
    assert!(
        (me.position.truncate() - goal.truncate()).length() < 16.0,
        "{me:?}"
    );
    // The first plan went through the teleporter; no plan was made back across it.
    let plan = &sim.plans()[0];
    assert!(
        plan.waypoints
            .iter()
            .any(|w| w.kind == cspace_nav::LinkKind::Teleport)
    );
    assert_eq!(replans(&events), 0, "{events:?}");
    let v = sim.verification().unwrap();
    assert_eq!(v.in_solid, 0, "{:?}", v.first);
}

/// A floor, and a wall at x = -16..16 with a doorway 128 wide and 128 high; a Quake 1 door
/// (keys `extra`) stands closed in it and opens upwards.
fn doorway(extra: &[(&'static str, &'static str)]) -> (Vec<Brush>, Vec<EntityInput>) {
    let statics = vec![
        cube([-512.0, -512.0, -16.0], [512.0, 512.0, 0.0]),
        cube([-16.0, -512.0, 0.0], [16.0, -64.0, 256.0]),
        cube([-16.0, 64.0, 0.0], [16.0, 512.0, 256.0]),
        cube([-16.0, -64.0, 128.0], [16.0, 64.0, 256.0]),
    ];
    let mut keys = vec![("classname", "func_door"), ("angle", "-1")];
    keys.extend_from_slice(extra);
    let door =
        EntityInput::new(1, 10, keys).with_solid(cube([-8.0, -64.0, 0.0], [8.0, 64.0, 128.0]));
    (statics, vec![door])
}

#[test]
fn goto_through_a_closed_door_waits_for_it_and_arrives() {
    let (statics, entities) = doorway(&[]);
    let (mut sim, id) = living_goto(statics, entities, DVec3::new(-300.0, 0.0, 24.03125));
    let goal = DVec3::new(300.0, 0.0, 24.0);
    let events = go(&mut sim, id, goal, 10.0);
    let me = sim.agent(id).unwrap();
    assert!(arrived(&events), "{events:?}\nends at {me:?}");
    // The door opened for it (its field), and the agent waited without planning again.
    assert!(!sim.mover_events().is_empty());
    assert_eq!(replans(&events), 0, "{events:?}");
    // The plan counted the door's opening: 120 units up at 100 units/s.
    let waits: f64 = sim.plans()[0].waypoints.iter().map(|w| w.wait).sum();
    assert!((waits - 1.2).abs() < 1e-9, "{waits}");
    let v = sim.verification().unwrap();
    assert_eq!(v.in_solid, 0, "{:?}", v.first);
}

#[test]
fn a_door_that_opens_only_when_fired_is_a_wall() {
    let (statics, entities) = doorway(&[("targetname", "gate")]);
    let (mut sim, id) = living_goto(statics, entities, DVec3::new(-300.0, 0.0, 24.03125));
    let events = go(&mut sim, id, DVec3::new(300.0, 0.0, 24.0), 2.0);
    assert!(
        events.iter().any(|e| matches!(
            e.kind,
            EventKind::GotoFailed {
                why: GotoFailure::Unreachable,
                ..
            }
        )),
        "{events:?}"
    );
}
