//! The simulator driven step by step from outside: the example's drive (`examples/drive.rs`)
//! ends on the bits its intents give as scripts, on every backend and thread count; teleports
//! and despawns keep runs deterministic; and each call refuses what it must, with a typed error.

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::{Aabb, Brush, DVec3, World};
use cspace_sim::{
    AgentId, AgentSpec, BackendKind, Event, EventKind, Intent, Recording, Scripted, Sim, SimConfig,
    SimError,
};

#[path = "../../examples/drive.rs"]
#[allow(
    dead_code,
    reason = "the test uses the example's functions, not its main"
)]
mod drive;

/// A floor with pillars and a few raised blocks to climb and fall from: generated, seeded.
fn world() -> Arc<World> {
    let mut rng = Rng::new(5);
    let mut brushes = vec![
        Brush::from_aabb(Aabb::new(
            DVec3::new(-1024.0, -1024.0, -16.0),
            DVec3::new(1024.0, 1024.0, 0.0),
        ))
        .unwrap(),
    ];
    for _ in 0..40 {
        let c = DVec3::new(rng.range(-900.0, 900.0), rng.range(-900.0, 900.0), 0.0);
        let h = DVec3::new(
            rng.range(8.0, 40.0),
            rng.range(8.0, 40.0),
            rng.range(12.0, 120.0),
        );
        brushes.push(Brush::from_aabb(Aabb::new(c - DVec3::new(h.x, h.y, 0.0), c + h)).unwrap());
    }
    Arc::new(World::from_brushes(brushes))
}

fn starts(collider: &dyn cspace_geom::Collider, count: usize) -> Vec<DVec3> {
    let spawns = [
        DVec3::new(-300.0, -300.0, 24.5),
        DVec3::new(300.0, 300.0, 24.5),
        DVec3::new(300.0, -300.0, 24.5),
    ];
    drive::starts(collider, &spawns, count)
}

/// The example's intents, set from outside step by step, and the same intents as scripts
/// (`Scripts` setting them), end on the same bits: on every backend, on one thread and in
/// interaction groups on two.
#[test]
fn a_driven_run_ends_on_the_bits_of_the_same_intents_scripted() {
    let world = world();
    let (standing, crouching) = drive::player();
    let plan = drive::Plan {
        agents: 40,
        steps: 400,
        teleport_at: None,
        despawn_at: None,
        parallel_from: 0,
    };
    let pools: Vec<rayon::ThreadPool> = [1, 2]
        .iter()
        .map(|&n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        })
        .collect();
    for kind in BackendKind::ALL {
        let collider = kind
            .build_for(&world, &[standing.clone(), crouching.clone()])
            .unwrap()
            .unwrap();
        let starts = starts(collider.as_ref(), plan.agents);
        assert_eq!(starts.len(), plan.agents);
        let scripts = drive::scripts(&starts, plan.steps);
        for pool in &pools {
            let (driven, scripted) = pool.install(|| {
                let driven = drive::drive(collider.clone(), &starts, plan);
                let config = SimConfig {
                    dt: drive::DT,
                    parallel_from: 0,
                    ..SimConfig::default()
                };
                let mut run = Scripted::new(collider.clone(), config, &scripts).unwrap();
                run.run(plan.steps);
                (driven, run.sim.state_hash())
            });
            assert_eq!(
                driven,
                scripted,
                "{} on {} threads",
                kind.name(),
                pool.current_num_threads()
            );
        }
    }
}

/// With a teleport and a despawn on the way, the run still ends on the same bits every time
/// and on any number of threads, and they change the end.
#[test]
fn teleports_and_despawns_keep_a_driven_run_deterministic() {
    let world = world();
    let (standing, crouching) = drive::player();
    let collider = BackendKind::Onion
        .build_for(&world, &[standing, crouching])
        .unwrap()
        .unwrap();
    let starts = starts(collider.as_ref(), 30);
    let plan = drive::Plan {
        agents: 30,
        steps: 300,
        teleport_at: Some(100),
        despawn_at: Some(200),
        parallel_from: 0,
    };
    let hashes: Vec<u64> = [1, 2, 2]
        .iter()
        .map(|&n| super::on_threads(n, || drive::drive(collider.clone(), &starts, plan)))
        .collect();
    assert!(hashes.iter().all(|&h| h == hashes[0]), "{hashes:x?}");
    let plain = drive::Plan {
        teleport_at: None,
        despawn_at: None,
        ..plan
    };
    assert_ne!(drive::drive(collider, &starts, plain), hashes[0]);
}

/// `states_into` reads what `states` yields, in id order, in one pass: after spawns, despawns
/// in the middle (hecs moves the last entity into the gap), and steps.
#[test]
fn states_into_reads_every_state_in_id_order() {
    let world = world();
    let (standing, crouching) = drive::player();
    let collider = BackendKind::Exact
        .build_for(&world, &[standing.clone(), crouching])
        .unwrap()
        .unwrap();
    let starts = starts(collider.as_ref(), 12);
    let mut sim = Sim::new(collider, SimConfig::default()).unwrap();
    for &start in &starts {
        sim.spawn(AgentSpec::new(standing.clone(), start)).unwrap();
    }
    let mut read = Vec::new();
    let check = |sim: &Sim, read: &mut Vec<cspace_sim::AgentState>| {
        sim.states_into(read);
        assert_eq!(*read, sim.states().collect::<Vec<_>>());
    };
    check(&sim, &mut read);
    sim.despawn(AgentId(3)).unwrap();
    sim.despawn(AgentId(0)).unwrap();
    for _ in 0..20 {
        for id in sim.ids().to_vec() {
            sim.set_intent(id, Intent::walk(DVec3::X, 320.0)).unwrap();
        }
        sim.step();
        check(&sim, &mut read);
    }
    let ids: Vec<u32> = read.iter().map(|s| s.id.0).collect();
    assert_eq!(ids, [1, 2, 4, 5, 6, 7, 8, 9, 10, 11]);
}

fn sim(recording: Recording) -> (Sim, AgentId) {
    let (standing, _) = drive::player();
    let collider = BackendKind::Exact
        .build_for(&world(), std::slice::from_ref(&standing))
        .unwrap()
        .unwrap();
    let mut sim = Sim::new(
        collider,
        SimConfig {
            recording,
            ..SimConfig::default()
        },
    )
    .unwrap();
    let id = sim
        .spawn(AgentSpec::new(standing, DVec3::new(-500.0, 0.0, 24.5)))
        .unwrap();
    (sim, id)
}

/// A teleport into solid or beyond the numeric domain is refused, the agent left where it
/// was; a free place takes it there, awake, found on the ground at the next step.
#[test]
fn a_teleport_into_solid_or_out_of_the_domain_is_refused() {
    let (mut sim, id) = sim(Recording::Off);
    sim.step();
    let before = sim.agent(id).unwrap();
    let error = sim
        .teleport(id, DVec3::new(0.0, 0.0, -10.0), DVec3::ZERO)
        .unwrap_err();
    assert!(
        matches!(error, SimError::TeleportIntoSolid { agent, .. } if agent == id),
        "{error}"
    );
    let error = sim
        .teleport(id, DVec3::new(1e300, 0.0, 0.0), DVec3::ZERO)
        .unwrap_err();
    assert!(
        matches!(error, SimError::OutOfDomain { what: "start", .. }),
        "{error}"
    );
    assert_eq!(sim.agent(id).unwrap(), before);
    sim.teleport(
        id,
        DVec3::new(500.0, 0.0, 24.03125),
        DVec3::new(64.0, 0.0, 0.0),
    )
    .unwrap();
    sim.step();
    let after = sim.agent(id).unwrap();
    assert!(after.on_ground && !after.asleep, "{after:?}");
    // Moved on from there at about its speed (friction slows it): 64 units/s for 1/64 s.
    assert!(
        after.position.x > 500.5 && after.position.x < 501.0,
        "{after:?}"
    );
}

/// An id names one agent: ids count up and are never reused, a despawned agent is unknown to
/// every call, and an agent that left the world takes no intent until it is teleported back.
#[test]
fn ids_are_never_reused_and_unknown_or_gone_agents_are_refused() {
    let (mut sim, first) = sim(Recording::Off);
    let (standing, _) = drive::player();
    let second = sim
        .spawn(AgentSpec::new(
            standing.clone(),
            DVec3::new(-400.0, 0.0, 24.5),
        ))
        .unwrap();
    sim.despawn(first).unwrap();
    let third = sim
        .spawn(AgentSpec::new(standing, DVec3::new(-300.0, 0.0, 24.5)))
        .unwrap();
    assert_eq!((first.0, second.0, third.0), (0, 1, 2));
    assert_eq!(sim.ids(), [second, third]);
    for error in [
        sim.agent(first).unwrap_err(),
        sim.set_intent(first, Intent::default()).unwrap_err(),
        sim.despawn(first).unwrap_err(),
        sim.teleport(first, DVec3::ZERO, DVec3::ZERO).unwrap_err(),
    ] {
        assert_eq!(error, SimError::UnknownAgent { agent: first });
    }
    // Walked off the floor's edge and out of the world: intents refused until it is back.
    sim.teleport(
        second,
        DVec3::new(1000.0, 0.0, 24.5),
        DVec3::new(2000.0, 0.0, 0.0),
    )
    .unwrap();
    let mut steps = 0;
    while !sim.has_left_world(second).unwrap() {
        sim.step();
        steps += 1;
        assert!(steps < 2000, "never left the world");
    }
    assert_eq!(
        sim.set_intent(second, Intent::default()).unwrap_err(),
        SimError::LeftWorld { agent: second }
    );
    sim.teleport(second, DVec3::new(0.0, 500.0, 24.5), DVec3::ZERO)
        .unwrap();
    sim.set_intent(second, Intent::walk(DVec3::X, 320.0))
        .unwrap();
    let error = sim
        .set_intent(
            second,
            Intent {
                goto: Some(DVec3::ZERO),
                ..Intent::default()
            },
        )
        .unwrap_err();
    assert!(matches!(error, SimError::Navigation(_)), "{error}");
}

/// Without recording, a simulation keeps one step's events and nothing else, however long it
/// runs: memory stays flat. With recording, every event is kept, and drained once.
#[test]
fn recording_off_keeps_one_steps_events_and_drain_hands_each_event_over_once() {
    let (mut off, a) = sim(Recording::Off);
    let (mut kept, b) = sim(Recording::Events);
    let mut drained = (Vec::<Event>::new(), Vec::<Event>::new());
    for step in 0..600 {
        // Walk back and forth across a pillar field: contacts begin and end all the time.
        let direction = if (step / 100) % 2 == 0 {
            DVec3::X
        } else {
            DVec3::NEG_X
        };
        off.set_intent(a, Intent::walk(direction, 320.0)).unwrap();
        kept.set_intent(b, Intent::walk(direction, 320.0)).unwrap();
        off.step();
        kept.step();
        assert!(off.events().iter().all(|e| e.step == off.step_index()));
        drained.0.extend_from_slice(off.drain_events());
        drained.1.extend_from_slice(kept.drain_events());
        assert!(off.drain_events().is_empty() && kept.drain_events().is_empty());
    }
    assert!(off.samples().is_empty() && off.plans().is_empty());
    assert_eq!(drained.0, drained.1, "the same events, drained from both");
    assert_eq!(
        drained.1,
        kept.events(),
        "every event kept, each drained once"
    );
    assert!(
        drained
            .1
            .iter()
            .any(|e| matches!(e.kind, EventKind::Contact(_))),
        "contacts began on the way"
    );
}
