//! Regression (issue 36, item 3): a brush with 20,000 faces took 27.8 s in `sim map` (building
//! a brush clips a polygon on each of its planes by every other, about the square of its faces;
//! the 2,000-face form of the disc below took 2.4 s, the 5,000-face form 21 s in the dev
//! profile). A brush written with more than `MAX_BRUSH_FACES` (1,024) faces is now refused
//! before it is built, with its place, as an invalid brush the map loads without.

use std::time::Instant;

use cspace_geom::BrushError;
use cspace_geom::tolerance::MAX_BRUSH_FACES;
use cspace_mapfile::{BrushFate, BuildOptions, load_world};

/// A disc of `sides` faces around the z axis, 64 units tall, and a box beside it.
fn disc_map(sides: usize) -> String {
    let mut faces = Vec::new();
    for k in 0..sides {
        let a = std::f64::consts::TAU * k as f64 / sides as f64;
        let (c, s) = (a.cos() * 4096.0, a.sin() * 4096.0);
        let (tx, ty) = (-a.sin() * 64.0, a.cos() * 64.0);
        faces.push(format!(
            "( {c} {s} 0 ) ( {c} {s} 64 ) ( {} {} 0 ) t 0 0 0 1 1",
            c + tx,
            s + ty
        ));
    }
    faces.push("( 0 0 64 ) ( 0 64 64 ) ( 64 0 64 ) t 0 0 0 1 1".into());
    faces.push("( 0 0 0 ) ( 64 0 0 ) ( 0 64 0 ) t 0 0 0 1 1".into());
    format!(
        "{{\n\"classname\" \"worldspawn\"\n{{\n{}\n}}\n{{\n\
         ( 5000 0 0 ) ( 5000 1 0 ) ( 5000 0 1 ) t 0 0 0 1 1\n\
         ( 5000 0 0 ) ( 5000 0 1 ) ( 5001 0 0 ) t 0 0 0 1 1\n\
         ( 5000 0 0 ) ( 5001 0 0 ) ( 5000 1 0 ) t 0 0 0 1 1\n\
         ( 5064 64 64 ) ( 5064 65 64 ) ( 5065 64 64 ) t 0 0 0 1 1\n\
         ( 5064 64 64 ) ( 5065 64 64 ) ( 5064 64 65 ) t 0 0 0 1 1\n\
         ( 5064 64 64 ) ( 5064 64 65 ) ( 5064 65 64 ) t 0 0 0 1 1\n}}\n}}\n",
        faces.join("\n")
    )
}

#[test]
fn a_brush_of_20000_faces_is_refused_at_once_and_the_map_loads_without_it() {
    let text = disc_map(19_998);
    let started = Instant::now();
    let loaded = load_world(&text, "disc.map", &BuildOptions::default()).unwrap();
    let seconds = started.elapsed().as_secs_f64();
    match &loaded.brushes[0].fate {
        BrushFate::Invalid {
            error: BrushError::TooManyFaces { count, limit },
            line,
        } => {
            assert_eq!((*count, *limit, *line), (20_000, MAX_BRUSH_FACES, 3));
        }
        other => panic!("{other:?}"),
    }
    assert!(
        loaded.brushes[0]
            .to_string()
            .contains("brush has 20000 faces; at most 1024"),
        "{}",
        loaded.brushes[0]
    );
    // The other brush is in the world.
    assert_eq!(loaded.world.len(), 1);
    // Refused before it is built (it took 27.8 s).
    assert!(seconds < 5.0, "{seconds} s");
}

#[test]
fn a_brush_at_the_face_limit_is_built() {
    let loaded = load_world(
        disc_map(MAX_BRUSH_FACES - 2),
        "disc.map",
        &BuildOptions::default(),
    )
    .unwrap();
    assert_eq!(loaded.world.len(), 2, "{}", loaded.brushes[0]);
    assert_eq!(
        loaded.world.brushes()[0].brush.face_count(),
        MAX_BRUSH_FACES
    );
}
