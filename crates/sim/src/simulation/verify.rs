//! The exactness guard (`sim run --verify`): after every step, every agent's position is checked
//! with the exact reference's point query, whatever backend moved it. A backend that lets an
//! agent into solid is caught at the step it happens, with the agent and where. When the world
//! lives, the movers are checked too, each by the exact reference on its own brushes where it is
//! (a shape in solid in the static world or in any mover is in solid).

use std::sync::Arc;

use cspace_contact::AgentId;
use cspace_geom::collider::Prepared;
use cspace_geom::{Collider, DVec3, ExactCollider, Shape, WithContext, World};

use crate::agent::Pose;

/// An agent the exact reference found in solid after a step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InSolid {
    /// The step after which it was found (0: after settling, before the first step).
    pub step: u64,
    /// The agent.
    pub agent: AgentId,
    /// Its origin.
    pub position: DVec3,
    /// Its pose.
    pub pose: Pose,
}

impl std::fmt::Display for InSolid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = self.position;
        write!(
            f,
            "step {}: agent {} ({}) in solid at ({}, {}, {})",
            self.step,
            self.agent.0,
            self.pose.name(),
            p.x,
            p.y,
            p.z
        )
    }
}

/// What the guard found in a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Verification {
    /// Agent positions checked.
    pub checked: u64,
    /// Positions found in solid.
    pub in_solid: u64,
    /// The first [`Verification::KEPT`] of them, in step and id order.
    pub first: Vec<InSolid>,
}

impl Verification {
    /// How many positions in solid are kept to report.
    pub const KEPT: usize = 10;
}

/// The exact reference and the shapes it has prepared, for the guard.
pub(crate) struct Verifier {
    exact: WithContext<ExactCollider>,
    prepared: Vec<(Shape, Prepared)>,
    /// Each mover's exact reference on its brushes where drawn, its bounds there, and the
    /// shapes it has prepared (in `prepared`'s order).
    movers: Vec<(WithContext<ExactCollider>, cspace_geom::Aabb, Vec<Prepared>)>,
    pub(crate) found: Verification,
}

impl Verifier {
    /// The guard of `world` and of the movers' brush models `movers` (worlds of their brushes
    /// where the file draws them).
    pub(crate) fn new(world: Arc<World>, movers: Vec<Arc<World>>) -> Verifier {
        Verifier {
            exact: WithContext::new(ExactCollider::new(world)),
            prepared: Vec::new(),
            movers: movers
                .into_iter()
                .map(|w| {
                    let bounds = w.bounds();
                    (WithContext::new(ExactCollider::new(w)), bounds, Vec::new())
                })
                .collect(),
            found: Verification::default(),
        }
    }

    /// Forgets the movers `removed` marks (a `killtarget` took them out of the world).
    pub(crate) fn drop_removed(&mut self, removed: &[bool]) {
        for ((_, drawn, _), &gone) in self.movers.iter_mut().zip(removed) {
            if gone {
                *drawn = cspace_geom::Aabb::EMPTY;
            }
        }
    }

    /// Checks one agent: `shape` at `position` after `step`.
    pub(crate) fn check(
        &mut self,
        step: u64,
        agent: AgentId,
        shape: &Shape,
        pose: Pose,
        position: DVec3,
        offsets: &[DVec3],
    ) {
        let index = match self.prepared.iter().position(|(s, _)| s == shape) {
            Some(index) => index,
            None => {
                let prepared = self
                    .exact
                    .prepare(shape)
                    .expect("the exact reference takes every agent shape");
                self.prepared.push((shape.clone(), prepared));
                for (exact, _, prepared) in &mut self.movers {
                    prepared.push(
                        exact
                            .prepare(shape)
                            .expect("the exact reference takes every agent shape"),
                    );
                }
                self.prepared.len() - 1
            }
        };
        self.found.checked += 1;
        let bounds = shape.bounds().translated(position);
        let in_mover =
            self.movers
                .iter_mut()
                .zip(offsets)
                .any(|((exact, drawn, prepared), &offset)| {
                    drawn.translated(offset).intersects(&bounds)
                        && exact.is_solid(&prepared[index], position - offset)
                });
        if in_mover || self.exact.is_solid(&self.prepared[index].1, position) {
            self.found.in_solid += 1;
            if self.found.first.len() < Verification::KEPT {
                self.found.first.push(InSolid {
                    step,
                    agent,
                    position,
                    pose,
                });
            }
        }
    }
}
