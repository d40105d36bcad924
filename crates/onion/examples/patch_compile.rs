//! The onion compile of a map with its patches at several tessellation bounds, and without them
//! (the figures of `docs/patches.md`): facets, nodes and seconds for the standing, crouching and
//! large poses, and a checksum of the saved tree (FNV-1a of `OnionTree::to_bytes`), so that a
//! change to the compiler that should leave the tree alone can be seen to.
//!
//! ```sh
//! cargo run --release -p cspace-onion --example patch_compile -- ../shared/maps/unvanquished_chasm.map 16 4 2
//! ```

use cspace_geom::World;
use cspace_geom::patch::TessellationOptions;
use cspace_geom::world::fnv1a64;
use cspace_mapfile::{BuildOptions, load_world};
use cspace_onion::{CompileOptions, Pose, compile};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: patch_compile FILE.map BOUND...");
        std::process::exit(2);
    };
    let text = std::fs::read(&path).expect("the map is readable");
    let poses = [
        Pose::quake_standing(),
        Pose::quake_crouching(),
        Pose::quake_large(),
    ];
    let report = |label: String, world: &World| {
        let compiled =
            compile(world, &poses, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let s = &compiled.stats;
        println!(
            "| {label} | {} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:016x} |",
            world.len(),
            s.nodes,
            s.compile_seconds.expand,
            s.compile_seconds.union,
            s.compile_seconds.build,
            s.compile_seconds.total,
            fnv1a64(&compiled.tree.to_bytes())
        );
    };
    println!(
        "| world | brushes and facets | nodes | expand s | union s | build s | total s | tree checksum |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---|");
    let loaded =
        load_world(&text, &path, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let brushes: Vec<_> = loaded
        .world
        .brushes()
        .iter()
        .filter(|b| b.source.facet.is_none())
        .cloned()
        .collect();
    report("without patches".into(), &World::new(brushes));
    for bound in args.map(|a| a.parse::<f64>().expect("a bound is a number of units")) {
        let options = BuildOptions {
            tessellation: TessellationOptions::new(bound).expect("a positive bound"),
            ..BuildOptions::default()
        };
        let loaded = load_world(&text, &path, &options).unwrap_or_else(|e| panic!("{e}"));
        report(
            format!(
                "patches within {bound} ({} facets)",
                loaded.patch_tally.facets
            ),
            &loaded.world,
        );
    }
}
