//! One configuration space of an onion tree as the navigation reads it: the tree pruned to that
//! space, every subtree whose leaves are all empty there one *region*, every subtree all solid one
//! solid child, and the planes inline.
//!
//! The walks mirror the onion's Listing 5 walk (`cspace-onion`'s `trace.rs`), so their answers
//! about solidity are the collision's: a point within [`CONTACT`] of a plane is on it, a stretch
//! lying on a plane is solid only where both sides are (touching is free), and a straddling
//! stretch is split where the whole segment crosses the plane.

use cspace_geom::Plane;
use cspace_geom::collider::lerp;
use cspace_geom::hint::prefetch;
use cspace_geom::tolerance::CONTACT;
use cspace_onion::{NodeRef, OnionTree};
use glam::DVec3;

/// The tag of a child that is not a node: a region (`LEAF | region`) or [`SOLID`].
pub(crate) const LEAF: u32 = 1 << 31;
/// A child whose subtree is solid in the space.
pub(crate) const SOLID: u32 = u32::MAX;

/// A node of a space's pruned tree: its plane and `[front, back]` children (node indices,
/// `LEAF | region`, or [`SOLID`]); 40 bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Node {
    pub plane: Plane,
    pub children: [u32; 2],
}

impl Node {
    /// Where a straddling stretch `[t0, t1]` of `start -> end` crosses the plane (found on the
    /// whole segment, so the same time whatever stretch is walked), the crossing point, and the
    /// near and far children (`da` is the stretch start's signed distance).
    #[inline]
    fn split(
        &self,
        start: DVec3,
        end: DVec3,
        da: f64,
        (t0, t1): (f64, f64),
    ) -> (f64, DVec3, u32, u32) {
        let ds = self.plane.signed_distance(start);
        let de = self.plane.signed_distance(end);
        // max and min, not clamp: a NaN bound would make clamp panic (outside the domain).
        let tm = (ds / (ds - de)).max(t0).min(t1);
        let [front, back] = self.children;
        let (near, far) = if da > 0.0 {
            (front, back)
        } else {
            (back, front)
        };
        (tm, lerp(start, end, tm), near, far)
    }
}

/// The tree of one configuration space, pruned (see the module docs). Nodes are depth-first, a
/// node's front child right after it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SpaceBsp {
    pub nodes: Vec<Node>,
    /// Node 0, or a region / [`SOLID`] for a space uniform everywhere.
    pub root: u32,
    /// For each region, the subtree of the onion tree it stands for.
    pub sources: Vec<NodeRef>,
}

/// A stretch of a segment in one region or in solid: `[t0, t1]` of the whole segment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Stretch {
    pub t0: f64,
    pub t1: f64,
    /// The region, or [`SOLID`].
    pub child: u32,
    /// The plane crossed at `t0`, facing the side the segment comes from; `None` at the start.
    pub entry: Option<Plane>,
}

impl Stretch {
    pub fn solid(&self) -> bool {
        self.child == SOLID
    }
}

/// A stretch still to walk.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    at: u32,
    t0: f64,
    t1: f64,
    a: DVec3,
    b: DVec3,
    entry: Option<Plane>,
}

/// Reusable space for the walks: no walk allocates once this has grown.
#[derive(Debug, Default, Clone)]
pub(crate) struct WalkScratch {
    stack: Vec<Frame>,
    /// Stretch lists for the two sides of a plane a segment lies on.
    pool: Vec<Vec<Stretch>>,
}

/// How a stretch with ends at signed distances `da`, `db` lies against a plane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lie {
    Front,
    Back,
    On,
    Straddle,
}

#[inline]
fn lie(da: f64, db: f64) -> Lie {
    if da >= -CONTACT && db >= -CONTACT {
        if da <= CONTACT && db <= CONTACT {
            Lie::On
        } else {
            Lie::Front
        }
    } else if da <= CONTACT && db <= CONTACT {
        Lie::Back
    } else {
        Lie::Straddle
    }
}

impl SpaceBsp {
    /// Space `space` of `tree`, pruned.
    pub fn new(tree: &OnionTree, space: usize) -> SpaceBsp {
        // Bit `space` of every subtree's solidity: `Some(solid)` when uniform.
        let uniform = uniformity(tree, space);
        let mut bsp = SpaceBsp {
            nodes: Vec::new(),
            root: SOLID,
            sources: Vec::new(),
        };
        let root = tree.root();
        let code = |bsp: &mut SpaceBsp, at: NodeRef| -> Option<u32> {
            let solid = match at {
                NodeRef::Leaf(l) => Some(tree.leaf_is_solid(l, space)),
                NodeRef::Node(n) => uniform[n as usize],
            };
            match solid {
                Some(true) => Some(SOLID),
                Some(false) => {
                    bsp.sources.push(at);
                    Some(LEAF | (bsp.sources.len() as u32 - 1))
                }
                None => None,
            }
        };
        if let Some(c) = code(&mut bsp, root) {
            bsp.root = c;
            return bsp;
        }
        bsp.root = 0;
        // (onion node, parent slot in the pruned tree)
        let mut stack: Vec<(u32, Option<(usize, usize)>)> = Vec::new();
        if let NodeRef::Node(n) = root {
            stack.push((n, None));
        }
        while let Some((n, parent)) = stack.pop() {
            let index = bsp.nodes.len() as u32;
            if let Some((p, slot)) = parent {
                bsp.nodes[p].children[slot] = index;
            }
            bsp.nodes.push(Node {
                plane: tree.node_plane(n),
                children: [SOLID; 2],
            });
            let children = tree.node_children(n);
            // Back first onto the stack, so the front child is made right after its parent.
            let mut pending = Vec::with_capacity(2);
            for slot in [0, 1] {
                match code(&mut bsp, children[slot]) {
                    Some(c) => bsp.nodes[index as usize].children[slot] = c,
                    None => pending.push(slot),
                }
            }
            for &slot in pending.iter().rev() {
                if let NodeRef::Node(c) = children[slot] {
                    stack.push((c, Some((index as usize, slot))));
                }
            }
        }
        bsp
    }

    /// The number of regions.
    pub fn regions(&self) -> usize {
        self.sources.len()
    }

    /// The child holding `point` (a region or [`SOLID`]), going to the front where it lies on a
    /// plane (within [`CONTACT`]), as the onion's `find_leaf` does.
    pub fn child_at(&self, point: DVec3) -> u32 {
        let mut at = self.root;
        while at & LEAF == 0 {
            let node = &self.nodes[at as usize];
            at = node.children[usize::from(node.plane.signed_distance(point) < -CONTACT)];
        }
        at
    }

    /// True when `point` is solid: on a plane (within [`CONTACT`]) only where both sides are.
    pub fn is_solid(&self, point: DVec3) -> bool {
        self.solid_from(self.root, point)
    }

    fn solid_from(&self, mut at: u32, point: DVec3) -> bool {
        loop {
            if at & LEAF != 0 {
                return at == SOLID;
            }
            let node = &self.nodes[at as usize];
            let d = node.plane.signed_distance(point);
            if d > CONTACT {
                at = node.children[0];
            } else if d < -CONTACT {
                at = node.children[1];
            } else {
                if !self.solid_from(node.children[0], point) {
                    return false;
                }
                at = node.children[1];
            }
        }
    }

    /// Walks `start -> end` front to back from the root, calling `visit` with each stretch in
    /// order until it returns false; returns false when stopped.
    pub fn walk(
        &self,
        start: DVec3,
        end: DVec3,
        scratch: &mut WalkScratch,
        visit: &mut dyn FnMut(Stretch) -> bool,
    ) -> bool {
        self.walk_from(self.root, start, end, (0.0, 1.0), None, scratch, visit)
    }

    #[allow(clippy::too_many_arguments)]
    fn walk_from(
        &self,
        from: u32,
        start: DVec3,
        end: DVec3,
        (t0, t1): (f64, f64),
        entry: Option<Plane>,
        scratch: &mut WalkScratch,
        visit: &mut dyn FnMut(Stretch) -> bool,
    ) -> bool {
        let base = scratch.stack.len();
        scratch.stack.push(Frame {
            at: from,
            t0,
            t1,
            a: lerp(start, end, t0),
            b: lerp(start, end, t1),
            entry,
        });
        while scratch.stack.len() > base {
            let Frame {
                mut at,
                t0,
                mut t1,
                a,
                mut b,
                mut entry,
            } = scratch.stack.pop().expect("the stack is above its base");
            loop {
                if at & LEAF != 0 {
                    if !visit(Stretch {
                        t0,
                        t1,
                        child: at,
                        entry,
                    }) {
                        scratch.stack.truncate(base);
                        return false;
                    }
                    break;
                }
                let node = self.nodes[at as usize];
                let da = node.plane.signed_distance(a);
                let db = node.plane.signed_distance(b);
                let on_start = (-CONTACT..=CONTACT).contains(&da);
                match lie(da, db) {
                    Lie::Front => {
                        if on_start && entry.is_none() {
                            entry = Some(node.plane.flipped());
                        }
                        at = node.children[0];
                    }
                    Lie::Back => {
                        if on_start && entry.is_none() {
                            entry = Some(node.plane);
                        }
                        at = node.children[1];
                    }
                    Lie::On => {
                        if !self.both_sides(
                            node.children,
                            start,
                            end,
                            (t0, t1),
                            entry,
                            scratch,
                            visit,
                        ) {
                            scratch.stack.truncate(base);
                            return false;
                        }
                        break;
                    }
                    Lie::Straddle => {
                        let (tm, m, near, far) = node.split(start, end, da, (t0, t1));
                        // The far side is entered through the plane, facing the near side.
                        let far_entry = if da > 0.0 {
                            node.plane
                        } else {
                            node.plane.flipped()
                        };
                        scratch.stack.push(Frame {
                            at: far,
                            t0: tm,
                            t1,
                            a: m,
                            b,
                            entry: Some(far_entry),
                        });
                        at = near;
                        t1 = tm;
                        b = m;
                    }
                }
            }
        }
        true
    }

    /// Both children of a node the stretch lies on, merged: solid only where both are.
    #[allow(clippy::too_many_arguments)]
    fn both_sides(
        &self,
        children: [u32; 2],
        start: DVec3,
        end: DVec3,
        span: (f64, f64),
        entry: Option<Plane>,
        scratch: &mut WalkScratch,
        visit: &mut dyn FnMut(Stretch) -> bool,
    ) -> bool {
        let mut sides = [
            scratch.pool.pop().unwrap_or_default(),
            scratch.pool.pop().unwrap_or_default(),
        ];
        for (side, child) in sides.iter_mut().zip(children) {
            side.clear();
            self.walk_from(child, start, end, span, entry, scratch, &mut |s| {
                side.push(s);
                true
            });
        }
        let [front, back] = &sides;
        let (mut i, mut j) = (0, 0);
        let mut go_on = true;
        while go_on && i < front.len() && j < back.len() {
            let (f, b) = (front[i], back[j]);
            let solid = f.solid() && b.solid();
            // The merged stretch is empty where either side is: name the empty side's region.
            let child = if solid {
                SOLID
            } else if !f.solid() {
                f.child
            } else {
                b.child
            };
            let entry = if f.t0 > b.t0 || (f.t0 == b.t0 && f.entry.is_some()) {
                f.entry
            } else {
                b.entry
            };
            go_on = visit(Stretch {
                t0: f.t0.max(b.t0),
                t1: f.t1.min(b.t1),
                child,
                entry,
            });
            if f.t1 <= b.t1 {
                i += 1;
            }
            if b.t1 <= f.t1 {
                j += 1;
            }
        }
        scratch.pool.extend(sides);
        go_on
    }

    /// The first entry into solid on `start -> end` after the solid stretch the segment starts in
    /// (if any): its time on the segment and the plane entered (facing the segment's start);
    /// `None` when the segment never enters solid again. Also tells whether the start is solid.
    pub fn first_entry(
        &self,
        start: DVec3,
        end: DVec3,
        scratch: &mut WalkScratch,
    ) -> (bool, Option<(f64, Option<Plane>)>) {
        let mut first = true;
        let mut in_start = false;
        let mut start_solid = false;
        let mut hit = None;
        self.walk(start, end, scratch, &mut |s| {
            if first {
                first = false;
                if s.solid() {
                    // A start on a face whose stretch enters solid is an entry at time 0.
                    start_solid = s.entry.is_none() || self.is_solid(start);
                    if !start_solid {
                        hit = Some((s.t0, s.entry));
                        return false;
                    }
                    in_start = true;
                }
                return true;
            }
            if s.t1 <= s.t0 {
                return true;
            }
            if in_start {
                if !s.solid() {
                    in_start = false;
                }
                return true;
            }
            if s.solid() {
                hit = Some((s.t0, s.entry));
                return false;
            }
            true
        });
        (start_solid, hit)
    }

    /// True when the segment has a stretch of positive length in solid (Hammersley's
    /// `RayOccluded`, front to back): the start in solid blocks it; touching and grazing do not.
    #[cfg(test)]
    pub fn occluded(&self, start: DVec3, end: DVec3, scratch: &mut WalkScratch) -> bool {
        self.occluded_from(self.root, start, end, scratch)
    }

    /// [`SpaceBsp::occluded`] from node `from`, which the whole segment must reach from the root
    /// without touching a plane above it.
    pub fn occluded_from(
        &self,
        from: u32,
        start: DVec3,
        end: DVec3,
        scratch: &mut WalkScratch,
    ) -> bool {
        if start == end {
            return self.is_solid(start);
        }
        let base = scratch.stack.len();
        let mut next = Some((from, 0.0, 1.0, start, end));
        loop {
            let (mut at, t0, mut t1, a, mut b) = match next.take() {
                Some(n) => n,
                None if scratch.stack.len() > base => {
                    let f = scratch.stack.pop().expect("the stack is above its base");
                    (f.at, f.t0, f.t1, f.a, f.b)
                }
                None => return false,
            };
            loop {
                if at & LEAF != 0 {
                    if at == SOLID && t1 > t0 {
                        scratch.stack.truncate(base);
                        return true;
                    }
                    break;
                }
                let node = &self.nodes[at as usize];
                // Ask for both children while the plane is tested (the onion's walk does the
                // same): the one taken arrives early. A region's or solid's tag names no node
                // in range, or a harmless one.
                for child in node.children {
                    if let Some(next) = self.nodes.get((child & !LEAF) as usize) {
                        prefetch(next);
                    }
                }
                let da = node.plane.signed_distance(a);
                let db = node.plane.signed_distance(b);
                if da > CONTACT && db > CONTACT {
                    at = node.children[0];
                    continue;
                }
                if da < -CONTACT && db < -CONTACT {
                    at = node.children[1];
                    continue;
                }
                match lie(da, db) {
                    Lie::Front => at = node.children[0],
                    Lie::Back => at = node.children[1],
                    Lie::On => {
                        let children = node.children;
                        let mut blocked = false;
                        self.both_sides(children, start, end, (t0, t1), None, scratch, &mut |s| {
                            blocked = s.solid() && s.t1 > s.t0;
                            !blocked
                        });
                        if blocked {
                            scratch.stack.truncate(base);
                            return true;
                        }
                        break;
                    }
                    Lie::Straddle => {
                        let (tm, m, near, far) = node.split(start, end, da, (t0, t1));
                        scratch.stack.push(Frame {
                            at: far,
                            t0: tm,
                            t1,
                            a: m,
                            b,
                            entry: None,
                        });
                        at = near;
                        t1 = tm;
                        b = m;
                    }
                }
            }
        }
    }
}

/// For each node of `tree`, whether its subtree is uniformly solid (`Some(true)`), uniformly empty
/// (`Some(false)`) or mixed (`None`) in `space`.
fn uniformity(tree: &OnionTree, space: usize) -> Vec<Option<bool>> {
    let mut out = vec![None; tree.node_count()];
    // Post-order without recursion: a node is done once both children are.
    let mut stack: Vec<(u32, bool)> = Vec::new();
    if let NodeRef::Node(n) = tree.root() {
        stack.push((n, false));
    }
    let leaf = |l: u32| Some(tree.leaf_is_solid(l, space));
    while let Some((n, expanded)) = stack.pop() {
        let children = tree.node_children(n);
        if !expanded {
            stack.push((n, true));
            for c in children {
                if let NodeRef::Node(c) = c {
                    stack.push((c, false));
                }
            }
            continue;
        }
        let [f, b] = children.map(|c| match c {
            NodeRef::Leaf(l) => leaf(l),
            NodeRef::Node(c) => out[c as usize],
        });
        out[n as usize] = match (f, b) {
            (Some(x), Some(y)) if x == y => Some(x),
            _ => None,
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use cspace_geom::generate::{RandomBoxes, Rng};
    use cspace_onion::{CompileOptions, Pose, Transition, compile};

    use super::*;

    /// A small world of random boxes (half rotated) and its tree for the Quake poses and the
    /// point.
    fn world_and_tree(seed: u64) -> (cspace_geom::World, OnionTree) {
        let world = RandomBoxes {
            count: 40,
            extent: 300.0,
            seed,
            ..RandomBoxes::BENCHMARK
        }
        .world();
        let poses = [
            Pose::quake_standing(),
            Pose::quake_crouching(),
            Pose::point(),
        ];
        let tree = compile(&world, &poses, &CompileOptions::default())
            .expect("random boxes compile")
            .tree;
        (world, tree)
    }

    /// Every region is an empty subtree, every solid child a solid one: the pruned tree answers
    /// the point queries of the onion tree, bit for bit.
    #[test]
    fn pruned_spaces_answer_point_queries_as_the_tree() {
        for seed in [1, 2] {
            let (world, tree) = world_and_tree(seed);
            let bounds = world.bounds().loosened(48.0);
            let mut rng = Rng::new(seed);
            for space in 0..tree.spaces() {
                let bsp = SpaceBsp::new(&tree, space);
                for _ in 0..5000 {
                    let p = rng.point_in(&bounds);
                    assert_eq!(
                        bsp.is_solid(p),
                        tree.is_solid(space, p),
                        "space {space} {p}"
                    );
                    let leaf = tree.find_leaf(p);
                    let child = bsp.child_at(p);
                    assert_eq!(child == SOLID, tree.leaf_is_solid(leaf, space), "{p}");
                    if child != SOLID {
                        // The region's subtree holds the leaf.
                        let source = bsp.sources[(child & !LEAF) as usize];
                        assert!(holds(&tree, source, leaf), "{p}");
                    }
                }
            }
        }
    }

    fn holds(tree: &OnionTree, at: NodeRef, leaf: u32) -> bool {
        match at {
            NodeRef::Leaf(l) => l == leaf,
            NodeRef::Node(n) => tree.node_children(n).iter().any(|&c| holds(tree, c, leaf)),
        }
    }

    /// The walk finds the first entry into solid where the onion's Listing 5 walk finds the first
    /// empty-to-solid transition, for segments starting free; and a segment is occluded exactly
    /// when it has a transition or is all solid.
    #[test]
    fn walks_agree_with_find_first_transition() {
        let mut scratch = WalkScratch::default();
        for seed in [3, 4] {
            let (world, tree) = world_and_tree(seed);
            let bounds = world.bounds().loosened(48.0);
            let mut rng = Rng::new(seed);
            let mut hits = 0;
            for space in 0..tree.spaces() {
                let bsp = SpaceBsp::new(&tree, space);
                for i in 0..4000 {
                    let a = rng.point_in(&bounds);
                    // Half the segments axial (along floors and walls of the boxes' faces).
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
                    let (start_solid, entry) = bsp.first_entry(a, b, &mut scratch);
                    assert!(!start_solid);
                    match tree.find_first_transition(
                        &mut cspace_geom::QueryContext::new(),
                        space,
                        a,
                        b,
                    ) {
                        Transition::EmptyToSolid(c) => {
                            hits += 1;
                            let (t, plane) = entry.expect("a hit");
                            assert_eq!(t.to_bits(), c.time.to_bits(), "{a} {b}");
                            assert_eq!(plane.map(|p| p.normal()), Some(c.plane.normal()));
                            assert!(bsp.occluded(a, b, &mut scratch));
                        }
                        Transition::Empty => {
                            assert_eq!(entry, None, "{a} {b}");
                            assert!(!bsp.occluded(a, b, &mut scratch));
                        }
                        other => panic!("{other:?} from a free start"),
                    }
                }
            }
            assert!(hits > 1000, "the test hits walls ({hits})");
        }
    }
}
