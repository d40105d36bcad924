//! `sim map`: what the import of a `.map` file found.

use std::fmt::Write as _;

use cspace_mapfile::{BrushFate, MapWorld};
use serde_json::{Value, json};

use crate::trace::{compact, compact_vector};

/// Spawn points the text report lists; it says how many more there are.
const LISTED_SPAWNS: usize = 8;

/// The report as JSON: entities, brushes (all), solid brushes, skipped brushes with reasons,
/// patches, bounds, spawn points.
pub fn json(map: &MapWorld) -> Value {
    let v = |p: cspace_geom::DVec3| json!([p.x, p.y, p.z]);
    let t = &map.tally;
    json!({
        "file": map.file.as_ref(),
        "formats": map.formats().iter().map(|f| f.name()).collect::<Vec<_>>(),
        "entities": map.entities.len(),
        "brushes": {
            "total": t.total,
            "solid": t.solid,
            "clip": t.clip,
            "non_solid": t.non_solid(),
            "dropped": t.dropped(),
            "invalid": t.invalid,
            "mixed_contents": t.mixed_contents,
            "in_world": map.world.len(),
        },
        "skipped": map.brushes.iter().filter(|b| !matches!(b.fate, BrushFate::Solid(_) | BrushFate::Clip(_))).map(|b| json!({
            "source": b.source.to_string(),
            "line": b.source.line,
            "entity": b.source.entity,
            "brush": b.source.brush,
            "reason": b.fate.to_string(),
        })).collect::<Vec<_>>(),
        "unknown_classes": map.unknown_classes.iter().map(|c| json!({"classname": c.classname, "entities": c.entities, "brushes": c.brushes})).collect::<Vec<_>>(),
        "patches": map.patches,
        "bounds": if map.bounds.is_empty() { Value::Null } else { json!({"min": v(map.bounds.min), "max": v(map.bounds.max)}) },
        "spawn_points": map.spawn_points.iter().map(|s| json!({
            "classname": s.classname,
            "origin": v(s.origin),
            "yaw": s.yaw,
            "line": s.line,
        })).collect::<Vec<_>>(),
        "dropped_planes": {"duplicate": map.dropped_planes.duplicate, "redundant": map.dropped_planes.redundant},
        "warnings": map.warnings.iter().map(|w| format!("{}: {}", w.line, w.message)).collect::<Vec<_>>(),
    })
}

/// The report as text.
pub fn text(map: &MapWorld) -> String {
    let mut out = String::new();
    let t = &map.tally;
    let formats: Vec<&str> = map.formats().iter().map(|f| f.name()).collect();
    writeln!(
        out,
        "{}: {} ({} entities)",
        map.file,
        formats.join(", "),
        map.entities.len()
    )
    .unwrap();
    writeln!(
        out,
        "brushes: {} in all; {} solid, {} clip (in the world: {}); {} non-solid, {} dropped markers, {} invalid",
        t.total,
        t.solid,
        t.clip,
        map.world.len(),
        t.non_solid(),
        t.dropped(),
        t.invalid
    )
    .unwrap();
    writeln!(out, "patches: {} (parsed, not collidable)", map.patches).unwrap();
    if !map.bounds.is_empty() {
        writeln!(
            out,
            "bounds: {} .. {}",
            compact_vector(map.bounds.min, 3),
            compact_vector(map.bounds.max, 3)
        )
        .unwrap();
    }
    writeln!(out, "spawn points: {}", map.spawn_points.len()).unwrap();
    for s in map.spawn_points.iter().take(LISTED_SPAWNS) {
        writeln!(
            out,
            "  {} at {} facing {}",
            s.classname,
            compact_vector(s.origin, 3),
            compact(s.yaw, 3)
        )
        .unwrap();
    }
    if map.spawn_points.len() > LISTED_SPAWNS {
        writeln!(
            out,
            "  ... and {} more (`--json` lists every one)",
            map.spawn_points.len() - LISTED_SPAWNS
        )
        .unwrap();
    }
    for b in map
        .brushes
        .iter()
        .filter(|b| matches!(b.fate, BrushFate::Invalid { .. }))
    {
        writeln!(out, "skipped {}: {}", b.source, b.fate).unwrap();
    }
    for c in &map.unknown_classes {
        writeln!(
            out,
            "unknown class {} ({} entities, {} brushes, taken as non-solid)",
            c.classname, c.entities, c.brushes
        )
        .unwrap();
    }
    for w in &map.warnings {
        writeln!(out, "warning: line {}: {}", w.line, w.message).unwrap();
    }
    out
}
