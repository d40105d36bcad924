//! `sim map`: what the import of a `.map` file found.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

#[derive(Debug, clap::Args)]
pub(crate) struct MapArgs {
    /// The .map file.
    pub(crate) file: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

pub(crate) fn map(args: MapArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read(&args.file).with_context(|| {
        format!(
            "{}: cannot read",
            cspace_mapfile::normalised(&args.file).display()
        )
    })?;
    let name = cspace_mapfile::normalised(&args.file).display().to_string();
    let map = cspace_mapfile::load_world(&text, &name, &cspace_mapfile::BuildOptions::default())?;
    if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&cspace_report::map_report::json(&map))?
        );
    } else {
        out!("{}", cspace_report::map_report::text(&map));
    }
    Ok(ExitCode::SUCCESS)
}
