//! `sim compile`: compile an onion tree, print its statistics, save it.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use cspace_scenario::world_file;

use crate::output::{is_stdout, shown, write_output};
use crate::progress::spinner;
use crate::shape_arg;

#[derive(Debug, clap::Args)]
pub(crate) struct CompileArgs {
    /// The world: a .map file or a TOML world of inline brushes.
    pub(crate) world: PathBuf,
    /// A box pose, NAME=MINX,MINY,MINZ,MAXX,MAXY,MAXZ (repeat for several; default: Quake's
    /// standing and crouching player boxes).
    #[arg(long = "pose", value_parser = shape_arg::parse_pose)]
    pub(crate) poses: Vec<cspace_onion::Pose>,
    /// Save the compiled tree here (load it with `sim trace --backend onion --tree FILE`; `-`:
    /// standard output, the statistics then on standard error).
    #[arg(short = 'o', long = "output")]
    pub(crate) output: Option<PathBuf>,
    /// Fill the outside of a sealed map: flood from its spawn points and make every empty leaf
    /// the flood does not reach solid (a space whose flood leaks is left as it is).
    #[arg(long)]
    pub(crate) fill_outside: bool,
    /// Print the statistics as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

pub(crate) fn compile(args: CompileArgs) -> anyhow::Result<ExitCode> {
    let loaded = world_file::load_world(&args.world)?;
    let poses = if args.poses.is_empty() {
        vec![
            cspace_onion::Pose::quake_standing(),
            cspace_onion::Pose::quake_crouching(),
        ]
    } else {
        args.poses
    };
    if args.fill_outside && loaded.spawns.is_empty() {
        anyhow::bail!(
            "--fill-outside needs spawn points, and {} has none",
            cspace_mapfile::normalised(&args.world).display()
        );
    }
    let options = cspace_onion::CompileOptions {
        fill_outside: args.fill_outside,
        spawn_points: loaded.spawns.clone(),
        ..cspace_onion::CompileOptions::default()
    };
    let spin = spinner(format!(
        "compiling the onion tree of {} ({} brushes, {} poses)",
        cspace_mapfile::normalised(&args.world).display(),
        loaded.world.len(),
        poses.len()
    ));
    let compiled =
        cspace_onion::compile(&loaded.world, &poses, &options).context("compiling the onion tree");
    if let Some(s) = spin {
        s.finish_and_clear();
    }
    let compiled = compiled?;
    let aside = args.output.as_deref().is_some_and(is_stdout);
    if let Some(path) = &args.output {
        let bytes = compiled.tree.to_bytes();
        write_output(path, &bytes, "the tree")?;
        note!("wrote {} ({} bytes)", shown(path), bytes.len());
    }
    let stats = &compiled.stats;
    if args.json {
        let json = cspace_report::tree_report::json(stats, &poses);
        sayln!(aside, "{}", serde_json::to_string_pretty(&json)?);
    } else {
        let text = cspace_report::tree_report::text(stats, &poses);
        sayln!(aside, "{}", text.trim_end_matches('\n'));
    }
    Ok(ExitCode::SUCCESS)
}
