//! The tree validator (parry's `bvh_validation`): every compiled or loaded tree passes it.

use cspace_geom::tolerance::{CONTACT, UNIT_NORMAL, WORLD_HALF_EXTENT};
use glam::DVec3;

use crate::compile::PlaneTable;
use crate::tree::{NodeRef, OnionTree};

/// The largest `|distance|` of a valid tree's plane, in units. Every plane of a configuration
/// space is the plane of a face of an expanded brush whose vertices the compiler keeps within the
/// cube of half side [`WORLD_HALF_EXTENT`] (`CompileError::Expansion` otherwise), so
/// `|d| = |n . v| <= |v| <= sqrt(3) * WORLD_HALF_EXTENT` for any vertex `v` of that face; twice
/// the half side bounds it.
pub const MAX_PLANE_DISTANCE: f64 = 2.0 * WORLD_HALF_EXTENT;

/// How a tree breaks its invariants.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid onion tree: {0}")]
pub struct InvalidTree(pub String);

impl OnionTree {
    /// Checks the tree's structural invariants, those the compiler guarantees and a loaded file
    /// must keep: poses with distinct names; finite unit planes within [`MAX_PLANE_DISTANCE`], no
    /// two of them one plane (within `PLANE_MERGE`, as the compiler's plane table merges them);
    /// solidity bits only for existing spaces and nested across poses (a leaf solid for a pose is
    /// solid for every pose whose box contains that pose's box); plane and child indices in range,
    /// nodes in depth-first order (children after their parent, so no cycle), every node and
    /// leaf reached exactly once, no node splitting by a plane an ancestor splits by.
    ///
    /// What a valid tree means is checked against its world by [`OnionTree::verify`].
    pub fn validate(&self) -> Result<(), InvalidTree> {
        let bad = |s: String| Err(InvalidTree(s));
        if self.poses.is_empty() || self.poses.len() > crate::MAX_SPACES {
            return bad(format!("{} poses", self.poses.len()));
        }
        for (i, pose) in self.poses.iter().enumerate() {
            if let Some(j) = self.poses[..i].iter().position(|p| p.name == pose.name) {
                return bad(format!("poses {j} and {i} are both named '{}'", pose.name));
            }
        }
        if self.leaves.len() != self.nodes.len() + 1 {
            return bad(format!(
                "{} nodes need {} leaves, found {}",
                self.nodes.len(),
                self.nodes.len() + 1,
                self.leaves.len()
            ));
        }
        let mut table = PlaneTable::default();
        for (i, p) in self.planes.iter().enumerate() {
            if !p.normal().is_finite()
                || !p.dist().is_finite()
                || (p.normal().length_squared() - 1.0).abs() > UNIT_NORMAL
            {
                return bad(format!("plane {i} is not a finite unit plane"));
            }
            if p.dist().abs() > MAX_PLANE_DISTANCE {
                return bad(format!(
                    "plane {i} lies {:e} units from the origin, beyond the {MAX_PLANE_DISTANCE} \
                     of any configuration-space plane",
                    p.dist().abs()
                ));
            }
            let (entry, flipped) = table.insert(*p);
            if entry as usize != i {
                let how = if flipped {
                    ", facing the other way"
                } else {
                    ""
                };
                return bad(format!(
                    "planes {entry} and {i} are one plane (within PLANE_MERGE{how})"
                ));
            }
        }
        let mask = crate::compile::all_spaces(self.poses.len());
        for (i, &m) in self.leaves.iter().enumerate() {
            if m & !mask != 0 {
                return bad(format!("leaf {i} has solidity bits beyond its spaces"));
            }
        }
        self.validate_nesting()?;
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
        self.validate_planes_on_paths()
    }

    /// A leaf solid for a pose is solid for every pose whose box contains that pose's box
    /// ([`crate::Pose::contains`]): the compiler's nesting invariant, which the outside fill keeps.
    fn validate_nesting(&self) -> Result<(), InvalidTree> {
        // outer[p]: the spaces of the poses containing pose p (itself included).
        let outer: Vec<u64> = self
            .poses
            .iter()
            .map(|inner| {
                self.poses
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.contains(inner))
                    .fold(0, |m, (q, _)| m | 1 << q)
            })
            .collect();
        for (leaf, &m) in self.leaves.iter().enumerate() {
            for (p, &o) in outer.iter().enumerate() {
                if m >> p & 1 == 0 || m & o == o {
                    continue;
                }
                let q = (o & !m).trailing_zeros() as usize;
                return Err(InvalidTree(format!(
                    "leaf {leaf} is solid for pose {p} ({}) and empty for pose {q} ({}), whose box \
                     contains it",
                    self.poses[p].name, self.poses[q].name
                )));
            }
        }
        Ok(())
    }

    /// No node splits by a plane one of its ancestors splits by (the compiler's splitters leave
    /// the candidates below them). Run on a tree whose indices are valid.
    fn validate_planes_on_paths(&self) -> Result<(), InvalidTree> {
        if self.nodes.is_empty() {
            return Ok(());
        }
        // The node splitting by each plane on the current path, if any.
        let mut splitter: Vec<Option<u32>> = vec![None; self.planes.len()];
        let mut path: Vec<u32> = Vec::new();
        let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
        while let Some((n, depth)) = stack.pop() {
            for up in path.drain(depth..) {
                splitter[self.nodes[up as usize].plane as usize] = None;
            }
            let plane = self.nodes[n as usize].plane;
            if let Some(up) = splitter[plane as usize] {
                return Err(InvalidTree(format!(
                    "node {n} splits by plane {plane}, as its ancestor node {up} does"
                )));
            }
            splitter[plane as usize] = Some(n);
            path.push(n);
            for child in self.nodes[n as usize].children.map(NodeRef::unpack) {
                if let NodeRef::Node(c) = child {
                    stack.push((c, depth + 1));
                }
            }
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
