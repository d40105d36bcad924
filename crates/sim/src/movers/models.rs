//! The movers' brush models in one backend: a structure per mover, built for the run's shapes.

use std::sync::Arc;
use std::time::Instant;

use cspace_entities::Mover;
use cspace_geom::{Aabb, Collider, Prepared, Shape, World};

use crate::backend::{BackendKind, BuildError};

/// One mover's model: its brushes (where the file draws them) and their structure.
struct Model {
    /// The structure (`None` for a mover without brushes, which meets nothing).
    collider: Option<Arc<dyn Collider>>,
    /// The bounds of its brushes where drawn.
    bounds: Aabb,
    /// The bounds of every place its motion takes it ([`Mover::travel_bounds`]).
    reach: Aabb,
    /// Its brush count.
    brushes: u32,
    /// Each of [`Models::shapes`], prepared for `collider`.
    prepared: Vec<Prepared>,
}

/// Every mover's brush model with its own structure in one backend (an onion tree per model with
/// the same poses as the world's, a Melax tree per model, the exact reference per model; the
/// k-UDOP cache's movers are the exact reference's), ready for a fixed set of shapes.
///
/// Built once per run (or shared by runs of the same world, shapes and backend); the places of the
/// movers are [`crate::movers::Scene`]'s.
pub struct Models {
    backend: BackendKind,
    models: Vec<Model>,
    shapes: Vec<Shape>,
    /// Nanoseconds spent building the structures.
    build_nanos: u64,
}

impl std::fmt::Debug for Models {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Models")
            .field("backend", &self.backend.name())
            .field("models", &self.models.len())
            .field("shapes", &self.shapes.len())
            .finish()
    }
}

impl Models {
    /// The structures of `movers` in `backend`, ready for `shapes`; `None` when the backend
    /// cannot answer for one of the shapes.
    // Never inlined: `tools/living-cost.sh` counts its instructions by name.
    #[inline(never)]
    pub fn build(
        backend: BackendKind,
        movers: &[Mover],
        shapes: &[Shape],
    ) -> Result<Option<Models>, BuildError> {
        let clock = Instant::now();
        let mut shapes_kept: Vec<Shape> = Vec::new();
        for s in shapes {
            if !shapes_kept.contains(s) {
                shapes_kept.push(s.clone());
            }
        }
        let mut models = Vec::with_capacity(movers.len());
        for mover in movers {
            if mover.brushes.is_empty() {
                models.push(Model {
                    collider: None,
                    bounds: Aabb::EMPTY,
                    reach: Aabb::EMPTY,
                    brushes: 0,
                    prepared: Vec::new(),
                });
                continue;
            }
            let world = Arc::new(World::new(mover.brushes.clone()));
            let Some(collider) = backend.build_model_for(&world, &shapes_kept)? else {
                return Ok(None);
            };
            let prepared = shapes_kept
                .iter()
                .map(|s| {
                    collider
                        .prepare(s)
                        .expect("build_model_for checked every shape")
                })
                .collect();
            let bounds = world.bounds();
            models.push(Model {
                bounds,
                reach: mover
                    .extreme_offsets()
                    .into_iter()
                    .fold(Aabb::EMPTY, |a, o| a.merged(bounds.translated(o))),
                brushes: world.len() as u32,
                collider: Some(collider),
                prepared,
            });
        }
        Ok(Some(Models {
            backend,
            models,
            shapes: shapes_kept,
            build_nanos: clock.elapsed().as_nanos() as u64,
        }))
    }

    /// The backend they were built for.
    pub fn backend(&self) -> BackendKind {
        self.backend
    }

    /// How many movers.
    pub fn len(&self) -> usize {
        self.models.len()
    }

    /// True when there is no mover.
    pub fn is_empty(&self) -> bool {
        self.models.is_empty()
    }

    /// The shapes they are ready for.
    pub fn shapes(&self) -> &[Shape] {
        &self.shapes
    }

    /// The index of `shape` among [`Models::shapes`].
    pub fn shape_index(&self, shape: &Shape) -> Option<usize> {
        self.shapes.iter().position(|s| s == shape)
    }

    /// Seconds spent building the structures (wall clock, reported, never used in an answer).
    pub fn build_seconds(&self) -> f64 {
        // not a tolerance: nanoseconds to seconds
        self.build_nanos as f64 * 1e-9
    }

    /// Mover `m`'s structure, `None` when it has no brush.
    pub(crate) fn collider(&self, m: usize) -> Option<&dyn Collider> {
        self.models[m].collider.as_deref()
    }

    /// Mover `m`'s bounds where drawn.
    pub fn bounds(&self, m: usize) -> Aabb {
        self.models[m].bounds
    }

    /// The bounds of every place mover `m`'s motion takes it.
    pub fn reach(&self, m: usize) -> Aabb {
        self.models[m].reach
    }

    /// Mover `m`'s brush count.
    pub fn brush_count(&self, m: usize) -> u32 {
        self.models[m].brushes
    }

    /// Shape `shape` (an index of [`Models::shapes`]) prepared for mover `m`.
    pub(crate) fn prepared(&self, m: usize, shape: usize) -> &Prepared {
        &self.models[m].prepared[shape]
    }
}
