//! `sim report`: one self-contained HTML page (no network, no external files) for a set of
//! scenarios, made to be the CI artifact a reviewer reads without running anything.
//!
//! Per scenario and backend: the expectations with pass or fail, the cross-backend divergence
//! table, the trajectories (inline SVG from [`crate::plot`]), and for a trace that differs from its
//! snapshot the unified diff of the trace text beside the regression plot. The first screen says
//! what failed, with links to each failure; failing scenarios come first.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::plot::{FirstDivergence, Plot, Series, first_divergence};
use crate::summary::{self, PairReport};
use cspace_scenario::run::{RunOptions, RunOutcome, run_scenario};
use cspace_scenario::scenario::Scenario;
use cspace_scenario::snapshot;
use cspace_scenario::trace::FinalState;
use cspace_scenario::trace::{self, fixed};
use cspace_sim::backend::BackendKind;
use cspace_sim::{Event, Sample};

/// How a snapshot comes to be, for the page: in the project, its snapshot test writes them; a
/// snapshot is also just the trace of the backend, so any folder of traces serves.
const SNAPSHOT_HINT: &str = "In the cspace repository <code>cargo test -p cspace-snapshots</code> writes the pending ones and <code>cargo insta review</code> accepts them; elsewhere a snapshot is the trace of one backend, <code>sim run SCENARIO --backend NAME --trace DIR/NAME@FILE.toml.snap</code>.";

/// How a run's trace stands against its snapshot.
#[derive(Debug, Clone)]
pub enum SnapshotStatus {
    /// The trace is the snapshot's, bit for bit.
    Matches,
    /// The trace differs from the snapshot.
    Differs {
        /// The snapshot file.
        path: PathBuf,
        /// The unified diff, snapshot to new trace.
        diff: String,
        /// Where the trajectories first part, if they do beyond the scenario's tolerance.
        first: Option<FirstDivergence>,
        /// The regression plot (SVG) of the run against the snapshot.
        plot: String,
    },
    /// There is no snapshot for this scenario and backend in the folder the caller named
    /// (`--snapshots DIR`): a failure.
    Missing {
        /// Where it would be.
        path: PathBuf,
    },
    /// There is no snapshot beside the scenario and no folder was named: the trace is not
    /// compared, which is not a failure (a scenario outside a project has no snapshots).
    NotCompared {
        /// Where it was looked for.
        path: PathBuf,
    },
}

/// One backend's run of a scenario, with its snapshot comparison.
#[derive(Debug, Clone)]
pub struct BackendRun {
    /// The run.
    pub outcome: RunOutcome,
    /// The trace against its snapshot.
    pub snapshot: SnapshotStatus,
}

/// A scenario in the report: its runs, or why it has none.
#[derive(Debug, Clone)]
pub struct ScenarioReport {
    /// The scenario file.
    pub path: PathBuf,
    /// The scenario and its runs, or why there are none.
    pub result: ScenarioResult,
}

/// What became of a scenario.
#[derive(Debug, Clone)]
pub enum ScenarioResult {
    /// It ran.
    Ran(Box<Runs>),
    /// It did not load or run: the error (`file:line:column: ...`). A failure.
    Failed(String),
    /// It was not run, and why: it reads the map corpus and `CSPACE_MAPS` is unset
    /// ([`Scenario::needs_unset_corpus`]). Not a failure, as a test that needs the corpus is
    /// skipped by name when the variable is unset.
    Skipped(String),
}

impl ScenarioResult {
    /// The runs, when it ran.
    pub fn runs(&self) -> Option<&Runs> {
        match self {
            ScenarioResult::Ran(r) => Some(r.as_ref()),
            _ => None,
        }
    }
}

/// A scenario that ran.
#[derive(Debug, Clone)]
pub struct Runs {
    /// The scenario.
    pub scenario: Scenario,
    /// One per backend.
    pub runs: Vec<BackendRun>,
    /// Every pair of backends compared.
    pub pairs: Vec<PairReport>,
    /// The trajectories of every backend (SVG).
    pub plot: String,
}

/// One thing that failed, as the first screen lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// The scenario's file name.
    pub scenario: String,
    /// The page anchor of the failure's section.
    pub anchor: String,
    /// What failed.
    pub what: String,
}

/// The report of a set of scenarios.
#[derive(Debug, Clone)]
pub struct Report {
    /// The scenarios, in the order given.
    pub scenarios: Vec<ScenarioReport>,
}

/// Options of [`Report::build`].
#[derive(Debug, Clone, Default)]
pub struct ReportOptions {
    /// Where the snapshots are. Named, a missing snapshot is a failure; by default they are
    /// looked for in `snapshots/traces` beside each scenario's folder, and a trace without one
    /// there is not compared.
    pub snapshots: Option<PathBuf>,
    /// The backends to run (default: each scenario's own).
    pub backends: Vec<BackendKind>,
}

impl Report {
    /// Runs every scenario in `paths` on its backends and compares each trace with its snapshot.
    /// `progress` is told each scenario as it starts.
    pub fn build(
        paths: &[PathBuf],
        options: &ReportOptions,
        mut progress: impl FnMut(&Path),
    ) -> Report {
        let scenarios = paths
            .iter()
            .map(|path| {
                progress(path);
                ScenarioReport {
                    path: path.clone(),
                    result: outcome(path, options),
                }
            })
            .collect();
        Report { scenarios }
    }

    /// Everything that failed: scenarios that did not load, expectations not met, backends that
    /// diverge beyond tolerance, traces that differ from their snapshots or have none.
    pub fn failures(&self) -> Vec<Failure> {
        let mut out = Vec::new();
        for s in &self.scenarios {
            let file = file_name(&s.path);
            let runs = match &s.result {
                ScenarioResult::Failed(e) => {
                    out.push(Failure {
                        scenario: file.clone(),
                        anchor: anchor(&file, None),
                        what: format!("does not run: {e}"),
                    });
                    continue;
                }
                ScenarioResult::Skipped(_) => continue,
                ScenarioResult::Ran(r) => r,
            };
            for run in &runs.runs {
                let backend = run.outcome.backend;
                let at = anchor(&file, Some(backend));
                for c in &run.outcome.checks {
                    if let Some(why) = &c.failure {
                        out.push(Failure {
                            scenario: file.clone(),
                            anchor: at.clone(),
                            what: format!(
                                "on {}: agent {} {}: {why} ({})",
                                backend.name(),
                                runs.scenario.agent_names[c.expectation.agent.0 as usize],
                                c.expectation.check.describe(),
                                c.expectation.written_at
                            ),
                        });
                    }
                }
                match &run.snapshot {
                    SnapshotStatus::Matches | SnapshotStatus::NotCompared { .. } => {}
                    SnapshotStatus::Missing { path } => out.push(Failure {
                        scenario: file.clone(),
                        anchor: at.clone(),
                        what: format!(
                            "on {}: no snapshot yet ({})",
                            backend.name(),
                            cspace_mapfile::normalised(path).display()
                        ),
                    }),
                    SnapshotStatus::Differs { path, first, .. } => out.push(Failure {
                        scenario: file.clone(),
                        anchor: at.clone(),
                        what: format!(
                            "on {}: the trace differs from {}{}",
                            backend.name(),
                            cspace_mapfile::normalised(path).display(),
                            match first {
                                Some(d) => format!(
                                    "; first divergence at step {} ({:.3} s), agent {}, {} units",
                                    d.step,
                                    d.time,
                                    runs.scenario.agent_names[d.agent.0 as usize],
                                    fixed(d.distance, 3)
                                ),
                                None => format!(
                                    "; positions within {} units, events or velocities differ",
                                    runs.scenario.tolerance
                                ),
                            }
                        ),
                    }),
                }
            }
            for p in runs.pairs.iter().filter(|p| !p.agrees()) {
                let (d, agent, step) = p.divergence.largest();
                out.push(Failure {
                    scenario: file.clone(),
                    anchor: anchor(&file, None),
                    what: format!(
                        "{} and {} diverge by {} units (agent {}, step {step}; tolerance {})",
                        p.a,
                        p.b,
                        fixed(d, 3),
                        runs.scenario.agent_names[agent.0 as usize],
                        p.tolerance
                    ),
                });
            }
        }
        out
    }

    /// True when some scenario did not load or run.
    pub fn has_errors(&self) -> bool {
        self.scenarios
            .iter()
            .any(|s| matches!(s.result, ScenarioResult::Failed(_)))
    }

    /// The scenarios skipped, with why ([`ScenarioResult::Skipped`]).
    pub fn skipped(&self) -> Vec<(&Path, &str)> {
        self.scenarios
            .iter()
            .filter_map(|s| match &s.result {
                ScenarioResult::Skipped(why) => Some((s.path.as_path(), why.as_str())),
                _ => None,
            })
            .collect()
    }

    /// The scenarios whose traces were not compared for want of snapshots
    /// ([`SnapshotStatus::NotCompared`]): the file, the backends, and the folder looked in.
    pub fn not_compared(&self) -> Vec<(&Path, Vec<BackendKind>, &Path)> {
        self.scenarios
            .iter()
            .filter_map(|s| {
                let runs = s.result.runs()?;
                let mut folder = None;
                let backends: Vec<BackendKind> = runs
                    .runs
                    .iter()
                    .filter_map(|run| match &run.snapshot {
                        SnapshotStatus::NotCompared { path } => {
                            folder = path.parent();
                            Some(run.outcome.backend)
                        }
                        _ => None,
                    })
                    .collect();
                Some((s.path.as_path(), backends, folder?))
            })
            .collect()
    }

    /// The page.
    pub fn html(&self) -> String {
        let failures = self.failures();
        let runs: usize = self
            .scenarios
            .iter()
            .filter_map(|s| s.result.runs())
            .map(|r| r.runs.len())
            .sum();
        let mut out = String::new();
        let title = if failures.is_empty() {
            format!("cspace report: all {} scenarios pass", self.scenarios.len())
        } else {
            format!(
                "cspace report: {} failure(s) in {} scenarios",
                failures.len(),
                self.scenarios.len()
            )
        };
        let _ = write!(
            out,
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
            escape(&title),
            escape(&title)
        );
        let skipped = self.skipped();
        let skipped_text = if skipped.is_empty() {
            String::new()
        } else {
            format!(
                " Skipped, not failed: {} ({}).",
                skipped
                    .iter()
                    .map(|(p, _)| file_name(p))
                    .collect::<Vec<_>>()
                    .join(", "),
                skipped[0].1
            )
        };
        let _ = writeln!(
            out,
            "<p class=\"lead\">{} scenarios, {runs} runs. Each trace is compared with its snapshot, each expectation checked, each pair of backends held to the scenario's tolerance.{}</p>",
            self.scenarios.len(),
            escape(&skipped_text)
        );
        // The first screen: what failed.
        if failures.is_empty() {
            out += "<section id=\"failed\" class=\"ok\"><h2>Nothing failed</h2><p>Every trace matches its snapshot, every expectation holds and the backends agree.</p></section>\n";
        } else {
            out += "<section id=\"failed\" class=\"bad\"><h2>What failed</h2><ol>\n";
            for f in &failures {
                let _ = writeln!(
                    out,
                    "<li><a href=\"#{}\"><b>{}</b></a> {}</li>",
                    f.anchor,
                    escape(&f.scenario),
                    escape(&f.what)
                );
            }
            out += "</ol></section>\n";
        }
        self.overview(&mut out);
        // Failing scenarios first, then the others, each in the order given.
        let failing: std::collections::BTreeSet<&str> =
            failures.iter().map(|f| f.scenario.as_str()).collect();
        let (bad, good): (Vec<&ScenarioReport>, Vec<&ScenarioReport>) = self
            .scenarios
            .iter()
            .partition(|s| failing.contains(file_name(&s.path).as_str()));
        for s in bad.into_iter().chain(good) {
            scenario_section(&mut out, s);
        }
        out += "</body>\n</html>\n";
        out
    }

    /// The table of every scenario and backend.
    fn overview(&self, out: &mut String) {
        let mut backends: Vec<BackendKind> = Vec::new();
        for s in &self.scenarios {
            if let Some(r) = s.result.runs() {
                for run in &r.runs {
                    if !backends.contains(&run.outcome.backend) {
                        backends.push(run.outcome.backend);
                    }
                }
            }
        }
        backends.sort();
        *out += "<section id=\"overview\"><h2>Every scenario</h2><table><tr><th>scenario</th>";
        for b in &backends {
            let _ = write!(out, "<th>{}</th>", escape(b.name()));
        }
        *out += "<th>backends agree</th></tr>\n";
        for s in &self.scenarios {
            let file = file_name(&s.path);
            let _ = write!(
                out,
                "<tr><td><a href=\"#{}\">{}</a></td>",
                anchor(&file, None),
                escape(&file)
            );
            match &s.result {
                ScenarioResult::Failed(_) => {
                    let _ = write!(
                        out,
                        "<td class=\"bad\" colspan=\"{}\">does not run</td>",
                        backends.len() + 1
                    );
                }
                ScenarioResult::Skipped(why) => {
                    let _ = write!(
                        out,
                        "<td class=\"na\" colspan=\"{}\">skipped: {}</td>",
                        backends.len() + 1,
                        escape(why)
                    );
                }
                ScenarioResult::Ran(r) => {
                    for b in &backends {
                        match r.runs.iter().find(|run| run.outcome.backend == *b) {
                            None => *out += "<td class=\"na\">not run</td>",
                            Some(run) => {
                                let (class, text) = run_status(run);
                                let _ = write!(
                                    out,
                                    "<td class=\"{class}\"><a href=\"#{}\">{text}</a></td>",
                                    anchor(&file, Some(*b))
                                );
                            }
                        }
                    }
                    let agree = r.pairs.iter().all(|p| p.agrees());
                    let _ = write!(
                        out,
                        "<td class=\"{}\">{}</td>",
                        if agree { "ok" } else { "bad" },
                        if agree { "yes" } else { "no" }
                    );
                }
            }
            *out += "</tr>\n";
        }
        *out += "</table></section>\n";
    }
}

/// The class and words of a run's overview cell.
fn run_status(run: &BackendRun) -> (&'static str, String) {
    let mut problems = Vec::new();
    let failed = run
        .outcome
        .checks
        .iter()
        .filter(|c| c.failure.is_some())
        .count();
    if failed > 0 {
        problems.push(format!("{failed} expectation(s) failed"));
    }
    match &run.snapshot {
        SnapshotStatus::Matches | SnapshotStatus::NotCompared { .. } => {}
        SnapshotStatus::Missing { .. } => problems.push("no snapshot".to_string()),
        SnapshotStatus::Differs { .. } => problems.push("trace changed".to_string()),
    }
    if problems.is_empty() {
        match run.snapshot {
            SnapshotStatus::NotCompared { .. } => ("ok", "ok, not compared".to_string()),
            _ => ("ok", "ok".to_string()),
        }
    } else {
        ("bad", problems.join(", "))
    }
}

/// Runs one scenario, unless it needs the map corpus and `CSPACE_MAPS` is unset.
fn outcome(path: &Path, options: &ReportOptions) -> ScenarioResult {
    let text = match cspace_scenario::read::read_text(path, "read the scenario") {
        Ok(text) => text,
        Err(e) => return ScenarioResult::Failed(format!("{e:#}")),
    };
    if Scenario::needs_unset_corpus(&text) {
        return ScenarioResult::Skipped(Scenario::corpus_unset_reason());
    }
    match run_one(path, &text, options) {
        Ok(runs) => ScenarioResult::Ran(Box::new(runs)),
        Err(e) => ScenarioResult::Failed(e),
    }
}

/// Runs the scenario `text` (the file `path`) on its backends.
fn run_one(path: &Path, text: &str, options: &ReportOptions) -> Result<Runs, String> {
    let scenario = Scenario::parse(path, text).map_err(|e| format!("{e:#}"))?;
    let kinds: Vec<BackendKind> = if options.backends.is_empty() {
        scenario.backends.clone()
    } else {
        options
            .backends
            .iter()
            .copied()
            .filter(|b| scenario.backends.contains(b))
            .collect()
    };
    let dir = options
        .snapshots
        .clone()
        .unwrap_or_else(|| snapshot::dir_for(path));
    let mut runs = Vec::with_capacity(kinds.len());
    let mut outcomes = Vec::with_capacity(kinds.len());
    let mut series = Vec::with_capacity(kinds.len());
    for &kind in &kinds {
        let outcome = run_scenario(&scenario, kind, RunOptions::default()).map_err(|e| {
            format!(
                "{} on {}: {e:#}",
                cspace_mapfile::normalised(path).display(),
                kind.name()
            )
        })?;
        let text_now = outcome.trace();
        let now = outcome.record.as_written();
        let snap = snapshot::path_in(&dir, kind, path);
        let status = match snapshot::compare(&snap, &text_now) {
            snapshot::Comparison::Missing if options.snapshots.is_some() => {
                SnapshotStatus::Missing { path: snap }
            }
            snapshot::Comparison::Missing => SnapshotStatus::NotCompared { path: snap },
            snapshot::Comparison::Matches => SnapshotStatus::Matches,
            snapshot::Comparison::Differs(text) => {
                let then = trace::parse(&text)
                    .map_err(|e| format!("{}:{e}", cspace_mapfile::normalised(&snap).display()))?
                    .record;
                let diff = similar::TextDiff::from_lines(snapshot::body(&text), &text_now)
                    .unified_diff()
                    .context_radius(3)
                    .header(
                        &cspace_mapfile::normalised(&snap).display().to_string(),
                        "this run",
                    )
                    .to_string();
                let run_series = [Series {
                    label: kind.name().to_string(),
                    record: now.clone(),
                }];
                let baseline = Series {
                    label: format!("snapshot ({})", kind.name()),
                    record: then.clone(),
                };
                let plot = Plot {
                    world: &scenario.world.world,
                    agent_names: &scenario.agent_names,
                    runs: &run_series,
                    baseline: Some(&baseline),
                    tolerance: scenario.tolerance,
                    paths: &outcome.plans,
                    crowds: &scenario.crowds,
                }
                .svg()
                .map_err(|e| e.to_string())?;
                SnapshotStatus::Differs {
                    path: snap,
                    diff,
                    first: first_divergence(&now, &then, scenario.tolerance),
                    plot,
                }
            }
        };
        series.push(Series {
            label: kind.name().to_string(),
            record: now,
        });
        outcomes.push(outcome.clone());
        runs.push(BackendRun {
            outcome,
            snapshot: status,
        });
    }
    let pairs = summary::pairs(&scenario, &outcomes);
    let plot = Plot {
        world: &scenario.world.world,
        agent_names: &scenario.agent_names,
        runs: &series,
        baseline: None,
        tolerance: scenario.tolerance,
        paths: outcomes.first().map_or(&[], |o| o.plans.as_slice()),
        crowds: &scenario.crowds,
    }
    .svg()
    .map_err(|e| e.to_string())?;
    Ok(Runs {
        scenario,
        runs,
        pairs,
        plot,
    })
}

fn scenario_section(out: &mut String, s: &ScenarioReport) {
    let file = file_name(&s.path);
    let _ = writeln!(
        out,
        "<section class=\"scenario\" id=\"{}\"><h2>{}</h2>",
        anchor(&file, None),
        escape(&file)
    );
    let r = match &s.result {
        ScenarioResult::Failed(e) => {
            let _ = writeln!(out, "<pre class=\"error\">{}</pre></section>", escape(e));
            return;
        }
        ScenarioResult::Skipped(why) => {
            let _ = writeln!(
                out,
                "<p class=\"meta\">Skipped, not run: {}.</p></section>",
                escape(why)
            );
            return;
        }
        ScenarioResult::Ran(r) => r,
    };
    let sc = &r.scenario;
    let _ = writeln!(
        out,
        "<p>{} <span class=\"meta\">({}: {} agents, {} steps of {} s, tolerance {} units)</span></p>",
        escape(&sc.description),
        escape(&cspace_mapfile::normalised(&s.path).display().to_string()),
        sc.agents.len(),
        sc.steps,
        sc.dt,
        sc.tolerance
    );
    // Expectations: one row per expectation, one column per backend.
    if !sc.expectations.is_empty() {
        *out += "<h3>Expectations</h3><table><tr><th>agent</th><th>expects</th>";
        for run in &r.runs {
            let _ = write!(out, "<th>{}</th>", escape(run.outcome.backend.name()));
        }
        *out += "<th>written at</th></tr>\n";
        for (i, e) in sc.expectations.iter().enumerate() {
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td>",
                escape(&sc.agent_names[e.agent.0 as usize]),
                escape(&e.check.describe())
            );
            for run in &r.runs {
                match &run.outcome.checks[i].failure {
                    None => *out += "<td class=\"ok\">ok</td>",
                    Some(why) => {
                        let _ = write!(out, "<td class=\"bad\">FAILED: {}</td>", escape(why));
                    }
                }
            }
            let _ = writeln!(
                out,
                "<td class=\"meta\">{}</td></tr>",
                escape(&e.written_at)
            );
        }
        *out += "</table>\n";
    }
    // Backends against each other.
    if !r.pairs.is_empty() {
        *out += "<h3>Backends compared</h3><table><tr><th>backends</th><th>largest divergence (units)</th><th>agent</th><th>at step</th><th>contacts</th><th>tolerance</th><th>verdict</th></tr>\n";
        for p in &r.pairs {
            let (d, agent, step) = summary::largest_cells(sc, p);
            let contacts = match &p.divergence.contacts {
                None => "same".to_string(),
                Some((i, x, y)) => format!("differ at #{i}: {x} / {y}"),
            };
            let verdict = match (p.agrees(), &p.reason) {
                (true, Some(reason)) => format!("ok (expected: {reason})"),
                (true, None) => "ok".to_string(),
                (false, _) => "DIVERGES".to_string(),
            };
            let _ = writeln!(
                out,
                "<tr><td>{} vs {}</td><td>{d}</td><td>{}</td><td>{step}</td><td>{}</td><td>{}</td><td class=\"{}\">{}</td></tr>",
                escape(&p.a),
                escape(&p.b),
                escape(&agent),
                escape(&contacts),
                p.tolerance,
                if p.agrees() { "ok" } else { "bad" },
                escape(&verdict)
            );
        }
        *out += "</table>\n";
    }
    // Per backend: its snapshot; backends whose traces and snapshot comparisons are the same
    // are shown once, named together.
    for group in same_traces(&r.runs) {
        let run = group[0];
        let names = group
            .iter()
            .map(|g| g.outcome.backend.name())
            .collect::<Vec<_>>()
            .join(", ");
        let _ = write!(
            out,
            "<div class=\"run\" id=\"{}\">",
            anchor(&file, Some(run.outcome.backend))
        );
        // The other backends' anchors, so that links to any of them land here.
        for other in &group[1..] {
            let _ = write!(
                out,
                "<span id=\"{}\"></span>",
                anchor(&file, Some(other.outcome.backend))
            );
        }
        let paths = |path: &dyn Fn(&BackendRun) -> Option<String>| {
            group
                .iter()
                .filter_map(|g| path(g))
                .map(|p| format!("<code>{}</code>", escape(&p)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match &run.snapshot {
            SnapshotStatus::Matches => {
                let _ = write!(
                    out,
                    "<h3>{}: the trace matches its snapshot</h3>",
                    escape(&names)
                );
            }
            SnapshotStatus::Missing { .. } => {
                let _ = write!(
                    out,
                    "<h3 class=\"bad\">{}: no snapshot yet</h3><p>Expected at {}. {SNAPSHOT_HINT}</p>",
                    escape(&names),
                    paths(&|g| match &g.snapshot {
                        SnapshotStatus::Missing { path } =>
                            Some(cspace_mapfile::normalised(path).display().to_string()),
                        _ => None,
                    })
                );
            }
            SnapshotStatus::NotCompared { .. } => {
                let _ = write!(
                    out,
                    "<h3>{}: not compared</h3><p>No snapshot at {}; <code>--snapshots DIR</code> names a folder to compare with. {SNAPSHOT_HINT}</p>",
                    escape(&names),
                    paths(&|g| match &g.snapshot {
                        SnapshotStatus::NotCompared { path } =>
                            Some(cspace_mapfile::normalised(path).display().to_string()),
                        _ => None,
                    })
                );
            }
            SnapshotStatus::Differs { diff, plot, .. } => {
                let _ = write!(
                    out,
                    "<h3 class=\"bad\">{}: the trace differs from {}</h3><div class=\"pair\"><div class=\"plot\">{}</div><pre class=\"diff\">{}</pre></div>",
                    escape(&names),
                    paths(&|g| match &g.snapshot {
                        SnapshotStatus::Differs { path, .. } =>
                            Some(cspace_mapfile::normalised(path).display().to_string()),
                        _ => None,
                    }),
                    svg_inline(plot),
                    diff_html(diff)
                );
            }
        }
        *out += "</div>\n";
    }
    let _ = writeln!(
        out,
        "<h3>Trajectories</h3><div class=\"plot\">{}</div></section>",
        svg_inline(&r.plot)
    );
}

/// The page anchor of a scenario (and backend).
fn anchor(file: &str, backend: Option<BackendKind>) -> String {
    let mut id: String = file
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    if let Some(b) = backend {
        id.push_str("--");
        id.extend(
            b.name()
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }),
        );
    }
    id
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || cspace_mapfile::normalised(path).display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Text for HTML (element content and attribute values).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The runs in groups that show the same thing: the same trajectories, events and final
/// states (the backend's name aside), and the same standing against their snapshots (both
/// matching, both missing, or both differing by the same diff, the snapshots' names aside).
/// Groups keep the order of their first run.
fn same_traces(runs: &[BackendRun]) -> Vec<Vec<&BackendRun>> {
    fn key(run: &BackendRun) -> (String, &[Sample], &[Event], &[FinalState]) {
        let status = match &run.snapshot {
            SnapshotStatus::Matches => "matches".to_string(),
            SnapshotStatus::Missing { .. } => "missing".to_string(),
            SnapshotStatus::NotCompared { .. } => "not compared".to_string(),
            SnapshotStatus::Differs { diff, .. } => {
                // The diff without its header (the snapshot's path) and with the trace's
                // backend line neutral.
                let backend = format!("backend {}", run.outcome.backend.name());
                diff.lines()
                    .skip(2)
                    .map(|l| l.replace(&backend, "backend"))
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        };
        let r = &run.outcome.record;
        (status, &r.samples, &r.events, &r.finals)
    }
    let mut groups: Vec<Vec<&BackendRun>> = Vec::new();
    for run in runs {
        match groups.iter_mut().find(|g| key(g[0]) == key(run)) {
            Some(g) => g.push(run),
            None => groups.push(vec![run]),
        }
    }
    groups
}

/// An SVG document as an element of the page: the XML prolog dropped, shown at its own size
/// (its `width` in CSS pixels, the height following), so that its text is as large on the page
/// as in the plot (at least 11 pixels, [`crate::plot::TEXT`]); a column narrower than the plot
/// scrolls it sideways rather than shrinking it.
fn svg_inline(svg: &str) -> String {
    let start = svg.find("<svg").unwrap_or(0);
    let svg = &svg[start..];
    let width = svg
        .find("width=\"")
        .map(|i| &svg[i + 7..])
        .and_then(|rest| rest.split('"').next())
        .unwrap_or("100%");
    svg.replacen(
        "<svg ",
        &format!("<svg class=\"figure\" style=\"width: {width}px; height: auto\" "),
        1,
    )
}

/// A unified diff with its added, removed and hunk lines marked.
fn diff_html(diff: &str) -> String {
    let mut out = String::with_capacity(diff.len() * 2);
    for line in diff.lines() {
        let class = if line.starts_with("@@") {
            "hunk"
        } else if line.starts_with('+') {
            "add"
        } else if line.starts_with('-') {
            "del"
        } else {
            "ctx"
        };
        // Block spans: one line each, no newline between them.
        let _ = write!(out, "<span class=\"{class}\">{}</span>", escape(line));
    }
    out
}

const STYLE: &str = "
body { font-family: sans-serif; margin: 1.5em; color: #222; max-width: 1800px; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
.lead, .meta { color: #555; }
section { margin: 1.2em 0; }
#failed { padding: 0.6em 1em; border-radius: 6px; }
#failed.bad { background: #fde8e8; border: 2px solid #d60000; }
#failed.ok { background: #e6f6e6; border: 2px solid #2c9f2c; }
#failed li { margin: 0.3em 0; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; font-size: 0.92em; }
td.ok { background: #e6f6e6; }
td.bad, h3.bad { color: #b00000; }
td.bad { background: #fde8e8; }
td.na { color: #999; }
section.scenario { border-top: 3px solid #888; padding-top: 0.5em; }
.plot { overflow-x: auto; }
svg.figure { display: block; max-width: none; }
pre { font-size: 0.8em; overflow: auto; max-height: 60em; background: #f7f7f7; padding: 0.5em; }
pre.diff { white-space: pre-wrap; overflow-wrap: anywhere; }
pre.error { color: #b00000; }
.diff .add { color: #006b00; background: #e8f8e8; display: block; }
.diff .del { color: #a00000; background: #fbeaea; display: block; }
.diff .hunk { color: #5050b0; display: block; }
.diff .ctx { display: block; }
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_is_escaped_and_anchors_are_plain() {
        assert_eq!(escape("a<b & \"c\"'"), "a&lt;b &amp; &quot;c&quot;&#39;");
        assert_eq!(
            anchor("tunnel.toml", Some(BackendKind::UdopExact)),
            "tunnel-toml--udop-exact"
        );
        assert!(diff_html("@@ -1 +1 @@\n-a\n+b\n c").contains("<span class=\"del\">-a</span>"));
    }
}
