//! Hostile input is bounded (issue 35, items 5 to 8): counts are refused before anything is
//! allocated for them, every number a trace holds is checked against the numeric domain, names
//! never forge a line or choose a path, and `sim check` refuses what `sim run` would.

use std::path::{Path, PathBuf};

use super::cli::{scenario_path, scratch, scratch_dir, sim};

/// The exact trace of the fixture `drop.toml`, as `sim run` writes it.
fn drop_trace(dir: &Path) -> String {
    let path = dir.join("base.trace");
    let out = sim(
        &[
            "run",
            &scenario_path("drop.toml"),
            "--backend",
            "exact",
            "--trace",
            path.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success());
    std::fs::read_to_string(path).unwrap()
}

/// `sim plot drop.toml --against BASELINE`: its exit code and standard error.
fn plot_against(dir: &Path, baseline: &Path) -> (Option<i32>, String) {
    let out = sim(
        &[
            "plot",
            &scenario_path("drop.toml"),
            "--backend",
            "exact",
            "--against",
            baseline.to_str().unwrap(),
            "-o",
            dir.join("plot.svg").to_str().unwrap(),
        ],
        "",
    );
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A baseline whose header claims 2^32 agents was allocated for (an abort); one with a position
/// of 1e200 or inf made the plot's axes loop for ever. Both are refused where the file says so.
#[test]
fn a_baseline_beyond_the_domain_is_refused_where_it_says_so() {
    let tmp = scratch_dir();
    let trace = drop_trace(tmp.path());
    let agents_line = trace
        .lines()
        .position(|l| l.starts_with("agents "))
        .unwrap()
        + 1;
    let big = scratch(
        &tmp,
        "big.trace",
        &trace.replacen(
            &trace.lines().nth(agents_line - 1).unwrap().to_string(),
            "agents 4294967296",
            1,
        ),
    );
    let (code, stderr) = plot_against(tmp.path(), &big);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "big.trace:{agents_line}:8: 4294967296 agents; a run holds at most 1000000"
        )),
        "{stderr}"
    );
    for value in ["1e200", "1e308", "inf", "NaN"] {
        let line = trace
            .lines()
            .position(|l| l.contains(" position ("))
            .unwrap();
        let mut lines: Vec<String> = trace.lines().map(str::to_string).collect();
        let (head, tail) = lines[line].split_once("position (").unwrap();
        let (_, rest) = tail.split_once(',').unwrap();
        lines[line] = format!("{head}position ({value},{rest}");
        let file = scratch(&tmp, "far.trace", &(lines.join("\n") + "\n"));
        let (code, stderr) = plot_against(tmp.path(), &file);
        assert_eq!(code, Some(2), "{value}: {stderr}");
        assert!(
            stderr.contains(&format!("far.trace:{}:", line + 1))
                && (stderr.contains("beyond cspace's limit") || stderr.contains("not a finite")),
            "{value}: {stderr}"
        );
    }
}

/// A name is never a path: `sim plot` without `-o` names its file after the scenario's file, in
/// the working folder; and a name is one line of printable text.
#[test]
fn names_choose_no_path_and_forge_no_line() {
    let tmp = scratch_dir();
    let text = std::fs::read_to_string(scenario_path("drop.toml")).unwrap();
    let first_name = text.lines().find(|l| l.starts_with("name = ")).unwrap();
    let escaped = scratch(
        &tmp,
        "escaping.toml",
        &text.replacen(first_name, "name = \"../escaped-plot\"", 1),
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(["plot", escaped.to_str().unwrap(), "--backend", "exact"])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(tmp.path().join("escaping.svg").is_file());
    let parent: PathBuf = tmp.path().parent().unwrap().join("escaped-plot.svg");
    assert!(!parent.exists(), "the name chose where the plot went");

    let forged = scratch(
        &tmp,
        "forged.toml",
        &text.replacen(first_name, "name = \"drop\\nbackend onion\"", 1),
    );
    let out = sim(&["check", forged.to_str().unwrap()], "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("forged.toml:")
            && stderr.contains("holds the control character '\\n'; names are one line"),
        "{stderr}"
    );
}

/// 70 box poses: more than one onion tree holds. `sim check` says onion is left out and why,
/// `sim run` runs the other backends, and a scenario that asks for onion is refused where it
/// does.
#[test]
fn check_refuses_what_run_cannot_build_and_run_runs_the_rest() {
    let tmp = scratch_dir();
    let mut text =
        String::from("name = \"many poses\"\ntime_step = 0.015625\nsteps = 4\n[poses]\n");
    for i in 0..70 {
        text += &format!(
            "p{i} = {{ box = {{ mins = [-16, -16, -24], maxs = [16, 16, {}] }} }}\n",
            32.0 + f64::from(i) * 0.5
        );
    }
    text +=
        "[world]\n[[world.brush]]\nbox = { min = [-4096, -4096, -16], max = [4096, 4096, 0] }\n";
    for i in 0..70 {
        text += &format!(
            "[[agent]]\npose = \"p{i}\"\nstart = [{}, {}, 24.03125]\nscript = [{{ at = 0, move = [1, 0] }}]\n",
            (i % 10) * 80,
            (i / 10) * 80
        );
    }
    let file = scratch(&tmp, "poses.toml", &text);
    let out = sim(&["check", file.to_str().unwrap()], "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains(
            "backends exact, udop+exact, melax, melax-exact; not onion: 70 distinct boxes"
        ) && stdout.contains("one onion structure holds at most 64"),
        "{stdout}"
    );
    let out = sim(&["run", file.to_str().unwrap()], "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("verdict: ok: 0 expectation(s) met on 4 backends"),
        "{stdout}"
    );
    let asks = scratch(
        &tmp,
        "asks-onion.toml",
        &text.replacen(
            "steps = 4\n",
            "steps = 4\nbackends = [\"exact\", \"onion\"]\n",
            1,
        ),
    );
    let out = sim(&["check", asks.to_str().unwrap()], "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "asks-onion.toml:4:22: backends: onion cannot run this scenario: 70 distinct boxes"
        ),
        "{stderr}"
    );
}

/// A crowd's count is refused before anything is allocated for it.
#[test]
fn bench_refuses_a_crowd_beyond_the_agent_limit() {
    let out = sim(&["bench", "--agents", "1000000000"], "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("1000000000 agents; a crowd holds 1 to 1000000"),
        "{stderr}"
    );
}
