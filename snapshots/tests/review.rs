//! The review flow CONTRIBUTING.md documents works on this layout: in a project of the test's
//! own laid out as cspace's is, a
//! pending trace snapshot (`snapshots/traces/*.snap.new`, the trace of a changed scenario) is
//! listed by `cargo insta pending-snapshots`, and `cargo insta accept` / `cargo insta reject`
//! (what `cargo insta review` does interactively) replace or drop it.
//!
//! It needs `cargo-insta` (`cargo install cargo-insta --locked`, which `.ci/run` does). Without
//! it the test says by name that it was skipped, unless `CSPACE_REQUIRE_TOOLS` names it (as
//! `.ci/run` does), when a missing tool fails it.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use cspace_scenario::run::{RunOptions, run_scenario};
use cspace_scenario::scenario::Scenario;
use cspace_scenario::snapshot;
use cspace_sim::backend::BackendKind;

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// A scenario of the test's own: a box walks off a ledge.
const LEDGE: &str = r#"name = "ledge"
time_step = 0.015625
steps = 96
[poses]
stand = { box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }
[world]
[[world.brush]]
box = { min = [-512, -512, -16], max = [512, 512, 0] }
[[world.brush]]
box = { min = [-512, -512, 0], max = [64, 512, 48] }
[[agent]]
pose = "stand"
start = [0, 0, 72.03125]
script = [{ at = 0, move = [1, 0] }]
"#;

/// A project laid out as cspace's is, in `dir`: a workspace whose member `snapshots/` holds the
/// trace snapshots in `snapshots/traces/`, and the scenario in `scenarios/ledge.toml`, with a
/// snapshot of it on `backends`. Returns the scenario's path.
fn fixture_project(dir: &Path, backends: &[BackendKind]) -> PathBuf {
    let write = |path: &str, text: &str| {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "Cargo.toml",
        "[workspace]\nmembers = [\"snapshots\"]\nresolver = \"2\"\n",
    );
    write(
        "snapshots/Cargo.toml",
        "[package]\nname = \"review-fixture\"\nversion = \"0.0.0\"\nedition = \"2021\"\n",
    );
    write("snapshots/src/lib.rs", "");
    write("scenarios/ledge.toml", LEDGE);
    let set =
        cspace_snapshots::ScenarioSet::load(&dir.join("scenarios"), &dir.join("snapshots/traces"));
    cspace_snapshots::accept_all(&set);
    let scenario = dir.join("scenarios/ledge.toml");
    let written: Vec<BackendKind> = Scenario::load(&scenario).unwrap().backends;
    assert!(backends.iter().all(|b| written.contains(b)));
    scenario
}

fn insta(dir: &Path, args: &[&str]) -> Output {
    let out = cargo()
        .arg("insta")
        .args(args)
        .current_dir(dir)
        .env("CARGO_TERM_COLOR", "never")
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo insta {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A pending snapshot as insta writes one: the snapshot's header, then the new trace.
fn pending(snap: &Path, trace: &str) -> String {
    let old = std::fs::read_to_string(snap).unwrap();
    let header_end = old.len() - snapshot::body(&old).len();
    format!("{}{trace}", &old[..header_end])
}

#[test]
fn cargo_insta_lists_accepts_and_rejects_pending_trace_snapshots() {
    let available = cargo()
        .args(["insta", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !available {
        let required = std::env::var("CSPACE_REQUIRE_TOOLS").unwrap_or_default();
        assert!(
            !required.split_whitespace().any(|t| t == "cargo-insta"),
            "cargo-insta is not installed (cargo install cargo-insta --locked)"
        );
        let _ = writeln!(
            std::io::stderr().lock(),
            "skipped: cargo_insta_lists_accepts_and_rejects_pending_trace_snapshots (cargo-insta \
             not installed)"
        );
        return;
    }
    let copy: PathBuf =
        std::env::temp_dir().join(format!("cspace-review-flow-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    let backends = [BackendKind::Exact, BackendKind::Onion];
    let scenario_path = fixture_project(&copy, &backends);

    // A changed scenario: the agent walks at 200 units/s instead of 320.
    let text = std::fs::read_to_string(&scenario_path)
        .unwrap()
        .replace("move = [1, 0] }", "move = [1, 0], speed = 200 }");
    std::fs::write(&scenario_path, &text).unwrap();
    let scenario = Scenario::parse(&scenario_path, &text).unwrap();
    let snaps = copy.join("snapshots/traces");
    let mut changed = Vec::new();
    for backend in backends {
        let trace = run_scenario(&scenario, backend, RunOptions::default())
            .unwrap()
            .trace();
        let snap = snapshot::path_in(&snaps, backend, &scenario_path);
        assert_ne!(
            snapshot::body(&std::fs::read_to_string(&snap).unwrap()),
            trace
        );
        let new = PathBuf::from(format!("{}.new", snap.display()));
        std::fs::write(&new, pending(&snap, &trace)).unwrap();
        changed.push((snap, new, trace));
    }

    // The documented command lists both.
    let listed = String::from_utf8(insta(&copy, &["pending-snapshots"]).stdout).unwrap();
    for name in ["exact@ledge.toml.snap", "onion@ledge.toml.snap"] {
        assert!(
            listed.contains(&format!("snapshots/traces/{name}")),
            "{name} not listed:\n{listed}"
        );
    }

    // Accept one: the snapshot becomes the new trace.
    let (exact_snap, exact_new, exact_trace) = &changed[0];
    insta(
        &copy,
        &[
            "accept",
            "--snapshot",
            "snapshots/traces/exact@ledge.toml.snap",
        ],
    );
    assert!(!exact_new.exists());
    let accepted = std::fs::read_to_string(exact_snap).unwrap();
    assert_eq!(snapshot::body(&accepted), exact_trace);

    // Reject the other: the snapshot stays as it was.
    let (onion_snap, onion_new, _) = &changed[1];
    let before = std::fs::read_to_string(onion_snap).unwrap();
    insta(&copy, &["reject"]);
    assert!(!onion_new.exists());
    assert_eq!(std::fs::read_to_string(onion_snap).unwrap(), before);

    let listed = String::from_utf8(insta(&copy, &["pending-snapshots"]).stdout).unwrap();
    assert!(listed.contains("No pending snapshots"), "{listed}");
    std::fs::remove_dir_all(&copy).unwrap();
}
