//! The collision backends a run can choose, by name.

use std::sync::Arc;

use cspace_geom::{Collider, ExactCollider, Shape, World};

/// A collision backend, as `--backend` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum BackendKind {
    /// The exact reference: the shape swept against every brush (`cspace-geom`).
    Exact,
}

impl BackendKind {
    /// Every backend, in a fixed order.
    pub const ALL: &'static [BackendKind] = &[BackendKind::Exact];

    /// The name the command line and traces use.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Exact => "exact",
        }
    }

    /// Whether this backend can answer for every shape (without building it for a world).
    pub fn supports_all(self, shapes: &[Shape]) -> bool {
        match self {
            BackendKind::Exact => shapes.iter().all(|_| true),
        }
    }

    /// The backend of this kind for `world`, ready for `shapes` (a tree-based backend compiles
    /// what they need). `None` when the backend cannot answer for one of them.
    pub fn build_for(
        self,
        world: &Arc<World>,
        shapes: &[Shape],
    ) -> anyhow::Result<Option<Box<dyn Collider>>> {
        let collider: Box<dyn Collider> = match self {
            BackendKind::Exact => Box::new(ExactCollider::new(world.clone())),
        };
        Ok(shapes
            .iter()
            .all(|s| collider.prepare(s).is_ok())
            .then_some(collider))
    }
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
