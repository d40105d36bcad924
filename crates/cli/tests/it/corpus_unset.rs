//! `CSPACE_MAPS` unset behaves one way everywhere (issue 34): a scenario or map of the corpus is
//! skipped by name by the commands that take many (`report`, `sweep`, exit 0), and refused with
//! an error at the line that names `${CSPACE_MAPS}` by those that take one (`run`, `check`,
//! `plot`, exit 2); each says the variable and the value to set.

use std::path::Path;
use std::process::{Command, Output};

use super::cli::scratch_dir;

const HINT: &str = "from the repository root: CSPACE_MAPS=../shared/maps";

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

/// `sim ARGS` with `CSPACE_MAPS` unset.
fn sim_without_corpus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .env_remove("CSPACE_MAPS")
        .output()
        .expect("sim runs")
}

#[test]
fn run_check_and_plot_refuse_a_corpus_scenario_where_it_names_the_variable() {
    let scratch = scratch_dir();
    let png = scratch.path().join("walk.png");
    let scenario = fixture("e1m1_walk.toml");
    for args in [
        vec!["run", scenario.as_str()],
        vec!["check", scenario.as_str()],
        vec!["plot", scenario.as_str(), "-o", png.to_str().unwrap()],
    ] {
        let out = sim_without_corpus(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("e1m1_walk.toml:16:7: map: environment variable CSPACE_MAPS")
                && stderr.contains("is not set: it names the folder of the map corpus")
                && stderr.contains(HINT),
            "{args:?}: {stderr}"
        );
    }
    assert!(!png.exists());
}

#[test]
fn sweep_skips_the_corpus_maps_by_name_and_runs_the_rest() {
    let scratch = scratch_dir();
    let lines = scratch.path().join("maps.jsonl");
    let out = sim_without_corpus(&[
        "sweep",
        &fixture("sweeps/maps.toml"),
        "--out",
        lines.to_str().unwrap(),
    ]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    for said in [&stdout, &stderr] {
        assert!(
            said.contains("skipped: ${CSPACE_MAPS}/quake_e1m1.map (it is in the map corpus and CSPACE_MAPS is unset; ")
                && said.contains(HINT),
            "{said}"
        );
    }
    // The one map of its own (rooms.map) ran: one line per seed and backend.
    let written = std::fs::read_to_string(&lines).unwrap();
    assert!(
        !written.is_empty()
            && written
                .lines()
                .all(|l| l.contains("\"map\":\"../rooms.map\"")),
        "{written}"
    );

    // A corpus scenario alone: nothing to run, still not a failure.
    let out = sim_without_corpus(&["sweep", &fixture("e1m1_walk.toml")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("e1m1_walk.toml (it reads the map corpus and CSPACE_MAPS is unset; ")
            && stderr.contains("sweep: 0 runs"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "the lines stay JSON");
}
