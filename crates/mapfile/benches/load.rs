//! Parsing and world building of two large corpus maps, read through `CSPACE_MAPS`:
//! `quake_e1m1.map` (1257 brushes, target: parse + build under 50 ms) and
//! `librequake_e3m4.map` (3441 brushes, up to 31 faces each).
//!
//! `cargo bench -p cspace-mapfile` prints a skip line and measures nothing when `CSPACE_MAPS` is
//! unset. Besides `load` (parse + build), each map is measured in parts: `parse`, `build`
//! (classification, brush building and the world index) and `geom_brushes` (only the
//! `Brush::from_map_points` calls `build` makes, which live in `cspace-geom`).
//!
//! `patches/unvanquished_chasm.map` tessellates the 266 collidable patches of chasm at the
//! default error bound (`cspace_geom::patch::tessellate`, what `build_world` calls; target:
//! under 50 ms).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use cspace_geom::Brush;
use cspace_geom::patch::{TessellationOptions, tessellate};
use cspace_mapfile::{
    BrushFate, BuildOptions, MapFile, build_world, collidable_patch_grids, load_world,
};

#[path = "../tests/it/support.rs"]
mod support;

const MAPS: [&str; 2] = ["quake_e1m1.map", "librequake_e3m4.map"];

fn load(c: &mut Criterion) {
    let Some(corpus) = support::corpus("load benchmark") else {
        return;
    };
    let options = BuildOptions::default();
    for name in MAPS {
        let bytes = corpus.read(name);
        let map = MapFile::parse(&bytes, name).expect("corpus maps parse");
        // The face points of exactly the brushes `build_world` builds.
        let built = build_world(&map, &options).expect("corpus maps build");
        let world_faces: Vec<Vec<[glam::DVec3; 3]>> = built
            .brushes
            .iter()
            .filter(|b| matches!(b.fate, BrushFate::Solid(_) | BrushFate::Clip(_)))
            .map(|b| {
                let entity = &map.entities[b.source.entity as usize];
                let brush = &entity.brushes[b.source.brush as usize];
                brush.faces.iter().map(|f| f.points).collect()
            })
            .collect();

        let mut group = c.benchmark_group(name);
        group.bench_function("load", |b| {
            b.iter(|| load_world(black_box(&bytes), name, &options).expect("parses"))
        });
        group.bench_function("parse", |b| {
            b.iter(|| MapFile::parse(black_box(&bytes), name).expect("parses"))
        });
        group.bench_function("build", |b| {
            b.iter(|| build_world(black_box(&map), &options).expect("corpus maps build"))
        });
        group.bench_function("geom_brushes", |b| {
            b.iter(|| {
                for faces in &world_faces {
                    black_box(Brush::from_map_points(black_box(faces)).expect("valid"));
                }
            })
        });
        group.finish();
    }
}

fn patches(c: &mut Criterion) {
    let Some(corpus) = support::corpus("patch tessellation benchmark") else {
        return;
    };
    let name = "unvanquished_chasm.map";
    let map = MapFile::parse(corpus.read(name), name).expect("corpus maps parse");
    let built = build_world(&map, &BuildOptions::default()).expect("corpus maps build");
    let grids = collidable_patch_grids(&map, &built);
    let options = TessellationOptions::default();
    let mut group = c.benchmark_group("patches");
    group.bench_function(name, |b| {
        b.iter(|| tessellate(black_box(&grids), &options).expect("within the budget"))
    });
    group.finish();
}

criterion_group!(benches, load, patches);
criterion_main!(benches);
