//! The collision backends a run can choose, by name.

use std::sync::Arc;

use anyhow::Context;

use cspace_geom::{Collider, ExactCollider, Shape, World};
use cspace_melax::{BevelMode, MelaxCollider};
use cspace_onion::{CompileOptions, OnionCollider, Pose};
use cspace_udop::cache::Margin;
use cspace_udop::{CacheConfig, UdopCache};

/// A collision backend, as `--backend` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum BackendKind {
    /// The exact reference: the shape swept against every brush (`cspace-geom`).
    Exact,
    /// The exact reference behind the k-UDOP free-space cache (`cspace-udop`): moves that stay
    /// inside the mover's k-UDOP skip the world trace. Answers are the exact backend's.
    #[value(name = "udop+exact")]
    UdopExact,
    /// The onion BSP (`cspace-onion`): one tree with a configuration space per box pose, compiled
    /// for the boxes of the run. Boxes only.
    Onion,
    /// Melax's dynamic plane shifting with the paper's bevels (`cspace-melax`): one tree for
    /// every shape; approximate near edges and corners (`docs/melax.md`).
    Melax,
    /// Melax's plane shifting with the complete box bevels: exact for boxes, approximate for
    /// spheres and cylinders.
    #[value(name = "melax-exact")]
    MelaxExact,
}

impl BackendKind {
    /// Every backend, in a fixed order.
    pub const ALL: &'static [BackendKind] = &[
        BackendKind::Exact,
        BackendKind::UdopExact,
        BackendKind::Onion,
        BackendKind::Melax,
        BackendKind::MelaxExact,
    ];

    /// The name the command line and traces use.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Exact => "exact",
            BackendKind::UdopExact => "udop+exact",
            BackendKind::Onion => "onion",
            BackendKind::Melax => "melax",
            BackendKind::MelaxExact => "melax-exact",
        }
    }

    /// Why this backend cannot trace `shape` (without building it for a world); `None` when it
    /// can.
    pub fn refusal(self, shape: &Shape) -> Option<&'static str> {
        match self {
            BackendKind::Exact
            | BackendKind::UdopExact
            | BackendKind::Melax
            | BackendKind::MelaxExact => None,
            BackendKind::Onion => (!matches!(shape, Shape::Box(_))).then_some(
                "the onion backend answers boxes only (a configuration space per box pose)",
            ),
        }
    }

    /// Whether this backend can answer for every shape (without building it for a world).
    pub fn supports_all(self, shapes: &[Shape]) -> bool {
        shapes.iter().all(|s| self.refusal(s).is_none())
    }

    /// The backend of this kind for `world`, ready for `shapes` (a tree-based backend compiles
    /// what they need). `None` when the backend cannot answer for one of them.
    pub fn build_for(
        self,
        world: &Arc<World>,
        shapes: &[Shape],
    ) -> anyhow::Result<Option<Arc<dyn Collider>>> {
        if !self.supports_all(shapes) {
            return Ok(None);
        }
        let collider: Arc<dyn Collider> = match self {
            BackendKind::Exact => Arc::new(ExactCollider::new(world.clone())),
            BackendKind::UdopExact => Arc::new(udop_cache(
                Box::new(ExactCollider::new(world.clone())),
                world,
            )?),
            BackendKind::Onion => {
                let poses = box_poses(shapes);
                let compiled = cspace_onion::compile(world, &poses, &CompileOptions::default())
                    .context("compiling the onion tree")?;
                Arc::new(OnionCollider::from_compiled(world.clone(), compiled)?)
            }
            BackendKind::Melax => Arc::new(melax(world, BevelMode::PAPER)?),
            BackendKind::MelaxExact => Arc::new(melax(world, BevelMode::Exact)?),
        };
        Ok(shapes
            .iter()
            .all(|s| collider.prepare(s).is_ok())
            .then_some(collider))
    }
}

/// Melax's backend for `world` with `bevel`.
pub fn melax(world: &Arc<World>, bevel: BevelMode) -> anyhow::Result<MelaxCollider> {
    MelaxCollider::compile(world.clone(), bevel).context("compiling the Melax tree")
}

/// One onion pose per distinct box among `shapes`, in their order (named `box0`, `box1`, ...).
pub fn box_poses(shapes: &[Shape]) -> Vec<Pose> {
    let mut poses: Vec<Pose> = Vec::new();
    for shape in shapes {
        if let Shape::Box(b) = shape
            && !poses.iter().any(|p| p.is_box(b.mins, b.maxs))
        {
            poses.push(Pose::new(format!("box{}", poses.len()), b.mins, b.maxs));
        }
    }
    poses
}

/// The k-UDOP cache around `inner`. The swept k-DOP is not grown by the skin: the backends here
/// only report overlap deeper than `tolerance::CONTACT`, so a move strictly inside the k-UDOP is a
/// miss for them, and agents walking a skin above the floor can still skip their moves.
fn udop_cache(inner: Box<dyn Collider>, world: &Arc<World>) -> anyhow::Result<UdopCache> {
    let config = CacheConfig {
        margin: Margin::Units(0.0),
        ..CacheConfig::default()
    };
    Ok(UdopCache::new(world.clone(), inner, config)?)
}

impl std::str::FromStr for BackendKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BackendKind::ALL
            .iter()
            .copied()
            .find(|b| b.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = BackendKind::ALL.iter().map(|b| b.name()).collect();
                format!(
                    "unknown backend {s:?}; expected one of {}",
                    names.join(", ")
                )
            })
    }
}
