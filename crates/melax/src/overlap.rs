//! Stationary overlap of a convex polytope with the solid cells (Melax Section 6, Table 1):
//! `M()` merges the polytope with the tree, slicing it at every plane it straddles; `F()` sends
//! the whole polytope down both sides instead (the dual of a plane-shifted point query). Neither
//! stops at the first solid cell: both find them all, as the paper's timing does.

use cspace_geom::polygon::PolygonSide;
use cspace_geom::{DVec3, Plane};

use crate::polyhedron::ConvexPolyhedron;
use crate::tree::{EMPTY, LEAF, MelaxTree};

/// What an overlap query found and what it cost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OverlapCount {
    /// Solid cells reached (for `M()`, by a piece of the polytope; for `F()`, by the polytope's
    /// extent, which may report extra cells).
    pub solid_cells: usize,
    /// Nodes and leaves visited.
    pub nodes_visited: usize,
    /// Polytope slices made (`M()` only).
    pub slices: usize,
}

/// `M(node, polytope)`: the exact overlap, slicing the polytope at each straddled plane.
pub fn merge(tree: &MelaxTree, polytope: &ConvexPolyhedron) -> OverlapCount {
    let mut count = OverlapCount::default();
    let mut stack = vec![(tree.root, polytope.clone())];
    while let Some((child, piece)) = stack.pop() {
        count.nodes_visited += 1;
        if child & LEAF != 0 {
            count.solid_cells += usize::from(child != EMPTY);
            continue;
        }
        let node = &tree.nodes[child as usize];
        let plane = Plane::new(node.normal, node.dist).expect("node planes are valid");
        let [front, back] = node.children;
        match piece.side_of(&plane) {
            PolygonSide::Front => stack.push((front, piece)),
            PolygonSide::Back | PolygonSide::Coplanar => stack.push((back, piece)),
            PolygonSide::Straddle => {
                count.slices += 1;
                let (over, under) = piece.split(&plane);
                stack.extend(under.map(|p| (back, p)));
                stack.extend(over.map(|p| (front, p)));
            }
        }
    }
    count
}

/// `F(node, polytope)`: no slice; a polytope with vertices on both sides of a plane goes down
/// both children whole.
pub fn no_slice(tree: &MelaxTree, polytope: &ConvexPolyhedron) -> OverlapCount {
    let vertices: Vec<DVec3> = polytope.vertices().collect();
    let mut count = OverlapCount::default();
    let mut stack = vec![tree.root];
    while let Some(child) = stack.pop() {
        count.nodes_visited += 1;
        if child & LEAF != 0 {
            count.solid_cells += usize::from(child != EMPTY);
            continue;
        }
        let node = &tree.nodes[child as usize];
        let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in &vertices {
            let d = node.normal.dot(*v) - node.dist;
            low = low.min(d);
            high = high.max(d);
        }
        let thickness = cspace_geom::tolerance::PLANE_THICKNESS;
        if low < -thickness {
            stack.push(node.children[1]);
        }
        if high > thickness {
            stack.push(node.children[0]);
        }
    }
    count
}
