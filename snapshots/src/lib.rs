//! The scenario set under test: every `scenarios/*.toml`, run on every backend it names or
//! supports, once per test binary.
//!
//! The tests in `tests/traces.rs` check each run against its insta snapshot in
//! `snapshots/traces/BACKEND@SCENARIO.toml.snap` ([`cspace_sim::snapshot`] names them), its
//! expectations, the other backends' runs, and a second run. Each test reads the runs it needs
//! from [`runs`], so a scenario is simulated once however many tests look at it, and a problem
//! with one scenario (no snapshot yet, a parse error) fails only the test that checks that.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use cspace_sim::run::{RunOutcome, run_scenario};
use cspace_sim::scenario::Scenario;
use cspace_sim::sim::SimOptions;

/// The project's `scenarios/` folder.
pub fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios")
}

/// The folder of the trace snapshots, `snapshots/traces`.
pub fn snapshots_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("traces")
}

/// Every scenario file, in name order.
pub fn scenario_files() -> Vec<PathBuf> {
    let dir = scenarios_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{} cannot be read: {e}", dir.display()))
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

/// One scenario file and what became of it.
#[derive(Debug)]
pub struct ScenarioRuns {
    /// The file, `scenarios/NAME.toml`.
    pub path: PathBuf,
    /// Its file name, `NAME.toml`.
    pub file: String,
    /// The scenario and one run per backend, or why there is none.
    pub outcome: Result<(Scenario, Vec<RunOutcome>), Skipped>,
}

/// Why a scenario was not run.
#[derive(Debug, Clone)]
pub enum Skipped {
    /// It reads the map corpus and `CSPACE_MAPS` is unset.
    NoCorpus,
    /// It does not load or a backend fails on it (the message says where).
    Broken(String),
}

/// Runs `scenario` on each of its backends.
pub fn run_all(scenario: &Scenario) -> Result<Vec<RunOutcome>, String> {
    scenario
        .backends
        .iter()
        .map(|&b| {
            run_scenario(scenario, b, SimOptions::default(), |_| {})
                .map_err(|e| format!("{} on {}: {e:#}", scenario.path.display(), b.name()))
        })
        .collect()
}

fn load_and_run(path: &Path) -> Result<(Scenario, Vec<RunOutcome>), Skipped> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Skipped::Broken(format!("{}: cannot read: {e}", path.display())))?;
    if text.contains("${CSPACE_MAPS}") && std::env::var_os("CSPACE_MAPS").is_none() {
        return Err(Skipped::NoCorpus);
    }
    let scenario = Scenario::parse(path, &text).map_err(|e| Skipped::Broken(format!("{e:#}")))?;
    let outcomes = run_all(&scenario).map_err(Skipped::Broken)?;
    Ok((scenario, outcomes))
}

/// Every scenario, run on its backends: computed by the first test that asks, shared by the
/// others.
pub fn runs() -> &'static [ScenarioRuns] {
    static RUNS: OnceLock<Vec<ScenarioRuns>> = OnceLock::new();
    RUNS.get_or_init(|| {
        scenario_files()
            .into_iter()
            .map(|path| {
                let outcome = load_and_run(&path);
                if let Err(Skipped::NoCorpus) = outcome {
                    // Straight to stderr: the harness would hide an `eprintln!` of a passing
                    // test, and a skip must never pass silently.
                    let _ = writeln!(
                        std::io::stderr().lock(),
                        "skipped: {} (CSPACE_MAPS unset)",
                        path.display()
                    );
                }
                ScenarioRuns {
                    file: path
                        .file_name()
                        .expect("a scenario file has a name")
                        .to_string_lossy()
                        .into_owned(),
                    path,
                    outcome,
                }
            })
            .collect()
    })
}

/// The scenarios that ran, with their runs (broken and skipped ones left out: the test
/// `every_scenario_loads_and_runs` reports those).
pub fn ran() -> impl Iterator<
    Item = (
        &'static ScenarioRuns,
        &'static Scenario,
        &'static [RunOutcome],
    ),
> {
    runs().iter().filter_map(|r| match &r.outcome {
        Ok((scenario, outcomes)) => Some((r, scenario, outcomes.as_slice())),
        Err(_) => None,
    })
}
