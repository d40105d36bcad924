//! The step itself: sleeping and waking, long steps split, determinism across threads, and the
//! state fingerprint (the same bits on the onion as on the exact reference).

use std::sync::Arc;

use cspace_geom::{Aabb, Brush, DVec3, Shape, World};
use cspace_sim::{
    Action, AgentSpec, BackendKind, EventKind, MoveParams, Recording, ScriptEvent, Scripted,
    ScriptedAgent, SimConfig,
};

fn player(start: [f64; 3], script: Vec<(f64, Action)>) -> ScriptedAgent {
    ScriptedAgent {
        spec: AgentSpec::new(
            Shape::new_box(
                DVec3::new(-16.0, -16.0, -24.0),
                DVec3::new(16.0, 16.0, 32.0),
            )
            .unwrap(),
            DVec3::from_array(start),
        ),
        script: script
            .into_iter()
            .map(|(at, action)| ScriptEvent { at, action })
            .collect(),
    }
}

fn world() -> Arc<World> {
    Arc::new(World::from_brushes([Brush::from_aabb(Aabb::new(
        DVec3::new(-2048.0, -2048.0, -16.0),
        DVec3::new(2048.0, 2048.0, 0.0),
    ))
    .unwrap()]))
}

fn sim(agents: Vec<ScriptedAgent>, dt: f64) -> Scripted {
    let shape = agents[0].spec.standing.clone();
    let collider = BackendKind::Exact
        .build_for(&world(), &[shape])
        .unwrap()
        .unwrap();
    let config = SimConfig {
        params: MoveParams::default(),
        dt,
        recording: Recording::Sampled { every: 1 },
        ..SimConfig::default()
    };
    Scripted::new(collider, config, &agents).unwrap()
}

#[test]
fn resting_agents_sleep_and_wake_when_touched_or_scripted() {
    let agents = vec![
        // Rests, then is scripted to walk at 2 s.
        player(
            [0.0, 0.0, 24.5],
            vec![(
                2.0,
                Action::Move {
                    direction: DVec3::X,
                    speed: 320.0,
                },
            )],
        ),
        // Rests in the way of agent 2.
        player([0.0, 300.0, 24.5], vec![]),
        // Walks into agent 1 at 1 s.
        player(
            [-300.0, 300.0, 24.5],
            vec![(
                1.0,
                Action::Move {
                    direction: DVec3::X,
                    speed: 320.0,
                },
            )],
        ),
    ];
    let mut s = sim(agents, 1.0 / 64.0);
    s.run(64 * 3);
    let events = s.sim.events();
    let kinds = |id: u32| -> Vec<EventKind> {
        events
            .iter()
            .filter(|e| e.agent.0 == id)
            .map(|e| e.kind)
            .collect()
    };
    assert!(
        kinds(0).contains(&EventKind::Slept) && kinds(0).contains(&EventKind::Woke),
        "{:?}",
        kinds(0)
    );
    assert!(
        kinds(1).contains(&EventKind::Slept) && kinds(1).contains(&EventKind::Woke),
        "{:?}",
        kinds(1)
    );
    let woke_0 = events
        .iter()
        .find(|e| e.agent.0 == 0 && e.kind == EventKind::Woke)
        .unwrap()
        .step;
    assert_eq!(woke_0, 129, "woken by its script at 2 s");
    // While asleep, nothing is traced for it: the counters count fewer agent steps than 3 * steps.
    assert!(s.sim.counters().agent_steps < 3 * 64 * 3);
    assert!(
        s.sim.states().collect::<Vec<_>>()[0].position.x > 100.0,
        "walked after waking"
    );
}

#[test]
fn long_steps_are_split_into_substeps_of_at_most_66_ms() {
    // A fall of 1 s simulated as one step of 1 s and as 64 steps: sub-steps of 1/16 s keep the
    // fall the same (gravity is integrated exactly either way; the landing is found by the trace).
    let mut one = sim(vec![player([0.0, 0.0, 400.0], vec![])], 1.0);
    one.run(1);
    let mut many = sim(vec![player([0.0, 0.0, 400.0], vec![])], 1.0 / 64.0);
    many.run(64);
    let (a, b) = (
        one.sim.states().collect::<Vec<_>>()[0],
        many.sim.states().collect::<Vec<_>>()[0],
    );
    // Both landed (at 0.94 s) and rest a skin above the floor.
    assert!(a.on_ground && b.on_ground, "{a:?} vs {b:?}");
    assert_eq!(a.position.z, 24.0 + 1.0 / 32.0);
    assert_eq!(a.position.z, b.position.z);
    assert_eq!(
        one.sim.counters().agent_steps,
        16,
        "1 s split into 16 sub-steps of 62.5 ms"
    );
}

#[test]
fn the_same_run_gives_the_same_bits_on_any_thread() {
    let agents: Vec<ScriptedAgent> = (0..12)
        .map(|i| {
            let angle = i as f64 * 0.5;
            player(
                [200.0 * angle.cos(), 200.0 * angle.sin(), 24.5],
                vec![
                    (
                        0.0,
                        Action::Move {
                            direction: DVec3::new(-angle.cos(), -angle.sin(), 0.0),
                            speed: 320.0,
                        },
                    ),
                    (0.7, Action::Jump),
                ],
            )
        })
        .collect();
    let run = |agents: Vec<ScriptedAgent>| {
        let mut s = sim(agents, 1.0 / 60.0);
        s.run(200);
        (s.sim.samples().to_vec(), s.sim.events().to_vec())
    };
    let here = run(agents.clone());
    let threads: Vec<_> = (0..3)
        .map(|_| {
            let a = agents.clone();
            std::thread::spawn(move || run(a))
        })
        .collect();
    for t in threads {
        let there = t.join().unwrap();
        assert_eq!(here.0.len(), there.0.len());
        for (x, y) in here.0.iter().zip(&there.0) {
            for (s, t) in x.states.iter().zip(&y.states) {
                assert_eq!(
                    s.position.to_array().map(f64::to_bits),
                    t.position.to_array().map(f64::to_bits)
                );
            }
        }
        assert_eq!(here.1, there.1);
    }
    // They met in the middle: agent contacts happened.
    assert!(
        here.1
            .iter()
            .any(|e| matches!(e.kind, EventKind::Contact(_)))
    );
}

/// How many agents were left stuck, and how many were moved out of solid, by `events`.
fn stuck_and_unstuck(events: &[cspace_sim::Event]) -> (usize, usize) {
    let count = |unstuck: bool| {
        events
            .iter()
            .filter(|e| match e.kind {
                EventKind::Stuck { .. } => !unstuck,
                EventKind::Unstuck { .. } => unstuck,
                _ => false,
            })
            .count()
    };
    (count(false), count(true))
}

/// Issue 17, failure 9: 300 agents started on one point. The emergency search spreads them over
/// the floor (none left stuck, none overlapping another), so the steps after cost what a crowd
/// costs: counted in exact agent-agent tests per agent step, not timed. Stacked, every agent's
/// every trace met the whole pile (hundreds of exact tests per agent step, ~2,000 agent steps/s).
#[test]
fn agents_started_on_one_point_spread_out_and_step_at_a_crowds_cost() {
    let count = 300;
    let agents = (0..count)
        .map(|i| {
            let angle = i as f64 * 2.399963; // the golden angle: every agent a different heading
            let direction = DVec3::new(angle.cos(), angle.sin(), 0.0);
            player(
                [0.0, 0.0, 24.5],
                vec![(
                    0.0,
                    Action::Move {
                        direction,
                        speed: 320.0,
                    },
                )],
            )
        })
        .collect();
    let mut s = sim(agents, 1.0 / 64.0);
    s.run(32);
    let exact = s.sim.filter_stats().tests[cspace_contact::filter::Filter::Exact as usize];
    let per_agent_step = exact as f64 / s.sim.counters().agent_steps as f64;
    eprintln!("{exact} exact agent-agent tests, {per_agent_step:.2} per agent step");
    let (stuck, unstuck) = stuck_and_unstuck(s.sim.events());
    assert_eq!((stuck, unstuck), (0, count as usize - 1), "stuck, unstuck");
    let states: Vec<_> = s.sim.states().collect();
    let size = DVec3::new(32.0, 32.0, 56.0) - cspace_geom::tolerance::CONTACT;
    for (i, a) in states.iter().enumerate() {
        for b in &states[i + 1..] {
            let gap = (a.position - b.position).abs();
            assert!(
                gap.x >= size.x || gap.y >= size.y || gap.z >= size.z,
                "{:?} and {:?} overlap",
                a.position,
                b.position
            );
        }
    }
    // Measured 4.5 (neighbours touching in the packed square); stacked, over a hundred.
    assert!(
        per_agent_step < 16.0,
        "{per_agent_step:.2} exact tests per agent step"
    );
}

/// Issue 36, item 2: a stack of thousands spreads in a bounded number of tests per agent. Each
/// agent of the stack starts its search where the last one found its place (the places before
/// are taken), so the settling step's agent-agent tests grow with the stack, not its square:
/// counted, not timed. Without it, 10,000 agents on one point took 51.8 s to settle.
#[test]
fn a_stack_of_thousands_spreads_in_a_bounded_number_of_tests_per_agent() {
    let count = 5_000;
    let agents = (0..count)
        .map(|_| player([0.0, 0.0, 24.5], vec![]))
        .collect();
    let mut s = sim(agents, 1.0 / 64.0);
    s.run(1);
    let exact = s.sim.filter_stats().tests[cspace_contact::filter::Filter::Exact as usize];
    let per_agent = exact as f64 / count as f64;
    eprintln!("{exact} exact agent-agent tests, {per_agent:.2} per agent");
    let (stuck, unstuck) = stuck_and_unstuck(s.sim.events());
    assert_eq!((stuck, unstuck), (0, count - 1), "stuck, unstuck");
    let mut places: Vec<[u64; 3]> = s
        .sim
        .states()
        .map(|a| a.position.to_array().map(f64::to_bits))
        .collect();
    places.sort_unstable();
    places.dedup();
    assert_eq!(places.len(), count, "every agent on a place of its own");
    assert!(per_agent < 64.0, "{per_agent:.2} exact tests per agent");
}
