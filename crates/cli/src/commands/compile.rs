//! `sim compile`: compile an onion tree, print its statistics, save it.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use cspace_scenario::world_file;

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
    /// Save the compiled tree here (load it with `sim trace --backend onion --tree FILE`).
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
            args.world.display()
        );
    }
    let options = cspace_onion::CompileOptions {
        fill_outside: args.fill_outside,
        spawn_points: loaded.spawns.clone(),
        ..cspace_onion::CompileOptions::default()
    };
    let spin = spinner(format!(
        "compiling the onion tree of {} ({} brushes, {} poses)",
        args.world.display(),
        loaded.world.len(),
        poses.len()
    ));
    let compiled =
        cspace_onion::compile(&loaded.world, &poses, &options).context("compiling the onion tree");
    if let Some(s) = spin {
        s.finish_and_clear();
    }
    let compiled = compiled?;
    if let Some(path) = &args.output {
        let bytes = compiled.tree.to_bytes();
        cspace_scenario::write::write_whole(path, &bytes)
            .with_context(|| format!("writing the tree to {}", path.display()))?;
        note!("wrote {} ({} bytes)", path.display(), bytes.len());
    }
    let stats = &compiled.stats;
    if args.json {
        let json = cspace_report::tree_report::json(stats, &poses);
        outln!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        out!("{}", cspace_report::tree_report::text(stats, &poses));
    }
    Ok(ExitCode::SUCCESS)
}
