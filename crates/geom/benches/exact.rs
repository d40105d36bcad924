//! The exact reference backend's traces: box (the Quake player), sphere and cylinder, over short
//! segments (10-50 units, starting in free space) in the generated benchmark world
//! (`RandomBoxes::BENCHMARK`: 2,000 boxes in a 1,000-unit cube, half rotated) and in
//! `quake_e1m1.map` (through `CSPACE_MAPS`; a skip line is printed when it is unset).
//!
//! `cargo bench -p cspace-geom --bench exact`

use std::hint::black_box;
use std::sync::Arc;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use cspace_geom::generate::{RandomBoxes, free_segments};
use cspace_geom::{Collider, DVec3, ExactCollider, QueryContext, Shape, World};

const SEGMENTS: usize = 4096;

fn shapes() -> [(&'static str, Shape); 3] {
    [
        (
            "box",
            Shape::new_box(
                DVec3::new(-16.0, -16.0, -24.0),
                DVec3::new(16.0, 16.0, 32.0),
            )
            .unwrap(),
        ),
        ("sphere", Shape::new_sphere(16.0).unwrap()),
        ("cylinder", Shape::new_cylinder(16.0, 28.0).unwrap()),
    ]
}

fn bench_world(c: &mut Criterion, name: &str, world: Arc<World>) {
    let region = world.bounds();
    let mut group = c.benchmark_group(format!("exact/{name}"));
    for (label, shape) in shapes() {
        let segments = free_segments(&world, &shape, &region, SEGMENTS, (10.0, 50.0), 7);
        let exact = ExactCollider::new(world.clone());
        let mut ctx = QueryContext::new();
        let prepared = exact.prepare(&shape).unwrap();
        // Warm the context: its cylinder prism cache is built once per brush and height.
        for &(a, b) in &segments {
            exact.trace(&mut ctx, &prepared, a, b);
        }
        group.bench_function(format!("{label} trace"), |b| {
            b.iter_batched(
                || (),
                |()| {
                    for &(a, e) in &segments {
                        black_box(exact.trace(&mut ctx, &prepared, black_box(a), black_box(e)));
                    }
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_world(
        c,
        "random_boxes_2000",
        Arc::new(RandomBoxes::BENCHMARK.world()),
    );
    if let Some(map) = cspace_corpus::map("exact/e1m1 benchmarks", "quake_e1m1.map") {
        bench_world(c, "e1m1", map.world);
    }
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(group);
