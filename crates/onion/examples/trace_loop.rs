//! A loop of short box traces for profilers (`perf record`, `valgrind --tool=cachegrind`), and a
//! checksum of every answer to show that a change to the traversal changed no bit of them.
//!
//! The criterion benchmark (`benches/onion.rs`) is the measurement of record; this loop is what a
//! profiler runs. It traces the benchmark's segments (the standing player, 10 to 50 units,
//! starting free) through the tree of the three Quake poses, over and over:
//!
//! ```sh
//! cargo run --release -p cspace-onion --example trace_loop -- random-boxes
//! CSPACE_MAPS=../shared/maps cargo run --release -p cspace-onion --example trace_loop -- e1m1
//! # traces per round, rounds, distinct segments (few: all in cache)
//! cargo run --release -p cspace-onion --example trace_loop -- e1m1 200000 1 4096
//! ```
//!
//! It prints the tree, the nanoseconds per trace of each round, the backend's counters and the
//! checksum (fractions, planes, brushes, points and times of every trace, summed).

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use cspace_geom::generate::{RandomBoxes, free_segments};
use cspace_geom::{Collider, DVec3, QueryContext, Shape, World};
use cspace_onion::{CompileOptions, OnionCollider, Pose, compile};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let world_name = args.first().map_or("random-boxes", String::as_str);
    let number = |i: usize, default: usize| -> Result<usize, Box<dyn std::error::Error>> {
        match args.get(i) {
            Some(s) => s
                .parse()
                .map_err(|e| format!("argument {}: {s:?} is not a count ({e})", i + 1).into()),
            None => Ok(default),
        }
    };
    let (traces, rounds, distinct) = (number(1, 2_000_000)?, number(2, 5)?, number(3, 4096)?);
    let world: Arc<World> = match world_name {
        "random-boxes" => Arc::new(RandomBoxes::BENCHMARK.world()),
        "e1m1" => match cspace_corpus::map("trace_loop", "quake_e1m1.map") {
            Some(map) => map.world,
            None => return Ok(()),
        },
        other => return Err(format!("unknown world {other:?}: random-boxes or e1m1").into()),
    };
    let poses = [
        Pose::quake_standing(),
        Pose::quake_crouching(),
        Pose::quake_large(),
    ];
    // Written, not printed: a closed pipe (`| head`) ends the run with an error, not a panic.
    let mut out = std::io::stdout().lock();
    let compiled = compile(&world, &poses, &CompileOptions::default())?;
    writeln!(out, "{world_name}: {}", compiled.stats)?;
    let tree = compiled.tree;
    let shape = Shape::new_box(poses[0].mins, poses[0].maxs)?;
    let bounds = world.bounds();
    let segments = free_segments(&world, &shape, &bounds, distinct.max(1), (10.0, 50.0), 7);
    let onion = OnionCollider::new(world.clone(), tree)?;
    let mut ctx = QueryContext::new();
    let prepared = onion.prepare(&shape)?;
    let mut checksum = 0.0;
    for round in 0..rounds {
        let clock = Instant::now();
        for i in 0..traces {
            let (a, b) = segments[i % segments.len()];
            let hit = onion.trace(&mut ctx, &prepared, a, b);
            checksum += hit.fraction;
            if let Some(s) = hit.surface {
                checksum += s.plane.normal().dot(DVec3::new(1.0, 10.0, 100.0))
                    + s.plane.dist() * 1e-3
                    + f64::from(s.brush.0) * 1e-6
                    + s.point.element_sum() * 1e-4
                    + s.time_of_impact;
            }
        }
        let ns = clock.elapsed().as_nanos() as f64 / traces.max(1) as f64;
        writeln!(out, "round {round}: {ns:.1} ns per trace")?;
    }
    writeln!(out, "{}", ctx.counters)?;
    writeln!(out, "checksum {checksum:.17e}")?;
    Ok(())
}
