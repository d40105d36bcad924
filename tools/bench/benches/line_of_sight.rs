//! Line of sight on E1M1 against parry's ray cast, side by side on the same segments (issue 21;
//! criterion, report medians): 4,096 short segments (10-50 units, starting free, the onion
//! benchmark's lengths), taken in turn.
//!
//! - `line_of_sight/e1m1/nav-tree`: `cspace-nav`'s ray stabbing over the sight space of the
//!   navigation graph's tree (Quake's standing and crouching players and the sight cube,
//!   `Pose::sight`, half side 1/32);
//! - `.../sight-tree`: the same over a tree of the sight cube alone (what `sim los` builds);
//! - `.../onion-trace-nav-tree`, `.../onion-trace-sight-tree`, `.../exact-trace`: the full
//!   traces of the sight cube by the onion backend (over the same two trees) and the exact one;
//! - `.../parry-intersects-ray`: parry's boolean ray test on the world as a compound of convex
//!   polyhedra in its BVH (`RayCast::intersects_local_ray`, the same question: is anything in
//!   the way), and `.../parry-cast-ray`, its first hit (`cast_local_ray`, solid).
//!
//! Before timing it prints how often parry's answer differs from ours on the segments (parry
//! counts a ray grazing a face as a hit, cspace's backends do not; and the sight cube is blocked
//! by a face the ray passes within 1/32 of).
//!
//! `CSPACE_MAPS=../shared/maps cargo bench -p cspace-bench --features peers --bench line_of_sight`

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use cspace_bench::peers::{parry::ParryWorld, to_peer};
use cspace_geom::generate::free_segments;
use cspace_geom::{Collider, ExactCollider, QueryContext, Shape, World};
use cspace_nav::{LineOfSight, NavContext, NavMesh, NavParams, NavPose};
use cspace_onion::{CompileOptions, OnionCollider, Pose, compile};
use parry3d_f64::query::{Ray, RayCast};

const SEGMENTS: usize = 4096;

fn benches(c: &mut Criterion) {
    // Criterion draws its report with plotters, whose text needs a registered font in this
    // workspace (`ab_glyph`, no system fonts).
    cspace_font::register();
    let Some(map) = cspace_corpus::map("line_of_sight benchmark", "quake_e1m1.map") else {
        return;
    };
    let world: Arc<World> = map.world;
    let poses = [
        Pose::quake_standing(),
        Pose::quake_crouching(),
        Pose::sight(),
    ];
    let tree = compile(&world, &poses, &CompileOptions::default())
        .unwrap()
        .tree;
    let nav = NavMesh::build(
        &tree,
        &world,
        &[NavPose::stand(), NavPose::crouch()],
        &NavParams::default(),
    )
    .unwrap();
    let los = nav.line_of_sight().expect("the tree has the sight pose");
    let sight_tree = compile(&world, &[Pose::sight()], &CompileOptions::default())
        .unwrap()
        .tree;
    let alone = LineOfSight::new(&sight_tree, 0).unwrap();
    let cube = Shape::from(&Pose::sight());
    let parry = ParryWorld::new(&world);
    let compound = parry.compound();
    eprintln!(
        "line of sight trees: {} nodes (three poses), {} (sight alone); parry: {} polyhedra \
         ({} brushes left out)",
        los.node_count(),
        alone.node_count(),
        compound.shapes().len(),
        parry.skipped
    );
    let segments = free_segments(&world, &cube, &world.bounds(), SEGMENTS, (10.0, 50.0), 7);
    let rays: Vec<Ray> = segments
        .iter()
        .map(|&(a, b)| Ray::new(to_peer(a), to_peer(b - a)))
        .collect();

    let mut ctx = NavContext::new();
    let (mut blocked, mut differ) = (0, 0);
    for (&(a, b), ray) in segments.iter().zip(&rays) {
        let visible = alone.visible(a, b, &mut ctx);
        assert_eq!(visible, los.visible(a, b, &mut ctx), "{a} -> {b}");
        blocked += usize::from(!visible);
        differ += usize::from(visible == compound.intersects_local_ray(ray, 1.0));
    }
    eprintln!(
        "{SEGMENTS} segments: {blocked} blocked; parry's intersects_ray answers otherwise on {differ}"
    );

    let mut group = c.benchmark_group("line_of_sight/e1m1");
    for (label, sight) in [("nav-tree", los), ("sight-tree", &alone)] {
        let mut i = 0;
        group.bench_function(label, |b| {
            b.iter(|| {
                i = (i + 1) % SEGMENTS;
                let (a, e) = segments[i];
                black_box(sight.visible(black_box(a), black_box(e), &mut ctx))
            })
        });
    }
    let mut i = 0;
    group.bench_function("parry-intersects-ray", |b| {
        b.iter(|| {
            i = (i + 1) % SEGMENTS;
            black_box(compound.intersects_local_ray(black_box(&rays[i]), 1.0))
        })
    });
    let mut i = 0;
    group.bench_function("parry-cast-ray", |b| {
        b.iter(|| {
            i = (i + 1) % SEGMENTS;
            black_box(compound.cast_local_ray(black_box(&rays[i]), 1.0, true))
        })
    });
    let onion_nav = OnionCollider::new(world.clone(), Arc::new(tree.clone())).unwrap();
    let onion = OnionCollider::new(world.clone(), Arc::new(sight_tree)).unwrap();
    let exact = ExactCollider::new(world.clone());
    let traces: [(&str, &dyn Collider); 3] = [
        ("onion-trace-nav-tree", &onion_nav),
        ("onion-trace-sight-tree", &onion),
        ("exact-trace", &exact),
    ];
    for (label, backend) in traces {
        let prepared = backend.prepare(&cube).unwrap();
        let mut queries = QueryContext::new();
        let mut i = 0;
        group.bench_function(label, |b| {
            b.iter(|| {
                i = (i + 1) % SEGMENTS;
                let (a, e) = segments[i];
                black_box(backend.trace(&mut queries, &prepared, black_box(a), black_box(e)))
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(4));
    targets = benches
}
criterion_main!(group);
