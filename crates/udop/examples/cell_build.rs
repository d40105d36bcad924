//! The cost of building every cell's k-UDOP up front (`CacheConfig::prebuild`), per corpus map:
//! cells, bytes, build time (the median of the runs given, on one thread), beside the world's
//! own bytes (what the exact backend holds). docs/udop.md ("Cells") quotes it.
//!
//! `CSPACE_MAPS=../shared/maps cargo run --release -p cspace-udop --example cell_build -- 5
//! quake_e1m1.map quake_e3m5.map unvanquished_chasm.map`

use std::time::Instant;

use cspace_geom::ExactCollider;
use cspace_udop::{CacheConfig, UdopCache};

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .expect("the first argument is the number of runs");
    for file in args {
        let Some(map) = cspace_corpus::map("cell_build", &file) else {
            eprintln!("CSPACE_MAPS is unset");
            return;
        };
        let mut seconds = Vec::new();
        let mut last = None;
        for _ in 0..runs {
            let clock = Instant::now();
            let cache = UdopCache::new(
                map.world.clone(),
                Box::new(ExactCollider::new(map.world.clone())),
                CacheConfig {
                    prebuild: Some(1),
                    ..CacheConfig::default()
                },
            )
            .expect("the default configuration is valid");
            seconds.push(clock.elapsed().as_secs_f64());
            last = Some(cache);
        }
        seconds.sort_by(f64::total_cmp);
        let cache = last.expect("at least one run");
        let stats = cache.cells().stats();
        println!(
            "| {file} | {} | {:.1} | {} | {} | {} | {:.1} | {} | {:.3} us |",
            stats.cells,
            stats.edge,
            stats.centred,
            stats.empty,
            stats.bytes,
            seconds[seconds.len() / 2] * 1e3,
            map.world.memory_bytes(),
            seconds[seconds.len() / 2] * 1e6 / stats.cells as f64,
        );
    }
}
