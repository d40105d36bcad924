//! Benchmarks of cspace-melax (criterion; report medians):
//!
//! - `random-boxes/{ray,sphere,cylinder,box}`: one trace of a short move (10 to 50 units, random
//!   direction, start free for the largest shape) on `RandomBoxes::BENCHMARK` (2,000 boxes in a
//!   1,000-unit cube, half rotated) with the paper-bevelled tree, visiting the same 4,096 moves in
//!   turn for every shape (Table 2's "same moves"); sphere r = 16, cylinder r = 16 h = 56, the
//!   Quake player box; `sphere-walk` and `cylinder-walk` are the same traces without the
//!   free-space index (every trace walks the tree: the same answers), so one run shows what the
//!   certified misses save;
//! - `e1m1/*`: the same on `quake_e1m1.map` (only when `CSPACE_MAPS` names the corpus);
//! - `compile/e1m1-paper`: bevelling E1M1's plain tree.
//!
//! `CSPACE_MAPS=../shared/maps cargo bench -p cspace-melax --bench melax`

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use cspace_geom::generate::{RandomBoxes, free_segments};
use cspace_geom::{Collider, DVec3, QueryContext, Shape, World};
use cspace_melax::compile::{PointSpace, compile_plain};
use cspace_melax::{BevelMode, MelaxCollider, MelaxTree};

fn shapes() -> Vec<(&'static str, Shape)> {
    vec![
        ("ray", Shape::POINT),
        ("sphere", Shape::new_sphere(16.0).unwrap()),
        ("cylinder", Shape::new_cylinder(16.0, 28.0).unwrap()),
        (
            "box",
            Shape::new_box(
                DVec3::new(-16.0, -16.0, -24.0),
                DVec3::new(16.0, 16.0, 32.0),
            )
            .unwrap(),
        ),
    ]
}

fn traces(c: &mut Criterion, group: &str, world: Arc<World>) {
    let plain = compile_plain(&world, &Default::default()).unwrap();
    let tree = Arc::new(MelaxTree::from_bsp(
        &world,
        &PointSpace(&plain.tree),
        BevelMode::PAPER,
    ));
    let largest = Shape::new_cylinder(16.0, 32.0).unwrap();
    let segments = free_segments(&world, &largest, &world.bounds(), 4096, (10.0, 50.0), 77);
    let mut g = c.benchmark_group(group);
    g.measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(500));
    let walks = [
        ("sphere-walk", Shape::new_sphere(16.0).unwrap()),
        ("cylinder-walk", Shape::new_cylinder(16.0, 28.0).unwrap()),
    ];
    for (name, shape) in shapes().into_iter().chain(walks) {
        let melax = MelaxCollider::new(world.clone(), tree.clone()).unwrap();
        let melax = if name.ends_with("-walk") {
            melax.without_free_index()
        } else {
            melax
        };
        let mut ctx = QueryContext::new();
        let prepared = melax.prepare(&shape).unwrap();
        let mut i = 0;
        g.bench_function(name, |b| {
            b.iter(|| {
                let (start, end) = segments[i % segments.len()];
                i += 1;
                black_box(melax.trace(&mut ctx, &prepared, start, end))
            })
        });
    }
    g.finish();
}

fn random_boxes(c: &mut Criterion) {
    traces(c, "random-boxes", Arc::new(RandomBoxes::BENCHMARK.world()));
}

fn e1m1(c: &mut Criterion) {
    let Some(map) = cspace_corpus::map("e1m1 benchmarks", "quake_e1m1.map") else {
        return;
    };
    let world = map.world;
    traces(c, "e1m1", world.clone());
    let plain = compile_plain(&world, &Default::default()).unwrap();
    c.bench_function("compile/e1m1-paper", |b| {
        b.iter(|| {
            black_box(MelaxTree::from_bsp(
                &world,
                &PointSpace(&plain.tree),
                BevelMode::PAPER,
            ))
        })
    });
}

criterion_group!(benches, random_boxes, e1m1);
criterion_main!(benches);
