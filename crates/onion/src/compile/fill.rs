//! Filling the outside of sealed maps (qbsp's and hesperus2's outside fill): per space, a flood
//! over leaf cells sharing faces from the spawn points; the empty leaves it cannot reach become
//! solid, and siblings left alike are merged.

use std::collections::VecDeque;

use cspace_geom::polygon::PolygonSide;
use cspace_geom::tolerance::ONION_CUT;
use cspace_geom::{Aabb, Polygon};
use glam::DVec3;

use super::cell::Cell;
use super::stats::FillOutcome;
use crate::tree::{NodeRef, OnionTree, PackedNode};
use cspace_geom::tolerance::{PORTAL_MIN_AREA, PORTAL_PLANE, ZERO_LENGTH};

/// The tree with its outside filled, the leaf points of its (merged) leaves, and what happened
/// in each space.
pub(super) fn fill_outside(
    mut tree: OnionTree,
    cells: &[Cell],
    spawns: &[DVec3],
    bounds: Aabb,
    leaf_points: &[Option<DVec3>],
) -> ((OnionTree, Vec<Option<DVec3>>), Vec<FillOutcome>) {
    let neighbours = neighbours(&tree, cells);
    // A leaf touches the outside when a face of its cell lies on the world box.
    let outer: Vec<bool> = cells
        .iter()
        .map(|c| c.faces.iter().any(|f| on_box(f, &bounds)))
        .collect();
    let spaces = tree.spaces();
    let mut reached: Vec<Option<Vec<bool>>> = Vec::with_capacity(spaces);
    let mut outcome = Vec::with_capacity(spaces);
    for s in 0..spaces {
        let mut seen = vec![false; tree.leaves.len()];
        let mut queue: VecDeque<u32> = VecDeque::new();
        for &p in spawns {
            // A spawn point on a boundary seeds the leaves on both sides.
            for leaf in tree.leaves_at(p) {
                if !tree.leaf_is_solid(leaf, s) && !seen[leaf as usize] {
                    seen[leaf as usize] = true;
                    queue.push_back(leaf);
                }
            }
        }
        if queue.is_empty() {
            outcome.push(FillOutcome::NoSpawn);
            reached.push(None);
            continue;
        }
        let mut leaked = false;
        while let Some(leaf) = queue.pop_front() {
            if outer[leaf as usize] {
                leaked = true;
                break;
            }
            for &next in &neighbours[leaf as usize] {
                if !seen[next as usize] && !tree.leaf_is_solid(next, s) {
                    seen[next as usize] = true;
                    queue.push_back(next);
                }
            }
        }
        if leaked {
            outcome.push(FillOutcome::Leaked);
            reached.push(None);
        } else {
            outcome.push(FillOutcome::Filled { leaves: 0 });
            reached.push(Some(seen));
        }
    }
    // A space is filled only if every space of a larger pose containing its pose is.
    let contains = |q: usize, p: usize| q != p && tree.poses[q].contains(&tree.poses[p]);
    loop {
        let mut changed = false;
        for p in 0..spaces {
            if matches!(outcome[p], FillOutcome::Filled { .. })
                && (0..spaces)
                    .any(|q| contains(q, p) && !matches!(outcome[q], FillOutcome::Filled { .. }))
            {
                outcome[p] = FillOutcome::Nested;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for (s, (outcome, reached)) in outcome.iter_mut().zip(&reached).enumerate() {
        let (FillOutcome::Filled { leaves }, Some(seen)) = (outcome, reached) else {
            continue;
        };
        for (leaf, mask) in tree.leaves.iter_mut().enumerate() {
            if *mask >> s & 1 == 0 && !seen[leaf] {
                *mask |= 1 << s;
                *leaves += 1;
            }
        }
    }
    (merge(&tree, leaf_points), outcome)
}

/// True when the face lies on a plane of the box.
pub(crate) fn on_box(face: &Polygon, bounds: &Aabb) -> bool {
    let n = face.plane.normal();
    let d = face.plane.dist();
    bounds
        .face_planes()
        .iter()
        .any(|(m, e)| n.abs_diff_eq(*m, ZERO_LENGTH) && (d - e).abs() < PORTAL_PLANE)
}

/// For each leaf, the leaves whose cells share a face of positive area with its cell: each face
/// pushed down the tree towards the side it faces (coplanar with a node plane: to the side its
/// normal points to; straddling: split).
fn neighbours(tree: &OnionTree, cells: &[Cell]) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = vec![Vec::new(); cells.len()];
    let mut stack: Vec<(NodeRef, Polygon)> = Vec::new();
    for (leaf, cell) in cells.iter().enumerate() {
        for face in &cell.faces {
            if face.area() < PORTAL_MIN_AREA {
                continue;
            }
            stack.push((tree.root(), face.clone()));
            while let Some((at, polygon)) = stack.pop() {
                match at {
                    NodeRef::Leaf(other) => {
                        if other as usize != leaf && !out[leaf].contains(&other) {
                            out[leaf].push(other);
                        }
                    }
                    NodeRef::Node(n) => {
                        let plane = tree.node_plane(n);
                        let [front, back] = tree.node_children(n);
                        match polygon.side_of(&plane, ONION_CUT) {
                            PolygonSide::Front => stack.push((front, polygon)),
                            PolygonSide::Back => stack.push((back, polygon)),
                            PolygonSide::Coplanar => {
                                let to = if polygon.plane.normal().dot(plane.normal()) > 0.0 {
                                    front
                                } else {
                                    back
                                };
                                stack.push((to, polygon));
                            }
                            PolygonSide::Straddle => {
                                let (b, f) = polygon.split_with(&plane, ONION_CUT);
                                for (part, to) in [(f, front), (b, back)] {
                                    if let Some(part) = part.filter(|p| p.area() >= PORTAL_MIN_AREA)
                                    {
                                        stack.push((to, part));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// The tree with every node whose children are leaves of equal solidity turned into a leaf
/// (bottom-up), renumbered depth-first; each merged leaf keeps one of its leaves' points.
fn merge(tree: &OnionTree, points: &[Option<DVec3>]) -> (OnionTree, Vec<Option<DVec3>>) {
    struct Out {
        nodes: Vec<PackedNode>,
        leaves: Vec<u64>,
        points: Vec<Option<DVec3>>,
    }
    /// The solidity of a subtree when it is uniform, with a point of it.
    fn uniform(
        tree: &OnionTree,
        at: NodeRef,
        points: &[Option<DVec3>],
    ) -> Option<(u64, Option<DVec3>)> {
        match at {
            NodeRef::Leaf(l) => Some((tree.leaves[l as usize], points[l as usize])),
            NodeRef::Node(n) => {
                let [f, b] = tree.node_children(n);
                let (mf, pf) = uniform(tree, f, points)?;
                let (mb, pb) = uniform(tree, b, points)?;
                (mf == mb).then_some((mf, pf.or(pb)))
            }
        }
    }
    fn copy(tree: &OnionTree, at: NodeRef, points: &[Option<DVec3>], out: &mut Out) -> NodeRef {
        if let Some((mask, point)) = uniform(tree, at, points) {
            out.leaves.push(mask);
            out.points.push(point);
            return NodeRef::Leaf(out.leaves.len() as u32 - 1);
        }
        let NodeRef::Node(n) = at else {
            unreachable!("a leaf is uniform")
        };
        let index = out.nodes.len();
        out.nodes.push(PackedNode {
            plane: tree.nodes[n as usize].plane,
            children: [0; 2],
        });
        let [f, b] = tree.node_children(n);
        let f = copy(tree, f, points, out);
        let b = copy(tree, b, points, out);
        out.nodes[index].children = [f.pack(), b.pack()];
        NodeRef::Node(index as u32)
    }
    let mut out = Out {
        nodes: Vec::new(),
        leaves: Vec::new(),
        points: Vec::new(),
    };
    copy(tree, tree.root(), points, &mut out);
    (
        OnionTree::from_parts(
            tree.poses.clone(),
            tree.planes.clone(),
            out.nodes,
            out.leaves,
        ),
        out.points,
    )
}
