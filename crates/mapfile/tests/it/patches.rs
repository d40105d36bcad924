//! Patches into the world: solidity by shader and class, facets after the brushes, bad sizes
//! skipped with their place, and on the corpus: tessellation error, and shared borders without
//! cracks.

use std::collections::{BTreeMap, BTreeSet};

use cspace_geom::patch::{
    ControlGrid, PatchError, PatchTessellation, TessellationOptions, eval_curve, measured_error,
    tessellate,
};
use cspace_geom::tolerance::{PATCH_ERROR, PATCH_WELD};
use cspace_geom::{BrushId, Contents, DVec3};
use cspace_mapfile::{
    BuildOptions, MapFile, NonSolidReason, PatchFate, collidable_patch_grids, load_world,
};

use crate::support::corpus;

/// A patch block: `rows` rows of `columns` control points on a gentle bump, with `shader`.
fn patch(shader: &str, rows: usize, columns: usize, z: f64) -> String {
    let mut text = format!("{{\npatchDef2\n{{\n{shader}\n( {rows} {columns} 0 0 0 )\n(\n");
    for r in 0..rows {
        text.push('(');
        for c in 0..columns {
            let bump = if r % 2 == 1 && c % 2 == 1 { 16.0 } else { 0.0 };
            text.push_str(&format!(" ( {} {} {} 0 0 )", 32 * r, 32 * c, z + bump));
        }
        text.push_str(" )\n");
    }
    text.push_str(")\n}\n}\n");
    text
}

const CUBE: &str = "{\n( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) w 0 0 0 1 1\n( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) w 0 0 0 1 1\n\
                    ( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) w 0 0 0 1 1\n( 64 64 64 ) ( 64 65 64 ) ( 65 64 64 ) w 0 0 0 1 1\n\
                    ( 64 64 64 ) ( 65 64 64 ) ( 64 64 65 ) w 0 0 0 1 1\n( 64 64 64 ) ( 64 64 65 ) ( 64 65 64 ) w 0 0 0 1 1\n}\n";

#[test]
fn solid_patches_become_facets_after_the_brushes() {
    let text = format!(
        "{{\n\"classname\" \"worldspawn\"\n{}{CUBE}{}}}\n",
        patch("textures/base/curve", 3, 5, 100.0),
        patch("common/playerclip", 3, 3, 200.0),
    );
    let map = load_world(&text, "p.map", &BuildOptions::default()).unwrap();
    assert_eq!(map.patches, 2);
    assert_eq!(map.tally.solid, 1);
    // The cube keeps id 0; the facets follow, patch after patch.
    assert!(!map.world.brushes()[0].brush.is_flat());
    let PatchFate::Collidable {
        contents,
        first,
        facets,
        error_bound,
        degenerate_cells,
    } = map.patch_records[0].fate
    else {
        panic!("{}", map.patch_records[0]);
    };
    assert_eq!((contents, first), (Contents::Solid, BrushId(1)));
    assert!(facets >= 2);
    assert!(error_bound <= PATCH_ERROR);
    assert_eq!(degenerate_cells, 0);
    let PatchFate::Collidable {
        contents: clip,
        first: second,
        facets: clip_facets,
        ..
    } = map.patch_records[1].fate
    else {
        panic!("{}", map.patch_records[1]);
    };
    assert_eq!(clip, Contents::Clip);
    assert_eq!(second, BrushId(1 + facets));
    assert_eq!(map.world.len() as u32, 1 + facets + clip_facets);
    for (i, wb) in map.world.brushes().iter().enumerate().skip(1) {
        assert!(wb.brush.is_flat());
        let patch = usize::from(i as u32 >= second.0);
        assert_eq!(wb.source.brush, patch as u32);
        assert_eq!(wb.source.line, map.patch_records[patch].line);
    }
    let facet = &map.world.brushes()[1].source;
    assert_eq!(facet.to_string(), "p.map:3: entity 0 patch 0 facet 0");
    assert_eq!(map.patch_tally.solid, 1);
    assert_eq!(map.patch_tally.clip, 1);
    assert_eq!(map.patch_tally.facets as u32, facets + clip_facets);
    // The facets reach the bump's top: the world's bounds hold them.
    assert!(map.bounds.max.z > 200.0);
    // The world keeps the pieces (one per 3 x 3 net: two, then one) with their facets.
    let pieces = map.world.patch_pieces();
    assert_eq!(pieces.len(), 3);
    assert_eq!(pieces[0].net[0][0], DVec3::new(0.0, 0.0, 100.0));
    assert_eq!(pieces[1].net[0][0], DVec3::new(0.0, 64.0, 100.0));
    assert_eq!(pieces[2].net[2][2], DVec3::new(64.0, 64.0, 200.0));
    for (p, piece) in pieces.iter().enumerate() {
        assert!(piece.error_bound <= error_bound.max(PATCH_ERROR));
        for f in &piece.facets {
            assert_eq!(map.world.facet_piece(f.brush), Some(p));
            assert_eq!(u32::from(f.brush.0 >= second.0), u32::from(p == 2));
        }
    }
    assert_eq!(
        pieces.iter().map(|p| p.facets.len()).sum::<usize>() as u32,
        facets + clip_facets
    );
}

#[test]
fn non_solid_shaders_and_classes_give_no_collision() {
    let text = format!(
        "{{\n\"classname\" \"worldspawn\"\n{}{}{}{}{}}}\n{{\n\"classname\" \"trigger_multiple\"\n{}}}\n",
        patch("common/nodrawnonsolid", 3, 3, 0.0),
        patch("chasm_custom/pk02_snow01_nonsolid", 3, 3, 0.0),
        patch("common/hint", 3, 3, 0.0),
        patch("common/origin", 3, 3, 0.0),
        patch("*water", 3, 3, 0.0),
        patch("textures/base/curve", 3, 3, 0.0),
    );
    let map = load_world(&text, "n.map", &BuildOptions::default()).unwrap();
    assert!(map.world.is_empty());
    let fates: Vec<String> = map
        .patch_records
        .iter()
        .map(|r| r.fate.to_string())
        .collect();
    assert_eq!(
        fates,
        [
            "non-solid shader",
            "non-solid shader",
            "marker shader, dropped",
            "origin shader, dropped",
            "liquid",
            "non-solid entity"
        ]
    );
    assert_eq!(
        map.patch_records[5].fate,
        PatchFate::NonSolid(NonSolidReason::EntityClass)
    );
    assert_eq!(map.patch_tally.non_solid, 4);
    assert_eq!(map.patch_tally.dropped, 2);
    assert_eq!(map.patch_tally.facets, 0);
}

#[test]
fn patches_of_a_bad_size_are_skipped_with_their_place() {
    let text = format!(
        "{{\n\"classname\" \"worldspawn\"\n{}{}{}}}\n",
        patch("a", 2, 3, 0.0),
        patch("b", 1, 1, 0.0),
        patch("c", 3, 3, 0.0),
    );
    let map = load_world(&text, "bad.map", &BuildOptions::default()).unwrap();
    let invalid: Vec<String> = map.invalid_patches().map(|r| r.to_string()).collect();
    assert_eq!(
        invalid,
        [
            "bad.map:7:3: entity 0 patch 0 (a, 2 x 3): invalid, skipped: patch is 2 x 3 control \
             points; both sides must be odd and at least 3 (biquadratic pieces share their border \
             rows)",
            "bad.map:18:3: entity 0 patch 1 (b, 1 x 1): invalid, skipped: patch is 1 x 1 control \
             points; both sides must be odd and at least 3 (biquadratic pieces share their border \
             rows)"
        ]
    );
    assert!(matches!(
        map.patch_records[0].fate,
        PatchFate::Invalid {
            error: PatchError::Size {
                rows: 2,
                columns: 3
            },
            ..
        }
    ));
    // The good patch still collides.
    assert_eq!(map.patch_tally.invalid, 2);
    assert_eq!(map.patch_tally.solid, 1);
    assert!(!map.world.is_empty());
}

#[test]
fn the_error_bound_is_an_option() {
    let text = format!(
        "{{\n\"classname\" \"worldspawn\"\n{}}}\n",
        patch("x", 5, 5, 0.0)
    );
    let facets = |bound: f64| {
        let options = BuildOptions {
            tessellation: TessellationOptions::new(bound).unwrap(),
            ..BuildOptions::default()
        };
        load_world(&text, "o.map", &options).unwrap().patch_tally
    };
    let (coarse, fine) = (facets(8.0), facets(0.05));
    assert!(fine.facets > 4 * coarse.facets, "{coarse:?} {fine:?}");
    assert!(fine.error_bound <= 0.05);
}

/// The collidable patches of a corpus map, in file order (what `build_world` tessellates).
fn collidable_grids(text: &[u8], name: &str) -> Vec<ControlGrid> {
    let map = MapFile::parse(text, name).unwrap();
    collidable_patch_grids(
        &map,
        &cspace_mapfile::build_world(&map, &BuildOptions::default()).unwrap(),
    )
}

/// Vertices by the bits of their coordinates.
type Vertices = BTreeSet<[u64; 3]>;

/// The border curves of every piece on a patch's outer border, by the bits of their control
/// points in a canonical direction, with the vertices of the patch's facets that lie on them
/// (bit for bit at the cell's ends: the curve evaluated at those parameters).
fn border_vertices(
    grid: &ControlGrid,
    tessellation: &PatchTessellation,
) -> BTreeMap<[u64; 9], Vertices> {
    let bits = |v: DVec3| v.to_array().map(f64::to_bits);
    let key = |c: [DVec3; 3]| {
        let (a, b) = (bits(c[0]), bits(c[2]));
        let c = if b < a { [c[2], c[1], c[0]] } else { c };
        let mut k = [0u64; 9];
        for (i, v) in c.iter().enumerate() {
            k[3 * i..3 * i + 3].copy_from_slice(&bits(*v));
        }
        k
    };
    let [pr, pc] = grid.pieces();
    let mut out: BTreeMap<[u64; 9], Vertices> = BTreeMap::new();
    for facet in &tessellation.facets {
        let [i, j] = facet.piece.map(|x| x as usize);
        let [[s0, s1], [t0, t1]] = facet.cell;
        let mut sides: Vec<([DVec3; 3], [f64; 2])> = Vec::new();
        if i == 0 && s0 == 0.0 {
            sides.push(([0, 1, 2].map(|k| grid.point(0, 2 * j + k)), [t0, t1]));
        }
        if i + 1 == pr && s1 == 1.0 {
            sides.push((
                [0, 1, 2].map(|k| grid.point(grid.rows() - 1, 2 * j + k)),
                [t0, t1],
            ));
        }
        if j == 0 && t0 == 0.0 {
            sides.push(([0, 1, 2].map(|k| grid.point(2 * i + k, 0)), [s0, s1]));
        }
        if j + 1 == pc && t1 == 1.0 {
            sides.push((
                [0, 1, 2].map(|k| grid.point(2 * i + k, grid.columns() - 1)),
                [s0, s1],
            ));
        }
        for (curve, ends) in sides {
            if curve[0] == curve[1] && curve[1] == curve[2] {
                continue;
            }
            let entry = out.entry(key(curve)).or_default();
            for at in ends {
                let p = eval_curve(curve, at);
                if facet.vertices.contains(&p) {
                    entry.insert(bits(p));
                }
            }
        }
    }
    out
}

#[test]
fn chasm_patches_collide_within_the_bound_and_share_their_borders() {
    let Some(corpus) = corpus("chasm_patches_collide_within_the_bound_and_share_their_borders")
    else {
        return;
    };
    let name = "unvanquished_chasm.map";
    let text = corpus.read(name);
    let map = load_world(&text, name, &BuildOptions::default()).unwrap();
    let tally = map.patch_tally;
    assert_eq!((tally.total, tally.solid, tally.non_solid), (267, 266, 1));
    assert_eq!(tally.invalid + tally.clip + tally.dropped, 0);
    assert_eq!(
        map.world.len(),
        map.tally.solid + map.tally.clip + tally.facets
    );
    assert!(tally.error_bound <= PATCH_ERROR + PATCH_WELD);

    // The world's facets are the tessellation of the collidable patches, in order.
    let grids = collidable_grids(&text, name);
    let started = std::time::Instant::now();
    let tessellations = tessellate(&grids, &TessellationOptions::default()).unwrap();
    let seconds = started.elapsed().as_secs_f64();
    let facets: Vec<&Vec<DVec3>> = tessellations
        .iter()
        .flat_map(|t| t.facets.iter().map(|f| &f.vertices))
        .collect();
    assert_eq!(facets.len(), tally.facets);
    let first = map.tally.solid + map.tally.clip;
    for (k, vertices) in facets.iter().enumerate() {
        let polygon = map.world.brushes()[first + k].brush.flat_polygon().unwrap();
        for v in vertices.iter() {
            assert!(polygon.vertices.contains(v) || polygon.closest_point(*v).distance(*v) < 1e-6);
        }
    }

    // The measured error (surface to facets) stays within the bound.
    let measured = grids
        .iter()
        .zip(&tessellations)
        .map(|(g, t)| measured_error(g, t, 6))
        .fold(0.0, f64::max);
    assert!(
        measured <= tally.error_bound,
        "{measured} > {}",
        tally.error_bound
    );

    // Borders shared by two patches carry the same vertices in both (no cracks, no
    // T-junctions). The curves are compared after the tessellation's weld of float rounding.
    let mut by_curve: BTreeMap<[u64; 9], Vec<(usize, Vertices)>> = BTreeMap::new();
    for (p, t) in tessellations.iter().enumerate() {
        // The border of the welded grid: the facets' vertices come from it.
        let welded = welded_grid(&grids, p);
        for (curve, vertices) in border_vertices(&welded, t) {
            by_curve.entry(curve).or_default().push((p, vertices));
        }
    }
    let mut shared = 0;
    for sharing in by_curve.values() {
        for pair in sharing.windows(2) {
            if pair[0].0 == pair[1].0 {
                continue;
            }
            shared += 1;
            assert!(pair[0].1.len() >= 2);
            assert_eq!(
                pair[0].1, pair[1].1,
                "patches {} and {} differ on their shared border",
                pair[0].0, pair[1].0
            );
        }
    }
    eprintln!(
        "{name}: {} facets within {:.3} units (measured {measured:.3}); {shared} shared border \
         curves; tessellated in {:.1} ms",
        tally.facets,
        tally.error_bound,
        seconds * 1e3
    );
    assert!(shared >= 400, "{shared}");
}

/// Patch `p` of `grids` with the control points the tessellation welds (the first point within
/// `PATCH_WELD`, in patch order, wins), as `tessellate` sees it.
fn welded_grid(grids: &[ControlGrid], p: usize) -> ControlGrid {
    let earlier: Vec<DVec3> = grids[..p]
        .iter()
        .flat_map(|g| g.points().iter().copied())
        .collect();
    let mut mine: Vec<DVec3> = Vec::new();
    let points = grids[p]
        .points()
        .iter()
        .map(|&q| {
            let found = earlier
                .iter()
                .chain(mine.iter())
                .find(|e| e.distance(q) <= PATCH_WELD)
                .copied();
            let kept = found.unwrap_or(q);
            if found.is_none() {
                mine.push(q);
            }
            kept
        })
        .collect();
    ControlGrid::new(grids[p].rows(), grids[p].columns(), points).unwrap()
}

#[test]
fn nav_maze_decals_are_flat_facets_without_error() {
    let Some(corpus) = corpus("nav_maze_decals_are_flat_facets_without_error") else {
        return;
    };
    let name = "dmlab_nav_maze_static_01.map";
    let map = load_world(corpus.read(name), name, &BuildOptions::default()).unwrap();
    assert_eq!(map.patch_tally.solid, 14);
    assert_eq!(map.patch_tally.facets, 14);
    assert_eq!(map.patch_tally.error_bound, 0.0);
}
