//! `sim nav`: a world's navigation graph and its statistics; the navigation `sim path` and `sim
//! los` build too.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cspace_scenario::world_file;

use crate::progress::spinner;

/// A pose the navigation plans for, as `--pose` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum NavPoseArg {
    /// Quake's standing player, (-16,-16,-24)..(16,16,32), at walk speed.
    Stand,
    /// Quake's crouching player, (-16,-16,-24)..(16,16,16), at a quarter of it.
    Crouch,
}

impl NavPoseArg {
    fn plan_pose(self) -> cspace_sim::navigation::PlanPose {
        use cspace_sim::navigation::PlanPose;
        match self {
            NavPoseArg::Stand => PlanPose::stand(),
            NavPoseArg::Crouch => {
                PlanPose::crouch(cspace_sim::MoveParams::default().crouch_speed_scale)
            }
        }
    }
}

#[derive(Debug, clap::Args)]
pub(crate) struct NavArgs {
    /// The world: a .map file or a TOML world of inline brushes.
    pub(crate) world: PathBuf,
    /// A pose to plan for, `stand` or `crouch` (repeat for both; the first is the primary pose,
    /// whose graph has every walkable area; default: stand, then crouch).
    #[arg(long = "pose", value_enum)]
    pub(crate) poses: Vec<NavPoseArg>,
    /// Fill the outside of a sealed map from its spawn points first (as `sim compile
    /// --fill-outside`), so that no floor outside the map is counted.
    #[arg(long)]
    pub(crate) fill_outside: bool,
    /// Print the statistics as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

/// Loads `world` and builds its navigation for `poses` (with a spinner on a terminal).
pub(crate) fn navigation(
    world: &Path,
    poses: &[NavPoseArg],
    fill_outside: bool,
) -> anyhow::Result<cspace_sim::navigation::Navigation> {
    use cspace_sim::navigation::{self, NavOptions};
    let loaded = world_file::load_world(world)?;
    for (i, p) in poses.iter().enumerate() {
        if poses[..i].contains(p) {
            anyhow::bail!("--pose {} is given twice", pose_name(*p));
        }
    }
    if fill_outside && loaded.spawns.is_empty() {
        anyhow::bail!(
            "--fill-outside needs spawn points, and {} has none",
            cspace_mapfile::normalised(world).display()
        );
    }
    let options = NavOptions {
        fill_outside: fill_outside.then(|| loaded.spawns.clone()),
        params: navigation::nav_params(&cspace_sim::MoveParams::default()),
    };
    let plan_poses: Vec<_> = poses.iter().map(|p| p.plan_pose()).collect();
    let spin = spinner(format!(
        "building the navigation of {} ({} brushes)",
        cspace_mapfile::normalised(world).display(),
        loaded.world.len()
    ));
    let built = navigation::build(
        &loaded.world,
        &cspace_mapfile::normalised(world).display().to_string(),
        &plan_poses,
        &options,
    );
    if let Some(s) = spin {
        s.finish_and_clear();
    }
    Ok(built?)
}

pub(crate) fn pose_name(pose: NavPoseArg) -> &'static str {
    match pose {
        NavPoseArg::Stand => "stand",
        NavPoseArg::Crouch => "crouch",
    }
}

pub(crate) fn nav(args: NavArgs) -> anyhow::Result<ExitCode> {
    let poses = if args.poses.is_empty() {
        vec![NavPoseArg::Stand, NavPoseArg::Crouch]
    } else {
        args.poses
    };
    let nav = navigation(&args.world, &poses, args.fill_outside)?;
    if args.json {
        let json = cspace_report::nav_report::stats_json(&nav);
        outln!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        out!("{}", cspace_report::nav_report::stats_text(&nav));
    }
    Ok(ExitCode::SUCCESS)
}
