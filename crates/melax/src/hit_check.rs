//! `HitCheckBSP` (Melax Section 3), iterative over the packed nodes with a reused stack.
//!
//! The segment is kept as one parameter interval `[t0, t1]` of `start + t * (end - start)`. At a
//! node the plane is shifted up by the shape's support in `-n` for the under (back) child and
//! down by its support in `+n` for the over (front) child; each child gets the part of the
//! interval on its side of its shifted plane, so the two parts overlap. The child nearer the start
//! is tried first, and a hit pulls the end in for everything tried after it (a global bound, which
//! is the paper's `v1 = Impact` applied to every pending subtree).
//!
//! Solid means deeper than [`CONTACT`](cspace_geom::tolerance::CONTACT) inside, as in every backend: each child keeps the part of
//! the interval where the shape is more than [`CONTACT`](cspace_geom::tolerance::CONTACT) past its shifted plane, exactly as geom's
//! [`cspace_geom::exact::span_of_planes`] does for a brush, so the interval that reaches a solid
//! leaf is that cell's span (the depth compared with [`TREE_BAND`], `CONTACT` less the reach of
//! the tree's plane table's merge, so that a position found free is free for the exact backend
//! too). A move that starts inside a cell falls back to collecting every
//! cell's span and merging them as the exact backend merges brushes
//! ([`cspace_geom::exact::first_entry`]).
//!
//! A shape without width across a node's plane (a point, a flat box) can lie on it, deep on
//! neither side: a ray down a seam of touching cells, or along a plane the tree splits solid by.
//! The walk then stops (`Outcome::OnPlane`) and the collider answers from every cell along the
//! segment with the sides of such planes it lies behind (`collect_thin`), taken in the sectors
//! around the segment as the exact backend takes brushes; the start (and a point query) is
//! solid where the cells it touches cover every direction around it (`thin_point_solid`).

use std::ops::Range;

use cspace_geom::exact::{AcrossScratch, ActivePlane, Span, THIN, covers_point};
use cspace_geom::hint::prefetch;
use cspace_geom::tolerance::{SIDE_GUARD, TREE_BAND};
use cspace_geom::{DVec3, Plane};

use crate::offsets::Offsets;
use crate::tree::{EMPTY, LEAF, MelaxTree};
use cspace_geom::tolerance::{BEFORE_START, SAME_TIME};

/// The interval starts [`BEFORE_START`] before the segment.
const T_BEFORE: f64 = -BEFORE_START;

/// Two entries closer than this (in segment parameter) are simultaneous: the exact backend's
/// tie rule for an edge or corner shared by two solids.
pub(crate) const TIE: f64 = SAME_TIME;

/// No entry plane yet.
const NO_ENTRY: u32 = u32::MAX;

/// A pending subtree with the part of the segment that reaches it.
#[derive(Debug, Clone, Copy)]
struct Frame {
    child: u32,
    /// The node whose shifted plane set `t0`, times 2, plus 1 for the over side.
    entry: u32,
    t0: f64,
    t1: f64,
    t1_loose: f64,
}

/// Reused buffers: no allocation per trace once warm.
#[derive(Debug, Default, Clone)]
pub struct Scratch {
    stack: Vec<Frame>,
    nodes: Vec<u32>,
    pub(crate) spans: Vec<(Span, u32)>,
    /// A thin shape's walk ([`collect_thin`]): the frames with their chain of sides taken, the
    /// chains (each side's normal facing it, and the chain above), the cells' spans with the
    /// range of their sides in `facing`.
    thin_stack: Vec<(Frame, u32)>,
    chains: Vec<(DVec3, u32)>,
    pub(crate) thin_spans: Vec<(Span, u32, Range<usize>)>,
    pub(crate) facing: Vec<DVec3>,
    pub(crate) across: AcrossScratch<u32>,
}

/// What the fast traversal found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Outcome {
    /// No solid cell is entered within the segment.
    Miss,
    /// The start is inside a cell (the spans must be merged).
    StartSolid,
    /// The segment lies on a plane the shape has no width across, with solid on both sides:
    /// [`collect_thin`] and geom's `first_entry_across` answer.
    OnPlane,
    /// The first entry: the cell, its entry plane (see [`entry_plane`]) and the parameter at
    /// which the shape is [`CONTACT`] deep.
    Hit { cell: u32, entry: u32, enter: f64 },
}

/// The two children of `node` for frame `f`: `[front, back]`, and whether the back is nearer
/// the start (tried first). Each keeps the part of the frame where the shape is more than
/// [`CONTACT`] past its side's shifted plane (geom's `span_of_planes` rule for one plane).
/// `LOOSE` also tracks the loose ends (only the span merge needs them).
///
/// The third value is true when the frame is deep on neither side anywhere: it lies on the
/// plane, the shape having no width across it (a point, a flat box). Neither child then keeps
/// it, and the caller walks both sides for the sectors around the segment ([`collect_thin`]).
#[inline(always)]
fn split<O: Offsets, const LOOSE: bool>(
    tree: &MelaxTree,
    offsets: &O,
    index: u32,
    f: &Frame,
    start: DVec3,
    end: DVec3,
) -> ([Option<Frame>; 2], bool, bool) {
    let node = &tree.nodes[index as usize];
    // Both children while this node's plane is tested.
    for child in node.children {
        prefetch_child(tree, child);
    }
    let (back, front) = offsets.offsets(node.normal, node.horizontal());
    let (d0, d1) = node.distances(start, end);
    let rate = d0 - d1;
    // Under side: g = f - back must be below -CONTACT; over side: g = -f - front (its rate is
    // -rate). One reciprocal serves both.
    let g_under = d0 - back;
    let g_over = -d0 - front;
    let mut under = Frame {
        child: node.children[1],
        ..*f
    };
    let mut over = Frame {
        child: node.children[0],
        ..*f
    };
    if rate == 0.0 {
        let (deep_over, deep_under) = (g_over < -TREE_BAND, g_under < -TREE_BAND);
        return (
            [
                (deep_over && over.child != EMPTY).then_some(over),
                (deep_under && under.child != EMPTY).then_some(under),
            ],
            true,
            !deep_over && !deep_under,
        );
    }
    if !LOOSE {
        // The frame wholly on one side, deep past that side's shifted plane and short of the
        // other's by more than [`SIDE_GUARD`] at both ends: the times below would leave it as
        // it is and drop the other side, so they are not computed. Bit for bit the general
        // case's answer, without its division. (Not for `LOOSE`: its loose end may still move.)
        let (lo, hi) = frame_extent(d0, rate, f);
        // Over side only: nowhere deep under, everywhere deep over.
        if lo > back - TREE_BAND + SIDE_GUARD && lo > TREE_BAND - front + SIDE_GUARD {
            return ([(over.child != EMPTY).then_some(over), None], false, false);
        }
        // Under side only.
        if hi < back - TREE_BAND - SIDE_GUARD && hi < TREE_BAND - front - SIDE_GUARD {
            return ([None, (under.child != EMPTY).then_some(under)], true, false);
        }
    }
    // The over side is the under side mirrored: its own depth, the rate negated.
    let inv = 1.0 / rate;
    if rate > 0.0 {
        // Entering the under side, leaving the over side.
        enter(&mut under, g_under, inv, index << 1);
        leave::<LOOSE>(&mut over, g_over, -inv);
    } else {
        enter(&mut over, g_over, -inv, (index << 1) | 1);
        leave::<LOOSE>(&mut under, g_under, inv);
    }
    // The shared empty leaf ends the walk: no frame for it.
    let (keep_over, keep_under) = (over.t0 < over.t1, under.t0 < under.t1);
    (
        [
            (keep_over && over.child != EMPTY).then_some(over),
            (keep_under && under.child != EMPTY).then_some(under),
        ],
        rate < 0.0,
        !keep_over && !keep_under && f.t0 < f.t1,
    )
}

/// The least and greatest signed distance to a node's plane over frame `f`, at its two ends
/// (`d0` at the segment's start, falling by `rate` per unit of `t`): what the one-side tests
/// compare with the shifted planes.
#[inline(always)]
fn frame_extent(d0: f64, rate: f64, f: &Frame) -> (f64, f64) {
    let d_t0 = d0 - rate * f.t0;
    let d_t1 = d0 - rate * f.t1;
    if d_t0 < d_t1 {
        (d_t0, d_t1)
    } else {
        (d_t1, d_t0)
    }
}

/// Asks for child `child`'s node, both its lines (40 bytes may cross one). A solid leaf's
/// reference, untagged, names some node: a harmless fetch; the empty leaf's names none.
#[inline(always)]
fn prefetch_child(tree: &MelaxTree, child: u32) {
    if let Some(next) = tree.nodes.get((child & !LEAF) as usize) {
        prefetch(next);
        prefetch(&next.children[1]);
    }
}

/// A side the shape enters: `g` is how far the shape is past the side's shifted plane at
/// `t = 0` (negative: inside the side), falling by `1 / inv` per unit of `t`. From
/// `(g + CONTACT) * inv` on, the shape is more than [`CONTACT`] inside: the frame starts there
/// at the latest, recording `entry` (the general case of [`split`]).
#[inline(always)]
fn enter(f: &mut Frame, g: f64, inv: f64, entry: u32) {
    let deep = (g + TREE_BAND) * inv;
    if deep > f.t0 {
        f.t0 = deep;
        f.entry = entry;
    }
}

/// A side the shape leaves (`g` and `inv` as for [`enter`], `g` rising): the frame ends where
/// the shape is no longer [`CONTACT`] inside at the latest, its loose end where it is no longer
/// `-CONTACT` inside.
#[inline(always)]
fn leave<const LOOSE: bool>(f: &mut Frame, g: f64, inv: f64) {
    f.t1 = f.t1.min((g + TREE_BAND) * inv);
    if LOOSE {
        f.t1_loose = f.t1_loose.min((g - TREE_BAND) * inv);
    }
}

/// Walks a run of nodes whose over (front) child is the empty leaf from `f.child`: every bevel
/// chain (Figure 2) and the plain nodes that bound empty space. Only the under side goes on, so
/// each node clips the one frame as [`split`] would (its one-side shortcuts for that side, then
/// its general case), without the over side's frame and without a pass through the walk's
/// stack, bound and leaf tests for every node: 13 % less time per sphere, cylinder and box
/// trace on the benchmark world (`tools/bench/findings.md`); a point does not take runs
/// ([`Offsets::back_runs`]). Leaves `f` at the run's first other child and says whether the
/// frame goes on there, or stops, or lies on a node's plane (deep on neither side: only a shape
/// without width across it, which [`collect_thin`] walks instead).
#[inline(always)]
fn back_run<O: Offsets, const LOOSE: bool>(
    tree: &MelaxTree,
    offsets: &O,
    f: &mut Frame,
    start: DVec3,
    end: DVec3,
    visited: &mut u64,
) -> Run {
    loop {
        let index = f.child;
        let node = &tree.nodes[index as usize];
        let child = node.children[1];
        prefetch_child(tree, child);
        let (back, front) = offsets.offsets(node.normal, node.horizontal());
        let (d0, d1) = node.distances(start, end);
        let rate = d0 - d1;
        let g_under = d0 - back;
        let (lo, hi) = frame_extent(d0, rate, f);
        // Dropped with the over side nowhere deep either: on the plane.
        let dropped = || {
            if hi <= TREE_BAND - front {
                Run::OnPlane
            } else {
                Run::Stop
            }
        };
        if lo > back - TREE_BAND + SIDE_GUARD {
            // Nowhere deep inside: the clip would drop the frame (the under side's half of
            // `split`'s one-side tests; the guard keeps it off the plane).
            return Run::Stop;
        } else if !LOOSE && hi < back - TREE_BAND - SIDE_GUARD {
            // Deep inside all along: the clip would keep the frame as it is (the other half;
            // not for `LOOSE`, whose loose end may still move).
        } else if rate == 0.0 {
            // Parallel: kept only when deep inside all along (as in `split`).
            let deep = g_under < -TREE_BAND;
            if !deep {
                return dropped();
            }
        } else {
            let inv = 1.0 / rate;
            if rate > 0.0 {
                enter(f, g_under, inv, index << 1);
            } else {
                leave::<LOOSE>(f, g_under, inv);
            }
        }
        f.child = child;
        // An empty frame stays empty further down the run (`t0` only rises, `t1` only falls).
        let kept = f.t0 < f.t1;
        if !kept {
            return dropped();
        }
        if !tree.in_back_run(child) {
            return if child != EMPTY { Run::Go } else { Run::Stop };
        }
        *visited += 1;
    }
}

/// How a [`back_run`] ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Run {
    /// The frame goes on at the run's first other child.
    Go,
    /// The frame is dropped.
    Stop,
    /// The frame lies on a plane of the run.
    OnPlane,
}

/// The span of the solid cell frame `f` reached: its interval along the segment and the plane
/// it was entered through, with the time the shape touches it.
fn frame_span<O: Offsets>(
    tree: &MelaxTree,
    offsets: &O,
    f: &Frame,
    start: DVec3,
    end: DVec3,
) -> Span {
    let entry = (f.entry != NO_ENTRY).then(|| {
        let plane = entry_plane(tree, offsets, f.entry);
        (plane, touch_time(&plane, start, end))
    });
    Span {
        enter: f.t0,
        leave: f.t1,
        leave_loose: f.t1_loose,
        entry,
    }
}

fn root_frame(tree: &MelaxTree) -> Frame {
    Frame {
        child: tree.root,
        entry: NO_ENTRY,
        t0: T_BEFORE,
        t1: 1.0,
        t1_loose: 1.0,
    }
}

/// The first entry into a solid cell, with the paper's pulled-in end; stops early with
/// [`Outcome::StartSolid`] when the start is inside a cell. `visited` counts the nodes and solid
/// leaves entered (the shared empty leaf is never entered).
pub(crate) fn first_hit<O: Offsets>(
    tree: &MelaxTree,
    offsets: &O,
    start: DVec3,
    end: DVec3,
    skin: f64,
    scratch: &mut Scratch,
    visited: &mut u64,
) -> Outcome {
    let stack = &mut scratch.stack;
    stack.clear();
    let mut best: Option<(f64, u32, u32)> = None;
    let mut bound = f64::INFINITY;
    // The nearer child is walked next without going through the stack.
    let mut next = Some(root_frame(tree));
    while let Some(mut f) = next.take().or_else(|| stack.pop()) {
        if f.t0 > bound {
            continue;
        }
        *visited += 1;
        if offsets.back_runs() && tree.in_back_run(f.child) {
            match back_run::<O, false>(tree, offsets, &mut f, start, end, visited) {
                Run::OnPlane => return Outcome::OnPlane,
                Run::Stop => continue,
                Run::Go if f.t0 > bound => continue,
                Run::Go => {}
            }
            *visited += 1;
        }
        // A solid cell reached over `[t0, t1]` through `entry`: the start is inside, or a
        // candidate for the first entry.
        let mut reach = |t0: f64, t1: f64, cell: u32, entry: u32| {
            if t0 < 0.0 {
                // Inside at the start, or touched at the start only.
                return t1 > 0.0;
            }
            best = Some(match best {
                Some(b) if t0 >= b.0 - TIE && t0 <= b.0 + TIE => {
                    // Simultaneous entries: the one the mover must stop earliest for wins.
                    let score = |entry| pull_back(tree, offsets, entry, start, end, skin);
                    if score(entry) < score(b.2) {
                        (t0.min(b.0), cell, entry)
                    } else {
                        (t0.min(b.0), b.1, b.2)
                    }
                }
                Some(b) if b.0 < t0 => b,
                _ => (t0, cell, entry),
            });
            bound = best.map_or(bound, |b| b.0 + TIE);
            false
        };
        if f.child & LEAF != 0 {
            if f.child != EMPTY && reach(f.t0, f.t1, f.child & !LEAF, f.entry) {
                return Outcome::StartSolid;
            }
            continue;
        }
        let ([over, under], under_first, on_plane) =
            split::<O, false>(tree, offsets, f.child, &f, start, end);
        if on_plane {
            // Even with empty space on one side here: another branch of the tree may hold
            // that side (the union decides, whatever the order of the splits).
            return Outcome::OnPlane;
        }
        let (first, second) = if under_first {
            (under, over)
        } else {
            (over, under)
        };
        if let Some(s) = second.filter(|s| s.t0 <= bound) {
            stack.push(s);
        }
        next = first;
    }
    match best {
        Some((enter, cell, entry)) => Outcome::Hit { cell, entry, enter },
        None => Outcome::Miss,
    }
}

/// Every solid cell's span along the segment (over `[T_BEFORE, 1]`) into `scratch.spans`, for the
/// exact backend's merge ([`cspace_geom::exact::first_entry`]).
pub(crate) fn collect_spans<O: Offsets>(
    tree: &MelaxTree,
    offsets: &O,
    start: DVec3,
    end: DVec3,
    scratch: &mut Scratch,
    visited: &mut u64,
) {
    let Scratch { stack, spans, .. } = scratch;
    stack.clear();
    spans.clear();
    stack.push(root_frame(tree));
    while let Some(mut f) = stack.pop() {
        *visited += 1;
        if offsets.back_runs() && tree.in_back_run(f.child) {
            // (A frame on a plane is a thin shape's, which `collect_thin` walks.)
            if back_run::<O, true>(tree, offsets, &mut f, start, end, visited) != Run::Go {
                continue;
            }
            *visited += 1;
        }
        if f.child & LEAF != 0 {
            if f.child != EMPTY {
                let span = frame_span(tree, offsets, &f, start, end);
                spans.push((span, f.child & !LEAF));
            }
            continue;
        }
        let ([over, under], under_first, on_plane) =
            split::<O, true>(tree, offsets, f.child, &f, start, end);
        if on_plane {
            // Only a shape without width across the plane lies on it, which
            // [`collect_thin`] walks instead.
            continue;
        }
        let (first, second) = if under_first {
            (under, over)
        } else {
            (over, under)
        };
        stack.extend(second);
        stack.extend(first);
    }
}

/// Every solid cell's span along the segment for a shape without width across some plane,
/// into `scratch.thin_spans`: at a node whose plane the segment lies on (deep on neither side),
/// both sides are walked with the segment as it is, each noting the side it took (the plane's
/// normal facing it, in `scratch.facing`), so geom's
/// [`first_entry_across`](cspace_geom::exact::first_entry_across) takes each cell in the sectors
/// around the segment its sides face, and a stretch is solid where every sector is: a ray down
/// a seam of touching cells, or along a plane splitting solid, is inside; one on a face with
/// empty space beyond it touches it only (issue 35, item 2). The answer is that of the union of
/// the cells, whatever the order of the tree's splits (taking both sides node by node and
/// keeping what both hold would depend on it, and on sides that name no place around the
/// segment).
pub(crate) fn collect_thin<O: Offsets>(
    tree: &MelaxTree,
    offsets: &O,
    start: DVec3,
    end: DVec3,
    scratch: &mut Scratch,
    visited: &mut u64,
) {
    let Scratch {
        thin_stack: stack,
        chains,
        thin_spans: spans,
        facing,
        ..
    } = scratch;
    stack.clear();
    chains.clear();
    spans.clear();
    facing.clear();
    stack.push((root_frame(tree), NO_CHAIN));
    // Node by node, without the back runs: a plane of a run the segment lies on has empty
    // space on its over side here, which another branch of the tree may fill.
    while let Some((f, chain)) = stack.pop() {
        *visited += 1;
        if f.child & LEAF != 0 {
            if f.child != EMPTY {
                let span = frame_span(tree, offsets, &f, start, end);
                let from = facing.len();
                let mut link = chain;
                while link != NO_CHAIN {
                    let (normal, up) = chains[link as usize];
                    facing.push(normal);
                    link = up;
                }
                spans.push((span, f.child & !LEAF, from..facing.len()));
            }
            continue;
        }
        let ([over, under], _, on_plane) = split::<O, true>(tree, offsets, f.child, &f, start, end);
        if on_plane {
            let node = &tree.nodes[f.child as usize];
            let n = node.normal;
            for (child, side) in node.children.into_iter().zip([n, -n]) {
                if child != EMPTY {
                    chains.push((side, chain));
                    stack.push((Frame { child, ..f }, chains.len() as u32 - 1));
                }
            }
            continue;
        }
        stack.extend(over.map(|o| (o, chain)));
        stack.extend(under.map(|u| (u, chain)));
    }
}

/// No side taken yet.
const NO_CHAIN: u32 = u32::MAX;

/// True when the shape at `position` is deeper than [`CONTACT`] inside a (shifted) solid cell:
/// the point query, Melax's `F()` with the planes shifted instead of the polytope tested
/// (Section 6).
pub(crate) fn point_solid<O: Offsets>(
    tree: &MelaxTree,
    offsets: &O,
    position: DVec3,
    scratch: &mut Scratch,
    visited: &mut u64,
) -> bool {
    let mut solid = false;
    walk_point(tree, offsets, position, scratch, |child| {
        *visited += 1;
        if child & LEAF != 0 && child != EMPTY {
            solid = true;
            return false;
        }
        true
    });
    solid
}

/// [`point_solid`] for a shape without width across some plane (geom's
/// [`is_thin`](cspace_geom::exact::is_thin)): the cells the shape at `position` reaches or
/// touches (within [`CONTACT`]), each with its planes through the position (closed across the
/// planes the shape has no width across: two cells touching there are one), must cover every
/// direction around it (geom's [`covers_point`]). So a position on a plane splitting solid, or
/// on a seam of touching cells, is inside their union, and one in the corner of a floor and a
/// wall is not (issue 35).
pub(crate) fn thin_point_solid<O: Offsets>(
    tree: &MelaxTree,
    offsets: &O,
    position: DVec3,
    visited: &mut u64,
) -> bool {
    // (child, chain of active planes above it)
    let mut stack: Vec<(u32, u32)> = vec![(tree.root, NO_CHAIN)];
    let mut chains: Vec<(ActivePlane, u32)> = Vec::new();
    let mut cells: Vec<Vec<ActivePlane>> = Vec::new();
    while let Some((child, chain)) = stack.pop() {
        *visited += 1;
        if child & LEAF != 0 {
            if child != EMPTY {
                if chain == NO_CHAIN {
                    // Deeper than CONTACT inside this cell.
                    return true;
                }
                let mut planes = Vec::new();
                let mut link = chain;
                while link != NO_CHAIN {
                    let (plane, up) = chains[link as usize];
                    planes.push(plane);
                    link = up;
                }
                cells.push(planes);
            }
            continue;
        }
        let node = &tree.nodes[child as usize];
        let (back, front) = offsets.offsets(node.normal, node.horizontal());
        let d = node.normal.dot(position) - node.dist;
        let closed = back + front <= THIN;
        // Each side the shape reaches or touches, with the plane when it only touches.
        for (next, g, outward) in [
            (node.children[0], -d - front, -node.normal),
            (node.children[1], d - back, node.normal),
        ] {
            if g > TREE_BAND || next == EMPTY {
                continue;
            }
            let link = if g < -TREE_BAND {
                chain
            } else {
                chains.push((
                    ActivePlane {
                        normal: outward,
                        closed,
                    },
                    chain,
                ));
                chains.len() as u32 - 1
            };
            stack.push((next, link));
        }
    }
    covers_point(cells.iter().map(Vec::as_slice))
}

/// The solid cells the shape at `position` reaches (deeper than [`CONTACT`]), all of them (not
/// stopping at the first), and the nodes and leaves visited: `F()` of Section 6 and the count of
/// Figure 6.
pub(crate) fn cells_reached<O: Offsets>(
    tree: &MelaxTree,
    offsets: &O,
    position: DVec3,
    scratch: &mut Scratch,
) -> (usize, u64) {
    let (mut cells, mut visited) = (0, 0);
    walk_point(tree, offsets, position, scratch, |child| {
        visited += 1;
        cells += usize::from(child & LEAF != 0 && child != EMPTY);
        true
    });
    (cells, visited)
}

/// Visits every node and leaf the shape at `position` reaches, until `visit` returns false.
#[inline(always)]
fn walk_point<O: Offsets>(
    tree: &MelaxTree,
    offsets: &O,
    position: DVec3,
    scratch: &mut Scratch,
    mut visit: impl FnMut(u32) -> bool,
) {
    let stack = &mut scratch.nodes;
    stack.clear();
    stack.push(tree.root);
    while let Some(child) = stack.pop() {
        if !visit(child) {
            return;
        }
        if child & LEAF != 0 {
            continue;
        }
        let node = &tree.nodes[child as usize];
        let (back, front) = offsets.offsets(node.normal, node.horizontal());
        let d = node.normal.dot(position) - node.dist;
        if -d - front < -TREE_BAND {
            stack.push(node.children[0]);
        }
        if d - back < -TREE_BAND {
            stack.push(node.children[1]);
        }
    }
}

/// The shifted plane (configuration space, normal out of the cell) of an entry.
pub(crate) fn entry_plane<O: Offsets>(tree: &MelaxTree, offsets: &O, entry: u32) -> Plane {
    let node = &tree.nodes[(entry >> 1) as usize];
    let (back, front) = offsets.offsets(node.normal, node.horizontal());
    let plane = if entry & 1 == 0 {
        Plane::new(node.normal, node.dist + back)
    } else {
        Plane::new(-node.normal, -node.dist + front)
    };
    plane.expect("node planes have unit normals and finite distances")
}

/// When the segment touches `plane` (no contact depth), clamped to `[0, 1]`.
pub(crate) fn touch_time(plane: &Plane, start: DVec3, end: DVec3) -> f64 {
    let d0 = plane.signed_distance(start);
    let d1 = plane.signed_distance(end);
    if d0 - d1 <= 0.0 {
        return 0.0;
    }
    (d0 / (d0 - d1)).clamp(0.0, 1.0)
}

fn pull_back<O: Offsets>(
    tree: &MelaxTree,
    offsets: &O,
    entry: u32,
    start: DVec3,
    end: DVec3,
    skin: f64,
) -> f64 {
    let plane = entry_plane(tree, offsets, entry);
    cspace_geom::collider::skin_fraction(
        plane.signed_distance(start),
        plane.signed_distance(end),
        skin,
    )
}

#[cfg(test)]
mod tests {
    use cspace_geom::generate::{RandomBoxes, Rng};
    use cspace_geom::{DVec3, World};

    use super::*;
    use crate::BevelMode;
    use crate::offsets::{BoxOffsets, CylinderOffsets, PointOffsets, SphereOffsets};
    use crate::testing::NaiveBsp;

    /// 40 random boxes in a 300-unit cube, half rotated, and their paper-bevelled tree.
    fn test_tree() -> (World, MelaxTree) {
        let world = RandomBoxes {
            count: 40,
            extent: 300.0,
            ..RandomBoxes::BENCHMARK
        }
        .world();
        let brushes: Vec<_> = world.brushes().iter().map(|b| b.brush.clone()).collect();
        let world = World::from_brushes(brushes.clone());
        let tree = MelaxTree::from_bsp(&world, &NaiveBsp::new(&brushes), BevelMode::PAPER);
        (world, tree)
    }

    /// Where the one-side tests of `node` decide for `offsets`: its two shifted contact bands
    /// and the plane itself.
    fn band_edges<O: Offsets>(offsets: &O, node: &crate::tree::Node) -> [f64; 3] {
        let (back, front) = offsets.offsets(node.normal, node.horizontal());
        [back - TREE_BAND, TREE_BAND - front, 0.0]
    }

    /// A distance from a node's plane: a third at random within 60 units, the rest on one of
    /// `edges` or a hair (1e-12 to 1e-6 units) either side.
    fn band_distance(rng: &mut Rng, edges: &[f64; 3]) -> f64 {
        if rng.below(3) == 0 {
            rng.range(-60.0, 60.0)
        } else {
            let hair = [0.0, 1e-12, 1e-9, 1e-7, 1e-6][rng.below(5)];
            edges[rng.below(3)] + if rng.below(2) == 0 { hair } else { -hair }
        }
    }

    /// A frame at node `index` over a random `[t0, t1]`: starting before the segment, at its
    /// start or within its first half, and ending at its end or within its second half.
    fn random_frame(rng: &mut Rng, index: u32) -> Frame {
        let t0 = [T_BEFORE, 0.0, rng.range(0.0, 0.5)][rng.below(3)];
        let t1 = [1.0, rng.range(0.5, 1.0)][rng.below(2)];
        Frame {
            child: index,
            entry: NO_ENTRY,
            t0,
            t1,
            t1_loose: t1,
        }
    }

    /// The same children, bit for bit: which sides are kept, and their cells, entries and times
    /// (the order only matters when both are kept).
    fn same_split(
        a: ([Option<Frame>; 2], bool, bool),
        b: ([Option<Frame>; 2], bool, bool),
    ) -> bool {
        let key = |f: &Option<Frame>| f.map(|f| (f.child, f.entry, f.t0.to_bits(), f.t1.to_bits()));
        let both = a.0.iter().all(Option::is_some);
        key(&a.0[0]) == key(&b.0[0])
            && key(&a.0[1]) == key(&b.0[1])
            && (!both || a.1 == b.1)
            && a.2 == b.2
    }

    /// Checks [`back_run`] against [`split`] node by node (the under side, until a leaf or a
    /// node whose over child is not empty) on 40 frames from every node that starts a run, with
    /// the ends drawn as in [`shortcut_agrees`] around the first node's plane and a few units off
    /// it (near the cell the run ends in). Returns how many runs went on past two or more nodes,
    /// and how many were dropped.
    fn back_run_agrees<O: Offsets, const LOOSE: bool>(
        world: &World,
        tree: &MelaxTree,
        offsets: &O,
        rng: &mut Rng,
    ) -> [usize; 2] {
        let (mut long, mut dropped) = (0, 0);
        for index in (0..tree.nodes.len() as u32).filter(|&i| tree.in_back_run(i)) {
            let node = &tree.nodes[index as usize];
            let edges = band_edges(offsets, node);
            for _ in 0..40 {
                let distance = |rng: &mut Rng| band_distance(rng, &edges);
                let on_plane = if rng.below(2) == 0 {
                    anchor(world, tree, index)
                } else {
                    node.normal * node.dist
                };
                let mut off = || {
                    DVec3::new(
                        rng.range(-8.0, 8.0),
                        rng.range(-8.0, 8.0),
                        rng.range(-8.0, 8.0),
                    )
                };
                let (a, b) = (off(), off());
                let start = on_plane + a - node.normal * (node.normal.dot(a) - distance(rng));
                let end = on_plane + b - node.normal * (node.normal.dot(b) - distance(rng));
                let f = random_frame(rng, index);
                let (t0, t1) = (f.t0, f.t1);
                let mut walked = Some(f);
                let mut nodes = 0;
                while let Some(w) = walked.filter(|w| tree.in_back_run(w.child)) {
                    walked = split::<O, LOOSE>(tree, offsets, w.child, &w, start, end).0[1];
                    nodes += 1;
                }
                let mut run = f;
                let kept =
                    back_run::<O, LOOSE>(tree, offsets, &mut run, start, end, &mut 0) == Run::Go;
                let key = |f: Frame| {
                    (
                        f.child,
                        f.entry,
                        f.t0.to_bits(),
                        f.t1.to_bits(),
                        f.t1_loose.to_bits(),
                    )
                };
                assert_eq!(
                    walked.map(key),
                    kept.then_some(run).map(key),
                    "run from node {index}, {start} -> {end} over [{t0}, {t1}]"
                );
                long += usize::from(kept && nodes >= 2);
                dropped += usize::from(!kept);
            }
        }
        [long, dropped]
    }

    /// The point of node `index`'s plane nearest the middle of the first brush of the cell its
    /// run ends in (the foot of the origin for a run ending in a node).
    fn anchor(world: &World, tree: &MelaxTree, index: u32) -> DVec3 {
        let node = &tree.nodes[index as usize];
        let mut child = index;
        while tree.in_back_run(child) {
            child = tree.nodes[child as usize].children[1];
        }
        let middle = if child & LEAF != 0 && child != EMPTY {
            world
                .brush(tree.brushes_of(child & !LEAF)[0])
                .brush
                .vertex_mean()
        } else {
            DVec3::ZERO
        };
        middle - node.normal * (node.normal.dot(middle) - node.dist)
    }

    /// A run of nodes with empty over children clipped at once ([`back_run`]) keeps what the
    /// node-by-node walk keeps, bit for bit, for every shape, with and without the loose ends.
    #[test]
    fn back_runs_clip_as_the_node_by_node_walk_does() {
        let (world, tree) = test_tree();
        let mut rng = Rng::new(12);
        let sphere = SphereOffsets { radius: 16.0 };
        let cylinder = CylinderOffsets {
            radius: 16.0,
            half_height: 28.0,
        };
        let quake = BoxOffsets::new(
            DVec3::new(-16.0, -16.0, -24.0),
            DVec3::new(16.0, 16.0, 32.0),
        );
        let kinds = [
            back_run_agrees::<_, false>(&world, &tree, &PointOffsets, &mut rng),
            back_run_agrees::<_, true>(&world, &tree, &PointOffsets, &mut rng),
            back_run_agrees::<_, false>(&world, &tree, &sphere, &mut rng),
            back_run_agrees::<_, true>(&world, &tree, &sphere, &mut rng),
            back_run_agrees::<_, false>(&world, &tree, &cylinder, &mut rng),
            back_run_agrees::<_, true>(&world, &tree, &cylinder, &mut rng),
            back_run_agrees::<_, false>(&world, &tree, &quake, &mut rng),
            back_run_agrees::<_, true>(&world, &tree, &quake, &mut rng),
        ];
        // Runs that went on through several nodes and runs that were dropped both came up often.
        let runs = (0..tree.nodes.len() as u32)
            .filter(|&i| tree.in_back_run(i))
            .count()
            * 40;
        for [long, dropped] in kinds {
            assert!(
                long > runs / 10 && dropped > runs / 10,
                "{long} long runs kept and {dropped} dropped of {runs}"
            );
        }
    }

    /// Checks the shortcut on 40 frames at every node of `tree`: the split of the fast walk
    /// (`LOOSE` off, with the one-side shortcut) equals the general case's (`LOOSE` on, which
    /// never takes it). Ends sit at random distances from each node's plane and at its shifted
    /// contact bands, on them and a hair (1e-12 to 1e-6 units) either side, where the guard band
    /// decides. Returns how many splits kept one side unchanged (the shortcut's kind of answer)
    /// and how many cut the frame at a crossing (the general case's alone).
    fn shortcut_agrees<O: Offsets>(tree: &MelaxTree, offsets: &O, rng: &mut Rng) -> [usize; 2] {
        let (mut one_side, mut cut) = (0, 0);
        for index in 0..tree.nodes.len() as u32 {
            let node = &tree.nodes[index as usize];
            let edges = band_edges(offsets, node);
            let tangent = node.normal.any_orthonormal_vector();
            for _ in 0..40 {
                let distance = |rng: &mut Rng| band_distance(rng, &edges);
                let on_plane = node.normal * node.dist;
                let start =
                    on_plane + tangent * rng.range(-30.0, 30.0) + node.normal * distance(rng);
                let end = on_plane + tangent * rng.range(-30.0, 30.0) + node.normal * distance(rng);
                let f = random_frame(rng, index);
                let (t0, t1) = (f.t0, f.t1);
                let fast = split::<O, false>(tree, offsets, index, &f, start, end);
                let general = split::<O, true>(tree, offsets, index, &f, start, end);
                assert!(
                    same_split(fast, general),
                    "node {index}, {start} -> {end} over [{t0}, {t1}]: {fast:?} against {general:?}"
                );
                let kept = fast.0.iter().flatten().collect::<Vec<_>>();
                let unchanged = |f: &&Frame| f.t0 == t0 && f.t1 == t1;
                if kept.len() == 1 && unchanged(&kept[0]) {
                    one_side += 1;
                } else if !kept.iter().all(unchanged) {
                    cut += 1;
                }
            }
        }
        [one_side, cut]
    }

    /// The one-side shortcut of [`split`] answers as the general case does, for every shape's
    /// offsets, at random and at the edges of the contact bands.
    #[test]
    fn the_one_side_shortcut_splits_as_the_general_case_does() {
        let (_, tree) = test_tree();
        let mut rng = Rng::new(11);
        let kinds = [
            shortcut_agrees(&tree, &PointOffsets, &mut rng),
            shortcut_agrees(&tree, &SphereOffsets { radius: 16.0 }, &mut rng),
            shortcut_agrees(
                &tree,
                &CylinderOffsets {
                    radius: 16.0,
                    half_height: 28.0,
                },
                &mut rng,
            ),
            shortcut_agrees(
                &tree,
                &BoxOffsets::new(
                    DVec3::new(-16.0, -16.0, -24.0),
                    DVec3::new(16.0, 16.0, 32.0),
                ),
                &mut rng,
            ),
        ];
        // Both kinds of answer came up often, for every shape.
        let splits = tree.nodes.len() * 40;
        for [one_side, cut] in kinds {
            assert!(
                one_side > splits / 5 && cut > splits / 5,
                "{one_side} one-side and {cut} cut splits of {splits}"
            );
        }
    }
}
