//! The collision backends a run can choose, by name: one table ([`BACKENDS`]) says, once per
//! backend, its name, what it is, which shapes it takes and how it is built. The command line's
//! values and help, [`BackendKind::ALL`], the scenario checker, `sim compare` and the benchmark
//! all read it.

use std::sync::Arc;

use cspace_geom::{Collider, ExactCollider, Shape, World};
use cspace_melax::{BevelMode, MelaxCollider};
use cspace_onion::{CompileOptions, OnionCollider, Pose};
use cspace_udop::cache::Margin;
use cspace_udop::{CacheConfig, UdopCache};

/// A collision backend, as `--backend` and scenario files name it ([`BackendKind::name`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BackendKind {
    /// The exact reference.
    Exact,
    /// The exact reference behind the k-UDOP free-space cache.
    UdopExact,
    /// The onion BSP.
    Onion,
    /// Melax's plane shifting with the paper's bevels.
    Melax,
    /// Melax's plane shifting with the complete box bevels.
    MelaxExact,
}

/// Which agent shapes a backend can trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shapes {
    /// Boxes, spheres, vertical cylinders and hulls.
    Every,
    /// Boxes only, each compiled into the structure (`why` says so), at most `at_most` distinct
    /// ones.
    BoxesOnly {
        /// Why, for messages.
        why: &'static str,
        /// The most distinct boxes one structure holds.
        at_most: usize,
    },
}

/// What everything that names backends knows of one: written once, in [`BACKENDS`].
#[derive(Debug, Clone, Copy)]
pub struct BackendInfo {
    /// The backend.
    pub kind: BackendKind,
    /// Its name on the command line, in scenarios and traces.
    pub name: &'static str,
    /// One sentence on what it is (the command line's help).
    pub about: &'static str,
    /// The shapes it takes.
    pub shapes: Shapes,
    /// Builds it for a world, ready for the given shapes.
    build: Build,
    /// Builds its structure for one mover's brush model (a world of the model's brushes, where
    /// the file draws them), ready for the given shapes: an onion tree per model with the same
    /// poses, a Melax tree per model, the exact reference per model. The k-UDOP cache wraps the
    /// static world only: its movers are the exact reference's.
    build_model: Build,
}

/// How a backend is built for a world and the shapes it will trace.
type Build = fn(&Arc<World>, &[Shape]) -> Result<Arc<dyn Collider>, BuildError>;

/// A backend's structure cannot be built for a world (the onion or Melax compiler refused it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{backend}: cannot build it for this world: {message}")]
pub struct BuildError {
    /// The backend (or the structure: `navigation (onion tree)`).
    pub backend: &'static str,
    /// The compiler's refusal.
    pub message: String,
}

/// Every backend, in a fixed order (the order of [`BackendKind::ALL`], of runs and of reports).
pub const BACKENDS: [BackendInfo; 5] = [
    BackendInfo {
        kind: BackendKind::Exact,
        name: "exact",
        about: "The exact reference: the shape swept against every brush (cspace-geom).",
        shapes: Shapes::Every,
        build: |world, _| Ok(Arc::new(ExactCollider::new(world.clone()))),
        build_model: |world, _| Ok(Arc::new(ExactCollider::new(world.clone()))),
    },
    BackendInfo {
        kind: BackendKind::UdopExact,
        name: "udop+exact",
        about: "The exact reference behind the k-UDOP free-space cache (cspace-udop): moves that \
                stay inside the k-UDOP of the grid cell they start in (built on first use, shared \
                by every agent) skip the world trace, and moves that can meet only the cell's \
                nearest brushes are traced against those alone. Answers are the exact backend's.",
        shapes: Shapes::Every,
        build: |world, _| {
            Ok(Arc::new(udop_cache(
                Box::new(ExactCollider::new(world.clone())),
                world,
            )?))
        },
        build_model: |world, _| Ok(Arc::new(ExactCollider::new(world.clone()))),
    },
    BackendInfo {
        kind: BackendKind::Onion,
        name: "onion",
        about: "The onion BSP (cspace-onion): one tree with a configuration space per box pose, \
                compiled for the boxes of the run. Boxes only.",
        shapes: Shapes::BoxesOnly {
            why: "the onion backend answers boxes only (a configuration space per box pose)",
            at_most: cspace_onion::MAX_SPACES,
        },
        build: onion,
        build_model: onion_model,
    },
    BackendInfo {
        kind: BackendKind::Melax,
        name: "melax",
        about: "Melax's dynamic plane shifting with the paper's bevels (cspace-melax): one tree \
                for every shape; approximate near edges and corners (docs/melax.md).",
        shapes: Shapes::Every,
        build: |world, _| Ok(Arc::new(melax(world, BevelMode::PAPER)?)),
        build_model: |world, _| Ok(Arc::new(melax(world, BevelMode::PAPER)?)),
    },
    BackendInfo {
        kind: BackendKind::MelaxExact,
        name: "melax-exact",
        about: "Melax's plane shifting with the complete box bevels: exact for boxes, approximate \
                for spheres and cylinders.",
        shapes: Shapes::Every,
        build: |world, _| Ok(Arc::new(melax(world, BevelMode::Exact)?)),
        build_model: |world, _| Ok(Arc::new(melax(world, BevelMode::Exact)?)),
    },
];

impl BackendKind {
    /// Every backend, in [`BACKENDS`]' order.
    pub const ALL: [BackendKind; BACKENDS.len()] = {
        let mut all = [BackendKind::Exact; BACKENDS.len()];
        let mut i = 0;
        while i < BACKENDS.len() {
            all[i] = BACKENDS[i].kind;
            i += 1;
        }
        all
    };

    /// What the table says of this backend.
    pub fn info(self) -> &'static BackendInfo {
        BACKENDS
            .iter()
            .find(|b| b.kind == self)
            .expect("every backend has its entry in BACKENDS")
    }

    /// The name the command line and traces use.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Why this backend cannot trace `shape` (without building it for a world); `None` when it
    /// can.
    pub fn refusal(self, shape: &Shape) -> Option<&'static str> {
        match self.info().shapes {
            Shapes::Every => None,
            Shapes::BoxesOnly { why, .. } => (!matches!(shape, Shape::Box(_))).then_some(why),
        }
    }

    /// Whether this backend can answer for every shape (without building it for a world).
    pub fn supports_all(self, shapes: &[Shape]) -> bool {
        shapes.iter().all(|s| self.refusal(s).is_none())
    }

    /// Why this backend cannot be built for `shapes` together (every shape it must answer for),
    /// beyond what it refuses of each ([`BackendKind::refusal`]): a limit of its structure that
    /// building would hit (the onion holds at most [`cspace_onion::MAX_SPACES`] box poses, one
    /// solidity bit each per leaf). Checked without building, so that `sim check` refuses what
    /// `sim run` would.
    pub fn limit_refusal(self, shapes: &[Shape]) -> Option<String> {
        match self.info().shapes {
            Shapes::Every => None,
            Shapes::BoxesOnly { at_most, .. } => {
                let boxes = box_poses(shapes).len();
                (boxes > at_most).then(|| {
                    format!(
                        "{boxes} distinct boxes (standing, crouching and grown poses); one {} \
                         structure holds at most {at_most}",
                        self.name()
                    )
                })
            }
        }
    }

    /// The backend of this kind for `world`, ready for `shapes` (a tree-based backend compiles
    /// what they need), shared by every thread. `None` when it cannot answer for one of them.
    // Never inlined: `tools/living-cost.sh` counts its instructions by name.
    #[inline(never)]
    pub fn build_for(
        self,
        world: &Arc<World>,
        shapes: &[Shape],
    ) -> Result<Option<Arc<dyn Collider>>, BuildError> {
        self.build_with(self.info().build, world, shapes)
    }

    /// This backend's structure for one brush model (a mover's brushes where the file draws
    /// them), ready for `shapes` ([`crate::movers::Models::build`] builds one per mover). `None`
    /// when it cannot answer for one of them.
    pub fn build_model_for(
        self,
        model: &Arc<World>,
        shapes: &[Shape],
    ) -> Result<Option<Arc<dyn Collider>>, BuildError> {
        self.build_with(self.info().build_model, model, shapes)
    }

    /// `build`'s structure of `world` when this backend takes every one of `shapes` and it
    /// prepares them all; `None` otherwise.
    fn build_with(
        self,
        build: Build,
        world: &Arc<World>,
        shapes: &[Shape],
    ) -> Result<Option<Arc<dyn Collider>>, BuildError> {
        if !self.supports_all(shapes) {
            return Ok(None);
        }
        let collider = build(world, shapes)?;
        Ok(shapes
            .iter()
            .all(|s| collider.prepare(s).is_ok())
            .then_some(collider))
    }
}

/// A backend name that names none.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown backend {name:?}; expected one of {}", known_names())]
pub struct UnknownBackend {
    /// The name given.
    pub name: String,
}

fn known_names() -> String {
    BACKENDS
        .iter()
        .map(|b| b.name)
        .collect::<Vec<_>>()
        .join(", ")
}

impl std::str::FromStr for BackendKind {
    type Err = UnknownBackend;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BACKENDS
            .iter()
            .find(|b| b.name == s)
            .map(|b| b.kind)
            .ok_or_else(|| UnknownBackend {
                name: s.to_string(),
            })
    }
}

/// The onion backend for `world`: one tree with a configuration space per box among `shapes`
/// ([`box_poses`]).
fn onion(world: &Arc<World>, shapes: &[Shape]) -> Result<Arc<dyn Collider>, BuildError> {
    let tree = onion_tree(world, shapes)?;
    Ok(Arc::new(
        OnionCollider::new(world.clone(), tree)
            .expect("a tree compiled from this world answers for it"),
    ))
}

/// A mover's onion: its tree without the free-space index, which a brush model traced only
/// where a move's bounds meet it would pay to build more than it saves (29 of E1M1's movers:
/// 435 million instructions, most of the movers' compile time, under cachegrind).
fn onion_model(world: &Arc<World>, shapes: &[Shape]) -> Result<Arc<dyn Collider>, BuildError> {
    let tree = onion_tree(world, shapes)?;
    Ok(Arc::new(
        OnionCollider::new_unindexed(world.clone(), tree)
            .expect("a tree compiled from this world answers for it"),
    ))
}

/// The onion tree of `world` for the boxes among `shapes`.
fn onion_tree(world: &Arc<World>, shapes: &[Shape]) -> Result<cspace_onion::OnionTree, BuildError> {
    cspace_onion::compile(world, &box_poses(shapes), &CompileOptions::default())
        .map(|c| c.tree)
        .map_err(|e| BuildError {
            backend: "onion",
            message: e.to_string(),
        })
}

/// Melax's backend for `world` with `bevel`.
pub fn melax(world: &Arc<World>, bevel: BevelMode) -> Result<MelaxCollider, BuildError> {
    MelaxCollider::compile(world.clone(), bevel).map_err(|e| BuildError {
        backend: "melax",
        message: e.to_string(),
    })
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
fn udop_cache(inner: Box<dyn Collider>, world: &Arc<World>) -> Result<UdopCache, BuildError> {
    let config = CacheConfig {
        margin: Margin::Units(0.0),
        ..CacheConfig::default()
    };
    UdopCache::new(world.clone(), inner, config).map_err(|e| BuildError {
        backend: "udop+exact",
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_each_backend_once_in_order_and_names_parse_back() {
        for (i, b) in BACKENDS.iter().enumerate() {
            assert_eq!(BackendKind::ALL[i], b.kind);
            assert_eq!(b.name.parse::<BackendKind>(), Ok(b.kind));
            assert_eq!(
                BACKENDS
                    .iter()
                    .filter(|o| o.kind == b.kind || o.name == b.name)
                    .count(),
                1
            );
        }
        let e = "nope".parse::<BackendKind>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown backend \"nope\"; expected one of exact, udop+exact, onion, melax, melax-exact"
        );
    }
}
