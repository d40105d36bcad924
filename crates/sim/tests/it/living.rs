//! The living world in the step (issue 32, stage 3): movers advance by their clock after the
//! agents move and push as Quake III's `G_MoverTeam` / `G_MoverPush` do (Quake 1's
//! `SV_PushMove` with the pushed agent translated).
//!
//! - a lift carries its rider up without handing it any velocity;
//! - a door sliding into an agent pushes it along, keeping the gap between them;
//! - a door that would crush an agent against a wall is blocked: door and agent go back, and a
//!   Quake 1 door reverses;
//! - a lift that would crush its rider against a ceiling reverses (Quake 1 `plat_crush`), and a
//!   Quake III crusher never does;
//! - no agent is ever left in solid (the exactness guard, movers included), and a living run
//!   ends on the same bits on one thread and in interaction groups on two.

use cspace_entities::{Dialect, EntityInput};
use cspace_geom::{Aabb, Brush, DVec3, Shape};
use cspace_sim::{AgentSpec, BackendKind, EventKind, Intent, MoverEvent, MoverEventKind, Sim};

pub(super) fn cube(min: [f64; 3], max: [f64; 3]) -> Brush {
    Brush::from_aabb(Aabb::new(DVec3::from_array(min), DVec3::from_array(max))).unwrap()
}

pub(super) fn player() -> Shape {
    Shape::new_box(
        DVec3::new(-16.0, -16.0, -24.0),
        DVec3::new(16.0, 16.0, 32.0),
    )
    .unwrap()
}

/// A simulation of `statics` (the world) and the movers of `entities` (inputs after the
/// worldspawn), read with `dialect`'s rules, on `backend`, with the exactness guard on.
fn living(
    backend: BackendKind,
    dialect: Dialect,
    statics: Vec<Brush>,
    entities: Vec<EntityInput>,
    parallel_from: usize,
) -> Sim {
    let entities = super::triggers::entities(dialect, entities);
    assert!(entities.warnings.is_empty(), "{:?}", entities.warnings);
    super::triggers::living_sim(backend, statics, entities, 0, parallel_from)
}

fn floor() -> Brush {
    cube([-512.0, -512.0, -16.0], [512.0, 512.0, 0.0])
}

/// A Quake 1 lift at x 128..256, drawn at its top (z 0..128), spawned lowered by 120.
fn lift(extra: &[(&str, &str)]) -> EntityInput {
    let mut keys = vec![("classname", "func_plat")];
    keys.extend_from_slice(extra);
    EntityInput::new(1, 10, keys).with_solid(cube([128.0, -64.0, 0.0], [256.0, 64.0, 128.0]))
}

fn kinds(sim: &Sim) -> Vec<MoverEventKind> {
    sim.mover_events().iter().map(|e| e.kind).collect()
}

fn assert_never_in_solid(sim: &Sim) {
    let v = sim.verification().unwrap();
    assert!(v.checked > 0);
    assert_eq!(v.in_solid, 0, "{:?}", v.first);
}

#[test]
fn a_lift_carries_its_rider_up_without_velocity() {
    for backend in BackendKind::ALL {
        let mut sim = living(
            backend,
            Dialect::Quake1,
            vec![floor()],
            vec![lift(&[])],
            2000,
        );
        // On the lowered lift (top z 8), standing still.
        let id = sim
            .spawn(AgentSpec::new(player(), DVec3::new(192.0, 0.0, 32.03125)))
            .unwrap();
        let mut highest: f64 = 0.0;
        for _ in 0..160 {
            sim.step();
            let me = sim.agent(id).unwrap();
            highest = highest.max(me.position.z);
            // Carried, never launched: the lift hands over no velocity.
            assert!(me.velocity.z <= 0.0, "{backend:?}: {:?}", me.velocity);
        }
        // Up 120 units in 0.8 s, then 3 s at the top.
        assert_eq!(sim.mover_offsets().unwrap()[0], DVec3::ZERO, "{backend:?}");
        let me = sim.agent(id).unwrap();
        assert!(
            (me.position.z - 152.03125).abs() < 1e-9 && me.on_ground,
            "{backend:?}: {me:?}"
        );
        assert!(highest <= 152.03125 + 1e-9);
        let rides: Vec<_> = sim
            .events()
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Rides { mover: 0 }))
            .collect();
        assert_eq!(rides.len(), 1, "{backend:?}: {:?}", sim.events());
        assert_eq!(
            kinds(&sim),
            [MoverEventKind::Started, MoverEventKind::Reached],
            "{backend:?}"
        );
        assert_never_in_solid(&sim);
    }
}

/// A door (Quake 1, sliding +y by 56 at 100 units/s) and an agent standing in its way: the
/// agent is pushed along, the gap between them kept; with a wall behind the agent the push is
/// blocked, both go back, and the door reverses.
#[test]
fn a_door_pushes_an_agent_and_reverses_when_it_would_crush_it() {
    let door = || {
        EntityInput::new(1, 10, [("classname", "func_door"), ("angle", "90")])
            .with_solid(cube([0.0, 0.0, 0.0], [16.0, 64.0, 96.0]))
    };
    for backend in BackendKind::ALL {
        // Room to be pushed: the door ends at y 120, the agent 1 unit beyond.
        let mut sim = living(backend, Dialect::Quake1, vec![floor()], vec![door()], 2000);
        let id = sim
            .spawn(AgentSpec::new(player(), DVec3::new(8.0, 81.0, 24.03125)))
            .unwrap();
        sim.run(80);
        let me = sim.agent(id).unwrap();
        assert_eq!(sim.mover_offsets().unwrap()[0], DVec3::new(0.0, 56.0, 0.0));
        assert!(
            (me.position.y - 137.0).abs() < 1e-9,
            "{backend:?}: pushed to {}",
            me.position
        );
        assert_eq!(me.velocity, DVec3::ZERO, "{backend:?}");
        assert_never_in_solid(&sim);

        // A wall 3 units behind the agent.
        let wall = cube([-64.0, 100.0, 0.0], [64.0, 116.0, 128.0]);
        let mut sim = living(
            backend,
            Dialect::Quake1,
            vec![floor(), wall],
            vec![door()],
            2000,
        );
        let id = sim
            .spawn(AgentSpec::new(player(), DVec3::new(8.0, 81.0, 24.03125)))
            .unwrap();
        sim.run(80);
        let me = sim.agent(id).unwrap();
        assert!(
            me.position.y <= 100.0 - 16.0 + 1e-9,
            "{backend:?}: {}",
            me.position
        );
        let events: Vec<MoverEvent> = sim.mover_events().to_vec();
        let blocked = events
            .iter()
            .position(|e| e.kind == MoverEventKind::Blocked { agent: id })
            .unwrap_or_else(|| panic!("{backend:?}: never blocked: {events:?}"));
        assert_eq!(events[blocked + 1].kind, MoverEventKind::Reversed);
        assert_eq!(events[blocked + 1].step, events[blocked].step);
        assert_never_in_solid(&sim);
    }
}

/// A rider lifted into a ceiling: a Quake 1 lift reverses (`plat_crush`), again and again while
/// its field sends it back up; a Quake III crusher is held where the rider stops it and never
/// reverses (`Blocked_Door`: "crushers don't reverse"; agents cannot be killed here).
#[test]
fn a_lift_blocked_by_its_rider_reverses_unless_it_is_a_crusher() {
    let ceiling = || cube([96.0, -96.0, 170.0], [288.0, 96.0, 186.0]);
    for backend in BackendKind::ALL {
        let mut sim = living(
            backend,
            Dialect::Quake1,
            vec![floor(), ceiling()],
            vec![lift(&[])],
            2000,
        );
        let id = sim
            .spawn(AgentSpec::new(player(), DVec3::new(192.0, 0.0, 32.03125)))
            .unwrap();
        sim.run(200);
        let seen = kinds(&sim);
        assert!(
            seen.contains(&MoverEventKind::Blocked { agent: id })
                && seen.contains(&MoverEventKind::Reversed),
            "{backend:?}: {seen:?}"
        );
        assert_never_in_solid(&sim);

        let mut sim = living(
            backend,
            Dialect::Quake3,
            vec![floor(), ceiling()],
            vec![lift(&[("spawnflags", "4")])],
            2000,
        );
        let id = sim
            .spawn(AgentSpec::new(player(), DVec3::new(192.0, 0.0, 32.03125)))
            .unwrap();
        sim.run(200);
        let seen = kinds(&sim);
        assert!(
            seen.contains(&MoverEventKind::Blocked { agent: id })
                && !seen.contains(&MoverEventKind::Reversed),
            "{backend:?}: {seen:?}"
        );
        // Held where the rider's head meets the ceiling (z 170, less the skin at most).
        let me = sim.agent(id).unwrap();
        assert!(me.position.z + 32.0 <= 170.0 + 1e-9, "{backend:?}: {me:?}");
        assert!(me.position.z + 32.0 > 170.0 - 3.0, "{backend:?}: {me:?}");
        assert_never_in_solid(&sim);
    }
}

/// A crowd walking about a door and a lift ends on the same bits, with the same mover events,
/// on one thread and in interaction groups on two.
#[test]
fn a_living_run_ends_on_the_same_bits_on_one_and_two_threads() {
    let door = EntityInput::new(2, 20, [("classname", "func_door"), ("angle", "-1")])
        .with_solid(cube([-62.0, -32.0, 0.0], [-50.0, 32.0, 96.0]));
    let statics = vec![
        floor(),
        // Walls around the floor.
        cube([-528.0, -528.0, 0.0], [-512.0, 528.0, 256.0]),
        cube([512.0, -528.0, 0.0], [528.0, 528.0, 256.0]),
        cube([-512.0, -528.0, 0.0], [512.0, -512.0, 256.0]),
        cube([-512.0, 512.0, 0.0], [512.0, 528.0, 256.0]),
        cube([-64.0, -512.0, 0.0], [-48.0, -32.0, 128.0]),
        cube([-64.0, 32.0, 0.0], [-48.0, 512.0, 128.0]),
        cube([-64.0, -32.0, 96.0], [-48.0, 32.0, 128.0]),
    ];
    let run = |threads: usize| {
        super::on_threads(threads, || {
            let mut sim = living(
                BackendKind::Exact,
                Dialect::Quake1,
                statics.clone(),
                vec![lift(&[]), door.clone()],
                0,
            );
            let mut ids = Vec::new();
            for i in 0..24 {
                let x = -400.0 + 36.0 * f64::from(i % 12);
                let y = if i < 12 { -40.0 } else { 40.0 };
                ids.push(
                    sim.spawn(AgentSpec::new(player(), DVec3::new(x, y, 24.03125)))
                        .unwrap(),
                );
            }
            for step in 0..400u32 {
                for (k, &id) in ids.iter().enumerate() {
                    let angle = f64::from(step / 64 + k as u32) * 0.9;
                    let dir = DVec3::new(angle.cos(), angle.sin() * 0.3, 0.0);
                    sim.set_intent(id, Intent::walk(dir, 320.0)).unwrap();
                }
                sim.step();
            }
            assert_never_in_solid(&sim);
            (
                sim.state_hash(),
                sim.mover_events().to_vec(),
                sim.events().to_vec(),
            )
        })
    };
    let one = run(1);
    let two = run(2);
    assert!(!one.1.is_empty(), "the movers never moved");
    assert_eq!(one.0, two.0);
    assert_eq!(one.1, two.1);
    assert_eq!(one.2, two.2);
}

/// A rider is never pushed into another agent (Quake tests a pushed entity against the other
/// players' bodies: `G_TestEntityPosition`, `SV_TestEntityPosition`): an agent standing on a
/// ledge over the lift's shaft stops the lift carrying a rider into it, and the Quake 1 lift
/// reverses (`plat_crush`); the two agents never overlap. Once with a player, once with a rider
/// 224 units tall, whose head meets an agent on a ledge far above the lift's reach (beyond the
/// agents the movers' pass reads first).
#[test]
fn a_lift_does_not_push_its_rider_into_another_agent() {
    let tall = Shape::new_box(
        DVec3::new(-16.0, -16.0, -24.0),
        DVec3::new(16.0, 16.0, 200.0),
    )
    .unwrap();
    // The rider's shape and the ledge's top: the rider's head passes the other's feet on the
    // way up (the lift's top rises from z 8 to 128).
    for (shape, ledge_top) in [(player(), 180.0), (tall, 300.0)] {
        let head = shape.bounds().max.z;
        for backend in BackendKind::ALL {
            // A ledge east of the lift.
            let ledge = cube([256.0, -64.0, 0.0], [400.0, 64.0, ledge_top]);
            let entities = super::triggers::entities(Dialect::Quake1, vec![lift(&[])]);
            let shapes = [player(), shape.clone()];
            let mut sim = super::triggers::living_sim_for(
                backend,
                vec![floor(), ledge],
                entities,
                0,
                2000,
                &shapes,
            );
            // The rider near the lift's east edge (x 224..256); the other agent on the ledge's
            // edge (x 246..278), overhanging the shaft above the rider.
            let rider = sim
                .spawn(AgentSpec::new(
                    shape.clone(),
                    DVec3::new(240.0, 0.0, 32.03125),
                ))
                .unwrap();
            let above = sim
                .spawn(AgentSpec::new(
                    player(),
                    DVec3::new(262.0, 0.0, ledge_top + 24.03125),
                ))
                .unwrap();
            for _ in 0..120 {
                sim.step();
                let (a, b) = (sim.agent(rider).unwrap(), sim.agent(above).unwrap());
                let top = a.position.z + head;
                let feet = b.position.z - 24.0;
                assert!(top <= feet + 1e-9, "{backend:?}: {a:?} overlaps {b:?}");
            }
            let kinds = kinds(&sim);
            assert!(
                kinds.contains(&MoverEventKind::Blocked { agent: rider }),
                "{backend:?}: {kinds:?}"
            );
            assert!(
                kinds.contains(&MoverEventKind::Reversed),
                "{backend:?}: {kinds:?}"
            );
            assert_never_in_solid(&sim);
        }
    }
}
