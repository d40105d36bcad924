//! The edit fuzz (issue 17): a saved tree edited with its checksum recomputed is refused at load,
//! refused by `verify`, or answers exactly as the original.

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::{Collider, DVec3, ExactCollider, Hit, WithContext, World};
use cspace_onion::{CompileOptions, OnionCollider, OnionTree, VerifyOptions, compile};

use crate::common::{Layout, differ, put, quake_poses, random_boxes, resealed, shape};

/// One edit: what it does, and the bytes it leaves.
struct Edit {
    what: String,
    bytes: Vec<u8>,
}

/// The deterministic edits of `tree` (saved as `bytes`): plane distances moved by small and large
/// amounts, plane normals turned to other unit normals, node planes swapped for others, children
/// swapped, children pointed at other leaves, solidity bits flipped within the spaces.
fn edits(tree: &OnionTree, bytes: &[u8], seed: u64) -> Vec<Edit> {
    let at = Layout::of(tree);
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut edit = |what: String, change: &dyn Fn(&mut Vec<u8>)| {
        let mut b = bytes.to_vec();
        change(&mut b);
        out.push(Edit {
            what,
            bytes: resealed(b),
        });
    };
    let planes = tree.planes().len();
    let nodes = tree.node_count();
    let leaves = tree.leaf_count();
    let write_plane = |b: &mut Vec<u8>, i: usize, n: DVec3, d: f64| {
        for (k, x) in [n.x, n.y, n.z, d].iter().enumerate() {
            put(b, at.plane(i) + 8 * k, &x.to_le_bytes());
        }
    };
    for _ in 0..40 {
        let i = rng.below(planes);
        let p = tree.planes()[i];
        let ulp = f64::from_bits(p.dist().to_bits() + 1) - p.dist();
        for delta in [
            ulp, -ulp, 1e-12, -1e-12, 1e-9, -1e-9, 1e-6, -1e-6, 1e-3, -1e-3, 0.5, -0.5, 16.0,
            -16.0, 1000.0, -1000.0,
        ] {
            let d = p.dist() + delta;
            edit(
                format!("plane {i} distance {} by {delta:e}", p.dist()),
                &|b| write_plane(b, i, p.normal(), d),
            );
        }
        let n = p.normal();
        let other = tree.planes()[rng.below(planes)].normal();
        let tilted = (n + rng.unit_vector() * 1e-6).normalize();
        let turned = (n + rng.unit_vector() * 0.3).normalize();
        for (how, normal) in [
            ("another plane's normal", other),
            ("its normal tilted by 1e-6", tilted),
            ("its normal turned by 0.3", turned),
            ("its normal's axes rotated", DVec3::new(n.y, n.z, n.x)),
            ("its normal reversed", -n),
        ] {
            edit(format!("plane {i}: {how}"), &|b| {
                write_plane(b, i, normal, p.dist())
            });
        }
    }
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    for _ in 0..250 {
        let n = rng.below(nodes);
        let plane = rng.below(planes) as u32;
        edit(
            format!("node {n} plane {} -> {plane}", u32_at(at.node(n))),
            &|b| put(b, at.node(n), &plane.to_le_bytes()),
        );
    }
    for _ in 0..200 {
        let n = rng.below(nodes);
        edit(format!("node {n} children swapped"), &|b| {
            let (f, k) = (at.node(n) + 4, at.node(n) + 8);
            let front: [u8; 4] = b[f..f + 4].try_into().unwrap();
            b.copy_within(k..k + 4, f);
            put(b, k, &front);
        });
    }
    for _ in 0..200 {
        let n = rng.below(nodes);
        let side = rng.below(2);
        let leaf = rng.below(leaves) as u32;
        edit(format!("node {n} child {side} -> leaf {leaf}"), &|b| {
            put(
                b,
                at.node(n) + 4 + 4 * side,
                &(leaf | 1 << 31).to_le_bytes(),
            )
        });
    }
    for _ in 0..500 {
        let l = rng.below(leaves);
        let s = rng.below(tree.spaces());
        edit(format!("leaf {l} space {s} flipped"), &|b| {
            let mask = tree.leaf_mask(l as u32) ^ 1 << s;
            put(b, at.leaf(l), &mask.to_le_bytes())
        });
    }
    out
}

/// The fixed queries the answers are compared on: per pose, segments across the world and short
/// ones, and points.
struct Queries {
    segments: Vec<(DVec3, DVec3)>,
    points: Vec<DVec3>,
}

impl Queries {
    fn new(world: &World, seed: u64) -> Queries {
        let bounds = world.bounds().loosened(48.0);
        let mut rng = Rng::new(seed);
        let mut segments = Vec::new();
        for _ in 0..150 {
            segments.push((rng.point_in(&bounds), rng.point_in(&bounds)));
            let a = rng.point_in(&bounds);
            segments.push((a, a + rng.unit_vector() * rng.range(1.0, 64.0)));
        }
        let points = (0..300).map(|_| rng.point_in(&bounds)).collect();
        Queries { segments, points }
    }

    /// Every answer of `collider` to the queries, for each pose.
    fn answers(&self, collider: impl Collider) -> (Vec<Hit>, Vec<bool>) {
        let mut collider = WithContext::new(collider);
        let (mut hits, mut solid) = (Vec::new(), Vec::new());
        for pose in quake_poses() {
            let prepared = collider.prepare(&shape(&pose)).unwrap();
            for &(a, b) in &self.segments {
                hits.push(collider.trace(&prepared, a, b));
            }
            for &p in &self.points {
                solid.push(collider.is_solid(&prepared, p));
            }
        }
        (hits, solid)
    }
}

/// `name`'s value, or `default` when unset.
fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .map(|v| v.parse().unwrap_or_else(|_| panic!("{name} is a count")))
        .unwrap_or(default)
}

/// About 2,000 edits of the tree of 8 random boxes (`CSPACE_ONION_EDIT_BOXES` and
/// `CSPACE_ONION_EDIT_SEED` choose another world): each is refused at load, refused by `verify`,
/// or harmless: its 900 traces and 900 point queries (300 of each per pose) answer bit for bit as
/// the original tree's, which agree with the exact reference.
#[test]
fn edited_trees_are_refused_or_answer_as_the_original() {
    let boxes = env_or("CSPACE_ONION_EDIT_BOXES", 8);
    let seed = env_or("CSPACE_ONION_EDIT_SEED", 4) as u64;
    let world = Arc::new(random_boxes(boxes, seed));
    let tree = compile(&world, &quake_poses(), &CompileOptions::default())
        .unwrap()
        .tree;
    let bytes = tree.to_bytes();
    let queries = Queries::new(&world, 11);
    let original = queries.answers(OnionCollider::new(world.clone(), tree.clone()).unwrap());
    // The original answers as the exact reference, so an edit answering as the original does too
    // (and bit for bit, brush ids included).
    let (hits, solid) = queries.answers(ExactCollider::new(world.clone()));
    for (i, (onion, exact)) in original.0.iter().zip(&hits).enumerate() {
        assert_eq!(differ(onion, exact), None, "trace {i}: {onion:?} {exact:?}");
    }
    assert_eq!(original.1, solid, "point queries");
    let (mut at_load, mut by_verify, mut harmless) = (0, 0, 0);
    let mut slipped = Vec::new();
    let edits = edits(&tree, &bytes, 17);
    for edit in &edits {
        let Ok(edited) = OnionTree::from_bytes(&edit.bytes) else {
            at_load += 1;
            continue;
        };
        if edited.verify(&world, &VerifyOptions::default()).is_err() {
            by_verify += 1;
            continue;
        }
        if queries.answers(OnionCollider::new(world.clone(), edited).unwrap()) == original {
            harmless += 1;
        } else {
            slipped.push(edit.what.clone());
        }
    }
    let counts = format!(
        "{} edits of the tree of {boxes} random boxes (seed {seed}, {} nodes): {at_load} refused \
         at load, {by_verify} by verify, {harmless} without effect, {} with wrong answers",
        edits.len(),
        tree.node_count(),
        slipped.len()
    );
    eprintln!("{counts}");
    assert!(slipped.is_empty(), "{counts}:\n{}", slipped.join("\n"));
}
