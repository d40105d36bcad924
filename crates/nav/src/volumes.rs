//! What a living world adds to the graph beyond its floors (issue 32): teleporters and push pads
//! as one-way links, and doors that open as a cost on the walks through them. Van Waveren's
//! AAS has the first two as reachabilities (`be_aas_reach.c`: `AAS_Reachability_Teleport`,
//! `AAS_Reachability_JumpPad`); here they are found the way the other links are, by tracing the
//! movement model through the pose's tree, from volumes the caller describes in plain data (the
//! simulator reads them from a map's entities, `cspace_sim::navigation`).

use cspace_geom::Aabb;
use cspace_geom::tolerance::{MAX_SPEED, WORLD_HALF_EXTENT};
use glam::DVec3;

use crate::area::{Area, AreaGrid};
use crate::error::NavError;
use crate::link::{Link, LinkKind, MAX_ARC_CHORDS, Prober};

/// A teleporter: an agent whose box meets `volume` is moved to one of `destinations`.
#[derive(Debug, Clone, PartialEq)]
pub struct Teleporter {
    /// The trigger's volume, world space, units.
    pub volume: Aabb,
    /// Where the agent appears, one per destination. Several: the game picks one at random
    /// (Quake III's `G_PickTarget`); the graph links to each, and the search takes none of them
    /// ([`Link::outcomes`]).
    pub destinations: Vec<Destination>,
}

/// Where a teleporter puts an agent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Destination {
    /// The agent's origin, world space, units (Quake 1's destination origin plus 27 up, Quake
    /// III's plus 1).
    pub origin: DVec3,
    /// The velocity it leaves with, units/s (300 along the destination's facing in Quake 1, 400
    /// in Quake III).
    pub velocity: DVec3,
}

/// A push pad (Quake 1's `trigger_push`, Quake III's jump pad): an agent whose box meets
/// `volume` has its velocity set to `velocity` at every step of contact (Quake 1's
/// `trigger_push_touch`, Quake III's `BG_TouchJumpPad`), then flies under gravity.
#[derive(Debug, Clone, PartialEq)]
pub struct PushPad {
    /// The trigger's volume, world space, units.
    pub volume: Aabb,
    /// The velocity it sets, units/s.
    pub velocity: DVec3,
}

/// A door the agent opens by walking up to it: the walk through its closed place waits for it.
#[derive(Debug, Clone, PartialEq)]
pub struct Door {
    /// Where it stands closed, world space, units (the team's bounds, for doors that move as
    /// one).
    pub volume: Aabb,
    /// Seconds from an agent's arrival in its field until it is open (its travel over its
    /// speed, plus the game's delay before it moves).
    pub opening: f64,
}

/// Everything beyond the floors a graph links through ([`crate::NavMesh::build_with`]). Empty
/// by default: a frozen world, whose movers are solid where the file draws them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NavVolumes {
    /// Teleporters.
    pub teleporters: Vec<Teleporter>,
    /// Push pads.
    pub pads: Vec<PushPad>,
    /// Doors the walks pass through, at a cost.
    pub doors: Vec<Door>,
}

impl NavVolumes {
    /// True when there is nothing to link.
    pub fn is_empty(&self) -> bool {
        self.teleporters.is_empty() && self.pads.is_empty() && self.doors.is_empty()
    }

    /// Checks every volume, point and number against the numeric domain.
    pub(crate) fn validate(&self) -> Result<(), NavError> {
        let point = |p: DVec3| p.is_finite() && p.abs().max_element() <= WORLD_HALF_EXTENT;
        let volume = |b: &Aabb| point(b.min) && point(b.max) && b.min.cmple(b.max).all();
        let bad = |what, index, reason: &str| {
            Err(NavError::BadVolume {
                what,
                index,
                reason: reason.to_string(),
            })
        };
        for (i, t) in self.teleporters.iter().enumerate() {
            if !volume(&t.volume) {
                return bad("teleporter", i, "its volume is empty or beyond the domain");
            }
            let speed = |v: DVec3| v.is_finite() && v.abs().max_element() <= MAX_SPEED;
            if !t
                .destinations
                .iter()
                .all(|d| point(d.origin) && speed(d.velocity))
            {
                return bad("teleporter", i, "a destination is beyond the domain");
            }
        }
        for (i, p) in self.pads.iter().enumerate() {
            if !volume(&p.volume) {
                return bad("push pad", i, "its volume is empty or beyond the domain");
            }
            if !(p.velocity.is_finite() && p.velocity.abs().max_element() <= MAX_SPEED) {
                return bad("push pad", i, "its velocity is beyond the domain");
            }
        }
        for (i, d) in self.doors.iter().enumerate() {
            if !volume(&d.volume) {
                return bad("door", i, "its volume is empty or beyond the domain");
            }
            if !(d.opening.is_finite() && d.opening >= 0.0) {
                return bad(
                    "door",
                    i,
                    "its opening time must be finite and not negative",
                );
            }
        }
        Ok(())
    }
}

/// The agent origins whose box (`mins..maxs` about the origin) meets `volume`: the volume's
/// configuration space for the box.
pub(crate) fn origins_meeting(volume: Aabb, mins: DVec3, maxs: DVec3) -> Aabb {
    Aabb::new(volume.min - maxs, volume.max - mins)
}

/// Where an agent of the prober's pose walks into `origins`: per area of the pose whose floor
/// reaches into it, the floor point nearest the box's centre (seen from above), kept when the
/// agent's origin standing there (the clearance above it) is inside the box and free.
fn entries(prober: &Prober<'_>, origins: Aabb) -> Vec<(u32, DVec3)> {
    let mut near = Vec::new();
    prober.grid.for_each_near(origins, |i| near.push(i));
    near.sort_unstable();
    near.dedup();
    let centre = origins.centre();
    near.into_iter()
        .filter_map(|i| {
            let area: &Area = &prober.areas[i as usize];
            if area.pose != prober.pose || !area.bounds.intersects(&origins) {
                return None;
            }
            let floor = area.polygon.closest_point(area.on_floor(centre));
            let origin = floor + DVec3::Z * prober.params.clearance;
            (origins.contains_point(origin) && !prober.graph.is_solid(origin)).then_some((i, floor))
        })
        .collect()
}

/// The links of the teleporters and push pads for the prober's pose, whose box is
/// `mins..maxs`: from every area walked into the volume, to where the agent lands.
pub(crate) fn volume_links(
    prober: &mut Prober<'_>,
    mins: DVec3,
    maxs: DVec3,
    volumes: &NavVolumes,
) -> Vec<Link> {
    let mut links = Vec::new();
    for t in &volumes.teleporters {
        links.extend(teleport_links(prober, mins, maxs, t));
    }
    for pad in &volumes.pads {
        links.extend(pad_links(prober, mins, maxs, pad));
    }
    links
}

/// A teleporter's links: from each area walked into its volume to where the agent lands from
/// each destination (it appears there with the destination's velocity and flies under gravity,
/// [`Prober::flight`]; where that flight meets a wall, straight down), costing the flight and
/// [`crate::NavParams::trigger_cost`]. A destination in solid for the pose, or over no walkable
/// floor within the deepest fall, gives no link.
fn teleport_links(
    prober: &mut Prober<'_>,
    mins: DVec3,
    maxs: DVec3,
    teleporter: &Teleporter,
) -> Vec<Link> {
    let params = *prober.params;
    let landings: Vec<(u32, DVec3, f64)> = teleporter
        .destinations
        .iter()
        .filter_map(|d| {
            if prober.graph.is_solid(d.origin) {
                return None;
            }
            if d.velocity != DVec3::ZERO
                && let Some(landing) = prober.flight(None, d.origin, d.velocity, Aabb::EMPTY)
            {
                return Some(landing);
            }
            let (to, floor) = prober.fall(d.origin)?;
            let fall = (2.0 * (d.origin.z - floor.z).max(0.0) / params.gravity).sqrt();
            Some((to, floor, fall))
        })
        .collect();
    let outcomes = teleporter.destinations.len() as u32;
    let mut links = Vec::new();
    for (from, entry) in entries(prober, origins_meeting(teleporter.volume, mins, maxs)) {
        for &(to, landing, fall) in &landings {
            if to == from {
                continue;
            }
            let cost = params.trigger_cost + fall;
            links.push(carried(
                LinkKind::Teleport,
                (from, entry),
                (to, landing),
                cost,
                outcomes,
            ));
        }
    }
    links
}

/// A link taken at one point, where the agent is carried off: from `entry` on area `from` to
/// `landing` on area `to`.
fn carried(
    kind: LinkKind,
    (from, entry): (u32, DVec3),
    (to, landing): (u32, DVec3),
    cost: f64,
    outcomes: u32,
) -> Link {
    Link {
        from,
        to,
        kind,
        start: [entry; 2],
        end: [landing; 2],
        cost,
        rise: landing.z - entry.z,
        outcomes,
    }
}

/// A push pad's links: from each area walked onto it, along the flight its velocity gives
/// ([`Prober::flight`]) to the walkable floor of another area it lands on.
fn pad_links(prober: &mut Prober<'_>, mins: DVec3, maxs: DVec3, pad: &PushPad) -> Vec<Link> {
    let origins = origins_meeting(pad.volume, mins, maxs);
    let mut links = Vec::new();
    if pad.velocity == DVec3::ZERO {
        // A Quake 1 pad without a direction stops agents; it carries nobody anywhere.
        return links;
    }
    for (from, entry) in entries(prober, origins) {
        let start = entry + DVec3::Z * prober.params.clearance;
        let Some((to, landing, time)) = prober.flight(Some(from), start, pad.velocity, origins)
        else {
            continue;
        };
        let cost = time + prober.params.jump_penalty;
        links.push(carried(
            LinkKind::Push,
            (from, entry),
            (to, landing),
            cost,
            1,
        ));
    }
    links
}

impl Prober<'_> {
    /// The flight of an agent whose origin leaves `start` with `velocity`: while its origin is
    /// in the box `pushing` (a push pad's agent origins) its velocity is `velocity` (the pad
    /// sets it at every step of contact), outside it flies under gravity; traced chord by chord
    /// ([`crate::NavParams::arc_step`]) through the pose's tree until it lands on a walkable
    /// floor (of an area other than `skip`): that area, the landing and the flight time. A wall
    /// or ceiling met on the way gives none (the movement model would slide; the plan would not
    /// hold), as for jumps; so does a fall deeper than [`crate::NavParams::max_fall`].
    pub(crate) fn flight(
        &mut self,
        skip: Option<u32>,
        start: DVec3,
        velocity: DVec3,
        pushing: Aabb,
    ) -> Option<(u32, DVec3, f64)> {
        let params = *self.params;
        let (g, dt) = (params.gravity, params.arc_step);
        // Through the box at the pad's speed, then up to the apex and down to the deepest fall.
        let across = if pushing.is_empty() {
            0.0
        } else {
            pushing.size().length() / velocity.length().max(f64::MIN_POSITIVE)
        };
        let up = velocity.z.max(0.0);
        let flight = (up + (up * up + 2.0 * g * params.max_fall).sqrt()) / g;
        let chords = ((across + flight) / dt).ceil().min(MAX_ARC_CHORDS) as u32;
        let lowest = start.z - params.max_fall;
        let mut a = start;
        let mut v = velocity;
        for step in 1..=chords {
            let b = if pushing.contains_point(a) {
                v = velocity;
                a + v * dt
            } else {
                let b = a + v * dt - DVec3::Z * (0.5 * g * dt * dt);
                v.z -= g * dt;
                b
            };
            if let Some((point, plane)) = self.hit(a, b) {
                let plane = plane?;
                if plane.normal().z < params.min_walk_normal {
                    return None;
                }
                let to = self.area_at(point)?;
                if skip == Some(to) {
                    return None;
                }
                let along = a.distance(point) / a.distance(b).max(f64::MIN_POSITIVE);
                let time = (f64::from(step) - 1.0 + along) * dt;
                return Some((to, point, time));
            }
            if b.z < lowest {
                return None;
            }
            a = b;
        }
        None
    }
}

/// A door's closed place in one pose's configuration space, and its opening time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct DoorBox {
    pub pose: usize,
    pub origins: Aabb,
    pub opening: f64,
}

/// The doors of every pose, and per area the doors whose box meets its floor's (CSR: the doors
/// of area `a` are `list[start[a]..start[a + 1]]`).
#[derive(Debug, Clone, Default)]
pub(crate) struct DoorIndex {
    pub boxes: Vec<DoorBox>,
    pub start: Vec<u32>,
    pub list: Vec<u32>,
}

impl DoorIndex {
    /// The doors' boxes for `poses` (each pose's `mins..maxs`), listed per area of `areas`.
    pub fn new(doors: &[Door], poses: &[(DVec3, DVec3)], areas: &[Area], grid: &AreaGrid) -> Self {
        let mut boxes = Vec::new();
        for (pose, &(mins, maxs)) in poses.iter().enumerate() {
            for d in doors {
                boxes.push(DoorBox {
                    pose,
                    origins: origins_meeting(d.volume, mins, maxs),
                    opening: d.opening,
                });
            }
        }
        let mut per_area: Vec<Vec<u32>> = vec![Vec::new(); areas.len()];
        for (k, b) in boxes.iter().enumerate() {
            grid.for_each_near(b.origins, |a| {
                let area = &areas[a as usize];
                let list = &mut per_area[a as usize];
                if area.pose == b.pose
                    && area.bounds.intersects(&b.origins)
                    && list.last() != Some(&(k as u32))
                {
                    list.push(k as u32);
                }
            });
        }
        let mut start = vec![0u32; areas.len() + 1];
        let mut list = Vec::new();
        for (a, doors) in per_area.iter_mut().enumerate() {
            doors.sort_unstable();
            doors.dedup();
            list.extend_from_slice(doors);
            start[a + 1] = list.len() as u32;
        }
        DoorIndex { boxes, start, list }
    }

    /// The seconds the straight walk `a -> b` on area `area` waits for doors: the opening time
    /// of every door whose box it enters (it passes through the box's inside and does not start
    /// inside it, so a walk through a door split over two areas waits once).
    pub fn wait(&self, area: u32, a: DVec3, b: DVec3) -> f64 {
        let Some(range) = self
            .start
            .get(area as usize..area as usize + 2)
            .map(|s| s[0] as usize..s[1] as usize)
        else {
            return 0.0;
        };
        self.list[range]
            .iter()
            .map(|&k| &self.boxes[k as usize])
            .filter(|d| enters(&d.origins, a, b))
            .map(|d| d.opening)
            .sum()
    }

    /// The same for a walk by an agent of pose `pose` anywhere: every door of the pose.
    pub fn wait_any(&self, pose: usize, a: DVec3, b: DVec3) -> f64 {
        self.boxes
            .iter()
            .filter(|d| d.pose == pose && enters(&d.origins, a, b))
            .map(|d| d.opening)
            .sum()
    }
}

/// True when the segment `a -> b` passes through the inside of `b0` after starting outside it
/// (or on its boundary).
fn enters(b0: &Aabb, a: DVec3, b: DVec3) -> bool {
    let strictly_inside = a.cmpgt(b0.min).all() && a.cmplt(b0.max).all();
    if strictly_inside {
        return false;
    }
    match b0.segment_interval(a, b) {
        Some((t0, t1)) if t1 > t0 => {
            let mid = a.lerp(b, 0.5 * (t0 + t1));
            mid.cmpgt(b0.min).all() && mid.cmplt(b0.max).all()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walk_enters_a_door_once() {
        let door = Aabb::new(DVec3::new(0.0, -10.0, -10.0), DVec3::new(10.0, 10.0, 10.0));
        let x = |x: f64| DVec3::new(x, 0.0, 0.0);
        // Into it, through it.
        assert!(enters(&door, x(-5.0), x(5.0)));
        assert!(enters(&door, x(-5.0), x(15.0)));
        // From inside it: the walk that entered it waited already.
        assert!(!enters(&door, x(5.0), x(15.0)));
        // Up to its face only, and from its face in.
        assert!(!enters(&door, x(-5.0), x(0.0)));
        assert!(enters(&door, x(0.0), x(5.0)));
        // Beside it.
        assert!(!enters(
            &door,
            DVec3::new(-5.0, 20.0, 0.0),
            DVec3::new(15.0, 20.0, 0.0)
        ));
        // Along its face.
        assert!(!enters(
            &door,
            DVec3::new(-5.0, 10.0, 0.0),
            DVec3::new(15.0, 10.0, 0.0)
        ));
    }
}
