//! `cspace-bench`: runs the suite and writes `docs/PERFORMANCE.md` (see that file for the
//! command and what it measures).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

/// cspace's backends against parry and rapier, side by side in one run.
#[derive(Debug, Parser)]
#[command(name = "cspace-bench", version)]
struct Args {
    /// A smoke test of every part: fewer segments, passes and agents, no 20,000-box world. It
    /// writes under `target/bench-quick/` unless `--out` says otherwise: a smoke run never
    /// replaces the published figures.
    #[arg(long)]
    quick: bool,
    /// Where to write the report (the plots go beside it); default `docs/PERFORMANCE.md`, or
    /// `target/bench-quick/PERFORMANCE.md` with `--quick`.
    #[arg(long)]
    out: Option<PathBuf>,
    /// The corpus directory; defaults to `CSPACE_MAPS`. Without it the corpus rows are skipped.
    #[arg(long)]
    maps: Option<PathBuf>,
}

fn main() -> ExitCode {
    let mut args = Args::parse();
    if args.maps.is_none() {
        args.maps = std::env::var_os("CSPACE_MAPS").map(PathBuf::from);
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| cspace_bench::default_out(args.quick));
    let config = if args.quick {
        cspace_bench::suite::Config::quick(args.maps)
    } else {
        cspace_bench::suite::Config::full(args.maps)
    };
    if config.maps.is_none() {
        eprintln!("CSPACE_MAPS is not set: the corpus rows are skipped");
    }
    match cspace_bench::write(&config, &out) {
        Ok(report) => {
            eprintln!(
                "wrote {} in {:.0} s",
                out.display(),
                report.elapsed.as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn command_line_is_consistent() {
        super::Args::command().debug_assert();
    }
}
