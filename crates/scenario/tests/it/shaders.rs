//! Quake III shader scripts in scenarios (`[world] shaders`, `sim run --shaders`): a custom
//! shader's `surfaceparm water` makes a liquid of a brush that is solid without the script, and a
//! malformed script is an error at its file, line and column. The fixtures are this crate's own
//! (`tests/fixtures/shaders/`): a Quake III-format pool, a folder of scripts (with a file that is
//! not a script, never read) and a folder holding a broken script.

use std::path::{Path, PathBuf};

use cspace_entities::LiquidKind;
use cspace_scenario::run::{RunOptions, run_scenario};
use cspace_scenario::scenario::Scenario;
use cspace_sim::{BackendKind, EventKind};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/shaders")
}

/// A scenario on the pool: an agent dropped into it from above.
fn scenario(shaders: Option<&str>) -> String {
    let shaders = shaders.map_or(String::new(), |s| format!("shaders = \"{s}\"\n"));
    format!(
        r#"name = "shaders"
time_step = 0.015625
steps = 96
movement = "quake3"

[poses]
stand = {{ box = {{ mins = [-15, -15, -24], maxs = [15, 15, 32] }} }}

[world]
map = "pool_q3.map"
living = true
{shaders}
[[agent]]
pose = "stand"
start = [0, 0, 300]
"#
    )
}

/// Checks `text` as a file in the fixtures' folder (where `map` and `shaders` resolve), or, with
/// `shaders`, loads it from a file with that folder in the place of its own.
fn load(text: &str, shaders: Option<&Path>) -> Result<Scenario, String> {
    match shaders {
        None => Scenario::parse(&fixtures().join("shaders.toml"), text),
        Some(folder) => {
            let dir = tempfile::tempdir().unwrap();
            let map = fixtures().join("pool_q3.map");
            let text = text.replace(
                "\"pool_q3.map\"",
                &format!("{:?}", map.display().to_string()),
            );
            let file = dir.path().join("shaders.toml");
            std::fs::write(&file, text).unwrap();
            Scenario::load_with_shaders(&file, Some(folder))
        }
    }
    .map_err(|e| format!("{e:#}"))
}

fn run(scenario: &Scenario) -> cspace_scenario::run::RunOutcome {
    run_scenario(scenario, BackendKind::Exact, RunOptions::default()).unwrap()
}

#[test]
fn a_shaders_surfaceparm_water_makes_a_liquid_that_is_solid_without_the_script() {
    // Without scripts: the pool is a solid block the agent lands on (z 128 + 24 + the epsilon).
    let dry = load(&scenario(None), None).unwrap();
    let living = dry.world.living.as_ref().unwrap();
    assert!(living.liquids.is_empty());
    assert_eq!(dry.world.world.len(), 2);
    let outcome = run(&dry);
    assert!(outcome.record.finals[0].state.position.z > 128.0);
    // With them: water, not solid; the agent falls into it and swims.
    for wet in [
        load(&scenario(Some("scripts")), None).unwrap(),
        load(&scenario(None), Some(&fixtures().join("scripts"))).unwrap(),
    ] {
        let living = wet.world.living.as_ref().unwrap();
        assert_eq!(living.liquids.len(), 1);
        assert_eq!(living.liquids[0].kind, LiquidKind::Water);
        assert_eq!(wet.world.world.len(), 1);
        let outcome = run(&wet);
        let levels: Vec<u8> = outcome
            .record
            .events
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::WaterLevel { level, .. } => Some(level),
                _ => None,
            })
            .collect();
        assert_eq!(levels, [1, 2, 3], "{levels:?}");
    }
}

#[test]
fn a_broken_script_or_a_missing_folder_is_a_located_error() {
    let e = load(&scenario(Some("broken")), None).unwrap_err();
    assert!(
        e.contains("b_broken.shader:1:1:") && e.contains("never closed"),
        "{e}"
    );
    let e = load(&scenario(Some("no_such_folder")), None).unwrap_err();
    assert!(
        e.contains("no_such_folder") && e.contains("shader folder"),
        "{e}"
    );
}
