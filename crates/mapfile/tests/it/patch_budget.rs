//! Regression (issue 35, item 5): a 652-byte map with one 5 x 5 patch of control points
//! alternating between heights of +-500,000 (inside the numeric domain) needed more than 8 GB
//! and aborted (`memory allocation of 1 bytes failed`) in `sim check`; its 3 x 3 form made
//! 2,048,288 facets in 21.5 s and 2.6 GB. Tessellation within the error bound subdivides each
//! piece up to 2^10 cells a side, two facets a cell, each facet a brush.
//!
//! The fix (`geom::patch::tessellate`): the cells are counted as the cuts are refined, before a
//! facet is made, and past `MAX_PATCH_FACETS` the map is refused with the size header of the
//! patch that needs the most, the count reached and the limit (`MapError::PatchBudget`).

use std::time::Instant;

use cspace_mapfile::{BuildOptions, MapError, load_world};

/// One `n x n` patch whose control points alternate between heights of +-500,000.
fn spiky(n: usize) -> String {
    let mut rows = Vec::new();
    for i in 0..n {
        let points: Vec<String> = (0..n)
            .map(|j| {
                let z = if (i + j) % 2 == 0 { 500_000 } else { -500_000 };
                format!("( {} {} {z} 0 0 )", i * 64, j * 64)
            })
            .collect();
        rows.push(format!("( {} )", points.join(" ")));
    }
    format!(
        "{{\n\"classname\" \"worldspawn\"\n{{\npatchDef2\n{{\ncommon/caulk\n( {n} {n} 0 0 0 )\n(\n{}\n)\n}}\n}}\n}}\n",
        rows.join("\n")
    )
}

#[test]
fn a_patch_that_would_explode_is_refused_at_once_with_its_place_and_the_numbers() {
    for n in [3, 5] {
        let text = spiky(n);
        let started = Instant::now();
        let error = load_world(&text, "spiky.map", &BuildOptions::default()).unwrap_err();
        let seconds = started.elapsed().as_secs_f64();
        let MapError::PatchBudget {
            at, facets, limit, ..
        } = &error
        else {
            panic!("{n} x {n}: {error}");
        };
        // The size header `( n n 0 0 0 )` is on line 7, its first number in column 3.
        assert_eq!((at.line, at.column), (7, 3), "{error}");
        assert_eq!(*limit, cspace_geom::tolerance::MAX_PATCH_FACETS);
        assert!(*facets > *limit, "{error}");
        let message = error.to_string();
        assert!(
            message.starts_with("spiky.map:7:3: patch subdivision needs ")
                && message.contains(&facets.to_string())
                && message.contains(&limit.to_string()),
            "{message}"
        );
        // Refused before the work grows: a fraction of a second (it took 21.5 s and 2.6 GB, or
        // aborted, before).
        assert!(seconds < 5.0, "{n} x {n}: {seconds} s");
    }
}

#[test]
fn patches_within_the_budget_still_load() {
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scenarios/patch_seam.map"
    ))
    .unwrap();
    let loaded = load_world(&text, "patch_seam.map", &BuildOptions::default()).unwrap();
    assert!(loaded.patch_tally.facets > 0);
}
