//! Box traces near patch facets against box traces near brushes (criterion; report medians): the
//! issue's target is traces near patches at most 1.5 times slower than near brushes.
//!
//! - `near/chasm/{brushes,facets}/{onion,melax-exact,exact}`: `unvanquished_chasm.map` (its 266
//!   collidable patches at the default error bound, 12,872 facets; only when `CSPACE_MAPS` names
//!   the corpus), the onion tree of the standing, crouching and large poses, Melax with exact
//!   bevels and the exact backend;
//! - `near/generated/...`: the same on `RandomPatches::TEST` (arches, pipes, sheets, cones and a
//!   terrain on a few pillars), always.
//!
//! One trace per iteration: Quake's standing box, 10 to 50 units in a random direction, from a
//! free start within 48 units of the bounds of a random facet (or of a random brush that is not
//! a facet), 4,096 segments taken in turn (`geom::generate::free_segments_near`), the same for
//! every backend.
//!
//! `CSPACE_MAPS=../shared/maps cargo bench -p cspace-melax --bench near_patches`

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use cspace_geom::generate::{RandomPatches, free_segments_near};
use cspace_geom::patch::TessellationOptions;
use cspace_geom::{Collider, ExactCollider, QueryContext, Shape, World};
use cspace_melax::{BevelMode, MelaxCollider};
use cspace_onion::{CompileOptions, OnionCollider, Pose, compile};

const SEGMENTS: usize = 4096;

fn near(c: &mut Criterion, name: &str, world: Arc<World>) {
    let poses = [
        Pose::quake_standing(),
        Pose::quake_crouching(),
        Pose::quake_large(),
    ];
    let compiled = compile(&world, &poses, &CompileOptions::default()).unwrap();
    let onion = OnionCollider::from_compiled(world.clone(), compiled).expect("the same world");
    let tree = cspace_melax::compile(&world, BevelMode::Exact).unwrap();
    let melax = MelaxCollider::new(world.clone(), Arc::new(tree)).expect("the same world");
    let exact = ExactCollider::new(world.clone());
    let shape = Shape::new_box(poses[0].mins, poses[0].maxs).unwrap();
    for facets in [false, true] {
        let segments = free_segments_near(
            &world,
            &shape,
            |b| b.brush.is_flat() == facets,
            SEGMENTS,
            (10.0, 50.0),
            48.0,
            5,
        );
        let near = if facets { "facets" } else { "brushes" };
        let mut group = c.benchmark_group(format!("near/{name}/{near}"));
        group
            .measurement_time(Duration::from_secs(3))
            .warm_up_time(Duration::from_millis(500));
        let backends: [&dyn Collider; 3] = [&onion, &melax, &exact];
        for backend in backends {
            let prepared = backend.prepare(&shape).unwrap();
            let mut ctx = QueryContext::new();
            let mut i = 0;
            group.bench_function(backend.name().to_owned(), |b| {
                b.iter(|| {
                    i = (i + 1) % SEGMENTS;
                    let (a, e) = segments[i];
                    black_box(backend.trace(&mut ctx, &prepared, black_box(a), black_box(e)))
                })
            });
        }
        group.finish();
    }
}

fn chasm(c: &mut Criterion) {
    if let Some(map) = cspace_corpus::map("near_patches benchmarks", "unvanquished_chasm.map") {
        near(c, "chasm", map.world);
    }
}

fn generated(c: &mut Criterion) {
    let world = RandomPatches::TEST.world(&TessellationOptions::default());
    near(c, "generated", Arc::new(world));
}

criterion_group!(benches, chasm, generated);
criterion_main!(benches);
