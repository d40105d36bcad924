//! The scenario set under test: every `scenarios/*.toml`, run on every backend it names or
//! supports, once per test binary, and the checks the tests in `tests/traces.rs` make of it.
//!
//! Each check is a function of a [`ScenarioSet`] that returns what it found wrong, so each test
//! asserts one thing: a scenario without a snapshot fails the snapshot test alone (insta's `glob!`
//! used to count its failure into whichever glob test ran beside it), and a regression test
//! builds a set in a temporary folder to show it.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use cspace_report::summary;
use cspace_scenario::run::{RunOptions, RunOutcome, run_scenario};
use cspace_scenario::scenario::Scenario;
use cspace_scenario::snapshot::{self, Comparison};
use cspace_sim::backend::BackendKind;

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

/// A trace that does not match its snapshot: the scenario's file name, the backend, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unmatched {
    /// `NAME.toml`.
    pub file: String,
    /// The backend.
    pub backend: BackendKind,
    /// `no snapshot yet (...)` or `the trace differs from ...`.
    pub why: String,
}

/// Every scenario of a folder, run on its backends, with the folder of their snapshots.
#[derive(Debug)]
pub struct ScenarioSet {
    /// The scenarios, in file name order.
    pub scenarios: Vec<ScenarioRuns>,
    /// The snapshot folder.
    pub snapshots: PathBuf,
}

/// Names a folder laid out as the project is (`scenarios/`, `snapshots/traces/`) whose
/// scenarios and snapshots the tests take instead of the repository's. It is how the tests of
/// the snapshot tests run this very test binary on a changed copy (`tests/traces.rs`); nobody
/// else needs it.
pub const PROJECT_VAR: &str = "CSPACE_SNAPSHOT_PROJECT";

/// The folder under test: [`PROJECT_VAR`]'s, else the repository.
fn project_root() -> PathBuf {
    match std::env::var_os(PROJECT_VAR) {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join(".."),
    }
}

/// The project's `scenarios/` folder.
pub fn scenarios_dir() -> PathBuf {
    let dir = project_root().join("scenarios");
    dir.canonicalize().unwrap_or(dir)
}

/// The project's trace snapshots, `snapshots/traces`.
pub fn snapshots_dir() -> PathBuf {
    project_root().join("snapshots").join("traces")
}

/// Writes every trace of `set` as its snapshot, as `cargo insta accept` would: how the tests of
/// the snapshot tests make the baselines of their own scenario folders.
pub fn accept_all(set: &ScenarioSet) {
    std::fs::create_dir_all(&set.snapshots)
        .unwrap_or_else(|e| panic!("{}: {e}", set.snapshots.display()));
    for (runs, _, outcomes) in set.ran() {
        for o in outcomes {
            let file = snapshot::path_in(&set.snapshots, o.backend, &runs.path);
            let text = format!(
                "---\nsource: snapshots/tests/traces.rs\ninput_file: scenarios/{}\n---\n{}",
                runs.file,
                o.trace()
            );
            std::fs::write(&file, text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        }
    }
}

/// Runs `scenario` on each of its backends.
pub fn run_all(scenario: &Scenario) -> Result<Vec<RunOutcome>, String> {
    scenario
        .backends
        .iter()
        .map(|&b| {
            run_scenario(scenario, b, RunOptions::default())
                .map_err(|e| format!("{} on {}: {e:#}", scenario.path.display(), b.name()))
        })
        .collect()
}

fn load_and_run(path: &Path) -> Result<(Scenario, Vec<RunOutcome>), Skipped> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Skipped::Broken(format!("{}: cannot read: {e}", path.display())))?;
    if Scenario::needs_unset_corpus(&text) {
        return Err(Skipped::NoCorpus);
    }
    let scenario = Scenario::parse(path, &text).map_err(|e| Skipped::Broken(format!("{e:#}")))?;
    let outcomes = run_all(&scenario).map_err(Skipped::Broken)?;
    Ok((scenario, outcomes))
}

impl ScenarioSet {
    /// Runs every `*.toml` of `scenarios` (skipping, by name in the test output, those that need
    /// the corpus when `CSPACE_MAPS` is unset); their snapshots are in `snapshots`.
    pub fn load(scenarios: &Path, snapshots: &Path) -> ScenarioSet {
        let mut files: Vec<PathBuf> = std::fs::read_dir(scenarios)
            .unwrap_or_else(|e| panic!("{} cannot be read: {e}", scenarios.display()))
            .map(|entry| entry.expect("a readable directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        files.sort();
        let scenarios = files
            .into_iter()
            .map(|path| {
                let outcome = load_and_run(&path);
                if let Err(Skipped::NoCorpus) = outcome {
                    // Straight to standard output, in the test output beside `test ... ok`: the
                    // harness would hide a `println!` of a passing test, and a skip must never
                    // pass silently.
                    let _ = writeln!(
                        std::io::stdout().lock(),
                        "skipped: {} ({})",
                        path.display(),
                        Scenario::corpus_unset_reason()
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
            .collect();
        ScenarioSet {
            scenarios,
            snapshots: snapshots.to_path_buf(),
        }
    }

    /// The project's scenarios and snapshots, run once per test binary.
    pub fn project() -> &'static ScenarioSet {
        static SET: OnceLock<ScenarioSet> = OnceLock::new();
        SET.get_or_init(|| ScenarioSet::load(&scenarios_dir(), &snapshots_dir()))
    }

    /// The scenarios that ran, with their runs.
    pub fn ran(&self) -> impl Iterator<Item = (&ScenarioRuns, &Scenario, &[RunOutcome])> {
        self.scenarios.iter().filter_map(|r| match &r.outcome {
            Ok((scenario, outcomes)) => Some((r, scenario, outcomes.as_slice())),
            Err(_) => None,
        })
    }

    /// Scenarios that do not load or run, with why.
    pub fn broken(&self) -> Vec<String> {
        self.scenarios
            .iter()
            .filter_map(|r| match &r.outcome {
                Err(Skipped::Broken(why)) => Some(why.clone()),
                _ => None,
            })
            .collect()
    }

    /// Every run whose trace does not match its snapshot file.
    pub fn unmatched(&self) -> Vec<Unmatched> {
        let mut out = Vec::new();
        for (runs, _, outcomes) in self.ran() {
            for o in outcomes {
                let file = snapshot::path_in(&self.snapshots, o.backend, &runs.path);
                let why = match snapshot::compare(&file, &o.trace()) {
                    Comparison::Matches => continue,
                    Comparison::Missing => format!("no snapshot yet ({})", shown(&file)),
                    Comparison::Differs(_) => format!("the trace differs from {}", shown(&file)),
                };
                out.push(Unmatched {
                    file: runs.file.clone(),
                    backend: o.backend,
                    why,
                });
            }
        }
        out
    }

    /// Expectations not met, as `sim run` summarises them.
    pub fn expectation_failures(&self) -> Vec<String> {
        self.ran()
            .flat_map(|(_, scenario, outcomes)| {
                outcomes
                    .iter()
                    .filter(|o| !o.passed())
                    .map(|o| summary::run_text(scenario, o))
            })
            .collect()
    }

    /// Pairs of backends beyond the scenario's tolerance, as `sim compare` shows them.
    pub fn divergences(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (_, scenario, outcomes) in self.ran() {
            for report in summary::pairs(scenario, outcomes) {
                if !report.agrees() {
                    out.push(summary::compare_text(
                        scenario,
                        std::slice::from_ref(&report),
                    ));
                }
            }
        }
        out
    }

    /// Runs that give another trace the second time.
    pub fn nondeterministic(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (_, scenario, first) in self.ran() {
            match run_all(scenario) {
                Err(e) => out.push(e),
                Ok(again) => {
                    for (x, y) in first.iter().zip(&again) {
                        if x.record != y.record || x.end_state != y.end_state {
                            out.push(format!(
                                "{} on {} is not deterministic",
                                scenario.name,
                                x.backend.name()
                            ));
                        }
                    }
                }
            }
        }
        out
    }

    /// Traces that do not read back as what the run recorded: the record parsed from a run's
    /// trace text must be the run's record with its numbers as written, exactly.
    pub fn unreadable(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (_, scenario, outcomes) in self.ran() {
            for o in outcomes {
                let name = format!("{} on {}", scenario.name, o.backend.name());
                let trace = match cspace_scenario::trace::parse(&o.trace()) {
                    Ok(t) => t,
                    Err(e) => {
                        out.push(format!("{name}: {e}"));
                        continue;
                    }
                };
                let same = trace.record == o.record.as_written()
                    && trace.record.header.scenario == scenario.name
                    && trace.record.header.backend == o.backend.name()
                    && trace.record.finals.len() == scenario.agents.len();
                if !same {
                    out.push(format!("{name}: the trace reads back otherwise"));
                }
            }
        }
        out
    }

    /// Snapshot files of no scenario and backend (left behind by a renamed scenario or a
    /// dropped backend).
    pub fn orphans(&self) -> Vec<String> {
        let mut known = std::collections::BTreeSet::new();
        for r in &self.scenarios {
            // A scenario that did not run may have a snapshot for any backend.
            let backends = match &r.outcome {
                Ok((scenario, _)) => scenario.backends.clone(),
                Err(_) => BackendKind::ALL.to_vec(),
            };
            for b in backends {
                known.insert(snapshot::name(b, &r.path));
            }
        }
        let mut orphans = Vec::new();
        for entry in std::fs::read_dir(&self.snapshots).into_iter().flatten() {
            let name = entry
                .expect("a readable directory entry")
                .file_name()
                .to_string_lossy()
                .into_owned();
            if let Some(stem) = name.strip_suffix(".snap")
                && !known.contains(stem)
            {
                orphans.push(name);
            }
        }
        orphans.sort();
        orphans
    }
}

/// The message of a failed snapshot test: each scenario and backend, and how to review them.
pub fn review_message(unmatched: &[Unmatched]) -> String {
    let mut message = format!("{} trace snapshot(s) to review:\n", unmatched.len());
    for u in unmatched {
        message += &format!(
            "  scenarios/{} on {}: {}\n",
            u.file,
            u.backend.name(),
            u.why
        );
    }
    if let Some(u) = unmatched.first() {
        message += &format!(
            "Review them: `cargo insta review` shows each pending snapshots/traces/*.snap.new with \
             its diff, to accept or reject (with CI=true nothing is written: run `cargo test -p \
             cspace-snapshots` locally first). The picture: `sim plot scenarios/{f} --backend {b} \
             --against snapshots/traces/{b}@{f}.snap -o diff.png`; every change in one page: `sim \
             report scenarios/*.toml -o report.html`.",
            f = u.file,
            b = u.backend.name()
        );
    }
    message
}

/// A path under the project, shown from the project's root (as it is written in the docs).
fn shown(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let root = root.canonicalize().unwrap_or(root);
    let full = path
        .parent()
        .and_then(|p| p.canonicalize().ok())
        .map_or(path.to_path_buf(), |p| {
            p.join(path.file_name().unwrap_or_default())
        });
    full.strip_prefix(&root)
        .map_or_else(|_| path.display().to_string(), |p| p.display().to_string())
}
