//! `sim trace`: a shape swept along segments from standard input, one JSON hit per line.

use std::io::{BufReader, BufWriter};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use cspace_scenario::{segments, world_file};
use cspace_sim::BackendKind;

use crate::{backend_arg, shape_arg};

#[derive(Debug, clap::Args)]
pub(crate) struct TraceArgs {
    /// The world: a .map file or a TOML world of inline brushes.
    pub(crate) world: PathBuf,
    /// The collision backend.
    #[arg(long, value_parser = backend_arg::parser(), default_value = "exact")]
    pub(crate) backend: BackendKind,
    /// The moving shape: box:MINX,MINY,MINZ,MAXX,MAXY,MAXZ, sphere:R, cylinder:R,HALFHEIGHT,
    /// point, or hull:X,Y,Z,...
    #[arg(long, value_parser = shape_arg::parse_shape)]
    pub(crate) shape: cspace_geom::Shape,
    /// The skin kept between a stopped mover and the hit plane, in units.
    #[arg(long, default_value_t = cspace_geom::tolerance::DEFAULT_SKIN)]
    pub(crate) skin: f64,
    /// Onion only: answer from this saved tree (`sim compile -o`) instead of compiling the pose.
    #[arg(long)]
    pub(crate) tree: Option<PathBuf>,
    /// With --tree: first verify the tree against the world (its planes, the faces of every
    /// configuration space, each leaf's solidity against the exact point query); a disagreement
    /// is an error. Verify a tree from an untrusted source, or recompile it.
    #[arg(long, requires = "tree")]
    pub(crate) verify: bool,
    /// Melax only: the bevels, `paper` (Melax's rule, the `melax` backend's) or `exact` (complete
    /// box bevels, the `melax-exact` backend's).
    #[arg(long, value_enum)]
    pub(crate) bevel: Option<Bevel>,
    /// Melax only, with paper bevels: the largest angle between adjacent face normals left
    /// unbevelled, in degrees (default 90, the paper's).
    #[arg(long)]
    pub(crate) bevel_angle: Option<f64>,
}

/// Melax's bevel rule, as `--bevel` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Bevel {
    /// Melax's rule (Sections 5 and 8).
    Paper,
    /// The complete box bevels.
    Exact,
}

/// The backend `sim trace` asked for, with its tree options applied.
pub(crate) fn trace_backend(
    args: &TraceArgs,
    world: &std::sync::Arc<cspace_geom::World>,
) -> anyhow::Result<std::sync::Arc<dyn cspace_geom::Collider>> {
    let melax = matches!(args.backend, BackendKind::Melax | BackendKind::MelaxExact);
    if args.tree.is_some() && args.backend != BackendKind::Onion {
        anyhow::bail!(
            "--tree is for the onion backend, not {}",
            args.backend.name()
        );
    }
    if (args.bevel.is_some() || args.bevel_angle.is_some()) && !melax {
        anyhow::bail!(
            "--bevel and --bevel-angle are for the melax backends, not {}",
            args.backend.name()
        );
    }
    if let Some(path) = &args.tree {
        let bytes = std::fs::read(path).with_context(|| {
            format!(
                "{}: cannot read",
                cspace_mapfile::normalised(path).display()
            )
        })?;
        let tree = cspace_onion::OnionTree::from_bytes(&bytes).with_context(|| {
            format!(
                "{}: not a usable onion tree",
                cspace_mapfile::normalised(path).display()
            )
        })?;
        let onion = cspace_onion::OnionCollider::new(world.clone(), tree).with_context(|| {
            format!(
                "{} and {}",
                cspace_mapfile::normalised(path).display(),
                cspace_mapfile::normalised(&args.world).display()
            )
        })?;
        if args.verify {
            let report = onion
                .tree()
                .verify(world, &cspace_onion::VerifyOptions::default())
                .with_context(|| {
                    let (tree, world) = (
                        cspace_mapfile::normalised(path).display().to_string(),
                        cspace_mapfile::normalised(&args.world)
                            .display()
                            .to_string(),
                    );
                    format!("{tree} does not verify against {world}")
                })?;
            note!(
                "{}: verified: {} leaves, {} points, {:.2} s",
                cspace_mapfile::normalised(path).display(),
                report.leaves,
                report.points,
                report.seconds
            );
        }
        return Ok(std::sync::Arc::new(onion));
    }
    if melax {
        let exact = match args.bevel {
            Some(b) => b == Bevel::Exact,
            None => args.backend == BackendKind::MelaxExact,
        };
        let bevel = match (exact, args.bevel_angle) {
            (true, Some(_)) => anyhow::bail!("--bevel-angle applies to paper bevels only"),
            (true, None) => cspace_melax::BevelMode::Exact,
            (false, None) => cspace_melax::BevelMode::PAPER,
            (false, Some(angle)) if angle.is_finite() && angle > 0.0 && angle < 180.0 => {
                cspace_melax::BevelMode::Paper {
                    angle_degrees: angle,
                }
            }
            (false, Some(angle)) => {
                anyhow::bail!("--bevel-angle must be between 0 and 180 degrees, got {angle}")
            }
        };
        return Ok(std::sync::Arc::new(cspace_sim::backend::melax(
            world, bevel,
        )?));
    }
    args.backend
        .build_for(world, std::slice::from_ref(&args.shape))?
        .ok_or_else(|| {
            anyhow::anyhow!(
                "the {} backend cannot trace {}",
                args.backend.name(),
                args.shape.describe()
            )
        })
}

pub(crate) fn trace(args: TraceArgs) -> anyhow::Result<ExitCode> {
    if !(args.skin.is_finite() && args.skin >= 0.0) {
        anyhow::bail!(
            "--skin must be a finite, non-negative distance, got {}",
            args.skin
        );
    }
    let loaded = world_file::load_world(&args.world)?;
    let collider = trace_backend(&args, &loaded.world)?;
    let shape = collider
        .prepare(&args.shape)
        .context("preparing the shape")?
        .with_skin(args.skin);
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    segments::trace_lines(
        collider.as_ref(),
        &mut cspace_geom::QueryContext::new(),
        &shape,
        BufReader::new(stdin.lock()),
        "stdin",
        BufWriter::new(stdout.lock()),
    )?;
    Ok(ExitCode::SUCCESS)
}
