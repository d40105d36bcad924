//! What triggers do to agents (issue 32, stage 4; `docs/entities.md` "Triggers",
//! "Teleporters", "Push pads"), with every expected value derived from the engines' arithmetic:
//!
//! - a Quake 1 teleporter lands the agent 27 units above its destination with 300 units/s along
//!   the destination's facing, turns its view, and drops a backward wish for 0.7 s
//!   (`teleport_touch`, `SV_AirMove`); Quake III's lands it 1 unit above with 400 units/s and
//!   160 ms of knockback (`TeleportPlayer`), picking among its destinations with the
//!   simulation's seeded generator (`G_PickTarget`);
//! - a Quake 1 push pad sets `10 * speed` along its angle every step of contact, each component
//!   held to 2000 (`trigger_push_touch`, `SV_CheckVelocity`); Quake III's jump pad launches the
//!   agent on `AimAtTarget`'s arc;
//! - Quake III tests a trigger's brushes exactly (`trap_EntityContact`): an agent inside a
//!   slanted trigger's bounds but clear of the brush touches it in Quake 1 only;
//! - bad input (a teleporter without a destination, a jump pad aiming down) is warned about
//!   where it is written and does nothing; runs end on the same bits on one and two threads.

use std::sync::Arc;

use cspace_entities::{Dialect, EntityInput, Push, TriggerKind, spawn};
use cspace_geom::{Brush, DVec3, Plane, Shape, World};
use cspace_sim::{
    AgentId, AgentSpec, BackendKind, EventKind, Intent, Living, Models, Recording, Sim, SimConfig,
};

use super::living::{cube, player};

fn floor() -> Brush {
    cube([-1024.0, -1024.0, -16.0], [1024.0, 1024.0, 0.0])
}

/// The map's entities (after a worldspawn) read with `dialect`'s rules.
pub(super) fn entities(dialect: Dialect, inputs: Vec<EntityInput>) -> cspace_entities::Entities {
    let mut all = vec![EntityInput::new(0, 1, [("classname", "worldspawn")])];
    all.extend(inputs);
    spawn(&all, dialect)
}

/// A living simulation of `statics` and `entities` on `backend`, with the exactness guard.
pub(super) fn living_sim(
    backend: BackendKind,
    statics: Vec<Brush>,
    entities: cspace_entities::Entities,
    seed: u64,
    parallel_from: usize,
) -> Sim {
    living_sim_for(backend, statics, entities, seed, parallel_from, &[player()])
}

/// [`living_sim`] for agents of `shapes`.
pub(super) fn living_sim_for(
    backend: BackendKind,
    statics: Vec<Brush>,
    entities: cspace_entities::Entities,
    seed: u64,
    parallel_from: usize,
    shapes: &[Shape],
) -> Sim {
    let entities = Arc::new(entities);
    let world = Arc::new(World::from_brushes(statics));
    let collider = backend.build_for(&world, shapes).unwrap().unwrap();
    let models = Models::build(backend, &entities.movers, shapes)
        .unwrap()
        .unwrap();
    let config = SimConfig {
        recording: Recording::Events,
        verify: true,
        parallel_from,
        seed,
        living: Some(Living {
            entities,
            models: Arc::new(models),
        }),
        ..SimConfig::default()
    };
    Sim::new(collider, config).unwrap()
}

/// A teleporter at x 0..64 (y -64..64, z 0..128) whose target is `target`.
fn teleporter(index: u32, target: &str) -> EntityInput {
    EntityInput::new(
        index,
        10 * index,
        [("classname", "trigger_teleport"), ("target", target)],
    )
    .with_solid(cube([0.0, -64.0, 0.0], [64.0, 64.0, 128.0]))
}

fn destination(index: u32, class: &str, name: &str, origin: &str, angle: &str) -> EntityInput {
    EntityInput::new(
        index,
        10 * index,
        [
            ("classname", class),
            ("targetname", name),
            ("origin", origin),
            ("angle", angle),
        ],
    )
}

/// Walks agent `id` along +x until a teleport event, returning that step's state and event.
fn walk_into_teleporter(
    sim: &mut Sim,
    id: AgentId,
) -> Option<(cspace_sim::AgentState, EventKind, u64)> {
    sim.set_intent(id, Intent::walk(DVec3::X, 320.0)).unwrap();
    for _ in 0..200 {
        sim.step();
        let step = sim.step_index();
        if let Some(e) = sim
            .events()
            .iter()
            .find(|e| e.step == step && matches!(e.kind, EventKind::Teleported { .. }))
        {
            return Some((sim.agent(id).unwrap(), e.kind, step));
        }
    }
    None
}

#[test]
fn a_quake1_teleporter_lands_27_up_with_300_along_the_destination_angle() {
    for backend in BackendKind::ALL {
        let e = entities(
            Dialect::Quake1,
            vec![
                destination(1, "info_teleport_destination", "there", "500 300 40", "90"),
                teleporter(2, "there"),
            ],
        );
        assert!(e.warnings.is_empty(), "{:?}", e.warnings);
        let mut sim = living_sim(backend, vec![floor()], e, 0, 2000);
        let id = sim
            .spawn(AgentSpec::new(player(), DVec3::new(-100.0, 0.0, 24.03125)))
            .unwrap();
        let (me, event, _) = walk_into_teleporter(&mut sim, id).expect("teleported");
        // triggers.qc: info_teleport_destination's origin + '0 0 27'; v_forward * 300 of
        // makevectors(mangle) with yaw 90.
        let to = DVec3::new(500.0, 300.0, 67.0);
        assert_eq!(me.position, to, "{backend:?}");
        let (s, c) = 90f64.to_radians().sin_cos();
        assert_eq!(me.velocity, DVec3::new(c, s, 0.0) * 300.0, "{backend:?}");
        assert!(!me.on_ground);
        let EventKind::Teleported {
            trigger: 0,
            from,
            to: landed,
        } = event
        else {
            panic!("{event:?}");
        };
        assert_eq!(landed, to);
        // Touched when its box, grown by 1, met the teleporter's grown by 1: x + 16 + 1 >= -1.
        assert!(from.x >= -18.0 && from.x < -13.0, "{from:?}");
        // Both games turn the player to the destination's facing.
        assert_eq!(sim.intent(id).unwrap().view.yaw, 90.0);
        // The touch began once, with the teleporter's entity.
        let touches: Vec<_> = sim
            .events()
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Touches { .. }))
            .map(|e| e.kind)
            .collect();
        assert_eq!(
            touches,
            [EventKind::Touches {
                trigger: 0,
                entity: 2
            }]
        );
        sim.run(64);
        let v = sim.verification().unwrap();
        assert_eq!(v.in_solid, 0, "{backend:?}: {:?}", v.first);
    }
}

/// Quake 1 drops a backward wish for 0.7 s after a teleport (`teleport_time`, `SV_AirMove`):
/// an agent wishing to go back (against its new view) keeps the teleporter's velocity until the
/// hold runs out, then turns back; without the rule (a Quake III teleporter) it turns at once.
#[test]
fn a_quake1_teleport_ignores_backward_input_for_0_7_seconds() {
    let dest = || destination(1, "info_teleport_destination", "there", "500 0 0", "0");
    let e = entities(Dialect::Quake1, vec![dest(), teleporter(2, "there")]);
    let mut sim = living_sim(BackendKind::Exact, vec![floor()], e, 0, 2000);
    let id = sim
        .spawn(AgentSpec::new(player(), DVec3::new(-100.0, 0.0, 24.03125)))
        .unwrap();
    let (me, _, at) = walk_into_teleporter(&mut sim, id).expect("teleported");
    assert_eq!(me.velocity, DVec3::new(300.0, 0.0, 0.0));
    // Backwards: -x, against the view (yaw 0).
    sim.set_intent(id, Intent::walk(DVec3::NEG_X, 320.0))
        .unwrap();
    let dt = sim.dt();
    let mut turned_at = None;
    for _ in 0..128 {
        sim.step();
        let me = sim.agent(id).unwrap();
        if turned_at.is_none() && me.velocity.x < 0.0 {
            turned_at = Some(sim.step_index());
        }
    }
    let turned = (turned_at.expect("it turns back at last") - at) as f64 * dt;
    // The hold: steps k after the teleport with k * dt < 0.7 (44 of 1/64 s) drop the wish; then
    // friction and the ground's acceleration (10 * 320 * dt = 50 units/s a step) turn it.
    assert!(turned > 0.7, "turned back after {turned} s");
    assert!(turned < 0.7 + 0.25, "turned back after {turned} s");
    // A sideways wish is kept during the hold.
    let e = entities(Dialect::Quake1, vec![dest(), teleporter(2, "there")]);
    let mut sim = living_sim(BackendKind::Exact, vec![floor()], e, 0, 2000);
    let id = sim
        .spawn(AgentSpec::new(player(), DVec3::new(-100.0, 0.0, 24.03125)))
        .unwrap();
    walk_into_teleporter(&mut sim, id).expect("teleported");
    sim.set_intent(id, Intent::walk(DVec3::new(-1.0, 1.0, 0.0), 320.0))
        .unwrap();
    sim.run(20);
    let me = sim.agent(id).unwrap();
    assert!(me.velocity.y > 100.0 && me.velocity.x > 0.0, "{me:?}");
}

/// Quake III's `TeleportPlayer`: 1 unit above the destination, 400 units/s along its facing, a
/// 160 ms knockback; `G_PickTarget` draws among the destinations with the simulation's seeded
/// generator: the same seed picks the same one, and the seeds pick both.
#[test]
fn a_quake3_teleporter_picks_its_destination_with_the_seed() {
    let run = |seed: u64| {
        let e = entities(
            Dialect::Quake3,
            vec![
                destination(1, "misc_teleporter_dest", "there", "500 300 40", "180"),
                destination(2, "misc_teleporter_dest", "there", "-500 -300 80", "270"),
                teleporter(3, "there"),
            ],
        );
        assert!(e.warnings.is_empty(), "{:?}", e.warnings);
        let mut sim = living_sim(BackendKind::Exact, vec![floor()], e, seed, 2000);
        let id = sim
            .spawn(AgentSpec::new(player(), DVec3::new(-100.0, 0.0, 24.03125)))
            .unwrap();
        let (me, _, _) = walk_into_teleporter(&mut sim, id).expect("teleported");
        (me, sim.intent(id).unwrap().view.yaw)
    };
    let mut seen = [false; 2];
    for seed in 0..16 {
        let (me, yaw) = run(seed);
        assert_eq!(run(seed).0, me, "seed {seed} is not deterministic");
        let (to, angle) = if me.position.x > 0.0 {
            seen[0] = true;
            (DVec3::new(500.0, 300.0, 41.0), 180f64)
        } else {
            seen[1] = true;
            (DVec3::new(-500.0, -300.0, 81.0), 270f64)
        };
        assert_eq!(me.position, to, "seed {seed}");
        let (s, c) = angle.to_radians().sin_cos();
        assert_eq!(me.velocity, DVec3::new(c, s, 0.0) * 400.0, "seed {seed}");
        assert_eq!(yaw, angle);
    }
    assert_eq!(seen, [true, true], "16 seeds picked one destination only");
}

/// The Quake III hold after a teleport: the movement timer holds a 160 ms knockback (no
/// friction), and it runs out.
#[test]
fn a_quake3_teleport_knocks_back_for_160_ms() {
    let e = entities(
        Dialect::Quake3,
        vec![
            destination(1, "misc_teleporter_dest", "there", "500 0 25", "0"),
            teleporter(2, "there"),
        ],
    );
    let mut sim = living_sim(BackendKind::Exact, vec![floor()], e, 0, 2000);
    let id = sim
        .spawn(AgentSpec::new(player(), DVec3::new(-100.0, 0.0, 24.03125)))
        .unwrap();
    walk_into_teleporter(&mut sim, id).expect("teleported");
    sim.set_intent(id, Intent::default()).unwrap();
    // Landing 2 units up: on the ground within a few steps, sliding without friction while
    // the knockback runs (10 steps of 1/64 s < 0.16 s), then slowing.
    let mut speeds = Vec::new();
    for _ in 0..16 {
        sim.step();
        speeds.push(sim.agent(id).unwrap().velocity.x);
    }
    assert!((speeds[9] - 400.0).abs() < 0.01, "{speeds:?}");
    assert!(speeds[15] < 390.0, "{speeds:?}");
}

/// A teleporter whose landing place is in solid refuses the teleport (an event) and the agent
/// walks on; one without a destination is warned about where it is written and does nothing.
#[test]
fn a_teleporter_into_solid_or_without_destination_does_nothing() {
    let e = entities(
        Dialect::Quake1,
        vec![
            destination(1, "info_teleport_destination", "there", "500 0 0", "0"),
            teleporter(2, "there"),
        ],
    );
    let block = cube([400.0, -100.0, 0.0], [600.0, 100.0, 200.0]);
    let mut sim = living_sim(BackendKind::Exact, vec![floor(), block], e, 0, 2000);
    let id = sim
        .spawn(AgentSpec::new(player(), DVec3::new(-100.0, 0.0, 24.03125)))
        .unwrap();
    assert!(walk_into_teleporter(&mut sim, id).is_none());
    assert!(sim.events().iter().any(|e| e.kind
        == EventKind::TeleportRefused {
            trigger: 0,
            to: DVec3::new(500.0, 0.0, 27.0)
        }));
    assert!(sim.agent(id).unwrap().position.x > 100.0);

    let e = entities(Dialect::Quake1, vec![teleporter(2, "nowhere")]);
    assert_eq!(e.warnings.len(), 1, "{:?}", e.warnings);
    assert!(
        e.warnings[0].to_string().contains("line 20"),
        "{}",
        e.warnings[0]
    );
    let mut sim = living_sim(BackendKind::Exact, vec![floor()], e, 0, 2000);
    let id = sim
        .spawn(AgentSpec::new(player(), DVec3::new(-100.0, 0.0, 24.03125)))
        .unwrap();
    assert!(walk_into_teleporter(&mut sim, id).is_none());
    assert!(sim.agent(id).unwrap().position.x > 100.0);
    // Touched all the same: the event names it.
    assert!(sim.events().iter().any(|e| e.kind
        == EventKind::Touches {
            trigger: 0,
            entity: 2
        }));
}

/// A Quake 1 `trigger_push` at x 0..256 with `keys`.
fn wind(keys: &[(&str, &str)]) -> EntityInput {
    let mut all = vec![("classname", "trigger_push")];
    all.extend_from_slice(keys);
    EntityInput::new(1, 10, all).with_solid(cube([0.0, -64.0, 0.0], [256.0, 64.0, 128.0]))
}

/// Quake 1's wind: `speed * movedir * 10` every step of contact, each component held to 2000;
/// `PUSH_ONCE` pushes once; an upward push lifts the agent off the ground.
#[test]
fn a_quake1_push_sets_ten_times_its_speed_every_step_of_contact() {
    let standing = DVec3::new(128.0, 0.0, 24.03125);
    for backend in BackendKind::ALL {
        let e = entities(
            Dialect::Quake1,
            vec![wind(&[("angle", "0"), ("speed", "50")])],
        );
        let mut sim = living_sim(backend, vec![floor()], e, 0, 2000);
        let id = sim.spawn(AgentSpec::new(player(), standing)).unwrap();
        sim.step();
        // Angle 0 reads as no angle in QuakeC (movedir zero): it stops the agent. A yaw of 360
        // is the same direction as 0 and is set.
        assert_eq!(sim.agent(id).unwrap().velocity, DVec3::ZERO, "{backend:?}");
        let e = entities(
            Dialect::Quake1,
            vec![wind(&[("angle", "360"), ("speed", "50")])],
        );
        let mut sim = living_sim(backend, vec![floor()], e, 0, 2000);
        let id = sim.spawn(AgentSpec::new(player(), standing)).unwrap();
        let mut pushed = 0;
        for _ in 0..64 {
            sim.step();
            let me = sim.agent(id).unwrap();
            if me.position.x - 16.0 - 1.0 <= 257.0 {
                // Still in contact after this step's move: the push set the velocity.
                // A whole number of quarter turns is exact (`yaw_vector`).
                assert_eq!(me.velocity, DVec3::new(500.0, 0.0, 0.0), "{backend:?}");
                pushed += 1;
            }
        }
        assert!(pushed >= 2, "{backend:?}: pushed {pushed} times");
        assert!(sim.agent(id).unwrap().position.x > 300.0);
        let v = sim.verification().unwrap();
        assert_eq!(v.in_solid, 0, "{backend:?}: {:?}", v.first);
    }
    // 10 * 300 along 45 degrees is 2121 on x and y: held to 2000 each (SV_CheckVelocity).
    let e = entities(
        Dialect::Quake1,
        vec![wind(&[("angle", "45"), ("speed", "300")])],
    );
    let mut sim = living_sim(BackendKind::Exact, vec![floor()], e, 0, 2000);
    let id = sim.spawn(AgentSpec::new(player(), standing)).unwrap();
    sim.step();
    assert_eq!(
        sim.agent(id).unwrap().velocity,
        DVec3::new(2000.0, 2000.0, 0.0)
    );
    // PUSH_ONCE: one push, then the pad is gone; up (-1): off the ground.
    let e = entities(
        Dialect::Quake1,
        vec![wind(&[
            ("angle", "-1"),
            ("speed", "40"),
            ("spawnflags", "1"),
        ])],
    );
    let mut sim = living_sim(BackendKind::Exact, vec![floor()], e, 0, 2000);
    let id = sim.spawn(AgentSpec::new(player(), standing)).unwrap();
    sim.step();
    let me = sim.agent(id).unwrap();
    assert_eq!(me.velocity, DVec3::new(0.0, 0.0, 400.0));
    assert!(!me.on_ground);
    sim.step();
    let me = sim.agent(id).unwrap();
    // Gravity only: 400 - 800 / 64.
    assert_eq!(me.velocity.z, 400.0 - 800.0 / 64.0);
}

/// Quake III's jump pad: the agent leaves the pad with `AimAtTarget`'s velocity and follows its
/// parabola (gravity 800) to within 1 unit up to the apex, which is as high above the launch as
/// the target is above the pad's centre.
#[test]
fn a_quake3_jump_pad_follows_aim_at_targets_arc() {
    let pad = EntityInput::new(2, 20, [("classname", "trigger_push"), ("target", "apex")])
        .with_solid(cube([-32.0, -32.0, 0.0], [32.0, 32.0, 8.0]));
    let apex = EntityInput::new(
        1,
        10,
        [
            ("classname", "target_position"),
            ("targetname", "apex"),
            ("origin", "400 100 260"),
        ],
    );
    let e = entities(Dialect::Quake3, vec![apex, pad]);
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    let TriggerKind::Push(push @ Push::Apex { from, apex }) = e.triggers[0].kind else {
        panic!("{:?}", e.triggers[0].kind);
    };
    let v = push.velocity(800.0).unwrap();
    // AimAtTarget: t = sqrt(h / (g / 2)), v_xy = d_xy / t, v_z = t g.
    let h = apex.z - from.z;
    let t = (h / 400.0).sqrt();
    assert_eq!(v.z, t * 800.0);
    let d = DVec3::new(apex.x - from.x, apex.y - from.y, 0.0);
    assert!((DVec3::new(v.x, v.y, 0.0) - d / t).length() < 1e-9);
    for backend in BackendKind::ALL {
        let mut sim = living_sim(backend, vec![floor()], e.clone(), 0, 2000);
        let id = sim
            .spawn(AgentSpec::new(player(), DVec3::new(0.0, 0.0, 24.03125)))
            .unwrap();
        // Launched where it stands, at the end of the last step of contact.
        let mut launch = None;
        let mut path = Vec::new();
        for _ in 0..128 {
            sim.step();
            let me = sim.agent(id).unwrap();
            if me.velocity == v {
                launch = Some((sim.step_index(), me.position));
                path.clear();
            } else {
                path.push((sim.step_index(), me.position));
            }
        }
        let (at, p0) = launch.expect("launched");
        let dt = sim.dt();
        let mut top = f64::NEG_INFINITY;
        for &(step, p) in &path {
            let s = (step - at) as f64 * dt;
            if s > t {
                break;
            }
            let expected = p0 + v * s - DVec3::Z * (400.0 * s * s);
            assert!(
                (p - expected).length() <= 1.0,
                "{backend:?}: at {s} s {p:?}, the arc says {expected:?}"
            );
            top = top.max(p.z);
        }
        // The apex: h above the launch.
        assert!(
            (top - (p0.z + h)).abs() <= 1.0,
            "{backend:?}: {top} vs {}",
            p0.z + h
        );
    }
}

/// A jump pad whose target is below it is warned about where it is written and kept out.
#[test]
fn a_jump_pad_aiming_down_is_warned_and_inert() {
    let pad = EntityInput::new(2, 20, [("classname", "trigger_push"), ("target", "low")])
        .with_solid(cube([-32.0, -32.0, 0.0], [32.0, 32.0, 8.0]));
    let low = EntityInput::new(
        1,
        10,
        [
            ("classname", "target_position"),
            ("targetname", "low"),
            ("origin", "400 0 -50"),
        ],
    );
    let e = entities(Dialect::Quake3, vec![low, pad]);
    assert_eq!(e.warnings.len(), 1, "{:?}", e.warnings);
    assert!(
        e.warnings[0].to_string().contains("line 20"),
        "{}",
        e.warnings[0]
    );
    assert!(e.triggers.is_empty());
    let mut sim = living_sim(BackendKind::Exact, vec![floor()], e, 0, 2000);
    let id = sim
        .spawn(AgentSpec::new(player(), DVec3::new(0.0, 0.0, 24.03125)))
        .unwrap();
    sim.run(32);
    let me = sim.agent(id).unwrap();
    assert!(me.on_ground && me.velocity == DVec3::ZERO, "{me:?}");
}

/// A trigger brush slanted at 45 degrees (x + z <= 64 over x 0..64, z 0..64): an agent at x 40,
/// its feet at z 40, is inside the trigger's bounds but above the slope (its nearest corner at
/// x 24, z 40: 24 + 40 = 64 is on it, so 1 unit higher is clear). Quake 1 (bounds) touches it;
/// Quake III's exact contact does not, and does once the agent comes down onto the slope.
#[test]
fn quake3_tests_a_slanted_trigger_exactly() {
    let n = DVec3::new(1.0, 0.0, 1.0).normalize();
    let wedge = Brush::from_planes(&[
        Plane::new(n, 64.0 * n.x).unwrap(),
        Plane::new(DVec3::NEG_X, 0.0).unwrap(),
        Plane::new(DVec3::NEG_Z, 0.0).unwrap(),
        Plane::new(DVec3::Y, 64.0).unwrap(),
        Plane::new(DVec3::NEG_Y, 64.0).unwrap(),
    ])
    .unwrap();
    let trigger = |dialect| {
        entities(
            dialect,
            vec![
                EntityInput::new(1, 10, [("classname", "trigger_multiple")])
                    .with_solid(wedge.clone()),
            ],
        )
    };
    // An agent in the air, tested at the end of its first step (it falls 800 / 64^2 / 2 units).
    let touched = |dialect, z: f64| {
        let mut sim = living_sim(BackendKind::Exact, vec![], trigger(dialect), 0, 2000);
        let id = sim
            .spawn(AgentSpec::new(player(), DVec3::new(40.0, 0.0, z)))
            .unwrap();
        sim.step();
        let _ = id;
        sim.events()
            .iter()
            .any(|e| matches!(e.kind, EventKind::Touches { trigger: 0, .. }))
    };
    // Feet at 65 after the first step's fall (800 / 64 / 64 / 2 ~ 0.1 below the start): clear.
    let clear = 24.0 + 41.5;
    assert!(touched(Dialect::Quake1, clear));
    assert!(!touched(Dialect::Quake3, clear));
    assert!(touched(Dialect::Quake3, 24.0 + 30.0));
}

/// A Quake 1 hurt volume: an event every second of contact (`hurt_touch` turns it off for a
/// second), with the damage as written; nothing else happens.
#[test]
fn a_hurt_volume_is_an_event_a_second() {
    let e = entities(
        Dialect::Quake1,
        vec![
            EntityInput::new(1, 10, [("classname", "trigger_hurt"), ("dmg", "15")])
                .with_solid(cube([-64.0, -64.0, 0.0], [64.0, 64.0, 64.0])),
        ],
    );
    let mut sim = living_sim(BackendKind::Exact, vec![floor()], e, 0, 2000);
    sim.spawn(AgentSpec::new(player(), DVec3::new(0.0, 0.0, 24.03125)))
        .unwrap();
    sim.run(64 * 3);
    let hurts: Vec<u64> = sim
        .events()
        .iter()
        .filter(|e| {
            e.kind
                == EventKind::Hurt {
                    trigger: 0,
                    damage: 15.0,
                }
        })
        .map(|e| e.step)
        .collect();
    assert_eq!(hurts, [1, 65, 129]);
}

/// Agents crossing Quake III teleporters (two destinations, so the seeded generator draws) and
/// jump pads end on the same bits, with the same events, on one thread and in interaction
/// groups on two.
#[test]
fn triggers_end_on_the_same_bits_on_one_and_two_threads() {
    let inputs = || {
        vec![
            destination(1, "misc_teleporter_dest", "there", "-600 600 40", "0"),
            destination(2, "misc_teleporter_dest", "there", "-600 -600 40", "0"),
            EntityInput::new(
                3,
                30,
                [
                    ("classname", "target_position"),
                    ("targetname", "apex"),
                    ("origin", "-300 0 200"),
                ],
            ),
            teleporter(4, "there"),
            EntityInput::new(5, 50, [("classname", "trigger_push"), ("target", "apex")])
                .with_solid(cube([-664.0, -700.0, 0.0], [-536.0, 700.0, 8.0])),
        ]
    };
    let run = |threads: usize| {
        super::on_threads(threads, || {
            let e = entities(Dialect::Quake3, inputs());
            let mut sim = living_sim(BackendKind::Exact, vec![floor()], e, 7, 0);
            let mut ids = Vec::new();
            for i in 0..12 {
                let y = -50.0 + 9.0 * f64::from(i);
                let x = -200.0 - 70.0 * f64::from(i % 3);
                ids.push(
                    sim.spawn(AgentSpec::new(player(), DVec3::new(x, y, 24.03125)))
                        .unwrap(),
                );
            }
            for &id in &ids {
                sim.set_intent(id, Intent::walk(DVec3::X, 320.0)).unwrap();
            }
            sim.run(400);
            let v = sim.verification().unwrap();
            assert_eq!(v.in_solid, 0, "{:?}", v.first);
            (sim.state_hash(), sim.events().to_vec())
        })
    };
    let one = run(1);
    let two = run(2);
    let teleports = one
        .1
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Teleported { .. }))
        .count();
    assert!(teleports >= 2, "{teleports} teleports");
    assert_eq!(one.0, two.0);
    assert_eq!(one.1, two.1);
}
