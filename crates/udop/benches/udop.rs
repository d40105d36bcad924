//! Benchmarks of cspace-udop (criterion; report medians):
//!
//! - `build/k`: one k-UDOP (k = 14, 18, 26, cap radius 128) in `RandomBoxes::BENCHMARK`, at
//!   free centres visited in turn;
//! - `build-e1m1/k-rR`: the same at the spawn points of `quake_e1m1.map` in turn, for cap radius
//!   64 and 128 (only when `CSPACE_MAPS` names the corpus);
//! - `build-patches/{generated,chasm}-{curves,facets}`: one 26-UDOP (cap radius 64, the cache's
//!   default) at free centres within 48 units of random facets, the patch pieces inserted by
//!   their curves or their facets as brushes (`PatchBound`), in `RandomPatches::TEST` and in
//!   `unvanquished_chasm.map` (only when `CSPACE_MAPS` names the corpus);
//! - `contains`: Algorithm 3 for a player box's swept k-DOP against a 26-UDOP;
//! - `walk-box/*` and `walk-cylinder/*`: one step of 256 agents (the player box, or a cylinder of
//!   radius 16 and half-height 28) moving 5 units per step in straight lines with random turns
//!   (5% per step) through `RandomBoxes::BENCHMARK`, stopping and turning where they hit, on the
//!   bare exact backend and through the cache with cap radius 64 and 128; every backend sees the
//!   same moves (the cache never changes an answer). The cache's counters over a fixed 200 steps
//!   are printed before each measurement.
//!
//! `CSPACE_MAPS=../shared/maps cargo bench -p cspace-udop --bench udop`

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use cspace_geom::generate::{RandomBoxes, RandomPatches, Rng, free_segments_near};
use cspace_geom::patch::TessellationOptions;
use cspace_geom::{
    Collider, DVec3, ExactCollider, MoverCache, Prepared, QueryContext, Shape, World,
};
use cspace_udop::{CacheConfig, Directions, PatchBound, UdopBuilder, UdopCache};

fn player() -> Shape {
    Shape::new_box(
        DVec3::new(-16.0, -16.0, -24.0),
        DVec3::new(16.0, 16.0, 32.0),
    )
    .unwrap()
}

fn free_points(world: &Arc<World>, shape: &Shape, count: usize, seed: u64) -> Vec<DVec3> {
    let exact = ExactCollider::new(world.clone());
    let mut ctx = QueryContext::new();
    let prepared = exact.prepare(shape).unwrap();
    let mut rng = Rng::new(seed);
    let bounds = world.bounds();
    let mut out = Vec::new();
    while out.len() < count {
        let p = rng.point_in(&bounds);
        if !exact.is_solid(&mut ctx, &prepared, p) {
            out.push(p);
        }
    }
    out
}

/// The walking workload: agents with positions and headings.
struct Walkers {
    agents: Vec<(DVec3, DVec3)>,
    movers: Vec<MoverCache>,
    rng: Rng,
    bounds: cspace_geom::Aabb,
}

impl Walkers {
    fn new(world: &Arc<World>, count: usize) -> Walkers {
        let mut rng = Rng::new(77);
        let agents: Vec<(DVec3, DVec3)> = free_points(world, &player(), count, 78)
            .into_iter()
            .map(|p| (p, rng.unit_vector()))
            .collect();
        Walkers {
            movers: agents.iter().map(|_| MoverCache::default()).collect(),
            agents,
            rng,
            bounds: world.bounds(),
        }
    }

    /// One move of every agent, each with its own mover cache lent to the context (as the
    /// simulator does).
    fn step(&mut self, collider: &dyn Collider, ctx: &mut QueryContext, prepared: &Prepared) {
        for ((position, heading), mover) in self.agents.iter_mut().zip(&mut self.movers) {
            if !self.bounds.contains_point(*position) {
                *heading = (self.bounds.centre() - *position).normalize();
            } else if self.rng.next_f64() < 0.05 {
                *heading = self.rng.unit_vector();
            }
            let end = *position + *heading * 5.0;
            let hit = ctx.with_mover(mover, |ctx| collider.trace(ctx, prepared, *position, end));
            *position = hit.end();
            if hit.is_hit() {
                *heading = self.rng.unit_vector();
            }
        }
    }
}

fn benches(c: &mut Criterion) {
    let world = Arc::new(RandomBoxes::BENCHMARK.world());
    let shape = player();
    let centres = free_points(&world, &shape, 256, 5);

    let mut group = c.benchmark_group("build");
    for k in [14, 18, 26] {
        let directions = Arc::new(Directions::<DVec3>::standard(k).unwrap());
        let mut builder = UdopBuilder::new(directions, 128.0).unwrap();
        let mut i = 0;
        group.bench_function(format!("{k}"), |b| {
            b.iter(|| {
                i = (i + 1) % centres.len();
                black_box(builder.build(&world, centres[i]))
            })
        });
    }
    group.finish();

    // Near the spawn points of quake_e1m1.map (when CSPACE_MAPS names the corpus).
    if let Some(map) = cspace_corpus::map("build-e1m1 benchmarks", "quake_e1m1.map") {
        let (e1m1, spawns) = (map.world, map.spawns);
        let mut group = c.benchmark_group("build-e1m1");
        for k in [14, 18, 26] {
            let directions = Arc::new(Directions::<DVec3>::standard(k).unwrap());
            for radius in [64.0, 128.0] {
                let mut builder = UdopBuilder::new(directions.clone(), radius).unwrap();
                let mut i = 0;
                group.bench_function(format!("{k}-r{radius}"), |b| {
                    b.iter(|| {
                        i = (i + 1) % spawns.len();
                        black_box(builder.build(&e1m1, spawns[i]))
                    })
                });
            }
        }
        group.finish();
    } else {
        eprintln!("build-e1m1 skipped: CSPACE_MAPS is not set");
    }

    // Next to patches, curves against facets.
    let mut patch_worlds = vec![(
        "generated",
        Arc::new(RandomPatches::TEST.world(&TessellationOptions::default())),
    )];
    if let Some(map) = cspace_corpus::map("build-patches benchmarks", "unvanquished_chasm.map") {
        patch_worlds.push(("chasm", map.world));
    }
    let mut group = c.benchmark_group("build-patches");
    for (name, patches) in &patch_worlds {
        let near: Vec<DVec3> = free_segments_near(
            patches,
            &shape,
            |b| b.brush.is_flat(),
            256,
            (1.0, 1.0),
            48.0,
            9,
        )
        .into_iter()
        .map(|(start, _)| start)
        .collect();
        for (label, bound) in [
            ("curves", PatchBound::Curves),
            ("facets", PatchBound::Facets),
        ] {
            let mut builder =
                UdopBuilder::new(Arc::new(Directions::<DVec3>::standard(26).unwrap()), 64.0)
                    .unwrap()
                    .with_patches(bound);
            let mut i = 0;
            group.bench_function(format!("{name}-{label}"), |b| {
                b.iter(|| {
                    i = (i + 1) % near.len();
                    black_box(builder.build(patches, near[i]))
                })
            });
        }
    }
    group.finish();

    let mut builder =
        UdopBuilder::new(Arc::new(Directions::<DVec3>::standard(26).unwrap()), 128.0).unwrap();
    let udop = builder.build(&world, centres[0]);
    c.bench_function("contains", |b| {
        b.iter(|| {
            black_box(udop.contains_swept_shape(
                &shape,
                black_box(centres[0]),
                black_box(centres[0] + DVec3::new(3.0, 4.0, 0.0)),
                1.0 / 32.0,
            ))
        })
    });

    // The walking workload, for the player box and for a cylinder (whose exact traces, through
    // rounded edges, cost more), and for two cap radii.
    let agents = 256;
    let cylinder = Shape::new_cylinder(16.0, 28.0).unwrap();
    for (label, shape) in [("box", &shape), ("cylinder", &cylinder)] {
        let mut group = c.benchmark_group(format!("walk-{label}"));
        let exact = ExactCollider::new(world.clone());
        let prepared = exact.prepare(shape).unwrap();
        let mut ctx = QueryContext::new();
        let mut walkers = Walkers::new(&world, agents);
        group.bench_function("exact", |b| {
            b.iter(|| walkers.step(&exact, &mut ctx, &prepared))
        });
        for radius in [64.0, 128.0] {
            let config = CacheConfig {
                radius,
                ..CacheConfig::default()
            };
            // Skip rate over a fixed 200 steps first.
            let cache = UdopCache::new(
                world.clone(),
                Box::new(ExactCollider::new(world.clone())),
                config,
            )
            .unwrap();
            let mut ctx = QueryContext::new();
            let mut walkers = Walkers::new(&world, agents);
            for _ in 0..200 {
                walkers.step(&cache, &mut ctx, &prepared);
            }
            eprintln!(
                "walk-{label}, radius {radius}, 256 agents x 200 steps: {}",
                ctx.take_counters()
            );
            let mut walkers = Walkers::new(&world, agents);
            group.bench_function(format!("udop+exact-r{radius}"), |b| {
                b.iter(|| walkers.step(&cache, &mut ctx, &prepared))
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = udop;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    targets = benches
}
criterion_main!(udop);
