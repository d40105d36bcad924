//! Tree statistics: size, depth, polygons per space, leaf solidity patterns, compile time.

use std::collections::BTreeMap;
use std::fmt;

use super::LeafInfoView;
use crate::tree::OnionTree;

/// Seconds spent in each compile stage (wall clock).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StageSeconds {
    /// Expanding the brushes by every pose.
    pub expand: f64,
    /// The CSG union of each space's faces and the plane table.
    pub union: f64,
    /// Building the tree (Listing 2), leaf solidity included.
    pub build: f64,
    /// Filling the outside (when asked).
    pub fill: f64,
    /// Everything.
    pub total: f64,
}

/// How many leaves share one solidity pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeafPattern {
    /// One character per space, in pose order: `S` solid, `E` empty.
    pub pattern: String,
    /// Leaves with this pattern.
    pub leaves: usize,
}

/// What compiling a tree found.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeStats {
    /// Configuration spaces (poses).
    pub spaces: usize,
    /// Branch nodes.
    pub nodes: usize,
    /// Leaves.
    pub leaves: usize,
    /// Entries of the deduplicated plane table.
    pub planes: usize,
    /// Deepest leaf (the root is at depth 0).
    pub depth_max: usize,
    /// Mean leaf depth.
    pub depth_mean: f64,
    /// Polygons of each space's CSG union, before splitting.
    pub polygons_before: Vec<usize>,
    /// Polygons of each space reaching the leaves, after splitting.
    pub polygons_after: Vec<usize>,
    /// Leaves whose cell has no volume (solid in every space).
    pub zero_volume_leaves: usize,
    /// Leaf counts per solidity pattern, most common first (ties in pattern order).
    pub leaf_patterns: Vec<LeafPattern>,
    /// Compile time per stage.
    pub compile_seconds: StageSeconds,
    /// What the outside fill did in each space.
    pub outside_fill: Vec<FillOutcome>,
    /// Branch nodes of each space's query tree (the tree with every subtree uniform in that
    /// space cut off: what a trace in the space walks).
    pub query_nodes: Vec<usize>,
    /// Bytes the tree occupies in memory ([`OnionTree::memory_bytes`]).
    pub bytes: usize,
}

/// What the outside fill did in one space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FillOutcome {
    /// Not asked for.
    Off,
    /// No spawn point lies in an empty leaf of this space.
    NoSpawn,
    /// The flood from the spawn points reached the world box: the map is not sealed for this
    /// pose; left unfilled.
    Leaked,
    /// Sealed, but left unfilled because a space of a larger pose containing this one leaked
    /// (filling it would break the nesting invariant).
    Nested,
    /// Sealed: this many empty leaves became solid.
    Filled {
        /// Leaves made solid.
        leaves: usize,
    },
}

impl TreeStats {
    pub(crate) fn new(
        tree: &OnionTree,
        leaf_info: &[LeafInfoView],
        polygons_before: Vec<usize>,
        polygons_after: Vec<usize>,
        compile_seconds: StageSeconds,
    ) -> TreeStats {
        let mut stats = TreeStats::of_tree(tree);
        stats.polygons_before = polygons_before;
        stats.polygons_after = polygons_after;
        stats.zero_volume_leaves = leaf_info.iter().filter(|l| l.zero_volume).count();
        stats.compile_seconds = compile_seconds;
        stats
    }

    /// The statistics a tree itself tells (polygon counts, zero-volume leaves and times are
    /// only known to the compiler and left at zero).
    pub fn of_tree(tree: &OnionTree) -> TreeStats {
        let spaces = tree.spaces();
        let mut patterns: BTreeMap<String, usize> = BTreeMap::new();
        for &mask in &tree.leaves {
            let pattern: String = (0..spaces)
                .map(|s| if mask >> s & 1 != 0 { 'S' } else { 'E' })
                .collect();
            *patterns.entry(pattern).or_default() += 1;
        }
        let mut leaf_patterns: Vec<LeafPattern> = patterns
            .into_iter()
            .map(|(pattern, leaves)| LeafPattern { pattern, leaves })
            .collect();
        leaf_patterns.sort_by_key(|p| std::cmp::Reverse(p.leaves));
        let (depth_max, depth_sum) = leaf_depths(tree);
        TreeStats {
            spaces,
            nodes: tree.nodes.len(),
            leaves: tree.leaves.len(),
            planes: tree.planes.len(),
            depth_max,
            depth_mean: depth_sum as f64 / tree.leaves.len().max(1) as f64,
            polygons_before: vec![0; spaces],
            polygons_after: vec![0; spaces],
            zero_volume_leaves: 0,
            leaf_patterns,
            compile_seconds: StageSeconds::default(),
            outside_fill: vec![FillOutcome::Off; spaces],
            query_nodes: (0..spaces)
                .map(|s| tree.space_tree(s).nodes.len())
                .collect(),
            bytes: tree.memory_bytes(),
        }
    }
}

/// The deepest leaf and the sum of leaf depths (iterative walk).
fn leaf_depths(tree: &OnionTree) -> (usize, usize) {
    let (mut max, mut sum) = (0usize, 0usize);
    let mut stack = vec![(tree.root(), 0usize)];
    while let Some((at, depth)) = stack.pop() {
        match at {
            crate::NodeRef::Leaf(_) => {
                max = max.max(depth);
                sum += depth;
            }
            crate::NodeRef::Node(n) => {
                for child in tree.node_children(n) {
                    stack.push((child, depth + 1));
                }
            }
        }
    }
    (max, sum)
}

impl fmt::Display for TreeStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} spaces, {} nodes ({} per space's queries), {} leaves, {} planes, depth {} (mean {:.1}), {:.1} MB, {} zero-volume leaves, compiled in {:.3} s",
            self.spaces,
            self.nodes,
            self.query_nodes
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join("/"),
            self.leaves,
            self.planes,
            self.depth_max,
            self.depth_mean,
            self.bytes as f64 / 1e6,
            self.zero_volume_leaves,
            self.compile_seconds.total
        )
    }
}
