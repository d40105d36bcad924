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
//! # the same through the onion's typed context instead of a general QueryContext
//! cargo run --release -p cspace-onion --example trace_loop -- e1m1 200000 1 4096 typed
//! ```
//!
//! It prints the tree, the nanoseconds per trace of each round, the backend's counters and the
//! checksum (fractions, planes, brushes, points and times of every trace, summed). The fifth
//! argument chooses the context: `general` (default; a [`QueryContext`], as the simulator
//! queries any backend) or `typed` (the onion's [`ContextFor`]`<OnionCollider>`, for callers
//! that hold the onion itself); both give the same checksum.

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use cspace_geom::generate::{RandomBoxes, free_segments};
use cspace_geom::{
    Collider, ContextFor, DVec3, Hit, QueryContext, QueryCounters, Shape, TypedCollider, World,
};
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
    let typed = match args.get(4).map(String::as_str) {
        None | Some("general") => false,
        Some("typed") => true,
        Some(other) => return Err(format!("unknown context {other:?}: general or typed").into()),
    };
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
    let mut typed_ctx = ContextFor::<OnionCollider>::new();
    let prepared = onion.prepare(&shape)?;
    let mut checksum = 0.0;
    // Every field of every answer, summed (by reference: no copy of the answer).
    let sum = |checksum: &mut f64, hit: &Hit| {
        *checksum += hit.fraction();
        if let Some(s) = hit.surface() {
            *checksum += s.plane.normal().dot(DVec3::new(1.0, 10.0, 100.0))
                + s.plane.dist() * 1e-3
                + f64::from(s.brush.0) * 1e-6
                + s.point.element_sum() * 1e-4
                + s.time_of_impact;
        }
    };
    for round in 0..rounds {
        let clock = Instant::now();
        if typed {
            for i in 0..traces {
                let (a, b) = segments[i % segments.len()];
                sum(
                    &mut checksum,
                    &onion.trace_in(&mut typed_ctx, &prepared, a, b),
                );
            }
        } else {
            for i in 0..traces {
                let (a, b) = segments[i % segments.len()];
                sum(&mut checksum, &onion.trace(&mut ctx, &prepared, a, b));
            }
        }
        let ns = clock.elapsed().as_nanos() as f64 / traces.max(1) as f64;
        writeln!(out, "round {round}: {ns:.1} ns per trace")?;
    }
    let mut counters = QueryCounters::default();
    counters += ctx.counters;
    counters += typed_ctx.counters;
    writeln!(out, "{counters}")?;
    writeln!(out, "checksum {checksum:.17e}")?;
    Ok(())
}
