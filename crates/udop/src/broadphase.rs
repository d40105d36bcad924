//! The agent-agent broadphase: bounding k-DOPs of the swept agents, sorted and swept on one axis
//! (sweep and prune), every overlapping pair out.

use std::sync::Arc;

use cspace_geom::{Aabb, Shape};
use glam::DVec3;

use crate::directions::Directions;

/// An agent moving on a segment during one step.
#[derive(Debug, Clone, Copy)]
pub struct SweptAgent<'a> {
    /// The caller's id; unique within one call.
    pub id: u64,
    /// The agent's shape.
    pub shape: &'a Shape,
    /// Where its origin starts.
    pub start: DVec3,
    /// Where its origin ends.
    pub end: DVec3,
}

/// Why the broadphase cannot answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BroadphaseError {
    /// Two agents share an id.
    #[error("agent id {0} appears twice")]
    DuplicateId(u64),
    /// An agent's start or end is not finite.
    #[error("agent {0} has a non-finite position")]
    NonFinite(u64),
}

/// The swept bounding volume of one agent: per direction `v_i`, the interval `[lo_i, hi_i]` of
/// `x . v_i` over the shape along its whole move, grown by a margin (a two-sided k-DOP: it is
/// bounded along `v_i` and `-v_i` even for sets without opposite pairs), and its bounding box.
#[derive(Debug, Clone, PartialEq)]
pub struct SweptBounds {
    /// `[lo_0, hi_0, lo_1, hi_1, ...]`.
    slabs: Vec<f64>,
    /// The axis-aligned bounds of the swept shape (grown the same).
    aabb: Aabb,
}

impl SweptBounds {
    /// The bounds of `agent` over `directions`, grown by `margin` units.
    pub fn new(directions: &Directions<DVec3>, agent: &SweptAgent<'_>, margin: f64) -> Self {
        let mut slabs = Vec::with_capacity(2 * directions.len());
        for v in directions.vectors() {
            let (a, b) = (agent.start.dot(*v), agent.end.dot(*v));
            slabs.push(a.min(b) - agent.shape.support_distance(-*v) - margin);
            slabs.push(a.max(b) + agent.shape.support_distance(*v) + margin);
        }
        let bounds = agent.shape.bounds();
        let aabb = bounds
            .translated(agent.start)
            .merged(bounds.translated(agent.end))
            .loosened(margin);
        SweptBounds { slabs, aabb }
    }

    /// False only when some direction (or axis) separates the two volumes: then the agents
    /// cannot touch during the step.
    pub fn overlaps(&self, other: &SweptBounds) -> bool {
        self.aabb.intersects(&other.aabb)
            && self
                .slabs
                .chunks_exact(2)
                .zip(other.slabs.chunks_exact(2))
                .all(|(a, b)| a[0] <= b[1] && b[0] <= a[1])
    }

    /// The axis-aligned bounds.
    pub fn aabb(&self) -> Aabb {
        self.aabb
    }
}

/// Sweep and prune over swept bounding k-DOPs.
///
/// [`Broadphase::pairs`] returns every pair whose [`SweptBounds`] overlap, which holds every
/// pair of agents that touch at any time of the step (each agent's swept volume lies in its
/// bounds): a superset of the true contacts, sorted by `(a, b)` with `a < b`.
#[derive(Debug, Clone)]
pub struct Broadphase {
    directions: Arc<Directions<DVec3>>,
    margin: f64,
    bounds: Vec<SweptBounds>,
    order: Vec<usize>,
    active: Vec<usize>,
}

impl Broadphase {
    /// A broadphase over `directions`, without margin.
    pub fn new(directions: Arc<Directions<DVec3>>) -> Broadphase {
        Broadphase {
            directions,
            margin: 0.0,
            bounds: Vec::new(),
            order: Vec::new(),
            active: Vec::new(),
        }
    }

    /// The same, growing every volume by `margin` units (for example the skin, so that agents
    /// that end a skin apart are still paired).
    pub fn with_margin(self, margin: f64) -> Broadphase {
        Broadphase {
            margin: margin.max(0.0),
            ..self
        }
    }

    /// The direction set.
    pub fn directions(&self) -> &Arc<Directions<DVec3>> {
        &self.directions
    }

    /// Every pair of agents whose swept bounds overlap, as `(a, b)` ids with `a < b`, sorted.
    ///
    /// The bounds are sorted by their low end on the axis along which the agents are most
    /// spread (ties by position in the input), and swept: an agent is compared with the agents
    /// still open on that axis only.
    pub fn pairs(&mut self, agents: &[SweptAgent<'_>]) -> Result<Vec<(u64, u64)>, BroadphaseError> {
        let mut ids: Vec<u64> = agents.iter().map(|a| a.id).collect();
        ids.sort_unstable();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(BroadphaseError::DuplicateId(w[0]));
        }
        if let Some(a) = agents
            .iter()
            .find(|a| !a.start.is_finite() || !a.end.is_finite())
        {
            return Err(BroadphaseError::NonFinite(a.id));
        }
        self.bounds.clear();
        self.bounds.extend(
            agents
                .iter()
                .map(|a| SweptBounds::new(&self.directions, a, self.margin)),
        );
        let axis = spread_axis(&self.bounds);
        self.order.clear();
        self.order.extend(0..agents.len());
        let bounds = &self.bounds;
        self.order.sort_unstable_by(|&a, &b| {
            bounds[a].aabb.min[axis]
                .total_cmp(&bounds[b].aabb.min[axis])
                .then(a.cmp(&b))
        });
        let mut pairs = Vec::new();
        self.active.clear();
        for &i in &self.order {
            let lo = bounds[i].aabb.min[axis];
            self.active.retain(|&j| bounds[j].aabb.max[axis] >= lo);
            for &j in &self.active {
                if bounds[i].overlaps(&bounds[j]) {
                    let (a, b) = (agents[i].id, agents[j].id);
                    pairs.push((a.min(b), a.max(b)));
                }
            }
            self.active.push(i);
        }
        pairs.sort_unstable();
        Ok(pairs)
    }
}

/// The axis along which the centres of the bounds vary most (ties to the lower axis).
fn spread_axis(bounds: &[SweptBounds]) -> usize {
    if bounds.is_empty() {
        return 0;
    }
    let n = bounds.len() as f64;
    let mean = bounds.iter().map(|b| b.aabb.centre()).sum::<DVec3>() / n;
    let variance = bounds
        .iter()
        .map(|b| {
            let d = b.aabb.centre() - mean;
            d * d
        })
        .sum::<DVec3>();
    let mut axis = 0;
    for i in 1..3 {
        if variance[i] > variance[axis] {
            axis = i;
        }
    }
    axis
}
