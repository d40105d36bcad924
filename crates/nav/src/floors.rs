//! The floor under a planned path: what a side view draws between two waypoints, so that a leg
//! over a ramp or up a stair follows its floors instead of the straight line between its ends.

use glam::DVec3;

use crate::area::cross2;
use crate::link::LinkKind;
use crate::mesh::NavMesh;
use crate::path::Path;
use cspace_geom::tolerance::VERTEX_WELD;

/// A point of the floor under a path's leg: the agent's origin there (on the floor, lifted as
/// waypoints are), and how it is reached from the point before it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloorPoint {
    /// The agent's origin (configuration space, units).
    pub position: DVec3,
    /// `Walk` along one floor; across a crossing between two areas, the crossing's link (`Walk`
    /// or `Step`); a drop, jump or pose change for the last point of a leg that is one.
    pub kind: LinkKind,
}

impl NavMesh {
    /// The floor under each leg of `path` (leg `i` runs from waypoint `i` to `i + 1`), seen from
    /// above along the straight leg: where it enters and leaves each area of the path it crosses,
    /// on that area's floor, each point tagged with how it is reached. A leg that walks and steps
    /// over several areas (tagged with its hardest crossing, [`crate::Waypoint::kind`]) thus
    /// shows which crossing is the step and where the floor rises. Drops, jumps and pose changes
    /// are their two ends (the plan says where they leave and land, not the flight between).
    /// Each leg starts and ends at its waypoints.
    pub fn floors_under(&self, path: &Path) -> Vec<Vec<FloorPoint>> {
        let mut legs = Vec::with_capacity(path.waypoints.len().saturating_sub(1));
        let mut cursor = 0;
        for pair in path.waypoints.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let mut leg = vec![FloorPoint {
                position: a.position,
                kind: LinkKind::Walk,
            }];
            let span = match b.kind {
                LinkKind::Walk | LinkKind::Step => self.span(path, cursor, a.area, b.area),
                _ => None,
            };
            if let Some((first, last)) = span {
                self.cross_areas(path, (first, last), a.position, b.position, &mut leg);
                cursor = last;
            } else if let Some(next) = path.areas[cursor..].iter().position(|&x| x == b.area) {
                cursor += next;
            }
            leg.push(FloorPoint {
                position: b.position,
                kind: if matches!(b.kind, LinkKind::Walk | LinkKind::Step) && leg.len() > 1 {
                    LinkKind::Walk
                } else {
                    b.kind
                },
            });
            legs.push(leg);
        }
        legs
    }

    /// The indices into `path.areas` of the areas of a leg from area `from` to area `to`, at or
    /// after `cursor`.
    fn span(&self, path: &Path, cursor: usize, from: u32, to: u32) -> Option<(usize, usize)> {
        let first = cursor + path.areas.get(cursor..)?.iter().position(|&x| x == from)?;
        let last = first + path.areas[first..].iter().position(|&x| x == to)?;
        Some((first, last))
    }

    /// Appends to `leg` the points where the straight leg `a`..`b` (seen from above) enters and
    /// leaves each of the areas `path.areas[first..=last]`, in order.
    fn cross_areas(
        &self,
        path: &Path,
        (first, last): (usize, usize),
        a: DVec3,
        b: DVec3,
        leg: &mut Vec<FloorPoint>,
    ) {
        let mut reached = 0.0;
        for index in first..=last {
            let area = path.areas[index];
            let Some((t0, t1)) = self.clip_to_area(area, a, b) else {
                continue;
            };
            let (t0, t1) = (t0.max(reached), t1.max(reached));
            let into = if index > first {
                self.links()[path.links[index - 1] as usize].kind
            } else {
                LinkKind::Walk
            };
            for (t, kind) in [(t0, into), (t1, LinkKind::Walk)] {
                let floor = self.areas()[area as usize].on_floor(a.lerp(b, t));
                let position = self.lifted(area, floor);
                let last = leg.last().expect("a leg starts with its first waypoint");
                if last.position.distance(position) < VERTEX_WELD {
                    continue;
                }
                leg.push(FloorPoint { position, kind });
            }
            reached = t1;
        }
    }

    /// The parameter interval of the segment `a`..`b` (seen from above) inside `area`'s polygon,
    /// when it has positive length (Cyrus-Beck against the polygon's edges, wound
    /// counter-clockwise seen from above).
    fn clip_to_area(&self, area: u32, a: DVec3, b: DVec3) -> Option<(f64, f64)> {
        let v = &self.areas()[area as usize].polygon.vertices;
        let d = b - a;
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for i in 0..v.len() {
            let (p, q) = (v[i], v[(i + 1) % v.len()]);
            let edge = q - p;
            let length = edge.truncate().length();
            if length == 0.0 {
                continue;
            }
            // Inside is to the left: cross2(edge, x - p) >= -weld * |edge|.
            let at = cross2(edge, a - p) + VERTEX_WELD * length;
            let rate = cross2(edge, d);
            if rate == 0.0 {
                if at < 0.0 {
                    return None;
                }
            } else {
                let t = -at / rate;
                if rate > 0.0 {
                    t0 = t0.max(t);
                } else {
                    t1 = t1.min(t);
                }
            }
        }
        (t1 > t0).then_some((t0, t1))
    }
}
