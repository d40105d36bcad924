//! Melax's free-space index (certified misses, issue 31) on one world: its build time beside the
//! tree's compile time, its bytes beside the tree's, the share of the benchmark's segments it
//! certifies, and the time per trace with and without it (the same collider's tree, interleaved
//! round by round, medians), for the bench's sphere (radius 16) and cylinder (radius 16, height
//! 56). Every answer with the index is checked against the answer without it (`==` on the whole
//! `Hit`). The world is loaded and the segments drawn as the bench does: 8,000 free moves of 10
//! to 50 units in the box around the spawn points grown by 512 units (`suite::spawn_region`). It
//! lives here rather than in `cspace-melax` to share the bench's loading and region.
//!
//! ```sh
//! cargo run --release -p cspace-bench --features peers --example melax_free_index -- ../shared/maps/quake_e1m1.map 9 both
//! # instructions: one mode alone under callgrind, 1 round (8,000 traces per shape)
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*round_of*' \
//!   target/release/examples/melax_free_index MAP 1 index   # then `walk`; callgrind_annotate
//! # the build against the compile, in instructions (both shapes' indexes together)
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*prepare_indexed*' \
//!   target/release/examples/melax_free_index MAP 0 walk    # then '*compile_tree*'
//! ```
//!
//! The third argument is `both` (timed, interleaved), `index` or `walk` (one of them only, for
//! instruction counts); the second the number of rounds. `random-boxes` instead of a map is the
//! bench's world of 2,000 random boxes.

use std::sync::Arc;
use std::time::Instant;

use cspace_bench::suite::spawn_region;
use cspace_geom::generate::{RandomBoxes, free_segments};
use cspace_geom::{Collider, DVec3, Prepared, QueryContext, Shape, World};
use cspace_melax::{BevelMode, MelaxCollider, MelaxTree};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), rounds, mode) = (
        args.get(1),
        args.get(2)
            .map_or(5, |r| r.parse().expect("a number of rounds")),
        args.get(3).map_or("both", String::as_str),
    ) else {
        eprintln!(
            "usage: free_index FILE.map|random-boxes [ROUNDS] [both|index|walk] [paper|exact]"
        );
        std::process::exit(2);
    };
    let bevel = match args.get(4).map_or("paper", String::as_str) {
        "exact" => BevelMode::Exact,
        _ => BevelMode::PAPER,
    };
    let (world, region) = if path == "random-boxes" {
        let world = Arc::new(RandomBoxes::BENCHMARK.world());
        let region = world.bounds();
        (world, region)
    } else {
        let loaded = cspace_scenario::world_file::load_world(std::path::Path::new(path))
            .unwrap_or_else(|e| panic!("{e}"));
        let region = spawn_region(&loaded.world, &loaded.spawns);
        (loaded.world, region)
    };
    let started = Instant::now();
    let tree = Arc::new(compile_tree(&world, bevel));
    let compile = started.elapsed().as_secs_f64();
    println!(
        "{path} ({} bevels): tree {} nodes, {} bytes, compiled in {:.3} s",
        bevel.describe(),
        tree.node_count(),
        tree.memory_bytes(),
        compile
    );
    let indexed = MelaxCollider::new(world.clone(), tree.clone()).expect("same world");
    let walked = MelaxCollider::new(world.clone(), tree.clone())
        .expect("same world")
        .without_free_index();
    let shapes = [
        ("sphere", Shape::new_sphere(16.0).expect("a sphere")),
        (
            "cylinder",
            Shape::new_cylinder(16.0, 28.0).expect("a cylinder"),
        ),
    ];
    for (qi, (name, shape)) in shapes.iter().enumerate() {
        let started = Instant::now();
        let a = prepare_indexed(&indexed, shape);
        let build = started.elapsed().as_secs_f64();
        let b = walked.prepare(shape).expect("every shape");
        let stats = indexed.free_index(&a).expect("an index").stats();
        println!(
            "  {name}: {} cells of {:.1} units, {} boxes ({} shrunk), {} refused; {} bytes ({:.0} % of the tree's); built in {:.3} s ({:.1} % of the compile)",
            stats.cells,
            stats.cell_edge,
            stats.boxes,
            stats.shrunk,
            stats.refused,
            stats.bytes,
            100.0 * stats.bytes as f64 / tree.memory_bytes() as f64,
            build,
            100.0 * build / compile
        );
        let segments = free_segments(&world, shape, &region, 8000, (10.0, 50.0), 10 + qi as u64);
        let (mut ca, mut cb) = (QueryContext::new(), QueryContext::new());
        if mode == "both" {
            for &(s, e) in &segments {
                let (x, y) = (
                    indexed.trace(&mut ca, &a, s, e),
                    walked.trace(&mut cb, &b, s, e),
                );
                assert_eq!(x, y, "{s} -> {e}");
            }
        }
        let (mut with, mut without) = (Vec::new(), Vec::new());
        let mut checksum = 0.0;
        let mut round = |collider: &MelaxCollider, prepared, ctx: &mut QueryContext| {
            let started = Instant::now();
            checksum += round_of(collider, prepared, ctx, &segments);
            started.elapsed().as_secs_f64() * 1e9 / segments.len() as f64
        };
        for _ in 0..rounds {
            if mode != "walk" {
                with.push(round(&indexed, &a, &mut ca));
            }
            if mode != "index" {
                without.push(round(&walked, &b, &mut cb));
            }
        }
        if mode == "both" {
            // The cost of each kind of trace alone: certified misses, and the walk's misses and
            // hits among the rest (with the index, so a fall-through pays its look-up).
            let index = indexed.free_index(&a).expect("an index");
            let (mut certified, mut missed, mut hit) = (Vec::new(), Vec::new(), Vec::new());
            for &(s, e) in &segments {
                if index.certifies(s, e) {
                    certified.push((s, e));
                } else if walked.trace(&mut cb, &b, s, e).is_hit() {
                    hit.push((s, e));
                } else {
                    missed.push((s, e));
                }
            }
            for (kind, group) in [
                ("certified", &certified),
                ("walked miss", &missed),
                ("walked hit", &hit),
            ] {
                let mut times = Vec::new();
                for _ in 0..rounds {
                    let started = Instant::now();
                    for &(s, e) in group.iter() {
                        checksum += indexed.trace(&mut ca, &a, s, e).fraction();
                    }
                    times.push(started.elapsed().as_secs_f64() * 1e9 / group.len().max(1) as f64);
                }
                times.sort_by(f64::total_cmp);
                println!(
                    "    {kind}: {} traces, {:.0} ns each (median of {rounds})",
                    group.len(),
                    times[times.len() / 2]
                );
            }
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
        };
        let share = ca.counters.certified as f64
            / (ca.counters.certified + ca.counters.fall_throughs).max(1) as f64;
        println!(
            "  {name}: certified {:.1} %, nodes/trace {:.1} with, {:.1} without; ns/trace {:.0} with, {:.0} without (medians of {rounds}); checksum {checksum}",
            100.0 * share,
            ca.counters.nodes_visited as f64 / ca.counters.traces.max(1) as f64,
            cb.counters.nodes_visited as f64 / cb.counters.traces.max(1) as f64,
            median(&mut with),
            median(&mut without),
        );
    }
}

/// The tree (not inlined: callgrind counts it alone with `--toggle-collect='*compile_tree*'`).
#[inline(never)]
fn compile_tree(world: &World, bevel: BevelMode) -> MelaxTree {
    cspace_melax::compile(world, bevel).unwrap_or_else(|e| panic!("{e}"))
}

/// The shape prepared, its index built (not inlined: `--toggle-collect='*prepare_indexed*'`).
#[inline(never)]
fn prepare_indexed(collider: &MelaxCollider, shape: &Shape) -> Prepared {
    collider.prepare(shape).expect("every shape")
}

/// One round of traces: the sum of their fractions. Not inlined, so that callgrind can count its
/// instructions alone (`--toggle-collect='*round_of*'`).
#[inline(never)]
fn round_of(
    collider: &MelaxCollider,
    prepared: &Prepared,
    ctx: &mut QueryContext,
    segments: &[(DVec3, DVec3)],
) -> f64 {
    let collider: &dyn Collider = collider;
    segments
        .iter()
        .map(|&(s, e)| collider.trace(ctx, prepared, s, e).fraction())
        .sum()
}
