//! The review flow CONTRIBUTING.md documents works on this layout: in a copy of the project, a
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

/// Copies the project (without `target/` and `.git/`) into `to`.
fn copy_project(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" || name == ".git" {
            continue;
        }
        let (source, dest) = (entry.path(), to.join(&name));
        if entry.file_type().unwrap().is_dir() {
            copy_project(&source, &dest);
        } else {
            std::fs::copy(&source, &dest).unwrap();
        }
    }
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let copy: PathBuf =
        std::env::temp_dir().join(format!("cspace-review-flow-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    copy_project(&root, &copy);

    // A changed scenario: the tunnel's agents walk at 200 units/s instead of 320.
    let scenario_path = copy.join("scenarios/tunnel.toml");
    let text = std::fs::read_to_string(&scenario_path)
        .unwrap()
        .replace("move = [1, 0] }", "move = [1, 0], speed = 200 }");
    std::fs::write(&scenario_path, &text).unwrap();
    let scenario = Scenario::parse(&scenario_path, &text).unwrap();
    let snaps = copy.join("snapshots/traces");
    let mut changed = Vec::new();
    for backend in [BackendKind::Exact, BackendKind::Onion] {
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
    for name in ["exact@tunnel.toml.snap", "onion@tunnel.toml.snap"] {
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
            "snapshots/traces/exact@tunnel.toml.snap",
        ],
    );
    assert!(!exact_new.exists());
    let accepted = std::fs::read_to_string(exact_snap).unwrap();
    assert_eq!(snapshot::body(&accepted), exact_trace);

    // Reject the other: the snapshot stays as it was.
    let (onion_snap, onion_new, _) = &changed[1];
    let before =
        std::fs::read_to_string(root.join("snapshots/traces/onion@tunnel.toml.snap")).unwrap();
    insta(&copy, &["reject"]);
    assert!(!onion_new.exists());
    assert_eq!(std::fs::read_to_string(onion_snap).unwrap(), before);

    let listed = String::from_utf8(insta(&copy, &["pending-snapshots"]).stdout).unwrap();
    assert!(listed.contains("No pending snapshots"), "{listed}");
    std::fs::remove_dir_all(&copy).unwrap();
}
