//! `sim bench --living`: the map's crowd in its frozen and living worlds, side by side.

use cspace_mapfile::map_text::entity;

use crate::cli::{scratch, scratch_dir, sim};
use crate::living::brush;

/// A floor, a door across it and a lift, with a start point.
fn living_map() -> String {
    [
        entity(
            &[("classname", "worldspawn")],
            &[brush([-512, -512, -16], [512, 512, 0], "floor")],
        ),
        entity(
            &[("classname", "func_door"), ("angle", "90")],
            &[brush([0, -256, 0], [8, 256, 96], "door")],
        ),
        entity(
            &[("classname", "func_plat")],
            &[brush([200, 0, 0], [328, 128, 128], "plat")],
        ),
        entity(
            &[
                ("classname", "info_player_start"),
                ("origin", "-100 -100 24"),
            ],
            &[],
        ),
    ]
    .concat()
}

#[test]
fn bench_living_compares_the_living_crowd_with_the_frozen_one() {
    let tmp = scratch_dir();
    let path = scratch(&tmp, "living.map", &living_map());
    let out = sim(
        &[
            "bench",
            "--map",
            path.to_str().unwrap(),
            "--living",
            "--agents",
            "8",
            "--steps",
            "10",
            "--backends",
            "exact,onion",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // A row per backend for the frozen crowd and one for the living crowd.
    assert_eq!(text.matches("living.map (living) |").count(), 2, "{text}");
    assert!(
        text.contains(
            "| backend | frozen agent steps/s | living agent steps/s | living / frozen | world compile s | movers' compile s | movers / world |"
        ),
        "{text}"
    );
    for backend in ["exact", "onion"] {
        let row = text
            .lines()
            .find(|l| l.starts_with(&format!("| {backend} | ")))
            .unwrap_or_else(|| panic!("no comparison row for {backend}: {text}"));
        assert_eq!(row.matches('|').count(), 8, "{row}");
    }
}

#[test]
fn bench_living_needs_a_map() {
    let out = sim(&["bench", "--living", "--agents", "4", "--steps", "1"], "");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--map"), "{err}");
}
