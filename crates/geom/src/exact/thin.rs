//! Boxes without width across a plane (a point, a flat box, a segment): the seams of the union.
//!
//! A brush's configuration-space plane, pushed out by a box that has no width along its normal,
//! meets the plane of a brush touching it from the other side exactly: a segment lying in such a
//! plane (within [`CONTACT`] at both ends) is, brush by brush, only touching, yet it lies inside
//! the union of the brushes (a ray down the seam of two floor tiles; issue 35, item 1). So the
//! configuration space around such a segment is cut by those planes into *sectors* (in the
//! cross-section of the segment: the cells of the lines the planes make there), and a stretch of
//! the segment is solid where **every** sector is: each sector is the segment moved an
//! infinitesimal distance into it, where a brush counts when the sector lies on its side of every
//! one of its lying planes and its other planes hold the segment as for any segment
//! ([`first_entry_across`]); four tiles meeting at an edge give four sectors, each covered by
//! one tile. A point is solid where the brushes it touches cover every direction around it
//! ([`covers_point`]), which also decides a start: one on a seam the move crosses is inside the
//! union, one in the corner of a floor and a wall is not, though spans touch at the start either
//! way.
//!
//! Only planes across which the shape is thinner than [`THIN`] join: across a plane where the
//! shape has width, two brushes touching in configuration space leave a gap the shape fits with
//! no room to spare (touching both, overlapping neither: free), which per-brush spans answer.
//! For a point this is the overlap with the union of the brushes exactly. For a box with width
//! along the plane (a flat box, a segment) it joins the two brushes' spaces across the plane
//! wherever both reach the shape, which differs from the shape's own overlap with the union in
//! one double degeneracy: the shape lying in the plane between faces of the two brushes, from
//! its two sides, that do not overlap each other under it (offset by at most its width) is solid
//! here, while it touches both and overlaps neither (`touching::Union::Overlap` counts these;
//! ARCHITECTURE.md, "Solid means").

use std::ops::Range;

use glam::{DVec2, DVec3};

use super::Span;
use super::cover::{ActivePlane, covers_point};
use crate::collider::Hit;
use crate::plane::Plane;
use crate::shape::BoxShape;
use crate::tolerance::{CONTACT, NORMAL_EQUAL, SAME_TIME};
use crate::world::BrushId;

/// The width below which a box is thin across a plane, in units: two brushes touching across a
/// plane of that normal, pushed out by the box, overlap by at most this much, so no position is
/// deeper than [`CONTACT`] inside either although it is inside their union (twice `CONTACT`).
pub const THIN: f64 = 2.0 * CONTACT;

/// True when `b` has no width along some axis (a point, a flat box, a segment): the boxes whose
/// configuration spaces have seams.
pub(super) fn is_thin(b: &BoxShape) -> bool {
    (b.maxs - b.mins).cmple(DVec3::splat(THIN)).any()
}

/// The width of `b` across planes of unit normal `n`, in units.
fn width_across(b: &BoxShape, n: DVec3) -> f64 {
    ((b.maxs - b.mins) * n.abs()).element_sum()
}

/// A stretch of a segment in solid: spans merged, in segment parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Region<T> {
    /// Where the shape is first deeper than [`CONTACT`] inside.
    pub enter: f64,
    /// Where it last is.
    pub leave: f64,
    /// Where it last is within [`CONTACT`] of the solid (spans starting before it join).
    leave_loose: f64,
    /// The span entered at `enter` (the one the mover must stop earliest for, of those entered
    /// with it), with its solid and the skin pull-back on its plane.
    pub entry: Option<(Span, T, f64)>,
}

/// Of two simultaneous entries, the one the mover must stop earliest for, then the lower id
/// (the exact backend's rule at edges).
fn earlier<T: Ord + Copy>(a: &(Span, T, f64), b: &(Span, T, f64)) -> bool {
    a.2 < b.2 || (a.2 == b.2 && a.1 < b.1)
}

/// The answer for the merged regions of a segment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MergedEntry<T> {
    /// The segment never leaves solid.
    AllSolid,
    /// No entry into solid after the start region (if any).
    Free {
        /// The segment starts in solid (and leaves it).
        start_solid: bool,
    },
    /// The first entry after the start region.
    Hit {
        /// The segment starts in solid (and leaves it before this entry).
        start_solid: bool,
        /// The span entered (its entry plane is the surface).
        span: Span,
        /// Its solid.
        id: T,
    },
}

impl<T> MergedEntry<T> {
    /// The backend's answer: all solid at `start`, free to `end`, or `blocked(plane, time, id,
    /// start_solid)` with the plane the entered span was entered through and the time the shape
    /// touches it.
    pub fn into_hit(
        self,
        start: DVec3,
        end: DVec3,
        blocked: impl FnOnce(Plane, f64, T, bool) -> Hit,
    ) -> Hit {
        match self {
            MergedEntry::AllSolid => Hit::solid(start),
            MergedEntry::Free { start_solid } => Hit::free(end, start_solid),
            MergedEntry::Hit {
                start_solid,
                span,
                id,
            } => {
                let (plane, time) = span.entry.expect("an entered span has an entry plane");
                blocked(plane, time, id, start_solid)
            }
        }
    }
}

/// Reused buffers of the thin path.
#[derive(Debug, Default)]
pub(super) struct ThinScratch {
    /// Every candidate brush's configuration-space planes, brush after brush.
    planes: Vec<Plane>,
    /// Per plane: it lies along the whole segment, and the shape is thin across it.
    lying: Vec<bool>,
    /// Per brush: its id, its planes' range, and whether any of them lies.
    brushes: Vec<(BrushId, usize, usize, bool)>,
    /// The point test's active planes, solid after solid (`solids` holds their ranges).
    active: Vec<ActivePlane>,
    solids: Vec<(usize, usize)>,
    /// The brushes' spans over their planes that do not lie, with their lying planes' normals
    /// reversed (`facing`): what [`first_entry_across`] takes.
    spans: Vec<(Span, BrushId, Range<usize>)>,
    facing: Vec<DVec3>,
    across: AcrossScratch<BrushId>,
}

impl ThinScratch {
    /// Starts a segment `start -> end` (for a point query, a probe from the point).
    pub(super) fn clear(&mut self) {
        self.planes.clear();
        self.lying.clear();
        self.brushes.clear();
    }

    /// Adds brush `id` with its configuration-space `planes` for box `shape`, noting which lie
    /// along `start -> end`.
    pub(super) fn add_brush(
        &mut self,
        id: BrushId,
        planes: impl Iterator<Item = Plane>,
        shape: &BoxShape,
        start: DVec3,
        end: DVec3,
    ) {
        let first = self.planes.len();
        let mut any = false;
        for plane in planes {
            let lies = plane.signed_distance(start).abs() <= CONTACT
                && plane.signed_distance(end).abs() <= CONTACT
                && width_across(shape, plane.normal()) <= THIN;
            any |= lies;
            self.planes.push(plane);
            self.lying.push(lies);
        }
        self.brushes.push((id, first, self.planes.len(), any));
    }

    /// True when the shape at `point` is in solid: the brushes it touches (within [`CONTACT`])
    /// cover every direction around it ([`covers_point`]), each brush's planes through the
    /// point closed where the shape has no width across them. `shape` as in
    /// [`ThinScratch::add_brush`]; the brushes are the ones added (a point query adds them for
    /// its point, a move for its whole length).
    pub(super) fn point_solid(&mut self, shape: &BoxShape, point: DVec3) -> bool {
        self.active.clear();
        self.solids.clear();
        for &(_, first, last, _) in &self.brushes {
            let from = self.active.len();
            let mut outside = false;
            for plane in &self.planes[first..last] {
                let d = plane.signed_distance(point);
                if d > CONTACT {
                    outside = true;
                    break;
                }
                if d >= -CONTACT {
                    self.active.push(ActivePlane {
                        normal: plane.normal(),
                        closed: width_across(shape, plane.normal()) <= THIN,
                    });
                }
            }
            if outside {
                self.active.truncate(from);
            } else if self.active.len() == from {
                // Deeper than CONTACT inside this brush.
                return true;
            } else {
                self.solids.push((from, self.active.len()));
            }
        }
        covers_point(self.solids.iter().map(|&(a, b)| &self.active[a..b]))
    }

    /// The first entry of the shape along `start -> end` over the brushes added, with the
    /// start's solidity given (from [`ThinScratch::point_solid`]): each brush's span over its
    /// planes that do not lie along the segment, taken in the sectors its lying planes face
    /// ([`first_entry_across`]).
    pub(super) fn first_entry(
        &mut self,
        shape: &BoxShape,
        start: DVec3,
        end: DVec3,
        skin: f64,
        start_solid: bool,
    ) -> MergedEntry<BrushId> {
        self.spans.clear();
        self.facing.clear();
        for &(id, first, last, _) in &self.brushes {
            let planes = &self.planes[first..last];
            let lying = &self.lying[first..last];
            let others = planes
                .iter()
                .zip(lying)
                .filter(|(_, lies)| !**lies)
                .map(|(p, _)| *p);
            if let Some(span) = super::span_of_planes(others, start, end) {
                let from = self.facing.len();
                self.facing.extend(
                    planes
                        .iter()
                        .zip(lying)
                        .filter(|(_, lies)| **lies)
                        .map(|(p, _)| -p.normal()),
                );
                self.spans.push((span, id, from..self.facing.len()));
            }
        }
        let (spans, facing, across) = (&self.spans, &self.facing, &mut self.across);
        let mut end_solid = false;
        let outcome = first_entry_across(
            spans,
            facing,
            (start, end, skin),
            start_solid,
            || {
                end_solid = true;
                false
            },
            across,
        );
        if end_solid && self.point_solid(shape, end) {
            // Ending on a seam: the move never leaves the union.
            return MergedEntry::AllSolid;
        }
        outcome
    }
}

/// Reused buffers of [`first_entry_across`].
#[derive(Debug, Clone)]
pub struct AcrossScratch<T> {
    witnesses: Vec<DVec3>,
    spans: Vec<(Span, T)>,
    regions: Vec<Region<T>>,
    merged: Vec<Region<T>>,
    next: Vec<Region<T>>,
}

impl<T> Default for AcrossScratch<T> {
    fn default() -> AcrossScratch<T> {
        AcrossScratch {
            witnesses: Vec::new(),
            spans: Vec::new(),
            regions: Vec::new(),
            merged: Vec::new(),
            next: Vec::new(),
        }
    }
}

/// The first entry into solid of a shape without width across some plane along `start -> end`
/// (with the skin of the move, to rank simultaneous entries), over solids that may lie along it:
/// each `(span, id, facing)` is a solid's span over its planes that do not lie along the
/// segment, and `facing[facing]` the normals, reversed, of those that do (the directions from
/// the segment into the solid). The planes that lie along the segment cut the directions across
/// it into *sectors* (the cells of the lines the planes make in its cross-section); each sector
/// is the segment moved an infinitesimal distance into it, where a solid counts when the sector
/// is on its side of every one of its lying planes; a stretch is solid where **every** sector is.
/// So a ray down the seam of two touching solids is inside them, and one on a face with empty
/// space beyond it touches it only; four tiles meeting at an edge give four sectors, each
/// covered by one tile. In each sector the spans merge as the exact backend merges brushes
/// (touching solids join), a span left by a free start dropped first (it would join the spans
/// entered just after it across the start: a move from the corner of a floor and a wall into
/// the wall enters the wall).
///
/// `start_solid` says whether the start is in solid (from [`covers_point`] or a tree's
/// equivalent); a start in solid that no merged span holds by more than the contact band
/// continues into the span entered through a plane within [`CONTACT`] of the start. A move that
/// leaves solid within the contact band of its end, entering no other solid, may end on a seam,
/// inside the union: `end_solid` decides. Every backend answers a shape without width across a
/// plane with this (issue 35).
pub fn first_entry_across<T: Ord + Copy>(
    solids: &[(Span, T, Range<usize>)],
    facing: &[DVec3],
    (start, end, skin): (DVec3, DVec3, f64),
    start_solid: bool,
    end_solid: impl FnOnce() -> bool,
    scratch: &mut AcrossScratch<T>,
) -> MergedEntry<T> {
    sectors(facing, start, end, &mut scratch.witnesses);
    let keep = |span: &Span| {
        span.enter < 1.0
            && span.leave_loose > 0.0
            && span.enter < span.leave
            && (start_solid || span.enter >= 0.0 || span.leave > 0.0)
    };
    let pull_back = |span: &Span| pull_back(span, start, end, skin);
    let AcrossScratch {
        witnesses,
        spans,
        regions,
        merged,
        next,
    } = scratch;
    let sector_count = witnesses.len().max(1);
    for i in 0..sector_count {
        spans.clear();
        for (span, id, range) in solids {
            let covers = witnesses
                .get(i)
                .is_none_or(|w| facing[range.clone()].iter().all(|f| f.dot(*w) > 0.0));
            if covers && keep(span) {
                spans.push((*span, *id));
            }
        }
        merge(spans, pull_back, regions);
        if i == 0 {
            std::mem::swap(merged, regions);
        } else {
            intersect(merged, regions, next);
            std::mem::swap(merged, next);
        }
    }
    let touches = |span: &Span| {
        span.entry
            .is_none_or(|(plane, _)| plane.signed_distance(start) <= CONTACT)
    };
    match outcome(merged, Some(start_solid), touches) {
        MergedEntry::Free { start_solid: true }
            if start_region_touches_end(merged) && end_solid() =>
        {
            MergedEntry::AllSolid
        }
        outcome => outcome,
    }
}

/// One witness direction inside each sector the planes of normals `facing` cut around the
/// segment `start -> end` (none when there are none).
fn sectors(facing: &[DVec3], start: DVec3, end: DVec3, witnesses: &mut Vec<DVec3>) {
    witnesses.clear();
    if facing.is_empty() {
        return;
    }
    let axis = (end - start).normalize();
    let (e1, e2) = axis.any_orthonormal_pair();
    // The lines the planes make in the cross-section, as unit directions in its upper half.
    let mut lines: Vec<DVec2> = Vec::new();
    for n in facing {
        let Some(across) = DVec2::new(n.dot(e1), n.dot(e2)).try_normalize() else {
            continue;
        };
        let line = DVec2::new(-across.y, across.x);
        let line = if line.y < 0.0 || (line.y == 0.0 && line.x < 0.0) {
            -line
        } else {
            line
        };
        if !lines
            .iter()
            .any(|l| (*l - line).abs().max_element() <= NORMAL_EQUAL)
        {
            lines.push(line);
        }
    }
    if lines.is_empty() {
        return;
    }
    // By angle in [0, pi): x falls as the angle grows in the upper half.
    lines.sort_by(|a, b| b.x.total_cmp(&a.x).then(a.y.total_cmp(&b.y)));
    let witness = |w: DVec2| (e1 * w.x + e2 * w.y).normalize();
    if lines.len() == 1 {
        let across = DVec2::new(lines[0].y, -lines[0].x);
        witnesses.push(witness(across));
        witnesses.push(witness(-across));
        return;
    }
    for (i, &a) in lines.iter().enumerate() {
        // The sector from this line to the next, turning counter-clockwise (to the first line
        // reversed after the last), and its opposite.
        let b = lines.get(i + 1).copied().unwrap_or(-lines[0]);
        let mid = (a + b).normalize();
        witnesses.push(witness(mid));
        witnesses.push(witness(-mid));
    }
}

/// The skin pull-back fraction on a span's entry plane (infinite without one).
fn pull_back(span: &Span, start: DVec3, end: DVec3, skin: f64) -> f64 {
    span.entry.map_or(f64::INFINITY, |(plane, _)| {
        crate::collider::skin_fraction(
            plane.signed_distance(start),
            plane.signed_distance(end),
            skin,
        )
    })
}

/// Merges spans (sorted here) into regions: a span entered no later than the loose end of the
/// region before it joins it (touching solids have no seam), as [`super::first_entry`] merges.
pub(super) fn merge<T: Ord + Copy>(
    spans: &mut [(Span, T)],
    pull_back: impl Fn(&Span) -> f64,
    out: &mut Vec<Region<T>>,
) {
    out.clear();
    spans.sort_by(|a, b| a.0.enter.total_cmp(&b.0.enter).then(a.1.cmp(&b.1)));
    for &(span, id) in spans.iter() {
        let entry = span.entry.map(|_| (span, id, pull_back(&span)));
        match out.last_mut() {
            Some(region) if span.enter <= region.leave_loose => {
                region.leave = region.leave.max(span.leave);
                region.leave_loose = region.leave_loose.max(span.leave_loose);
                // Entered with the region: the entry the mover must stop earliest for.
                if span.enter <= region.enter + SAME_TIME
                    && let (Some(new), Some(old)) = (entry, region.entry)
                    && earlier(&new, &old)
                {
                    region.entry = Some(new);
                }
            }
            _ => out.push(Region {
                enter: span.enter,
                leave: span.leave,
                leave_loose: span.leave_loose,
                entry,
            }),
        }
    }
}

/// The regions solid in both `a` and `b` (each sorted, disjoint) into `out`: each entered where
/// the later of the two is, through its surface.
fn intersect<T: Ord + Copy>(a: &[Region<T>], b: &[Region<T>], out: &mut Vec<Region<T>>) {
    out.clear();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (ra, rb) = (&a[i], &b[j]);
        let enter = ra.enter.max(rb.enter);
        let leave = ra.leave.min(rb.leave);
        if enter < leave {
            let entry = if ra.enter > rb.enter + SAME_TIME {
                ra.entry
            } else if rb.enter > ra.enter + SAME_TIME {
                rb.entry
            } else {
                match (ra.entry, rb.entry) {
                    (Some(x), Some(y)) => Some(if earlier(&y, &x) { y } else { x }),
                    (x, y) => x.or(y),
                }
            };
            out.push(Region {
                enter,
                leave,
                leave_loose: ra.leave_loose.min(rb.leave_loose),
                entry,
            });
        }
        if ra.leave <= rb.leave {
            i += 1;
        } else {
            j += 1;
        }
    }
}

/// True when the region holding the start reaches the end within the contact band: the move
/// may end on a seam, inside the union though past every span it had entered
/// ([`super::first_entry_merged`] asks whether the end is in solid).
pub(super) fn start_region_touches_end<T>(regions: &[Region<T>]) -> bool {
    regions
        .iter()
        .any(|r| r.enter < 1.0 && r.leave > 0.0 && r.leave < 1.0 && r.leave_loose >= 1.0)
}

/// The first entry into solid after the region the segment starts in: `regions` sorted and
/// disjoint, a region containing the start (`enter < 0 < leave`) being the start's solid.
/// `start_solid`, when given, says whether the start is in solid (from [`covers_point`]);
/// otherwise the regions say.
///
/// A start in solid that no region holds by more than the contact band (the move leaves one
/// brush and enters the next through planes of different slopes, so their contact bands do not
/// join) continues into the region entered through a plane the start touches
/// (`touches_start`).
pub(super) fn outcome<T: Copy>(
    regions: &[Region<T>],
    start_solid: Option<bool>,
    touches_start: impl Fn(&Span) -> bool,
) -> MergedEntry<T> {
    let hit = |region: &Region<T>, start_solid: bool| match region.entry {
        Some((span, id, _)) => MergedEntry::Hit {
            start_solid,
            span,
            id,
        },
        // Entered before the segment without a surface: only a region the start is in can be.
        None => MergedEntry::Free { start_solid },
    };
    let mut holding = regions.iter().position(|r| r.enter < 0.0 && r.leave > 0.0);
    match start_solid {
        Some(false) => holding = None,
        Some(true) if holding.is_none() => {
            let first = regions.iter().position(|r| r.leave > 0.0 && r.enter < 1.0);
            match first {
                Some(i)
                    if regions[i]
                        .entry
                        .is_none_or(|(span, ..)| touches_start(&span)) =>
                {
                    holding = Some(i);
                }
                Some(i) => return hit(&regions[i], true),
                None => return MergedEntry::Free { start_solid: true },
            }
        }
        _ => {}
    }
    match holding {
        Some(i) if regions[i].leave >= 1.0 => MergedEntry::AllSolid,
        Some(i) => match regions[i + 1..].iter().find(|r| r.enter < 1.0) {
            Some(r) => hit(r, true),
            None => MergedEntry::Free { start_solid: true },
        },
        // Regions entered before the start and left by it were only touched at the start.
        None => match regions
            .iter()
            .find(|r| r.enter < 1.0 && r.leave > 0.0 && (r.enter >= 0.0 || r.entry.is_some()))
        {
            Some(r) => hit(r, false),
            None => MergedEntry::Free { start_solid: false },
        },
    }
}
