//! Listing 5 (`find_first_transition`): the segment walked through the tree front to back, with
//! touching free.
//!
//! Deviation from Listing 5: a segment lying on a splitting plane (within [`CONTACT`]) goes down
//! both sides and is solid only where **both** sides are solid; Listing 5 takes the nearer
//! transition of the two, which would stop a box sliding along a floor or under an overhang
//! (Figure 4 (b)). A segment starting on a plane records that plane, so a move from a face into
//! solid is an entry at time 0 rather than an all-solid move; Golodetz's nudge-back retry stays as
//! the fallback.

use cspace_geom::Plane;
use cspace_geom::collider::lerp;
use cspace_geom::hint::prefetch;
use cspace_geom::tolerance::{CONTACT, START_NUDGE, TREE_BAND};
use glam::DVec3;

use crate::tree::{OnionTree, REGION, SOLID, SpaceNode, SpaceTree};

/// The deepest traversal stack a collider keeps without growing: it reserves this many frames
/// once, so no trace allocates below it.
pub const MAX_DEPTH: usize = 4096;

/// No plane recorded.
pub(crate) const NO_PLANE: u32 = u32::MAX;
/// Flag on a recorded plane index: the plane is reported facing the other way.
const FLIP: u32 = 1 << 31;

/// The outcome of Listing 5 for one configuration space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Transition {
    /// `RAY_E`: the whole segment is in empty space.
    Empty,
    /// `RAY_S`: the whole segment is in solid space.
    Solid,
    /// `RAY_E2S`: the segment first goes from empty to solid here.
    EmptyToSolid(Crossing),
    /// `RAY_S2E`: the segment first goes from solid to empty here.
    SolidToEmpty(Crossing),
}

/// Where a segment crosses from one solidity to the other.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Crossing {
    /// Time of the crossing, `|p - start| / |end - start|`, in `[0, 1]`.
    pub time: f64,
    /// The crossing point (configuration space: the agent's origin).
    pub point: DVec3,
    /// The splitting plane crossed, its normal pointing back towards the segment's start side.
    pub plane: Plane,
}

/// A stretch `[t0, t1]` of a walked segment (times on the whole segment) inside one region or
/// solid: one uniform subtree of the space, or, where the segment lies on a plane, the two sides
/// merged (solid only where both are; the empty side's region otherwise).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stretch {
    /// Where the stretch begins, a time on the whole segment.
    pub t0: f64,
    /// Where it ends.
    pub t1: f64,
    /// `REGION | index` or [`SOLID`] ([`crate::SpaceChild::of`] decodes it).
    pub child: u32,
    /// The plane crossed at `t0` (the index of its node in the space's tree, [`FLIP`] for
    /// reversed), or [`NO_PLANE`]: [`SpaceTree::entry_plane`].
    pub(crate) entry: u32,
}

impl Stretch {
    /// True in solid.
    #[inline]
    pub fn solid(&self) -> bool {
        self.child == SOLID
    }
}

/// A stretch of the segment still to walk: from `at`, over `[t0, t1]`, whose ends are `a` and
/// `b` (`lerp(start, end, t)`: the planes are tested on the stretch's own ends, two independent
/// dot products, rather than on the segment's ends and then interpolated).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    at: u32,
    t0: f64,
    t1: f64,
    a: DVec3,
    b: DVec3,
    entry: u32,
}

/// Reusable traversal state of the walks: a walk allocates nothing once this has grown. The
/// collider keeps one in the caller's query context; other walkers keep their own.
#[derive(Debug, Default, Clone)]
pub struct WalkScratch {
    stack: Vec<Frame>,
    /// Branch nodes whose plane the walks tested since the caller last took the count.
    pub(crate) visited: u64,
    /// Stretch lists for the two sides of planes a segment lies on, reused.
    pool: Vec<Vec<Stretch>>,
    /// The normals, facing the side taken, of the planes above that the segment lies on.
    sides: Vec<DVec3>,
}

/// The first entry into solid of a move after the solid it starts in, if any: the collider's
/// answer ([`SpaceTree::first_entry`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SolidEntry {
    /// The whole move is in solid.
    AllSolid,
    /// The move enters no solid after its start.
    Free {
        /// The start is in solid (the move leaves it).
        start_solid: bool,
    },
    /// The move enters solid at `time` (on `[0, 1]`) through `plane` (facing the start; `None`
    /// when no plane was recorded: the walk started inside it).
    Hit {
        /// The start is in solid (the move leaves it and enters solid again).
        start_solid: bool,
        /// The time of the entry on the move.
        time: f64,
        /// The plane entered through, facing the start.
        plane: Option<Plane>,
    },
}

impl WalkScratch {
    /// The branch nodes whose plane the walks tested since the count was last taken, and a new
    /// count from zero.
    pub fn take_visited(&mut self) -> u64 {
        std::mem::take(&mut self.visited)
    }
}

impl SolidEntry {
    /// True when the move starts in solid.
    pub fn start_solid(&self) -> bool {
        match *self {
            SolidEntry::AllSolid => true,
            SolidEntry::Free { start_solid } | SolidEntry::Hit { start_solid, .. } => start_solid,
        }
    }
}

impl SpaceTree {
    /// The plane a stretch was entered through, facing the side the segment came from; `None`
    /// for the stretch the walk started in, unless the start lies on a plane.
    pub fn entry_plane(&self, stretch: &Stretch) -> Option<Plane> {
        self.recorded_plane(stretch.entry)
    }

    /// The plane of an entry recorded in this tree, oriented.
    fn recorded_plane(&self, entry: u32) -> Option<Plane> {
        (entry != NO_PLANE).then(|| {
            let p = self.nodes[(entry & !FLIP) as usize].plane;
            if entry & FLIP != 0 { p.flipped() } else { p }
        })
    }

    /// Walks `start -> end` front to back (Listing 5's walk, see the module docs), calling
    /// `visit` with each [`Stretch`] in order until it returns false; returns false when
    /// stopped. The plane a start lies on is recorded as its stretch's entry.
    pub fn walk(
        &self,
        start: DVec3,
        end: DVec3,
        scratch: &mut WalkScratch,
        mut visit: impl FnMut(Stretch) -> bool,
    ) -> bool {
        self.walk_span(
            start,
            end,
            self.start(start, end),
            (0.0, 1.0),
            NO_PLANE,
            true,
            scratch,
            &mut visit,
        )
    }

    /// Walks `start -> end` over `[t0, t1]` from `from`, calling `visit` with each stretch in
    /// order until it returns false. Returns false when stopped.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn walk_span<V: FnMut(Stretch) -> bool>(
        &self,
        start: DVec3,
        end: DVec3,
        from: u32,
        (t0, t1): (f64, f64),
        entry: u32,
        record_start: bool,
        scratch: &mut WalkScratch,
        visit: &mut V,
    ) -> bool {
        let tree = self;
        // Nested walks (both sides of a plane) share the stack above their own base.
        let base = scratch.stack.len();
        // The first stretch is walked without going through the stack.
        let mut next = Some(Frame {
            at: from,
            t0,
            t1,
            a: lerp(start, end, t0),
            b: lerp(start, end, t1),
            entry,
        });
        loop {
            let frame = match next.take() {
                Some(frame) => frame,
                None if scratch.stack.len() > base => {
                    scratch.stack.pop().expect("the stack is above its base")
                }
                None => break,
            };
            let Frame {
                mut at,
                t0,
                mut t1,
                a,
                mut b,
                mut entry,
            } = frame;
            loop {
                // A subtree uniform in this space: one stretch.
                if at & REGION != 0 {
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
                let node = &tree.nodes[at as usize];
                scratch.visited += 1;
                // Fetch both children while the plane test runs: the walk picks one by index
                // and cannot speculate, so it would otherwise wait for the memory after the test.
                // The line a child starts in only: also fetching the second line of a child that
                // crosses one was a little faster with the tree in cache and up to a third
                // slower in the interleaved benchmark (tools/bench/findings.md), where the
                // fetches wait for memory. (A leaf's reference, untagged, names node 0 or 1: a
                // harmless fetch, and no branch on which kind of child it is.)
                for child in node.children {
                    if let Some(next) = tree.nodes.get((child & !REGION) as usize) {
                        prefetch(next);
                    }
                }
                let da = node.signed_distance(a);
                let db = node.signed_distance(b);
                // The common case first: the stretch clear of the plane, on one side. (The
                // compiler makes the pick of the child a branch; forcing a conditional move with
                // `select_unpredictable` was 3 to 4 % slower on E1M1: a predicted branch lets the
                // next node's fetch start before the test is done.)
                let front = (da > TREE_BAND) & (db > TREE_BAND);
                let back = (da < -TREE_BAND) & (db < -TREE_BAND);
                if front | back {
                    at = node.children[usize::from(back)];
                    continue;
                }
                let on_start = (-TREE_BAND..=TREE_BAND).contains(&da);
                if da >= -TREE_BAND && db >= -TREE_BAND {
                    if da <= TREE_BAND && db <= TREE_BAND {
                        // On the plane: both sides; solid where both are (touching is free).
                        if !self.both_sides(
                            start,
                            end,
                            node,
                            (t0, t1),
                            entry,
                            record_start,
                            scratch,
                            visit,
                        ) {
                            scratch.stack.truncate(base);
                            return false;
                        }
                        break;
                    }
                    if on_start && entry == NO_PLANE && record_start {
                        entry = at | FLIP;
                    }
                    at = node.children[0];
                } else if da <= TREE_BAND && db <= TREE_BAND {
                    if on_start && entry == NO_PLANE && record_start {
                        entry = at;
                    }
                    at = node.children[1];
                } else {
                    // Straddling: near half first, the far half later from the crossing, found
                    // on the whole segment (the same time whatever stretch is being walked).
                    let ds = node.signed_distance(start);
                    let de = node.signed_distance(end);
                    // max and min, not clamp: outside the numeric domain ds / (ds - de) can be NaN, and
                    // a NaN bound would make clamp panic.
                    let tm = (ds / (ds - de)).max(t0).min(t1);
                    let m = lerp(start, end, tm);
                    let (near, far, far_entry) = if da > 0.0 {
                        (node.children[0], node.children[1], at)
                    } else {
                        (node.children[1], node.children[0], at | FLIP)
                    };
                    scratch.stack.push(Frame {
                        at: far,
                        t0: tm,
                        t1,
                        a: m,
                        b,
                        entry: far_entry,
                    });
                    at = near;
                    t1 = tm;
                    b = m;
                }
            }
        }
        true
    }

    /// Both children of a node the segment lies on, merged: solid only where both are, and the
    /// empty side's region where one is. A side that names no place around the segment (with
    /// the planes above it lies on: geom's
    /// [`direction_exists`](cspace_geom::exact::direction_exists)) has no say: the other side's
    /// stretches stand. (Rare: its visitor goes through a pointer, so the generic walk does not
    /// nest without end.)
    #[allow(clippy::too_many_arguments)]
    fn both_sides(
        &self,
        start: DVec3,
        end: DVec3,
        node: &SpaceNode,
        span: (f64, f64),
        entry: u32,
        record_start: bool,
        scratch: &mut WalkScratch,
        visit: &mut dyn FnMut(Stretch) -> bool,
    ) -> bool {
        let mut sides = [
            scratch.pool.pop().unwrap_or_default(),
            scratch.pool.pop().unwrap_or_default(),
        ];
        let n = node.plane.normal();
        let mut exists = [true; 2];
        for ((side, child), (facing, exists)) in sides
            .iter_mut()
            .zip(node.children)
            .zip([n, -n].into_iter().zip(&mut exists))
        {
            side.clear();
            scratch.sides.push(facing);
            *exists = cspace_geom::exact::direction_exists(&scratch.sides, &[end - start]);
            if *exists {
                self.walk_span(
                    start,
                    end,
                    child,
                    span,
                    entry,
                    record_start,
                    scratch,
                    &mut |iv| {
                        side.push(iv);
                        true
                    },
                );
            }
            scratch.sides.pop();
        }
        if exists != [true; 2] {
            // One side only (or none, which cannot be: the sides above name a place).
            let [front, back] = &sides;
            let only = if exists[0] { front } else { back };
            let go_on = only.iter().all(|iv| visit(*iv));
            scratch.pool.extend(sides);
            return go_on;
        }
        let [front, back] = &sides;
        let (mut i, mut j) = (0, 0);
        let mut go_on = true;
        while go_on && i < front.len() && j < back.len() {
            let (a, b) = (front[i], back[j]);
            let entry = if a.t0 > b.t0 || (a.t0 == b.t0 && a.entry != NO_PLANE) {
                a.entry
            } else {
                b.entry
            };
            let child = if !a.solid() { a.child } else { b.child };
            go_on = visit(Stretch {
                t0: a.t0.max(b.t0),
                t1: a.t1.min(b.t1),
                child,
                entry,
            });
            if a.t1 <= b.t1 {
                i += 1;
            }
            if b.t1 <= a.t1 {
                j += 1;
            }
        }
        scratch.pool.extend(sides);
        go_on
    }

    /// The first entry into solid after the solid the move starts in, if any (the collider's
    /// answer). Whether the start is in solid follows from the first stretch: empty, it is free;
    /// solid with no plane at the start, it is inside; solid with the start on a plane, the
    /// point query decides (solid only where both sides are).
    ///
    /// A run of solid stretches no longer than twice [`CONTACT`] along the move, with empty
    /// space after it, is no entry: no point of it is deeper than `CONTACT` inside (its depth is
    /// at most half its length). Such slivers are rounding: where several planes cross the move
    /// at one point (a ray down a face meeting a corner of the brushes beyond it), the two sides
    /// of a plane the move lies on can both be solid over the last bit of a crossing time
    /// (issue 35: one of 29,480 vertical rays over E1M1 stopped in mid-air).
    pub fn first_entry(&self, start: DVec3, end: DVec3, scratch: &mut WalkScratch) -> SolidEntry {
        let mut start_solid = false;
        let mut in_start = false;
        let mut seen_any = false;
        let mut hit: Option<(f64, u32)> = None;
        // The run of solid stretches under way: where it began, through which plane, and where
        // it reaches.
        let mut run: Option<(f64, u32, f64)> = None;
        let sliver = if start == end {
            f64::INFINITY
        } else {
            2.0 * CONTACT / start.distance(end)
        };
        self.walk(start, end, scratch, |iv| {
            let first = !seen_any;
            seen_any = true;
            if first && iv.solid() {
                start_solid = iv.entry == NO_PLANE || self.is_solid(start);
                in_start = start_solid;
            }
            if iv.t1 <= iv.t0 && !first {
                return true;
            }
            if in_start {
                if !iv.solid() && iv.t1 > iv.t0 {
                    in_start = false;
                }
                return true;
            }
            if iv.solid() {
                let (t0, entry, _) = run.unwrap_or((iv.t0, iv.entry, iv.t1));
                if iv.t1 - t0 > sliver {
                    hit = Some((t0, entry));
                    return false;
                }
                run = Some((t0, entry, iv.t1));
            } else {
                // A sliver, then empty space again.
                run = None;
            }
            true
        });
        // A run reaching the end of the move is entered, however short.
        if hit.is_none()
            && let Some((t0, entry, _)) = run
        {
            hit = Some((t0, entry));
        }
        match hit {
            Some((time, entry)) => SolidEntry::Hit {
                start_solid,
                time,
                plane: self.recorded_plane(entry),
            },
            // In solid to the end, unless the end itself only touches it (the move leaves
            // solid there: its end is free, as the exact backend finds).
            None if in_start && self.is_solid(end) => SolidEntry::AllSolid,
            None => SolidEntry::Free { start_solid },
        }
    }
}

impl OnionTree {
    /// Listing 5 without the retry; `record_start` notes the plane a start lies on.
    pub(crate) fn transition_once(
        &self,
        space: usize,
        start: DVec3,
        end: DVec3,
        record_start: bool,
        scratch: &mut WalkScratch,
    ) -> Transition {
        let tree = self.space_tree(space);
        let mut first: Option<bool> = None;
        let mut found: Option<(bool, f64, u32)> = None;
        tree.walk_span(
            start,
            end,
            tree.start(start, end),
            (0.0, 1.0),
            NO_PLANE,
            record_start,
            scratch,
            &mut |iv| {
                if iv.t1 <= iv.t0 && first.is_some() {
                    return true;
                }
                match first {
                    None => {
                        if iv.solid() && iv.entry != NO_PLANE {
                            // A start on a face, entering solid: an entry at the start.
                            found = Some((true, iv.t0, iv.entry));
                            return false;
                        }
                        first = Some(iv.solid());
                        true
                    }
                    Some(s) if s != iv.solid() => {
                        found = Some((iv.solid(), iv.t0, iv.entry));
                        false
                    }
                    Some(_) => true,
                }
            },
        );
        match found {
            Some((to_solid, time, entry)) => {
                let crossing = Crossing {
                    time,
                    point: lerp(start, end, time),
                    plane: tree.recorded_plane(entry).unwrap_or_else(|| self.planes[0]),
                };
                if to_solid {
                    Transition::EmptyToSolid(crossing)
                } else {
                    Transition::SolidToEmpty(crossing)
                }
            }
            None if first == Some(true) => Transition::Solid,
            None => Transition::Empty,
        }
    }

    /// Listing 5 (`find_first_transition`) in configuration space `space`, with Golodetz's retry:
    /// a move found all solid although its start is free is traced again from a start nudged
    /// back by [`START_NUDGE`] (times are given on the original segment). The walk's stack lives
    /// in `scratch` (nothing is allocated once it has grown); its nodes visited are counted there
    /// ([`WalkScratch::take_visited`]).
    pub fn find_first_transition(
        &self,
        scratch: &mut WalkScratch,
        space: usize,
        start: DVec3,
        end: DVec3,
    ) -> Transition {
        self.transition_with_retry(space, start, end, true, scratch)
    }

    pub(crate) fn transition_with_retry(
        &self,
        space: usize,
        start: DVec3,
        end: DVec3,
        record_start: bool,
        scratch: &mut WalkScratch,
    ) -> Transition {
        let t = self.transition_once(space, start, end, record_start, scratch);
        if t != Transition::Solid || start == end || self.is_solid(space, start) {
            return t;
        }
        let length = start.distance(end);
        let nudged = start - (end - start) / length * START_NUDGE;
        let scale = |c: Crossing| {
            let time = ((c.time * (length + START_NUDGE) - START_NUDGE) / length).clamp(0.0, 1.0);
            Crossing {
                time,
                point: lerp(start, end, time),
                ..c
            }
        };
        match self.transition_once(space, nudged, end, record_start, scratch) {
            Transition::EmptyToSolid(c) => Transition::EmptyToSolid(scale(c)),
            Transition::SolidToEmpty(c) => Transition::SolidToEmpty(scale(c)),
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use cspace_geom::{Aabb, Brush, World};

    use super::*;
    use crate::{CompileOptions, Pose, compile};

    /// Golodetz's retry: Listing 5 as written (no start plane recorded) finds a move from a face
    /// into solid all solid; the retry from a start nudged back finds the entry at time 0.
    #[test]
    fn nudge_back_retry_turns_an_all_solid_start_on_a_face_into_an_entry() {
        let floor = Brush::from_aabb(Aabb::new(
            DVec3::new(-64.0, -64.0, -16.0),
            DVec3::new(64.0, 64.0, 0.0),
        ))
        .unwrap();
        let world = World::from_brushes([floor]);
        let tree = compile(&world, &[Pose::point()], &CompileOptions::default())
            .unwrap()
            .tree;
        let (a, b) = (DVec3::new(0.0, 0.0, 0.0), DVec3::new(0.0, 0.0, -8.0));
        let mut scratch = WalkScratch::default();
        assert_eq!(
            tree.transition_once(0, a, b, false, &mut scratch),
            Transition::Solid
        );
        match tree.transition_with_retry(0, a, b, false, &mut scratch) {
            Transition::EmptyToSolid(c) => {
                assert_eq!(c.time, 0.0);
                assert_eq!(c.plane.normal(), DVec3::Z);
            }
            other => panic!("{other:?}"),
        }
    }
}
