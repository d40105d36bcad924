//! `sim`: the cspace command line.

use std::io::{BufReader, BufWriter};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use cspace_sim::backend::BackendKind;
use cspace_sim::{segments, shape_arg, world_file};

/// cspace: agents moving through brush-built worlds, with interchangeable collision backends.
///
/// Exit codes: 0 success, 1 a failed expectation or a divergence, 2 bad input or another error.
#[derive(Debug, Parser)]
#[command(name = "sim", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Sweep a shape along segments read from standard input; one JSON hit per line out.
    Trace(TraceArgs),
}

#[derive(Debug, clap::Args)]
struct TraceArgs {
    /// The world: a .map file or a TOML world of inline brushes.
    world: PathBuf,
    /// The collision backend.
    #[arg(long, value_enum, default_value = "exact")]
    backend: BackendKind,
    /// The moving shape: box:MINX,MINY,MINZ,MAXX,MAXY,MAXZ, sphere:R, cylinder:R,HALFHEIGHT,
    /// point, or hull:X,Y,Z,...
    #[arg(long, value_parser = shape_arg::parse_shape)]
    shape: cspace_geom::Shape,
    /// The skin kept between a stopped mover and the hit plane, in units.
    #[arg(long, default_value_t = cspace_geom::tolerance::DEFAULT_SKIN)]
    skin: f64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Trace(args) => trace(args),
    }
}

fn trace(args: TraceArgs) -> anyhow::Result<ExitCode> {
    if !(args.skin.is_finite() && args.skin >= 0.0) {
        anyhow::bail!(
            "--skin must be a finite, non-negative distance, got {}",
            args.skin
        );
    }
    let loaded = world_file::load_world(&args.world)?;
    let mut collider = args
        .backend
        .build_for(&loaded.world, std::slice::from_ref(&args.shape))?
        .map_or_else(
            || {
                Err(anyhow::anyhow!(
                    "the {} backend cannot trace {}",
                    args.backend.name(),
                    args.shape.describe()
                ))
            },
            Ok,
        )?;
    let shape = collider
        .prepare(&args.shape)
        .context("preparing the shape")?
        .with_skin(args.skin);
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    segments::trace_lines(
        collider.as_mut(),
        &shape,
        BufReader::new(stdin.lock()),
        "stdin",
        BufWriter::new(stdout.lock()),
    )?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        super::Cli::command().debug_assert();
    }
}
