//! A brush that is not a valid convex volume is reported with its source and skipped; the rest of
//! the map still loads.

use cspace_geom::{BrushError, BrushId, PlaneError};
use cspace_mapfile::{BrushFate, BuildOptions, load_world};

/// The six faces of the box `[0, 64]^3` shifted by `dx` along x, Quake standard.
fn box_faces(dx: i32) -> [String; 6] {
    let (x0, x1) = (dx, dx + 64);
    [
        format!("( {x0} 0 0 ) ( {x0} 1 0 ) ( {x0} 0 1 ) A 0 0 0 1 1"),
        format!("( {x0} 0 0 ) ( {x0} 0 1 ) ( {} 0 0 ) A 0 0 0 1 1", x0 + 1),
        format!("( {x0} 0 0 ) ( {} 0 0 ) ( {x0} 1 0 ) A 0 0 0 1 1", x0 + 1),
        format!(
            "( {x1} 64 64 ) ( {x1} 65 64 ) ( {} 64 64 ) A 0 0 0 1 1",
            x1 + 1
        ),
        format!(
            "( {x1} 64 64 ) ( {} 64 64 ) ( {x1} 64 65 ) A 0 0 0 1 1",
            x1 + 1
        ),
        format!("( {x1} 64 64 ) ( {x1} 64 65 ) ( {x1} 65 64 ) A 0 0 0 1 1"),
    ]
}

fn brush(faces: &[String]) -> String {
    format!("{{\n{}\n}}\n", faces.join("\n"))
}

#[test]
fn invalid_brushes_are_reported_with_their_source_and_skipped() {
    let good = box_faces(0);
    // Open: the +X face is missing.
    let open = &box_faces(100)[..5];
    // A face whose three points are collinear.
    let mut collinear = box_faces(200);
    collinear[3] = "( 0 0 64 ) ( 1 1 64 ) ( 2 2 64 ) A 0 0 0 1 1".to_owned();
    // Empty: the -X face is moved beyond the +X face.
    let mut empty = box_faces(300);
    empty[0] = "( 400 0 0 ) ( 400 1 0 ) ( 400 0 1 ) A 0 0 0 1 1".to_owned();
    let text = format!(
        "{{\n\"classname\" \"worldspawn\"\n{}{}{}{}{}{{\n}}\n}}\n{{\n\"classname\" \"func_door\"\n{}}}\n",
        brush(&good),
        brush(open),
        brush(&collinear),
        brush(&empty),
        brush(&box_faces(500)),
        brush(&box_faces(600)),
    );
    let loaded = load_world(&text, "bad_brushes.map", &BuildOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));

    // The valid brushes load, with consecutive ids and their own sources.
    let fates: Vec<&BrushFate> = loaded.brushes.iter().map(|b| &b.fate).collect();
    assert_eq!(loaded.world.len(), 3);
    assert_eq!(loaded.tally.invalid, 4);
    assert_eq!(*fates[0], BrushFate::Solid(BrushId(0)));
    assert_eq!(*fates[4], BrushFate::Solid(BrushId(1)));
    assert_eq!(*fates[6], BrushFate::Solid(BrushId(2)));
    let world_sources: Vec<String> = loaded
        .world
        .brushes()
        .iter()
        .map(|b| b.source.to_string())
        .collect();
    assert_eq!(
        world_sources,
        [
            "bad_brushes.map:3: entity 0 brush 0",
            "bad_brushes.map:34: entity 0 brush 4",
            "bad_brushes.map:47: entity 1 brush 0"
        ]
    );

    // The invalid ones are reported: source, error, and the faulty face's line when there is one.
    assert!(matches!(
        fates[1],
        BrushFate::Invalid {
            error: BrushError::Unbounded,
            line: 11
        }
    ));
    assert!(matches!(
        fates[2],
        BrushFate::Invalid {
            error: BrushError::DegeneratePlane {
                face: 3,
                error: PlaneError::CollinearPoints
            },
            line: 22
        }
    ));
    assert!(matches!(
        fates[3],
        BrushFate::Invalid {
            error: BrushError::Empty,
            line: 26
        }
    ));
    assert!(matches!(
        fates[5],
        BrushFate::Invalid {
            error: BrushError::TooFewFaces { count: 0 },
            line: 42
        }
    ));
    let reports: Vec<String> = loaded.invalid_brushes().map(|b| b.to_string()).collect();
    assert_eq!(
        reports,
        [
            "bad_brushes.map:11: entity 0 brush 1: invalid, skipped: brush is open: its planes do \
             not enclose a bounded region",
            "bad_brushes.map:22: entity 0 brush 2: invalid, skipped: face 3: the plane's three \
             points are collinear or coincide",
            "bad_brushes.map:26: entity 0 brush 3: invalid, skipped: brush is empty: its planes \
             enclose no volume",
            "bad_brushes.map:42: entity 0 brush 5: invalid, skipped: brush has 0 faces; a closed \
             brush needs at least 4",
        ]
    );
    assert_eq!(loaded.entities[0].brushes.invalid, 4);
    assert_eq!(loaded.entities[1].brushes.solid, 1);
    assert_eq!(loaded.bounds.max.x, 664.0);
}

#[test]
fn a_brush_of_non_solid_entity_is_not_validated() {
    // Only brushes that enter the world are built; a broken trigger cannot hurt collision.
    let open = &box_faces(0)[..5];
    let text = format!(
        "{{\n\"classname\" \"worldspawn\"\n}}\n{{\n\"classname\" \"trigger_once\"\n{}}}\n",
        brush(open)
    );
    let loaded = load_world(&text, "t.map", &BuildOptions::default()).unwrap();
    assert_eq!((loaded.tally.invalid, loaded.tally.non_solid_class), (0, 1));
}

#[test]
fn a_face_whose_points_overflow_is_a_degenerate_plane() {
    // Finite coordinates whose difference overflows f64: the plane cannot be computed.
    let mut faces = box_faces(0);
    faces[0] = "( -1.7e308 0 0 ) ( 1.7e308 0 0 ) ( 0 0 1 ) A 0 0 0 1 1".to_owned();
    let text = format!(
        "{{\n\"classname\" \"worldspawn\"\n{}{}}}\n",
        brush(&faces),
        brush(&box_faces(100))
    );
    let loaded = load_world(&text, "t.map", &BuildOptions::default()).unwrap();
    assert!(matches!(
        loaded.brushes[0].fate,
        BrushFate::Invalid {
            error: BrushError::DegeneratePlane {
                face: 0,
                error: PlaneError::NonFinite
            },
            line: 4
        }
    ));
    assert_eq!(loaded.world.len(), 1);
    assert!(loaded.bounds.min.is_finite() && loaded.bounds.max.is_finite());
}
