//! Links between walkable areas (van Waveren's AAS reachabilities), found from the configuration
//! space: walks across shared floor edges, and probes past every open edge (a ledge or a riser)
//! that trace the movement model's step, drop and jump through the pose's tree.

use std::collections::BTreeMap;

use cspace_geom::tolerance::{PLANE_THICKNESS, VERTEX_WELD};
use cspace_geom::{Aabb, Plane};
use glam::DVec3;

use crate::area::{Area, AreaGrid, cross2};
use crate::params::NavParams;
use crate::portals::{Below, LeafGraph};
use cspace_onion::{SolidEntry, WalkScratch};

/// How an agent gets from one area to the next (and from one waypoint to the next).
///
/// The order is that of difficulty: a path segment crossing several links is tagged with the
/// hardest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LinkKind {
    /// Walk across a shared floor edge (or along a floor).
    Walk,
    /// Walk up or down a step no higher than [`NavParams::step_height`] (the movement model's
    /// step-up; a step down is a fall of at most a step).
    Step,
    /// Walk off a ledge deeper than a step and fall (at most [`NavParams::max_fall`]).
    Drop,
    /// Jump: from the previous waypoint, running at walk speed towards this one, jump
    /// ([`NavParams::jump_speed`]) and land here: over a gap or onto a ledge too high to step.
    Jump,
    /// Change from the primary pose to a smaller one in place (crouch).
    Crouch,
    /// Change back to the primary pose in place (stand up): the primary pose is free here.
    StandUp,
    /// Walk into a teleporter's volume at the previous waypoint; the teleporter puts the agent
    /// at its destination, and it falls to the floor here (a living world's
    /// [`crate::Teleporter`]; one-way).
    Teleport,
    /// Walk onto a push pad at the previous waypoint; the pad's velocity carries the agent along
    /// the arc that lands here (a living world's [`crate::PushPad`]; one-way).
    Push,
}

impl LinkKind {
    /// Every kind, in order.
    pub const ALL: [LinkKind; 8] = [
        LinkKind::Walk,
        LinkKind::Step,
        LinkKind::Drop,
        LinkKind::Jump,
        LinkKind::Crouch,
        LinkKind::StandUp,
        LinkKind::Teleport,
        LinkKind::Push,
    ];

    /// The kind's name as the command line and the docs spell it (`walk`, `step`, ...).
    pub fn name(self) -> &'static str {
        match self {
            LinkKind::Walk => "walk",
            LinkKind::Step => "step",
            LinkKind::Drop => "drop",
            LinkKind::Jump => "jump",
            LinkKind::Crouch => "crouch",
            LinkKind::StandUp => "stand",
            LinkKind::Teleport => "teleport",
            LinkKind::Push => "push",
        }
    }
}

/// A directed link from one area to another.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// The area left.
    pub from: u32,
    /// The area reached.
    pub to: u32,
    /// How.
    pub kind: LinkKind,
    /// Where the link is taken, on `from`'s floor: a crossing segment `[left, right]` as seen
    /// moving through it; both ends equal for a link taken at one point (drop, jump, pose
    /// change). Configuration space (agent origin), units.
    pub start: [DVec3; 2],
    /// Where it arrives, on `to`'s floor (same conventions).
    pub end: [DVec3; 2],
    /// What the link itself costs, seconds: the move from `start` to `end` (walk, fall or
    /// flight time) plus any penalty; the walk to `start` is counted by the search.
    pub cost: f64,
    /// Height gained from `start` to `end`, units (negative for a drop).
    pub rise: f64,
    /// How many places the move may end at: 1, except for a teleporter with several
    /// destinations (Quake III picks one at random), which has a link to each, with their
    /// count here. The search takes only links of one outcome (docs/navigation.md, "Links
    /// of a living world").
    pub outcomes: u32,
}

impl Link {
    /// True when the link is a crossing segment (walks, steps): a path's corridor is pulled
    /// tight across it. The others (jumps, drops, pose changes, a step found by one probe only)
    /// are taken at one point, where the pulled stretches end.
    pub fn is_crossing(&self) -> bool {
        self.start[0] != self.start[1]
    }

    /// The middle of the start segment.
    pub fn start_point(&self) -> DVec3 {
        (self.start[0] + self.start[1]) * 0.5
    }

    /// The middle of the end segment.
    pub fn end_point(&self) -> DVec3 {
        (self.end[0] + self.end[1]) * 0.5
    }
}

/// Where two area edges overlap: parameters along the first edge, `0 <= lo < hi <= length`.
fn shared_segment(p0: DVec3, p1: DVec3, q0: DVec3, q1: DVec3) -> Option<(f64, f64)> {
    let d = p1 - p0;
    let length = d.length();
    if length < VERTEX_WELD {
        return None;
    }
    let u = d / length;
    // The polygons lie on either side of a shared edge, so its two copies run opposite ways.
    if (q1 - q0).dot(u) >= 0.0 {
        return None;
    }
    let off_line = |q: DVec3| {
        let r = q - p0;
        (r - u * r.dot(u)).length()
    };
    if off_line(q0) > PLANE_THICKNESS || off_line(q1) > PLANE_THICKNESS {
        return None;
    }
    let (s0, s1) = ((q0 - p0).dot(u), (q1 - p0).dot(u));
    let lo = s0.min(s1).max(0.0);
    let hi = s0.max(s1).min(length);
    (hi - lo >= VERTEX_WELD).then_some((lo, hi))
}

/// For each edge of an area, the stretches of it (parameters along the edge, units) that walk
/// links cross.
pub(crate) type EdgeCover = Vec<Vec<(f64, f64)>>;

/// The walk links between the areas `range` (one pose), and for each of their edges the
/// stretches crossed by them.
pub(crate) fn walk_links(
    areas: &[Area],
    range: std::ops::Range<usize>,
    grid: &AreaGrid,
) -> (Vec<Link>, Vec<EdgeCover>) {
    let first = range.start;
    let mut covered: Vec<EdgeCover> = areas[range.clone()]
        .iter()
        .map(|a| vec![Vec::new(); a.polygon.vertices.len()])
        .collect();
    let mut links = Vec::new();
    let mut near = Vec::new();
    for ia in range.clone() {
        let a = &areas[ia];
        near.clear();
        grid.for_each_near(a.bounds.loosened(PLANE_THICKNESS), |b| {
            let b = b as usize;
            if b > ia && range.contains(&b) {
                near.push(b);
            }
        });
        near.sort_unstable();
        near.dedup();
        for &ib in &near {
            let b = &areas[ib];
            if !a
                .bounds
                .loosened(PLANE_THICKNESS)
                .intersects(&b.bounds.loosened(PLANE_THICKNESS))
            {
                continue;
            }
            let (va, vb) = (&a.polygon.vertices, &b.polygon.vertices);
            for i in 0..va.len() {
                let (p0, p1) = (va[i], va[(i + 1) % va.len()]);
                for j in 0..vb.len() {
                    let (q0, q1) = (vb[j], vb[(j + 1) % vb.len()]);
                    let Some((lo, hi)) = shared_segment(p0, p1, q0, q1) else {
                        continue;
                    };
                    let u = (p1 - p0).normalize();
                    let (right, left) = (p0 + u * lo, p0 + u * hi);
                    covered[ia - first][i].push((lo, hi));
                    let ub = (q1 - q0).normalize();
                    let (t0, t1) = ((left - q0).dot(ub), (right - q0).dot(ub));
                    covered[ib - first][j].push((t0.min(t1), t0.max(t1)));
                    for (from, to, crossing) in [(ia, ib, [left, right]), (ib, ia, [right, left])] {
                        links.push(Link {
                            from: from as u32,
                            to: to as u32,
                            kind: LinkKind::Walk,
                            start: crossing,
                            end: crossing,
                            cost: 0.0,
                            rise: 0.0,
                            outcomes: 1,
                        });
                    }
                }
            }
        }
    }
    (merge_walks(links), covered)
}

/// The walk links of one pair of areas as one: the shared boundary of two convex floors is one
/// segment, found in pieces where an edge has a vertex on it (a cut left collinear vertices).
fn merge_walks(mut links: Vec<Link>) -> Vec<Link> {
    links.sort_by_key(|l| (l.from, l.to));
    let mut out: Vec<Link> = Vec::with_capacity(links.len());
    for link in links {
        match out.last_mut() {
            Some(last) if (last.from, last.to) == (link.from, link.to) => {
                // Along the crossing from its right end to its left end.
                let [left, right] = last.start;
                let Some(u) = (left - right).try_normalize() else {
                    *last = link;
                    continue;
                };
                let along = |p: DVec3| (p - right).dot(u);
                let ends = [left, right, link.start[0], link.start[1]];
                let l = ends
                    .into_iter()
                    .max_by(|a, b| along(*a).total_cmp(&along(*b)));
                let r = ends
                    .into_iter()
                    .min_by(|a, b| along(*a).total_cmp(&along(*b)));
                let (l, r) = (l.expect("four ends"), r.expect("four ends"));
                last.start = [l, r];
                last.end = [l, r];
            }
            _ => out.push(link),
        }
    }
    out
}

/// The parts of `[0, length]` not covered by `covered` (merged), each at least
/// [`VERTEX_WELD`] long.
pub(crate) fn open_stretches(length: f64, covered: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut sorted = covered.to_vec();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut out = Vec::new();
    let mut at = 0.0;
    for (lo, hi) in sorted {
        if lo - at >= VERTEX_WELD {
            out.push((at, lo));
        }
        at = f64::max(at, hi);
    }
    if length - at >= VERTEX_WELD {
        out.push((at, length));
    }
    out
}

/// The most chords of one jump arc: with Quake's constants the longest arc (up 45.6 units and
/// down to the deepest fall) takes 1.17 s, 75 chords of 1/64 s; finer steps or weaker gravity
/// stop here (over a minute of flight at the finest step).
pub(crate) const MAX_ARC_CHORDS: f64 = 65536.0;

/// What one probe past an edge found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Found {
    pub kind: LinkKind,
    pub to: u32,
    /// Take-off, on the probed area's floor.
    pub from_point: DVec3,
    /// Landing, on `to`'s floor.
    pub to_point: DVec3,
    /// Seconds.
    pub cost: f64,
}

/// Probes of one pose's open edges through its tree.
pub(crate) struct Prober<'a> {
    pub graph: &'a LeafGraph,
    pub areas: &'a [Area],
    pub grid: &'a AreaGrid,
    pub pose: usize,
    pub params: &'a NavParams,
    pub speed: f64,
    pub can_jump: bool,
    pub scratch: WalkScratch,
}

impl Prober<'_> {
    /// Where a free move `a -> b` first enters solid: the point and the plane entered (facing
    /// back); `None` when it stays free. A move starting in solid answers `Some` at `a` with no
    /// plane.
    pub(crate) fn hit(&mut self, a: DVec3, b: DVec3) -> Option<(DVec3, Option<Plane>)> {
        match self.graph.first_entry(a, b, &mut self.scratch) {
            entry if entry.start_solid() => Some((a, None)),
            SolidEntry::Hit { time, plane, .. } => {
                Some((cspace_geom::collider::lerp(a, b, time), plane))
            }
            _ => None,
        }
    }

    /// The area of the pose whose floor holds `point` (seen from above, within
    /// [`PLANE_THICKNESS`], on its plane within the same); the nearest plane, then the lowest
    /// index, when several do.
    pub fn area_at(&self, point: DVec3) -> Option<u32> {
        locate(self.areas, self.grid, self.pose, point)
    }

    /// The landing of a fall from `from` straight down (at most the deepest fall, plus the
    /// clearance): the area and the floor point, when the floor is walkable.
    pub(crate) fn fall(&mut self, from: DVec3) -> Option<(u32, DVec3)> {
        let below = from - DVec3::Z * (self.params.max_fall + self.params.clearance);
        let min_walk_normal = self.params.min_walk_normal;
        let Below::Floor(t) =
            self.graph
                .floor_below(from, below, min_walk_normal, &mut self.scratch)
        else {
            return None;
        };
        let point = cspace_geom::collider::lerp(from, below, t);
        Some((self.area_at(point)?, point))
    }

    /// Probes past the open edge point `p` of area `area` (on its floor), outwards `out`
    /// (horizontal, unit): a ledge gives a drop (or a small step up) and, for poses that jump, a
    /// running jump; a riser gives a step up or a jump onto it. Answers the walk-off or climb,
    /// and the running jump.
    pub fn probe(&mut self, area: u32, p: DVec3, out: DVec3) -> (Option<Found>, Option<Found>) {
        let params = *self.params;
        let p0 = p + DVec3::Z * params.clearance;
        if self.graph.is_solid(p0) {
            return (None, None);
        }
        let q = p0 + out * params.probe_reach;
        let speed = self.speed;
        let walk_time = move |a: DVec3, b: DVec3| a.distance(b) / speed;
        if self.hit(p0, q).is_none() {
            // A ledge (or a lip below the clearance): fall from just past it.
            let mut ground = None;
            if let Some((to, landing)) = self.fall(q)
                && to != area
            {
                let rise = landing.z - p.z;
                let (kind, cost) = if -rise <= params.step_height {
                    (LinkKind::Step, walk_time(p, landing))
                } else {
                    let fall = (2.0 * -rise / params.gravity).sqrt();
                    (LinkKind::Drop, walk_time(p, q) + fall)
                };
                if rise <= params.step_height {
                    ground = Some(Found {
                        kind,
                        to,
                        from_point: p,
                        to_point: landing,
                        cost,
                    });
                }
            }
            // Jump across when the fall is more than a step (or there is none).
            let depth = ground.map(|f: Found| p.z - f.to_point.z);
            let worth_jumping = depth.is_none_or(|d| d > params.step_height);
            let jump = (self.can_jump && worth_jumping)
                .then(|| self.jump_arc(area, p, p0, out))
                .flatten()
                .filter(|j| ground.is_none_or(|g| g.to != j.to));
            return (ground, jump);
        }
        // A riser: over it at step height, else (for poses that jump) at the jump's height.
        let mut heights = vec![(params.step_height, LinkKind::Step)];
        let jump_height = params.ledge_jump_height();
        if self.can_jump && jump_height > params.step_height {
            heights.push((jump_height, LinkKind::Jump));
        }
        for (height, kind) in heights {
            let up_to = p0 + DVec3::Z * height;
            let top = match self.hit(p0, up_to) {
                None => up_to,
                Some((point, Some(_))) => point,
                Some((_, None)) => return (None, None),
            };
            let over = top + out * params.probe_reach;
            if self.hit(top, over).is_some() {
                continue;
            }
            let down = over - DVec3::Z * (top.z - p.z);
            let Below::Floor(t) =
                self.graph
                    .floor_below(over, down, params.min_walk_normal, &mut self.scratch)
            else {
                continue;
            };
            let landing = cspace_geom::collider::lerp(over, down, t);
            let rise = landing.z - p.z;
            let fits = match kind {
                LinkKind::Step => rise > 0.0 && rise <= params.step_height,
                _ => rise > params.step_height && rise <= jump_height,
            };
            if !fits {
                continue;
            }
            let Some(to) = self.area_at(landing) else {
                continue;
            };
            if to == area {
                continue;
            }
            let cost = match kind {
                LinkKind::Step => walk_time(p, landing),
                // Up to the lip and down onto it: the time of the arc through that height.
                _ => {
                    let v = params.jump_speed;
                    let g = params.gravity;
                    let t_up = (v - (v * v - 2.0 * g * rise).max(0.0).sqrt()) / g;
                    t_up + walk_time(p, landing) + params.jump_penalty
                }
            };
            let climb = Found {
                kind,
                to,
                from_point: p,
                to_point: landing,
                cost,
            };
            return (Some(climb), None);
        }
        (None, None)
    }

    /// The running jump from `p` (floor) outwards: the movement model's arc (walk speed
    /// outwards, jump speed up, gravity down) traced chord by chord through the tree until it
    /// lands on a walkable floor of another area.
    fn jump_arc(&mut self, area: u32, p: DVec3, p0: DVec3, out: DVec3) -> Option<Found> {
        let params = *self.params;
        let (v, w, g) = (params.jump_speed, params.walk_speed, params.gravity);
        let at = |t: f64| p0 + out * (w * t) + DVec3::Z * (v * t - 0.5 * g * t * t);
        let floor = p.z - params.max_fall;
        // Chords until the arc is below the deepest fall (a bound on the count as well).
        let chords = (params.max_flight_time() / params.arc_step)
            .ceil()
            .min(MAX_ARC_CHORDS) as u32;
        let mut a = p0;
        for step in 1..=chords {
            let t = f64::from(step) * params.arc_step;
            let b = at(t);
            if let Some((point, plane)) = self.hit(a, b) {
                let plane = plane?;
                if plane.normal().z < params.min_walk_normal {
                    return None;
                }
                let to = self.area_at(point)?;
                if to == area {
                    return None;
                }
                // The flight time to the chord's hit, counting the chord up to it.
                let along = a.distance(point) / a.distance(b).max(f64::MIN_POSITIVE);
                let time = t - params.arc_step * (1.0 - along);
                return Some(Found {
                    kind: LinkKind::Jump,
                    to,
                    from_point: p,
                    to_point: point,
                    cost: time + params.jump_penalty,
                });
            }
            if b.z < floor {
                return None;
            }
            a = b;
        }
        None
    }
}

/// The area of `pose` whose floor holds `point` (see [`Prober::area_at`]).
pub(crate) fn locate(areas: &[Area], grid: &AreaGrid, pose: usize, point: DVec3) -> Option<u32> {
    let mut best: Option<(f64, u32)> = None;
    grid.for_each_near(Aabb::new(point, point).loosened(PLANE_THICKNESS), |i| {
        let a = &areas[i as usize];
        if a.pose != pose || !a.contains_xy(point, PLANE_THICKNESS) {
            return;
        }
        let d = a.polygon.plane.signed_distance(point).abs();
        if d <= PLANE_THICKNESS && best.is_none_or(|(bd, bi)| (d, i) < (bd, bi)) {
            best = Some((d, i));
        }
    });
    best.map(|(_, i)| i)
}

/// An open stretch of an area's edge (a ledge or a riser) with its probe points: each on the
/// edge, with the outward horizontal direction.
pub(crate) struct OpenEdge {
    pub area: u32,
    pub samples: Vec<(DVec3, DVec3)>,
}

/// The probe points of every open edge stretch of the areas `range`: evenly spaced (at most
/// `spacing` apart, none at the stretch's ends), with the outward horizontal direction.
pub(crate) fn probe_points(
    areas: &[Area],
    range: std::ops::Range<usize>,
    covered: &[EdgeCover],
    spacing: f64,
) -> Vec<OpenEdge> {
    let mut out = Vec::new();
    for ia in range.clone() {
        let v = &areas[ia].polygon.vertices;
        for i in 0..v.len() {
            let (p0, p1) = (v[i], v[(i + 1) % v.len()]);
            let d = p1 - p0;
            let length = d.length();
            if length < VERTEX_WELD {
                continue;
            }
            // Counter-clockwise seen from above: the outside is to the edge's right.
            let Some(outward) = DVec3::new(d.y, -d.x, 0.0).try_normalize() else {
                continue;
            };
            debug_assert!(cross2(d, outward) < 0.0);
            for (lo, hi) in open_stretches(length, &covered[ia - range.start][i]) {
                let count = ((hi - lo) / spacing).ceil().max(1.0) as usize;
                let samples = (0..count)
                    .map(|k| {
                        let s = lo + (hi - lo) * (k as f64 + 0.5) / count as f64;
                        (p0 + d * (s / length), outward)
                    })
                    .collect();
                out.push(OpenEdge {
                    area: ia as u32,
                    samples,
                });
            }
        }
    }
    out
}

/// The links from the probes of one open edge stretch: consecutive probes that reach the same
/// area the same way form a run; a run of steps (up or down) is one crossing segment (first to
/// last probe: the movement model walks up or down it anywhere), a run of drops or of jumps is
/// taken at its middle probe. Of the runs from one area to another of one kind, the longest is
/// kept.
pub(crate) fn links_of_runs(
    from: u32,
    found: &[Option<Found>],
    runs: &mut BTreeMap<(u32, u32, LinkKind), (usize, Link)>,
) {
    let mut i = 0;
    while i < found.len() {
        let Some(f) = found[i] else {
            i += 1;
            continue;
        };
        let mut j = i + 1;
        while j < found.len() && found[j].is_some_and(|g| g.kind == f.kind && g.to == f.to) {
            j += 1;
        }
        let run = &found[i..j];
        let first = run[0].expect("a run holds probes");
        let last = run[run.len() - 1].expect("a run holds probes");
        let mid = run[run.len() / 2].expect("a run holds probes");
        let rise = mid.to_point.z - mid.from_point.z;
        let (start, end) = if f.kind == LinkKind::Step {
            // Probes run along the edge: the last is on the left seen moving out.
            (
                [last.from_point, first.from_point],
                [last.to_point, first.to_point],
            )
        } else {
            ([mid.from_point; 2], [mid.to_point; 2])
        };
        let cost = run.iter().flatten().map(|g| g.cost).fold(0.0, f64::max);
        let link = Link {
            from,
            to: f.to,
            kind: f.kind,
            start,
            end,
            cost,
            rise,
            outcomes: 1,
        };
        let key = (from, f.to, f.kind);
        let better = runs.get(&key).is_none_or(|(n, _)| run.len() > *n);
        if better {
            runs.insert(key, (run.len(), link));
        }
        i = j;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_between_one_pair_merge_into_one_crossing() {
        let walk = |from, to, l: f64, r: f64| Link {
            from,
            to,
            kind: LinkKind::Walk,
            start: [DVec3::new(0.0, l, 0.0), DVec3::new(0.0, r, 0.0)],
            end: [DVec3::new(0.0, l, 0.0), DVec3::new(0.0, r, 0.0)],
            cost: 0.0,
            rise: 0.0,
            outcomes: 1,
        };
        let merged = merge_walks(vec![
            walk(0, 1, 10.0, 4.0),
            walk(1, 0, 4.0, 10.0),
            walk(0, 1, 4.0, 0.0),
        ]);
        assert_eq!(merged.len(), 2);
        assert_eq!(merged[0].start, [DVec3::new(0.0, 10.0, 0.0), DVec3::ZERO]);
        assert_eq!(
            merged[1].start,
            [DVec3::new(0.0, 4.0, 0.0), DVec3::new(0.0, 10.0, 0.0)]
        );
    }

    #[test]
    fn shared_segments_need_opposite_collinear_edges() {
        let x = |x: f64, y: f64| DVec3::new(x, y, 0.0);
        let shared = |q0, q1| shared_segment(x(0.0, 0.0), x(10.0, 0.0), q0, q1);
        assert_eq!(shared(x(12.0, 0.0), x(4.0, 0.0)), Some((4.0, 10.0)));
        // Same direction: not a shared edge.
        assert_eq!(shared(x(4.0, 0.0), x(12.0, 0.0)), None);
        // Off the line.
        assert_eq!(shared(x(12.0, 0.01), x(4.0, 0.01)), None);
        // Meeting at a point only.
        assert_eq!(shared(x(20.0, 0.0), x(10.0, 0.0)), None);
    }

    #[test]
    fn open_stretches_are_the_gaps_between_crossings() {
        let open = open_stretches(10.0, &[(6.0, 8.0), (0.0, 2.0), (1.0, 3.0)]);
        assert_eq!(open, vec![(3.0, 6.0), (8.0, 10.0)]);
        assert_eq!(open_stretches(10.0, &[(0.0, 10.0)]), vec![]);
        assert_eq!(open_stretches(10.0, &[]), vec![(0.0, 10.0)]);
    }
}
