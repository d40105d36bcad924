//! The caller-owned scratch space of the queries.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::DVec3;

use cspace_onion::WalkScratch;

/// Scratch space for the queries of a [`crate::NavMesh`] and a [`crate::LineOfSight`]: tree-walk
/// stacks and the search's per-area arrays. The graph and the trees are shared (`&self`) by any
/// number of threads; each thread keeps one context and reuses it, so a query allocates nothing
/// once the context has grown to the graph (the path it returns aside).
///
/// A context may serve several graphs in turn; it grows to the largest.
#[derive(Debug, Default, Clone)]
pub struct NavContext {
    pub(crate) walk: WalkScratch,
    pub(crate) search: Search,
}

impl NavContext {
    /// An empty context (it grows on first use).
    pub fn new() -> NavContext {
        NavContext::default()
    }
}

/// The A* search's state, per area, valid for the current search only (`stamp == generation`),
/// so nothing is cleared between searches.
#[derive(Debug, Default, Clone)]
pub(crate) struct Search {
    pub generation: u32,
    /// The generation an area was last reached in.
    pub stamp: Vec<u32>,
    /// The generation an area was closed in.
    pub closed: Vec<u32>,
    /// Cost to reach the area, seconds.
    pub cost: Vec<f64>,
    /// Where the area was entered.
    pub at: Vec<DVec3>,
    /// The link it was entered by (`u32::MAX` for the start).
    pub via: Vec<u32>,
    /// Open areas by (estimated total cost's bits, area): costs are finite and not negative, so
    /// their bits order as they do.
    pub open: BinaryHeap<Reverse<(u64, u32)>>,
}

impl Search {
    /// Starts a search over `areas` areas.
    pub fn begin(&mut self, areas: usize) {
        if self.stamp.len() < areas {
            self.stamp.resize(areas, 0);
            self.closed.resize(areas, 0);
            self.cost.resize(areas, 0.0);
            self.at.resize(areas, DVec3::ZERO);
            self.via.resize(areas, u32::MAX);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Wrapped: forget every stamp once.
            self.stamp.fill(0);
            self.closed.fill(0);
            self.generation = 1;
        }
        self.open.clear();
    }
}
