//! `sim los`: line of sight along segments from standard input.

use std::io::{BufReader, BufWriter};
use std::path::PathBuf;
use std::process::ExitCode;

use cspace_scenario::{segments, world_file};

#[derive(Debug, clap::Args)]
pub(crate) struct LosArgs {
    /// The world: a .map file or a TOML world of inline brushes.
    pub(crate) world: PathBuf,
}

pub(crate) fn los(args: LosArgs) -> anyhow::Result<ExitCode> {
    let loaded = world_file::load_world(&args.world)?;
    let los = cspace_sim::navigation::line_of_sight(
        &loaded.world,
        &cspace_mapfile::normalised(&args.world)
            .display()
            .to_string(),
    )?;
    let mut ctx = cspace_nav::NavContext::new();
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    segments::answer_lines(
        BufReader::new(stdin.lock()),
        "stdin",
        BufWriter::new(stdout.lock()),
        |a, b| serde_json::json!({ "visible": los.visible(a, b, &mut ctx) }),
    )?;
    Ok(ExitCode::SUCCESS)
}
