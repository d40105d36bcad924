//! The onion compile's cost against the world's size (issue 36): open worlds of pillars on a
//! floor (`sim bench`'s open world, `geom::generate::Pillars`) and of random boxes
//! (`RandomBoxes`, the benchmark world's density), and sealed maps, each compiled for Quake's
//! standing and crouching boxes. One line per world: brushes, seconds per stage (expansion, CSG
//! union, tree, total), the tree's nodes, leaves, depth (largest and mean) and polygons before
//! and after splits.
//!
//! ```sh
//! cargo run --release -p cspace-onion --example compile_scaling -- pillars 1000 2000 4000 8000
//! cargo run --release -p cspace-onion --example compile_scaling -- boxes 250 500 1000 2000
//! cargo run --release -p cspace-onion --example compile_scaling -- map ../shared/maps/quake_e1m1.map
//! ```

use std::time::Instant;

use cspace_geom::World;
use cspace_geom::generate::{Pillars, RandomBoxes};
use cspace_onion::{CompileOptions, Pose, compile};

fn main() {
    let mut args = std::env::args().skip(1);
    let kind = args.next().unwrap_or_else(|| usage());
    let rest: Vec<String> = args.collect();
    let worlds: Vec<(String, World)> = match kind.as_str() {
        "pillars" => rest
            .iter()
            .map(|n| {
                let n: usize = n.parse().unwrap_or_else(|_| usage());
                (format!("pillars {n}"), Pillars::at_bench_density(n).world())
            })
            .collect(),
        "boxes" => rest
            .iter()
            .map(|n| {
                let n: usize = n.parse().unwrap_or_else(|_| usage());
                let world = RandomBoxes::BENCHMARK.scaled(n).world();
                (format!("random boxes {n}"), world)
            })
            .collect(),
        "map" => rest
            .iter()
            .map(|path| {
                let text = std::fs::read(path).expect("the map is readable");
                let options = cspace_mapfile::BuildOptions::default();
                let loaded = cspace_mapfile::load_world(&text, path, &options)
                    .unwrap_or_else(|e| panic!("{e}"));
                (path.clone(), loaded.world)
            })
            .collect(),
        _ => usage(),
    };
    println!(
        "| world | brushes | expand s | union s | tree s | total s | nodes | leaves | depth max | depth mean | polygons | after splits |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let poses = [Pose::quake_standing(), Pose::quake_crouching()];
    for (name, world) in worlds {
        let started = Instant::now();
        let compiled =
            compile(&world, &poses, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let total = started.elapsed().as_secs_f64();
        let s = &compiled.stats;
        let seconds = &s.compile_seconds;
        println!(
            "| {name} | {} | {:.3} | {:.3} | {:.3} | {total:.3} | {} | {} | {} | {:.1} | {} | {} |",
            world.len(),
            seconds.expand,
            seconds.union,
            seconds.build,
            s.nodes,
            s.leaves,
            s.depth_max,
            s.depth_mean,
            s.polygons_before.iter().sum::<usize>(),
            s.polygons_after.iter().sum::<usize>(),
        );
    }
}

fn usage() -> ! {
    eprintln!("usage: compile_scaling pillars N... | boxes N... | map FILE...");
    std::process::exit(2);
}
