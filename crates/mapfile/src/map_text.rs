//! Map texts written from code: axial box brushes and entities, in the formats this crate
//! reads (for tests, fixtures and generated worlds).

/// The face fields after the texture name in the Quake format: offsets, rotation, scales.
pub const QUAKE: &str = "0 0 0 1 1";
/// The face fields in the Valve 220 format: two texture axes with offsets, rotation, scales.
pub const VALVE: &str = "[ 1 0 0 0 ] [ 0 -1 0 0 ] 0 1 1";
/// The face fields in the Quake 2 (and legacy Quake III) format: the Quake fields and three flags.
pub const QUAKE2: &str = "0 0 0 1 1 0 0 0";

/// An axial box brush from `min` to `max`, every face with `texture` and `fields`, in the
/// orientation of the corpus files (TrenchBroom's 1-unit offsets).
pub fn box_brush(min: [i32; 3], max: [i32; 3], texture: &str, fields: &str) -> String {
    box_brush_textured(min, max, [texture; 6], fields)
}

/// [`box_brush`] with a texture per face: -X, -Y, -Z, +Z, +Y, +X.
pub fn box_brush_textured(
    min: [i32; 3],
    max: [i32; 3],
    textures: [&str; 6],
    fields: &str,
) -> String {
    let [x0, y0, z0] = min;
    let [x1, y1, z1] = max;
    let faces = [
        format!(
            "( {x0} {y0} {z0} ) ( {x0} {} {z0} ) ( {x0} {y0} {} )",
            y0 + 1,
            z0 + 1
        ),
        format!(
            "( {x0} {y0} {z0} ) ( {x0} {y0} {} ) ( {} {y0} {z0} )",
            z0 + 1,
            x0 + 1
        ),
        format!(
            "( {x0} {y0} {z0} ) ( {} {y0} {z0} ) ( {x0} {} {z0} )",
            x0 + 1,
            y0 + 1
        ),
        format!(
            "( {x1} {y1} {z1} ) ( {x1} {} {z1} ) ( {} {y1} {z1} )",
            y1 + 1,
            x1 + 1
        ),
        format!(
            "( {x1} {y1} {z1} ) ( {} {y1} {z1} ) ( {x1} {y1} {} )",
            x1 + 1,
            z1 + 1
        ),
        format!(
            "( {x1} {y1} {z1} ) ( {x1} {y1} {} ) ( {x1} {} {z1} )",
            z1 + 1,
            y1 + 1
        ),
    ];
    let mut out = String::from("{\n");
    for (face, texture) in faces.iter().zip(textures) {
        out.push_str(&format!("{face} {texture} {fields}\n"));
    }
    out.push_str("}\n");
    out
}

/// An entity with key/value pairs and brush texts.
pub fn entity(pairs: &[(&str, &str)], brushes: &[String]) -> String {
    let mut out = String::from("{\n");
    for (k, v) in pairs {
        out.push_str(&format!("\"{k}\" \"{v}\"\n"));
    }
    for b in brushes {
        out.push_str(b);
    }
    out.push_str("}\n");
    out
}
