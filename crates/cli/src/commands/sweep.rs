//! `sim sweep`: the cross product of scenarios, maps, seeds and backends, in parallel, one JSON
//! line per run; `--merge` puts shards together.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use cspace_report::summary;
use cspace_sim::BackendKind;

use crate::backend_arg;
use crate::progress::progress_bar;

#[derive(Debug, clap::Args)]
pub(crate) struct SweepArgs {
    /// A sweep file (a .toml with a `scenarios` list) or scenario files; with --merge, the JSON
    /// lines of the shards.
    #[arg(required = true)]
    pub(crate) files: Vec<PathBuf>,
    /// The backends (default: the sweep file's, else each scenario's own); a backend that
    /// cannot run a scenario's shapes is left out of its runs, with a note.
    #[arg(long, value_parser = backend_arg::parser(), value_delimiter = ',')]
    pub(crate) backends: Vec<BackendKind>,
    /// The seeds: A..B (B excluded), A..=B, N, or a list of those separated by commas (default:
    /// the sweep file's, else 0, the scenarios as written).
    #[arg(long)]
    pub(crate) seeds: Option<cspace_scenario::sweep::Seeds>,
    /// Threads running the sweep (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) threads: Option<u32>,
    /// Make only shard I of N: the runs whose id leaves I - 1 divided by N. Each line is the line
    /// the whole sweep writes for that run; --merge puts the shards' lines back together.
    #[arg(long, value_name = "I/N")]
    pub(crate) shard: Option<cspace_scenario::sweep::Shard>,
    /// Write the JSON lines to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub(crate) out: Option<PathBuf>,
    /// Append each run's wall-clock figures to its line (`timing`: seconds, agent steps per
    /// second). Without it a sweep writes the same bytes on every run.
    #[arg(long)]
    pub(crate) timing: bool,
    /// Merge the JSON lines of a sweep's shards (the FILES, any order) into the lines one run of
    /// the whole sweep writes; exit 2 when a run is missing or found twice.
    #[arg(long, conflicts_with_all = ["backends", "seeds", "threads", "shard", "timing"])]
    pub(crate) merge: bool,
}

/// What `sim sweep` runs: the sweep file given alone, or the scenarios given; the command
/// line's backends and seeds replace the file's.
pub(crate) fn sweep_plan(args: &SweepArgs) -> anyhow::Result<cspace_scenario::sweep::Plan> {
    use cspace_scenario::sweep::{Plan, is_sweep_file};
    let is_sweep =
        |path: &PathBuf| std::fs::read_to_string(path).is_ok_and(|text| is_sweep_file(&text));
    let mut plan = match args.files.as_slice() {
        [file] if is_sweep(file) => Plan::load(file)?,
        files => {
            if let Some(file) = files.iter().find(|f| is_sweep(f)) {
                anyhow::bail!(
                    "{} is a sweep file: give it alone (its `scenarios` list names the scenarios)",
                    cspace_mapfile::normalised(file).display()
                );
            }
            Plan::from_scenarios(files)
        }
    };
    if !args.backends.is_empty() {
        let mut kinds = Vec::new();
        for &b in &args.backends {
            if !kinds.contains(&b) {
                kinds.push(b);
            }
        }
        plan.backends = Some(kinds);
    }
    if let Some(seeds) = &args.seeds {
        plan.seeds = seeds.clone();
    }
    Ok(plan)
}

/// Where `sim sweep` writes its lines: standard output (quietly stopping when it is closed) or
/// a file.
pub(crate) enum LineSink {
    Stdout,
    /// Written whole: the lines go to a temporary file renamed over the target at the end.
    File(PathBuf, cspace_scenario::write::WholeFile),
}

impl LineSink {
    fn open(out: Option<&Path>) -> anyhow::Result<LineSink> {
        Ok(match out {
            None => LineSink::Stdout,
            Some(path) if crate::output::is_stdout(path) => LineSink::Stdout,
            Some(path) => LineSink::File(
                path.to_path_buf(),
                cspace_scenario::write::WholeFile::create(path).with_context(|| {
                    format!(
                        "{}: cannot create the output",
                        cspace_mapfile::normalised(path).display()
                    )
                })?,
            ),
        })
    }

    fn line(&mut self, line: &str) -> anyhow::Result<()> {
        use std::io::Write as _;
        match self {
            LineSink::Stdout => outln!("{line}"),
            LineSink::File(path, file) => writeln!(file, "{line}").with_context(|| {
                format!(
                    "{}: cannot write the output",
                    cspace_mapfile::normalised(path).display()
                )
            })?,
        }
        Ok(())
    }

    fn finish(self) -> anyhow::Result<()> {
        if let LineSink::File(path, file) = self {
            file.finish().with_context(|| {
                format!(
                    "{}: cannot write the output",
                    cspace_mapfile::normalised(&path).display()
                )
            })?;
        }
        Ok(())
    }
}

/// The verdict of a sweep: 2 when a run could not be made, 1 when an expectation failed.
pub(crate) fn sweep_exit(failed: u64, errors: u64) -> ExitCode {
    if errors > 0 {
        ExitCode::from(2)
    } else if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

pub(crate) fn sweep(args: SweepArgs) -> anyhow::Result<ExitCode> {
    use cspace_scenario::sweep::{Execute, Shard, Sweep};
    if args.merge {
        return merge_sweep(&args);
    }
    let plan = sweep_plan(&args)?;
    let sweep = match Sweep::load(&plan) {
        Ok(sweep) => sweep,
        Err(errors) => {
            for e in &errors {
                note!("error: {e}");
            }
            return Ok(ExitCode::from(2));
        }
    };
    for n in &sweep.notes {
        note!("{n}");
    }
    // A skip is said on standard error, and on standard output too unless the JSON lines go
    // there (a line that is not JSON would break every reader of them).
    for s in &sweep.skipped {
        note!("skipped: {s}");
        if args.out.is_some() {
            outln!("skipped: {s}");
        }
    }
    let shard = args.shard.unwrap_or(Shard::ALL);
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    let runs = shard.runs(sweep.runs());
    let mut sink = LineSink::open(args.out.as_deref())?;
    let bar = progress_bar(
        runs,
        if shard == Shard::ALL {
            "sweep".to_string()
        } else {
            format!("sweep, shard {shard}")
        },
        "runs",
    );
    let (mut failed, mut errors, mut agent_steps, mut written) = (0u64, 0u64, 0u64, 0u64);
    let mut trouble: Option<anyhow::Error> = None;
    let started = Instant::now();
    let options = Execute {
        shard,
        threads,
        timing: args.timing,
    };
    sweep.execute(&options, |line| {
        failed += u64::from(!line.passed);
        errors += u64::from(line.error.is_some());
        agent_steps += line.agent_steps;
        written += 1;
        if let Some(b) = &bar {
            b.inc(1);
        }
        match sink.line(&line.to_json()) {
            Ok(()) => std::ops::ControlFlow::Continue(()),
            Err(e) => {
                trouble = Some(e);
                std::ops::ControlFlow::Break(())
            }
        }
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(e) = trouble {
        return Err(e);
    }
    sink.finish()?;
    let wall = started.elapsed().as_secs_f64();
    note!(
        "sweep: {}{}, {failed} failed, {errors} could not be made, {wall:.2} s wall on {}, {agent_steps} agent steps ({:.0} per second)",
        summary::count(written as usize, "run"),
        if shard == Shard::ALL {
            String::new()
        } else {
            format!(" (shard {shard} of {} runs)", sweep.runs())
        },
        summary::count(threads, "thread"),
        agent_steps as f64 / wall.max(1e-9) // not a tolerance: guards the division
    );
    Ok(sweep_exit(failed, errors))
}

/// `sim sweep --merge`: the shards' lines in run order.
pub(crate) fn merge_sweep(args: &SweepArgs) -> anyhow::Result<ExitCode> {
    let mut texts = Vec::with_capacity(args.files.len());
    for file in &args.files {
        texts.push(cspace_scenario::read::read_text(file, "read the lines")?);
    }
    let inputs: Vec<(&Path, &str)> = args
        .files
        .iter()
        .map(PathBuf::as_path)
        .zip(texts.iter().map(String::as_str))
        .collect();
    let merged = cspace_scenario::sweep::merge(&inputs)?;
    let mut sink = LineSink::open(args.out.as_deref())?;
    for line in &merged.lines {
        sink.line(line)?;
    }
    sink.finish()?;
    note!(
        "merged: {} from {}, {} failed, {} could not be made",
        summary::count(merged.lines.len(), "run"),
        summary::count(args.files.len(), "file"),
        merged.failed,
        merged.errors
    );
    Ok(sweep_exit(merged.failed, merged.errors))
}
