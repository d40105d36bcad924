//! Parser unit tests: every format and lexical pitfall on small inline maps. Error messages are
//! tested in `tests/it/errors.rs`.

use glam::DVec3;

use crate::map::{FaceFormat, MapFile, SurfaceFlags, TextureProjection};
use crate::map_text::{QUAKE, QUAKE2, VALVE, box_brush, entity};

fn parse(text: &str) -> MapFile {
    MapFile::parse(text, "t.map").unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn quake_standard_with_tab_separated_pairs_and_odd_texture_names() {
    // The shape of id's E1M1: TAB between key and value, `+0` animated and `*` liquid textures,
    // negative scales.
    let text = "{\n\"message\"\t\"the Slipgate Complex\"\n\"classname\"\t\"worldspawn\"\n{\n\
        ( 448 -320 64 ) ( 448 -384 64 ) ( 448 -384 0 ) SLIPBOTSD 0 0 90 -1.000000 1.000000\n\
        ( 448 -384 64 ) ( 448 -320 64 ) ( 512 -320 64 ) +0SLIPBOT 0 0 0 1.000000 1.000000\n\
        ( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) *WATER0 -16 8 0 1 -1\n\
        }\n}\n";
    let map = parse(text);
    assert_eq!(map.formats(), [FaceFormat::Quake]);
    let world = &map.entities[0];
    assert_eq!(
        world.properties,
        [
            ("message".to_owned(), "the Slipgate Complex".to_owned()),
            ("classname".to_owned(), "worldspawn".to_owned())
        ]
    );
    let faces = &world.brushes[0].faces;
    let textures: Vec<&str> = faces.iter().map(|f| f.texture.as_str()).collect();
    assert_eq!(textures, ["SLIPBOTSD", "+0SLIPBOT", "*WATER0"]);
    assert_eq!(
        faces[0].points,
        [
            DVec3::new(448.0, -320.0, 64.0),
            DVec3::new(448.0, -384.0, 64.0),
            DVec3::new(448.0, -384.0, 0.0)
        ]
    );
    assert_eq!(
        faces[0].projection,
        TextureProjection::Standard {
            offset: [0.0, 0.0],
            rotation: 90.0,
            scale: [-1.0, 1.0]
        }
    );
    assert_eq!(
        faces[2].projection,
        TextureProjection::Standard {
            offset: [-16.0, 8.0],
            rotation: 0.0,
            scale: [1.0, -1.0]
        }
    );
    assert_eq!(faces[0].flags, None);
    assert_eq!((faces[1].line, faces[1].column), (6, 1));
    assert_eq!((world.line, world.brushes[0].line), (1, 4));
}

#[test]
fn valve_220_with_header_comments_brace_textures_and_scientific_notation() {
    let text = "// Game: Quake\n// Format: Valve\n// entity 0\n{\n\"mapversion\" \"220\"\n\
        \"classname\" \"worldspawn\"\n// brush 0\n{\n\
        ( -80 256 16 ) ( -80 257 16 ) ( -80 256 17 ) {trigger [ 0 -1 0 0 ] [ 0 0 -1 32 ] 0 1 1\n\
        ( -376 -496 80 ) ( -328 -496 -192 ) ( -376 -496 -192 ) skip [ 1.35963e-32 2.22045e-16 1 32 ] [ -1 6.12323e-17 0 40 ] 0 -1 1\n\
        }\n}\n";
    let map = parse(text);
    assert_eq!(map.formats(), [FaceFormat::Valve220]);
    assert_eq!(map.entities[0].get("mapversion"), Some("220"));
    let faces = &map.entities[0].brushes[0].faces;
    assert_eq!(faces[0].texture, "{trigger");
    assert_eq!(
        faces[1].projection,
        TextureProjection::Valve220 {
            u_axis: DVec3::new(1.35963e-32, 2.22045e-16, 1.0),
            u_offset: 32.0,
            v_axis: DVec3::new(-1.0, 6.12323e-17, 0.0),
            v_offset: 40.0,
            rotation: 0.0,
            scale: [-1.0, 1.0],
        }
    );
    assert_eq!((faces[0].line, map.entities[0].brushes[0].line), (9, 8));
}

#[test]
fn quake2_and_quake3_legacy_faces_carry_flags() {
    let text = "{\n\"classname\" \"worldspawn\"\n{\n\
        ( -64 256 192 ) ( -64 32 192 ) ( -64 256 16 ) e1u1/color1_6 0 0 0 1 1 0 0 0\n\
        ( 640 448 0 ) ( 640 -256 0 ) ( 64 448 0 ) shared_pk02/floor02 896 0 0 0.5 0.5 134217728 0 0\n\
        ( 0 0 0 ) ( 0 1 0 ) ( 1 0 0 ) e1u1/water 0 0 0 1 1 32 -1 -7\n\
        }\n}\n";
    let map = parse(text);
    assert_eq!(map.formats(), [FaceFormat::Quake2]);
    let flags: Vec<SurfaceFlags> = map.entities[0].brushes[0]
        .faces
        .iter()
        .map(|f| f.flags.unwrap())
        .collect();
    assert_eq!(
        flags,
        [
            SurfaceFlags::default(),
            SurfaceFlags {
                contents: 134_217_728,
                surface: 0,
                value: 0
            },
            SurfaceFlags {
                contents: 32,
                surface: u32::MAX,
                value: -7
            },
        ]
    );
}

#[test]
fn valve_axes_with_quake2_flags() {
    let map = parse(&entity(
        &[("classname", "worldspawn")],
        &[box_brush(
            [0, 0, 0],
            [8, 8, 8],
            "e1u1/clip",
            &format!("{VALVE} 65536 0 0"),
        )],
    ));
    assert_eq!(map.formats(), [FaceFormat::Valve220Quake2]);
    assert_eq!(map.face_formats.valve220_quake2, 6);
    assert_eq!(
        map.entities[0].brushes[0].faces[0].flags.unwrap().contents,
        65536
    );
}

#[test]
fn formats_are_detected_per_face_line() {
    let text = entity(
        &[("classname", "worldspawn")],
        &[
            box_brush([0, 0, 0], [8, 8, 8], "a", QUAKE),
            box_brush([0, 0, 0], [8, 8, 8], "b", VALVE),
            box_brush([0, 0, 0], [8, 8, 8], "c", QUAKE2),
        ],
    );
    let map = parse(&text);
    assert_eq!(
        map.formats(),
        [FaceFormat::Quake, FaceFormat::Valve220, FaceFormat::Quake2]
    );
    assert_eq!(
        [
            map.face_formats.quake,
            map.face_formats.valve220,
            map.face_formats.quake2
        ],
        [6, 6, 6]
    );
}

#[test]
fn patch_def2_is_a_grid_of_rows() {
    let text = "{\n\"classname\" \"worldspawn\"\n{\npatchDef2\n{\ndecal/x\n( 3 5 0 0 0 )\n(\n\
        ( ( 0 0 0 0 0 ) ( 0 1 0 0 0.25 ) ( 0 2 0 0 0.5 ) ( 0 3 0 0 0.75 ) ( 0 4 0 0 1 ) )\n\
        ( ( 1 0 0 0.5 0 ) ( 1 1 0 0.5 0.25 ) ( 1 2 9 0.5 0.5 ) ( 1 3 0 0.5 0.75 ) ( 1 4 0 0.5 1 ) )\n\
        ( ( 2 0 0 1 0 ) ( 2 1 0 1 0.25 ) ( 2 2 0 1 0.5 ) ( 2 3 0 1 0.75 ) ( 2 4 0 1 1 ) )\n\
        )\n}\n}\n}\n";
    let map = parse(text);
    assert_eq!((map.patch_count(), map.brush_count()), (1, 0));
    let patch = &map.entities[0].patches[0];
    assert_eq!(
        (
            patch.texture.as_str(),
            patch.width,
            patch.height,
            patch.line
        ),
        ("decal/x", 3, 5, 3)
    );
    assert_eq!(patch.points.len(), 15);
    let p = patch.point(1, 2).unwrap();
    assert_eq!(p.position, DVec3::new(1.0, 2.0, 9.0));
    assert_eq!(p.tex_coords, [0.5, 0.5]);
    assert!(patch.point(3, 0).is_none());
    assert!(patch.point(0, 5).is_none());
    assert!(map.formats().is_empty());
}

#[test]
fn repeated_keys_keep_their_order_and_the_last_wins() {
    let map = parse("{\n\"classname\" \"light\"\n\"light\" \"200\"\n\"light\" \"300\"\n}\n");
    let e = &map.entities[0];
    assert_eq!(e.properties.len(), 3);
    assert_eq!(e.get("light"), Some("300"));
    assert_eq!(e.get("missing"), None);
}

#[test]
fn crlf_line_endings_and_no_final_newline() {
    let text = entity(
        &[("classname", "worldspawn")],
        &[box_brush([0, 0, 0], [8, 8, 8], "a", QUAKE)],
    )
    .replace('\n', "\r\n");
    let map = parse(text.trim_end());
    assert_eq!(map.brush_count(), 1);
    assert_eq!(map.entities[0].brushes[0].faces[5].texture, "a");
}

#[test]
fn empty_and_comment_only_files_have_no_entity() {
    assert!(parse("").entities.is_empty());
    assert!(parse("// nothing\n\n   \t// here").entities.is_empty());
}

#[test]
fn non_utf8_text_is_read_as_latin1() {
    let map = MapFile::parse(b"{\n\"message\" \"caf\xe9\"\n}\n", "t.map").unwrap();
    assert_eq!(map.entities[0].get("message"), Some("café"));
}

#[test]
fn an_empty_brush_parses_and_is_left_to_validation() {
    let map = parse("{\n\"classname\" \"worldspawn\"\n{\n}\n}\n");
    assert_eq!(map.brush_count(), 1);
    assert!(map.entities[0].brushes[0].faces.is_empty());
}

#[test]
fn a_quoted_texture_name_is_accepted() {
    let map = parse(&entity(
        &[("classname", "worldspawn")],
        &[box_brush([0, 0, 0], [8, 8, 8], "\"with space\"", QUAKE)],
    ));
    assert_eq!(map.entities[0].brushes[0].faces[0].texture, "with space");
}

#[test]
fn keys_and_brushes_may_interleave() {
    let text = format!(
        "{{\n\"classname\" \"func_door\"\n{}\"angle\" \"-1\"\n{}}}\n",
        box_brush([0, 0, 0], [8, 8, 8], "a", QUAKE),
        box_brush([8, 0, 0], [16, 8, 8], "a", QUAKE)
    );
    let map = parse(&text);
    assert_eq!(map.entities[0].get("angle"), Some("-1"));
    assert_eq!(map.brush_count(), 2);
}

#[test]
fn the_decimal_fast_path_agrees_with_str_parse() {
    use super::simple_decimal;
    let plain = [
        "0",
        "-0",
        "+7",
        "-12",
        "1.000000",
        "-1.000000",
        "0.707107",
        ".5",
        "5.",
        "-0.0976562",
        "448",
        "-63.98050498001612",
        "123456789012345",
        "0.000000000000000000001",
        "99999999999999.9",
        "1.0000000000000000000000",
    ];
    for text in plain {
        let expected: f64 = text.parse().unwrap();
        match simple_decimal(text.as_bytes()) {
            Some(v) => assert_eq!(v.to_bits(), expected.to_bits(), "{text}"),
            // Too many significant digits: left to str::parse.
            None => assert!(
                ["-63.98050498001612", "1.0000000000000000000000"].contains(&text),
                "{text}"
            ),
        }
    }
    for other in [
        "",
        "-",
        ".",
        "1e5",
        "-2.22045e-16",
        "inf",
        "nan",
        "1.2.3",
        "0x10",
        "1_0",
        "--1",
        "1-",
        "1234567890123456",
    ] {
        assert_eq!(simple_decimal(other.as_bytes()), None, "{other}");
    }
}

#[test]
fn the_decimal_fast_path_agrees_with_str_parse_on_random_decimals() {
    use super::simple_decimal;
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..100_000 {
        let digits = 1 + (next() % 15) as usize;
        let mut text: String = (0..digits)
            .map(|_| char::from(b'0' + (next() % 10) as u8))
            .collect();
        let point = (next() % (digits as u64 + 1)) as usize;
        text.insert(point, '.');
        if next() % 2 == 0 {
            text.insert(0, '-');
        }
        let expected: f64 = text.parse().unwrap();
        let fast = simple_decimal(text.as_bytes()).unwrap_or_else(|| panic!("{text}"));
        assert_eq!(fast.to_bits(), expected.to_bits(), "{text}");
    }
}
