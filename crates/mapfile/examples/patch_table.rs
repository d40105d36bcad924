//! The tessellation of a map's collidable patches at several error bounds: facets, the bound
//! reached, the error measured between the surface and the facets, and the time taken (the
//! table of `docs/patches.md`).
//!
//! ```sh
//! cargo run --release -p cspace-mapfile --example patch_table -- ../shared/maps/unvanquished_chasm.map 16 8 4 2 1
//! ```

use std::time::Instant;

use cspace_geom::patch::{TessellationOptions, measured_error, tessellate};
use cspace_mapfile::{BuildOptions, MapFile, build_world, collidable_patch_grids};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: patch_table FILE.map BOUND...");
        std::process::exit(2);
    };
    let bounds: Vec<f64> = args
        .map(|a| a.parse().expect("a bound is a number of units"))
        .collect();
    let text = std::fs::read(&path).expect("the map is readable");
    let map = MapFile::parse(&text, &path).unwrap_or_else(|e| panic!("{e}"));
    let built = build_world(&map, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let grids = collidable_patch_grids(&map, &built);
    println!("{path}: {} collidable patches", grids.len());
    println!("| bound (units) | facets | bound reached | measured | ms (best of 5) |");
    println!("|---:|---:|---:|---:|---:|");
    for bound in bounds {
        let options = TessellationOptions::new(bound).expect("a positive bound");
        let mut best = f64::INFINITY;
        let mut tessellations = Vec::new();
        for _ in 0..5 {
            let started = Instant::now();
            tessellations = tessellate(&grids, &options).unwrap_or_else(|e| panic!("{e}"));
            best = best.min(started.elapsed().as_secs_f64());
        }
        let facets: usize = tessellations.iter().map(|t| t.facets.len()).sum();
        let reached = tessellations
            .iter()
            .map(|t| t.error_bound)
            .fold(0.0, f64::max);
        let measured = grids
            .iter()
            .zip(&tessellations)
            .map(|(g, t)| measured_error(g, t, 8))
            .fold(0.0, f64::max);
        println!(
            "| {bound} | {facets} | {reached:.3} | {measured:.3} | {:.1} |",
            best * 1e3
        );
    }
}
