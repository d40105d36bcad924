//! Movers: brush models that move and push (issue 32, `docs/entities.md`).
//!
//! - [`Models`]: every mover's model with its own structure in a backend.
//! - [`Scene`]: the static world and the movers where they are now, as one
//!   [`Collider`](cspace_geom::Collider).

mod models;
mod scene;

pub use models::Models;
pub use scene::Scene;
