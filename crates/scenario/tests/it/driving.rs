//! A scenario driven from outside through `Sim::set_intent`, by a loop of this test's own that
//! reads the scenario's scripts, ends on the bits of the scripted run (`run_scenario`), on every
//! backend the scenario takes, on one thread and in interaction groups on two: scripts are not
//! a special path of the simulator.

use std::path::Path;
use std::sync::Arc;

use cspace_scenario::{RunOptions, Scenario, build_collider, run_scenario};
use cspace_sim::navigation::Planner;
use cspace_sim::{Action, AgentId, Intent, Sim, SimConfig};

/// Walkers, a jumper into a wall, a croucher under a low roof, a crowd pressing together and
/// a goto agent over the obstacle course's map.
const SCENARIOS: [(&str, &str); 2] = [
    (
        "mixed.toml",
        r#"name = "mixed"
time_step = 0.015625
steps = 200
[poses]
stand = { box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }
crouch = { box = { mins = [-16, -16, -24], maxs = [16, 16, 16] } }
ball = { sphere = 16 }
[world]
[[world.brush]]
box = { min = [-1024, -1024, -16], max = [1024, 1024, 0] }
[[world.brush]]
box = { min = [200, -512, 0], max = [216, 512, 256] }
[[world.brush]]
box = { min = [-300, 100, 48], max = [-100, 300, 96] }
[[agent]]
pose = "stand"
start = [0, 0, 24.03125]
script = [{ at = 0, move = [1, 0.2] }, { at = 0.5, jump = true }, { at = 1.5, move = [-1, 0] }, { at = 2.5, stop = true }]
[[agent]]
pose = "stand"
crouch_pose = "crouch"
start = [-400, 200, 24.03125]
script = [{ at = 0, crouch = true }, { at = 0, move = [1, 0] }, { at = 1.0, stand = true }]
[[agent]]
pose = "ball"
start = [0, -300, 16.03125]
script = [{ at = 0.2, move = [1, 1], speed = 200 }, { at = 1, jump = true }, { at = 1, jump = true }]
[[crowd]]
pose = "stand"
origin = [-200, -600, 24.03125]
rows = 4
columns = 5
spacing = [36, 36]
script = [{ at = 0, move = [1, 0.3] }, { at = 0.3, move = [-0.3, 1] }, { at = 1.1, jump = true }]
"#,
    ),
    (
        "goto.toml",
        r#"name = "goto"
time_step = 0.015625
steps = 500
[poses]
stand = { box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }
crouch = { box = { mins = [-16, -16, -24], maxs = [16, 16, 16] } }
[world]
map = "obstacle_course.map"
[[agent]]
pose = "stand"
crouch_pose = "crouch"
spawn = 0
script = [{ at = 0, goto = { spawn = 1 } }, { at = 2, goto = { spawn = 1 } }, { at = 3.5, move = [0, 1] }, { at = 4, goto = { spawn = 1 } }]
[[agent]]
pose = "stand"
crouch_pose = "crouch"
start = [-900, 64, 24.03125]
script = [{ at = 0.5, goto = [900, 0, -39.96875] }]
"#,
    ),
];

/// Runs `scenario` driven from here: each step, each agent's events due by then applied in
/// order to the intent the simulation has for it, set, then the step.
fn driven(scenario: &Scenario, parallel_from: usize) -> u64 {
    let backend = scenario.backends[0];
    let collider = build_collider(scenario, backend).unwrap();
    let goto: Vec<(AgentId, &cspace_sim::AgentSpec)> = scenario
        .agents
        .iter()
        .enumerate()
        .filter(|(_, a)| a.uses_goto())
        .map(|(i, a)| (AgentId(i as u32), &a.spec))
        .collect();
    let planner = (!goto.is_empty()).then(|| {
        Arc::new(
            Planner::build(
                &scenario.world.world,
                &goto,
                &scenario.params,
                &scenario.world.spawns,
            )
            .unwrap(),
        )
    });
    let config = SimConfig {
        params: scenario.params,
        dt: scenario.dt,
        parallel_from,
        planner,
        ..SimConfig::default()
    };
    let mut sim = Sim::new(collider, config).unwrap();
    let ids: Vec<AgentId> = scenario
        .agents
        .iter()
        .map(|a| sim.spawn(a.spec.clone()).unwrap())
        .collect();
    let mut scripts: Vec<Vec<cspace_sim::ScriptEvent>> = scenario
        .agents
        .iter()
        .map(|a| {
            let mut events = a.script.to_vec();
            events.sort_by(|x, y| x.at.total_cmp(&y.at));
            events.reverse();
            events
        })
        .collect();
    for step in 0..scenario.steps {
        let now = step as f64 * scenario.dt + cspace_geom::tolerance::TIME_SLACK;
        for (&id, script) in ids.iter().zip(&mut scripts) {
            if script.last().is_none_or(|e| e.at > now) || sim.has_left_world(id).unwrap() {
                continue;
            }
            let mut intent: Intent = sim.intent(id).unwrap();
            while let Some(event) = script.pop_if(|e| e.at <= now) {
                if matches!(event.action, Action::Goto(g) if intent.goto == Some(g)) {
                    // The same goto again starts over: end the one under way first.
                    sim.set_intent(
                        id,
                        Intent {
                            goto: None,
                            ..intent
                        },
                    )
                    .unwrap();
                }
                intent.apply(&event.action);
            }
            sim.set_intent(id, intent).unwrap();
        }
        sim.step();
    }
    sim.state_hash()
}

#[test]
fn a_scenario_driven_from_outside_ends_on_the_scripted_bits() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut compared = 0;
    for (file, text) in SCENARIOS {
        let scenario = Scenario::parse(&dir.join(file), text).unwrap();
        for &backend in &scenario.backends {
            let one = Scenario {
                backends: vec![backend],
                ..scenario.clone()
            };
            for threads in [1, 2] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let (scripted, driven) = pool.install(|| {
                    let options = RunOptions {
                        parallel_from: Some(0),
                        ..RunOptions::default()
                    };
                    let outcome = run_scenario(&one, backend, options).unwrap();
                    (outcome.end_state, driven(&one, 0))
                });
                assert_eq!(
                    scripted,
                    driven,
                    "{} on {} with {threads} threads",
                    scenario.name,
                    backend.name()
                );
                compared += 1;
            }
        }
    }
    assert!(compared >= 14, "only {compared} runs compared");
}
