//! Every corpus map loads, and its counts equal the table of `shared/maps/SOURCES.md`.

use cspace_geom::Plane;
use cspace_mapfile::{BuildOptions, FaceFormat, MapFile, MapWorld, build_world};

use crate::support::corpus;

/// One row of the SOURCES.md table ("Files").
struct Expected {
    file: &'static str,
    format: FaceFormat,
    /// Brushes: total / in worldspawn / axial.
    brushes: [usize; 3],
    patches: usize,
    entities: usize,
    /// Faces: total, and the largest count of any one brush.
    faces: [usize; 2],
    /// `info_player_start` entities, where SOURCES.md ("Spawn points") gives the number.
    player_starts: Option<usize>,
}

const fn row(
    file: &'static str,
    format: FaceFormat,
    brushes: [usize; 3],
    patches: usize,
    entities: usize,
    faces: [usize; 2],
    player_starts: Option<usize>,
) -> Expected {
    Expected {
        file,
        format,
        brushes,
        patches,
        entities,
        faces,
        player_starts,
    }
}

use FaceFormat::{Quake, Quake2, Valve220};

/// The SOURCES.md table. Quake 3 legacy brushes have the Quake 2 face syntax.
#[rustfmt::skip]
const TABLE: [Expected; 17] = [
    //  file                              format    total world axial patches ents   faces  max   starts
    row("ericw_q1_cube.map",              Valve220, [1, 1, 1],          0,    2, [6, 6],      Some(1)),
    row("ericw_q1_csg.map",               Quake,    [2, 2, 2],          0,    1, [12, 6],     Some(0)),
    row("ericw_q1_hull_expansion.map",    Valve220, [7, 6, 6],          0,    3, [41, 6],     Some(1)),
    row("ericw_qbsp_angled_brush.map",    Valve220, [7, 7, 6],          0,    3, [42, 6],     Some(1)),
    row("ericw_qbsp_many_sided_face.map", Valve220, [1, 1, 0],          0,    1, [362, 362],  Some(0)),
    row("ericw_q2_seal_empty_rooms.map",  Quake2,   [12, 12, 12],       0,    2, [72, 6],     Some(1)),
    row("ericw_q1_rocks.map",             Valve220, [18, 6, 6],         0,    3, [84, 6],     Some(1)),
    row("dmlab_em_tmaze_a1.map",          Quake2,   [18, 18, 18],       0,   11, [108, 6],    Some(1)),
    row("ericw_qbspfeatures.map",         Valve220, [71, 37, 53],       0,   29, [426, 6],    Some(1)),
    row("dmlab_nav_maze_static_01.map",   Quake2,   [196, 196, 196],   14,   75, [1176, 6],   Some(43)),
    row("ericw_q1_mountain.map",          Valve220, [393, 5, 5],        0,    3, [1586, 6],   Some(1)),
    row("quake_dm4.map",                  Quake,    [708, 702, 612],    0,  135, [4232, 7],   None),
    row("ericw_retrojam1_ericw.map",      Quake,    [891, 136, 455],    0,  351, [5075, 8],   Some(1)),
    row("quake_e1m1.map",                 Quake,    [1257, 1163, 921],  0,  369, [7523, 10],  None),
    row("quake_e3m5.map",                 Quake,    [2012, 1934, 954],  0,  695, [12004, 10], None),
    row("librequake_e3m4.map",            Valve220, [3441, 4, 1119],    0, 1301, [22180, 31], None),
    row("unvanquished_chasm.map",         Quake2,   [3724, 1120, 1022], 267, 569, [23580, 22], None),
];

/// True when every face normal of the brush is a coordinate axis (within rounding: the
/// TrenchBroom maps have non-integer plane points).
fn is_axial(brush: &cspace_mapfile::MapBrush) -> bool {
    brush.faces.iter().all(|f| {
        let [a, b, c] = f.points;
        Plane::from_map_points(a, b, c).is_ok_and(|p| {
            let n = p.normal().abs();
            n.max_element() > 1.0 - 1e-9 && n.element_sum() < 1.0 + 1e-9
        })
    })
}

fn spawn_count(loaded: &MapWorld, class: &str) -> usize {
    loaded
        .spawn_points
        .iter()
        .filter(|s| s.classname == class)
        .count()
}

#[test]
fn every_corpus_map_loads_with_the_counts_of_sources_md() {
    let Some(corpus) = corpus("every_corpus_map_loads_with_the_counts_of_sources_md") else {
        return;
    };
    for expected in &TABLE {
        let name = expected.file;
        let map = MapFile::parse(corpus.read(name), name).unwrap_or_else(|e| panic!("{e}"));

        let world_brushes = map.entities[0].brushes.len();
        let axial = map
            .entities
            .iter()
            .flat_map(|e| &e.brushes)
            .filter(|b| is_axial(b))
            .count();
        assert_eq!(map.entities[0].classname(), Some("worldspawn"), "{name}");
        assert_eq!(
            [map.brush_count(), world_brushes, axial],
            expected.brushes,
            "{name}: brushes (total / in worldspawn / axial)"
        );
        assert_eq!(map.patch_count(), expected.patches, "{name}: patches");
        assert_eq!(map.entities.len(), expected.entities, "{name}: entities");
        let max_faces = map
            .entities
            .iter()
            .flat_map(|e| &e.brushes)
            .map(|b| b.faces.len())
            .max()
            .unwrap_or(0);
        assert_eq!(
            [map.face_count(), max_faces],
            expected.faces,
            "{name}: faces (total, max per brush)"
        );
        assert_eq!(map.formats(), [expected.format], "{name}: formats");

        let loaded = build_world(&map, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let t = &loaded.tally;
        eprintln!(
            "{name}: {} brushes: {} solid, {} clip, {} non-solid ({} by class, {} unknown class, \
             {} liquid, {} by texture), {} dropped ({} skip/hint, {} origin), {} invalid; \
             {} mixed; planes dropped {} duplicate {} redundant; {} patches; {} spawn points; \
             unknown classes {:?}",
            t.total,
            t.solid,
            t.clip,
            t.non_solid(),
            t.non_solid_class,
            t.unknown_class,
            t.liquid,
            t.non_solid_texture,
            t.dropped(),
            t.marker,
            t.origin,
            t.invalid,
            t.mixed_contents,
            loaded.dropped_planes.duplicate,
            loaded.dropped_planes.redundant,
            loaded.patches,
            loaded.spawn_points.len(),
            loaded
                .unknown_classes
                .iter()
                .map(|c| (&c.classname, c.brushes))
                .collect::<Vec<_>>(),
        );
        assert_eq!(t.total, expected.brushes[0], "{name}");
        // The world holds the solid and clip brushes, then the facets of the patches.
        assert_eq!(
            loaded.world.len(),
            t.solid + t.clip + loaded.patch_tally.facets,
            "{name}"
        );
        assert_eq!(loaded.patch_tally.total, expected.patches, "{name}");
        assert_eq!(loaded.invalid_patches().count(), 0, "{name}");
        // SOURCES.md: every brush bounds a volume, with no degenerate, duplicate or redundant
        // plane.
        let invalid: Vec<String> = loaded.invalid_brushes().map(|b| b.to_string()).collect();
        assert!(invalid.is_empty(), "{name}: {invalid:#?}");
        assert_eq!(loaded.dropped_planes.duplicate, 0, "{name}");
        assert_eq!(loaded.dropped_planes.redundant, 0, "{name}");
        assert!(loaded.warnings.is_empty(), "{name}: {:?}", loaded.warnings);
        assert!(!loaded.bounds.is_empty(), "{name}");

        if let Some(starts) = expected.player_starts {
            assert_eq!(
                spawn_count(&loaded, "info_player_start"),
                starts,
                "{name}: info_player_start"
            );
        }
        // SOURCES.md: Quake and LibreQuake maps also have deathmatch starts; Unvanquished uses
        // team spawns.
        if name.starts_with("quake_") || name.starts_with("librequake_") {
            assert!(spawn_count(&loaded, "info_player_deathmatch") > 0, "{name}");
        }
        if name.starts_with("unvanquished_") {
            assert!(
                spawn_count(&loaded, "team_human_spawn") + spawn_count(&loaded, "team_alien_spawn")
                    > 0,
                "{name}"
            );
        }
    }
}
