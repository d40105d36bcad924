//! Every scenario in `scenarios/` on every backend that supports its shapes: the trace is an
//! insta snapshot (`snapshots/traces/BACKEND@SCENARIO.toml.snap`), the expectations hold, every
//! pair of backends agrees within the scenario's tolerance (or its declared difference), a
//! second run gives the same trace, and the trace parses back.
//!
//! Each test checks one thing, so a new scenario without a snapshot fails the snapshot test
//! alone, with a message that names it and says how to review it.

use std::collections::BTreeSet;
use std::panic::AssertUnwindSafe;

use cspace_sim::backend::BackendKind;
use cspace_sim::{snapshot, summary};
use cspace_snapshots::{Skipped, ran, run_all, runs, snapshots_dir};

#[test]
fn every_scenario_loads_and_runs() {
    let broken: Vec<String> = runs()
        .iter()
        .filter_map(|r| match &r.outcome {
            Err(Skipped::Broken(why)) => Some(why.clone()),
            _ => None,
        })
        .collect();
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn traces_match_their_snapshots() {
    let dir = snapshots_dir();
    let mut failures = Vec::new();
    for (runs, _, outcomes) in ran() {
        for outcome in outcomes {
            let name = snapshot::name(outcome.backend, &runs.path);
            let file = snapshot::path_in(&dir, outcome.backend, &runs.path);
            let mut settings = insta::Settings::clone_current();
            settings.set_snapshot_path(&dir);
            settings.set_prepend_module_to_snapshot(false);
            settings.set_input_file(&runs.path);
            settings.set_omit_expression(true);
            // insta panics on a mismatch (after writing `NAME.snap.new` outside CI); catch it so
            // that every scenario is checked and the failures are reported together.
            let checked = std::panic::catch_unwind(AssertUnwindSafe(|| {
                settings.bind(|| insta::assert_snapshot!(name.as_str(), &outcome.trace));
            }));
            if checked.is_err() {
                let why = if file.is_file() {
                    format!("the trace differs from {}", shown(&file))
                } else {
                    format!("no snapshot yet ({})", shown(&file))
                };
                failures.push((runs.file.clone(), outcome.backend, why));
            }
        }
    }
    if failures.is_empty() {
        return;
    }
    let mut message = format!("{} trace snapshot(s) to review:\n", failures.len());
    for (file, backend, why) in &failures {
        message += &format!("  scenarios/{file} on {}: {why}\n", backend.name());
    }
    let (file, backend, _) = &failures[0];
    message += &format!(
        "Review: `cargo insta review` lists each pending snapshots/traces/*.snap.new with its diff \
         to accept or reject (with CI=true nothing is written: run `cargo test -p \
         cspace-snapshots` locally first). Picture: `sim plot scenarios/{file} --backend {b} \
         --against snapshots/traces/{b}@{file}.snap -o diff.png`; every change at once: `sim \
         report scenarios/*.toml -o report.html`.",
        b = backend.name()
    );
    panic!("{message}");
}

/// A path under the project, shown from the project's root.
fn shown(path: &std::path::Path) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let root = root.canonicalize().unwrap_or(root);
    let full = path.canonicalize().unwrap_or_else(|_| {
        let parent = path.parent().and_then(|p| p.canonicalize().ok());
        parent.map_or(path.to_path_buf(), |p| {
            p.join(path.file_name().unwrap_or_default())
        })
    });
    full.strip_prefix(&root)
        .map_or_else(|_| path.display().to_string(), |p| p.display().to_string())
}

#[test]
fn expectations_hold_on_every_backend() {
    let mut failed = Vec::new();
    for (_, scenario, outcomes) in ran() {
        for outcome in outcomes.iter().filter(|o| !o.passed()) {
            failed.push(summary::run_text(scenario, outcome));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn backends_agree_within_each_scenarios_tolerance() {
    let mut diverging = Vec::new();
    for (_, scenario, outcomes) in ran() {
        for report in summary::pairs(scenario, outcomes) {
            if !report.agrees() {
                diverging.push(summary::compare_text(
                    scenario,
                    std::slice::from_ref(&report),
                ));
            }
        }
    }
    assert!(diverging.is_empty(), "{}", diverging.join("\n"));
}

#[test]
fn every_scenario_gives_the_same_trace_twice() {
    for (_, scenario, first) in ran() {
        let again = run_all(scenario).unwrap_or_else(|e| panic!("{e}"));
        for (x, y) in first.iter().zip(&again) {
            assert_eq!(
                x.trace,
                y.trace,
                "{} on {} is not deterministic",
                scenario.name,
                x.backend.name()
            );
        }
    }
}

#[test]
fn traces_parse_back() {
    for (_, scenario, outcomes) in ran() {
        for outcome in outcomes {
            let trace = cspace_sim::trace::parse(&outcome.trace).unwrap();
            assert_eq!(trace.header.scenario, scenario.name);
            assert_eq!(trace.header.backend, outcome.backend.name());
            assert_eq!(trace.finals.len(), scenario.agents.len());
            assert_eq!(trace.events.len(), outcome.recorder.events.len());
            let samples: usize = outcome
                .recorder
                .samples
                .iter()
                .map(|s| s.states.len())
                .sum();
            assert_eq!(trace.trajectory.len(), samples);
            for (parsed, state) in trace.finals.iter().zip(&outcome.finals) {
                assert!(parsed.position.distance(state.position) < 1e-3);
            }
        }
    }
}

/// Every snapshot file is a scenario's trace on a backend that runs it: no orphans left behind
/// by a renamed scenario or a dropped backend.
#[test]
fn every_snapshot_belongs_to_a_scenario_and_backend() {
    let mut expected = BTreeSet::new();
    let mut unknown_backends = BTreeSet::new();
    for r in runs() {
        match &r.outcome {
            Ok((scenario, _)) => {
                for &b in &scenario.backends {
                    expected.insert(snapshot::name(b, &r.path));
                }
            }
            // A scenario that did not run may have a snapshot for any backend.
            Err(_) => {
                for &b in BackendKind::ALL {
                    unknown_backends.insert(snapshot::name(b, &r.path));
                }
            }
        }
    }
    let mut orphans = Vec::new();
    for entry in std::fs::read_dir(snapshots_dir()).unwrap() {
        let path = entry.unwrap().path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(stem) = name.strip_suffix(".snap") else {
            continue;
        };
        if !expected.contains(stem) && !unknown_backends.contains(stem) {
            orphans.push(name.to_string());
        }
    }
    assert!(
        orphans.is_empty(),
        "snapshots of no scenario and backend (delete them, or `cargo insta test \
         --unreferenced=delete`): {orphans:?}"
    );
}
