//! `sim path`: plan a path between two agent origins.

use std::path::PathBuf;
use std::process::ExitCode;

use super::nav::{NavPoseArg, navigation};
use crate::shape_arg;

#[derive(Debug, clap::Args)]
pub(crate) struct PathArgs {
    /// The world: a .map file or a TOML world of inline brushes.
    pub(crate) world: PathBuf,
    /// Where the agent's origin starts, X,Y,Z (placed on the walkable floor below it).
    #[arg(long, value_parser = shape_arg::parse_point, allow_hyphen_values = true)]
    pub(crate) from: cspace_geom::DVec3,
    /// Where its origin should go, X,Y,Z (placed on the walkable floor below it).
    #[arg(long, value_parser = shape_arg::parse_point, allow_hyphen_values = true)]
    pub(crate) to: cspace_geom::DVec3,
    /// The pose the agent starts in (the graph plans for standing and crouching).
    #[arg(long, value_enum, default_value = "stand")]
    pub(crate) pose: NavPoseArg,
    /// Fill the outside of a sealed map from its spawn points first.
    #[arg(long)]
    pub(crate) fill_outside: bool,
    /// Print the path as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

pub(crate) fn path(args: PathArgs) -> anyhow::Result<ExitCode> {
    let nav = navigation(
        &args.world,
        &[NavPoseArg::Stand, NavPoseArg::Crouch],
        args.fill_outside,
    )?;
    let pose = match args.pose {
        NavPoseArg::Stand => 0,
        NavPoseArg::Crouch => 1,
    };
    let mut ctx = cspace_nav::NavContext::new();
    let path = nav
        .mesh
        .path(args.from, args.to, pose, &mut ctx)
        .map_err(|error| {
            // Name the argument whose point the planner refused.
            let what = match &error {
                cspace_nav::NavError::InSolid { what, .. }
                | cspace_nav::NavError::NoGround { what, .. }
                | cspace_nav::NavError::BadPoint { what, .. } => Some(*what),
                _ => None,
            };
            let (flag, point) = match what {
                Some(cspace_nav::Endpoint::Start) => ("--from", args.from),
                _ => ("--to", args.to),
            };
            cspace_scenario::Error::Nav {
                context: format!(
                    "{}: {flag} {},{},{}",
                    cspace_mapfile::normalised(&args.world).display(),
                    point.x,
                    point.y,
                    point.z
                ),
                error,
            }
        })?;
    if args.json {
        let json = cspace_report::nav_report::path_json(
            &nav.mesh,
            args.from,
            args.to,
            pose,
            path.as_ref(),
        );
        outln!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        out!(
            "{}",
            cspace_report::nav_report::path_text(
                &nav.mesh,
                args.from,
                args.to,
                pose,
                path.as_ref()
            )
        );
    }
    Ok(if path.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
