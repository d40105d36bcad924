//! Issue 21's validation over the map corpus (`CSPACE_MAPS`): random pairs of walkable points
//! per pose, planned with the scenario planner, then followed by a simulated agent (scenario
//! `goto`: the movement model on the exact reference backend). It reports the share of pairs that
//! arrive within the time the path allows, and lists every failure with its map, pose, points and
//! what happened. The planner fills the outside of sealed maps from their spawn points, so no
//! pair is drawn on the tops of their outer walls. Line of sight (`sim los`'s tree of the sight
//! pose, `Pose::sight`) agrees with the exact trace of the sight cube on random segments.
//!
//! The allowance: `1.5 x` the planner's time estimate of the path (`Path::cost`: walking at the
//! pose's speed, the falls and flights, the jump and pose-change penalties) `+ 1 s` (starting,
//! braking for corners and edges, walking off ledges slowly). A run is stopped at
//! `3 x cost + 10 s`; an arrival after the allowance is counted late.
//!
//! By default it is the issue's whole validation: every corpus map, 200 pairs per pose per map
//! (a crouching pose only where the map has crouching areas), 100,000 segments per map; about
//! 20 s in the dev profile on two cores. The figures and the failures are in
//! docs/navigation-validation.md:
//!
//! ```text
//! CSPACE_MAPS=../shared/maps cargo test -p cspace-sim --test it \
//!   goto_follows_planned_paths_on_the_corpus -- --nocapture
//! ```
//!
//! Knobs (environment variables):
//! - `CSPACE_GOTO_MAPS`: comma-separated map names (without `.map`; default: every map);
//! - `CSPACE_GOTO_PAIRS`: pairs per pose per map (default 200);
//! - `CSPACE_GOTO_SEGMENTS`: line-of-sight segments per map (default 100,000);
//! - `CSPACE_GOTO_FLOOR`: the share that must arrive in time, percent (default [`FLOOR`], 98:
//!   98.37 % arrive today, below issue 21's 99 % target since Quake III's movement and the
//!   compile's new trees, docs/navigation.md "Validation");
//! - `CSPACE_GOTO_EXTRA_POSES`: the poses compiled into the planner's tree beside the agents'
//!   boxes, comma-separated from `point` and `sight`, or `none` (default `point`, as the
//!   planner ships): other poses split the tree otherwise and change the paths
//!   (docs/navigation.md, "The figure depends on the tree").

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::{Aabb, Collider, DVec3, ExactCollider, QueryContext, Shape};
use cspace_nav::{NavContext, NavMesh};
use cspace_onion::Pose;
use cspace_sim::navigation::Planner;
use cspace_sim::{AgentId, AgentSpec, BackendKind, EventKind, Intent, MoveParams, Sim, SimConfig};
use rayon::prelude::*;

/// The share of planned paths that must arrive in time, percent: a guard at today's level
/// (98.37 %), not issue 21's 99 % target, which 99.40 % met until walking downhill kept its
/// speed (issue 30: agents leave the ground over crests, as Quake III's do; 21 of the 65
/// failures are paths up one crease of `ericw_q1_mountain`) and the onion's compile made
/// other trees (issue 36: other areas and paths). docs/navigation.md, "Validation", says what
/// would restore it.
const FLOOR: f64 = 98.0;

fn setting(var: &str) -> Option<String> {
    std::env::var(var).ok().filter(|v| !v.is_empty())
}

pub(crate) fn count(var: &str, default: usize) -> usize {
    setting(var).map_or(default, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{var}={v} is not a count"))
    })
}

/// One pair followed.
#[derive(Debug, Clone)]
pub(crate) struct Pair {
    pub(crate) pose: usize,
    pub(crate) from: DVec3,
    pub(crate) to: DVec3,
    /// The path's length and the planner's estimate, seconds.
    pub(crate) length: f64,
    pub(crate) cost: f64,
    /// Its link kinds, in order (for failures).
    kinds: String,
    /// When it arrived, seconds.
    arrived: Option<f64>,
    /// How it ended when it did not arrive.
    ended: String,
}

impl Pair {
    fn allowed(&self) -> f64 {
        1.5 * self.cost + 1.0
    }

    fn in_time(&self) -> bool {
        self.arrived.is_some_and(|t| t <= self.allowed())
    }
}

/// What one map gave.
#[derive(Debug, Default)]
struct MapTally {
    /// Per pose: pairs drawn, refused (a point in solid for the exact backend, or not placed by
    /// the planner), unreachable, followed, arrived in time, arrived late.
    drawn: [usize; 2],
    refused: [usize; 2],
    unreachable: [usize; 2],
    followed: [usize; 2],
    in_time: [usize; 2],
    late: [usize; 2],
    failures: Vec<String>,
    /// Time taken over the planner's estimate, for arrivals.
    ratios: Vec<f64>,
    segments: usize,
    blocked: usize,
    disagreements: usize,
}

/// A random point of `area`'s floor (uniform over its polygon), lifted by the clearance.
fn point_on(nav: &NavMesh, area: u32, rng: &mut Rng) -> DVec3 {
    let a = &nav.areas()[area as usize];
    let v = &a.polygon.vertices;
    let tri_area = |i: usize| (v[i] - v[0]).cross(v[i + 1] - v[0]).length();
    let total: f64 = (1..v.len() - 1).map(tri_area).sum();
    let mut pick = rng.next_f64() * total;
    let mut i = 1;
    while i + 2 < v.len() && pick > tri_area(i) {
        pick -= tri_area(i);
        i += 1;
    }
    let (mut s, mut t) = (rng.next_f64(), rng.next_f64());
    if s + t > 1.0 {
        (s, t) = (1.0 - s, 1.0 - t);
    }
    let p = v[0] + (v[i] - v[0]) * s + (v[i + 1] - v[0]) * t;
    a.on_floor(p) + DVec3::Z * nav.params().clearance
}

/// A point as `[x, y, z]` with every digit, so that a failure can be run again as it was
/// (`sim path --from`, a scenario's `start` and `goto`).
fn digits(p: DVec3) -> String {
    format!("[{}, {}, {}]", p.x, p.y, p.z)
}

/// Follows the planned path from `from` to `to` with one agent on the exact backend.
#[allow(clippy::too_many_arguments)]
fn follow(
    collider: &Arc<dyn Collider>,
    planner: &Arc<Planner>,
    shapes: &(Shape, Shape),
    params: &MoveParams,
    pose: usize,
    from: DVec3,
    to: DVec3,
    cost: f64,
) -> (Option<f64>, String) {
    let dt = 1.0 / 64.0;
    let spec = AgentSpec {
        crouching: Some(shapes.1.clone()),
        start_crouched: pose == 1,
        ..AgentSpec::new(shapes.0.clone(), from)
    };
    let config = SimConfig {
        params: *params,
        dt,
        planner: Some(planner.clone()),
        ..SimConfig::default()
    };
    let mut sim = Sim::new(collider.clone(), config).expect("a valid simulation");
    let id = sim.spawn(spec).expect("a valid agent");
    let goto = Intent {
        goto: Some(to),
        ..sim.intent(id).expect("the agent is there")
    };
    sim.set_intent(id, goto)
        .expect("the planner plans for the agent");
    let steps = ((3.0 * cost + 10.0) / dt).ceil() as u64;
    let mut replans = 0;
    for _ in 0..steps {
        sim.step();
        for e in sim.drain_events() {
            match e.kind {
                EventKind::Arrived { .. } => return (Some(e.step as f64 * dt), String::new()),
                EventKind::GotoFailed { why, .. } => {
                    let at = sim.agent(id).expect("the agent is there").position;
                    return (None, format!("{} at {at:.1}", why.describe()));
                }
                EventKind::LeftWorld { at } => return (None, format!("left the world at {at:.1}")),
                EventKind::Planned { replan: true, .. } => replans += 1,
                _ => {}
            }
        }
    }
    let at = sim.agent(id).expect("the agent is there").position;
    (
        None,
        format!(
            "still going after {:.1} s at {at:.1}, {replans} replans",
            steps as f64 * dt
        ),
    )
}

/// Random segments: half anywhere around the map, half short ones starting in free space (for
/// the line of sight's cube).
fn segments(world: &cspace_geom::World, count: usize, seed: u64) -> Vec<(DVec3, DVec3)> {
    let mut rng = Rng::new(seed);
    let bounds: Aabb = world.bounds().loosened(64.0);
    let exact = ExactCollider::new(Arc::new(world.clone()));
    let point = exact.prepare(&Shape::from(&Pose::sight())).unwrap();
    let mut ctx = QueryContext::new();
    let mut out = Vec::with_capacity(count);
    for _ in 0..count / 2 {
        out.push((rng.point_in(&bounds), rng.point_in(&bounds)));
    }
    let mut tries = 0;
    while out.len() < count && tries < 100 * count {
        tries += 1;
        let a = rng.point_in(&world.bounds());
        if exact.is_solid(&mut ctx, &point, a) {
            continue;
        }
        out.push((a, a + rng.unit_vector() * rng.range(10.0, 200.0)));
    }
    out
}

/// The poses compiled into the planner's tree beside the agents' boxes:
/// `CSPACE_GOTO_EXTRA_POSES` (comma-separated `point` and `sight`, or `none`), or the zero-size
/// pose as [`Planner::build`] has it.
pub(crate) fn extra_poses() -> Vec<Pose> {
    let Some(v) = setting("CSPACE_GOTO_EXTRA_POSES") else {
        return vec![Pose::point()];
    };
    if v.trim() == "none" {
        return Vec::new();
    }
    v.split(',')
        .map(|name| match name.trim() {
            "point" => Pose::point(),
            "sight" => Pose::sight(),
            other => panic!("CSPACE_GOTO_EXTRA_POSES={v}: {other:?} is not point, sight or none"),
        })
        .collect()
}

/// The maps to validate: `CSPACE_GOTO_MAPS` (comma-separated names without `.map`), or every
/// map of the corpus folder `dir`.
pub(crate) fn map_names(dir: &std::path::Path) -> Vec<String> {
    match setting("CSPACE_GOTO_MAPS") {
        Some(v) => v.split(',').map(|s| s.trim().to_string()).collect(),
        None => cspace_corpus::map_paths_in(dir)
            .iter()
            .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
            .collect(),
    }
}

/// The seed of a map's pairs: from its name (FNV-1a), so that a map draws the same pairs in a
/// run of any set of maps.
pub(crate) fn map_seed(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The scenario planner of a goto agent with Quake's poses over one corpus map, and what
/// following and checking its paths needs (shared with the brute-force check, `nav_brute_force`).
pub(crate) struct QuakeNav {
    pub(crate) planner: Arc<Planner>,
    /// The exact backend, as the simulation takes it.
    pub(crate) collider: Arc<dyn Collider>,
    pub(crate) shapes: (Shape, Shape),
    pub(crate) params: MoveParams,
    exact: ExactCollider,
    /// The standing and crouching shapes prepared for the exact point query, with the skin.
    prepared: [cspace_geom::Prepared; 2],
}

/// A pair drawn, and what the planner said of it.
pub(crate) enum Drawn {
    /// An end in solid for the exact backend, or not placed by the planner.
    Refused { pose: usize },
    /// The planner found no path.
    Unreachable { pose: usize, from: DVec3, to: DVec3 },
    /// Planned.
    Planned(Pair),
}

impl QuakeNav {
    pub(crate) fn build(map: &cspace_corpus::CorpusMap) -> QuakeNav {
        let params = MoveParams::default();
        let standing = Shape::new_box(
            DVec3::new(-16.0, -16.0, -24.0),
            DVec3::new(16.0, 16.0, 32.0),
        )
        .unwrap();
        let crouching = Shape::new_box(
            DVec3::new(-16.0, -16.0, -24.0),
            DVec3::new(16.0, 16.0, 16.0),
        )
        .unwrap();
        // The planner of a goto agent of Quake's poses (the agent is only a template).
        let template = AgentSpec {
            crouching: Some(crouching.clone()),
            // A start inside the map, or the outside fill's flood would leak from it.
            ..AgentSpec::new(
                standing.clone(),
                map.spawns.first().copied().unwrap_or(DVec3::ZERO),
            )
        };
        let planner = Arc::new(
            Planner::build_with(
                &map.world,
                &[(AgentId(0), &template)],
                &params,
                &map.spawns,
                &extra_poses(),
            )
            .unwrap_or_else(|e| panic!("{}: {e}", map.name)),
        );
        let collider = BackendKind::Exact
            .build_for(&map.world, &[standing.clone(), crouching.clone()])
            .unwrap()
            .unwrap();
        let exact = ExactCollider::new(map.world.clone());
        let prepared = [
            exact.prepare(&standing).unwrap().with_skin(params.skin),
            exact.prepare(&crouching).unwrap().with_skin(params.skin),
        ];
        QuakeNav {
            planner,
            collider,
            shapes: (standing, crouching),
            params,
            exact,
            prepared,
        }
    }

    pub(crate) fn mesh(&self) -> &NavMesh {
        self.planner.mesh(0)
    }

    /// `pairs` pairs per pose: a random point of a random area of the pose (crouching: the
    /// areas only a crouching agent has), to a random point of a random area of the same
    /// component (most of which can be reached), each planned.
    pub(crate) fn draw(&self, pairs: usize, seed: u64) -> Vec<Drawn> {
        let nav = self.mesh();
        let areas = nav.areas();
        let mut members: Vec<Vec<u32>> = Vec::new();
        for a in 0..areas.len() as u32 {
            let c = nav.component(a) as usize;
            members.resize(members.len().max(c + 1), Vec::new());
            members[c].push(a);
        }
        let mut rng = Rng::new(seed);
        let mut ctx = NavContext::new();
        let mut qctx = QueryContext::new();
        let mut out = Vec::new();
        for pose in 0..nav.poses().len().min(2) {
            let of_pose: Vec<u32> = (0..areas.len() as u32)
                .filter(|&a| areas[a as usize].pose == pose)
                .collect();
            if of_pose.is_empty() {
                continue;
            }
            for _ in 0..pairs {
                let a = of_pose[rng.below(of_pose.len())];
                let group = &members[nav.component(a) as usize];
                let b = group[rng.below(group.len())];
                let from = point_on(nav, a, &mut rng);
                let to = point_on(nav, b, &mut rng);
                let goal_pose = areas[b as usize].pose;
                if self.exact.is_solid(&mut qctx, &self.prepared[pose], from)
                    || self
                        .exact
                        .is_solid(&mut qctx, &self.prepared[goal_pose], to)
                {
                    out.push(Drawn::Refused { pose });
                    continue;
                }
                out.push(match nav.path(from, to, pose, &mut ctx) {
                    Ok(Some(path)) => Drawn::Planned(Pair {
                        pose,
                        from,
                        to,
                        length: path.length(),
                        cost: path.cost,
                        kinds: path
                            .waypoints
                            .iter()
                            .skip(1)
                            .map(|w| w.kind.name())
                            .collect::<Vec<_>>()
                            .join(","),
                        arrived: None,
                        ended: String::new(),
                    }),
                    Ok(None) => Drawn::Unreachable { pose, from, to },
                    Err(_) => Drawn::Refused { pose },
                });
            }
        }
        out
    }
}

fn validate(
    map: &cspace_corpus::CorpusMap,
    pairs: usize,
    los_segments: usize,
    seed: u64,
) -> MapTally {
    let quake = QuakeNav::build(map);
    let mut tally = MapTally::default();
    let mut planned = Vec::new();
    for drawn in quake.draw(pairs, seed) {
        let pose = match drawn {
            Drawn::Refused { pose } => {
                tally.refused[pose] += 1;
                pose
            }
            Drawn::Unreachable { pose, .. } => {
                tally.unreachable[pose] += 1;
                pose
            }
            Drawn::Planned(pair) => {
                let pose = pair.pose;
                planned.push(pair);
                pose
            }
        };
        tally.drawn[pose] += 1;
    }
    let QuakeNav {
        planner,
        collider,
        shapes,
        params,
        exact,
        ..
    } = &quake;
    // Followed in parallel (each its own simulation), collected in order.
    let followed: Vec<Pair> = planned
        .into_par_iter()
        .map(|mut p| {
            let (arrived, ended) = follow(
                collider, planner, shapes, params, p.pose, p.from, p.to, p.cost,
            );
            p.arrived = arrived;
            p.ended = ended;
            p
        })
        .collect();
    for p in &followed {
        tally.followed[p.pose] += 1;
        if p.in_time() {
            tally.in_time[p.pose] += 1;
        } else if p.arrived.is_some() {
            tally.late[p.pose] += 1;
        }
        if let Some(t) = p.arrived {
            tally.ratios.push(t / p.cost.max(f64::MIN_POSITIVE));
        }
        if !p.in_time() {
            let pose = ["stand", "crouch"][p.pose];
            let how = match p.arrived {
                Some(t) => format!("arrived late: {t:.2} s, allowed {:.2} s", p.allowed()),
                None => p.ended.clone(),
            };
            tally.failures.push(format!(
                "{} {pose} {} -> {} ({:.0} units, {:.2} s estimated; {}): {how}",
                map.name,
                digits(p.from),
                digits(p.to),
                p.length,
                p.cost,
                p.kinds
            ));
        }
    }

    // Line of sight: `sim los`'s tree of the sight pose against the exact trace of its cube.
    if los_segments > 0 {
        let los = cspace_sim::navigation::line_of_sight(&map.world, &map.name).unwrap();
        let point = exact.prepare(&Shape::from(&Pose::sight())).unwrap();
        let mut ctx = NavContext::new();
        let mut qctx = QueryContext::new();
        for (a, b) in segments(&map.world, los_segments, seed ^ 0x5151) {
            let hit = exact.trace(&mut qctx, &point, a, b);
            let clear = !hit.start_solid() && !hit.is_hit();
            tally.segments += 1;
            tally.blocked += usize::from(!clear);
            if los.visible(a, b, &mut ctx) != clear {
                tally.disagreements += 1;
                if tally.disagreements <= 5 {
                    eprintln!(
                        "{}: line of sight {a} -> {b}: exact says clear = {clear}",
                        map.name
                    );
                }
            }
        }
    }
    tally
}

#[test]
fn goto_follows_planned_paths_on_the_corpus() {
    const TEST: &str = "goto_follows_planned_paths_on_the_corpus";
    let Some(dir) = cspace_corpus::dir(TEST) else {
        return;
    };
    let pairs = count("CSPACE_GOTO_PAIRS", 200);
    let los_segments = count("CSPACE_GOTO_SEGMENTS", 100_000);
    let floor: f64 = setting("CSPACE_GOTO_FLOOR").map_or(FLOOR, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("CSPACE_GOTO_FLOOR={v} is not a percentage"))
    });
    let names = map_names(&dir);
    let started = std::time::Instant::now();
    let (mut followed, mut in_time, mut late, mut failures) = ([0; 2], [0; 2], [0; 2], Vec::new());
    let mut disagreements = 0;
    let mut ratios = Vec::new();
    eprintln!(
        "| map | pose | pairs | refused | unreachable | followed | arrived in time | late | segments | blocked | disagreements | seconds |"
    );
    eprintln!(
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    for name in &names {
        let map = cspace_corpus::map(TEST, &format!("{name}.map")).expect("CSPACE_MAPS is set");
        let clock = std::time::Instant::now();
        let t = validate(&map, pairs, los_segments, map_seed(name));
        let seconds = clock.elapsed().as_secs_f64();
        for pose in 0..2 {
            if t.drawn[pose] == 0 {
                continue;
            }
            eprintln!(
                "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {seconds:.1} |",
                ["stand", "crouch"][pose],
                t.drawn[pose],
                t.refused[pose],
                t.unreachable[pose],
                t.followed[pose],
                t.in_time[pose],
                t.late[pose],
                t.segments,
                t.blocked,
                t.disagreements,
            );
            followed[pose] += t.followed[pose];
            in_time[pose] += t.in_time[pose];
            late[pose] += t.late[pose];
        }
        disagreements += t.disagreements;
        failures.extend(t.failures);
        ratios.extend(t.ratios);
    }
    ratios.sort_by(f64::total_cmp);
    let quantile = |q: f64| {
        ratios
            .get(((ratios.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    let share = |a: usize, n: usize| 100.0 * a as f64 / n.max(1) as f64;
    let (all_followed, all_in_time) = (followed[0] + followed[1], in_time[0] + in_time[1]);
    eprintln!(
        "{TEST}: {} maps; standing {} of {} arrived in time ({:.1} %, {} late), crouching {} of {} \
         ({:.1} %, {} late); in all {:.2} %; time over estimate: median {:.2}, 90 % {:.2}, max {:.2}; \
         line of sight: {disagreements} disagreements; {:.1} s",
        names.len(),
        in_time[0],
        followed[0],
        share(in_time[0], followed[0]),
        late[0],
        in_time[1],
        followed[1],
        share(in_time[1], followed[1]),
        late[1],
        share(all_in_time, all_followed),
        quantile(0.5),
        quantile(0.9),
        ratios.last().copied().unwrap_or(0.0),
        started.elapsed().as_secs_f64()
    );
    for f in &failures {
        eprintln!("  failed: {f}");
    }
    assert_eq!(
        disagreements, 0,
        "line of sight disagrees with the exact trace"
    );
    assert!(
        share(all_in_time, all_followed) >= floor,
        "{:.2} % arrived in time, below {floor} % (the failures are listed above)",
        share(all_in_time, all_followed)
    );
}
