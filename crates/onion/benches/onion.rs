//! Benchmarks of cspace-onion (criterion; report medians):
//!
//! - `compile/e1m1`: `quake_e1m1.map` with the Quake standing, crouching and large poses (the tree
//!   size is printed first);
//! - `trace/e1m1/*` and `trace/random_boxes_2000/*`: one short box trace (the standing player,
//!   10-50 units, starting free; the same segments for both backends, taken in turn), onion
//!   (tree of the three poses) and exact side by side, in `quake_e1m1.map` and in
//!   `RandomBoxes::BENCHMARK` (2,000 boxes in a 1,000-unit cube, half rotated).
//!
//! E1M1 comes through `CSPACE_MAPS` (a skip line is printed when it is unset):
//! `CSPACE_MAPS=../shared/maps cargo bench -p cspace-onion --bench onion`

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use cspace_geom::generate::{RandomBoxes, free_segments};
use cspace_geom::{Collider, ExactCollider, QueryContext, Shape, World};
use cspace_onion::{CompileOptions, OnionCollider, Pose, compile};

const SEGMENTS: usize = 4096;

fn poses() -> [Pose; 3] {
    [
        Pose::quake_standing(),
        Pose::quake_crouching(),
        Pose::quake_large(),
    ]
}

fn e1m1() -> Option<Arc<World>> {
    cspace_corpus::map("e1m1 benchmarks", "quake_e1m1.map").map(|m| m.world)
}

fn bench_compile(c: &mut Criterion, world: &World) {
    let compiled = compile(world, &poses(), &CompileOptions::default()).unwrap();
    eprintln!("e1m1 tree: {}", compiled.stats);
    let mut group = c.benchmark_group("compile");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("e1m1", |b| {
        b.iter(|| compile(black_box(world), &poses(), &CompileOptions::default()).unwrap())
    });
    group.finish();
}

fn bench_traces(c: &mut Criterion, name: &str, world: Arc<World>) {
    let compiled = compile(&world, &poses(), &CompileOptions::default()).unwrap();
    eprintln!("{name} tree: {}", compiled.stats);
    let shape = Shape::new_box(poses()[0].mins, poses()[0].maxs).unwrap();
    let segments = free_segments(&world, &shape, &world.bounds(), SEGMENTS, (10.0, 50.0), 7);
    let onion = OnionCollider::from_compiled(world.clone(), compiled)
        .expect("the tree was compiled from this world");
    let exact = ExactCollider::new(world.clone());
    let mut group = c.benchmark_group(format!("trace/{name}"));
    let backends: [&dyn Collider; 2] = [&onion, &exact];
    for backend in backends {
        let prepared = backend.prepare(&shape).unwrap();
        let label = backend.name().to_owned();
        let mut ctx = QueryContext::new();
        let mut i = 0;
        group.bench_function(label, |b| {
            b.iter(|| {
                i = (i + 1) % SEGMENTS;
                let (a, e) = segments[i];
                black_box(backend.trace(&mut ctx, &prepared, black_box(a), black_box(e)))
            })
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    if let Some(world) = e1m1() {
        bench_compile(c, &world);
        bench_traces(c, "e1m1", world);
    }
    bench_traces(
        c,
        "random_boxes_2000",
        Arc::new(RandomBoxes::BENCHMARK.world()),
    );
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(4));
    targets = benches
}
criterion_main!(group);
