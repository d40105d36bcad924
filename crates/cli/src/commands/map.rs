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
    /// Read the entities with these rules (`quake1`, `quake3`) instead of the ones the map's
    /// format names.
    #[arg(long, value_parser = parse_dialect)]
    pub(crate) entities: Option<cspace_entities::Dialect>,
    /// A folder of Quake III shader scripts (`*.shader`) whose `surfaceparm`s decide what the
    /// faces are; without it, custom shaders are taken as solid and listed as assumed.
    #[arg(long)]
    pub(crate) shaders: Option<PathBuf>,
}

/// A dialect by name.
fn parse_dialect(name: &str) -> Result<cspace_entities::Dialect, String> {
    cspace_entities::Dialect::from_name(name)
        .ok_or_else(|| format!("unknown entity rules {name:?}; expected quake1 or quake3"))
}

pub(crate) fn map(args: MapArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read(&args.file).with_context(|| {
        format!(
            "{}: cannot read",
            cspace_mapfile::normalised(&args.file).display()
        )
    })?;
    let name = cspace_mapfile::normalised(&args.file).display().to_string();
    let shaders = args
        .shaders
        .as_deref()
        .map(cspace_scenario::world_file::load_shaders)
        .transpose()?
        .map(std::sync::Arc::new);
    let options = cspace_mapfile::BuildOptions {
        dialect: args.entities,
        shaders,
        ..cspace_mapfile::BuildOptions::default()
    };
    let map = cspace_mapfile::load_world(&text, &name, &options)?;
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
