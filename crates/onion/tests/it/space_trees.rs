//! The query tree of one configuration space (`OnionTree::space_tree`), as the navigation reads
//! it: its regions are the subtrees empty in the space, its walk is the collider's.

use cspace_geom::generate::Rng;
use cspace_onion::{
    CompileOptions, NodeRef, OnionTree, Pose, SOLID, SolidEntry, SpaceChild, Transition,
    WalkScratch, compile,
};

use crate::common::{quake_poses, random_boxes};

/// Random boxes (half rotated) and their tree for the Quake poses and the point.
fn tree(seed: u64) -> (cspace_geom::World, OnionTree) {
    let world = random_boxes(40, seed);
    let mut poses = quake_poses();
    poses.push(Pose::point());
    let tree = compile(&world, &poses, &CompileOptions::default())
        .expect("random boxes compile")
        .tree;
    (world, tree)
}

/// True when the subtree `at` holds leaf `leaf`.
fn holds(tree: &OnionTree, at: NodeRef, leaf: u32) -> bool {
    match at {
        NodeRef::Leaf(l) => l == leaf,
        NodeRef::Node(n) => tree.node_children(n).iter().any(|&c| holds(tree, c, leaf)),
    }
}

/// Every leaf below a subtree is empty in `space`.
fn all_empty(tree: &OnionTree, at: NodeRef, space: usize) -> bool {
    match at {
        NodeRef::Leaf(l) => !tree.leaf_is_solid(l, space),
        NodeRef::Node(n) => tree
            .node_children(n)
            .iter()
            .all(|&c| all_empty(tree, c, space)),
    }
}

/// Every region is a subtree empty in its space, and a point's region is the one whose subtree
/// holds the point's leaf: the point queries of the pruned tree are the full tree's.
#[test]
fn regions_are_the_empty_subtrees_holding_the_points_leaves() {
    for seed in [1, 2] {
        let (world, tree) = tree(seed);
        let bounds = world.bounds().loosened(48.0);
        let mut rng = Rng::new(seed);
        for space in 0..tree.spaces() {
            let st = tree.space_tree(space);
            assert!(
                st.regions().len() > 10,
                "space {space}: a test of many regions"
            );
            for &source in st.regions() {
                assert!(all_empty(&tree, source, space), "{source:?}");
            }
            for _ in 0..5000 {
                let p = rng.point_in(&bounds);
                assert_eq!(st.is_solid(p), tree.is_solid(space, p), "space {space} {p}");
                let leaf = tree.find_leaf(p);
                match st.region_at(p) {
                    None => assert!(tree.leaf_is_solid(leaf, space), "{p}"),
                    Some(r) => assert!(holds(&tree, st.regions()[r as usize], leaf), "{p}"),
                }
            }
        }
    }
}

/// The children decode to nodes, regions in range, or solid; every region is named once.
#[test]
fn every_region_is_one_child() {
    let (_, tree) = tree(3);
    for space in 0..tree.spaces() {
        let st = tree.space_tree(space);
        let mut named = vec![0; st.regions().len()];
        for node in st.nodes() {
            for child in node.children {
                match SpaceChild::of(child) {
                    SpaceChild::Node(n) => assert!((n as usize) < st.nodes().len()),
                    SpaceChild::Region(r) => named[r as usize] += 1,
                    SpaceChild::Solid => assert_eq!(child, SOLID),
                }
            }
        }
        assert!(named.iter().all(|&n| n == 1), "space {space}: {named:?}");
    }
}

/// The public walk's first entry is Listing 5's first empty-to-solid transition for segments
/// starting free (time bit for bit, the same plane), and its stretches name the regions the
/// segment passes through.
#[test]
fn the_walk_agrees_with_find_first_transition() {
    let mut scratch = WalkScratch::default();
    let mut listing5 = WalkScratch::default();
    for seed in [4, 5] {
        let (world, tree) = tree(seed);
        let bounds = world.bounds().loosened(48.0);
        let mut rng = Rng::new(seed);
        let mut hits = 0;
        for space in 0..tree.spaces() {
            let st = tree.space_tree(space);
            for i in 0..4000 {
                let a = rng.point_in(&bounds);
                // Half the segments axial (along the boxes' faces).
                let b = if i % 2 == 0 {
                    rng.point_in(&bounds)
                } else {
                    let mut b = a;
                    b[i / 2 % 3] += rng.range(-200.0, 200.0);
                    b
                };
                if tree.is_solid(space, a) {
                    continue;
                }
                let entry = st.first_entry(a, b, &mut scratch);
                assert!(!entry.start_solid());
                match tree.find_first_transition(&mut listing5, space, a, b) {
                    Transition::EmptyToSolid(c) => {
                        hits += 1;
                        let SolidEntry::Hit { time, plane, .. } = entry else {
                            panic!("{a} {b}: {entry:?}");
                        };
                        assert_eq!(time.to_bits(), c.time.to_bits(), "{a} {b}");
                        assert_eq!(plane, Some(c.plane));
                        // The walk's first solid stretch is entered there, through that plane.
                        let mut first_solid = None;
                        st.walk(a, b, &mut scratch, |s| {
                            if s.solid() && s.t1 > s.t0 {
                                first_solid = Some((s.t0, st.entry_plane(&s)));
                                return false;
                            }
                            true
                        });
                        assert_eq!(first_solid, Some((time, plane)), "{a} {b}");
                    }
                    Transition::Empty => {
                        assert_eq!(entry, SolidEntry::Free { start_solid: false })
                    }
                    other => panic!("{other:?} from a free start"),
                }
                // Each empty stretch's middle is in its region.
                st.walk(a, b, &mut scratch, |s| {
                    if let SpaceChild::Region(r) = SpaceChild::of(s.child)
                        && s.t1 - s.t0 > 1e-6
                    {
                        let m = a.lerp(b, (s.t0 + s.t1) * 0.5);
                        if let Some(at) = st.region_at(m) {
                            let leaf = tree.find_leaf(m);
                            assert!(
                                at == r || holds(&tree, st.regions()[r as usize], leaf),
                                "{a} {b}: region {r} at {m}, {at} there"
                            );
                        }
                    }
                    true
                });
            }
        }
        assert!(hits > 1000, "the test hits walls ({hits})");
    }
}
