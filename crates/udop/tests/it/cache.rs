//! The free-space cache never changes an answer: every move and point query asked of it is also
//! asked of a bare exact backend, and the two answers must be equal (bit for bit). A skipped move
//! the exact backend says hits would fail here, and so would a move the cache narrowed to a
//! cell's nearest brushes (`Collider::trace_among`) when another brush changes its answer.
//!
//! Move count: the suite runs 1,300,000+ moves in total, over four cache configurations (the
//! default 6-DOP with the skin margin, the 6-DOP without margin on 40-unit cells, the 26-DOP
//! without margin, 20 evenly spread directions without margin and a smaller cap). `wander_*` runs
//! 3 worlds x 3 shapes x 4 configurations x 24 agents x 1,000 moves = 864,000;
//! `walk_on_floors_and_along_walls_*` 3 shapes x 4 configurations x 40 agents x 1,000 steps, each
//! step a move, a slide when it hits and a 0.25-unit ground probe, so at least 960,000;
//! `resting_agents_*` 3 shapes x 4 configurations x 64 agents x 400 moves = 307,200 (fewer when an
//! agent found nothing to rest against). Each move costs one or two exact traces (one when the
//! cache skips it): with opt-level 1 the file runs in a few seconds on two cores (the tests are
//! split so the harness runs them in parallel), far inside the minute the dev profile allows, so
//! no release-only part is needed.

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::{Aabb, Collider, DVec3, ExactCollider, Hit, Shape, WithContext, World};
use cspace_udop::cache::Margin;
use cspace_udop::{CacheConfig, Directions, GridConfig, PatchBound, UdopCache};

use crate::common::{self, NamedWorld};

/// Moves per agent in the wandering test.
const WANDER_MOVES: usize = 1000;
const WANDER_AGENTS: u64 = 24;

#[derive(Debug, Default, Clone, Copy)]
pub struct Tally {
    pub moves: u64,
    pub skipped: u64,
    pub hits: u64,
    /// Moves the cache answered among a cell's left-out brushes (`trace_among`).
    pub narrowed: u64,
    /// Of those, the hits.
    pub narrowed_hits: u64,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        self.moves += o.moves;
        self.skipped += o.skipped;
        self.hits += o.hits;
        self.narrowed += o.narrowed;
        self.narrowed_hits += o.narrowed_hits;
    }
}

/// The standard 26-DOP.
fn dop26() -> Arc<Directions<DVec3>> {
    Arc::new(Directions::<DVec3>::standard(26).unwrap())
}

fn configs() -> Vec<(&'static str, CacheConfig)> {
    vec![
        ("6-dop (default), skin margin", CacheConfig::default()),
        (
            "6-dop, no margin, 40-unit cells",
            CacheConfig {
                margin: Margin::Units(0.0),
                grid: GridConfig {
                    edge: 40.0,
                    ..CacheConfig::default().grid
                },
                ..CacheConfig::default()
            },
        ),
        (
            "26-dop, no margin",
            CacheConfig {
                directions: dop26(),
                margin: Margin::Units(0.0),
                ..CacheConfig::default()
            },
        ),
        (
            "even-20, no margin, radius 64",
            CacheConfig {
                directions: Arc::new(Directions::<DVec3>::evenly_spread(20).unwrap()),
                radius: 64.0,
                margin: Margin::Units(0.0),
                ..CacheConfig::default()
            },
        ),
    ]
}

/// A cache and a bare exact backend over the same world, asked the same questions. The mover
/// ids of the callers below only name agents in messages: the cache's k-UDOPs belong to grid
/// cells, shared by every mover.
struct Pair {
    cache: WithContext<UdopCache>,
    exact: WithContext<ExactCollider>,
    tally: Tally,
    what: String,
}

impl Pair {
    fn new(world: &Arc<World>, config: CacheConfig, what: String) -> Pair {
        Pair {
            cache: crate::common::exact_cache(world, config),
            exact: WithContext::new(ExactCollider::new(world.clone())),
            tally: Tally::default(),
            what,
        }
    }

    fn trace(&mut self, shape: &Shape, mover: u64, start: DVec3, end: DVec3) -> Hit {
        let prepared = self.cache.prepare(shape).unwrap();
        let before = self.cache.counters();
        let cached = self.cache.trace(&prepared, start, end);
        let skipped = self.cache.counters().certified > before.certified;
        let narrowed = self.cache.counters().narrowed > before.narrowed;
        let reference = self
            .exact
            .trace(&self.exact.prepare(shape).unwrap(), start, end);
        assert_eq!(
            cached, reference,
            "{}: mover {mover} from {start} to {end} (skipped: {skipped}, narrowed: {narrowed})",
            self.what
        );
        self.tally.moves += 1;
        self.tally.skipped += u64::from(skipped);
        self.tally.hits += u64::from(reference.is_hit());
        self.tally.narrowed += u64::from(narrowed);
        self.tally.narrowed_hits += u64::from(narrowed && reference.is_hit());
        reference
    }

    fn is_solid(&mut self, shape: &Shape, mover: u64, position: DVec3) -> bool {
        let prepared = self.cache.prepare(shape).unwrap();
        let cached = self.cache.is_solid(&prepared, position);
        let reference = self
            .exact
            .is_solid(&self.exact.prepare(shape).unwrap(), position);
        assert_eq!(
            cached, reference,
            "{}: mover {mover}'s point query at {position}",
            self.what
        );
        reference
    }
}

/// A random move length: mostly short steps, some long runs.
fn length(rng: &mut Rng) -> f64 {
    let u = rng.next_f64();
    if u < 0.7 {
        rng.range(0.0, 8.0)
    } else if u < 0.95 {
        rng.range(8.0, 32.0)
    } else {
        rng.range(32.0, 128.0)
    }
}

/// Agents wander in straight lines with random turns, stopping where they hit.
fn wander(named: &NamedWorld, shape: &Shape, seed: u64) -> Tally {
    let mut total = Tally::default();
    for (what, config) in configs() {
        let mut pair = Pair::new(
            &named.world,
            config,
            format!("{} / {} / {what}", named.name, shape.describe()),
        );
        let mut rng = Rng::new(seed);
        let bounds = named.world.bounds();
        let mut agents: Vec<(DVec3, DVec3)> = (0..WANDER_AGENTS)
            .map(|_| {
                let p = common::free_position(&mut rng, &mut pair.exact, shape, &bounds)
                    .expect("the world has free space");
                (p, common::direction(&mut rng, 0.3))
            })
            .collect();
        for step in 0..WANDER_MOVES {
            for (id, (position, heading)) in agents.iter_mut().enumerate() {
                if !bounds.contains_point(*position) {
                    // Turn back into the world rather than wander off into empty space.
                    *heading = (bounds.centre() - *position).normalize();
                } else if rng.next_f64() < 0.1 {
                    *heading = common::direction(&mut rng, 0.3);
                }
                let end = *position + *heading * length(&mut rng);
                let hit = pair.trace(shape, id as u64, *position, end);
                if hit.is_hit() {
                    *heading = common::direction(&mut rng, 0.3);
                }
                *position = hit.end();
                if step % 50 == 0 {
                    pair.is_solid(shape, id as u64, *position);
                }
            }
        }
        // The cache did skip work, and the world was hit often enough to matter.
        let t = pair.tally;
        assert!(t.skipped > t.moves / 10, "{}: {t:?}", pair.what);
        assert!(t.hits > t.moves / 100, "{}: {t:?}", pair.what);
        total += t;
    }
    total
}

fn wander_world(named: NamedWorld, seed: u64) {
    let mut total = Tally::default();
    for (i, shape) in common::shapes().iter().enumerate() {
        total += wander(&named, shape, seed + i as u64);
    }
    assert_eq!(
        total.moves,
        3 * configs().len() as u64 * WANDER_AGENTS * WANDER_MOVES as u64
    );
    eprintln!("wander {}: {total:?}", named.name);
}

#[test]
fn wander_random_boxes() {
    wander_world(common::random_boxes(), 100);
}

#[test]
fn wander_convex_brushes() {
    wander_world(common::convex_brushes(), 200);
}

#[test]
fn wander_floors_and_walls() {
    wander_world(common::floors_and_walls(), 300);
}

const WALKERS: u64 = 40;
const WALK_STEPS: usize = 1000;

/// Walkers on the floors of the two-storey world: each step a horizontal move of 5 units (a
/// slight climb or dip now and then), a slide along whatever stopped it (so agents slide along
/// walls a skin away), and a 0.25-unit ground probe that lands them back on the floor.
fn walk(shape: &Shape, seed: u64) -> Tally {
    let named = common::floors_and_walls();
    let mut total = Tally::default();
    for (what, config) in configs() {
        let mut pair = Pair::new(
            &named.world,
            config,
            format!("walk / {} / {what}", shape.describe()),
        );
        let mut rng = Rng::new(seed);
        let room = Aabb::new(
            DVec3::new(-500.0, -500.0, 60.0),
            DVec3::new(500.0, 500.0, 150.0),
        );
        let mut agents: Vec<(DVec3, DVec3)> = (0..WALKERS)
            .map(|id| {
                let p = common::free_position(&mut rng, &mut pair.exact, shape, &room).unwrap();
                // Drop onto the floor: the end rests exactly a skin above it.
                let landed = pair.trace(shape, id, p, p - DVec3::Z * 400.0);
                (landed.end(), common::direction(&mut rng, 1.0))
            })
            .collect();
        for _ in 0..WALK_STEPS {
            for (id, (position, heading)) in agents.iter_mut().enumerate() {
                let id = id as u64;
                if rng.next_f64() < 0.05 {
                    *heading = common::direction(&mut rng, 1.0);
                }
                let mut motion = *heading * 5.0;
                let u = rng.next_f64();
                if u < 0.05 {
                    motion.z = -1e-3; // pressing down into the floor
                } else if u < 0.1 {
                    motion.z = 1e-3;
                }
                let hit = pair.trace(shape, id, *position, *position + motion);
                *position = hit.end();
                if let Some(surface) = hit.surface() {
                    // Slide the rest along the plane hit (Quake's clip velocity, overclip 1).
                    let n = surface.plane.normal();
                    let rest = motion * (1.0 - hit.fraction());
                    let slide = rest - n * rest.dot(n);
                    let slid = pair.trace(shape, id, *position, *position + slide);
                    *position = slid.end();
                    if slid.is_hit() || rng.next_f64() < 0.3 {
                        *heading = common::direction(&mut rng, 1.0);
                    }
                }
                // Ground probe: lands the agent a skin above whatever is below.
                let ground = pair.trace(shape, id, *position, *position - DVec3::Z * 0.25);
                *position = ground.end();
            }
        }
        let t = pair.tally;
        assert!(t.hits > t.moves / 10, "{}: {t:?}", pair.what);
        // Ground probes and slides, hits, were answered among the cells' nearest brushes (at
        // least 8 % of them in every configuration when this was written; most on 64-unit cells).
        assert!(t.narrowed_hits > t.hits / 20, "{}: {t:?}", pair.what);
        total += t;
    }
    total
}

#[test]
fn walk_on_floors_and_along_walls_box() {
    let t = walk(&common::shapes()[0], 400);
    assert!(t.moves >= configs().len() as u64 * WALKERS * 2 * WALK_STEPS as u64);
    eprintln!("walk box: {t:?}");
}

#[test]
fn walk_on_floors_and_along_walls_sphere() {
    let t = walk(&common::shapes()[1], 401);
    assert!(t.moves >= configs().len() as u64 * WALKERS * 2 * WALK_STEPS as u64);
    eprintln!("walk sphere: {t:?}");
}

#[test]
fn walk_on_floors_and_along_walls_cylinder() {
    let t = walk(&common::shapes()[2], 402);
    assert!(t.moves >= configs().len() as u64 * WALKERS * 2 * WALK_STEPS as u64);
    eprintln!("walk cylinder: {t:?}");
}

const RESTING: u64 = 64;
const RESTING_MOVES: usize = 400;

/// Agents placed exactly a skin from a floor or a wall (by a trace into it) move parallel to it,
/// slightly into it and slightly away, in every direction of the plane: the moves that sit
/// right at the edge of "free".
fn resting(shape: &Shape, seed: u64) -> Tally {
    let named = common::floors_and_walls();
    let mut total = Tally::default();
    for (what, config) in configs() {
        let mut pair = Pair::new(
            &named.world,
            config,
            format!("resting / {} / {what}", shape.describe()),
        );
        let mut rng = Rng::new(seed);
        let room = Aabb::new(
            DVec3::new(-480.0, -480.0, 40.0),
            DVec3::new(480.0, 480.0, 150.0),
        );
        for id in 0..RESTING {
            let p = common::free_position(&mut rng, &mut pair.exact, shape, &room).unwrap();
            // Against the floor (even ids) or into a wall along a random horizontal direction.
            let towards = if id % 2 == 0 {
                DVec3::NEG_Z
            } else {
                common::direction(&mut rng, 1.0)
            };
            let hit = pair.trace(shape, id, p, p + towards * 2000.0);
            let Some(surface) = hit.surface() else {
                continue;
            };
            let n = surface.plane.normal();
            let (u, v) = {
                let helper = if n.z.abs() < 0.9 { DVec3::Z } else { DVec3::X };
                let u = helper.cross(n).normalize();
                (u, n.cross(u))
            };
            let rest = hit.end();
            for _ in 0..RESTING_MOVES {
                let a = rng.range(0.0, std::f64::consts::TAU);
                let along = (u * a.cos() + v * a.sin()) * rng.range(0.0, 24.0);
                let off = match rng.below(4) {
                    0 => 0.0,
                    1 => -1e-4,
                    2 => 1e-4,
                    _ => rng.range(-0.05, 0.05),
                };
                pair.trace(shape, id, rest, rest + along + n * off);
                if rng.below(8) == 0 {
                    pair.is_solid(shape, id, rest + along * rng.next_f64());
                }
            }
        }
        // Moves into the floor or the wall they rest on were answered among the cells' nearest
        // brushes (more than half of them in every configuration when this was written).
        let t = pair.tally;
        assert!(t.narrowed_hits > t.hits / 3, "{}: {t:?}", pair.what);
        total += t;
    }
    total
}

#[test]
fn resting_agents_box() {
    let t = resting(&common::shapes()[0], 500);
    eprintln!("resting box: {t:?}");
}

#[test]
fn resting_agents_sphere() {
    let t = resting(&common::shapes()[1], 501);
    eprintln!("resting sphere: {t:?}");
}

#[test]
fn resting_agents_cylinder() {
    let t = resting(&common::shapes()[2], 502);
    eprintln!("resting cylinder: {t:?}");
}

/// The cache configurations near patches: the default (the pieces by their curves), the facets
/// as brushes, and curves without margin for 20 evenly spread directions.
fn patch_configs() -> Vec<(&'static str, CacheConfig)> {
    vec![
        ("6-dop, curves", CacheConfig::default()),
        (
            "26-dop, facets",
            CacheConfig {
                directions: dop26(),
                patches: PatchBound::Facets,
                ..CacheConfig::default()
            },
        ),
        (
            "even-20, no margin, curves",
            CacheConfig {
                directions: Arc::new(Directions::<DVec3>::evenly_spread(20).unwrap()),
                margin: Margin::Units(0.0),
                patches: PatchBound::Curves,
                ..CacheConfig::default()
            },
        ),
    ]
}

/// Agents start free within 48 units of random facets and wander with short moves (turning
/// back towards their start when more than 160 units away); every answer of the cache is checked
/// against the exact backend. Per configuration, the tally (moves, skips, hits).
pub fn wander_near_facets(
    name: &str,
    world: &Arc<World>,
    shape: &Shape,
    agents: u64,
    moves: usize,
    seed: u64,
) -> Vec<(&'static str, Tally)> {
    let facets: Vec<Aabb> = world
        .brushes()
        .iter()
        .filter(|b| b.brush.is_flat())
        .map(|b| b.brush.bounds().loosened(48.0))
        .collect();
    assert!(!facets.is_empty(), "{name} has no facet");
    let mut out = Vec::new();
    for (what, config) in patch_configs() {
        let mut pair = Pair::new(
            world,
            config,
            format!("{name} near facets / {} / {what}", shape.describe()),
        );
        let mut rng = Rng::new(seed);
        let mut walkers: Vec<(DVec3, DVec3, DVec3)> = Vec::new();
        while walkers.len() < agents as usize {
            let near = facets[rng.below(facets.len())];
            if let Some(p) = common::free_position(&mut rng, &mut pair.exact, shape, &near) {
                walkers.push((p, p, common::direction(&mut rng, 0.5)));
            }
        }
        for step in 0..moves {
            for (id, (home, position, heading)) in walkers.iter_mut().enumerate() {
                if position.distance(*home) > 160.0 {
                    *heading = (*home - *position).normalize();
                } else if rng.next_f64() < 0.1 {
                    *heading = common::direction(&mut rng, 0.5);
                }
                let end = *position + *heading * length(&mut rng);
                let hit = pair.trace(shape, id as u64, *position, end);
                if hit.is_hit() {
                    *heading = common::direction(&mut rng, 0.5);
                }
                *position = hit.end();
                if step % 50 == 0 {
                    pair.is_solid(shape, id as u64, *position);
                }
            }
        }
        out.push((what, pair.tally));
    }
    out
}

/// Near the patches of the generated patch world (arches, pipes, sheets, cones, a terrain), the
/// cache answers as the exact backend for every shape, whether it bounds patches by their curves
/// or by their facets: 3 shapes x 3 configurations x 16 agents x 600 moves.
#[test]
fn wander_near_patches() {
    let world = common::random_patches();
    for (i, shape) in common::shapes().iter().enumerate() {
        for (what, t) in
            wander_near_facets(world.name, &world.world, shape, 16, 600, 700 + i as u64)
        {
            assert!(t.skipped > t.moves / 10, "{what}: {t:?}");
            assert!(t.hits > t.moves / 100, "{what}: {t:?}");
            eprintln!("near patches / {} / {what}: {t:?}", shape.describe());
        }
    }
}
