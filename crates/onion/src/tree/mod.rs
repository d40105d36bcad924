//! The compiled onion tree: packed nodes, a shared plane table and leaf solidity bit-vectors.

pub(crate) mod start_grid;
use cspace_geom::Plane;
use cspace_geom::tolerance::{CONTACT, TREE_BAND};
use glam::DVec3;

use crate::pose::Pose;
use start_grid::{GridShape, StartGrid};

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
    /// Derived from the above for the queries: one pruned tree per space (see [`SpaceTree`]).
    pub(crate) space_trees: Vec<SpaceTree>,
    /// The fingerprint of the world the tree was compiled from ([`cspace_geom::World::fingerprint`]).
    pub(crate) world: u64,
}

/// The tag of a [`SpaceNode`] child that is not a node: a region, `REGION | index` (a subtree
/// empty in the space, [`SpaceTree::regions`]), or [`SOLID`].
pub const REGION: u32 = LEAF_BIT;
/// A [`SpaceNode`] child for a subtree solid in its space.
pub const SOLID: u32 = u32::MAX;

/// A child of a [`SpaceNode`], decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpaceChild {
    /// A branch: an index into [`SpaceTree::nodes`].
    Node(u32),
    /// A region: an index into [`SpaceTree::regions`].
    Region(u32),
    /// A subtree solid in the space.
    Solid,
}

impl SpaceChild {
    /// Decodes a child reference (a node index, `REGION | index`, or [`SOLID`]).
    #[inline]
    pub fn of(child: u32) -> SpaceChild {
        if child == SOLID {
            SpaceChild::Solid
        } else if child & REGION != 0 {
            SpaceChild::Region(child & !REGION)
        } else {
            SpaceChild::Node(child)
        }
    }
}

/// A node of one space's query tree: the plane inline (one fetch per node, not a node and then
/// its plane from the table) and the two children, `[front, back]`: node indices, `REGION |
/// index` or [`SOLID`] (40 bytes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpaceNode {
    /// The splitting plane, a copy of the plane table's.
    pub plane: Plane,
    /// `[front, back]`.
    pub children: [u32; 2],
}

impl SpaceNode {
    /// The signed distance of `point` to the node's plane.
    #[inline]
    pub fn signed_distance(&self, point: DVec3) -> f64 {
        self.plane.signed_distance(point)
    }
}

/// The tree as the queries of one space read it: every subtree uniform in the space (all its
/// leaves empty, or all solid there) is one child, a *region* (the subtree empty there) or
/// [`SOLID`], so the planes that only the other spaces need are neither walked nor kept in the
/// space's cache lines. Nodes are depth-first, a node's front child right after it; regions are
/// numbered as they are met, front child first. Answers are those of the full tree: the same
/// planes, the same arithmetic, the same leaves. The collider walks it, and so does
/// `cspace-nav`, whose regions are these (their cells, portals and floors).
#[derive(Debug, Clone, PartialEq)]
pub struct SpaceTree {
    pub(crate) nodes: Vec<SpaceNode>,
    /// Node 0, or a region / [`SOLID`] for a space uniform everywhere.
    pub(crate) root: u32,
    /// For each region, the subtree of the packed tree it stands for.
    pub(crate) regions: Vec<NodeRef>,
    /// Where short queries start instead of the root.
    pub(crate) starts: Option<(GridShape, StartGrid)>,
}

impl SpaceTree {
    /// Space `space`'s tree, pruned from the packed one. The parts may be a corrupt file's, not
    /// yet validated: a child out of order or out of range reads as empty, and no more nodes
    /// are made than the packed tree has, so this always ends (the validator rejects such trees).
    fn prune(
        space: usize,
        grid: Option<&GridShape>,
        planes: &[Plane],
        nodes: &[PackedNode],
        leaves: &[u64],
        summary: &[[u64; 2]],
    ) -> SpaceTree {
        let mut tree = SpaceTree {
            nodes: Vec::new(),
            root: 0,
            regions: Vec::new(),
            starts: None,
        };
        // The child reference of a uniform subtree (a new region when empty), `None` if mixed.
        let uniform = |tree: &mut SpaceTree, child: u32, parent: Option<usize>| -> Option<u32> {
            let solid = match NodeRef::unpack(child) {
                NodeRef::Leaf(l) => leaves.get(l as usize).copied().unwrap_or(0) >> space & 1 != 0,
                NodeRef::Node(n) if parent.is_some_and(|p| n as usize <= p) => false,
                NodeRef::Node(n) => match summary.get(n as usize) {
                    None => false,
                    Some([any, _]) if any >> space & 1 == 0 => false,
                    Some([_, all]) if all >> space & 1 != 0 => true,
                    Some(_) => return None,
                },
            };
            if solid {
                return Some(SOLID);
            }
            tree.regions.push(NodeRef::unpack(child));
            Some(REGION | (tree.regions.len() - 1) as u32)
        };
        let root = if nodes.is_empty() {
            NodeRef::Leaf(0)
        } else {
            NodeRef::Node(0)
        };
        // (packed node, parent's index and child slot in the pruned tree)
        let mut stack: Vec<(u32, Option<(usize, usize)>)> = Vec::new();
        match uniform(&mut tree, root.pack(), None) {
            Some(leaf) => tree.root = leaf,
            None => stack.push((0, None)),
        }
        while let Some((n, parent)) = stack.pop() {
            if tree.nodes.len() == nodes.len() {
                break;
            }
            let index = tree.nodes.len();
            if let Some((p, slot)) = parent {
                tree.nodes[p].children[slot] = index as u32;
            }
            let node = nodes[n as usize];
            // A corrupt file's plane index out of range reads as the plane x = 0 (rejected by
            // the validator).
            let plane = planes
                .get(node.plane as usize)
                .copied()
                .unwrap_or_else(|| Plane::from_unit_normal(DVec3::X, 0.0).expect("unit"));
            let mut children = [SOLID; 2];
            let mut mixed = [false; 2];
            // Regions numbered front first; back first onto the stack, so the front child is
            // made next, right after its parent.
            for slot in [0, 1] {
                match uniform(&mut tree, node.children[slot], Some(n as usize)) {
                    Some(leaf) => children[slot] = leaf,
                    None => mixed[slot] = true,
                }
            }
            for slot in [1, 0] {
                if mixed[slot] {
                    stack.push((node.children[slot], Some((index, slot))));
                }
            }
            tree.nodes.push(SpaceNode { plane, children });
        }
        tree.starts = grid.map(|shape| {
            let starts = StartGrid::new(shape, &tree.nodes, tree.root);
            (shape.clone(), starts)
        });
        tree
    }

    /// Where the walk of `a -> b` starts: the root, or a node below it that the whole segment
    /// would reach from the root without splitting or touching a plane ([`StartGrid`]).
    #[inline]
    pub(crate) fn start(&self, a: DVec3, b: DVec3) -> u32 {
        match &self.starts {
            Some((shape, starts)) => starts.start(shape, a, b).unwrap_or(self.root),
            None => self.root,
        }
    }

    /// True when start-grid cell `cell` lies wholly in solid (false without a grid).
    pub(crate) fn cell_is_solid(&self, cell: usize) -> bool {
        self.starts
            .as_ref()
            .is_some_and(|(_, starts)| starts.tight(cell) == SOLID)
    }

    /// True when `point` is solid: on a plane (within [`CONTACT`]) only where both sides are,
    /// a side that names no place around the point (with the planes above it lies on: geom's
    /// [`direction_exists`](cspace_geom::exact::direction_exists)) having no say. (Where three
    /// planes meet, the side of the third beyond both others can be a leaf of no volume near the
    /// point, and empty: issue 35.)
    pub fn is_solid(&self, point: DVec3) -> bool {
        self.solid_from(self.start(point, point), point, &mut Vec::new())
    }

    /// The region holding `point`, or `None` in solid, going to the front where it lies on a
    /// plane (within [`CONTACT`]), as [`OnionTree::find_leaf`] does.
    pub fn region_at(&self, point: DVec3) -> Option<u32> {
        let mut at = self.start(point, point);
        while at & REGION == 0 {
            let node = &self.nodes[at as usize];
            at = node.children[usize::from(node.signed_distance(point) < -TREE_BAND)];
        }
        (at != SOLID).then_some(at & !REGION)
    }

    /// The nodes, depth-first (node 0 is the root unless the space is uniform).
    pub fn nodes(&self) -> &[SpaceNode] {
        &self.nodes
    }

    /// The root: node 0, or a region / [`SOLID`] for a space uniform everywhere.
    pub fn root(&self) -> u32 {
        self.root
    }

    /// For each region (a subtree empty in the space), the subtree of the tree it stands for.
    pub fn regions(&self) -> &[NodeRef] {
        &self.regions
    }

    fn solid_from(&self, mut at: u32, point: DVec3, sides: &mut Vec<DVec3>) -> bool {
        loop {
            if at & REGION != 0 {
                return at == SOLID;
            }
            let node = &self.nodes[at as usize];
            let d = node.signed_distance(point);
            if d > TREE_BAND {
                at = node.children[0];
            } else if d < -TREE_BAND {
                at = node.children[1];
            } else {
                let n = node.plane.normal();
                for (child, facing) in node.children.into_iter().zip([n, -n]) {
                    sides.push(facing);
                    let solid = !cspace_geom::exact::direction_exists(sides, &[])
                        || self.solid_from(child, point, sides);
                    sides.pop();
                    if !solid {
                        return false;
                    }
                }
                return true;
            }
        }
    }

    /// Bytes of the nodes and the regions.
    fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<SpaceNode>()
            + self.regions.capacity() * std::mem::size_of::<NodeRef>()
            + self.starts.as_ref().map_or(0, |(_, s)| s.memory_bytes())
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
        // The OR and the AND of the solidity of the leaves below each node; children follow
        // their parents (depth-first order), so fill from the back.
        let mut summary = vec![[0u64, u64::MAX]; nodes.len()];
        for i in (0..nodes.len()).rev() {
            let mut any_all = [0u64, u64::MAX];
            for child in nodes[i].children {
                let [any, all] = match NodeRef::unpack(child) {
                    NodeRef::Leaf(l) => {
                        let m = leaves.get(l as usize).copied().unwrap_or(0);
                        [m, m]
                    }
                    NodeRef::Node(n) if n as usize > i => {
                        summary.get(n as usize).copied().unwrap_or([0, 0])
                    }
                    NodeRef::Node(_) => [0, 0],
                };
                any_all = [any_all[0] | any, any_all[1] & all];
            }
            summary[i] = any_all;
        }
        // One grid for every space (the extent of all the planes); each space keeps its starts.
        let grid = GridShape::over(&planes);
        let space_trees = (0..poses.len())
            .map(|s| SpaceTree::prune(s, grid.as_ref(), &planes, &nodes, &leaves, &summary))
            .collect();
        OnionTree {
            poses,
            planes,
            nodes,
            leaves,
            space_trees,
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
        (0..self.spaces())
            .filter(|&s| self.is_solid(s, point))
            .fold(0, |mask, s| mask | 1 << s)
    }

    /// True when `point` is solid in `space` (see [`OnionTree::point_mask`]).
    pub fn is_solid(&self, space: usize, point: DVec3) -> bool {
        self.space_trees[space].is_solid(point)
    }

    /// The query tree of configuration space `space` (the tree pruned to it): what the collider
    /// walks.
    pub fn space_tree(&self, space: usize) -> &SpaceTree {
        &self.space_trees[space]
    }

    /// Bytes the tree occupies: the struct, the packed nodes, planes and leaf solidity it is
    /// saved as, and the query trees of its spaces (capacity, not just length).
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<OnionTree>()
            + self.poses.capacity() * std::mem::size_of::<Pose>()
            + self.planes.capacity() * std::mem::size_of::<Plane>()
            + self.nodes.capacity() * std::mem::size_of::<PackedNode>()
            + self.leaves.capacity() * std::mem::size_of::<u64>()
            + self.space_trees.capacity() * std::mem::size_of::<SpaceTree>()
            + self
                .space_trees
                .iter()
                .map(SpaceTree::memory_bytes)
                .sum::<usize>()
    }
}
