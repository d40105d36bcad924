//! The exactness soak (issue 17): crowds of mixed shapes on ten corpus maps, every backend,
//! through `sim run --verify`, which checks every agent's position after every step with the
//! exact reference's point query. More than a million agent steps; not one position in solid.

use std::fmt::Write as _;
use std::path::Path;

use cspace_geom::{DVec3, Shape};
use cspace_sim::{Action, ScriptEvent, ScriptedAgent};

use crate::cli::{scratch_dir, sim};

/// The maps: every corpus map with a spawn point and more than a handful of brushes, but
/// chasm (its patches make the onion's compile alone take seconds; its facets are soaked by the
/// patch tests).
const MAPS: [&str; 10] = [
    "dmlab_em_tmaze_a1.map",
    "dmlab_nav_maze_static_01.map",
    "ericw_q1_mountain.map",
    "ericw_q1_rocks.map",
    "ericw_qbspfeatures.map",
    "ericw_retrojam1_ericw.map",
    "librequake_e3m4.map",
    "quake_dm4.map",
    "quake_e1m1.map",
    "quake_e3m5.map",
];

const AGENTS: usize = 100;
const STEPS: u64 = 200;
const TIME_STEP: f64 = 1.0 / 64.0;

fn boxed(mins: [f64; 3], maxs: [f64; 3]) -> Shape {
    Shape::new_box(DVec3::from_array(mins), DVec3::from_array(maxs)).unwrap()
}

/// The poses of the soak, by name, as the scenario writes them.
fn poses() -> Vec<(&'static str, Shape, &'static str)> {
    vec![
        (
            "stand",
            boxed([-16.0, -16.0, -24.0], [16.0, 16.0, 32.0]),
            "{ box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }",
        ),
        (
            "crouch",
            boxed([-16.0, -16.0, -24.0], [16.0, 16.0, 16.0]),
            "{ box = { mins = [-16, -16, -24], maxs = [16, 16, 16] } }",
        ),
        (
            "small",
            boxed([-8.0, -8.0, -12.0], [8.0, 8.0, 12.0]),
            "{ box = { mins = [-8, -8, -12], maxs = [8, 8, 12] } }",
        ),
        ("ball", Shape::new_sphere(15.0).unwrap(), "{ sphere = 15 }"),
        (
            "can",
            Shape::new_cylinder(14.0, 26.0).unwrap(),
            "{ cylinder = { radius = 14, half_height = 26 } }",
        ),
    ]
}

fn name_of(shape: &Shape) -> &'static str {
    poses()
        .into_iter()
        .find(|(_, s, _)| s == shape)
        .map(|(name, ..)| name)
        .expect("a soak pose")
}

/// A scenario of `agents` on the map at `map` (their scripts: the bench's random walk, with a
/// jump at every third turn and, for those that can, a crouch and a stand in between).
fn scenario_text(map: &Path, agents: &[ScriptedAgent]) -> String {
    let mut text = String::new();
    writeln!(
        text,
        "name = \"soak\"\ntime_step = {TIME_STEP}\nsteps = {STEPS}"
    )
    .unwrap();
    // Every backend runs the crowd; where they part is not this test's business.
    writeln!(text, "tolerance = 1e9\nsample_every = {STEPS}\n\n[poses]").unwrap();
    for (name, _, written) in poses() {
        writeln!(text, "{name} = {written}").unwrap();
    }
    writeln!(text, "\n[world]\nmap = {:?}\n", map.display().to_string()).unwrap();
    for ScriptedAgent {
        spec: agent,
        script,
    } in agents
    {
        let p = agent.start;
        writeln!(
            text,
            "[[agent]]\npose = \"{}\"\nstart = [{}, {}, {}]",
            name_of(&agent.standing),
            p.x,
            p.y,
            p.z
        )
        .unwrap();
        if let Some(crouching) = &agent.crouching {
            writeln!(text, "crouch_pose = \"{}\"", name_of(crouching)).unwrap();
        }
        let mut events = Vec::new();
        for (turn, ScriptEvent { at, action }) in script.iter().enumerate() {
            if let Action::Move { direction, speed } = action {
                events.push(format!(
                    "{{ at = {at}, move = [{}, {}], speed = {speed} }}",
                    direction.x, direction.y
                ));
            }
            if turn % 3 == 2 {
                events.push(format!("{{ at = {at}, jump = true }}"));
            } else if turn % 3 == 1 && agent.crouching.is_some() {
                events.push(format!("{{ at = {at}, crouch = true }}"));
                events.push(format!("{{ at = {}, stand = true }}", at + 0.25));
            }
        }
        writeln!(text, "script = [\n  {},\n]\n", events.join(",\n  ")).unwrap();
    }
    text
}

#[test]
fn every_backend_keeps_mixed_crowds_out_of_solid_on_ten_corpus_maps() {
    let test = "every_backend_keeps_mixed_crowds_out_of_solid_on_ten_corpus_maps";
    let Some(dir) = cspace_corpus::dir(test) else {
        return;
    };
    let shape = |name: &str| poses().into_iter().find(|(n, ..)| *n == name).unwrap().1;
    let players = [
        (shape("stand"), Some(shape("crouch"))),
        (shape("small"), None),
    ];
    let mixed = [
        (shape("stand"), Some(shape("crouch"))),
        (shape("ball"), None),
        (shape("can"), None),
        (shape("small"), None),
    ];
    let seconds = STEPS as f64 * TIME_STEP;
    let scratch = scratch_dir();
    let out_dir = scratch.path();
    let (mut checked, mut runs) = (0u64, 0);
    let mut failures = Vec::new();
    for (m, file) in MAPS.iter().enumerate() {
        let path = dir.join(file);
        let map = cspace_corpus::load(&path);
        for (label, kinds) in [("boxes", &players[..]), ("mixed", &mixed[..])] {
            let agents = cspace_scenario::bench::place(
                &map.world,
                &map.spawns,
                kinds,
                AGENTS,
                384.0,
                seconds,
                m as u64,
            );
            let scenario = out_dir.join(format!("{file}.{label}.toml"));
            std::fs::write(&scenario, scenario_text(&path, &agents)).unwrap();
            let out = sim(
                &["run", scenario.to_str().unwrap(), "--verify", "--json"],
                "",
            );
            let stderr = String::from_utf8_lossy(&out.stderr);
            let json: serde_json::Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{file} {label}: {e}: {stderr}"));
            for run in json["runs"].as_array().expect("runs") {
                runs += 1;
                let guard = &run["verification"];
                checked += guard["checked"].as_u64().expect("verified");
                if guard["in_solid"] != 0 {
                    failures.push(format!("{file} {label} on {}: {guard}", run["backend"]));
                }
            }
        }
    }
    eprintln!(
        "soak: {checked} agent positions verified in {runs} runs on {} maps, {} runs with agents in solid",
        MAPS.len(),
        failures.len()
    );
    if !failures.is_empty() {
        // The scenarios stay, to be run again.
        let kept = scratch.keep();
        panic!("{} (scenarios in {})", failures.join("\n"), kept.display());
    }
    assert_eq!(
        runs,
        MAPS.len() * (5 + 4),
        "boxes on 5 backends, mixed on 4"
    );
    assert!(
        checked >= 1_000_000,
        "only {checked} agent positions verified"
    );
}

/// Issue 35's soak: every shape kind of the soak on every spawn point of every corpus map (at the
/// spawn's origin, or with its lowest point where a player's feet are, 24 units below the origin
/// plus 1/32 unit as Quake lifts a spawned player, if it would reach lower), walking, jumping and
/// crouching at random through `sim run --verify` on every backend that takes it: not one
/// position in solid.
#[test]
fn every_shape_kind_stays_out_of_solid_from_every_corpus_spawn_point() {
    let test = "every_shape_kind_stays_out_of_solid_from_every_corpus_spawn_point";
    let Some(dir) = cspace_corpus::dir(test) else {
        return;
    };
    const FEET_BELOW_ORIGIN: f64 = 24.0;
    const SPAWN_LIFT: f64 = 1.0 / 32.0;
    let shape = |name: &str| poses().into_iter().find(|(n, ..)| *n == name).unwrap().1;
    let kinds = [
        (shape("stand"), Some(shape("crouch"))),
        (shape("small"), None),
        (shape("ball"), None),
        (shape("can"), None),
    ];
    let seconds = STEPS as f64 * TIME_STEP;
    let scratch = scratch_dir();
    let (mut checked, mut spawns, mut runs) = (0u64, 0usize, 0usize);
    let mut failures = Vec::new();
    for path in cspace_corpus::map_paths_in(&dir) {
        let map = cspace_corpus::load(&path);
        spawns += map.spawns.len();
        for (k, (standing, crouching)) in kinds.iter().enumerate() {
            if map.spawns.is_empty() {
                continue;
            }
            let mut rng = cspace_geom::generate::Rng::new(k as u64);
            let agents: Vec<ScriptedAgent> = map
                .spawns
                .iter()
                .map(|spawn| {
                    // At the spawn's origin, as `spawn = N` places an agent (a shape shorter
                    // than the player drops to the floor), lifted only when it would reach below
                    // the player's feet.
                    let feet = spawn.z - FEET_BELOW_ORIGIN + SPAWN_LIFT;
                    let z = spawn.z.max(feet - standing.bounds().min.z);
                    let start = DVec3::new(spawn.x, spawn.y, z);
                    let mut spec = cspace_sim::AgentSpec::new(standing.clone(), start);
                    spec.crouching = crouching.clone();
                    ScriptedAgent {
                        spec,
                        script: cspace_scenario::bench::random_walk(&mut rng, seconds).into(),
                    }
                })
                .collect();
            let file = path.file_name().unwrap().to_string_lossy().into_owned();
            let scenario = scratch
                .path()
                .join(format!("{file}.{}.toml", name_of(standing)));
            std::fs::write(&scenario, scenario_text(&path, &agents)).unwrap();
            let out = sim(
                &["run", scenario.to_str().unwrap(), "--verify", "--json"],
                "",
            );
            let stderr = String::from_utf8_lossy(&out.stderr);
            let json: serde_json::Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{file} {}: {e}: {stderr}", name_of(standing)));
            for run in json["runs"].as_array().expect("runs") {
                runs += 1;
                let guard = &run["verification"];
                checked += guard["checked"].as_u64().expect("verified");
                if guard["in_solid"] != 0 {
                    failures.push(format!(
                        "{file} {} on {}: {guard}",
                        name_of(standing),
                        run["backend"]
                    ));
                }
            }
        }
    }
    eprintln!(
        "spawn soak: {spawns} spawn points, {checked} agent positions verified in {runs} runs, {} runs with agents in solid",
        failures.len()
    );
    if !failures.is_empty() {
        let kept = scratch.keep();
        panic!("{} (scenarios in {})", failures.join("\n"), kept.display());
    }
    assert!(spawns > 0 && runs > 0, "no spawn point in the corpus");
}
