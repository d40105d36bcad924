//! Box traces near patch facets against box traces near brushes, on one map, for the onion,
//! Melax with exact bevels and the exact backend: nanoseconds per trace (best of 5 rounds) and
//! Melax's nodes visited (the figures of `docs/patches.md`). 20,000 segments of 10 to 50 units
//! from free starts within 48 units of a random facet, or of a random brush
//! (`geom::generate::free_segments_near`), for Quake's standing box. The criterion benchmark
//! `near_patches` of this crate measures the same traces' medians.
//!
//! ```sh
//! cargo run --release -p cspace-melax --example near_patches -- ../shared/maps/unvanquished_chasm.map
//! ```

use std::sync::Arc;
use std::time::Instant;

use cspace_geom::generate::free_segments_near;
use cspace_geom::{Collider, DVec3, ExactCollider, QueryContext, Shape};
use cspace_mapfile::{BuildOptions, load_world};
use cspace_melax::{BevelMode, MelaxCollider};
use cspace_onion::{CompileOptions, OnionCollider, Pose, compile};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: near_patches FILE.map");
        std::process::exit(2);
    };
    let text = std::fs::read(&path).expect("the map is readable");
    let loaded =
        load_world(&text, &path, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let world = Arc::new(loaded.world);
    let compiled = compile(
        &world,
        &[Pose::quake_standing()],
        &CompileOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let onion = OnionCollider::from_compiled(world.clone(), compiled).expect("same world");
    let tree = cspace_melax::compile(&world, BevelMode::Exact).unwrap_or_else(|e| panic!("{e}"));
    println!("melax tree: {:?}", tree.stats());
    let melax = MelaxCollider::new(world.clone(), Arc::new(tree)).expect("same world");
    let exact = ExactCollider::new(world.clone());
    let mut ctx = QueryContext::new();
    let shape = Shape::new_box(
        DVec3::new(-16.0, -16.0, -24.0),
        DVec3::new(16.0, 16.0, 32.0),
    )
    .expect("a valid box");
    for near_facets in [false, true] {
        let segments = free_segments_near(
            &world,
            &shape,
            |b| b.brush.is_flat() == near_facets,
            20_000,
            (10.0, 50.0),
            48.0,
            5,
        );
        let near = if near_facets { "facets" } else { "brushes" };
        let colliders: [(&str, &dyn Collider); 3] =
            [("onion", &onion), ("melax", &melax), ("exact", &exact)];
        for (name, collider) in colliders {
            let prepared = collider.prepare(&shape).expect("a compiled pose");
            let (mut best, mut hits) = (f64::INFINITY, 0);
            for _ in 0..5 {
                let started = Instant::now();
                hits = segments
                    .iter()
                    .filter(|(a, b)| collider.trace(&mut ctx, &prepared, *a, *b).is_hit())
                    .count();
                best = best.min(started.elapsed().as_secs_f64() / segments.len() as f64);
            }
            println!(
                "near {near}: {name} {:.0} ns per trace ({hits} hits)",
                best * 1e9
            );
        }
        let mut melax_ctx = QueryContext::new();
        let prepared = melax.prepare(&shape).expect("every shape");
        for (a, b) in &segments {
            melax.trace(&mut melax_ctx, &prepared, *a, *b);
        }
        let counters = melax_ctx.counters;
        println!(
            "near {near}: melax visits {:.0} nodes per trace",
            counters.nodes_visited as f64 / counters.traces as f64
        );
    }
}
