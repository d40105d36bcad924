//! Crowds (`sim bench`'s worlds) and scenarios on the simulator: the state fingerprint, the onion
//! on the exact reference's bits, and the same bits on every thread count.

use cspace_geom::{DVec3, Shape};
use cspace_sim::{AgentSpec, BackendKind, SimConfig};

/// The state fingerprint: equal for equal runs, moved by a step, by one bit of one agent's
/// position, and by a pose; and the onion walks a small crowd onto the very bits the exact
/// reference does (what `sim bench`'s end-state column shows for the 1,000-agent crowds).
#[test]
fn the_state_hash_fingerprints_every_agent_bit_for_bit() {
    let crowd = cspace_scenario::bench::open_world(60, 1.0);
    let crouch = Shape::new_box(
        DVec3::new(-16.0, -16.0, -24.0),
        DVec3::new(16.0, 16.0, 16.0),
    )
    .unwrap();
    // The crowd on `backend`, agent 7 changed by `change` first.
    let make = |backend: BackendKind, change: &dyn Fn(&mut AgentSpec)| {
        let mut changed = crowd.clone();
        change(&mut changed.agents[7].spec);
        let shapes = [cspace_scenario::bench::player(), crouch.clone()];
        let collider = backend.build_for(&crowd.world, &shapes).unwrap().unwrap();
        changed.sim(collider, SimConfig::default()).unwrap()
    };
    let (mut exact, mut again, mut onion) = (
        make(BackendKind::Exact, &|_| {}),
        make(BackendKind::Exact, &|_| {}),
        make(BackendKind::Onion, &|_| {}),
    );
    let before = exact.sim.state_hash();
    assert_eq!(before, onion.sim.state_hash());
    for sim in [&mut exact, &mut again, &mut onion] {
        sim.run(40);
    }
    assert_ne!(exact.sim.state_hash(), before, "the agents walked");
    assert_eq!(exact.sim.state_hash(), again.sim.state_hash());
    assert_eq!(exact.sim.state_hash(), onion.sim.state_hash());

    // One bit of one coordinate, or another pose, is another fingerprint.
    let start_with =
        |change: &dyn Fn(&mut AgentSpec)| make(BackendKind::Exact, change).sim.state_hash();
    assert_ne!(
        start_with(&|a| a.start.x = f64::from_bits(a.start.x.to_bits() ^ 1)),
        before
    );
    assert_ne!(
        start_with(&|a| {
            a.crouching = Some(crouch.clone());
            a.start_crouched = true;
        }),
        before
    );
}

/// A crowd around E1M1's spawn points, where agents press into walls, stairs and each other:
/// the onion ends it on the exact reference's bits too.
#[test]
fn the_onion_walks_an_e1m1_crowd_onto_the_exact_references_bits() {
    let Some(map) = cspace_corpus::map(
        "the_onion_walks_an_e1m1_crowd_onto_the_exact_references_bits",
        "quake_e1m1.map",
    ) else {
        return;
    };
    let crowd =
        cspace_scenario::bench::map_world(&map.name, map.world.clone(), &map.spawns, 200, 1.6)
            .unwrap();
    let end = |backend: BackendKind| {
        let collider = backend
            .build_for(&crowd.world, &[cspace_scenario::bench::player()])
            .unwrap()
            .unwrap();
        let mut run = crowd.sim(collider, SimConfig::default()).unwrap();
        run.run(90);
        (run.sim.state_hash(), run.sim.counters().traces)
    };
    let (exact, onion) = (end(BackendKind::Exact), end(BackendKind::Onion));
    assert_eq!(exact, onion);
    // More than a slide and a ground probe per agent step: steps up, creases, agents in the way.
    assert!(exact.1 > 200 * 90 * 2, "{} traces", exact.1);
}

/// Issue 19: one simulation on many threads gives the sequential bits. The interaction groups move
/// in parallel; the end-state fingerprint and the whole trace text are the same on 1, 2, 3 and 8
/// threads, for the crowd scenarios (spread out, and packed so that most agents are one group)
/// on every backend that takes them.
#[test]
fn every_thread_count_gives_the_sequential_bits() {
    use cspace_scenario::{RunOptions, Scenario, run_scenario};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let packed = r#"name = "packed"
time_step = 0.015625
steps = 96
[poses]
stand = { box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }
crouch = { box = { mins = [-16, -16, -24], maxs = [16, 16, 16] } }
[world]
[[world.brush]]
box = { min = [-1024, -1024, -16], max = [1024, 1024, 0] }
[[world.brush]]
box = { min = [100, 100, 0], max = [228, 228, 40] }
[[crowd]]
pose = "stand"
crouch_pose = "crouch"
origin = [-400, -400, 24.03125]
rows = 12
columns = 12
spacing = [33, 34]
script = [{ at = 0, move = [1, 1] }, { at = 0.5, jump = true }, { at = 0.8, crouch = true }, { at = 1.2, stand = true }]
"#;
    // Goto agents steered along their paths before the groups move (a crowd through the
    // obstacle course's tunnel, over its gap and down its drop).
    let goto_crowd = r#"name = "goto crowd"
time_step = 0.015625
steps = 640
[poses]
stand = { box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }
crouch = { box = { mins = [-16, -16, -24], maxs = [16, 16, 16] } }
[world]
map = "obstacle_course.map"
[[crowd]]
pose = "stand"
crouch_pose = "crouch"
origin = [-992, -96, 24.03125]
rows = 3
columns = 4
spacing = [40, 80]
script = [{ at = 0, goto = [900, 0, -39.96875] }]
"#;
    let scenarios = [
        Scenario::load(&dir.join("crowd.toml")).unwrap(),
        Scenario::load(&dir.join("spheres.toml")).unwrap(),
        Scenario::parse(&dir.join("packed.toml"), packed).unwrap(),
        Scenario::load(&dir.join("goto_obstacle_course.toml")).unwrap(),
        Scenario::parse(&dir.join("goto_crowd.toml"), goto_crowd).unwrap(),
    ];
    let pools: Vec<rayon::ThreadPool> = [1, 2, 3, 8]
        .iter()
        .map(|&n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        })
        .collect();
    let mut compared = 0;
    for scenario in &scenarios {
        for &backend in &scenario.backends {
            let runs: Vec<(String, Vec<[u64; 3]>, u64)> = pools
                .iter()
                .map(|pool| {
                    pool.install(|| {
                        // Every crowd in groups, however small.
                        let options = RunOptions {
                            parallel_from: Some(0),
                            ..RunOptions::default()
                        };
                        let outcome = run_scenario(scenario, backend, options).unwrap();
                        let bits = outcome
                            .finals()
                            .map(|s| s.position.to_array().map(f64::to_bits))
                            .collect();
                        (outcome.trace(), bits, outcome.counters.groups)
                    })
                })
                .collect();
            for (threads, run) in [1, 2, 3, 8].iter().zip(&runs).skip(1) {
                assert!(
                    run.0 == runs[0].0 && run.1 == runs[0].1,
                    "{} on {}: {threads} threads part from one",
                    scenario.name,
                    backend.name()
                );
            }
            // On several threads the agents really moved in groups.
            assert!(
                runs[1].2 > scenario.steps,
                "{}: {} groups",
                scenario.name,
                runs[1].2
            );
            compared += 1;
        }
    }
    assert!(compared >= 10, "only {compared} scenario and backend pairs");
}

/// The E1M1 crowd of `sim bench` (agents pressing into walls, stairs and each other) ends on the
/// same fingerprint on 1, 2 and 3 threads, on the onion and the exact reference.
#[test]
fn an_e1m1_crowd_ends_on_the_same_bits_on_any_thread_count() {
    let Some(map) = cspace_corpus::map(
        "an_e1m1_crowd_ends_on_the_same_bits_on_any_thread_count",
        "quake_e1m1.map",
    ) else {
        return;
    };
    let crowd =
        cspace_scenario::bench::map_world(&map.name, map.world.clone(), &map.spawns, 300, 1.6)
            .unwrap();
    for backend in [BackendKind::Onion, BackendKind::Exact] {
        let collider = backend
            .build_for(&crowd.world, &[cspace_scenario::bench::player()])
            .unwrap()
            .unwrap();
        let hashes: Vec<u64> = [1, 2, 3]
            .iter()
            .map(|&n| {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .unwrap();
                pool.install(|| {
                    let config = SimConfig {
                        parallel_from: 0,
                        ..SimConfig::default()
                    };
                    let mut run = crowd.sim(collider.clone(), config).unwrap();
                    run.run(90);
                    run.sim.state_hash()
                })
            })
            .collect();
        assert!(
            hashes.iter().all(|&h| h == hashes[0]),
            "{}: {hashes:x?}",
            backend.name()
        );
    }
}

/// A crowd's agents share one script (issue 35): a crowd of 100 x 1,000 agents with a 2,000-event
/// script used to copy it into every agent (about 47 bytes per agent per event, an abort at
/// 6 GB); its memory now grows with agents plus events.
#[test]
fn a_crowds_agents_share_one_script() {
    use cspace_scenario::Scenario;
    let events: Vec<String> = (0..2000)
        .map(|i| format!("{{ at = {}, move = [1, 0] }}", f64::from(i) * 0.01))
        .collect();
    let text = format!(
        "name = \"big crowd\"\ntime_step = 0.015625\nsteps = 4\n[poses]\nstand = {{ box = {{ mins = [-16, -16, -24], maxs = [16, 16, 32] }} }}\n[world]\n[[world.brush]]\nbox = {{ min = [-100000, -100000, -16], max = [100000, 100000, 0] }}\n[[crowd]]\npose = \"stand\"\norigin = [-50000, -50000, 24.03125]\nrows = 100\ncolumns = 1000\nspacing = [40, 40]\nscript = [{}]\n",
        events.join(", ")
    );
    let scenario = Scenario::parse(std::path::Path::new("crowd.toml"), &text).unwrap();
    assert_eq!(scenario.agents.len(), 100_000);
    let first = &scenario.agents[0].script;
    assert_eq!(first.len(), 2000);
    assert!(
        scenario
            .agents
            .iter()
            .all(|a| std::sync::Arc::ptr_eq(&a.script, first))
    );
}
