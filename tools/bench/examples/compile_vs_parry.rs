//! The onion compile against parry's build, world size by world size (issue 36): open worlds of
//! pillars on a floor (`sim bench`'s open world, `geom::generate::Pillars`) and of random boxes
//! (the benchmark world's generator, `RandomBoxes::scaled`), and the corpus's sealed maps. For
//! each world, interleaved `runs` times: parry's compound of convex polyhedra and its BVH (what
//! `docs/PERFORMANCE.md`'s build table times), the onion tree of one pose (Quake's standing box,
//! as the benchmark's box traces use) and of two (standing and crouching, as `sim bench` compiles).
//! Medians, in milliseconds, and the trees' nodes, leaves and depths.
//!
//! ```sh
//! cargo run --release -p cspace-bench --features peers --example compile_vs_parry -- 3
//! CSPACE_MAPS=../shared/maps cargo run --release -p cspace-bench --features peers --example compile_vs_parry -- 3 maps
//! ```

use std::time::Instant;

use cspace_bench::peers::parry::ParryWorld;
use cspace_geom::World;
use cspace_geom::generate::{Pillars, RandomBoxes};
use cspace_onion::{CompileOptions, Pose, compile};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(3);
    let maps = args.next().is_some_and(|a| a == "maps");
    let mut worlds: Vec<(String, World)> = Vec::new();
    if maps {
        let dir = std::env::var("CSPACE_MAPS").expect("CSPACE_MAPS names the corpus");
        for name in [
            "quake_e1m1.map",
            "quake_e3m5.map",
            "quake_dm4.map",
            "librequake_e3m4.map",
            "unvanquished_chasm.map",
        ] {
            let path = std::path::Path::new(&dir).join(name);
            let text = std::fs::read(&path).expect("the map is readable");
            let options = cspace_mapfile::BuildOptions::default();
            let loaded =
                cspace_mapfile::load_world(&text, name, &options).unwrap_or_else(|e| panic!("{e}"));
            worlds.push((name.to_string(), loaded.world));
        }
    } else {
        let most: usize = std::env::var("PILLARS_MOST")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(20_000);
        for n in [1_000, 2_000, 4_000, 8_000, 16_000, 20_000]
            .into_iter()
            .filter(|&n| n <= most)
        {
            worlds.push((format!("pillars {n}"), Pillars::at_bench_density(n).world()));
        }
        for n in [250, 500, 1_000, 2_000, 4_000] {
            worlds.push((
                format!("random boxes {n}"),
                RandomBoxes::BENCHMARK.scaled(n).world(),
            ));
        }
    }
    println!(
        "| world | brushes | parry build ms | onion 1 pose ms | x parry | onion 2 poses ms | nodes (1 pose) | leaves | depth max | depth mean |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let one = [Pose::quake_standing()];
    let two = [Pose::quake_standing(), Pose::quake_crouching()];
    for (name, world) in &worlds {
        let (mut parry, mut onion_one, mut onion_two) = (Vec::new(), Vec::new(), Vec::new());
        let mut stats = None;
        for _ in 0..runs {
            parry.push(ParryWorld::new(world).build.as_secs_f64() * 1e3);
            let t = Instant::now();
            let compiled = compile(world, &one, &CompileOptions::default())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            onion_one.push(t.elapsed().as_secs_f64() * 1e3);
            stats = Some(compiled.stats);
            let t = Instant::now();
            compile(world, &two, &CompileOptions::default())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            onion_two.push(t.elapsed().as_secs_f64() * 1e3);
        }
        let s = stats.expect("at least one run");
        let (p, o1, o2) = (median(parry), median(onion_one), median(onion_two));
        println!(
            "| {name} | {} | {p:.1} | {o1:.1} | {:.0}x | {o2:.1} | {} | {} | {} | {:.1} |",
            world.len(),
            o1 / p,
            s.nodes,
            s.leaves,
            s.depth_max,
            s.depth_mean
        );
    }
}
