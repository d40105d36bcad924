//! What the commands say (issue 34, item 8), on fixtures each test writes into a scratch folder of
//! its own: a zero divergence names no agent or step; the summary names poses as the scenario
//! does; `-` as an output file is standard output; `--against-backend` chooses the trace of a
//! file with one per backend; paths in messages are normalised.

use std::path::Path;
use std::process::{Command, Output};

use super::cli::{scratch, scratch_dir, sim};

/// Two lanes: a box agent that crouches and walks, and a sphere and a cylinder walking.
const SCENARIO: &str = r#"
name = "words"
description = "words test"
time_step = 0.015625
steps = 64
sample_every = 8

[poses]
tall = { box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }
low = { box = { mins = [-16, -16, -24], maxs = [16, 16, 16] } }
ball = { sphere = 16 }
can = { cylinder = { radius = 16, half_height = 28 } }

[world]
[[world.brush]]
box = { min = [-512, -512, -16], max = [512, 512, 0] }

[[agent]]
name = "ducker"
pose = "tall"
crouch_pose = "low"
start = [-100, -100, 24.03125]
script = [{ at = 0, crouch = true }, { at = 0, move = [1, 0] }]

[[agent]]
name = "rolling"
pose = "ball"
start = [-100, 0, 16.03125]
script = [{ at = 0, move = [1, 0] }]

[[agent]]
name = "upright"
pose = "can"
start = [-100, 100, 28.03125]
script = [{ at = 0, move = [1, 0] }]
"#;

/// Runs `sim` in `dir` (so that relative paths are relative to it).
pub fn sim_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("sim runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_zero_divergence_names_no_agent_and_no_step() {
    let tmp = scratch_dir();
    let s = scratch(&tmp, "words.toml", SCENARIO);
    let path = s.to_str().unwrap();
    let out = sim(&["compare", path, "--backends", "exact,udop+exact"], "");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("| exact vs udop+exact | 0 (none) | - | - | same | ok |"),
        "{stdout}"
    );
    let out = sim(
        &["compare", path, "--backends", "exact,udop+exact", "--json"],
        "",
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let pair = &json["pairs"][0];
    assert_eq!(pair["largest_divergence"], 0.0);
    assert!(pair["agent"].is_null() && pair["step"].is_null(), "{pair}");
}

#[test]
fn the_summary_names_each_pose_as_the_scenario_does() {
    let tmp = scratch_dir();
    let s = scratch(&tmp, "words.toml", SCENARIO);
    let out = sim(&["run", s.to_str().unwrap(), "--backend", "exact"], "");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let row = |agent: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(&format!("| {agent} |")))
            .unwrap_or_else(|| panic!("no row for {agent}: {stdout}"))
            .to_string()
    };
    assert!(row("ducker").ends_with("| low |"), "{}", row("ducker"));
    assert!(row("rolling").ends_with("| ball |"), "{}", row("rolling"));
    assert!(row("upright").ends_with("| can |"), "{}", row("upright"));
    let out = sim(
        &["run", s.to_str().unwrap(), "--backend", "exact", "--json"],
        "",
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let agents = &json["runs"][0]["agents"];
    assert_eq!(agents[0]["pose"], "low");
    assert_eq!(agents[0]["crouched"], true);
    assert_eq!(agents[1]["pose"], "ball");
    assert_eq!(agents[2]["pose"], "can");
}

#[test]
fn a_dash_as_the_output_file_is_standard_output() {
    let tmp = scratch_dir();
    scratch(&tmp, "words.toml", SCENARIO);
    let dir = tmp.path();
    // `sim run --trace -`: the trace alone on standard output, the summary on standard error.
    let out = sim_in(
        dir,
        &["run", "words.toml", "--backend", "exact", "--trace", "-"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("cspace trace 1\n"), "{stdout}");
    cspace_scenario::trace::parse(&stdout).expect("standard output is one trace");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("| ducker |") && stderr.contains("wrote standard output"),
        "{stderr}"
    );
    // `sim plot -o -`: the SVG; `sim report -o -`: the page; `sim compile -o -`: the tree.
    let out = sim_in(
        dir,
        &["plot", "words.toml", "--backend", "exact", "-o", "-"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = text(&out.stdout);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    let out = sim_in(
        dir,
        &["report", "words.toml", "--backends", "exact", "-o", "-"],
    );
    let page = text(&out.stdout);
    assert!(page.starts_with("<!doctype html>"), "{page}");
    assert!(text(&out.stderr).contains("standard output: 1 scenarios"));
    std::fs::write(
        dir.join("room.toml"),
        "[[brush]]\nbox = { min = [-256, -256, -16], max = [256, 256, 0] }\n",
    )
    .unwrap();
    let out = sim_in(dir, &["compile", "room.toml", "-o", "-"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!out.stdout.is_empty() && text(&out.stderr).contains("nodes"));
    // No file named `-` anywhere.
    assert!(!dir.join("-").exists(), "a file named - was written");
}

#[test]
fn against_backend_chooses_the_trace_of_a_file_with_one_per_backend() {
    let tmp = scratch_dir();
    scratch(&tmp, "words.toml", SCENARIO);
    let dir = tmp.path();
    // Every backend that can run it (the sphere and the cylinder leave the onion out), one
    // trace each, in one file.
    let out = sim_in(dir, &["run", "words.toml", "--trace", "all.trace"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let plot = |extra: &[&str]| {
        let mut args = vec![
            "plot",
            "words.toml",
            "--against",
            "all.trace",
            "-o",
            "p.svg",
        ];
        args.extend_from_slice(extra);
        sim_in(dir, &args)
    };
    // Drawing every backend against a file of two: which one is the baseline must be said.
    let out = plot(&[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "all.trace: holds one trace per backend (exact, udop+exact, melax, melax-exact)"
        ) && stderr.contains("--against-backend"),
        "{stderr}"
    );
    // Named: that one, whatever is drawn.
    let out = plot(&["--backend", "exact", "--against-backend", "udop+exact"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("exact: within"));
    let out = plot(&["--against-backend", "exact"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // A backend the file does not hold: the error names those it holds.
    let out = plot(&["--against-backend", "onion"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "all.trace: holds the traces of exact, udop+exact, melax, melax-exact but not of onion"
        ),
        "{stderr}"
    );
}

#[test]
fn paths_in_messages_are_normalised_and_stay_relative() {
    let tmp = scratch_dir();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("scenarios/sub")).unwrap();
    std::fs::write(dir.join("scenarios/words.toml"), SCENARIO).unwrap();
    // A scenario with an error, reached through `sub/..`.
    std::fs::write(
        dir.join("scenarios/bad.toml"),
        SCENARIO.replace("steps = 64", "steps = -1"),
    )
    .unwrap();
    let out = sim_in(dir, &["run", "scenarios/sub/../bad.toml"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("error: scenarios/bad.toml:"), "{stderr}");
    assert!(!stderr.contains(".."), "{stderr}");
    // The report's snapshot paths: `scenarios/../snapshots/traces/...` reads
    // `snapshots/traces/...`.
    let out = sim_in(
        dir,
        &[
            "report",
            "./scenarios/sub/../words.toml",
            "--backends",
            "exact",
            "-o",
            "report.html",
        ],
    );
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(
        all.contains(
            "not compared: scenarios/words.toml on exact (no snapshots in snapshots/traces;"
        ),
        "{all}"
    );
    assert!(!all.contains("/../") && !all.contains("./"), "{all}");
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(page.contains("snapshots/traces/exact@words.toml.snap"));
    assert!(!page.contains("scenarios/../"), "the page keeps a ..");
}
