//! Every scenario in `scenarios/` on every backend that supports its shapes: the trace is an
//! insta snapshot (`snapshots/traces/BACKEND@SCENARIO.toml.snap`), the expectations hold, every
//! pair of backends agrees within the scenario's tolerance (or its declared difference), a
//! second run gives the same trace, and the trace parses back.
//!
//! Each test checks one thing, so a new scenario without a snapshot fails the snapshot test
//! alone, with a message that names it and says how to review it.

use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::process::Command;

use cspace_scenario::snapshot;
use cspace_snapshots::{ScenarioSet, accept_all, review_message};

#[test]
fn every_scenario_loads_and_runs() {
    let broken = ScenarioSet::project().broken();
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn traces_match_their_snapshots() {
    let set = ScenarioSet::project();
    for (runs, _, outcomes) in set.ran() {
        for outcome in outcomes {
            let mut settings = insta::Settings::clone_current();
            settings.set_snapshot_path(&set.snapshots);
            settings.set_prepend_module_to_snapshot(false);
            settings.set_input_file(&runs.path);
            settings.set_omit_expression(true);
            let name = snapshot::name(outcome.backend, &runs.path);
            // insta writes `NAME.snap.new` beside the snapshot (outside CI) and prints the diff;
            // its panic is caught so that every trace gets its pending snapshot, and the failures
            // are reported together below.
            let _ = std::panic::catch_unwind(AssertUnwindSafe(|| {
                settings.bind(|| insta::assert_snapshot!(name.as_str(), &outcome.trace()));
            }));
        }
    }
    let unmatched = set.unmatched();
    assert!(unmatched.is_empty(), "{}", review_message(&unmatched));
}

#[test]
fn expectations_hold_on_every_backend() {
    let failed = ScenarioSet::project().expectation_failures();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn backends_agree_within_each_scenarios_tolerance() {
    let diverging = ScenarioSet::project().divergences();
    assert!(diverging.is_empty(), "{}", diverging.join("\n"));
}

#[test]
fn every_scenario_gives_the_same_trace_twice() {
    let differing = ScenarioSet::project().nondeterministic();
    assert!(differing.is_empty(), "{}", differing.join("\n"));
}

#[test]
fn traces_parse_back() {
    let unreadable = ScenarioSet::project().unreadable();
    assert!(unreadable.is_empty(), "{}", unreadable.join("\n"));
}

#[test]
fn every_snapshot_belongs_to_a_scenario_and_backend() {
    let orphans = ScenarioSet::project().orphans();
    assert!(
        orphans.is_empty(),
        "snapshots of no scenario and backend (delete them, or `cargo insta test \
         --unreferenced=delete`): {orphans:?}"
    );
}

/// A scenario of the tests' own: a box walks along a floor into a step.
const WALK: &str = r#"name = "walk"
time_step = 0.015625
steps = 64
[poses]
stand = { box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }
[world]
[[world.brush]]
box = { min = [-512, -512, -16], max = [512, 512, 0] }
[[world.brush]]
box = { min = [64, -512, 0], max = [512, 512, 12] }
[[agent]]
name = "walker"
pose = "stand"
start = [0, 0, 24.03125]
script = [{ at = 0, move = [1, 0] }]
[[expect]]
agent = "walker"
ends_on_ground = true
"#;

/// A scratch folder laid out as the project is, `scenarios/` and `snapshots/traces/`.
fn scratch_project(name: &str) -> (PathBuf, PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("cspace-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (scenarios, snapshots) = (dir.join("scenarios"), dir.join("snapshots/traces"));
    std::fs::create_dir_all(&scenarios).unwrap();
    std::fs::create_dir_all(&snapshots).unwrap();
    (dir, scenarios, snapshots)
}

/// The regression of a reviewer's report: adding `scenarios/stairs_gap.toml` without a snapshot
/// made `every_scenario_gives_the_same_trace_twice` fail ("glob! resulted in 1 snapshot assertion
/// failure": insta's glob counted a failure of the snapshot test run beside it). Now only the
/// snapshot check finds anything, and its message names the scenario and says how to review it.
#[test]
fn a_new_scenario_without_a_snapshot_fails_only_the_snapshot_check() {
    let (dir, scenarios, snapshots) = scratch_project("new-scenario");
    std::fs::write(scenarios.join("walk.toml"), WALK).unwrap();
    accept_all(&ScenarioSet::load(&scenarios, &snapshots));
    std::fs::write(
        scenarios.join("walk_gap.toml"),
        WALK.replace("name = \"walk\"", "name = \"walk_gap\""),
    )
    .unwrap();
    let set = ScenarioSet::load(&scenarios, &snapshots);
    let unmatched = set.unmatched();
    assert!(!unmatched.is_empty());
    assert!(
        unmatched
            .iter()
            .all(|u| u.file == "walk_gap.toml" && u.why.starts_with("no snapshot yet")),
        "{unmatched:?}"
    );
    let message = review_message(&unmatched);
    assert!(
        message.contains("scenarios/walk_gap.toml on exact: no snapshot yet")
            && message.contains("cargo insta review"),
        "{message}"
    );
    assert!(set.broken().is_empty());
    assert!(set.expectation_failures().is_empty());
    assert!(set.divergences().is_empty());
    assert!(set.nondeterministic().is_empty());
    assert!(set.unreadable().is_empty());
    assert!(set.orphans().is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The tests that run this test binary again, on a project of their own: the copy must not run
/// them again.
const SPAWNING: [&str; 2] = [
    "a_moved_agent_fails_only_its_snapshot_test",
    "a_corpus_scenario_without_a_snapshot_fails_the_snapshot_test_when_the_corpus_is_set",
];

/// What a run of this test binary on `project` said: its exit code, the tests that failed, and
/// its standard output. `maps`: `CSPACE_MAPS` for it (else unset). insta writes pending
/// snapshots (`INSTA_UPDATE=new`), as it does outside CI.
fn run_this_binary_on(project: &Path, maps: Option<&Path>) -> (Option<i32>, Vec<String>, String) {
    let mut command = Command::new(std::env::current_exe().unwrap());
    for name in SPAWNING {
        command.args(["--skip", name]);
    }
    command
        .env(cspace_snapshots::PROJECT_VAR, project)
        .env("INSTA_UPDATE", "new")
        .env_remove("INSTA_FORCE_PASS")
        .env_remove("CSPACE_MAPS");
    if let Some(maps) = maps {
        command.env("CSPACE_MAPS", maps);
    }
    let out = command.output().expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    // libtest lists the failed tests after `failures:`, one per line, indented by four spaces.
    let failed = stdout
        .rsplit_once("\nfailures:\n")
        .map(|(_, list)| {
            list.lines()
                .take_while(|l| l.starts_with("    "))
                .map(|l| l.trim().to_string())
                .collect()
        })
        .unwrap_or_default();
    (out.status.code(), failed, stdout)
}

/// The pending snapshots in `snapshots`, sorted.
fn pending(snapshots: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(snapshots)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".snap.new"))
        .collect();
    names.sort();
    names
}

/// The CLI tests' tunnel fixture (`crates/cli/tests/fixtures/tunnel.toml`), not the
/// repository's scenario: the repository's scenarios are the reviewer's to change, and a test
/// that copied them failed beside the snapshot test when the reviewer made this very change.
const TUNNEL: &str = include_str!("../../crates/cli/tests/fixtures/tunnel.toml");

/// The reviewer's day (issue 34): in a project of the test's own (its tunnel and a walk, with
/// snapshots of their own), the tunnel's riser turns at 1.5 s; the snapshot tests then fail
/// exactly one test, `traces_match_their_snapshots`, and leave one pending snapshot per backend
/// of the tunnel for `cargo insta review`.
#[test]
fn a_moved_agent_fails_only_its_snapshot_test() {
    let (dir, scenarios, snapshots) = scratch_project("moved-agent");
    std::fs::write(scenarios.join("tunnel.toml"), TUNNEL).unwrap();
    std::fs::write(scenarios.join("walk.toml"), WALK).unwrap();
    accept_all(&ScenarioSet::load(&scenarios, &snapshots));
    let (code, _, stdout) = run_this_binary_on(&dir, None);
    assert_eq!(
        code,
        Some(0),
        "the copy passes before the change:\n{stdout}"
    );

    // The change: the tunnel's last agent turns left at 1.5 s (an event put in its script in
    // time order).
    let tunnel = scenarios.join("tunnel.toml");
    let mut table: toml::Table = std::fs::read_to_string(&tunnel).unwrap().parse().unwrap();
    let agents = table["agent"].as_array_mut().unwrap();
    let script = agents.last_mut().unwrap()["script"].as_array_mut().unwrap();
    let turn = "turn = { at = 1.5, move = [1, 0.4] }"
        .parse::<toml::Table>()
        .unwrap()
        .remove("turn")
        .unwrap();
    let at = |event: &toml::Value| {
        let at = &event["at"];
        at.as_float()
            .or_else(|| at.as_integer().map(|i| i as f64))
            .unwrap()
    };
    let place = script
        .iter()
        .position(|e| at(e) > 1.5)
        .unwrap_or(script.len());
    script.insert(place, turn);
    std::fs::write(&tunnel, toml::to_string(&table).unwrap()).unwrap();

    let (code, failed, stdout) = run_this_binary_on(&dir, None);
    assert_eq!(code, Some(101), "{stdout}");
    assert_eq!(failed, ["traces_match_their_snapshots"], "{stdout}");
    // One pending snapshot per backend the tunnel runs on, and no other.
    let backends = cspace_scenario::scenario::Scenario::load(&tunnel)
        .unwrap()
        .backends;
    let expected: Vec<String> = backends
        .iter()
        .map(|&b| format!("{}.snap.new", snapshot::name(b, &tunnel)))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(pending(&snapshots), expected);
    assert!(
        stdout.contains("scenarios/tunnel.toml on exact: the trace differs from"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A scenario of the map corpus without a snapshot: with `CSPACE_MAPS` set it runs and fails the
/// snapshot test alone, naming it; unset, it is skipped by name in the test output (with the
/// value to set) and the tests pass.
#[test]
fn a_corpus_scenario_without_a_snapshot_fails_the_snapshot_test_when_the_corpus_is_set() {
    let (dir, scenarios, snapshots) = scratch_project("corpus-scenario");
    let corpus = dir.join("maps");
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::write(scenarios.join("walk.toml"), WALK).unwrap();
    accept_all(&ScenarioSet::load(&scenarios, &snapshots));
    // A corpus of one map: a floor (x -16..656, y -16..272, z -16..0), in Quake's standard
    // format.
    std::fs::write(
        corpus.join("floor.map"),
        "{\n\"classname\" \"worldspawn\"\n{\n\
         ( 656 336 0 ) ( 656 272 0 ) ( 656 272 64 ) F 0 0 0 1 1\n\
         ( -16 -16 48 ) ( -16 -16 -16 ) ( -16 48 -16 ) F 0 0 0 1 1\n\
         ( 656 272 64 ) ( 656 272 0 ) ( 720 272 0 ) F 0 0 0 1 1\n\
         ( 48 -16 -16 ) ( -16 -16 -16 ) ( -16 -16 48 ) F 0 0 0 1 1\n\
         ( 720 272 0 ) ( 656 272 0 ) ( 656 336 0 ) F 0 0 0 1 1\n\
         ( -16 48 -16 ) ( -16 -16 -16 ) ( 48 -16 -16 ) F 0 0 0 1 1\n}\n}\n",
    )
    .unwrap();
    std::fs::write(
        scenarios.join("corpus_walk.toml"),
        WALK.replace("name = \"walk\"", "name = \"corpus_walk\"").replace(
            "[world]\n[[world.brush]]\nbox = { min = [-512, -512, -16], max = [512, 512, 0] }\n[[world.brush]]\nbox = { min = [64, -512, 0], max = [512, 512, 12] }\n",
            "[world]\nmap = \"${CSPACE_MAPS}/floor.map\"\n",
        ),
    )
    .unwrap();

    let (code, failed, stdout) = run_this_binary_on(&dir, Some(&corpus));
    assert_eq!(code, Some(101), "{stdout}");
    assert_eq!(failed, ["traces_match_their_snapshots"], "{stdout}");
    assert!(
        stdout.contains("scenarios/corpus_walk.toml on exact: no snapshot yet"),
        "{stdout}"
    );
    let pending_now = pending(&snapshots);
    assert!(
        !pending_now.is_empty() && pending_now.iter().all(|n| n.contains("@corpus_walk.toml")),
        "{pending_now:?}"
    );

    for file in pending_now {
        std::fs::remove_file(snapshots.join(file)).unwrap();
    }
    let (code, _, stdout) = run_this_binary_on(&dir, None);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("corpus_walk.toml (it reads the map corpus and CSPACE_MAPS is unset; from the repository root: CSPACE_MAPS=../shared/maps)"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
