//! The `baseline` target (issue 35, items 5 and 6): recorded traces and trace snapshots, as
//! `sim plot --against` and `sim report --snapshots` read them.
//!
//! The seeds are made here, never read from the repository: a small fixture scenario
//! (`scenarios/drop.toml` and `scenarios/rooms.toml`, cut to 48 steps) is run
//! through the library on two backends, and its record written as `sim run --trace` writes it
//! (one backend's trace, or one per backend joined by a blank line, `commands/run.rs`) and as an
//! insta snapshot writes it (`snapshots/traces/*.snap`: insta's `---` header, then the trace).
//! A case's input is the file's name on its first line, then the mutated text. The text is read
//! back by [`cspace_scenario::trace::parse_all`] (what `sim plot --against` reads) or
//! [`cspace_scenario::trace::parse`] (what `sim report` reads a differing snapshot with), and an
//! accepted record is used as they use it: compared with the run
//! ([`cspace_report::plot::first_divergence`], [`cspace_report::plot::positions_off`]) and drawn
//! as the baseline of a plot, in memory ([`cspace_report::plot::Plot::svg`]).

use std::path::{Path, PathBuf};

use cspace_geom::domain::{self, Quantity};
use cspace_geom::generate::Rng;
use cspace_report::plot::{Plot, Series};
use cspace_scenario::scenario::MAX_NAME_BYTES;
use cspace_scenario::trace::{self, RunRecord};
use cspace_scenario::{RunOptions, Scenario};
use cspace_sim::{AgentState, BackendKind};

use crate::{Failure, Verdict, mutate};

/// Steps the fixture scenarios are run for (enough for contacts, samples and a landing).
const BASELINE_STEPS: u64 = 48;
/// The fixture scenarios, in `scenarios/`.
const FIXTURE_SCENARIOS: [&str; 2] = ["drop.toml", "rooms.toml"];
/// The largest magnitude of a number an accepted trace may hold: 2^53, the reader's
/// `MAX_TRACE_NUMBER` (`crates/scenario/src/trace.rs`), which is private there.
const MAX_TRACE_NUMBER: f64 = 9_007_199_254_740_992.0;

/// The words after which the trace format writes an integer: steps, counts and ids.
const INTEGER_WORDS: [&str; 8] = [
    "steps",
    "step",
    "sample_every",
    "agents",
    "agent",
    "brush",
    "contacts",
    "waypoints",
];

/// One fixture: the scenario run, its runs' records and its seed files.
pub(crate) struct Baseline {
    /// The scenario (its world, names and crowds are what a plot draws).
    scenario: Scenario,
    /// The records of its runs, as written (what `sim plot` draws and compares).
    runs: Vec<Series>,
    /// The seed files: name and text.
    pub(crate) files: Vec<(String, String)>,
}

/// The fixtures of the `baseline` target.
pub(crate) fn fixtures(scenarios_dir: &Path) -> anyhow::Result<Vec<Baseline>> {
    let mut out = Vec::new();
    for file in FIXTURE_SCENARIOS {
        let path = scenarios_dir.join(file);
        let mut scenario = Scenario::load(&path)?;
        scenario.steps = scenario.steps.min(BASELINE_STEPS);
        let kinds: Vec<BackendKind> = [BackendKind::Exact, BackendKind::Onion]
            .into_iter()
            .filter(|k| scenario.backends.contains(k))
            .collect();
        let mut runs = Vec::new();
        let mut texts = Vec::new();
        for &kind in &kinds {
            let outcome = cspace_scenario::run_scenario(&scenario, kind, RunOptions::default())?;
            texts.push(outcome.trace());
            runs.push(Series {
                label: kind.name().to_string(),
                record: outcome.record.as_written(),
            });
        }
        anyhow::ensure!(!texts.is_empty(), "{file}: no fixture backend runs it");
        let stem = file.trim_end_matches(".toml");
        let mut files = vec![
            (format!("{stem}.trace"), texts[0].clone()),
            (
                format!("{}@{file}.snap", kinds[0].name()),
                format!(
                    "---\nsource: snapshots/tests/traces.rs\ninput_file: scenarios/{file}\n---\n{}",
                    texts[0]
                ),
            ),
        ];
        if texts.len() > 1 {
            files.push((format!("{stem}-all.trace"), texts.join("\n")));
        }
        out.push(Baseline {
            scenario,
            runs,
            files,
        });
    }
    Ok(out)
}

/// Lines of the trace format whose value is a count or a name: where the targeted mutations aim.
const HEADER_KEYS: [&str; 6] = [
    "scenario",
    "backend",
    "steps",
    "agents",
    "sample_every",
    "time_step",
];

/// The input of a `baseline` case: a seed file's name, then its text mutated (the generic
/// mutations of [`mutate::text`] half the time, the targeted ones of issue 35 otherwise).
pub(crate) fn input(fixtures: &[Baseline], rng: &mut Rng) -> Vec<u8> {
    let fixture = &fixtures[rng.below(fixtures.len())];
    let (name, text) = &fixture.files[rng.below(fixture.files.len())];
    let mut input = format!("{name}\n").into_bytes();
    let body = if rng.below(2) == 0 {
        mutate::text(text.as_bytes(), rng)
    } else {
        let mut bytes = text.as_bytes().to_vec();
        for _ in 0..1 + rng.below(2) {
            bytes = targeted(&bytes, rng);
        }
        bytes
    };
    input.extend(body);
    input
}

/// One of issue 35's mutations of a trace: a number for one beyond the domain, a header count
/// for a huge one, a name for one with control characters or path separators.
fn targeted(bytes: &[u8], rng: &mut Rng) -> Vec<u8> {
    match rng.below(3) {
        0 => mutate::number(bytes, mutate::HOSTILE_TRACE_NUMBERS, rng),
        1 => {
            let key = HEADER_KEYS[2 + rng.below(HEADER_KEYS.len() - 2)];
            let count = mutate::HOSTILE_COUNTS[rng.below(mutate::HOSTILE_COUNTS.len())];
            mutate::header_value(bytes, key, count, rng)
        }
        _ => {
            let key = HEADER_KEYS[rng.below(2)];
            let name = mutate::HOSTILE_NAMES[rng.below(mutate::HOSTILE_NAMES.len())];
            mutate::header_value(bytes, key, name, rng)
        }
    }
}

/// A state is within the domain: each coordinate of its position a trace coordinate, each
/// component of its velocity a speed (each number by itself, as the reader checks them: a
/// velocity whose length exceeds `MAX_SPEED` with every component within it is read, and
/// [`domain::check_velocity`] would refuse it).
fn check_state(state: &AgentState, what: &str) -> Result<(), Failure> {
    let ok = domain::check_point(Quantity::TraceCoordinate, state.position).is_ok()
        && domain::check_point(Quantity::Speed, state.velocity).is_ok();
    if ok {
        Ok(())
    } else {
        Err(Failure::Invalid(format!(
            "{what}: an accepted state outside the domain: {state:?}"
        )))
    }
}

/// An accepted record holds only finite numbers within the domain: its header's time step and
/// counts, every sampled and final state, and (read from the record written back) every number
/// of its events and totals no larger than the reader's bound.
fn check_record(record: &RunRecord, file: &str) -> Result<(), Failure> {
    let h = &record.header;
    // A trace without a `time_step` line is read with the time step 0 (the reader's default,
    // which minimal traces in the project's tests rely on); one it writes must be positive.
    let header_ok = domain::check(Quantity::TimeStep, h.time_step).is_ok()
        && h.time_step >= 0.0
        && h.agents <= cspace_scenario::scenario::MAX_AGENTS
        && h.sample_every > 0;
    if !header_ok {
        return Err(Failure::Invalid(format!(
            "{file}: an accepted header outside the domain: {h:?}"
        )));
    }
    for s in &record.samples {
        for state in &s.states {
            check_state(state, file)?;
        }
    }
    for f in &record.finals {
        check_state(&f.state, file)?;
    }
    // Every other number (event points, normals, times of impact, lengths, distances, times),
    // as the record writes it back; the integers after the words of INTEGER_WORDS are counts
    // and ids the reader reads as integers (exact whatever their size).
    let text = trace::write(record);
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || "(),".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    for (k, w) in words.iter().enumerate() {
        let integer = k > 0 && INTEGER_WORDS.contains(&words[k - 1]) && w.parse::<u64>().is_ok();
        if let Ok(v) = w.parse::<f64>()
            && !integer
            && !(v.is_finite() && v.abs() <= MAX_TRACE_NUMBER)
        {
            return Err(Failure::Invalid(format!(
                "{file}: an accepted trace holds the number {}",
                &w[..w.floor_char_boundary(60)]
            )));
        }
    }
    // Names are one line of printable text, at most MAX_NAME_BYTES long (issue 35, item 7; the
    // scenario reader's rule, `scenario/check.rs`).
    for name in [&h.scenario, &h.backend] {
        if name.len() > MAX_NAME_BYTES || name.chars().any(char::is_control) {
            return Err(Failure::Invalid(format!(
                "{file}: an accepted trace names {:?}",
                &name[..name.floor_char_boundary(60)]
            )));
        }
    }
    Ok(())
}

impl Baseline {
    /// Uses an accepted `baseline` as `sim plot --against` and `sim report` do: compared with
    /// each run of the fixture, and drawn as the plot's baseline (an SVG in memory).
    fn use_record(&self, baseline: RunRecord, file: &str) -> Result<(), Failure> {
        let s = &self.scenario;
        // Labelled as `sim plot --against` labels it: the file, then the trace's backend.
        let label = format!("{file} ({})", baseline.header.backend);
        let baseline = Series {
            label: label.clone(),
            record: baseline,
        };
        for run in &self.runs {
            let _ =
                cspace_report::plot::first_divergence(&run.record, &baseline.record, s.tolerance);
            let _ = cspace_report::plot::positions_off(&run.record, &baseline.record, s.tolerance);
        }
        let plot = Plot {
            world: &s.world.world,
            agent_names: &s.agent_names,
            runs: &self.runs,
            baseline: Some(&baseline),
            tolerance: s.tolerance,
            paths: &[],
            crowds: &s.crowds,
        };
        let _ = plot.first_divergences();
        match plot.svg() {
            // XML allows no control character but the line breaks and the tab.
            Ok(svg) if svg.chars().any(|c| c.is_control() && !"\n\r\t".contains(c)) => Err(
                Failure::Invalid(format!("{file}: the plot's SVG holds a control character")),
            ),
            Ok(_) => Ok(()),
            Err(e) => Err(Failure::Invalid(format!(
                "{label}: an accepted baseline cannot be drawn: {e}"
            ))),
        }
    }
}

/// Runs a `baseline` case: the file's name, a newline, its text.
pub(crate) fn run(fixtures: &[Baseline], dir: &Path, input: &[u8]) -> Result<Verdict, Failure> {
    let (name, body) = crate::verdicts::named(input);
    let Some(fixture) = fixtures
        .iter()
        .find(|f| f.files.iter().any(|(n, _)| *n == name))
    else {
        return Err(Failure::Invalid(format!(
            "{name:?} is not a seed file of the baseline target"
        )));
    };
    let path: PathBuf = dir.join(&name);
    let text = match cspace_scenario::location::text_of(&path, body.to_vec()) {
        Ok(text) => text,
        Err(e) => return crate::verdicts::refused_in(&e.to_string(), &name),
    };
    // As `sim plot` and `sim report` say a reader's error: the file, then `LINE:COLUMN: ...`.
    let say = |e: trace::TraceError| format!("{}:{e}", path.display());
    if name.ends_with(".snap") {
        let record = match trace::parse(&text) {
            Ok(t) => t.record,
            Err(e) => return crate::verdicts::refused_in(&say(e), &name),
        };
        check_record(&record, &name)?;
        fixture.use_record(record, &name)?;
    } else {
        let traces = match trace::parse_all(&text) {
            Ok(t) => t,
            Err(e) => return crate::verdicts::refused_in(&say(e), &name),
        };
        for t in traces {
            check_record(&t.record, &name)?;
            fixture.use_record(t.record, &name)?;
        }
    }
    Ok(Verdict::Accepted)
}
