//! `cspace-fuzz`: runs mutated inputs through every target and reports what failed.
//!
//! ```sh
//! cargo run --release -p cspace-fuzz -- --cases 1000000 --threads 2
//! cargo run --release -p cspace-fuzz -- --seed 7 --case 4711   # replays one case
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use clap::Parser;
use cpu_time::ProcessTime;
use cspace_fuzz::memory::MemoryCap;
use cspace_fuzz::{Failure, Fixtures, Target, Verdict, case_seed, run_input};
use cspace_geom::generate::Rng;

/// Hostile input for cspace: mutated `.map` files, scenarios, TOML worlds, trace segments, tree
/// files and baseline traces; each must give a located error or a finite, valid answer in time
/// and within a memory cap.
#[derive(Debug, Parser)]
struct Args {
    /// Cases to run (taken by the targets in turn).
    #[arg(long, default_value_t = 10_000)]
    cases: u64,
    /// The run's seed: case `i` of seed `s` is always the same input.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Run only this case (to replay a failure).
    #[arg(long)]
    case: Option<u64>,
    /// Only these targets (default: all).
    #[arg(long, value_enum, value_delimiter = ',')]
    targets: Vec<Target>,
    /// A case that takes longer than this many seconds is a hang: the run saves its input and
    /// stops. The seconds are the process's CPU time while the case runs (so a machine busy with
    /// other work does not turn slow cases into hangs), and a case that has not ended after 30
    /// times this much wall-clock time is a hang however little it computed (a deadlock).
    #[arg(long, default_value_t = 20.0)]
    time_limit: f64,
    /// The memory a case may hold, in MB (resident memory above the fixtures', read after each
    /// case and every 200 ms while cases run; see `cspace_fuzz::memory`). With several threads
    /// the process may hold this much once per thread.
    #[arg(long, default_value_t = 1024)]
    memory_cap_mb: u64,
    /// Worker threads (each case runs on one).
    #[arg(long, default_value_t = 1)]
    threads: u64,
    /// Print every refusal's error (to see what the cases reach).
    #[arg(long)]
    verbose: bool,
    /// Where failing inputs are saved (one file per failure, named by target, seed and case).
    #[arg(long, default_value = "target/fuzz-failures")]
    save: PathBuf,
}

/// When each worker's current case started (milliseconds since the run began, plus one; zero
/// when idle), and which case it is: what the watchdog reads.
struct Slot {
    started: AtomicU64,
    case: AtomicU64,
}

/// Wall-clock time a case may take however little the process computes, in time limits.
const DEADLOCK_LIMITS: u64 = 30;

fn main() -> anyhow::Result<ExitCode> {
    let args = Args::parse();
    let targets = if args.targets.is_empty() {
        Target::ALL.to_vec()
    } else {
        args.targets.clone()
    };
    let corpus = std::env::var_os("CSPACE_MAPS").map(PathBuf::from);
    let fixtures = &Fixtures::new(corpus.as_deref()).context("building the fuzzing fixtures")?;
    eprintln!(
        "cspace-fuzz: seed {}, {} cases over {}; seeds: {}",
        args.seed,
        args.case.map_or(args.cases, |_| 1),
        targets
            .iter()
            .map(|t| t.name())
            .collect::<Vec<_>>()
            .join(", "),
        fixtures.describe()
    );
    cspace_fuzz::quiet_panics();
    let cases: Vec<u64> = match args.case {
        Some(case) => vec![case],
        None => (0..args.cases).collect(),
    };
    let threads = args.threads.max(1);
    let cap = &MemoryCap::new(args.memory_cap_mb.saturating_mul(threads) << 20);
    let began = Instant::now();
    let verbose = args.verbose;
    let slots: Vec<Slot> = (0..threads)
        .map(|_| Slot {
            started: AtomicU64::new(0),
            case: AtomicU64::new(0),
        })
        .collect();
    let done = AtomicU64::new(0);
    let save = |target: Target, case: u64, input: &[u8], failure: &str| {
        let _ = std::fs::create_dir_all(&args.save);
        let file = args
            .save
            .join(format!("{}-seed{}-case{case}", target.name(), args.seed));
        let _ = std::fs::write(&file, input);
        eprintln!(
            "FAILED {} case {case} (--seed {} --case {case}): {failure}\n  input saved to {}",
            target.name(),
            args.seed,
            file.display()
        );
    };
    let input_of = |case: u64| {
        let mut rng = Rng::new(case_seed(args.seed, case));
        let target = targets[(case % targets.len() as u64) as usize];
        (target, fixtures.input(target, &mut rng))
    };
    // Per target: accepted, refused, failed.
    let counts: Vec<[AtomicU64; 3]> = targets.iter().map(|_| Default::default()).collect();
    std::thread::scope(|scope| {
        let limit = Duration::from_secs_f64(args.time_limit);
        let slots = &slots;
        let done = &done;
        scope.spawn(move || {
            // The process's CPU time at the watchdog's tick when each slot's case was first seen
            // running (an underestimate of what the case had, by at most one tick).
            let mut seen: Vec<Option<(u64, u64, Duration)>> = vec![None; slots.len()];
            let process = ProcessTime::now();
            while done.load(Ordering::Relaxed) < threads {
                std::thread::sleep(Duration::from_millis(200));
                if let Err(failure) = cap.check() {
                    // Memory that a running case holds may never come back: every running
                    // case's input is saved (one, with one thread), and the run stops.
                    for slot in slots {
                        if slot.started.load(Ordering::Relaxed) != 0 {
                            let case = slot.case.load(Ordering::Relaxed);
                            let (target, input) = input_of(case);
                            save(target, case, &input, &failure.to_string());
                        }
                    }
                    std::process::exit(3);
                }
                let now = began.elapsed().as_millis() as u64 + 1;
                let cpu = process.elapsed();
                for (slot, seen) in slots.iter().zip(&mut seen) {
                    let started = slot.started.load(Ordering::Relaxed);
                    let case = slot.case.load(Ordering::Relaxed);
                    if started == 0 {
                        *seen = None;
                        continue;
                    }
                    let first_cpu = match *seen {
                        Some((s, c, first_cpu)) if s == started && c == case => first_cpu,
                        _ => {
                            *seen = Some((started, case, cpu));
                            cpu
                        }
                    };
                    // A case may have started after `now` was read.
                    let wall = now.saturating_sub(started);
                    let computed = cpu.saturating_sub(first_cpu);
                    if (wall > limit.as_millis() as u64 && computed > limit)
                        || wall > DEADLOCK_LIMITS * limit.as_millis() as u64
                    {
                        let (target, input) = input_of(case);
                        let failure = format!(
                            "no answer after {:.1} s ({:.1} s of the process's CPU time; the limit \
                             is {:?})",
                            wall as f64 / 1000.0,
                            computed.as_secs_f64(),
                            limit
                        );
                        save(target, case, &input, &failure);
                        std::process::exit(3);
                    }
                }
            }
        });
        for worker in 0..threads {
            let (cases, counts, targets, save, input_of) =
                (&cases, &counts, &targets, &save, &input_of);
            scope.spawn(move || {
                for &case in cases.iter().skip(worker as usize).step_by(threads as usize) {
                    let (target, input) = input_of(case);
                    let slot = &slots[worker as usize];
                    slot.case.store(case, Ordering::Relaxed);
                    slot.started
                        .store(began.elapsed().as_millis() as u64 + 1, Ordering::Relaxed);
                    let mut result = run_input(fixtures, target, &input);
                    slot.started.store(0, Ordering::Relaxed);
                    if let (Ok(_), Err(failure)) = (&result, cap.check()) {
                        result = Err::<Verdict, Failure>(failure);
                    }
                    let t = targets.iter().position(|&t2| t2 == target).unwrap();
                    let index = match &result {
                        Ok(Verdict::Accepted) => 0,
                        Ok(Verdict::Refused(message)) => {
                            if verbose {
                                eprintln!("{} case {case}: {message}", target.name());
                            }
                            1
                        }
                        Err(failure) => {
                            save(target, case, &input, &failure.to_string());
                            2
                        }
                    };
                    counts[t][index].fetch_add(1, Ordering::Relaxed);
                }
                done.fetch_add(1, Ordering::Relaxed);
            });
        }
    });
    let mut failed = 0;
    println!("| target | cases | accepted | refused (located) | failed |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    for (target, c) in targets.iter().zip(&counts) {
        let [a, r, f] = c.each_ref().map(|x| x.load(Ordering::Relaxed));
        failed += f;
        println!("| {} | {} | {a} | {r} | {f} |", target.name(), a + r + f);
    }
    println!(
        "{} cases in {:.1} s, {failed} failed",
        cases.len(),
        began.elapsed().as_secs_f64()
    );
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
