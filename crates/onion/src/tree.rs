//! The compiled onion tree: packed nodes, a shared plane table and leaf solidity bit-vectors.

use cspace_geom::Plane;
use cspace_geom::tolerance::CONTACT;
use glam::DVec3;

use crate::pose::Pose;

/// A child of a node: another node or a leaf, by index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeRef {
    /// A branch node (index for [`OnionTree::node_plane`] and [`OnionTree::node_children`]).
    Node(u32),
    /// A leaf (index for [`OnionTree::leaf_is_solid`]).
    Leaf(u32),
}

/// The tag bit of a packed child index: set for leaves.
pub(crate) const LEAF_BIT: u32 = 1 << 31;

impl NodeRef {
    /// The packed form: leaves carry [`LEAF_BIT`].
    #[inline]
    pub(crate) fn pack(self) -> u32 {
        match self {
            NodeRef::Node(i) => i,
            NodeRef::Leaf(i) => i | LEAF_BIT,
        }
    }

    /// From the packed form.
    #[inline]
    pub(crate) fn unpack(packed: u32) -> NodeRef {
        if packed & LEAF_BIT != 0 {
            NodeRef::Leaf(packed & !LEAF_BIT)
        } else {
            NodeRef::Node(packed)
        }
    }
}

/// A packed branch node: the index of its plane in the plane table and its two packed children,
/// `[front, back]` (12 bytes). Nodes are stored depth-first (a node's front child follows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PackedNode {
    pub plane: u32,
    pub children: [u32; 2],
}

/// The most configuration spaces (poses) one tree holds: leaf solidity is one `u64` per leaf.
pub const MAX_SPACES: usize = 64;

/// An onion BSP (Golodetz, "Onion BSPs"): one tree whose leaves are solid or empty in each of
/// several configuration spaces, one per agent box [`Pose`].
///
/// Nodes split space by a plane; the front child (index 0) is where the plane's signed distance is
/// positive. Leaves carry a solidity bit per space.
#[derive(Debug, Clone, PartialEq)]
pub struct OnionTree {
    pub(crate) poses: Vec<Pose>,
    pub(crate) planes: Vec<Plane>,
    pub(crate) nodes: Vec<PackedNode>,
    /// Bit `s` of `leaves[i]` is set when leaf `i` is solid in space `s`.
    pub(crate) leaves: Vec<u64>,
}

impl OnionTree {
    /// A tree from its parts.
    pub(crate) fn from_parts(
        poses: Vec<Pose>,
        planes: Vec<Plane>,
        nodes: Vec<PackedNode>,
        leaves: Vec<u64>,
    ) -> OnionTree {
        OnionTree {
            poses,
            planes,
            nodes,
            leaves,
        }
    }

    /// The root: node 0, or leaf 0 for a tree without branches (an empty world).
    pub fn root(&self) -> NodeRef {
        if self.nodes.is_empty() {
            NodeRef::Leaf(0)
        } else {
            NodeRef::Node(0)
        }
    }

    /// The splitting plane of branch `node`.
    pub fn node_plane(&self, node: u32) -> Plane {
        self.planes[self.nodes[node as usize].plane as usize]
    }

    /// The children of branch `node`: `[front, back]`, front being the plane's positive side.
    pub fn node_children(&self, node: u32) -> [NodeRef; 2] {
        self.nodes[node as usize].children.map(NodeRef::unpack)
    }

    /// True when leaf `leaf` is solid in configuration space `space` (the index of its pose).
    pub fn leaf_is_solid(&self, leaf: u32, space: usize) -> bool {
        self.leaves[leaf as usize] >> space & 1 != 0
    }

    /// The solidity bits of a leaf: bit `s` set when solid in space `s`.
    pub fn leaf_mask(&self, leaf: u32) -> u64 {
        self.leaves[leaf as usize]
    }

    /// The number of configuration spaces (one per pose).
    pub fn spaces(&self) -> usize {
        self.poses.len()
    }

    /// The poses, in space order.
    pub fn poses(&self) -> &[Pose] {
        &self.poses
    }

    /// The index of the pose whose box is exactly `mins..maxs`.
    pub fn space_of(&self, mins: DVec3, maxs: DVec3) -> Option<usize> {
        self.poses.iter().position(|p| p.is_box(mins, maxs))
    }

    /// The number of branch nodes.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The number of leaves.
    pub fn leaf_count(&self) -> usize {
        self.leaves.len()
    }

    /// The deduplicated plane table.
    pub fn planes(&self) -> &[Plane] {
        &self.planes
    }

    /// The leaf holding `point`, going to the front where the point is on a plane (within
    /// [`CONTACT`]) — a point query (Golodetz: "classifying the point against the split planes").
    pub fn find_leaf(&self, point: DVec3) -> u32 {
        let mut at = self.root();
        loop {
            match at {
                NodeRef::Leaf(leaf) => return leaf,
                NodeRef::Node(n) => {
                    let node = self.nodes[n as usize];
                    let d = self.planes[node.plane as usize].signed_distance(point);
                    at = NodeRef::unpack(node.children[usize::from(d < -CONTACT)]);
                }
            }
        }
    }

    /// The spaces `point` is solid in, as a bit mask. A point within [`CONTACT`] of a plane is
    /// solid only where the leaves on both sides are solid (touching is free).
    pub fn point_mask(&self, point: DVec3) -> u64 {
        self.point_mask_from(self.root(), point)
    }

    fn point_mask_from(&self, mut at: NodeRef, point: DVec3) -> u64 {
        loop {
            match at {
                NodeRef::Leaf(leaf) => return self.leaves[leaf as usize],
                NodeRef::Node(n) => {
                    let node = self.nodes[n as usize];
                    let d = self.planes[node.plane as usize].signed_distance(point);
                    if d > CONTACT {
                        at = NodeRef::unpack(node.children[0]);
                    } else if d < -CONTACT {
                        at = NodeRef::unpack(node.children[1]);
                    } else {
                        let front = self.point_mask_from(NodeRef::unpack(node.children[0]), point);
                        if front == 0 {
                            return 0;
                        }
                        return front
                            & self.point_mask_from(NodeRef::unpack(node.children[1]), point);
                    }
                }
            }
        }
    }

    /// True when `point` is solid in `space` (see [`OnionTree::point_mask`]).
    pub fn is_solid(&self, space: usize, point: DVec3) -> bool {
        self.point_mask(point) >> space & 1 != 0
    }
}
