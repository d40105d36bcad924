//! The tree validator (parry's `bvh_validation`): every compiled or loaded tree passes it.

use cspace_geom::tolerance::CONTACT;
use glam::DVec3;

use crate::tree::{NodeRef, OnionTree};
use cspace_geom::tolerance::UNIT_NORMAL;

/// How a tree breaks its invariants.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid onion tree: {0}")]
pub struct InvalidTree(pub String);

impl OnionTree {
    /// Checks the tree's invariants: plane and child indices in range, nodes in depth-first order
    /// (children after their parent), every node and leaf reached exactly once, solidity bits only
    /// for existing spaces, finite unit planes.
    pub fn validate(&self) -> Result<(), InvalidTree> {
        let bad = |s: String| Err(InvalidTree(s));
        if self.poses.is_empty() || self.poses.len() > crate::MAX_SPACES {
            return bad(format!("{} poses", self.poses.len()));
        }
        if self.leaves.len() != self.nodes.len() + 1 {
            return bad(format!(
                "{} nodes need {} leaves, found {}",
                self.nodes.len(),
                self.nodes.len() + 1,
                self.leaves.len()
            ));
        }
        for (i, p) in self.planes.iter().enumerate() {
            if !p.normal().is_finite()
                || !p.dist().is_finite()
                || (p.normal().length_squared() - 1.0).abs() > UNIT_NORMAL
            {
                return bad(format!("plane {i} is not a finite unit plane"));
            }
        }
        let mask = crate::compile::all_spaces(self.poses.len());
        for (i, &m) in self.leaves.iter().enumerate() {
            if m & !mask != 0 {
                return bad(format!("leaf {i} has solidity bits beyond its spaces"));
            }
        }
        let mut node_seen = vec![false; self.nodes.len()];
        let mut leaf_seen = vec![false; self.leaves.len()];
        for (i, node) in self.nodes.iter().enumerate() {
            if node.plane as usize >= self.planes.len() {
                return bad(format!(
                    "node {i} has plane {} of {}",
                    node.plane,
                    self.planes.len()
                ));
            }
            for child in node.children.map(NodeRef::unpack) {
                match child {
                    NodeRef::Node(c) => {
                        if c as usize >= self.nodes.len() || c as usize <= i {
                            return bad(format!("node {i} has child node {c}"));
                        }
                        if std::mem::replace(&mut node_seen[c as usize], true) {
                            return bad(format!("node {c} has two parents"));
                        }
                    }
                    NodeRef::Leaf(l) => {
                        if l as usize >= self.leaves.len() {
                            return bad(format!("node {i} has child leaf {l}"));
                        }
                        if std::mem::replace(&mut leaf_seen[l as usize], true) {
                            return bad(format!("leaf {l} has two parents"));
                        }
                    }
                }
            }
        }
        if self.nodes.is_empty() {
            leaf_seen[0] = true;
        } else {
            node_seen[0] = true;
        }
        if let Some(n) = node_seen.iter().position(|s| !s) {
            return bad(format!("node {n} is not reached"));
        }
        if let Some(l) = leaf_seen.iter().position(|s| !s) {
            return bad(format!("leaf {l} is not reached"));
        }
        Ok(())
    }

    /// Checks that each leaf's interior point (one per leaf, as [`crate::Compiled::leaf_points`])
    /// lies on the leaf's side of every ancestor plane, within [`CONTACT`].
    pub fn validate_leaf_points(&self, points: &[Option<DVec3>]) -> Result<(), InvalidTree> {
        if points.len() != self.leaves.len() {
            return Err(InvalidTree(format!(
                "{} leaf points for {} leaves",
                points.len(),
                self.leaves.len()
            )));
        }
        // (node, ancestors as (plane, front?) on the stack)
        let mut path: Vec<(u32, bool)> = Vec::new();
        type Step = Option<(u32, bool)>;
        let mut stack: Vec<(NodeRef, usize, Step)> = vec![(self.root(), 0, None)];
        while let Some((at, depth, step)) = stack.pop() {
            path.truncate(depth);
            if let Some(s) = step {
                path.push(s);
            }
            match at {
                NodeRef::Leaf(l) => {
                    let Some(p) = points[l as usize] else {
                        continue;
                    };
                    for &(node, front) in &path {
                        let d = self.node_plane(node).signed_distance(p);
                        let wrong = if front { d < -CONTACT } else { d > CONTACT };
                        if wrong {
                            return Err(InvalidTree(format!(
                                "leaf {l}'s point {p} is {d:e} on the wrong side of node {node}"
                            )));
                        }
                    }
                }
                NodeRef::Node(n) => {
                    let [f, b] = self.node_children(n);
                    let depth = path.len();
                    stack.push((b, depth, Some((n, false))));
                    stack.push((f, depth, Some((n, true))));
                }
            }
        }
        Ok(())
    }
}
