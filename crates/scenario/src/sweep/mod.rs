//! Sweeps: the cross product of scenarios, maps, seeds and backends, run in parallel
//! (`sim sweep`, `docs/sweep.md`).
//!
//! - A [`Plan`] says what to sweep: scenario files, maps in the place of their worlds, [`Seeds`],
//!   backends and the [`Jitter`] a seed applies ([`Plan::load`] reads a sweep file;
//!   [`Plan::from_scenarios`] takes scenario files as given on the command line).
//! - [`Sweep::load`] loads every file it names, reporting every bad one, and fixes the
//!   enumeration: runs are numbered from 0 in the order scenario, then map, then seed, then
//!   backend (the innermost), each in the order written.
//! - [`Sweep::execute`] runs the runs of a [`Shard`] on a pool of threads (rayon) and hands back
//!   one [`RunLine`] per run in run order, whatever the thread count. A run's line depends on
//!   the sweep and the run alone, so the lines of the shards, [`merge`]d, are the lines of the
//!   whole sweep, byte for byte.
//! - [`vary`] is how a seed varies a scenario.
//!
//! ```
//! use std::path::PathBuf;
//! use cspace_scenario::sweep::{Execute, Plan, Seeds, Shard, Sweep};
//!
//! let scenario = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/drop.toml"));
//! let mut plan = Plan::from_scenarios(&[scenario]);
//! plan.seeds = "0..3".parse()?;
//! plan.backends = Some(vec![cspace_sim::BackendKind::Onion]);
//! let sweep = Sweep::load(&plan).map_err(|e| format!("{:?}", e))?;
//! assert_eq!(sweep.runs(), 3);
//! let mut lines = Vec::new();
//! let options = Execute { shard: Shard::ALL, threads: 2, timing: false };
//! sweep.execute(&options, |line| {
//!     lines.push(line);
//!     std::ops::ControlFlow::Continue(())
//! })?;
//! assert_eq!(lines.iter().map(|l| l.seed).collect::<Vec<_>>(), [0, 1, 2]);
//! assert!(lines[0].passed && lines[0].end_state.as_ref().unwrap().len() == 16);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod file;
mod line;
mod merge;
mod seeds;
mod shard;
mod vary;

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use cspace_geom::Collider;

pub use error::SweepError;
pub use file::is_sweep_file;
pub use line::{ExpectationLine, RunLine, Timing};
pub use merge::{Merged, merge};
pub use seeds::{MAX_SEEDS, Seeds};
pub use shard::Shard;
pub use vary::{Jitter, START_DRAWS, generator, jittered_start, sin_cos, vary};

use crate::error::Error;
use crate::location::LocatedError;
use crate::run::{RunOptions, build_collider, run_scenario_with};
use crate::scenario::Scenario;
use crate::world_file::{LoadedWorld, load_world};
use cspace_sim::backend::BackendKind;
use line::Identity;

/// The most runs a sweep holds (all its shards together).
pub const MAX_RUNS: u64 = 1_000_000_000;

/// A file a sweep names: a scenario or a map.
#[derive(Debug, Clone)]
pub struct Entry {
    /// As written (in the sweep file, or on the command line): what the lines call it.
    pub label: String,
    /// Where it is.
    pub path: PathBuf,
    /// Where the sweep file names it (the message is empty); `None` on the command line.
    pub written_at: Option<LocatedError>,
}

impl Entry {
    /// A file named on the command line.
    pub fn from_path(path: &Path) -> Entry {
        Entry {
            label: path.display().to_string(),
            path: path.to_path_buf(),
            written_at: None,
        }
    }

    /// `error` about this file: a file that cannot be read is an error where the sweep file
    /// names it; any other is located in the file itself.
    fn error(&self, error: Error) -> Error {
        match (&self.written_at, error) {
            (
                Some(place),
                Error::Io {
                    path,
                    action,
                    error,
                },
            ) => LocatedError {
                message: format!("cannot {action} {}: {error}", path.display()),
                ..place.clone()
            }
            .into(),
            (_, error) => error,
        }
    }
}

/// What a sweep runs, before its files are loaded.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The scenarios.
    pub scenarios: Vec<Entry>,
    /// Maps (or TOML worlds) each scenario runs on in the place of its own world; empty: each
    /// scenario's own world.
    pub maps: Vec<Entry>,
    /// The seeds.
    pub seeds: Seeds,
    /// The backends; `None`: each scenario's own.
    pub backends: Option<Vec<BackendKind>>,
    /// How far a seed moves the agents.
    pub jitter: Jitter,
    /// The sweep file, when there is one.
    pub file: Option<PathBuf>,
    /// Files left out, each with why (`quake_e1m1.map (it is in the map corpus and CSPACE_MAPS
    /// is unset; ...)`).
    pub skipped: Vec<String>,
}

impl Plan {
    /// What `files` name, as `sim sweep FILE...` reads them: one sweep file given alone
    /// ([`Plan::load`]), or scenario files ([`Plan::from_scenarios`]). A sweep file among
    /// several files is an error that says to give it alone.
    pub fn from_files(files: &[PathBuf]) -> Result<Plan, Error> {
        let is_sweep =
            |path: &PathBuf| std::fs::read_to_string(path).is_ok_and(|text| is_sweep_file(&text));
        match files {
            [file] if is_sweep(file) => Plan::load(file),
            files => match files.iter().find(|f| is_sweep(f)) {
                Some(file) => Err(Error::Located(LocatedError {
                    file: cspace_mapfile::normalised(file),
                    line: 1,
                    column: 1,
                    message: "this is a sweep file: give it alone (its `scenarios` list names \
                              the scenarios)"
                        .to_string(),
                })),
                None => Ok(Plan::from_scenarios(files)),
            },
        }
    }

    /// The scenarios given, on their own worlds, seed 0, their own backends, default jitter.
    pub fn from_scenarios(paths: &[PathBuf]) -> Plan {
        Plan {
            scenarios: paths.iter().map(|p| Entry::from_path(p)).collect(),
            maps: Vec::new(),
            seeds: Seeds::default(),
            backends: None,
            jitter: Jitter::default(),
            file: None,
            skipped: Vec::new(),
        }
    }
}

/// One scenario on one world, with the backends it runs on: the runs of a group are its seeds
/// times its backends.
#[derive(Debug, Clone)]
pub struct Group {
    /// The scenario as the sweep names it.
    pub scenario_label: String,
    /// The map in the place of its world, as the sweep names it; `None`: its own.
    pub map_label: Option<String>,
    /// The scenario, checked on that world.
    pub scenario: Scenario,
    /// The backends, in the order run.
    pub backends: Vec<BackendKind>,
}

/// Which run an id is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunKey {
    /// The run id.
    pub id: u64,
    /// The group ([`Sweep::groups`]).
    pub group: usize,
    /// The seed.
    pub seed: u64,
    /// The backend's place in the group's list.
    pub backend_index: usize,
    /// The backend.
    pub backend: BackendKind,
}

/// A loaded sweep and its enumeration.
#[derive(Debug, Clone)]
pub struct Sweep {
    /// Scenario by map, scenario-major, in the order written.
    pub groups: Vec<Group>,
    /// The seeds.
    pub seeds: Seeds,
    /// How far a seed moves the agents.
    pub jitter: Jitter,
    /// What the sweep leaves out, and why (a backend asked for that cannot run a scenario).
    pub notes: Vec<String>,
    /// The files skipped for want of the map corpus, each with why: not a failure, as a test
    /// that needs the corpus is skipped.
    pub skipped: Vec<String>,
    /// The id of each group's first run.
    first: Vec<u64>,
    total: u64,
}

/// How to execute a sweep.
#[derive(Debug, Clone, Copy)]
pub struct Execute {
    /// The runs to make.
    pub shard: Shard,
    /// Threads in the pool (at least 1).
    pub threads: usize,
    /// Append each run's wall-clock figures to its line ([`RunLine::timing`]).
    pub timing: bool,
}

impl Sweep {
    /// Loads every map and scenario `plan` names (each scenario checked on each map) and fixes
    /// the enumeration. Every file that cannot be loaded is reported, not just the first.
    pub fn load(plan: &Plan) -> Result<Sweep, Vec<SweepError>> {
        let mut errors = Vec::new();
        let maps: Vec<Option<LoadedWorld>> = plan
            .maps
            .iter()
            .map(|m| {
                load_world(&m.path)
                    .map_err(|e| errors.push(m.error(e)))
                    .ok()
            })
            .collect();
        let mut groups = Vec::new();
        let mut notes = Vec::new();
        let mut skipped = plan.skipped.clone();
        for entry in &plan.scenarios {
            let text = match crate::read::read_text(&entry.path, "read the scenario") {
                Ok(text) => text,
                Err(e) => {
                    errors.push(entry.error(e));
                    continue;
                }
            };
            // A scenario of its own corpus map, with no map given in its place.
            if plan.maps.is_empty() && Scenario::needs_unset_corpus(&text) {
                skipped.push(format!(
                    "{} ({})",
                    entry.label,
                    Scenario::corpus_unset_reason()
                ));
                continue;
            }
            let worlds: Vec<(Option<&Entry>, Option<&LoadedWorld>)> = if plan.maps.is_empty() {
                vec![(None, None)]
            } else {
                plan.maps
                    .iter()
                    .zip(&maps)
                    .map(|(m, w)| (Some(m), w.as_ref()))
                    .collect()
            };
            for (i, (map, world)) in worlds.into_iter().enumerate() {
                let scenario = match (map, world) {
                    (None, _) => Scenario::parse(&entry.path, &text),
                    (Some(map), Some(world)) => {
                        Scenario::parse_with_world(&entry.path, &text, world.clone())
                            .map_err(|e| on_map(e, &map.label))
                    }
                    // The map could not be loaded: said once already.
                    (Some(_), None) => continue,
                };
                let scenario = match scenario {
                    Ok(s) => s,
                    Err(e) => {
                        errors.push(entry.error(e));
                        continue;
                    }
                };
                let backends = match &plan.backends {
                    None => scenario.backends.clone(),
                    Some(asked) => asked
                        .iter()
                        .copied()
                        .filter(|&b| match scenario.refusal(b) {
                            None => true,
                            Some(why) => {
                                if i == 0 {
                                    notes.push(format!(
                                        "{}: not run on {}: {why}",
                                        entry.label,
                                        b.name()
                                    ));
                                }
                                false
                            }
                        })
                        .collect(),
                };
                groups.push(Group {
                    scenario_label: entry.label.clone(),
                    map_label: map.map(|m| m.label.clone()),
                    scenario,
                    backends,
                });
            }
        }
        if !errors.is_empty() {
            return Err(errors.into_iter().map(SweepError::from).collect());
        }
        let mut first = Vec::with_capacity(groups.len());
        let mut total: u128 = 0;
        for g in &groups {
            first.push(total.min(u128::from(u64::MAX)) as u64);
            total += u128::from(plan.seeds.len()) * g.backends.len() as u128;
        }
        if (total == 0 && skipped.is_empty()) || total > u128::from(MAX_RUNS) {
            return Err(vec![SweepError::Size {
                runs: total,
                left_out: notes,
            }]);
        }
        Ok(Sweep {
            groups,
            seeds: plan.seeds.clone(),
            jitter: plan.jitter,
            notes,
            skipped,
            first,
            total: total as u64,
        })
    }

    /// How many runs the whole sweep has.
    pub fn runs(&self) -> u64 {
        self.total
    }

    /// Run `id` (below [`Sweep::runs`]): which group, seed and backend.
    pub fn key(&self, id: u64) -> RunKey {
        assert!(
            id < self.total,
            "run {id} of a sweep of {} runs",
            self.total
        );
        // The last group that starts at or before `id`: a group without backends has no runs
        // and starts where its successor does, so it is never the last.
        let group = self.first.partition_point(|&f| f <= id) - 1;
        let backends = &self.groups[group].backends;
        let within = id - self.first[group];
        let n = backends.len() as u64;
        let backend_index = (within % n) as usize;
        RunKey {
            id,
            group,
            seed: self.seeds.nth(within / n),
            backend_index,
            backend: backends[backend_index],
        }
    }

    /// Makes run `id` and writes its line.
    fn run_line(&self, id: u64, colliders: &Colliders, timing: bool) -> RunLine {
        let key = self.key(id);
        let group = &self.groups[key.group];
        let identity = Identity {
            run: id,
            runs: self.total,
            scenario: group.scenario_label.clone(),
            map: group.map_label.clone(),
            seed: key.seed,
            backend: key.backend.name(),
        };
        let scenario = vary(&group.scenario, key.seed, &self.jitter);
        let collider = colliders.get(key.group, key.backend_index, || {
            // Seeds move agents, never change the world or the shapes: one build serves them all.
            build_collider(&group.scenario, key.backend)
        });
        let line = match collider {
            Ok(collider) => {
                match run_scenario_with(&scenario, key.backend, collider, RunOptions::default()) {
                    Ok(outcome) => RunLine::ran(identity, &scenario, &outcome, timing),
                    Err(e) => RunLine::failed(identity, &scenario, e.to_string()),
                }
            }
            Err(e) => RunLine::failed(identity, &scenario, e),
        };
        colliders.finish(key.group);
        line
    }

    /// Makes the runs of `options.shard` on `options.threads` threads and calls `on_line` with
    /// each run's line in run order (from the calling thread, as the lines come in order);
    /// `ControlFlow::Break` stops the sweep (the runs under way are finished and dropped).
    ///
    /// Runs are handed out in run order, one at a time, so the lines waiting for an earlier one
    /// are about one per thread. Backends are built once per group and dropped when the
    /// group's last run is done.
    pub fn execute(
        &self,
        options: &Execute,
        mut on_line: impl FnMut(RunLine) -> ControlFlow<()>,
    ) -> Result<(), rayon::ThreadPoolBuildError> {
        let threads = options.threads.max(1);
        let n = options.shard.runs(self.total);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("sweep-{i}"))
            .build()?;
        let colliders = Colliders::new(self, options.shard);
        let next = AtomicU64::new(0);
        let stop = AtomicBool::new(false);
        let (sender, receiver) = std::sync::mpsc::channel::<(u64, RunLine)>();
        std::thread::scope(|scope| {
            let (colliders, next, stop) = (&colliders, &next, &stop);
            scope.spawn(move || {
                pool.scope(|s| {
                    for _ in 0..threads {
                        let sender = sender.clone();
                        s.spawn(move |_| {
                            while !stop.load(Ordering::Relaxed) {
                                let k = next.fetch_add(1, Ordering::Relaxed);
                                if k >= n {
                                    break;
                                }
                                let line =
                                    self.run_line(options.shard.nth(k), colliders, options.timing);
                                if sender.send((k, line)).is_err() {
                                    break;
                                }
                            }
                        });
                    }
                });
                drop(sender);
            });
            let mut waiting = BTreeMap::new();
            let mut written = 0;
            'lines: while let Ok((k, line)) = receiver.recv() {
                waiting.insert(k, line);
                while let Some(line) = waiting.remove(&written) {
                    written += 1;
                    if on_line(line).is_break() {
                        stop.store(true, Ordering::Relaxed);
                        break 'lines;
                    }
                }
            }
            drop(receiver);
        });
        Ok(())
    }
}

/// `error`, saying that it happened with a sweep's map in the place of the scenario's world.
fn on_map(error: Error, map: &str) -> Error {
    match error {
        Error::Located(mut e) => {
            e.message = format!("{} (on the sweep's map {map})", e.message);
            Error::Located(e)
        }
        other => other,
    }
}

/// The backends of the groups, built on first use and dropped after the group's last run.
struct Colliders {
    slots: Vec<Vec<Mutex<Slot>>>,
    remaining: Vec<AtomicU64>,
}

enum Slot {
    Empty,
    Built(Arc<dyn Collider>),
    Failed(String),
}

impl Colliders {
    fn new(sweep: &Sweep, shard: Shard) -> Colliders {
        let end = |g: usize| sweep.first.get(g + 1).copied().unwrap_or(sweep.total);
        Colliders {
            slots: sweep
                .groups
                .iter()
                .map(|g| g.backends.iter().map(|_| Mutex::new(Slot::Empty)).collect())
                .collect(),
            remaining: (0..sweep.groups.len())
                .map(|g| {
                    AtomicU64::new(shard.runs_below(end(g)) - shard.runs_below(sweep.first[g]))
                })
                .collect(),
        }
    }

    /// The collider of `group`'s `backend`-th backend, built by `build` on first use (other
    /// threads wanting it wait for the build).
    fn get(
        &self,
        group: usize,
        backend: usize,
        build: impl FnOnce() -> Result<Arc<dyn Collider>, Error>,
    ) -> Result<Arc<dyn Collider>, String> {
        let mut slot = self.slots[group][backend]
            .lock()
            .expect("a build that panicked ends the sweep");
        if let Slot::Empty = *slot {
            *slot = match build() {
                Ok(c) => Slot::Built(c),
                Err(e) => Slot::Failed(e.to_string()),
            };
        }
        match &*slot {
            Slot::Built(c) => Ok(c.clone()),
            Slot::Failed(e) => Err(e.clone()),
            Slot::Empty => unreachable!("filled above"),
        }
    }

    /// One run of `group` is done; after its last, its colliders are dropped.
    fn finish(&self, group: usize) {
        if self.remaining[group].fetch_sub(1, Ordering::AcqRel) == 1 {
            for slot in &self.slots[group] {
                *slot.lock().expect("a build that panicked ends the sweep") = Slot::Empty;
            }
        }
    }
}
