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
    /// Derived from the above for the queries: one cache line per node (see [`WalkNode`]).
    pub(crate) walk_nodes: Vec<WalkNode>,
    /// The fingerprint of the world the tree was compiled from ([`cspace_geom::World::fingerprint`]).
    pub(crate) world: u64,
}

/// A node as the queries read it, everything in one 64-byte line: the plane inline (a node then
/// costs one memory fetch instead of a node, then its plane from the table), the packed children,
/// and the OR and the AND of the solidity of the leaves below it (a subtree uniform in the queried
/// space is answered without descending: the planes of the other spaces split it for nothing).
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C, align(64))]
pub(crate) struct WalkNode {
    /// The plane's unit normal.
    pub normal: DVec3,
    /// The plane's offset: `signed_distance(p) = normal . p - dist`, as [`Plane`] computes it.
    pub dist: f64,
    /// Spaces solid in some leaf below.
    pub any: u64,
    /// Spaces solid in every leaf below.
    pub all: u64,
    /// `[front, back]`, packed.
    pub children: [u32; 2],
    /// The plane's index in the table (recorded as the entry plane of a crossing).
    pub plane: u32,
}

impl WalkNode {
    /// The signed distance of `point` to the node's plane, bit for bit [`Plane::signed_distance`].
    #[inline]
    pub fn signed_distance(&self, point: DVec3) -> f64 {
        self.normal.dot(point) - self.dist
    }
}

impl OnionTree {
    /// A tree from its parts.
    pub(crate) fn from_parts(
        poses: Vec<Pose>,
        planes: Vec<Plane>,
        nodes: Vec<PackedNode>,
        leaves: Vec<u64>,
    ) -> OnionTree {
        let mut walk_nodes: Vec<WalkNode> = nodes
            .iter()
            .map(|node| {
                // A plane index out of range (a corrupt file) is caught by `validate`, which
                // every load runs; a zero plane stands in until then.
                let (normal, dist) = planes
                    .get(node.plane as usize)
                    .map_or((DVec3::ZERO, 0.0), |p| (p.normal(), p.dist()));
                WalkNode {
                    normal,
                    dist,
                    any: 0,
                    all: u64::MAX,
                    children: node.children,
                    plane: node.plane,
                }
            })
            .collect();
        // Children follow their parents (depth-first order): fill from the back.
        for i in (0..nodes.len()).rev() {
            let mut any_all = [0u64, u64::MAX];
            for child in nodes[i].children {
                let [any, all] = match NodeRef::unpack(child) {
                    NodeRef::Leaf(l) => {
                        let m = leaves.get(l as usize).copied().unwrap_or(0);
                        [m, m]
                    }
                    NodeRef::Node(n) => walk_nodes
                        .get(n as usize)
                        .filter(|_| n as usize > i)
                        .map_or([0, 0], |w| [w.any, w.all]),
                };
                any_all = [any_all[0] | any, any_all[1] & all];
            }
            walk_nodes[i].any = any_all[0];
            walk_nodes[i].all = any_all[1];
        }
        OnionTree {
            poses,
            planes,
            nodes,
            leaves,
            walk_nodes,
            world: 0,
        }
    }

    /// The fingerprint of the world the tree was compiled from.
    pub fn world_fingerprint(&self) -> u64 {
        self.world
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

    /// Every leaf whose closure holds `point`: both sides where it lies on a plane (within
    /// [`CONTACT`]).
    pub fn leaves_at(&self, point: DVec3) -> Vec<u32> {
        let mut out = Vec::new();
        let mut stack = vec![self.root()];
        while let Some(at) = stack.pop() {
            match at {
                NodeRef::Leaf(leaf) => out.push(leaf),
                NodeRef::Node(n) => {
                    let node = self.nodes[n as usize];
                    let d = self.planes[node.plane as usize].signed_distance(point);
                    if d >= -CONTACT {
                        stack.push(NodeRef::unpack(node.children[0]));
                    }
                    if d <= CONTACT {
                        stack.push(NodeRef::unpack(node.children[1]));
                    }
                }
            }
        }
        out
    }

    /// The spaces `point` is solid in, as a bit mask. A point within [`CONTACT`] of a plane is
    /// solid only where the leaves on both sides are solid (touching is free).
    pub fn point_mask(&self, point: DVec3) -> u64 {
        let all = if self.spaces() >= 64 {
            u64::MAX
        } else {
            (1u64 << self.spaces()) - 1
        };
        self.mask_from(self.root(), point, all)
    }

    /// True when `point` is solid in `space` (see [`OnionTree::point_mask`]).
    pub fn is_solid(&self, space: usize, point: DVec3) -> bool {
        self.mask_from(self.root(), point, 1 << space) != 0
    }

    /// The spaces among `wanted` that `point` is solid in, from `at` down. A subtree uniform in
    /// every wanted space (its summary) answers without descending; on a plane (within
    /// [`CONTACT`]) both sides are asked and only the spaces solid on both count.
    fn mask_from(&self, mut at: NodeRef, point: DVec3, wanted: u64) -> u64 {
        loop {
            match at {
                NodeRef::Leaf(leaf) => return self.leaves[leaf as usize] & wanted,
                NodeRef::Node(n) => {
                    let node = &self.walk_nodes[n as usize];
                    if node.any & wanted == 0 {
                        return 0;
                    }
                    if node.all & wanted == wanted {
                        return wanted;
                    }
                    let d = node.signed_distance(point);
                    if d > CONTACT {
                        at = NodeRef::unpack(node.children[0]);
                    } else if d < -CONTACT {
                        at = NodeRef::unpack(node.children[1]);
                    } else {
                        let front =
                            self.mask_from(NodeRef::unpack(node.children[0]), point, wanted);
                        if front == 0 {
                            return 0;
                        }
                        return self.mask_from(NodeRef::unpack(node.children[1]), point, front);
                    }
                }
            }
        }
    }
}
