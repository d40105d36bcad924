//! Blow's filter stack for agent pairs ("Practical Collision Detection", 1997): cheap tests in
//! front of the exact one, each counting the definitive answers it gave and its time, so the
//! effectiveness table of the paper can be printed for any run.
//!
//! In order: the grid (only agents listed in the cells the move's bounds overlap are tested),
//! bounding spheres of the swept mover and the other agent, bounding-box safety (the swept box
//! against the other's box), a separating plane across the line between their centres ("plane
//! divides entities"), and the exact time of impact.
//!
//! The stack keeps every agent's [`Body`] (shape, position, bounding sphere and box) current as
//! it moves; a mover's [`Sweep`] is computed once per trace, so a pair test only compares.

mod grid;

use std::fmt;
use std::time::Instant;

use cspace_geom::{Aabb, DVec3, Shape};

pub use grid::Grid;

use crate::impact::{Impact, UnsupportedPair, time_of_impact};

/// The filters, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Filter {
    /// The uniform grid.
    Grid,
    /// Bounding spheres.
    BoundingSpheres,
    /// Bounding-box safety.
    BoxSafety,
    /// A separating plane between the centres.
    SeparatingPlane,
    /// The exact time of impact (Blow's "hard case").
    Exact,
}

impl Filter {
    /// All filters in order.
    pub const ALL: [Filter; 5] = [
        Filter::Grid,
        Filter::BoundingSpheres,
        Filter::BoxSafety,
        Filter::SeparatingPlane,
        Filter::Exact,
    ];

    /// The row name of Blow's table.
    pub fn name(self) -> &'static str {
        match self {
            Filter::Grid => "grid",
            Filter::BoundingSpheres => "bounding spheres",
            Filter::BoxSafety => "bounding box safety",
            Filter::SeparatingPlane => "plane divides entities",
            Filter::Exact => "exact (hard case)",
        }
    }
}

/// Per filter: how many pairs reached it, how many it settled, and the time it took.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FilterStats {
    /// Pairs that reached each filter.
    pub tests: [u64; 5],
    /// Pairs each filter settled (a definitive answer).
    pub definitive: [u64; 5],
    /// Nanoseconds spent in each filter (0 unless timing is on).
    pub nanos: [u64; 5],
}

impl FilterStats {
    /// Adds another run's counts.
    pub fn merge(&mut self, other: &FilterStats) {
        for i in 0..5 {
            self.tests[i] += other.tests[i];
            self.definitive[i] += other.definitive[i];
            self.nanos[i] += other.nanos[i];
        }
    }
}

impl FilterStats {
    /// Counts one test of `filter` begun at `since` (when timed), definitive or not.
    #[inline]
    fn charge(&mut self, filter: Filter, since: Option<Instant>, definitive: bool) {
        let i = filter as usize;
        self.tests[i] += 1;
        if definitive {
            self.definitive[i] += 1;
        }
        if let Some(t) = since {
            self.nanos[i] += t.elapsed().as_nanos() as u64;
        }
    }
}

impl fmt::Display for FilterStats {
    /// Blow's effectiveness table: definitive answers, their share, and the mean time per test.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total: u64 = self.definitive.iter().sum();
        writeln!(
            f,
            "| filter | tests | definitive answers | share | mean time per test |"
        )?;
        writeln!(f, "| --- | ---: | ---: | ---: | ---: |")?;
        for filter in Filter::ALL {
            let i = filter as usize;
            let share = if total > 0 {
                100.0 * self.definitive[i] as f64 / total as f64
            } else {
                0.0
            };
            let mean = if self.tests[i] > 0 && self.nanos[i] > 0 {
                format!("{:.0} ns", self.nanos[i] as f64 / self.tests[i] as f64)
            } else {
                "not timed".to_string()
            };
            writeln!(
                f,
                "| {} | {} | {} | {share:.1} % | {mean} |",
                filter.name(),
                self.tests[i],
                self.definitive[i]
            )?;
        }
        Ok(())
    }
}

/// A body's place in a [`FilterStack`]: 0, 1, 2, ... in the order the bodies were inserted.
///
/// Not an agent's id: a simulation fills a stack with the agents it moves together (all of
/// them, or one interaction group) and keeps which agent each slot holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slot(pub u32);

/// The filter stack: a grid of agents, their bounding data, and the counters.
#[derive(Debug, Clone)]
pub struct FilterStack {
    grid: Grid,
    /// Per agent id, where it is and its bounds.
    bodies: Vec<Body>,
    stats: FilterStats,
    timing: bool,
}

/// The bounding sphere of a shape relative to its origin: centre and radius.
fn bounding_sphere(shape: &Shape) -> (DVec3, f64) {
    match shape {
        Shape::Sphere { radius } => (DVec3::ZERO, *radius),
        Shape::Cylinder {
            radius,
            half_height,
        } => (
            DVec3::ZERO,
            (radius * radius + half_height * half_height).sqrt(),
        ),
        other => {
            let b = other.bounds();
            (b.centre(), 0.5 * b.size().length())
        }
    }
}

/// An agent at rest as the filters see it: its shape and position, with the bounding sphere and
/// box the filters test kept beside them, computed once per move instead of once per pair.
#[derive(Debug, Clone)]
pub struct Body {
    shape: Shape,
    position: DVec3,
    /// Bounding sphere centre (world) and radius.
    centre: DVec3,
    radius: f64,
    /// Bounding box (world).
    bounds: Aabb,
    /// The bounding sphere's centre and the bounding box relative to the origin, for moves.
    local_centre: DVec3,
    local_bounds: Aabb,
}

impl Body {
    fn new(shape: &Shape, position: DVec3) -> Body {
        let (local_centre, radius) = bounding_sphere(shape);
        let local_bounds = shape.bounds();
        Body {
            shape: shape.clone(),
            position,
            centre: position + local_centre,
            radius,
            bounds: local_bounds.translated(position),
            local_centre,
            local_bounds,
        }
    }

    /// The same shape with its origin at `position` (the values [`Body::new`] would compute).
    fn move_to(&mut self, position: DVec3) {
        self.position = position;
        self.centre = position + self.local_centre;
        self.bounds = self.local_bounds.translated(position);
    }

    /// The agent's shape.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The agent's origin (world).
    pub fn position(&self) -> DVec3 {
        self.position
    }
}

/// A mover's straight move as the filters see it: shape, start and motion, with the swept
/// bounding sphere and box computed once for all the pairs it is tested in.
#[derive(Debug, Clone, Copy)]
pub struct Sweep<'a> {
    shape: &'a Shape,
    start: DVec3,
    motion: DVec3,
    /// The swept sphere around the middle of the move: centre (world) and radius.
    centre: DVec3,
    radius: f64,
    /// The box swept from start to end (world).
    bounds: Aabb,
}

impl Sweep<'_> {
    /// `shape` moving from `start` by `motion`.
    pub fn new(shape: &Shape, start: DVec3, motion: DVec3) -> Sweep<'_> {
        let (centre, radius) = bounding_sphere(shape);
        let bounds = shape.bounds();
        Sweep {
            shape,
            start,
            motion,
            centre: start + centre + motion * 0.5,
            radius: radius + 0.5 * motion.length(),
            bounds: bounds
                .translated(start)
                .merged(bounds.translated(start + motion)),
        }
    }
}

impl FilterStack {
    /// A stack with a grid of `cell`-unit cells; `timing` measures each filter's time (it costs a
    /// clock read per filter and pair).
    pub fn new(cell: f64, timing: bool) -> FilterStack {
        FilterStack {
            grid: Grid::new(cell),
            bodies: Vec::new(),
            stats: FilterStats::default(),
            timing,
        }
    }

    /// Adds the next body (slots are 0, 1, 2, ... in order): `shape` with its origin at
    /// `position` (world).
    pub fn insert(&mut self, id: Slot, shape: &Shape, position: DVec3) {
        assert_eq!(
            id.0 as usize,
            self.bodies.len(),
            "bodies are inserted in slot order"
        );
        let body = Body::new(shape, position);
        self.grid.insert(id, &body.bounds);
        self.bodies.push(body);
    }

    /// Agent `id` now has `shape` with its origin at `position`.
    pub fn update(&mut self, id: Slot, shape: &Shape, position: DVec3) {
        let body = Body::new(shape, position);
        self.grid.update(id, &body.bounds);
        self.bodies[id.0 as usize] = body;
    }

    /// Agent `id`, its shape unchanged, now has its origin at `position`: the bounding sphere
    /// and box move with it (the values [`FilterStack::update`] would compute, without
    /// rebuilding the body).
    pub fn move_to(&mut self, id: Slot, position: DVec3) {
        let body = &mut self.bodies[id.0 as usize];
        body.move_to(position);
        self.grid.update(id, &body.bounds);
    }

    /// Agent `id` leaves the simulation (it left the world): no later query finds it.
    pub fn remove(&mut self, id: Slot) {
        self.grid.remove(id);
    }

    /// Removes every agent (the counters stay), keeping the memory: a stack rebuilt for each
    /// group of agents that move together.
    pub fn clear(&mut self) {
        self.grid.clear();
        self.bodies.clear();
    }

    /// The counters so far, leaving them zero.
    pub fn take_stats(&mut self) -> FilterStats {
        std::mem::take(&mut self.stats)
    }

    /// Agent `id` as it is now.
    pub fn body(&self, id: Slot) -> &Body {
        &self.bodies[id.0 as usize]
    }

    /// The counters so far.
    pub fn stats(&self) -> &FilterStats {
        &self.stats
    }

    /// The start of a timed filter, when timing is on.
    fn clock(&self) -> Option<Instant> {
        self.timing.then(Instant::now)
    }

    /// Every body whose bounds meet `region` (closed boxes), in slot order, into `out` (cleared
    /// first): the grid's cells, then each listed body's bounds. Removed bodies are not listed.
    /// Not a filter of a move: nothing is counted.
    pub fn meeting(&mut self, region: &Aabb, out: &mut Vec<Slot>) {
        out.clear();
        self.grid.query(region, out);
        out.retain(|s| self.bodies[s.0 as usize].bounds.intersects(region));
    }

    /// The grid stage: the other agents listed near the swept bounds of `mover`, sorted.
    pub fn candidates(&mut self, mover: Slot, swept: &Aabb, out: &mut Vec<Slot>) {
        let since = self.clock();
        out.clear();
        self.grid.query_except(swept, Some(mover), out);
        let others = self.bodies.len().saturating_sub(1) as u64;
        let i = Filter::Grid as usize;
        self.stats.tests[i] += others;
        self.stats.definitive[i] += others.saturating_sub(out.len() as u64);
        if let Some(t) = since {
            self.stats.nanos[i] += t.elapsed().as_nanos() as u64;
        }
    }

    /// Bounding spheres, then bounding-box safety, for one pair: true when they settle that the
    /// mover's sweep cannot meet agent `other` (each stage counted, and timed when asked).
    #[inline]
    fn cheap_apart(&mut self, mover: &Sweep, other: Slot) -> bool {
        let timing = self.timing;
        let clock = || timing.then(Instant::now);
        let body = &self.bodies[other.0 as usize];
        // Bounding spheres: the swept mover's sphere around the middle of the move.
        let since = clock();
        let apart = spheres_apart(mover, body);
        self.stats.charge(Filter::BoundingSpheres, since, apart);
        if apart {
            return true;
        }
        // Bounding-box safety.
        let since = clock();
        let apart = boxes_apart(mover, body);
        self.stats.charge(Filter::BoxSafety, since, apart);
        apart
    }

    /// Runs the two cheap filters (bounding spheres, bounding-box safety) over the grid's
    /// `candidates` for `mover`, keeping in order the agents they do not settle; those go on to
    /// [`FilterStack::test_close`]. Counted as [`FilterStack::test`] counts them. Untimed, the
    /// loop has no branch on the answers: which agents the filters keep is as unpredictable as
    /// the crowd, and a mispredicted branch costs more than both tests.
    pub fn cull(&mut self, mover: &Sweep, candidates: &mut Vec<Slot>) {
        if self.timing {
            candidates.retain(|&id| !self.cheap_apart(mover, id));
            return;
        }
        let (mut spheres, mut boxes_tested, mut boxes) = (0u64, 0u64, 0u64);
        let mut kept = 0;
        for i in 0..candidates.len() {
            let id = candidates[i];
            let body = &self.bodies[id.0 as usize];
            let sphere_apart = spheres_apart(mover, body);
            let box_apart = boxes_apart(mover, body);
            spheres += u64::from(sphere_apart);
            boxes_tested += u64::from(!sphere_apart);
            boxes += u64::from(!sphere_apart & box_apart);
            candidates[kept] = id;
            kept += usize::from(!(sphere_apart | box_apart));
        }
        let stats = &mut self.stats;
        stats.tests[Filter::BoundingSpheres as usize] += candidates.len() as u64;
        stats.definitive[Filter::BoundingSpheres as usize] += spheres;
        stats.tests[Filter::BoxSafety as usize] += boxes_tested;
        stats.definitive[Filter::BoxSafety as usize] += boxes;
        candidates.truncate(kept);
    }

    /// The remaining filters and the exact test for one pair: the mover's sweep against agent
    /// `other` at rest.
    #[inline]
    pub fn test(&mut self, mover: &Sweep, other: Slot) -> Result<Option<Impact>, UnsupportedPair> {
        if self.cheap_apart(mover, other) {
            return Ok(None);
        }
        self.test_close(mover, other)
    }

    /// The filters after [`FilterStack::cull`] (a separating plane across the line between the
    /// centres) and the exact time of impact, for an agent the cheap filters kept.
    #[inline]
    pub fn test_close(
        &mut self,
        mover: &Sweep,
        other: Slot,
    ) -> Result<Option<Impact>, UnsupportedPair> {
        let Sweep {
            shape,
            start,
            motion,
            ..
        } = *mover;
        let timing = self.timing;
        let clock = || timing.then(Instant::now);
        let body = &self.bodies[other.0 as usize];
        let mut charge = |filter, since, definitive| self.stats.charge(filter, since, definitive);
        // Plane divides entities: the plane across the line between the centres.
        let since = clock();
        let position = body.position;
        let apart = match (body.centre - mover.centre).try_normalize() {
            Some(n) => {
                let reach_a = shape.support_distance(n);
                let a_max = (start.dot(n) + reach_a).max((start + motion).dot(n) + reach_a);
                let b_min = position.dot(n) - body.shape.support_distance(-n);
                a_max < b_min
            }
            None => false,
        };
        charge(Filter::SeparatingPlane, since, apart);
        if apart {
            return Ok(None);
        }
        let since = clock();
        let impact = time_of_impact(shape, start, motion, &body.shape, position, DVec3::ZERO);
        charge(Filter::Exact, since, true);
        impact
    }
}

/// Bounding spheres: the swept mover's sphere (around the middle of the move) and the other's.
#[inline]
fn spheres_apart(mover: &Sweep, body: &Body) -> bool {
    let reach = mover.radius + body.radius;
    mover.centre.distance_squared(body.centre) >= reach * reach
}

/// Bounding-box safety: the swept box and the other's box share no point (without branches).
#[inline]
fn boxes_apart(mover: &Sweep, body: &Body) -> bool {
    let (a, b) = (&mover.bounds, &body.bounds);
    let meet = (a.min.x <= b.max.x)
        & (a.max.x >= b.min.x)
        & (a.min.y <= b.max.y)
        & (a.max.y >= b.min.y)
        & (a.min.z <= b.max.z)
        & (a.max.z >= b.min.z);
    !meet
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_never_reject_a_real_contact() {
        let mut rng = cspace_geom::generate::Rng::new(3);
        let shapes = cspace_geom::generate::agent_shapes();
        let mut stack = FilterStack::new(64.0, false);
        let mut contacts = 0;
        for _ in 0..5000 {
            let a = &shapes[rng.below(3)];
            let b = &shapes[rng.below(3)];
            let start = DVec3::new(
                rng.range(-200.0, 200.0),
                rng.range(-200.0, 200.0),
                rng.range(-60.0, 60.0),
            );
            let motion = rng.unit_vector() * rng.range(0.0, 150.0);
            let expected = time_of_impact(a, start, motion, b, DVec3::ZERO, DVec3::ZERO).unwrap();
            if stack.bodies.is_empty() {
                stack.insert(Slot(0), b, DVec3::ZERO);
            } else {
                stack.update(Slot(0), b, DVec3::ZERO);
            }
            let filtered = stack.test(&Sweep::new(a, start, motion), Slot(0)).unwrap();
            assert_eq!(expected, filtered);
            contacts += expected.is_some() as usize;
        }
        assert!(contacts > 100, "{contacts}");
        let s = stack.stats();
        assert_eq!(s.tests[Filter::BoundingSpheres as usize], 5000);
        assert!(s.definitive[Filter::BoundingSpheres as usize] > 0);
        assert!(s.definitive[Filter::Exact as usize] > 0);
        let table = s.to_string();
        assert!(table.contains("| bounding spheres | 5000 |"), "{table}");
    }

    /// Moving a body keeps its shape and gives the bounding data and grid cells a rebuilt body
    /// gets, for every agent shape and positions across cells.
    #[test]
    fn moving_a_body_is_rebuilding_it_at_the_new_position() {
        let mut rng = cspace_geom::generate::Rng::new(29);
        let shapes = cspace_geom::generate::agent_shapes();
        let (mut moved, mut rebuilt) =
            (FilterStack::new(32.0, false), FilterStack::new(32.0, false));
        for (id, shape) in shapes.iter().enumerate() {
            moved.insert(Slot(id as u32), shape, DVec3::ZERO);
            rebuilt.insert(Slot(id as u32), shape, DVec3::ZERO);
        }
        let fields = |b: &Body| (b.position, b.centre, b.radius, b.bounds, b.shape.clone());
        for _ in 0..2000 {
            let id = Slot(rng.below(shapes.len()) as u32);
            let at = DVec3::new(
                rng.range(-300.0, 300.0),
                rng.range(-300.0, 300.0),
                rng.range(-50.0, 50.0),
            );
            moved.move_to(id, at);
            rebuilt.update(id, &shapes[id.0 as usize], at);
            assert_eq!(fields(moved.body(id)), fields(rebuilt.body(id)));
            let query = Aabb::new(at - DVec3::splat(40.0), at + DVec3::splat(40.0));
            let (mut a, mut b) = (Vec::new(), Vec::new());
            moved.candidates(Slot(u32::MAX), &query, &mut a);
            rebuilt.candidates(Slot(u32::MAX), &query, &mut b);
            assert_eq!(a, b);
            assert!(a.contains(&id));
        }
    }

    /// `cull` then `test_close` over a crowd give each pair the answer `test` gives it, and the
    /// same counts, timed or not.
    #[test]
    fn culling_a_list_answers_and_counts_as_testing_each_pair() {
        let shapes = cspace_geom::generate::agent_shapes();
        for timing in [false, true] {
            let mut rng = cspace_geom::generate::Rng::new(17);
            let (mut one_by_one, mut culled) = (
                FilterStack::new(64.0, timing),
                FilterStack::new(64.0, timing),
            );
            let crowd = 60;
            for id in 0..crowd {
                let at = DVec3::new(
                    rng.range(-150.0, 150.0),
                    rng.range(-150.0, 150.0),
                    rng.range(-40.0, 40.0),
                );
                let shape = &shapes[rng.below(3)];
                one_by_one.insert(Slot(id), shape, at);
                culled.insert(Slot(id), shape, at);
            }
            let mut kept_some = false;
            for _ in 0..300 {
                let mover = &shapes[rng.below(3)];
                let start = DVec3::new(rng.range(-150.0, 150.0), rng.range(-150.0, 150.0), 0.0);
                let sweep = Sweep::new(mover, start, rng.unit_vector() * rng.range(0.0, 80.0));
                let all: Vec<Slot> = (0..crowd).map(Slot).collect();
                let expected: Vec<(Slot, Option<Impact>)> = all
                    .iter()
                    .map(|&id| (id, one_by_one.test(&sweep, id).unwrap()))
                    .collect();
                let mut kept = all.clone();
                culled.cull(&sweep, &mut kept);
                kept_some |= !kept.is_empty() && kept.len() < all.len();
                let mut found: Vec<(Slot, Option<Impact>)> =
                    all.iter().map(|&id| (id, None)).collect();
                for &id in &kept {
                    found[id.0 as usize].1 = culled.test_close(&sweep, id).unwrap();
                }
                assert_eq!(found, expected);
            }
            assert!(kept_some);
            let (a, b) = (one_by_one.stats(), culled.stats());
            assert_eq!((a.tests, a.definitive), (b.tests, b.definitive));
            assert_eq!(a.tests[Filter::BoundingSpheres as usize], 300 * 60);
        }
    }

    #[test]
    fn grid_lists_neighbours_once_and_sorted() {
        let mut stack = FilterStack::new(32.0, false);
        let cube = Shape::new_box(DVec3::ZERO, DVec3::splat(40.0)).unwrap();
        let at = |x: f64| DVec3::new(x, 0.0, 0.0);
        // Agent 4 nearest the origin, agent 0 farthest.
        for i in 0..5 {
            stack.insert(Slot(i), &cube, at((4 - i) as f64 * 100.0));
        }
        let mut out = Vec::new();
        stack.candidates(
            Slot(4),
            &Aabb::new(DVec3::ZERO, DVec3::new(150.0, 10.0, 10.0)),
            &mut out,
        );
        assert_eq!(out, vec![Slot(3)]);
        stack.update(Slot(3), &cube, at(300.0));
        stack.candidates(
            Slot(4),
            &Aabb::new(DVec3::ZERO, DVec3::new(150.0, 10.0, 10.0)),
            &mut out,
        );
        assert!(out.is_empty());
        assert_eq!(stack.stats().tests[0], 8);
        assert_eq!(stack.stats().definitive[0], 7);
    }

    /// `meeting` lists exactly the bodies whose bounds meet the region (touching included), in
    /// slot order, never a removed one, and counts nothing: random bodies and regions against a
    /// linear scan.
    #[test]
    fn meeting_lists_the_bodies_a_region_meets() {
        let mut rng = cspace_geom::generate::Rng::new(11);
        let shapes = cspace_geom::generate::agent_shapes();
        let mut stack = FilterStack::new(64.0, false);
        let mut bodies = Vec::new();
        for i in 0..300 {
            let shape = &shapes[rng.below(3)];
            let at = DVec3::new(
                rng.range(-2000.0, 2000.0),
                rng.range(-2000.0, 2000.0),
                rng.range(-300.0, 300.0),
            );
            stack.insert(Slot(i), shape, at);
            bodies.push(Some(shape.bounds().translated(at)));
        }
        for i in (0..300).step_by(17) {
            stack.remove(Slot(i));
            bodies[i as usize] = None;
        }
        let mut out = Vec::new();
        for k in 0..2000 {
            let centre = DVec3::new(
                rng.range(-2200.0, 2200.0),
                rng.range(-2200.0, 2200.0),
                rng.range(-400.0, 400.0),
            );
            let half = DVec3::new(
                rng.range(0.0, 400.0),
                rng.range(0.0, 400.0),
                rng.range(0.0, 200.0),
            );
            // Every tenth region touches a body's face exactly.
            let region = match bodies[k % 300].filter(|_| k % 10 == 0) {
                Some(b) => Aabb::new(DVec3::new(b.max.x, b.min.y, b.min.z), b.max + half),
                None => Aabb::new(centre - half, centre + half),
            };
            let linear: Vec<Slot> = (0..300)
                .filter(|&i| bodies[i as usize].is_some_and(|b| b.intersects(&region)))
                .map(Slot)
                .collect();
            stack.meeting(&region, &mut out);
            assert_eq!(out, linear);
        }
        assert_eq!(stack.stats().tests, FilterStats::default().tests);
    }
}
