//! Paths: A* over the areas, then the corridor pulled tight (the funnel algorithm) into
//! waypoints, each tagged with how to reach it.

use std::cmp::Reverse;

use glam::DVec3;

use crate::area::{cross2, rise_along};
use crate::context::NavContext;
use crate::error::{Endpoint, NavError};
use crate::link::LinkKind;
use crate::mesh::NavMesh;
use cspace_geom::tolerance::VERTEX_WELD;
use cspace_onion::WalkScratch;

use crate::portals::Below;

/// A point of a path: where the agent's origin goes next, and how.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Waypoint {
    /// The agent's origin (configuration space, units): on the floor of [`Waypoint::area`],
    /// [`crate::NavParams::clearance`] above it where that is free. Never inside solid for
    /// [`Waypoint::pose`].
    pub position: DVec3,
    /// How the agent gets here from the previous waypoint: walk (possibly across several
    /// areas), step up on the way, walk off a ledge and fall here, jump from the previous
    /// waypoint and land here, or change pose in place. The first waypoint (the start) is a
    /// walk.
    pub kind: LinkKind,
    /// The pose the agent is in on the way here (for a pose change, the new pose): an index into
    /// [`NavMesh::poses`].
    pub pose: usize,
    /// The area the waypoint lies on (for a point on a shared edge, the area the path goes on
    /// into).
    pub area: u32,
    /// Seconds the way here waits for doors to open (a living world's [`crate::Door`]s whose
    /// closed place the straight leg from the previous waypoint enters; 0 where none).
    pub wait: f64,
}

/// A planned path.
#[derive(Debug, Clone, PartialEq)]
pub struct Path {
    /// The waypoints, from the start (on its floor) to the goal (on its floor).
    pub waypoints: Vec<Waypoint>,
    /// The areas passed, in order (the start's first, the goal's last).
    pub areas: Vec<u32>,
    /// The links taken, in order (indices into [`NavMesh::links`]).
    pub links: Vec<u32>,
    /// The search's estimate of the time the path takes, seconds (walking at each pose's speed,
    /// falls and jumps at their times, plus penalties).
    pub cost: f64,
}

impl Path {
    /// The length of the polyline through the waypoints, units.
    pub fn length(&self) -> f64 {
        self.waypoints
            .windows(2)
            .map(|w| w[0].position.distance(w[1].position))
            .sum()
    }
}

/// What a search found: the start and goal (area, floor point) and the cost between them.
#[derive(Debug, Clone, Copy)]
struct Found {
    start: (u32, DVec3),
    goal: (u32, DVec3),
    cost: f64,
}

/// No link (the start of a search).
const NONE: u32 = u32::MAX;

impl NavMesh {
    /// Plans a path for an agent of pose `pose` (an index into [`NavMesh::poses`]) whose origin
    /// is at `from`, to the origin `to`. Both are placed on the walkable floor straight below
    /// them (within the deepest fall). `Ok(None)` when the goal cannot be reached.
    ///
    /// A* over the areas (cost: the estimated time; heuristic: the horizontal distance at walk
    /// speed), then the corridor pulled tight seen from above between the links taken at one
    /// point (drops, jumps, pose changes). Deterministic: ties go to the lower area index.
    pub fn path(
        &self,
        from: DVec3,
        to: DVec3,
        pose: usize,
        ctx: &mut NavContext,
    ) -> Result<Option<Path>, NavError> {
        let Some(found) = self.search(from, to, pose, ctx)? else {
            return Ok(None);
        };
        Ok(Some(self.corridor(found, pose, ctx)))
    }

    /// True when an agent of pose `pose` at `from` can reach `to` (see [`NavMesh::path`]).
    pub fn reachable(
        &self,
        from: DVec3,
        to: DVec3,
        pose: usize,
        ctx: &mut NavContext,
    ) -> Result<bool, NavError> {
        Ok(self.search(from, to, pose, ctx)?.is_some())
    }

    /// Locates both ends and runs A*; the search's arrays in `ctx` then hold the tree of links.
    fn search(
        &self,
        from: DVec3,
        to: DVec3,
        pose: usize,
        ctx: &mut NavContext,
    ) -> Result<Option<Found>, NavError> {
        let start = self.locate(from, pose, Endpoint::Start, ctx)?;
        // The goal is wherever the agent's origin can stand: the start's pose first.
        let goal = match self.locate(to, pose, Endpoint::Goal, ctx) {
            Ok(g) => g,
            Err(first) => (0..self.poses.len())
                .filter(|&p| p != pose)
                .find_map(|p| self.locate(to, p, Endpoint::Goal, ctx).ok())
                .ok_or(first)?,
        };
        if self.component[start.0 as usize] != self.component[goal.0 as usize] {
            return Ok(None);
        }
        Ok(self
            .astar(start, goal, ctx)
            .map(|cost| Found { start, goal, cost }))
    }

    /// A* from `start` to `goal` (area, point); the total cost when the goal is reached.
    fn astar(&self, start: (u32, DVec3), goal: (u32, DVec3), ctx: &mut NavContext) -> Option<f64> {
        let s = &mut ctx.search;
        s.begin(self.areas.len());
        let generation = s.generation;
        let inv_speed = 1.0 / self.params.walk_speed;
        // The horizontal distance at walk speed to the goal, or to the nearest start of a link
        // that moves faster (a teleporter, a push pad): no path gets there sooner.
        let fast = &self.fast_starts;
        let h = |p: DVec3| {
            let p2 = p.truncate();
            let near = fast
                .iter()
                .map(|f| (p2 - *f).length())
                .fold((p - goal.1).truncate().length(), f64::min);
            near * inv_speed
        };
        let (a, at) = start;
        s.stamp[a as usize] = generation;
        s.cost[a as usize] = 0.0;
        s.at[a as usize] = at;
        s.via[a as usize] = NONE;
        s.open.push(Reverse((h(at).to_bits(), a)));
        while let Some(Reverse((_, a))) = s.open.pop() {
            let ai = a as usize;
            if s.closed[ai] == generation {
                continue;
            }
            s.closed[ai] = generation;
            if a == goal.0 {
                let wait = self.doors.wait(a, s.at[ai], goal.1);
                return Some(s.cost[ai] + s.at[ai].distance(goal.1) / self.area_speed[ai] + wait);
            }
            let (cost, at, speed) = (s.cost[ai], s.at[ai], self.area_speed[ai]);
            let links = self.link_start[ai] as usize..self.link_start[ai + 1] as usize;
            for (i, hop) in self.hops[links.clone()].iter().enumerate() {
                let b = hop.to as usize;
                if s.closed[b] == generation || !hop.planned {
                    continue;
                }
                let wait = self.doors.wait(a, at, hop.start);
                let c = cost + at.distance(hop.start) / speed + wait + hop.cost;
                if s.stamp[b] != generation || c < s.cost[b] {
                    s.stamp[b] = generation;
                    s.cost[b] = c;
                    s.at[b] = hop.end;
                    s.via[b] = (links.start + i) as u32;
                    s.open.push(Reverse(((c + h(hop.end)).to_bits(), hop.to)));
                }
            }
        }
        None
    }

    /// The path found by the last search: its links back from the goal, then the waypoints.
    fn corridor(&self, found: Found, pose: usize, ctx: &mut NavContext) -> Path {
        let Found { start, goal, cost } = found;
        let s = &ctx.search;
        let mut links = Vec::new();
        let mut at = goal.0;
        while s.via[at as usize] != NONE {
            let l = s.via[at as usize];
            links.push(l);
            at = self.links[l as usize].from;
        }
        links.reverse();
        let mut areas = vec![start.0];
        areas.extend(links.iter().map(|&l| self.links[l as usize].to));

        let start_pose = self.areas[start.0 as usize].pose;
        let mut waypoints = vec![Waypoint {
            position: self.lifted(start.0, start.1),
            kind: LinkKind::Walk,
            pose,
            area: start.0,
            wait: 0.0,
        }];
        // A secondary pose standing where only the primary pose's area was kept stands up first
        // (the primary pose is free on its areas).
        if start_pose != pose {
            waypoints.push(Waypoint {
                kind: LinkKind::StandUp,
                pose: start_pose,
                ..waypoints[0]
            });
        }
        // Legs of crossings, pulled tight, between the links taken at one point.
        let mut leg_start = start.1;
        let mut portals: Vec<Portal> = Vec::new();
        for &l in &links {
            let link = &self.links[l as usize];
            if link.is_crossing() {
                // On sloped floors, corners kept off the crossing's ends (the corridor's edges,
                // often the rims of steep faces), by up to a quarter of its length.
                let (l, r) = (link.start[0], link.start[1]);
                let sloped = [link.from, link.to]
                    .iter()
                    .any(|&a| self.areas[a as usize].polygon.plane.normal().z < SLOPED_NORMAL);
                let inset = if sloped {
                    (PORTAL_INSET / l.distance(r).max(f64::MIN_POSITIVE)).min(0.25)
                } else {
                    0.0
                };
                portals.push(Portal {
                    left: l + (r - l) * inset,
                    right: r + (l - r) * inset,
                    kind: link.kind,
                    // A step's crossing lies on the lower floor's edge, a walk's on both floors.
                    area: if link.kind == LinkKind::Walk {
                        link.to
                    } else {
                        link.from
                    },
                    from: link.from,
                    to: link.to,
                });
                continue;
            }
            let take_off = link.start[0];
            self.pull_leg(
                leg_start,
                &portals,
                take_off,
                link.from,
                &mut waypoints,
                &mut ctx.walk,
            );
            portals.clear();
            let to_pose = self.areas[link.to as usize].pose;
            waypoints.push(Waypoint {
                position: self.lifted(link.to, link.end[0]),
                kind: link.kind,
                pose: to_pose,
                area: link.to,
                wait: 0.0,
            });
            leg_start = link.end[0];
        }
        self.pull_leg(
            leg_start,
            &portals,
            goal.1,
            goal.0,
            &mut waypoints,
            &mut ctx.walk,
        );
        // The doors each walked leg waits for.
        if !self.doors.boxes.is_empty() {
            for i in 1..waypoints.len() {
                let (a, b) = (waypoints[i - 1], waypoints[i]);
                if matches!(b.kind, LinkKind::Walk | LinkKind::Step) {
                    waypoints[i].wait = self.doors.wait_any(b.pose, a.position, b.position);
                }
            }
        }
        Path {
            waypoints,
            areas,
            links,
            cost,
        }
    }

    /// The funnel over one leg: from `from` through `portals` to `to` (on area `last`), the
    /// corners appended to `out` (the leg's start is the last waypoint already there; a corner
    /// at the same place as the previous waypoint is not repeated).
    fn pull_leg(
        &self,
        from: DVec3,
        portals: &[Portal],
        to: DVec3,
        last: u32,
        out: &mut Vec<Waypoint>,
        walk: &mut WalkScratch,
    ) {
        let pose = self.areas[last as usize].pose;
        let corners = over_floors(from, portals, funnel(from, portals, to), |a, b| {
            self.over_floor(pose, a, b, walk)
        });
        let (mut at, mut crossed) = (from, 0);
        for c in corners {
            // Crests crossed on the way to the corner first, then the corner.
            let between = portals.get(crossed..c.portal.min(portals.len()));
            for portal in between.unwrap_or_default() {
                if let Some(crest) = self.crest(at, c.point, portal) {
                    push_waypoint(out, crest);
                }
            }
            crossed = c.portal + 1;
            at = c.point;
            let area = if c.portal < portals.len() {
                portals[c.portal].area
            } else {
                last
            };
            push_waypoint(
                out,
                Waypoint {
                    position: self.lifted(area, c.point),
                    kind: c.kind,
                    pose: self.areas[area as usize].pose,
                    area,
                    wait: 0.0,
                },
            );
        }
    }

    /// True when every probe along `a`..`b` finds walkable floor of pose `pose` below it (see
    /// [`over_floors`]).
    fn over_floor(&self, pose: usize, a: DVec3, b: DVec3, walk: &mut WalkScratch) -> bool {
        let graph = &self.graphs[pose];
        let up = DVec3::Z * self.params.step_height;
        // The floor between the ends may be as low as the lower end (a flat run after a stair
        // down lies below the straight line), less the depth.
        let lowest = a.z.min(b.z) - FLOOR_PROBE_DEPTH;
        let count = ((b - a).truncate().length() / FLOOR_PROBE_SPACING).floor() as usize;
        (1..=count).all(|k| {
            let p = a.lerp(b, k as f64 / (count + 1) as f64);
            // Solid at the top counts: a tread above the line.
            let below =
                graph.floor_below(p + up, p.with_z(lowest), self.params.min_walk_normal, walk);
            below != Below::Nothing
        })
    }

    /// A waypoint where the straight leg `a`..`b` (seen from above) crosses `portal`, when the
    /// crossing is a walk over a crest: the floor's slope along the leg (rise per unit across)
    /// falls by more than [`crate::NavParams::crest_bend`] there. An agent walking fast over a
    /// crest leaves the ground and flies on; the follower slows down for it (`cspace-sim`'s
    /// `goto`), and needs the crest as a point of the path to know where.
    fn crest(&self, a: DVec3, b: DVec3, portal: &Portal) -> Option<Waypoint> {
        if portal.kind != LinkKind::Walk {
            return None;
        }
        let u = (b - a).truncate();
        let rise = |area: u32| rise_along(self.areas[area as usize].polygon.plane.normal(), b - a);
        if u.length_squared() == 0.0
            || rise(portal.from) - rise(portal.to) <= self.params.crest_bend
        {
            return None;
        }
        // Where the leg crosses the portal's segment (clamped onto it).
        let (l, r) = (portal.left.truncate(), portal.right.truncate());
        let e = r - l;
        let denom = u.perp_dot(e);
        if denom == 0.0 {
            return None;
        }
        let t = ((l - a.truncate()).perp_dot(u) / denom).clamp(0.0, 1.0);
        let point = portal.left + (portal.right - portal.left) * t;
        let area = portal.to;
        Some(Waypoint {
            position: self.lifted(area, self.areas[area as usize].on_floor(point)),
            kind: LinkKind::Walk,
            pose: self.areas[area as usize].pose,
            area,
            wait: 0.0,
        })
    }
}

/// Appends `w`, unless it is at the same place as the last waypoint, reached the same way.
fn push_waypoint(out: &mut Vec<Waypoint>, w: Waypoint) {
    if out
        .last()
        .is_some_and(|last| last.position.distance(w.position) < VERTEX_WELD && last.kind == w.kind)
    {
        return;
    }
    out.push(w);
}

/// How far a pulled leg's corners are kept from the ends of the crossings they turn at, units:
/// 8 (a quarter of a Quake player's width).
const PORTAL_INSET: f64 = 8.0;

/// How far apart a pulled leg is probed for floor, units: 16. The probes are in configuration
/// space, where a hole is already narrowed by the box's width; with 16 the validation's
/// outcome is the same as with 8, pair for pair, at less cost to a path query.
const FLOOR_PROBE_SPACING: f64 = 16.0;

/// How far below the lower end of a pulled leg's stretch its floor probes reach, units: 26 (a
/// step, 18, and 8 more for the chord of a gentle valley).
const FLOOR_PROBE_DEPTH: f64 = 26.0;

/// Floors whose normal's z is below this are sloped: 0.95 (about 18 degrees).
const SLOPED_NORMAL: f64 = 0.95;

/// A crossing of a leg: the segment `[left, right]` as seen moving through it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Portal {
    left: DVec3,
    right: DVec3,
    kind: LinkKind,
    /// The area a corner on it lies on.
    area: u32,
    /// The areas it leads from and to.
    from: u32,
    to: u32,
}

/// A corner of a pulled leg: the point, the portal it lies on (`portals.len()` for the leg's
/// end), and the hardest kind of crossing on the way to it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Corner {
    point: DVec3,
    portal: usize,
    kind: LinkKind,
}

/// Keeps a pulled leg over floor. The funnel sees the corridor from above, so where floors of
/// the corridor overlap seen from above, or a hole lies between its crossings (a pit beside the
/// foot of a stair, the rim of a ledge the leg runs along), a straight stretch between corners
/// can pass over no floor. A stretch that `over_floor` says does (the graph probes it every
/// [`FLOOR_PROBE_SPACING`] units, straight down in the pose's space from a step above it to
/// [`FLOOR_PROBE_DEPTH`] below its lower end, [`NavMesh::over_floor`]) goes instead through the
/// middles of the crossings it passes, and the corners' kinds are counted again
/// ([`assign_kinds`]).
fn over_floors(
    from: DVec3,
    portals: &[Portal],
    corners: Vec<Corner>,
    mut over_floor: impl FnMut(DVec3, DVec3) -> bool,
) -> Vec<Corner> {
    let mut out: Vec<Corner> = Vec::with_capacity(corners.len());
    let (mut a, mut next, mut rerouted) = (from, 0, false);
    for c in corners {
        let end = c.portal.min(portals.len());
        if next < end && !over_floor(a, c.point) {
            rerouted = true;
            for (k, p) in portals.iter().enumerate().take(end).skip(next) {
                out.push(Corner {
                    point: (p.left + p.right) * 0.5,
                    portal: k,
                    kind: LinkKind::Walk,
                });
            }
        }
        a = c.point;
        next = c.portal + 1;
        out.push(c);
    }
    if rerouted {
        assign_kinds(portals, &mut out);
    }
    out
}

/// The shortest path seen from above from `from` through the portals to `to`: the simple
/// stupid funnel algorithm (Mononen), restarting from each corner found.
fn funnel(from: DVec3, portals: &[Portal], to: DVec3) -> Vec<Corner> {
    // Index 0 is the start, 1..=n the portals, n + 1 the end.
    let n = portals.len();
    let point = |i: usize| -> (DVec3, DVec3) {
        if i == 0 {
            (from, from)
        } else if i <= n {
            (portals[i - 1].left, portals[i - 1].right)
        } else {
            (to, to)
        }
    };
    let same = |a: DVec3, b: DVec3| (a - b).truncate().length_squared() < VERTEX_WELD * VERTEX_WELD;
    let mut out = Vec::new();
    let (mut apex, mut left, mut right) = (from, from, from);
    let (mut left_i, mut right_i) = (0usize, 0usize);
    let mut i = 1;
    while i <= n + 1 {
        let (l, r) = point(i);
        // Tighten the right side: `r` inside the funnel (left of the right ray, or on it). A
        // side still at the apex (within the weld) has no direction yet: any point tightens it.
        if same(apex, right) || cross2(right - apex, r - apex) >= 0.0 {
            if same(apex, right) || same(apex, left) || cross2(left - apex, r - apex) < 0.0 {
                right = r;
                right_i = i;
            } else {
                // `r` crosses over the left side: the left point is a corner.
                out.push(Corner {
                    point: left,
                    portal: left_i.saturating_sub(1),
                    kind: LinkKind::Walk,
                });
                apex = left;
                right = apex;
                right_i = left_i;
                i = left_i + 1;
                continue;
            }
        }
        // Tighten the left side: `l` inside the funnel (right of the left ray, or on it).
        if same(apex, left) || cross2(left - apex, l - apex) <= 0.0 {
            if same(apex, left) || same(apex, right) || cross2(right - apex, l - apex) > 0.0 {
                left = l;
                left_i = i;
            } else {
                out.push(Corner {
                    point: right,
                    portal: right_i.saturating_sub(1),
                    kind: LinkKind::Walk,
                });
                apex = right;
                left = apex;
                left_i = right_i;
                i = right_i + 1;
                continue;
            }
        }
        i += 1;
    }
    // The end can come out as a corner already (a funnel closing on it): keep it once.
    match out.last_mut() {
        Some(last) if same(last.point, to) && last.point.z == to.z => last.portal = n,
        _ => out.push(Corner {
            point: to,
            portal: n,
            kind: LinkKind::Walk,
        }),
    }
    assign_kinds(portals, &mut out);
    out
}

/// Each corner's kind: the hardest crossing from the previous corner's (included; the first
/// from the leg's start) to its own (excluded).
fn assign_kinds(portals: &[Portal], corners: &mut [Corner]) {
    let mut lo = 0;
    for c in corners {
        let hi = c.portal.min(portals.len());
        c.kind = portals[lo.min(hi)..hi]
            .iter()
            .map(|p| p.kind)
            .max()
            .unwrap_or(LinkKind::Walk);
        lo = c.portal;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn portal(l: (f64, f64), r: (f64, f64), kind: LinkKind) -> Portal {
        Portal {
            left: DVec3::new(l.0, l.1, 0.0),
            right: DVec3::new(r.0, r.1, 0.0),
            kind,
            area: 0,
            from: 0,
            to: 0,
        }
    }

    #[test]
    fn a_straight_corridor_needs_no_corner() {
        // Going +x through three doors 20 wide around y = 0.
        let portals: Vec<_> = [10.0, 20.0, 30.0]
            .iter()
            .map(|&x| portal((x, 10.0), (x, -10.0), LinkKind::Walk))
            .collect();
        let c = funnel(DVec3::ZERO, &portals, DVec3::new(40.0, 0.0, 0.0));
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].point, DVec3::new(40.0, 0.0, 0.0));
    }

    #[test]
    fn a_bend_turns_at_the_inner_corner() {
        // Along +x to a door at x = 10 (y in -10..10), then a door turned up at y = 10..30
        // between x = 10 and 20: the goal is up and to the left, so the path turns at the
        // inner corner of the second door.
        let portals = vec![
            portal((10.0, 10.0), (10.0, -10.0), LinkKind::Walk),
            portal((10.0, 20.0), (20.0, 20.0), LinkKind::Step),
        ];
        let goal = DVec3::new(-30.0, 60.0, 0.0);
        let c = funnel(DVec3::ZERO, &portals, goal);
        let points: Vec<_> = c.iter().map(|c| c.point.truncate()).collect();
        assert_eq!(
            points,
            [(10.0, 10.0), (10.0, 20.0), (-30.0, 60.0)].map(|(x, y)| glam::DVec2::new(x, y)),
            "{c:?}"
        );
        // The step is crossed after its own corner, on the way to the goal.
        let kinds: Vec<_> = c.iter().map(|c| c.kind).collect();
        assert_eq!(kinds, [LinkKind::Walk, LinkKind::Walk, LinkKind::Step]);
    }

    /// A U-turn after a corner on a portal whose neighbour's end lies within the weld of it
    /// (`librequake_e3m4`'s portals under a staircase, two sliver areas' crossings 2e-12 apart):
    /// the funnel side left at that end has no direction, and must still take the next portal's
    /// point. It once kept it, so every later point tightened the other side and the leg ran
    /// straight across the U-turn (and the agent into the stairs' riser).
    #[test]
    fn a_side_at_the_apex_takes_the_next_point() {
        let portals = vec![
            portal(
                (142.17279522235577, 847.96875),
                (113.82720477764425, 847.96875),
                LinkKind::Walk,
            ),
            portal(
                (142.02884615384613, 832.0),
                (113.97115384615387, 832.0),
                LinkKind::Walk,
            ),
            portal((160.0, 703.9999999999526), (160.0, 656.0), LinkKind::Walk),
            portal(
                (161.4786729857813, 656.6824644549706),
                (161.49999999999912, 656.0),
                LinkKind::Walk,
            ),
            portal(
                (161.47867298578322, 656.6824644549708),
                (161.65517241379285, 656.0000000000002),
                LinkKind::Walk,
            ),
            portal(
                (287.99999999999994, 683.0769230769222),
                (229.33333333333715, 656.0000000000014),
                LinkKind::Walk,
            ),
            portal((288.0, 683.0769230769179), (288.0, 656.0), LinkKind::Walk),
            portal((480.0, 704.0), (526.6666666661314, 704.0), LinkKind::Walk),
            portal((480.0, 752.0), (576.0, 752.0), LinkKind::Walk),
            portal(
                (480.0, 756.9230769230746),
                (480.0, 766.769230769224),
                LinkKind::Step,
            ),
            portal((448.0, 760.0), (448.0, 808.0), LinkKind::Step),
            portal((416.0, 760.0), (416.0, 808.0), LinkKind::Step),
            portal((384.0, 760.0), (384.0, 808.0), LinkKind::Step),
            portal((352.0, 760.0), (352.0, 808.0), LinkKind::Step),
            portal((320.0, 760.0), (320.0, 808.0), LinkKind::Step),
            portal(
                (288.00000000000364, 760.0),
                (288.00000000000364, 808.0),
                LinkKind::Step,
            ),
            portal((256.0, 760.0), (256.0, 808.0), LinkKind::Step),
            portal((175.96875, 752.0), (175.96875, 816.0), LinkKind::Walk),
            portal((160.0, 752.0), (160.0, 816.0), LinkKind::Walk),
        ];
        let goal = DVec3::new(128.0, 800.0, 0.0);
        let c = funnel(DVec3::new(128.0, 853.005349650567, 0.0), &portals, goal);
        let points: Vec<_> = c.iter().map(|c| c.point.truncate().round()).collect();
        assert_eq!(
            points,
            [
                (161.0, 657.0),
                (480.0, 704.0),
                (480.0, 752.0),
                (480.0, 757.0),
                (128.0, 800.0)
            ]
            .map(|(x, y)| glam::DVec2::new(x, y)),
            "{c:?}"
        );
    }

    /// A stretch over no floor goes through the middles of the crossings it passes instead; the
    /// corners' kinds stay the funnel's (a step counted on the way beyond its crossing), and a
    /// stretch over floor is kept.
    #[test]
    fn a_stretch_over_no_floor_goes_through_the_crossings_middles() {
        let portals = vec![
            portal((10.0, 10.0), (10.0, -10.0), LinkKind::Walk),
            portal((20.0, 10.0), (20.0, -10.0), LinkKind::Step),
            portal((30.0, 10.0), (30.0, -30.0), LinkKind::Walk),
        ];
        let (from, to) = (DVec3::new(0.0, 8.0, 0.0), DVec3::new(40.0, 8.0, 0.0));
        let corners = funnel(from, &portals, to);
        assert_eq!(corners.len(), 1, "{corners:?}");
        let kept = over_floors(from, &portals, corners.clone(), |_, _| true);
        assert_eq!(kept, corners);
        let routed = over_floors(from, &portals, corners, |_, _| false);
        let points: Vec<_> = routed.iter().map(|c| c.point.truncate()).collect();
        assert_eq!(
            points,
            [(10.0, 0.0), (20.0, 0.0), (30.0, -10.0), (40.0, 8.0)]
                .map(|(x, y)| glam::DVec2::new(x, y))
        );
        let kinds: Vec<_> = routed.iter().map(|c| c.kind).collect();
        assert_eq!(
            kinds,
            [
                LinkKind::Walk,
                LinkKind::Walk,
                LinkKind::Step,
                LinkKind::Walk
            ]
        );
    }
}
