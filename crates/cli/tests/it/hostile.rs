//! Issue 17's failures, each reproduced as the fuzzer met it, through the `sim` binary: every one
//! must now be a located error (exit 2) or a defined, finite answer. The numbers are the issue's.

use crate::cli::{scratch, scratch_dir, sim};

const WALL: &str = r#"
[[brush]]
box = { min = [64, -512, -512], max = [80, 512, 512] }
"#;

const BOX: &str = "box:-16,-16,-24,16,16,32";

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs `sim` with `args` on `stdin`, which must refuse (exit 2); its standard error.
fn refused(args: &[&str], stdin: &str, what: &str) -> String {
    let out = sim(args, stdin);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{what}: {err}");
    err
}

/// A scenario with a floor, `agent` (TOML body of one `[[agent]]`) and `extra` top-level lines.
fn scenario(tmp: &tempfile::TempDir, name: &str, extra: &str, agent: &str) -> std::path::PathBuf {
    scratch(
        tmp,
        name,
        &format!(
            r#"name = "hostile"
time_step = 0.015625
steps = 64
{extra}
[poses]
stand = {{ box = {{ mins = [-16, -16, -24], maxs = [16, 16, 32] }} }}

[world]
[[world.brush]]
box = {{ min = [-512, -512, -16], max = [512, 512, 0] }}

[[agent]]
pose = "stand"
{agent}
"#
        ),
    )
}

/// 1 (and 4): a segment whose length overflows is refused where it is written, on every backend
/// (the onion panicked at `clamp(NaN)`, Melax answered hits at `null`).
#[test]
fn failure_1_and_4_overflowing_segments_are_located_errors_on_every_backend() {
    let tmp = scratch_dir();
    let world = scratch(&tmp, "hostile-wall.toml", WALL);
    for backend in ["exact", "onion", "melax", "melax-exact", "udop+exact"] {
        for (line, column, value) in [
            ("0 0 -1e308 0 0 1e308", 5, "-1e308"),
            ("1e300 0 0 -1e300 0 0", 1, "1e300"),
            ("0 0 0 1.7e308 1.7e308 1.7e308", 7, "1.7e308"),
        ] {
            let err = refused(
                &[
                    "trace",
                    world.to_str().unwrap(),
                    "--backend",
                    backend,
                    "--shape",
                    BOX,
                ],
                &format!("{line}\n"),
                &format!("{backend} {line:?}"),
            );
            assert!(
                err.contains(&format!("stdin:1:{column}: coordinate {value} "))
                    && err.contains("tolerance::WORLD_HALF_EXTENT"),
                "{backend} {line:?}: {err}"
            );
        }
        // Inside the domain, the longest segment is answered with finite numbers.
        let h = cspace_geom::tolerance::WORLD_HALF_EXTENT;
        let out = sim(
            &[
                "trace",
                world.to_str().unwrap(),
                "--backend",
                backend,
                "--shape",
                BOX,
            ],
            &format!("{} 0 0 {h} 0 0\n0 0 {} 0 0 {h}\n", -h, -h),
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{backend}: {}", stderr(&out));
        let answers: Vec<serde_json::Value> = stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(answers.len(), 2, "{backend}: {stdout}");
        for answer in &answers {
            let end = answer["end"].as_array().expect("end");
            let fraction = answer["fraction"].as_f64().expect("fraction");
            assert!(
                end.iter().all(|c| c.as_f64().is_some_and(f64::is_finite))
                    && (0.0..=1.0).contains(&fraction),
                "{backend}: {answer}"
            );
        }
    }
}

/// 1: a crowd whose spacing overflows its start positions is refused by `sim check`.
#[test]
fn failure_1_a_crowd_spaced_beyond_the_world_is_refused() {
    let tmp = scratch_dir();
    let path = scratch(
        &tmp,
        "hostile-crowd.toml",
        r#"name = "crowd"
time_step = 0.015625
steps = 8
[poses]
stand = { box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }
[world]
[[world.brush]]
box = { min = [-512, -512, -16], max = [512, 512, 0] }
[[crowd]]
pose = "stand"
origin = [0, 0, 24]
rows = 2
columns = 2
spacing = [1e308, 48]
"#,
    );
    let err = refused(&["check", path.to_str().unwrap()], "", "");
    assert!(err.contains("hostile-crowd.toml:"), "{err}");
    assert!(err.contains("tolerance::MAX_COORDINATE"), "{err}");
}

/// 2: shapes beyond the numeric domain are refused as arguments, as poses, before any sweep (the
/// exact reference panicked building the prism of a 1e300 cylinder).
#[test]
fn failure_2_huge_shapes_are_refused() {
    let tmp = scratch_dir();
    let world = scratch(&tmp, "hostile-wall-2.toml", WALL);
    for shape in ["cylinder:2e6,2e6", "cylinder:1e300,1e300", "sphere:1e300"] {
        let err = refused(
            &[
                "trace",
                world.to_str().unwrap(),
                "--backend",
                "exact",
                "--shape",
                shape,
            ],
            "0 0 0 1 0 0\n",
            shape,
        );
        assert!(err.contains("MAX_SHAPE_EXTENT"), "{shape}: {err}");
    }
    let path = scratch(
        &tmp,
        "hostile-pose.toml",
        r#"name = "big"
time_step = 0.015625
steps = 8
[poses]
huge = { cylinder = { radius = 1e300, half_height = 1e300 } }
[world]
[[world.brush]]
box = { min = [-512, -512, -16], max = [512, 512, 0] }
[[agent]]
pose = "huge"
start = [0, 0, 100]
"#,
    );
    for command in ["check", "run"] {
        let err = refused(&[command, path.to_str().unwrap()], "", command);
        assert!(err.contains("hostile-pose.toml:"), "{command}: {err}");
        assert!(err.contains("1e300"), "{command}: {err}");
    }
}

/// 3: `time_step = 1e300` hung the sub-stepping loop; it is refused where it is written.
#[test]
fn failure_3_an_enormous_time_step_is_refused() {
    let tmp = scratch_dir();
    let path = scenario(&tmp, "hostile-step.toml", "", "start = [0, 0, 24]");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("time_step = 0.015625", "time_step = 1e300");
    std::fs::write(&path, text).unwrap();
    for command in ["check", "run"] {
        let err = refused(&[command, path.to_str().unwrap()], "", command);
        assert!(
            err.contains("hostile-step.toml:2:13") && err.contains("time step 1e300"),
            "{command}: {err}"
        );
    }
}

/// 5: velocities and script speeds beyond the domain are refused; the fastest allowed velocity
/// gives finite states, and an agent thrown down at it ends on the floor, not above the world.
#[test]
fn failure_5_agent_states_stay_finite() {
    let tmp = scratch_dir();
    for (name, agent, value) in [
        (
            "hostile-v1.toml",
            "start = [0, 0, 24]\nvelocity = [0, 0, -1e300]",
            "-1e300",
        ),
        (
            "hostile-v2.toml",
            "start = [0, 0, 24]\nvelocity = [1e308, 0, 0]",
            "1e308",
        ),
    ] {
        let path = scenario(&tmp, name, "", agent);
        let err = refused(&["check", path.to_str().unwrap()], "", name);
        assert!(
            err.contains(value) && err.contains("MAX_SPEED"),
            "{name}: {err}"
        );
    }
    let max = cspace_geom::tolerance::MAX_SPEED;
    let path = scenario(
        &tmp,
        "hostile-fast.toml",
        "",
        &format!("start = [0, 0, 200]\nvelocity = [0, 0, {}]", -max),
    );
    let out = sim(&["run", path.to_str().unwrap(), "--json"], "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr(&out));
    let summary: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let runs = summary["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 5, "every backend runs boxes");
    for run in runs {
        let agent = &run["agents"][0];
        let distance = agent["distance"].as_f64().expect("a finite distance");
        let z = agent["position"][2].as_f64().expect("a finite position");
        assert!(
            (24.0..24.5).contains(&z) && distance.is_finite(),
            "{}: {agent}",
            run["backend"]
        );
    }
}

/// 6: an agent that falls out of the world is stopped and reported, and an expectation can say
/// whether it should; an agent placed far beyond the world is refused.
#[test]
fn failure_6_an_agent_that_leaves_the_world_is_reported() {
    let tmp = scratch_dir();
    // No floor under x = 2000: the agent falls 4096 units below the world in about 3.2 s.
    let body = "start = [2000, 0, 24]\n\n[[expect]]\nagent = 0\nleaves_world = ";
    let steps = "steps = 320";
    for (expect, code) in [("true", 0), ("false", 1)] {
        let path = scenario(&tmp, "hostile-fall.toml", "", &format!("{body}{expect}"));
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("steps = 64", steps);
        std::fs::write(&path, text).unwrap();
        let trace = path.with_extension("trace");
        let out = sim(
            &[
                "run",
                path.to_str().unwrap(),
                "--backend",
                "exact",
                "--trace",
                trace.to_str().unwrap(),
            ],
            "",
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{expect}: {stdout}{}",
            stderr(&out)
        );
        assert!(
            stdout.contains("agent 0 left the world at step"),
            "{stdout}"
        );
        let written = std::fs::read_to_string(&trace).unwrap();
        assert!(written.contains("left the world at"), "{written}");
    }
    let path = scenario(&tmp, "hostile-far.toml", "", "start = [1e12, 0, 24]");
    let err = refused(&["check", path.to_str().unwrap()], "", "");
    assert!(
        err.contains("hostile-far.toml:") && err.contains("coordinate 1e12 units"),
        "{err}"
    );
}

/// 7: `sim check` reads a `.map` as `sim map` does (text that is not UTF-8 is Latin-1, as Quake's
/// tools wrote it), locates a byte that is not UTF-8 in a scenario, and refuses 1e15-unit poses
/// itself (they passed and then failed in `sim run` naming no file).
#[test]
fn failure_7_check_locates_what_run_would_refuse() {
    let tmp = scratch_dir();
    let dir = tmp.path();
    let map = dir.join("latin1.map");
    let mut bytes = b"{\n\"classname\" \"worldspawn\"\n\"message\" \"caf".to_vec();
    bytes.extend_from_slice(&[0xe9, b'"', b'\n', b'}', b'\n']);
    std::fs::write(&map, bytes).unwrap();
    for command in ["check", "map"] {
        let out = sim(&[command, map.to_str().unwrap()], "");
        assert!(out.status.success(), "{command}: {}", stderr(&out));
    }
    let scenario = dir.join("latin1.toml");
    let mut bytes = b"# caf".to_vec();
    bytes.extend_from_slice(&[0xe9, b'\n']);
    bytes.extend_from_slice(b"name = \"latin1\"\n");
    std::fs::write(&scenario, bytes).unwrap();
    let err = refused(&["check", scenario.to_str().unwrap()], "", "");
    assert!(
        err.contains("latin1.toml:1:6") && err.contains("byte 0xe9 is not UTF-8"),
        "{err}"
    );

    let path = scratch(
        &tmp,
        "hostile-1e15.toml",
        r#"name = "far poses"
time_step = 0.015625
steps = 8
[poses]
stand = { box = { mins = [-1e15, -16, -24], maxs = [16, 16, 32] } }
[world]
[[world.brush]]
box = { min = [-512, -512, -16], max = [512, 512, 0] }
[[agent]]
pose = "stand"
start = [0, 0, 100]
"#,
    );
    let err = refused(&["check", path.to_str().unwrap()], "", "");
    assert!(
        err.contains("hostile-1e15.toml:5:9") && err.contains("-1e15 units"),
        "{err}"
    );
}

/// 11: a megabyte-long number on stdin is quoted shortened, not echoed whole.
#[test]
fn failure_11_a_huge_token_is_quoted_short() {
    let tmp = scratch_dir();
    let world = scratch(&tmp, "hostile-wall-11.toml", WALL);
    let number = "9".repeat(1 << 20);
    let out = sim(
        &[
            "trace",
            world.to_str().unwrap(),
            "--backend",
            "exact",
            "--shape",
            BOX,
        ],
        &format!("0 0 0 {number} 0 0\n"),
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{}", &err[..err.len().min(400)]);
    assert!(err.len() < 400, "an error of {} bytes", err.len());
    assert!(err.contains("stdin:1:7"), "{err}");
}
