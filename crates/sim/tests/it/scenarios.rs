//! Every scenario in `scenarios/` on every backend that supports its shapes: the trace is an
//! insta snapshot (`snapshots/traces/BACKEND@SCENARIO.toml.snap`), the expectations hold, every
//! pair of backends agrees within the scenario's tolerance (or its declared difference), and a
//! second run gives the same trace.

use std::io::Write as _;
use std::path::Path;

use cspace_sim::run::{RunOutcome, run_scenario};
use cspace_sim::scenario::Scenario;
use cspace_sim::sim::SimOptions;
use cspace_sim::summary;

/// Loads a scenario; scenarios that need the map corpus are skipped by name when `CSPACE_MAPS`
/// is unset.
fn load(path: &Path) -> Option<Scenario> {
    let text = std::fs::read_to_string(path).unwrap();
    if text.contains("${CSPACE_MAPS}") && std::env::var_os("CSPACE_MAPS").is_none() {
        // Straight to stderr: the harness would hide an `eprintln!` of a passing test.
        let _ = writeln!(
            std::io::stderr().lock(),
            "skipped: {} (CSPACE_MAPS unset)",
            path.display()
        );
        return None;
    }
    Some(Scenario::parse(path, &text).unwrap_or_else(|e| panic!("{e:#}")))
}

fn run_all(scenario: &Scenario) -> Vec<RunOutcome> {
    scenario
        .backends
        .iter()
        .map(|&b| run_scenario(scenario, b, SimOptions::default(), |_| {}).unwrap())
        .collect()
}

#[test]
fn traces_match_snapshots_and_expectations_hold() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../snapshots/traces"
    ));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        insta::glob!("../../../../scenarios", "*.toml", |path| {
            let Some(scenario) = load(path) else { return };
            let outcomes = run_all(&scenario);
            for outcome in &outcomes {
                insta::assert_snapshot!(outcome.backend.name(), outcome.trace);
                for check in &outcome.checks {
                    assert!(
                        check.failure.is_none(),
                        "{} on {}: {}",
                        scenario.name,
                        outcome.backend.name(),
                        summary::run_text(&scenario, outcome)
                    );
                }
            }
        });
    });
}

#[test]
fn backends_agree_within_each_scenarios_tolerance() {
    insta::glob!("../../../../scenarios", "*.toml", |path| {
        let Some(scenario) = load(path) else { return };
        let outcomes = run_all(&scenario);
        for report in summary::pairs(&scenario, &outcomes) {
            assert!(
                report.agrees(),
                "{}",
                summary::compare_text(&scenario, std::slice::from_ref(&report))
            );
        }
    });
}

#[test]
fn every_scenario_gives_the_same_trace_twice() {
    insta::glob!("../../../../scenarios", "*.toml", |path| {
        let Some(scenario) = load(path) else { return };
        let (a, b) = (run_all(&scenario), run_all(&scenario));
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(
                x.trace,
                y.trace,
                "{} on {} is not deterministic",
                scenario.name,
                x.backend.name()
            );
        }
    });
}

#[test]
fn traces_parse_back() {
    insta::glob!("../../../../scenarios", "*.toml", |path| {
        let Some(scenario) = load(path) else { return };
        for outcome in run_all(&scenario) {
            let trace = cspace_sim::trace::parse(&outcome.trace).unwrap();
            assert_eq!(trace.header.scenario, scenario.name);
            assert_eq!(trace.header.backend, outcome.backend.name());
            assert_eq!(trace.finals.len(), scenario.agents.len());
            let events = outcome.recorder.events.len();
            assert_eq!(trace.events.len(), events);
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
    });
}
