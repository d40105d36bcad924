//! One of our backends and parry's cast on one world's bench segments, the two alone (no other
//! participant between their batches), for profilers and for the batch size's effect: the
//! bench's main tables interleave every backend in batches of 64 segments, so each one's
//! structures are cold again at its next batch (docs/onion.md, "Where the index does not reach").
//!
//! ```sh
//! cargo run --release -p cspace-bench --features peers --example trace_alone -- \
//!     ../shared/maps/quake_e1m1.map onion box 64,8000 9
//! # where the onion's time goes (perf annotate the backend's `trace`)
//! perf record target/release/examples/trace_alone ../shared/maps/quake_e1m1.map onion box 8000 200
//! ```
//!
//! Arguments: the map (or `random-boxes`, the bench's world), the backend's label as the bench
//! prints it (`onion`, `exact`, `melax-exact (exact bevels)`, ...), the query (`ray`, `box`,
//! `sphere`, `cylinder`), the batch sizes (comma-separated) and the passes. The segments are the
//! bench's (8,000 free moves of 10 to 50 units around the spawn points); the medians per batch
//! size are printed with their ratio.

use std::sync::Arc;

use cspace_bench::ours::{self, OurTracer};
use cspace_bench::peers::parry::ParryWorld;
use cspace_bench::query::Query;
use cspace_bench::suite::spawn_region;
use cspace_bench::timing::{self, Tracer};
use cspace_geom::generate::{RandomBoxes, free_segments};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: trace_alone MAP|random-boxes BACKEND QUERY BATCHES PASSES";
    let [path, label, query, batches, passes] = args.as_slice() else {
        return Err(usage.into());
    };
    let query = Query::ALL
        .into_iter()
        .find(|q| q.name() == query)
        .ok_or_else(|| format!("unknown query {query:?}: ray, box, sphere or cylinder"))?;
    let batches: Vec<usize> = batches
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("batches {batches:?}: {e}"))?;
    let passes: usize = passes
        .parse()
        .map_err(|e| format!("passes {passes:?}: {e}"))?;
    let (world, region) = if path == "random-boxes" {
        let world = Arc::new(RandomBoxes::BENCHMARK.world());
        let region = world.bounds();
        (world, region)
    } else {
        let loaded = cspace_scenario::world_file::load_world(std::path::Path::new(path))?;
        let region = spawn_region(&loaded.world, &loaded.spawns);
        (loaded.world, region)
    };
    let shape = query.shape();
    let backend = ours::backends()
        .into_iter()
        .find(|b| b.label == label && b.queries.contains(&query))
        .ok_or_else(|| format!("no backend {label:?} answers {}", query.name()))?;
    let built = (backend.build)(&world, &shape).map_err(|e| e.to_string())?;
    let mut ours = OurTracer::new((built.factory)(), &shape).map_err(|e| e.to_string())?;
    // The bench's segments for this query (its seed: 8 plus the query's place in `Query::ALL`).
    let seed = 8 + Query::ALL.iter().position(|q| *q == query).unwrap_or(0) as u64;
    let segments = free_segments(&world, &shape, &region, 8000, (10.0, 50.0), seed);
    let parry = ParryWorld::new(&world);
    let mut caster = parry.caster(&shape);
    let mut tracers: [&mut dyn Tracer; 2] = [&mut ours, &mut caster];
    timing::record(&mut tracers, &segments);
    for batch in batches {
        let t = timing::interleaved(&mut tracers, &segments, passes, batch);
        println!(
            "batch {batch}: {label} {:.0} ns, parry {:.0} ns per trace (medians of {passes}): {:.2}x parry",
            t[0].median_ns,
            t[1].median_ns,
            t[1].median_ns / t[0].median_ns
        );
    }
    println!("{}", ours.counters());
    Ok(())
}
