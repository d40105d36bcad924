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
    /// `auto` takes I and N from a Slurm array job (SLURM_ARRAY_TASK_ID and its MIN, STEP and
    /// COUNT); `auto/N` takes I from Slurm, a Kubernetes indexed job (JOB_COMPLETION_INDEX) or
    /// GNU parallel (PARALLEL_SEQ), which do not tell N.
    #[arg(long, value_name = "I/N|auto|auto/N")]
    pub(crate) shard: Option<ShardArg>,
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
    let mut plan = cspace_scenario::sweep::Plan::from_files(&args.files)?;
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
    let shard = match args.shard {
        None => Shard::ALL,
        Some(ShardArg::Given(shard)) => shard,
        Some(ShardArg::Auto { count }) => {
            let (shard, from) = scheduler_shard(count, |name| std::env::var(name).ok())
                .map_err(|e| anyhow::anyhow!("--shard auto: {e}"))?;
            note!("shard {shard} ({from})");
            shard
        }
    };
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

/// `--shard`: a shard written out, or `auto`: the one a batch scheduler's variables name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShardArg {
    /// `I/N`.
    Given(cspace_scenario::sweep::Shard),
    /// `auto` (`count`: `None`) or `auto/N`.
    Auto {
        /// The shard count written on the command line.
        count: Option<u64>,
    },
}

impl std::str::FromStr for ShardArg {
    type Err = String;

    fn from_str(text: &str) -> Result<ShardArg, String> {
        match text.trim().strip_prefix("auto") {
            Some("") => Ok(ShardArg::Auto { count: None }),
            Some(rest) => match rest.strip_prefix('/').map(|n| n.trim().parse::<u64>()) {
                Some(Ok(n)) if n >= 1 => Ok(ShardArg::Auto { count: Some(n) }),
                _ => Err(format!(
                    "shard {text:?}: expected auto or auto/N with N a whole number from 1 (as in auto/8)"
                )),
            },
            None => text.parse().map(ShardArg::Given),
        }
    }
}

/// The variables `--shard auto` reads, by scheduler: Slurm's array task (its id, and the
/// array's first id, step and size), a Kubernetes indexed job's completion index (from 0), and
/// GNU parallel's job sequence number (from 1; not its slot, `PARALLEL_JOBSLOT`, which a later
/// job reuses once an earlier one ends, so two shards could share one).
const SLURM_TASK: &str = "SLURM_ARRAY_TASK_ID";
const KUBERNETES_INDEX: &str = "JOB_COMPLETION_INDEX";
const PARALLEL_SEQ: &str = "PARALLEL_SEQ";

/// The shard a batch scheduler's variables name (read through `var`), and which variables said
/// so: Slurm's array task (`SLURM_ARRAY_TASK_ID`, counted from `SLURM_ARRAY_TASK_MIN` by
/// `SLURM_ARRAY_TASK_STEP`, of `SLURM_ARRAY_TASK_COUNT`), a Kubernetes indexed job
/// (`JOB_COMPLETION_INDEX`, from 0) or GNU parallel (`PARALLEL_SEQ`, from 1). Slurm tells the
/// shard count; with the others it comes from `count` (`--shard auto/N`), which must agree with
/// Slurm's when both are given. Exactly one scheduler's variables must be set.
pub(crate) fn scheduler_shard(
    count: Option<u64>,
    var: impl Fn(&str) -> Option<String>,
) -> Result<(cspace_scenario::sweep::Shard, String), String> {
    let number = |name: &str| -> Result<Option<u64>, String> {
        var(name)
            .map(|v| {
                v.trim()
                    .parse::<u64>()
                    .map_err(|_| format!("{name}={v:?} is not a whole number"))
            })
            .transpose()
    };
    let set: Vec<&str> = [SLURM_TASK, KUBERNETES_INDEX, PARALLEL_SEQ]
        .into_iter()
        .filter(|name| var(name).is_some())
        .collect();
    let (index, total, from) = match set.as_slice() {
        [] => {
            return Err(format!(
                "no scheduler's shard variable is set ({SLURM_TASK}, {KUBERNETES_INDEX}, \
                 {PARALLEL_SEQ}); give the shard as I/N"
            ));
        }
        [SLURM_TASK] => {
            let id = number(SLURM_TASK)?.expect("set");
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            let tasks = number("SLURM_ARRAY_TASK_COUNT")?;
            if id < min || (id - min) % step != 0 {
                return Err(format!(
                    "{SLURM_TASK}={id} is not in the array {min}, {}, ... (SLURM_ARRAY_TASK_MIN, \
                     SLURM_ARRAY_TASK_STEP): give the shard as I/N",
                    min + step
                ));
            }
            let index = (id - min) / step + 1;
            let total = match (tasks, count) {
                (Some(t), Some(n)) if t != n => {
                    return Err(format!(
                        "the array has {t} tasks (SLURM_ARRAY_TASK_COUNT) but auto/{n} says {n}"
                    ));
                }
                (Some(t), _) => t,
                (None, Some(n)) => n,
                (None, None) => {
                    return Err(
                        "SLURM_ARRAY_TASK_COUNT is not set: give the shard count as auto/N"
                            .to_string(),
                    );
                }
            };
            (index, total, format!("{SLURM_TASK}={id}"))
        }
        [one] => {
            let value = number(one)?.expect("set");
            let index = if *one == KUBERNETES_INDEX {
                value + 1
            } else {
                value
            };
            let total = count.ok_or_else(|| {
                format!("{one} gives the shard, not the shard count: write --shard auto/N")
            })?;
            (index, total, format!("{one}={value}"))
        }
        several => {
            return Err(format!(
                "{} are all set: which scheduler's shard is meant? Give the shard as I/N",
                several.join(" and ")
            ));
        }
    };
    let shard = format!("{index}/{total}")
        .parse::<cspace_scenario::sweep::Shard>()
        .map_err(|e| format!("{from}: {e}"))?;
    Ok((shard, from))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The shard `vars` name, as `I/N`, or the error.
    fn shard(count: Option<u64>, vars: &[(&str, &str)]) -> Result<String, String> {
        scheduler_shard(count, |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        })
        .map(|(s, _)| s.to_string())
    }

    #[test]
    fn slurm_arrays_count_from_their_first_id_by_their_step() {
        let array = |id: &str, min: &str, step: &str, count: &str| {
            shard(
                None,
                &[
                    ("SLURM_ARRAY_TASK_ID", id),
                    ("SLURM_ARRAY_TASK_MIN", min),
                    ("SLURM_ARRAY_TASK_STEP", step),
                    ("SLURM_ARRAY_TASK_COUNT", count),
                ],
            )
        };
        assert_eq!(array("1", "1", "1", "8").unwrap(), "1/8");
        assert_eq!(array("8", "1", "1", "8").unwrap(), "8/8");
        assert_eq!(array("0", "0", "1", "4").unwrap(), "1/4");
        assert_eq!(array("12", "0", "4", "4").unwrap(), "4/4");
        assert!(
            array("13", "0", "4", "4")
                .unwrap_err()
                .contains("not in the array")
        );
        assert!(
            array("9", "1", "1", "8")
                .unwrap_err()
                .contains("between 1 and 8")
        );
        let mismatch = shard(
            Some(4),
            &[
                ("SLURM_ARRAY_TASK_ID", "2"),
                ("SLURM_ARRAY_TASK_COUNT", "8"),
            ],
        );
        assert!(mismatch.unwrap_err().contains("auto/4 says 4"));
        // Without the count, auto/N gives it.
        let counted = shard(Some(3), &[("SLURM_ARRAY_TASK_ID", "2")]);
        assert_eq!(counted.unwrap(), "3/3");
        assert!(
            shard(None, &[("SLURM_ARRAY_TASK_ID", "2")])
                .unwrap_err()
                .contains("auto/N")
        );
    }

    #[test]
    fn kubernetes_counts_from_0_and_parallel_from_1_with_the_count_written() {
        assert_eq!(
            shard(Some(5), &[("JOB_COMPLETION_INDEX", "0")]).unwrap(),
            "1/5"
        );
        assert_eq!(shard(Some(5), &[("PARALLEL_SEQ", "5")]).unwrap(), "5/5");
        assert!(
            shard(None, &[("PARALLEL_SEQ", "2")])
                .unwrap_err()
                .contains("write --shard auto/N")
        );
        assert!(
            shard(Some(5), &[("JOB_COMPLETION_INDEX", "5")])
                .unwrap_err()
                .contains("between 1 and 5")
        );
        assert!(
            shard(Some(5), &[("PARALLEL_SEQ", "two")])
                .unwrap_err()
                .contains("not a whole number")
        );
    }

    #[test]
    fn no_scheduler_or_two_are_refused() {
        assert!(
            shard(Some(2), &[])
                .unwrap_err()
                .contains("give the shard as I/N")
        );
        let both = shard(
            Some(2),
            &[("SLURM_ARRAY_TASK_ID", "1"), ("PARALLEL_SEQ", "1")],
        );
        assert!(both.unwrap_err().contains("which scheduler"));
    }

    #[test]
    fn shard_arguments_parse() {
        assert_eq!("auto".parse(), Ok(ShardArg::Auto { count: None }));
        assert_eq!("auto/8".parse(), Ok(ShardArg::Auto { count: Some(8) }));
        assert!("auto/0".parse::<ShardArg>().is_err());
        assert!("auto8".parse::<ShardArg>().is_err());
        assert_eq!(
            "2/3".parse::<ShardArg>(),
            Ok(ShardArg::Given("2/3".parse().unwrap()))
        );
        assert!("4/3".parse::<ShardArg>().is_err());
    }
}
