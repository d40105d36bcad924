//! `sim compile`: the statistics of a compiled onion tree, as text and JSON.

use std::fmt::Write as _;

use cspace_onion::{FillOutcome, Pose, TreeStats};
use serde_json::{Value, json};

/// The statistics as JSON: `spaces`, `nodes`, `leaves`, `planes`, `depth_max`, `depth_mean`, the
/// poses with their polygon counts before and after splitting and the branch nodes of their query
/// trees, the leaf solidity patterns, `zero_volume_leaves`, `bytes` (in memory), `compile_seconds`
/// (the total) and `stage_seconds`.
pub fn json(stats: &TreeStats, poses: &[Pose]) -> Value {
    let s = &stats.compile_seconds;
    json!({
        "spaces": stats.spaces,
        "nodes": stats.nodes,
        "leaves": stats.leaves,
        "planes": stats.planes,
        "depth_max": stats.depth_max,
        "depth_mean": stats.depth_mean,
        "poses": poses.iter().enumerate().map(|(i, p)| json!({
            "name": p.name,
            "mins": [p.mins.x, p.mins.y, p.mins.z],
            "maxs": [p.maxs.x, p.maxs.y, p.maxs.z],
            "polygons_before": stats.polygons_before.get(i),
            "polygons_after": stats.polygons_after.get(i),
            "query_nodes": stats.query_nodes.get(i),
            "outside_fill": stats.outside_fill.get(i).map(fill_text),
        })).collect::<Vec<_>>(),
        "leaf_patterns": stats.leaf_patterns.iter().map(|p| json!({
            "pattern": p.pattern,
            "leaves": p.leaves,
        })).collect::<Vec<_>>(),
        "zero_volume_leaves": stats.zero_volume_leaves,
        "bytes": stats.bytes,
        "compile_seconds": s.total,
        "stage_seconds": { "expand": s.expand, "union": s.union, "build": s.build },
    })
}

/// The statistics as a few lines of text.
pub fn text(stats: &TreeStats, poses: &[Pose]) -> String {
    let mut out = String::new();
    let s = &stats.compile_seconds;
    let _ = writeln!(
        out,
        "{} spaces, {} nodes, {} leaves, {} planes; depth max {} mean {:.1}; {} bytes in memory",
        stats.spaces,
        stats.nodes,
        stats.leaves,
        stats.planes,
        stats.depth_max,
        stats.depth_mean,
        stats.bytes
    );
    for (i, p) in poses.iter().enumerate() {
        let _ = writeln!(
            out,
            "  space {i} {}: {} polygons, {} after splits; {} query nodes; outside fill: {}",
            p.describe(),
            stats.polygons_before.get(i).copied().unwrap_or(0),
            stats.polygons_after.get(i).copied().unwrap_or(0),
            stats.query_nodes.get(i).copied().unwrap_or(0),
            stats.outside_fill.get(i).map_or("off".into(), fill_text)
        );
    }
    let patterns: Vec<String> = stats
        .leaf_patterns
        .iter()
        .map(|p| format!("{} x{}", p.pattern, p.leaves))
        .collect();
    let _ = writeln!(
        out,
        "leaf patterns (S solid, E empty, per space): {}",
        patterns.join(", ")
    );
    let _ = writeln!(
        out,
        "zero-volume leaves {}; compiled in {:.3} s (expand {:.3}, union {:.3}, build {:.3})",
        stats.zero_volume_leaves, s.total, s.expand, s.union, s.build
    );
    out
}

/// What the outside fill did in one space, in words.
fn fill_text(fill: &FillOutcome) -> String {
    match fill {
        FillOutcome::Off => "off".into(),
        FillOutcome::NoSpawn => "no spawn point in an empty leaf (left unfilled)".into(),
        FillOutcome::Leaked => "leaked: not sealed for this pose (left unfilled)".into(),
        FillOutcome::Nested => "inside a larger pose's leaking space (left unfilled)".into(),
        FillOutcome::Filled { leaves } => format!("filled {leaves} leaves"),
    }
}
