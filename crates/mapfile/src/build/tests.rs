//! World building unit tests: the solidity rules, sources, spawn points and counts.

use cspace_geom::{BrushId, Contents};
use glam::DVec3;

use super::*;
use crate::map_text::{QUAKE, QUAKE2, box_brush, box_brush_textured, entity};

fn build(text: &str, options: &BuildOptions) -> MapWorld {
    build_world(
        &MapFile::parse(text, "t.map").unwrap_or_else(|e| panic!("{e}")),
        options,
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

fn fates(world: &MapWorld) -> Vec<BrushFate> {
    world.brushes.iter().map(|b| b.fate.clone()).collect()
}

fn cube(texture: &str) -> String {
    box_brush([0, 0, 0], [64, 64, 64], texture, QUAKE)
}

#[test]
fn classes_decide_before_textures() {
    let text = [
        entity(&[("classname", "worldspawn")], &[cube("WALL")]),
        entity(&[("classname", "trigger_once")], &[cube("TRIGGER")]),
        entity(&[("classname", "func_illusionary")], &[cube("WALL")]),
        entity(&[("classname", "func_door")], &[cube("DOOR")]),
        entity(&[("classname", "func_detail_fence")], &[cube("{fence")]),
    ]
    .concat();
    let world = build(&text, &BuildOptions::default());
    assert_eq!(
        fates(&world),
        [
            BrushFate::Solid(BrushId(0)),
            BrushFate::NonSolid(NonSolidReason::EntityClass),
            BrushFate::NonSolid(NonSolidReason::EntityClass),
            BrushFate::Solid(BrushId(1)),
            BrushFate::Solid(BrushId(2)),
        ]
    );
    assert_eq!(world.world.len(), 3);
    assert_eq!(world.tally.non_solid_class, 2);
    let solidities: Vec<ClassSolidity> = world.entities.iter().map(|e| e.solidity).collect();
    assert_eq!(
        solidities,
        [
            ClassSolidity::Solid,
            ClassSolidity::NonSolid,
            ClassSolidity::NonSolid,
            ClassSolidity::Solid,
            ClassSolidity::Solid
        ]
    );
}

#[test]
fn clip_brushes_block_as_clip() {
    let text = entity(
        &[("classname", "worldspawn")],
        &[
            cube("CLIP"),
            cube("common/playerclip"),
            cube("common/slickplayerclip"),
        ],
    );
    let world = build(&text, &BuildOptions::default());
    assert_eq!(world.tally.clip, 3);
    assert!(
        world
            .world
            .brushes()
            .iter()
            .all(|b| b.contents == Contents::Clip)
    );
}

#[test]
fn markers_and_origin_brushes_are_dropped() {
    let text = [
        entity(
            &[("classname", "worldspawn")],
            &[
                cube("skip"),
                cube("common/hint"),
                box_brush_textured(
                    [0, 0, 0],
                    [8, 8, 8],
                    ["hint", "skip", "hintskip", "skip", "skip", "skip"],
                    QUAKE,
                ),
            ],
        ),
        entity(
            &[("classname", "func_door")],
            &[
                cube("DOOR"),
                box_brush_textured(
                    [0, 0, 0],
                    [8, 8, 8],
                    ["DOOR", "DOOR", "origin", "DOOR", "DOOR", "DOOR"],
                    QUAKE,
                ),
            ],
        ),
    ]
    .concat();
    let world = build(&text, &BuildOptions::default());
    assert_eq!(
        fates(&world),
        [
            BrushFate::Dropped(DropReason::Marker),
            BrushFate::Dropped(DropReason::Marker),
            BrushFate::Dropped(DropReason::Marker),
            BrushFate::Solid(BrushId(0)),
            BrushFate::Dropped(DropReason::Origin),
        ]
    );
    assert_eq!((world.tally.marker, world.tally.origin), (3, 1));
}

#[test]
fn liquids_and_non_solid_shaders_stay_out_and_sky_is_solid() {
    let text = entity(
        &[("classname", "worldspawn")],
        &[
            cube("*lava1"),
            cube("common/nodrawnonsolid"),
            cube("sky4"),
            cube("common/skycaulk"),
        ],
    );
    let world = build(&text, &BuildOptions::default());
    assert_eq!(
        fates(&world),
        [
            BrushFate::NonSolid(NonSolidReason::Liquid),
            BrushFate::NonSolid(NonSolidReason::NonSolidTexture),
            BrushFate::Solid(BrushId(0)),
            BrushFate::Solid(BrushId(1)),
        ]
    );
}

#[test]
fn mixed_faces_take_the_strongest_contents_and_markers_do_not_mix() {
    let b = |textures| box_brush_textured([0, 0, 0], [8, 8, 8], textures, QUAKE);
    let text = entity(
        &[("classname", "func_detail_wall")],
        &[
            // A pillar with one water face (LibreQuake e3m4 has such brushes).
            b(["*water2", "skip", "skip", "rock", "skip", "skip"]),
            b([
                "*water2", "*water2", "*water2", "*water2", "CLIP", "*water2",
            ]),
            b(["rock", "skip", "skip", "skip", "skip", "skip"]),
            b([
                "common/nodrawnonsolid",
                "common/caulk",
                "common/caulk",
                "common/caulk",
                "common/caulk",
                "common/caulk",
            ]),
        ],
    );
    let world = build(&text, &BuildOptions::default());
    assert_eq!(
        fates(&world),
        [
            BrushFate::Solid(BrushId(0)),
            BrushFate::Clip(BrushId(1)),
            BrushFate::Solid(BrushId(2)),
            BrushFate::Solid(BrushId(3)),
        ]
    );
    let mixed: Vec<bool> = world.brushes.iter().map(|b| b.mixed_contents).collect();
    assert_eq!(mixed, [true, true, false, true]);
    assert_eq!(world.tally.mixed_contents, 3);
}

#[test]
fn unknown_classes_are_counted_and_follow_the_option() {
    let text = [
        entity(&[("classname", "worldspawn")], &[]),
        entity(
            &[("classname", "rotate_object")],
            &[cube("WALL"), cube("WALL")],
        ),
        entity(&[("classname", "rotate_object")], &[cube("WALL")]),
        entity(&[("classname", "info_notnull")], &[cube("WALL")]),
        entity(&[("classname", "light")], &[]),
        entity(&[], &[cube("WALL")]),
    ]
    .concat();
    let world = build(&text, &BuildOptions::default());
    assert_eq!(world.tally.unknown_class, 5);
    assert!(world.world.is_empty());
    let unknown: Vec<(&str, usize, usize)> = world
        .unknown_classes
        .iter()
        .map(|c| (c.classname.as_str(), c.entities, c.brushes))
        .collect();
    assert_eq!(
        unknown,
        [("", 1, 1), ("info_notnull", 1, 1), ("rotate_object", 2, 3)]
    );

    let solid = BuildOptions {
        unknown_classes_solid: true,
        ..BuildOptions::default()
    };
    let world = build(&text, &solid);
    assert_eq!((world.tally.solid, world.unknown_classes.len()), (5, 3));
}

#[test]
fn quake2_contents_flags_decide_over_texture_names() {
    let text = entity(
        &[("classname", "worldspawn")],
        &[
            box_brush([0, 0, 0], [8, 8, 8], "e1u1/water4", "0 0 0 1 1 32 0 0"),
            box_brush([0, 0, 0], [8, 8, 8], "e1u1/clip", "0 0 0 1 1 196608 0 0"),
            box_brush([0, 0, 0], [8, 8, 8], "e1u1/wall", QUAKE2),
        ],
    );
    let world = build(&text, &BuildOptions::default());
    assert_eq!(
        fates(&world),
        [
            BrushFate::NonSolid(NonSolidReason::Liquid),
            BrushFate::Clip(BrushId(0)),
            BrushFate::Solid(BrushId(1)),
        ]
    );
}

#[test]
fn sources_name_file_line_entity_and_brush() {
    let text = [
        entity(&[("classname", "worldspawn")], &[cube("A")]),
        entity(&[("classname", "func_wall")], &[cube("B"), cube("C")]),
    ]
    .concat();
    let world = build(&text, &BuildOptions::default());
    let sources: Vec<String> = world
        .world
        .brushes()
        .iter()
        .map(|b| b.source.to_string())
        .collect();
    assert_eq!(
        sources,
        [
            "t.map:3: entity 0 brush 0",
            "t.map:14: entity 1 brush 0",
            "t.map:22: entity 1 brush 1"
        ]
    );
    assert_eq!(world.file.as_ref(), "t.map");
    assert_eq!(world.bounds, Aabb::new(DVec3::ZERO, DVec3::splat(64.0)));
}

#[test]
fn spawn_points_and_per_entity_counts() {
    let text = [
        entity(
            &[("classname", "worldspawn")],
            &[cube("A"), cube("*water"), cube("skip")],
        ),
        entity(
            &[
                ("classname", "info_player_start"),
                ("origin", "32 32 24"),
                ("angle", "270"),
            ],
            &[],
        ),
        entity(
            &[("classname", "info_player_deathmatch"), ("origin", "1 2 3")],
            &[],
        ),
        entity(&[("classname", "info_player_coop")], &[]),
    ]
    .concat();
    let world = build(&text, &BuildOptions::default());
    let spawns: Vec<(&str, DVec3, f64, u32)> = world
        .spawn_points
        .iter()
        .map(|s| (s.classname.as_str(), s.origin, s.yaw, s.entity))
        .collect();
    assert_eq!(
        spawns,
        [
            ("info_player_start", DVec3::new(32.0, 32.0, 24.0), 270.0, 1),
            ("info_player_deathmatch", DVec3::new(1.0, 2.0, 3.0), 0.0, 2),
        ]
    );
    assert_eq!(world.warnings.len(), 1, "the coop start has no origin");
    let report = &world.entities[0];
    assert_eq!(report.classname, "worldspawn");
    assert_eq!(
        (
            report.brushes.total,
            report.brushes.solid,
            report.brushes.liquid,
            report.brushes.marker
        ),
        (3, 1, 1, 1)
    );
    assert_eq!(world.entities[1].brushes.total, 0);
}

#[test]
fn brushes_beyond_the_numeric_domain_are_invalid_and_the_rest_loads() {
    // One unit past MAX_COORDINATE (2^19), and a brush that reaches to it exactly.
    let text = entity(
        &[("classname", "worldspawn")],
        &[
            box_brush([524_280, 0, 0], [524_289, 64, 64], "WALL", QUAKE),
            box_brush([524_280, 0, 0], [524_288, 64, 64], "WALL", QUAKE),
        ],
    );
    let world = build(&text, &BuildOptions::default());
    let BrushFate::Invalid { error, line } = &world.brushes[0].fate else {
        panic!("{:?}", world.brushes[0].fate);
    };
    assert_eq!(*line, 3, "the line of the brush's opening brace");
    assert_eq!(
        error.to_string(),
        "brush reaches 524289 units from the origin, beyond the limit of +-524288 units"
    );
    assert_eq!(world.brushes[1].fate, BrushFate::Solid(BrushId(0)));
}

/// Quake III's shader scripts decide a face's contents by its `surfaceparm`s; without them a
/// custom shader is taken as solid and listed as assumed.
#[test]
fn shader_scripts_make_liquids_and_non_solid_faces_and_the_rest_is_listed_as_assumed_solid() {
    let text = entity(
        &[("classname", "worldspawn")],
        &[
            box_brush([0, 0, 0], [64, 64, 64], "base_wall/metal", QUAKE2),
            box_brush([0, 0, 64], [64, 64, 128], "liquids/slime1", QUAKE2),
            box_brush([0, 0, 128], [64, 64, 192], "sfx/fog_dark", QUAKE2),
            box_brush([0, 0, 192], [64, 64, 256], "common/caulk", QUAKE2),
        ],
    );
    let plain = build(&text, &BuildOptions::default());
    assert_eq!(plain.world.len(), 4);
    assert!(plain.living.liquids.is_empty());
    assert_eq!(
        plain.assumed_solid,
        ["base_wall/metal", "liquids/slime1", "sfx/fog_dark"]
    );
    let mut shaders = crate::shader::Shaders::new();
    shaders
        .add_script(
            "textures/liquids/slime1 { surfaceparm nonsolid surfaceparm slime { map x } }\n\
             textures/sfx/fog_dark { surfaceparm fog surfaceparm trans }\n\
             textures/base_wall/metal { surfaceparm metalsteps }",
            "t.shader",
        )
        .unwrap();
    let options = BuildOptions {
        shaders: Some(Arc::new(shaders)),
        ..BuildOptions::default()
    };
    let with = build(&text, &options);
    assert_eq!(
        fates(&with),
        [
            BrushFate::Solid(BrushId(0)),
            BrushFate::NonSolid(NonSolidReason::Liquid),
            BrushFate::NonSolid(NonSolidReason::NonSolidTexture),
            BrushFate::Solid(BrushId(1)),
        ]
    );
    assert_eq!(with.living.liquids.len(), 1);
    assert_eq!(
        with.living.liquids[0].kind,
        cspace_entities::LiquidKind::Slime
    );
    assert!(with.assumed_solid.is_empty(), "{:?}", with.assumed_solid);
}
