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
    living_goto_in(Dialect::Quake1, 0, statics, entities, start)
}

/// The world of `statics`, the entities of `entities` (after the worldspawn, `dialect`'s rules)
/// and a living simulation's collider and configuration of them on the exact backend, with the
/// generator of `seed`.
fn living_parts(
    dialect: Dialect,
    seed: u64,
    statics: Vec<Brush>,
    entities: Vec<EntityInput>,
) -> (
    Arc<World>,
    Arc<cspace_entities::Entities>,
    Arc<dyn cspace_geom::Collider>,
    SimConfig,
) {
    let mut inputs = vec![EntityInput::new(0, 1, [("classname", "worldspawn")])];
    inputs.extend(entities);
    let entities = Arc::new(spawn(&inputs, dialect));
    assert!(entities.warnings.is_empty(), "{:?}", entities.warnings);
    let world = Arc::new(World::from_brushes(statics));
    let shapes = [player()];
    let backend = BackendKind::Exact;
    let collider = backend.build_for(&world, &shapes).unwrap().unwrap();
    let models = Models::build(backend, &entities.movers, &shapes)
        .unwrap()
        .unwrap();
    let config = SimConfig {
        recording: Recording::Events,
        verify: true,
        seed,
        living: Some(Living {
            entities: entities.clone(),
            models: Arc::new(models),
        }),
        ..SimConfig::default()
    };
    (world, entities, collider, config)
}

/// [`living_goto`] with `dialect`'s rules and the generator of `seed`.
fn living_goto_in(
    dialect: Dialect,
    seed: u64,
    statics: Vec<Brush>,
    entities: Vec<EntityInput>,
    start: DVec3,
) -> (Sim, AgentId) {
    let (world, entities, collider, config) = living_parts(dialect, seed, statics, entities);
    let spec = AgentSpec::new(player(), start);
    let params = config.params;
    let mut sim = Sim::new(collider, config).unwrap();
    // The planner of this simulation: its jump pads aimed where its picks send them.
    let planner = Planner::build_living(
        &world,
        &entities,
        &sim.jump_pad_apexes(),
        &[(AgentId(0), &spec)],
        &params,
        &[],
    )
    .unwrap();
    sim.set_planner(Arc::new(planner)).unwrap();
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

/// A floor, and two ledges 160 high (beyond a jump) at y 150..800 and -800..-150 (x 250..900);
/// a Quake III jump pad at x -32..32 (z 0..8, centre (0, 0, 4)) whose target "apex" names two
/// `target_position`s, (400, 300, 300) above the first ledge's near side and (400, -300, 300)
/// above the second's.
fn jump_pad_ledges() -> (Vec<Brush>, Vec<EntityInput>) {
    let statics = vec![
        cube([-1024.0, -1024.0, -16.0], [1024.0, 1024.0, 0.0]),
        cube([250.0, 150.0, 0.0], [900.0, 800.0, 160.0]),
        cube([250.0, -800.0, 0.0], [900.0, -150.0, 160.0]),
    ];
    let apex = |index: u32, origin: &'static str| {
        EntityInput::new(
            index,
            10 * index,
            [
                ("classname", "target_position"),
                ("targetname", "apex"),
                ("origin", origin),
            ],
        )
    };
    let entities = vec![
        EntityInput::new(1, 10, [("classname", "trigger_push"), ("target", "apex")])
            .with_solid(cube([-32.0, -32.0, 0.0], [32.0, 32.0, 8.0])),
        apex(2, "400 300 300"),
        apex(3, "400 -300 300"),
    ];
    (statics, entities)
}

/// Quake III's jump pad picks its apex once, when the world starts (`AimAtTarget`'s
/// `G_PickTarget`, `rand() % 2` here the generator's first draw): the graph of a simulation aims
/// its push links at that simulation's pick (`Sim::jump_pad_apexes`), never at the first point of
/// the name. For a seed that picks each point: every push link of the graph lands on the ledge
/// under the pick, near where the arc from the pad through the apex comes down on it, and none
/// on the other; a goto to the picked ledge crosses the pad and arrives.
#[test]
fn jump_pad_links_aim_at_the_simulations_pick() {
    use cspace_geom::generate::Rng;
    let seed_for = |pick: u64| (0..).find(|&s| Rng::new(s).next_u64() % 2 == pick).unwrap();
    for (pick, side) in [(0, 1.0), (1, -1.0)] {
        let seed = seed_for(pick);
        let (statics, entities) = jump_pad_ledges();
        let (mut sim, id) = living_goto_in(
            Dialect::Quake3,
            seed,
            statics,
            entities,
            DVec3::new(-300.0, 0.0, 24.03125),
        );
        let apex = DVec3::new(400.0, 300.0 * side, 300.0);
        assert_eq!(sim.jump_pad_apexes(), [Some(apex)], "seed {seed}");
        // AimAtTarget from the pad's centre: up to the apex in t = sqrt(h / (g / 2)), across at
        // d_xy / t; the origin (24 above the feet) comes down on the ledge at z 160 + 24, as far
        // again past the apex as its fall from it takes.
        let from = DVec3::new(0.0, 0.0, 4.0);
        let g = 800.0;
        let t_up = ((apex.z - from.z) / (g / 2.0)).sqrt();
        let across = (apex - from).truncate() / t_up;
        let planner = sim.planner().unwrap().clone();
        let links: Vec<_> = planner
            .mesh(0)
            .links()
            .iter()
            .filter(|l| l.kind == cspace_nav::LinkKind::Push)
            .cloned()
            .collect();
        assert!(!links.is_empty(), "seed {seed}: no push link");
        for link in &links {
            let end = link.end[0];
            assert!(
                (end.z - 184.0).abs() < 1.0 && end.y * side > 150.0,
                "seed {seed}: a push link ends at {end}, not on the ledge under {apex}"
            );
            // The arc of the agent's origin from where the link starts (the graph's waypoints
            // are a skin above the floor): the pad sets its velocity while its box meets the pad
            // (its origin up to z 8 + 24), then it flies under gravity down onto the ledge. The
            // graph traces it chord by chord (1/64 s).
            let v = across.extend(t_up * g);
            let start = link.start[0] + DVec3::Z * SimConfig::default().params.skin;
            let out = start + v * ((8.0 + 24.0 - start.z) / v.z);
            let t = (v.z + (v.z * v.z - 2.0 * g * (184.0 - out.z)).sqrt()) / g;
            let landing = out.truncate() + across * t;
            let chord = across.length() / 64.0;
            assert!(
                (end.truncate() - landing).length() < chord,
                "seed {seed}: a push link from {start} lands at {end}, the arc at {landing}"
            );
        }
        let goal = DVec3::new(700.0, 600.0 * side, 184.0);
        let events = go(&mut sim, id, goal, 20.0);
        let me = sim.agent(id).unwrap();
        assert!(arrived(&events), "seed {seed}: {events:?}\nends at {me:?}");
        assert!(
            sim.plans()[0]
                .waypoints
                .iter()
                .any(|w| w.kind == cspace_nav::LinkKind::Push),
            "seed {seed}"
        );
        let v = sim.verification().unwrap();
        assert_eq!(v.in_solid, 0, "{:?}", v.first);
    }
}

/// The same through [`cspace_sim::Scripted`], as scenarios run: it builds a living world's
/// planner once the simulation is made, from its picks, so a scripted goto to the ledge under
/// each seed's pick arrives.
#[test]
fn a_scripted_goto_crosses_the_jump_pad_of_its_run() {
    use cspace_geom::generate::Rng;
    use cspace_sim::{Action, ScriptEvent, Scripted, ScriptedAgent};
    for pick in [0, 1] {
        let seed = (0..).find(|&s| Rng::new(s).next_u64() % 2 == pick).unwrap();
        let side = if pick == 0 { 1.0 } else { -1.0 };
        let (statics, entities) = jump_pad_ledges();
        let (_, _, collider, config) = living_parts(Dialect::Quake3, seed, statics, entities);
        let goal = DVec3::new(700.0, 600.0 * side, 184.0);
        let agent = ScriptedAgent {
            spec: AgentSpec::new(player(), DVec3::new(-300.0, 0.0, 24.03125)),
            script: Arc::from(vec![ScriptEvent {
                at: 0.0,
                action: Action::Goto(goal),
            }]),
        };
        let mut run = Scripted::new(collider, config, &[agent]).unwrap();
        run.run(64 * 20);
        let events = run.sim.events().to_vec();
        assert!(arrived(&events), "seed {seed}: {events:?}");
        let v = run.sim.verification().unwrap();
        assert_eq!(v.in_solid, 0, "{:?}", v.first);
    }
}
