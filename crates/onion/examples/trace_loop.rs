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
//! # any corpus map by its file name without .map
//! CSPACE_MAPS=../shared/maps cargo run --release -p cspace-onion --example trace_loop -- \
//!     quake_e3m5
//! # traces per round, rounds, distinct segments (few: all in cache)
//! cargo run --release -p cspace-onion --example trace_loop -- e1m1 200000 1 4096
//! # the same through the onion's typed context instead of a general QueryContext
//! cargo run --release -p cspace-onion --example trace_loop -- e1m1 200000 1 4096 typed
//! # every trace walked (the free-space index left out)
//! cargo run --release -p cspace-onion --example trace_loop -- e1m1 200000 1 4096 general walk
//! # both, interleaved round by round on the same tree, with the medians and their ratio
//! cargo run --release -p cspace-onion --example trace_loop -- e1m1 1000000 9 4096 general both
//! ```
//!
//! It prints the tree, the nanoseconds per trace of each round, the backend's counters and the
//! checksum (fractions, planes, brushes, points and times of every trace, summed). The fifth
//! argument chooses the context: `general` (default; a [`QueryContext`], as the simulator
//! queries any backend) or `typed` (the onion's [`ContextFor`]`<OnionCollider>`, for callers
//! that hold the onion itself); both give the same checksum. The sixth chooses whether the
//! free-space index answers the misses it certifies (`index`, default) or every trace walks the
//! tree (`walk`): the same checksum again; `both` alternates the two, round by round (each
//! round's time is the index's, then the walk's), which is how to compare them on a busy machine.
//! It also prints what building the index took.

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
    let (walk, both) = match args.get(5).map(String::as_str) {
        None | Some("index") => (false, false),
        Some("walk") => (true, false),
        Some("both") => (false, true),
        Some(other) => return Err(format!("unknown choice {other:?}: index, walk or both").into()),
    };
    let world: Arc<World> = match world_name {
        "random-boxes" => Arc::new(RandomBoxes::BENCHMARK.world()),
        "e1m1" => match cspace_corpus::map("trace_loop", "quake_e1m1.map") {
            Some(map) => map.world,
            None => return Ok(()),
        },
        // Any other corpus map by its file name without `.map` (`quake_e3m5`,
        // `unvanquished_chasm`).
        other => match cspace_corpus::map("trace_loop", &format!("{other}.map")) {
            Some(map) => map.world,
            None => return Ok(()),
        },
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
    let tree_bytes = tree.memory_bytes();
    let clock = Instant::now();
    let onion = OnionCollider::new(world.clone(), tree)?;
    let collider_ms = clock.elapsed().as_secs_f64() * 1e3; // not a tolerance: seconds to ms
    writeln!(
        out,
        "collider built in {collider_ms:.1} ms; free-space index {:?}, {} bytes (tree {} bytes)",
        onion.free_index_stats(),
        onion.free_index_bytes(),
        tree_bytes
    )?;
    if both {
        return interleaved(&mut out, onion, &shape, &segments, traces, rounds);
    }
    let onion = if walk {
        onion.without_free_index()
    } else {
        onion
    };
    let mut ctx = QueryContext::new();
    let mut typed_ctx = ContextFor::<OnionCollider>::new();
    let prepared = onion.prepare(&shape)?;
    let mut checksum = 0.0;
    for round in 0..rounds {
        let clock = Instant::now();
        if typed {
            for i in 0..traces {
                let (a, b) = segments[i % segments.len()];
                add_answer(
                    &mut checksum,
                    &onion.trace_in(&mut typed_ctx, &prepared, a, b),
                );
            }
        } else {
            round_of(
                &mut checksum,
                &onion,
                &mut ctx,
                &prepared,
                &segments,
                traces,
            );
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

/// The index and the walk on the same tree, round by round; prints each round, the medians and
/// both checksums (which must be equal).
fn interleaved(
    out: &mut impl Write,
    onion: OnionCollider,
    shape: &Shape,
    segments: &[(DVec3, DVec3)],
    traces: usize,
    rounds: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let walked =
        OnionCollider::new(onion.world().clone(), onion.tree().clone())?.without_free_index();
    let colliders = [&onion, &walked];
    let prepared = [onion.prepare(shape)?, walked.prepare(shape)?];
    let mut contexts = [QueryContext::new(), QueryContext::new()];
    let mut checksums = [0.0f64; 2];
    let mut times: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for round in 0..rounds {
        for k in 0..2 {
            let clock = Instant::now();
            let ctx = &mut contexts[k];
            round_of(
                &mut checksums[k],
                colliders[k],
                ctx,
                &prepared[k],
                segments,
                traces,
            );
            times[k].push(clock.elapsed().as_nanos() as f64 / traces.max(1) as f64);
        }
        writeln!(
            out,
            "round {round}: index {:.1} ns, walk {:.1} ns per trace",
            times[0][round], times[1][round]
        )?;
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(0.0)
    };
    let (index, walk) = (median(&mut times[0]), median(&mut times[1]));
    writeln!(
        out,
        "median: index {index:.1} ns, walk {walk:.1} ns per trace ({:.2}x)",
        walk / index.max(f64::MIN_POSITIVE)
    )?;
    writeln!(out, "index: {}", contexts[0].counters)?;
    writeln!(out, "walk: {}", contexts[1].counters)?;
    writeln!(
        out,
        "checksum {:.17e} (index), {:.17e} (walk)",
        checksums[0], checksums[1]
    )?;
    Ok(())
}

/// One round of `traces` traces through a general context, their answers added to `checksum`;
/// never inlined, so that a profiler counts the traces alone:
/// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*round_of*' trace_loop e1m1
/// 100000 2 4096 general index` (then `walk`) gives the instructions of each as `round_of`'s
/// inclusive cost.
#[inline(never)]
fn round_of(
    checksum: &mut f64,
    onion: &OnionCollider,
    ctx: &mut QueryContext,
    prepared: &cspace_geom::Prepared,
    segments: &[(DVec3, DVec3)],
    traces: usize,
) {
    for i in 0..traces {
        let (a, b) = segments[i % segments.len()];
        add_answer(checksum, &onion.trace(ctx, prepared, a, b));
    }
}

/// Adds every field of an answer to `checksum`, in the order the checksums quoted in the docs
/// were summed (by reference: no copy of the answer).
#[inline]
fn add_answer(checksum: &mut f64, hit: &Hit) {
    *checksum += hit.fraction();
    if let Some(s) = hit.surface() {
        *checksum += s.plane.normal().dot(DVec3::new(1.0, 10.0, 100.0))
            + s.plane.dist() * 1e-3
            + f64::from(s.brush.0) * 1e-6
            + s.point.element_sum() * 1e-4
            + s.time_of_impact;
    }
}
