//! `sim map`: what the import of a `.map` file found.

use std::fmt::Write as _;

use cspace_geom::Contents;
use cspace_mapfile::{BrushFate, MapWorld, PatchFate, PatchRecord};
use serde_json::{Value, json};

use cspace_scenario::trace::{compact, compact_vector};

/// Spawn points the text report lists; it says how many more there are.
const LISTED_SPAWNS: usize = 8;

/// Points per side of each facet's cell at which the tessellation error is measured (as the
/// table of `docs/patches.md` measures it): 8 x 8, corners included.
pub const ERROR_SAMPLES: usize = 8;

/// What became of a map's patches, with the tessellation error measured on its world.
#[derive(Debug, Clone, PartialEq)]
pub struct PatchReport {
    /// The largest error bound of any facet, in units: the tessellation guarantees every point
    /// of the facets within it of the curved surface, and every point of the surface within it
    /// of the facets (0 without facets).
    pub error_bound: f64,
    /// The largest distance measured from the curved surface to its facets, in units, over
    /// [`ERROR_SAMPLES`] x [`ERROR_SAMPLES`] points of every facet's cell (0 without facets).
    pub measured_error: f64,
    /// Per collidable patch (in file order), the measured error, in units.
    pub measured: Vec<f64>,
}

impl PatchReport {
    /// Measures the tessellation of `map`'s patches on its world's pieces.
    pub fn of(map: &MapWorld) -> PatchReport {
        let world = &map.world;
        // Pieces follow the collidable patches in order; a patch's facets are one run of ids.
        let mut measured = Vec::new();
        for record in &map.patch_records {
            let PatchFate::Collidable { first, facets, .. } = record.fate else {
                continue;
            };
            let ids = first.0..first.0 + facets;
            let error = world
                .patch_pieces()
                .iter()
                .filter(|p| p.facets.first().is_some_and(|f| ids.contains(&f.brush.0)))
                .map(|p| world.piece_error(p, ERROR_SAMPLES))
                .fold(0.0, f64::max);
            measured.push(error);
        }
        PatchReport {
            error_bound: map.patch_tally.error_bound,
            measured_error: measured.iter().copied().fold(0.0, f64::max),
            measured,
        }
    }
}

/// A patch's fate in a word: `solid`, `clip`, `non_solid`, `dropped` or `invalid`.
fn fate_kind(fate: &PatchFate) -> &'static str {
    match fate {
        PatchFate::Collidable {
            contents: Contents::Solid,
            ..
        } => "solid",
        PatchFate::Collidable {
            contents: Contents::Clip,
            ..
        } => "clip",
        PatchFate::NonSolid(_) => "non_solid",
        PatchFate::Dropped(_) => "dropped",
        PatchFate::Invalid { .. } => "invalid",
    }
}

/// The patches of the JSON report: counts by fate, facets, the error bound and the measured
/// error, every collidable patch with its facets and errors, every other one with its reason.
fn patches_json(map: &MapWorld, report: &PatchReport) -> Value {
    let t = &map.patch_tally;
    let place = |r: &PatchRecord| {
        json!({
            "source": format!("{}:{}", r.file, r.line),
            "line": r.line,
            "entity": r.entity,
            "patch": r.patch,
            "shader": r.shader,
            "size": r.size,
        })
    };
    let mut collidable = Vec::new();
    let mut skipped = Vec::new();
    let mut measured = report.measured.iter();
    for r in &map.patch_records {
        let mut entry = place(r);
        let fields = entry.as_object_mut().expect("a JSON object");
        fields.insert("fate".into(), json!(fate_kind(&r.fate)));
        if let PatchFate::Collidable {
            first,
            facets,
            error_bound,
            degenerate_cells,
            ..
        } = &r.fate
        {
            fields.insert("first_brush".into(), json!(first.0));
            fields.insert("facets".into(), json!(facets));
            fields.insert("degenerate_cells".into(), json!(degenerate_cells));
            fields.insert("error_bound".into(), json!(error_bound));
            fields.insert("measured_error".into(), json!(measured.next()));
            collidable.push(entry);
        } else {
            if let PatchFate::Invalid { at, .. } = &r.fate {
                fields.insert("source".into(), json!(at.to_string()));
            }
            fields.insert("reason".into(), json!(r.fate.to_string()));
            skipped.push(entry);
        }
    }
    json!({
        "total": t.total,
        "collidable": t.solid + t.clip,
        "solid": t.solid,
        "clip": t.clip,
        "non_solid": t.non_solid,
        "dropped": t.dropped,
        "invalid": t.invalid,
        "facets": t.facets,
        "degenerate_cells": t.degenerate_cells,
        "error_bound": report.error_bound,
        "measured_error": report.measured_error,
        "error_samples_per_cell": ERROR_SAMPLES * ERROR_SAMPLES,
        "collidable_patches": collidable,
        "skipped": skipped,
    })
}

/// The patch lines of the text report.
fn patches_text(out: &mut String, map: &MapWorld, report: &PatchReport) {
    let t = &map.patch_tally;
    writeln!(
        out,
        "patches: {} in all; {} collidable ({} solid, {} clip) as {} facets; {} non-solid, {} \
         dropped markers, {} invalid",
        t.total,
        t.solid + t.clip,
        t.solid,
        t.clip,
        t.facets,
        t.non_solid,
        t.dropped,
        t.invalid
    )
    .unwrap();
    if t.solid + t.clip > 0 {
        writeln!(
            out,
            "tessellation: facets within {} units of the curves (guaranteed), {} measured \
             ({} points per cell); {} degenerate cells without a facet",
            compact(report.error_bound, 3),
            compact(report.measured_error, 3),
            ERROR_SAMPLES * ERROR_SAMPLES,
            t.degenerate_cells
        )
        .unwrap();
    }
    for r in map
        .patch_records
        .iter()
        .filter(|r| !matches!(r.fate, PatchFate::Collidable { .. }))
    {
        writeln!(out, "patch not collidable: {r}").unwrap();
    }
}

/// The report as JSON: entities, brushes (all), solid brushes, skipped brushes with reasons,
/// patches (by fate, with facets, the error bound and the measured error; every patch that does
/// not collide with its reason), bounds, spawn points.
pub fn json(map: &MapWorld) -> Value {
    let v = |p: cspace_geom::DVec3| json!([p.x, p.y, p.z]);
    let patches = patches_json(map, &PatchReport::of(map));
    let t = &map.tally;
    json!({
        "file": map.file.as_ref(),
        "formats": map.formats().iter().map(|f| f.name()).collect::<Vec<_>>(),
        "entities": map.entities.len(),
        "brushes": {
            "total": t.total,
            "solid": t.solid,
            "clip": t.clip,
            "mover": t.mover,
            "non_solid": t.non_solid(),
            "dropped": t.dropped(),
            "invalid": t.invalid,
            "mixed_contents": t.mixed_contents,
            "in_world": map.world.len(),
        },
        "skipped": map.brushes.iter().filter(|b| !matches!(b.fate, BrushFate::Solid(_) | BrushFate::Clip(_) | BrushFate::Mover(_))).map(|b| json!({
            "source": b.source.to_string(),
            "line": b.source.line,
            "entity": b.source.entity,
            "brush": b.source.brush,
            "reason": b.fate.to_string(),
        })).collect::<Vec<_>>(),
        "unknown_classes": map.unknown_classes.iter().map(|c| json!({"classname": c.classname, "entities": c.entities, "brushes": c.brushes})).collect::<Vec<_>>(),
        "patches": patches,
        "bounds": if map.bounds.is_empty() { Value::Null } else { json!({"min": v(map.bounds.min), "max": v(map.bounds.max)}) },
        "spawn_points": map.spawn_points.iter().map(|s| json!({
            "classname": s.classname,
            "origin": v(s.origin),
            "yaw": s.yaw,
            "line": s.line,
        })).collect::<Vec<_>>(),
        "dropped_planes": {"duplicate": map.dropped_planes.duplicate, "redundant": map.dropped_planes.redundant},
        "warnings": map.warnings.iter().map(|w| format!("{}: {}", w.line, w.message)).collect::<Vec<_>>(),
        "living": crate::entities_report::json(&map.living),
        "assumed_solid": map.assumed_solid,
    })
}

/// How many of the textures assumed solid the text report names (`--json` lists them all).
const ASSUMED_SOLID_NAMED: usize = 12;

/// The report as text: the JSON report's counts, patches not collidable and invalid brushes with
/// their reasons.
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
        "brushes: {} in all; {} solid, {} clip (in the world: {}{}); {} non-solid, {} dropped markers, {} invalid",
        t.total,
        t.solid,
        t.clip,
        map.world.len() - map.patch_tally.facets,
        if map.patch_tally.facets > 0 {
            format!(", with {} patch facets: {}", map.patch_tally.facets, map.world.len())
        } else {
            String::new()
        },
        t.non_solid(),
        t.dropped(),
        t.invalid
    )
    .unwrap();
    patches_text(&mut out, map, &PatchReport::of(map));
    if !map.assumed_solid.is_empty() {
        let named = &map.assumed_solid[..map.assumed_solid.len().min(ASSUMED_SOLID_NAMED)];
        let more = map.assumed_solid.len() - named.len();
        writeln!(
            out,
            "textures assumed solid (no shader script defines them; --shaders DIR reads them): {}: {}{}",
            map.assumed_solid.len(),
            named.join(", "),
            if more > 0 {
                format!(", and {more} more (--json lists them)")
            } else {
                String::new()
            }
        )
        .unwrap();
    }
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
    crate::entities_report::text(&mut out, &map.living);
    out
}
