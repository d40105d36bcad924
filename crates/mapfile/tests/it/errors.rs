//! Every syntax error path, with its full message: file, line, column and what was found.

use cspace_mapfile::{MapError, MapFile};

fn error(text: &str) -> String {
    match MapFile::parse(text, "e.map") {
        Ok(map) => panic!("expected an error, parsed {} entities", map.entities.len()),
        Err(e) => e.to_string(),
    }
}

const WORLD: &str = "{\n\"classname\" \"worldspawn\"\n";
const FACE: &str = "( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) tex 0 0 0 1 1\n";

/// A worldspawn with one brush, closed, in the layout of DeepMind Lab's `em_tmaze_a1.map`
/// (`// entity N` and `// brush N` comments).
fn worldspawn_with_a_brush() -> String {
    format!(
        "// entity 0\n{WORLD}// brush 0\n{{\n{}}}\n}}\n",
        FACE.repeat(6)
    )
}

#[test]
fn an_entity_missing_its_opening_brace_after_a_closed_entity() {
    // The defect of DeepMind Lab's nav_maze_random_goal_02.map: an entity whose `{` is missing
    // follows a complete one, so its first key stands where an entity must open.
    let text = format!(
        "{}// entity 1\n\"classname\" \"info_player_start\"\n\"origin\" \"100 150 30\"\n}}\n\
         // entity 2\n{{\n\"classname\" \"apple_reward\"\n}}\n",
        worldspawn_with_a_brush()
    );
    assert_eq!(
        error(&text),
        "e.map:15:1: expected '{' to open an entity, found \"classname\""
    );
}

#[test]
fn an_indented_entity_missing_its_opening_brace_among_many() {
    // The same defect in the indented layout of nav_maze_static_01.map (its sibling
    // nav_maze_random_goal_03.map has it too), on an entity that starts with another key.
    let mut text = String::from("{\n  \"classname\" \"worldspawn\"\n}\n");
    for i in 0..3 {
        text.push_str(&format!(
            "{{\n  \"classname\" \"info_player_start\"\n  \"origin\" \"{} 50 30\"\n}}\n",
            50 + 100 * i
        ));
    }
    text.push_str("  \"origin\" \"450 50 30\"\n  \"classname\" \"goal\"\n}\n");
    text.push_str("{\n  \"classname\" \"info_player_start\"\n  \"origin\" \"550 50 30\"\n}\n");
    assert_eq!(
        error(&text),
        "e.map:16:3: expected '{' to open an entity, found \"origin\""
    );
}

#[test]
fn unterminated_quote() {
    assert_eq!(
        error("{\n\"classname\" \"worldspawn\n}\n"),
        "e.map:2:13: unterminated quoted string \"worldspawn: no closing '\"' before the end of the line"
    );
    assert_eq!(
        error("{\n\"message\" \"no end"),
        "e.map:2:11: unterminated quoted string \"no end: no closing '\"' before the end of the line"
    );
}

#[test]
fn missing_braces() {
    assert_eq!(
        error(WORLD),
        "e.map:3:1: unexpected end of file: expected a quoted key, '{' to open a brush or '}' to \
         close the entity; the entity opened at line 1 is not closed"
    );
    assert_eq!(
        error("}\n"),
        "e.map:1:1: expected '{' to open an entity, found '}'"
    );
    assert_eq!(
        error("{\nclassname worldspawn\n}\n"),
        "e.map:2:1: expected a quoted key, '{' to open a brush or '}' to close the entity, found \
         'classname'"
    );
    assert_eq!(
        error("{\n\"classname\"\n}\n"),
        "e.map:3:1: expected a quoted value for key \"classname\", found '}'"
    );
    // A brush missing its closing brace runs into the next brush.
    assert_eq!(
        error(&format!("{WORLD}{{\n{FACE}{{\n{FACE}}}\n}}\n")),
        "e.map:5:1: expected '(' to start a face or '}' to close the brush, found '{'"
    );
}

#[test]
fn end_of_file_inside_a_brush() {
    assert_eq!(
        error(&format!("{WORLD}{{\n{FACE}")),
        "e.map:5:1: unexpected end of file: expected '(' to start a face or '}' to close the \
         brush; the brush opened at line 3 is not closed"
    );
    assert_eq!(
        error(&format!("{WORLD}{{\n( 0 0 0 ) ( 0 1")),
        "e.map:4:16: unexpected end of file: expected the z coordinate of a plane point; the \
         brush opened at line 3 is not closed"
    );
    assert_eq!(
        error(&format!("{WORLD}{{\n( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 )")),
        "e.map:4:30: unexpected end of file: expected a texture name after the three points of \
         the face; the brush opened at line 3 is not closed"
    );
}

#[test]
fn unsupported_formats_are_refused_by_name() {
    assert_eq!(
        error(&format!(
            "{WORLD}{{\nbrushDef\n{{\n( ( 0.0078125 0 0 ) ( 0 0.0078125 0 ) ) common/caulk 0 0 0\n}}\n}}\n}}\n"
        )),
        "e.map:4:1: 'brushDef' (Quake III brush primitives) is not supported; convert the map to \
         Quake standard, Valve 220 or Quake 3 legacy brushes"
    );
    assert_eq!(
        error(&format!(
            "{WORLD}{{\n  brushDef3\n  {{\n   ( 0 0 -1 0 ) ( ( 0.0078125 0 0 ) ( 0 0.0078125 0 ) ) \"textures/x\" 0 0 0\n  }}\n}}\n}}\n"
        )),
        "e.map:4:3: 'brushDef3' (a Doom 3 brush) is not supported; convert the map to Quake \
         standard, Valve 220 or Quake 3 legacy brushes"
    );
    assert_eq!(
        error(&format!("{WORLD}{{\npatchDef3\n{{\n")),
        "e.map:4:1: 'patchDef3' (a Doom 3 patch) is not supported; convert the map to Quake \
         standard, Valve 220 or Quake 3 legacy brushes"
    );
    assert_eq!(
        error("Version 2\n// entity 0\n{\n}\n"),
        "e.map:1:1: 'Version' (a Doom 3 / Quake 4 map) is not supported; convert the map to \
         Quake standard, Valve 220 or Quake 3 legacy brushes"
    );
}

#[test]
fn bad_and_non_finite_numbers() {
    let face = |line: &str| error(&format!("{WORLD}{{\n{line}\n}}\n}}\n"));
    assert_eq!(
        face("( 0 0 x ) ( 0 1 0 ) ( 0 0 1 ) tex 0 0 0 1 1"),
        "e.map:4:7: expected the z coordinate of a plane point, found 'x', which is not a number"
    );
    assert_eq!(
        face("( 0 0 0 ) ( 0 nan 0 ) ( 0 0 1 ) tex 0 0 0 1 1"),
        "e.map:4:15: 'nan' is not a finite number"
    );
    assert_eq!(
        face("( 0 0 0 ) ( 0 1 0 ) ( -inf 0 1 ) tex 0 0 0 1 1"),
        "e.map:4:23: '-inf' is not a finite number"
    );
    assert_eq!(
        face("( 0 0 0 ) ( 0 1 0 ) ( 0 0 1e999 ) tex 0 0 0 1 1"),
        "e.map:4:27: '1e999' is not a finite number"
    );
    assert_eq!(
        face("( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) tex 0 0 0 1 NaN"),
        "e.map:4:43: 'NaN' is not a finite number"
    );
    assert_eq!(
        face("( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) tex [ 1 0 0 0 ] [ 0 1 0 0 ] 0 1,5 1"),
        "e.map:4:61: expected the texture's x scale, found '1,5', which is not a number"
    );
    assert_eq!(
        face("( 0 0 0 ) ( 0 1 0 ) ( 0 0 \"1\" ) tex 0 0 0 1 1"),
        "e.map:4:27: expected the z coordinate of a plane point, found \"1\", which is not a number"
    );
}

#[test]
fn malformed_faces() {
    let face = |line: &str| error(&format!("{WORLD}{{\n{line}\n}}\n}}\n"));
    assert_eq!(
        face("( 0 0 0 ) ( 0 1 0 ) tex 0 0 0 1 1"),
        "e.map:4:21: expected '(' to start the third point of the face, found 'tex'"
    );
    assert_eq!(
        face("( 0 0 1 -64 ) ( 0 1 0 ) ( 0 0 1 ) tex 0 0 0 1 1"),
        "e.map:4:9: expected ')' to close a plane point, found '-64'"
    );
    assert_eq!(
        face("( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 )\n( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) tex 0 0 0 1 1"),
        "e.map:5:1: expected a texture name after the three points of the face, found '('"
    );
    assert_eq!(
        face("( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) tex 0 0 0 1"),
        "e.map:4:35: face has 4 fields after texture 'tex'; expected 5 (Quake: xoff yoff rot \
         xscale yscale), 8 (Quake 2 / Quake 3: the same and contents flags value) or a Valve 220 \
         projection ([ ux uy uz uoff ] [ vx vy vz voff ] rot xscale yscale)"
    );
    assert!(
        face("( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) tex")
            .starts_with("e.map:4:31: face has 0 fields after texture 'tex';")
    );
    assert!(
        face("( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) tex [ 1 0 0 0 ] [ 0 1 0 0 ] 0 1")
            .starts_with("e.map:4:35: face has 14 fields after texture 'tex';")
    );
    assert_eq!(
        face("( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) tex [ 1 0 0 0 0 [ 0 1 0 0 ] 0 1 1"),
        "e.map:4:45: expected ']' to close the texture's u axis, found '0'"
    );
    assert_eq!(
        face("( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) tex 0 0 0 1 1 0.5 0 0"),
        "e.map:4:45: expected the contents flags (a 32-bit integer), found '0.5'"
    );
    assert_eq!(
        face("( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) tex 0 0 0 1 1 0 0 99999999999"),
        "e.map:4:49: expected the surface value (a 32-bit integer), found '99999999999'"
    );
}

#[test]
fn malformed_patches() {
    let patch = |body: &str| error(&format!("{WORLD}{{\npatchDef2\n{{\n{body}"));
    assert_eq!(
        patch("x\n( 0 3 0 0 0 )\n"),
        "e.map:7:3: expected the patch width (1 to 1024), found '0'"
    );
    assert_eq!(
        patch("x\n( 1 1 0 0 0 )\n(\n( ( 0 0 0 0 0 ) ( 1 1 1 1 1 ) )\n)\n}\n}\n}\n"),
        "e.map:9:17: expected ')' to close a row of patch control points (the header gives the \
         row length), found '('"
    );
    assert_eq!(
        patch("x\n( 1 1 0 0 0 )\n(\n( ( 0 0 0 0 0 ) )\n( ( 1 1 1 1 1 ) )\n)\n}\n}\n}\n"),
        "e.map:10:1: expected ')' to close the patch's control points (the header gives the row \
         count), found '('"
    );
    assert_eq!(
        patch("x\n( 1 1 0 0 0 )\n(\n( ( 0 0 0"),
        "e.map:9:10: unexpected end of file: expected the u texture coordinate of a patch \
         control point; the patch opened at line 3 is not closed"
    );
    assert_eq!(
        patch("x\n( 1 1 0 0 0 )\n(\n( ( 0 0 0 0 0 ) )\n)\n}\n"),
        "e.map:12:1: unexpected end of file: expected '}' to close the brush holding patchDef2; \
         the patch opened at line 3 is not closed"
    );
}

#[test]
fn errors_expose_their_location() {
    let e = MapFile::parse("{\n\"a\" \"b\"\n} }", "e.map").unwrap_err();
    assert!(matches!(e, MapError::Unexpected { .. }));
    let at = e.location();
    assert_eq!((at.file.as_ref(), at.line, at.column), ("e.map", 3, 3));
}
