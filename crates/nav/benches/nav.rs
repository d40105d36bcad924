//! Benchmarks of cspace-nav on E1M1 (criterion; report medians), the tree compiled for the Quake
//! standing and crouching players and the point:
//!
//! - `nav/build/e1m1`: [`NavMesh::build`] for standing and crouching (the tree's compile time
//!   is printed first; `cargo bench -p cspace-onion` measures it);
//! - `nav/path/e1m1`: one path query, taken in turn from 1,024 pairs of standing points on
//!   random areas that reach each other;
//!
//! The line-of-sight query is timed beside parry's ray cast and the backends' point traces in
//! `tools/bench` (`cargo bench -p cspace-bench --features peers --bench line_of_sight`), where
//! the peers are built.
//!
//! E1M1 comes through `CSPACE_MAPS` (a skip line is printed when it is unset):
//! `CSPACE_MAPS=../shared/maps cargo bench -p cspace-nav --bench nav`

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use cspace_geom::generate::Rng;
use cspace_geom::{DVec3, World};
use cspace_nav::{NavContext, NavMesh, NavParams, NavPose};
use cspace_onion::{CompileOptions, Pose, compile};

const PAIRS: usize = 1024;

fn poses() -> [Pose; 3] {
    [
        Pose::quake_standing(),
        Pose::quake_crouching(),
        Pose::point(),
    ]
}

fn nav_poses() -> [NavPose; 2] {
    [NavPose::stand(), NavPose::crouch()]
}

/// Pairs of standing points (area centres lifted by the clearance) that reach each other.
fn reachable_pairs(nav: &NavMesh) -> Vec<(DVec3, DVec3, usize)> {
    let mut rng = Rng::new(21);
    let mut ctx = NavContext::new();
    let areas = nav.areas();
    let lift = DVec3::Z * nav.params().clearance;
    let mut out = Vec::with_capacity(PAIRS);
    while out.len() < PAIRS {
        let (a, b) = (
            &areas[rng.below(areas.len())],
            &areas[rng.below(areas.len())],
        );
        let (from, to) = (a.centre + lift, b.centre + lift);
        if let Ok(Some(_)) = nav.path(from, to, a.pose, &mut ctx) {
            out.push((from, to, a.pose));
        }
    }
    out
}

fn benches(c: &mut Criterion) {
    let Some(map) = cspace_corpus::map("cspace-nav benchmarks", "quake_e1m1.map") else {
        return;
    };
    let world: Arc<World> = map.world;
    let compiled = compile(&world, &poses(), &CompileOptions::default()).unwrap();
    eprintln!("e1m1 tree: {}", compiled.stats);
    let tree = compiled.tree;
    let params = NavParams::default();
    let nav = NavMesh::build(&tree, &world, &nav_poses(), &params).unwrap();
    eprintln!("e1m1 graph:\n{}", nav.stats());

    let mut group = c.benchmark_group("nav/build");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("e1m1", |b| {
        b.iter(|| NavMesh::build(black_box(&tree), &world, &nav_poses(), &params).unwrap())
    });
    group.finish();

    let pairs = reachable_pairs(&nav);
    let mut ctx = NavContext::new();
    let mut i = 0;
    c.bench_function("nav/path/e1m1", |b| {
        b.iter(|| {
            i = (i + 1) % PAIRS;
            let (from, to, pose) = pairs[i];
            black_box(
                nav.path(black_box(from), black_box(to), pose, &mut ctx)
                    .unwrap(),
            )
        })
    });
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(4));
    targets = benches
}
criterion_main!(group);
