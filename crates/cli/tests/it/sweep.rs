//! `sim sweep`: the enumeration and its lines, determinism across thread counts, shards merged
//! back byte for byte, how a seed varies a scenario, maps in the place of a scenario's world,
//! and every way its input can be wrong.

use std::path::{Path, PathBuf};
use std::process::Output;

use cspace_geom::{Collider, ExactCollider, QueryContext};
use cspace_scenario::sweep::{Jitter, vary};
use cspace_scenario::{RunOptions, Scenario, run_scenario};
use cspace_sim::BackendKind;
use serde_json::Value;

use super::cli::{scenario_path, scratch, scratch_dir, sim};

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs `sim sweep ARGS` and expects exit code `code`.
fn sweep(args: &[&str], code: i32) -> Output {
    let mut all = vec!["sweep"];
    all.extend_from_slice(args);
    let out = sim(&all, "");
    assert_eq!(
        out.status.code(),
        Some(code),
        "sim {all:?}\nstderr: {}",
        stderr(&out)
    );
    out
}

fn lines(out: &Output) -> Vec<Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn one_line_per_run_in_the_order_scenario_seed_backend() {
    let (drop, tunnel) = (scenario_path("drop.toml"), scenario_path("tunnel.toml"));
    let out = sweep(
        &[
            &drop,
            &tunnel,
            "--backends",
            "onion,exact",
            "--seeds",
            "0..3",
        ],
        0,
    );
    let lines = lines(&out);
    assert_eq!(lines.len(), 12);
    let mut expected = Vec::new();
    for scenario in [&drop, &tunnel] {
        for seed in 0..3u64 {
            for backend in ["onion", "exact"] {
                expected.push((scenario.clone(), seed, backend.to_string()));
            }
        }
    }
    for (i, (line, (scenario, seed, backend))) in lines.iter().zip(&expected).enumerate() {
        assert_eq!(line["run"], i as u64);
        assert_eq!(line["runs"], 12);
        assert_eq!(line["scenario"].as_str().unwrap(), scenario);
        assert_eq!(line["seed"], *seed);
        assert_eq!(line["backend"].as_str().unwrap(), backend);
        assert!(line["map"].is_null());
        assert_eq!(line["passed"], true, "{line}");
        assert!(line["error"].is_null());
        let end_state = line["end_state"].as_str().unwrap();
        assert!(
            end_state.len() == 16 && end_state.chars().all(|c| c.is_ascii_hexdigit()),
            "{end_state}"
        );
        assert!(line["steps"].as_u64().unwrap() > 0);
        assert!(line["agent_steps"].as_u64().unwrap() > 0);
        assert!(
            line.get("timing").is_none(),
            "no clock figures without --timing"
        );
        for e in line["expectations"].as_array().unwrap() {
            assert_eq!(e["passed"], true);
            assert!(e["at"].as_str().unwrap().starts_with(scenario.as_str()));
        }
    }
    // The fields, in their documented order.
    let first = stdout(&out).lines().next().unwrap().to_string();
    let keys = [
        "run",
        "runs",
        "scenario",
        "name",
        "map",
        "seed",
        "backend",
        "passed",
        "error",
        "expectations",
        "end_state",
        "steps",
        "agent_steps",
    ];
    assert_eq!(lines[0].as_object().unwrap().len(), keys.len());
    let places: Vec<usize> = keys
        .iter()
        .map(|k| first.find(&format!("\"{k}\":")).unwrap())
        .collect();
    assert!(places.is_sorted(), "{first}");
    // Seed 0 is the scenario as written: the end state of `run_scenario`.
    let scenario = Scenario::load(Path::new(&drop)).unwrap();
    let run = run_scenario(&scenario, BackendKind::Onion, RunOptions::default()).unwrap();
    assert_eq!(lines[0]["end_state"], format!("{:016x}", run.end_state));
    // Other seeds vary it; the onion and the exact reference still agree on the drop.
    assert_ne!(lines[0]["end_state"], lines[2]["end_state"]);
    assert_ne!(lines[2]["end_state"], lines[4]["end_state"]);
    assert_eq!(lines[2]["end_state"], lines[3]["end_state"]);
    let summary = stderr(&out);
    assert!(
        summary.contains("sweep: 12 runs, 0 failed, 0 could not be made"),
        "{summary}"
    );
}

#[test]
fn one_and_two_threads_write_the_same_bytes() {
    let file = scenario_path("sweeps/crowd_drop.toml");
    let one = sweep(&[&file, "--seeds", "0..3", "--threads", "1"], 0);
    let two = sweep(&[&file, "--seeds", "0..3", "--threads", "2"], 0);
    assert_eq!(lines(&one).len(), 30);
    assert_eq!(stdout(&one), stdout(&two));
    // With --timing, each line gains a last field, `timing`, and nothing else changes.
    let timed = sweep(&[&file, "--seeds", "0..3", "--threads", "2", "--timing"], 0);
    let untimed: Vec<String> = stdout(&timed)
        .lines()
        .map(|l| {
            let at = l.rfind(",\"timing\":{").expect("a timing field");
            let timing: Value = serde_json::from_str(&l[at + 10..l.len() - 1]).unwrap();
            assert!(timing["seconds"].as_f64().unwrap() > 0.0);
            assert!(timing["agent_steps_per_second"].as_f64().unwrap() > 0.0);
            format!("{}}}", &l[..at])
        })
        .collect();
    assert_eq!(untimed.join("\n") + "\n", stdout(&one));
}

#[test]
fn merged_shards_equal_the_whole_sweep_byte_for_byte() {
    let tmp = scratch_dir();
    let dir = tmp.path();
    let file = scenario_path("sweeps/crowd_drop.toml");
    let whole = sweep(&[&file, "--seeds", "0..2", "--threads", "2"], 0);
    let mut shards = Vec::new();
    for i in 1..=3 {
        let path = dir.join(format!("shard-{i}.jsonl"));
        let spec = format!("{i}/3");
        let out = sweep(
            &[
                &file,
                "--seeds",
                "0..2",
                "--shard",
                &spec,
                "--out",
                path.to_str().unwrap(),
            ],
            0,
        );
        assert!(
            stdout(&out).is_empty(),
            "--out writes nothing to standard output"
        );
        assert!(
            stderr(&out).contains(&format!("(shard {i}/3 of 20 runs)")),
            "{}",
            stderr(&out)
        );
        // Shard i holds the runs whose id leaves i - 1 divided by 3.
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines() {
            let run = serde_json::from_str::<Value>(line).unwrap()["run"]
                .as_u64()
                .unwrap();
            assert_eq!(run % 3, i - 1);
        }
        shards.push(path);
    }
    let s: Vec<&str> = shards.iter().map(|p| p.to_str().unwrap()).collect();
    // In any order.
    let merged = sweep(&["--merge", s[2], s[0], s[1]], 0);
    assert_eq!(stdout(&merged), stdout(&whole));
    assert!(
        stderr(&merged).contains("merged: 20 runs from 3 files, 0 failed"),
        "{}",
        stderr(&merged)
    );
    let out = dir.join("merged.jsonl");
    sweep(
        &["--merge", s[0], s[1], s[2], "--out", out.to_str().unwrap()],
        0,
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), stdout(&whole));

    // A shard missing, a shard given twice, a line that is not a sweep's, sweeps of other sizes.
    let err = stderr(&sweep(&["--merge", s[0], s[2]], 2));
    assert!(
        err.contains("7 of the sweep's 20 runs are missing (the first: 1, 4, 7"),
        "{err}"
    );
    let err = stderr(&sweep(&["--merge", s[0], s[1], s[2], s[1]], 2));
    assert!(
        err.contains(&format!("{}:1:1: run 1 is here and at {}:1", s[1], s[1])),
        "{err}"
    );
    let junk = scratch(
        &tmp,
        "junk.jsonl",
        "{\"run\":0,\"runs\":1,\"passed\":true,\"error\":null}\nnot json\n",
    );
    let err = stderr(&sweep(&["--merge", junk.to_str().unwrap()], 2));
    assert!(
        err.contains(&format!(
            "{}:2:1: not a line of `sim sweep`",
            junk.display()
        )),
        "{err}"
    );
    let err = stderr(&sweep(&["--merge", s[0], junk.to_str().unwrap()], 2));
    assert!(err.contains("a sweep of 1 runs, but"), "{err}");
    let err = stderr(&sweep(&["--merge", "no-such-shard.jsonl"], 2));
    assert!(
        err.contains("no-such-shard.jsonl: cannot read the lines"),
        "{err}"
    );
    let err = stderr(&sweep(&["--merge", s[0], "--seeds", "0..2"], 2));
    assert!(err.contains("cannot be used with"), "{err}");
}

#[test]
fn a_failed_expectation_fails_its_run_and_the_sweep() {
    let tmp = scratch_dir();
    let text = std::fs::read_to_string(scenario_path("drop.toml"))
        .unwrap()
        .replace("by = 1.3", "by = 0.1");
    let scenario = scratch(&tmp, "drop-too-soon.toml", &text);
    let out = sweep(
        &[
            scenario.to_str().unwrap(),
            "--backends",
            "exact",
            "--seeds",
            "0..2",
        ],
        1,
    );
    let lines = lines(&out);
    assert_eq!(lines.len(), 2);
    for line in &lines {
        assert_eq!(line["passed"], false);
        let failed = &line["expectations"][2];
        assert_eq!(failed["passed"], false);
        assert!(
            failed["failure"].as_str().unwrap().contains("after 0.1 s"),
            "{failed}"
        );
        assert_eq!(line["expectations"][0]["passed"], true);
    }
    assert!(
        stderr(&out).contains("sweep: 2 runs, 2 failed"),
        "{}",
        stderr(&out)
    );
}

/// A sweep file's scenarios and maps are relative to it, `${VAR}` expands, the lines name them
/// as written, and an agent with `spawn = N` takes spawn (N + seed) modulo the map's count.
#[test]
fn maps_replace_each_scenario_world_and_spawns_turn_with_the_seed() {
    let tmp = scratch_dir();
    let dir = tmp.path();
    let scenarios = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let file = dir.join("sweep.toml");
    std::fs::write(
        &file,
        format!(
            "scenarios = [{:?}]\nmaps = [\"${{CSPACE_SWEEP_TEST}}/rooms.map\"]\nseeds = [0, 1]\nbackends = [\"exact\"]\n[jitter]\nstart = 0\nheading = 0\n",
            scenarios.join("sweeps/spawn_walk.toml").to_str().unwrap()
        ),
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(["sweep", file.to_str().unwrap()])
        .env("CSPACE_SWEEP_TEST", &scenarios)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = lines(&out);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["map"], "${CSPACE_SWEEP_TEST}/rooms.map");
    // rooms.map has two spawn points: seed 1 swaps the walkers, which end elsewhere.
    assert_ne!(lines[0]["end_state"], lines[1]["end_state"]);
    let scenario = Scenario::load(&scenarios.join("sweeps/spawn_walk.toml")).unwrap();
    let still = Jitter {
        start: 0.0,
        heading_degrees: 0.0,
    };
    let spawns = &scenario.world.spawns;
    assert_eq!(spawns.len(), 2);
    let swapped = vary(&scenario, 1, &still);
    assert_eq!(swapped.agents[0].spec.start, spawns[1]);
    assert_eq!(swapped.agents[1].spec.start, spawns[0]);
    assert_eq!(vary(&scenario, 2, &still).agents[0].spec.start, spawns[0]);
    assert_eq!(swapped.agents[0].script, scenario.agents[0].script);
}

/// Jittered starts are never in solid: agents beside a wall, jittered by more than their gap
/// to it, on many seeds.
#[test]
fn a_seed_moves_starts_within_the_jitter_and_never_into_solid() {
    let text = r#"
name = "by the wall"
time_step = 0.015625
steps = 8
[poses]
stand = { box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }
[world]
[[world.brush]]
box = { min = [-512, -512, -16], max = [512, 512, 0] }
[[world.brush]]
box = { min = [20, -512, 0], max = [40, 512, 128] }
[[agent]]
pose = "stand"
start = [0, 0, 24.03125]
script = [{ at = 0, move = [1, 0] }]
[[agent]]
pose = "stand"
start = [0, 100, 24.03125]
allow_start_in_solid = true
script = [{ at = 0, move = [0, 1] }]
"#;
    let scenario = Scenario::parse(Path::new("by_the_wall.toml"), text).unwrap();
    let jitter = Jitter {
        start: 24.0,
        heading_degrees: 30.0,
    };
    let exact = ExactCollider::new(scenario.world.world.clone());
    let shape = exact.prepare(&scenario.agents[0].spec.standing).unwrap();
    let mut ctx = QueryContext::new();
    let mut moved = 0;
    for seed in 0..200 {
        let varied = vary(&scenario, seed, &jitter);
        assert_eq!(
            varied.agents,
            vary(&scenario, seed, &jitter).agents,
            "seed {seed} draws alike twice"
        );
        let (a, b) = (&varied.agents[0], &varied.agents[1]);
        let offset = a.spec.start - scenario.agents[0].spec.start;
        assert!(offset.x.abs() <= 24.0 && offset.y.abs() <= 24.0 && offset.z == 0.0);
        assert!(
            !exact.is_solid(&mut ctx, &shape, a.spec.start),
            "seed {seed}: {}",
            a.spec.start
        );
        moved += usize::from(offset != cspace_geom::DVec3::ZERO);
        // The agent that may start in solid keeps its start; its heading turns.
        assert_eq!(b.spec.start, scenario.agents[1].spec.start);
        let turned = |s: &cspace_sim::ScriptedAgent| match s.script[0].action {
            cspace_sim::Action::Move { direction, .. } => direction,
            _ => unreachable!(),
        };
        let (d, d0) = (turned(a), turned(&scenario.agents[0]));
        let angle = d.y.atan2(d.x).to_degrees() - d0.y.atan2(d0.x).to_degrees();
        assert!(
            angle.abs() <= 30.0 + 1e-9,
            "seed {seed}: turned {angle} degrees"
        );
        assert!((d.length() - 1.0).abs() < 1e-12);
        if seed == 0 {
            assert_eq!(
                varied.agents, scenario.agents,
                "seed 0 is the scenario as written"
            );
        } else {
            assert_ne!(turned(b), turned(&scenario.agents[1]));
        }
    }
    assert!(moved > 150, "most seeds move the start ({moved} of 200)");
}

#[test]
fn bad_command_lines_are_refused_with_exit_code_2() {
    let drop = scenario_path("drop.toml");
    for (args, says) in [
        (vec![&*drop, "--shard", "0/4"], "I must be between 1 and 4"),
        (vec![&*drop, "--shard", "5/4"], "I must be between 1 and 4"),
        (vec![&*drop, "--shard", "1/0"], "N must be at least 1"),
        (vec![&*drop, "--shard", "half"], "expected I/N"),
        (
            vec![&*drop, "--backends", "onion,quake"],
            "invalid value 'quake'",
        ),
        (vec![&*drop, "--seeds", "5..3"], "the range 5..3 is empty"),
        (vec![&*drop, "--seeds", "0..x"], "\"x\" is not a seed"),
        (vec![&*drop, "--seeds", "0..4,2"], "seed 2 is named twice"),
        (vec![&*drop, "--threads", "0"], "--threads"),
        (
            vec!["no-such.toml"],
            "no-such.toml: cannot read the scenario",
        ),
    ] {
        let err = stderr(&sweep(&args, 2));
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(stdout(&sweep(&args, 2)).is_empty());
    }
    // Every bad scenario is reported, not just the first; nothing runs.
    let err = stderr(&sweep(&["missing-a.toml", &drop, "missing-b.toml"], 2));
    assert!(
        err.contains("missing-a.toml: cannot read") && err.contains("missing-b.toml: cannot read"),
        "{err}"
    );
    // No backend asked for can run the spheres: no runs.
    let err = stderr(&sweep(
        &[&scenario_path("spheres.toml"), "--backends", "onion"],
        2,
    ));
    assert!(
        err.contains("not run on onion") && err.contains("the sweep has no runs"),
        "{err}"
    );
    // A sweep file goes alone.
    let err = stderr(&sweep(
        &[&scenario_path("sweeps/crowd_drop.toml"), &drop],
        2,
    ));
    assert!(
        err.contains("crowd_drop.toml:1:1: this is a sweep file: give it alone"),
        "{err}"
    );
}

/// `--shard auto` takes the shard from a batch scheduler's variables (a Slurm array task, a
/// Kubernetes indexed job, GNU parallel's job number) and writes what `--shard I/N` writes.
#[test]
fn shard_auto_reads_the_schedulers_variables() {
    let drop = scenario_path("drop.toml");
    let args = [drop.as_str(), "--backends", "onion", "--seeds", "0..6"];
    let run = |shard: &str, vars: &[(&str, &str)]| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_sim"));
        command.arg("sweep").args(args).args(["--shard", shard]);
        for name in [
            "SLURM_ARRAY_TASK_ID",
            "SLURM_ARRAY_TASK_MIN",
            "SLURM_ARRAY_TASK_STEP",
            "SLURM_ARRAY_TASK_COUNT",
            "JOB_COMPLETION_INDEX",
            "PARALLEL_SEQ",
        ] {
            command.env_remove(name);
        }
        command.envs(vars.iter().copied());
        command.output().expect("sim runs")
    };
    let given = |i: u64| {
        let out = run(&format!("{i}/3"), &[]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out)
    };
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "3"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "3"),
    ];
    for (shard, vars, expected) in [
        ("auto", &slurm[..], 3),
        ("auto/3", &[("JOB_COMPLETION_INDEX", "1")][..], 2),
        ("auto/3", &[("PARALLEL_SEQ", "1")][..], 1),
    ] {
        let out = run(shard, vars);
        assert_eq!(out.status.code(), Some(0), "{vars:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), given(expected), "{vars:?}");
        assert!(
            stderr(&out).contains(&format!("shard {expected}/3 ({}=", vars[0].0)),
            "{}",
            stderr(&out)
        );
    }
    let none = run("auto/3", &[]);
    assert_eq!(none.status.code(), Some(2));
    assert!(stderr(&none).contains("--shard auto: no scheduler's shard variable is set"));
    let k8s_without_count = run("auto", &[("JOB_COMPLETION_INDEX", "0")]);
    assert_eq!(k8s_without_count.status.code(), Some(2));
    assert!(stderr(&k8s_without_count).contains("write --shard auto/N"));
}

/// Errors in a sweep file name its line and column; files it names that cannot be read are
/// errors where it names them; errors inside a scenario are located in the scenario.
#[test]
fn bad_sweep_files_are_located_errors() {
    let tmp = scratch_dir();
    let dir = tmp.path();
    let drop = scenario_path("drop.toml");
    let check = |name: &str, text: &str, says: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let err = stderr(&sweep(&[path.to_str().unwrap()], 2));
        let expected = format!("{}:{says}", path.display());
        assert!(
            err.contains(&expected),
            "{name}: expected {expected:?} in {err}"
        );
    };
    let head = format!("scenarios = [{drop:?}]\n");
    check(
        "unknown-backend.toml",
        &format!("{head}backends = [\"onion\", \"quake\"]\n"),
        "2:22: backends: unknown backend \"quake\"; expected one of exact",
    );
    check(
        "twice-backend.toml",
        &format!("{head}backends = [\"onion\", \"onion\"]\n"),
        "2:22: backends: onion is named twice",
    );
    check(
        "seeds.toml",
        &format!("{head}seeds = \"5..3\"\n"),
        "2:9: seeds: seeds \"5..3\": the range 5..3 is empty",
    );
    check(
        "seeds-list.toml",
        &format!("{head}seeds = [1, -1]\n"),
        "2:9: seeds: seed -1 is negative",
    );
    check(
        "seeds-type.toml",
        &format!("{head}seeds = 3\n"),
        "2:9: seeds: write a range or a list",
    );
    check(
        "jitter.toml",
        &format!("{head}[jitter]\nheading = 200\n"),
        "3:11: jitter.heading must be between 0 and 180",
    );
    check(
        "jitter-start.toml",
        &format!("{head}[jitter]\nstart = -1\n"),
        "3:9: jitter.start must be between 0",
    );
    check(
        "unknown-field.toml",
        &format!("{head}threads = 2\n"),
        "2:1: unknown field `threads`",
    );
    check(
        "empty.toml",
        "scenarios = []\n",
        "1:13: scenarios: the list is empty",
    );
    check(
        "missing.toml",
        "scenarios = [\"nope.toml\"]\n",
        "1:14: cannot read the scenario",
    );
    check(
        "missing-map.toml",
        &format!("{head}maps = [\"nope.map\"]\n"),
        "2:9: cannot read the world",
    );
    check(
        "unset-variable.toml",
        &format!("{head}maps = [\"${{CSPACE_SWEEP_UNSET}}/x.map\"]\n"),
        "2:9: maps: environment variable CSPACE_SWEEP_UNSET",
    );
    // drop.toml's starts are free in rooms.map (which has no ledge: its expectations fail), and
    // a start moved into a wall is a located error in the scenario, naming the map.
    let path = dir.join("solid-on-map.toml");
    std::fs::write(
        &path,
        format!("{head}maps = [{:?}]\n", scenario_path("rooms.map")),
    )
    .unwrap();
    let out = sweep(&[path.to_str().unwrap()], 1);
    assert_eq!(
        lines(&out).len(),
        5,
        "drop.toml's starts are free in rooms.map"
    );
    let wall = scratch(
        &tmp,
        "in-the-wall.toml",
        &std::fs::read_to_string(&drop)
            .unwrap()
            .replace("start = [0, 0, 600]", "start = [-8, 128, 64]"),
    );
    std::fs::write(
        &path,
        format!(
            "scenarios = [{:?}]\nmaps = [{:?}]\n",
            wall.to_str().unwrap(),
            scenario_path("rooms.map")
        ),
    )
    .unwrap();
    let err = stderr(&sweep(&[path.to_str().unwrap()], 2));
    assert!(
        err.contains(&format!("{}:", wall.display()))
            && err.contains("starts in solid")
            && err.contains("(on the sweep's map"),
        "{err}"
    );
}

/// The documented sweep over corpus maps (docs/sweep.md) runs where the corpus is.
#[test]
fn the_documented_map_sweep_runs_on_the_corpus() {
    if super::cli::corpus("sweep::the_documented_map_sweep_runs_on_the_corpus").is_none() {
        return;
    }
    let out = sweep(&[&scenario_path("sweeps/maps.toml")], 0);
    let lines = lines(&out);
    assert_eq!(lines.len(), 32);
    assert!(lines.iter().all(|l| l["passed"] == true));
}

/// `sim check` reads a sweep file as `sim sweep` does, and reports every bad file it names.
#[test]
fn sim_check_validates_sweep_files() {
    let tmp = scratch_dir();
    let out = sim(&["check", &scenario_path("sweeps/crowd_drop.toml")], "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out)
            .contains("crowd_drop.toml: sweep of 200 runs (2 scenario-map pairs, 20 seeds)"),
        "{}",
        stdout(&out)
    );
    let bad = scratch(
        &tmp,
        "bad-check-sweep.toml",
        "scenarios = [\"nope-a.toml\", \"nope-b.toml\"]\n",
    );
    let out = sim(&["check", bad.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    let at = |column: usize| format!("{}:1:{column}: cannot read the scenario", bad.display());
    assert!(err.contains(&at(14)) && err.contains(&at(29)), "{err}");
}

/// Hostile input: a sweep file cut at every character or with one character replaced, and a
/// sweep's line mangled the same way, give a plan, a sweep, merged lines or an error that names
/// the file; never a panic.
#[test]
fn mangled_sweep_files_and_lines_are_errors_never_panics() {
    use cspace_scenario::sweep::{Plan, Sweep, merge};
    let path = PathBuf::from(scenario_path("sweeps/crowd_drop.toml"));
    let text = std::fs::read_to_string(&path).unwrap();
    // As messages show it (normalised).
    let name = cspace_mapfile::normalised(&path).display().to_string();
    let mut variants: Vec<String> = (0..=text.len())
        .filter(|&i| text.is_char_boundary(i))
        .map(|i| text[..i].to_string())
        .collect();
    for (i, c) in text.char_indices() {
        for r in ['"', '[', '=', '\n', '9', '-', '.', '$'] {
            if r != c {
                variants.push(format!("{}{r}{}", &text[..i], &text[i + c.len_utf8()..]));
            }
        }
    }
    let (mut plans, mut sweeps) = (0, 0);
    for v in &variants {
        match Plan::parse(&path, v) {
            Ok(plan) => {
                plans += 1;
                match Sweep::load(&plan) {
                    Ok(sweep) => {
                        sweeps += 1;
                        assert!(sweep.runs() > 0);
                    }
                    Err(errors) => assert!(!errors.is_empty()),
                }
            }
            Err(e) => assert!(e.to_string().starts_with(&name), "{e}"),
        }
    }
    assert!(
        plans > 100 && sweeps > 100,
        "{plans} plans, {sweeps} sweeps"
    );

    let line = r#"{"run":0,"runs":1,"scenario":"a.toml","name":"a","map":null,"seed":0,"backend":"onion","passed":true,"error":null,"expectations":[],"end_state":"0123456789abcdef","steps":1,"agent_steps":1}"#;
    let file = Path::new("lines.jsonl");
    for (i, c) in line.char_indices() {
        for r in ['"', '1', '9', '-', ',', '}', ' '] {
            let mangled = format!("{}{r}{}", &line[..i], &line[i + c.len_utf8()..]);
            if let Err(e) = merge(&[(file, &mangled)]) {
                let e = e.to_string();
                assert!(
                    e.starts_with("lines.jsonl:1:1: ") || e.contains("missing"),
                    "{e}"
                );
            }
        }
    }
}
