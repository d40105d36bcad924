//! `sim map` lists a map's living entities (issue 32): movers, triggers, liquids and what was
//! made of each, with located warnings for bad input.

use cspace_mapfile::map_text::{self, entity};

use crate::cli::{scratch, scratch_dir, sim};

/// A Quake-format axial brush from `min` to `max` with `texture` on every face.
pub fn brush(min: [i32; 3], max: [i32; 3], texture: &str) -> String {
    map_text::box_brush(min, max, texture, map_text::QUAKE)
}

/// What `sim <args>` prints, once it exits 0.
fn listing(args: &[&str]) -> String {
    let out = sim(args, "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn sim_map_lists_movers_triggers_liquids_and_warnings() {
    let tmp = scratch_dir();
    let map = [
        entity(
            &[("classname", "worldspawn")],
            &[
                brush([-512, -512, -16], [512, 512, 0], "floor"),
                brush([-512, -512, 0], [-256, 512, 64], "*water1"),
            ],
        ),
        entity(
            &[("classname", "func_door"), ("angle", "90")],
            &[brush([0, 0, 0], [8, 64, 96], "door")],
        ),
        entity(
            &[("classname", "func_plat")],
            &[brush([200, 0, 0], [328, 128, 128], "plat")],
        ),
        entity(
            &[("classname", "trigger_teleport"), ("target", "nowhere")],
            &[brush([400, 0, 0], [464, 64, 64], "trigger")],
        ),
        entity(
            &[
                ("classname", "info_player_start"),
                ("origin", "-100 -100 24"),
            ],
            &[],
        ),
    ]
    .concat();
    let path = scratch(&tmp, "living.map", &map);
    let text = listing(&["map", path.to_str().unwrap()]);
    for line in [
        "entities (quake1 rules): 2 movers, 3 triggers, 0 relays, 0 named points, 1 liquid brushes \
         (1 water, 0 slime, 0 lava), 0 kept where drawn",
        "  mover 0: func_door (entity 1, line 20): door, 1 brushes, 100 u/s, opened by its field, \
         between (0, 0, 0) and (0, 56, 0), waits 3 s",
        "  mover 1: func_plat (entity 2, line 32): plat, 1 brushes, 150 u/s, opened by its field, \
         between (0, 0, -120) and (0, 0, 0), waits 3 s",
        "  trigger 0: trigger_teleport (entity 3, line 43): (400, 0, 0) .. (464, 64, 64): \
         teleports nowhere",
        "  trigger 1: door field (entity 1, line 20): (-60, -60, -8) .. (68, 124, 104): opens \
         door team 0",
        "warning: line 43: entity 3 (trigger_teleport): teleporter target \"nowhere\" names no \
         destination: it does nothing",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
    // Quake III's rules on the same map: its door moves at 400 u/s, its plat at 200.
    let out = sim(
        &[
            "map",
            path.to_str().unwrap(),
            "--entities",
            "quake3",
            "--json",
        ],
        "",
    );
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let living = &report["living"];
    assert_eq!(living["dialect"], "quake3");
    assert_eq!(living["movers"][0]["speed"], 400.0);
    assert_eq!(living["movers"][1]["speed"], 200.0);
    assert_eq!(living["liquids"][0]["kind"], "water");
    let out = sim(&["map", path.to_str().unwrap(), "--entities", "quake2"], "");
    assert_eq!(out.status.code(), Some(2));
}

/// `sim map` lists Quake III's `target_push` points with what they do to their activator.
#[test]
fn sim_map_lists_target_pushes() {
    let tmp = scratch_dir();
    let map = [
        entity(
            &[("classname", "worldspawn")],
            &[brush([-512, -512, -16], [512, 512, 0], "floor")],
        ),
        entity(
            &[
                ("classname", "target_push"),
                ("targetname", "up"),
                ("angle", "-1"),
                ("speed", "600"),
            ],
            &[],
        ),
        entity(
            &[
                ("classname", "target_push"),
                ("targetname", "far"),
                ("origin", "0 0 100"),
                ("target", "apex"),
                ("spawnflags", "1"),
            ],
            &[],
        ),
        entity(
            &[
                ("classname", "target_position"),
                ("targetname", "apex"),
                ("origin", "300 400 500"),
            ],
            &[],
        ),
    ]
    .concat();
    let path = scratch(&tmp, "pushes.map", &map);
    let text = listing(&["map", path.to_str().unwrap(), "--entities", "quake3"]);
    for line in [
        "  target_push 0 (entity 1, line 12): used by up: sets the activator's velocity (0, 0, 600)",
        "  target_push 1 (entity 2, line 18): used by far: launches the activator to apex \
         (300, 400, 500), bouncepad",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
}
