//! The `sim` binary, run as a user runs it.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `sim` with `args`, feeding `stdin`.
pub fn sim(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sim starts");
    // `sim` may refuse its arguments and exit before it reads standard input.
    match child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(stdin.as_bytes())
    {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.expect("stdin written"),
    }
    child.wait_with_output().expect("sim finishes")
}

/// A scratch folder of the test's own, removed with everything in it when the test ends
/// (dropped), failed or not.
pub fn scratch_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("cspace-test-")
        .tempdir()
        .expect("a scratch folder")
}

/// A scratch file with `text` in the test's scratch folder.
pub fn scratch(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const WALL: &str = r#"
# A wall 16 units thick at x = 64.
[[brush]]
box = { min = [64, -512, -512], max = [80, 512, 512] }
"#;

#[test]
fn trace_answers_one_json_line_per_segment() {
    let tmp = scratch_dir();
    let world = scratch(&tmp, "wall.toml", WALL);
    let out = sim(
        &[
            "trace",
            world.to_str().unwrap(),
            "--backend",
            "exact",
            "--shape",
            "box:-16,-16,-24,16,16,32",
        ],
        "0 0 0 100 0 0\n# a comment\n\n0 0 0 -100 0 0\n",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["normal"], serde_json::json!([-1.0, 0.0, 0.0]));
    assert_eq!(lines[0]["brush"], 0);
    assert_eq!(lines[0]["end"][0].as_f64().unwrap(), 48.0 - 1.0 / 32.0);
    assert_eq!(lines[0]["start_solid"], false);
    assert_eq!(lines[1]["fraction"], 1.0);
    assert!(
        lines[1]["normal"].is_null() && lines[1]["point"].is_null() && lines[1]["brush"].is_null()
    );
}

#[test]
fn bad_input_is_a_one_line_error_with_exit_code_2() {
    let tmp = scratch_dir();
    let world = scratch(&tmp, "wall2.toml", WALL);
    let w = world.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str, &str)> = vec![
        (
            vec!["trace", w, "--shape", "sphere:8"],
            "0 0 0 1 1\n",
            "stdin:1:1: expected 6 numbers",
        ),
        (
            vec!["trace", w, "--shape", "cone:1"],
            "",
            "unknown shape \"cone\"",
        ),
        (
            vec!["trace", "/no/such/world.toml", "--shape", "point"],
            "",
            "cannot read the world",
        ),
        (
            vec!["trace", w, "--shape", "point", "--skin=-1"],
            "",
            "--skin must be",
        ),
        (
            vec!["trace", w, "--shape", "point", "--tree", "/no/such.onion"],
            "",
            "--tree is for the onion backend, not exact",
        ),
        (
            vec![
                "trace",
                w,
                "--shape",
                "point",
                "--backend",
                "onion",
                "--tree",
                "/no/such.onion",
            ],
            "",
            "/no/such.onion: cannot read",
        ),
        (
            vec!["trace", w, "--shape", "point", "--bevel", "paper"],
            "",
            "--bevel and --bevel-angle are for the melax backends, not exact",
        ),
        (
            vec![
                "trace",
                w,
                "--shape",
                "sphere:8",
                "--backend",
                "melax",
                "--bevel",
                "exact",
                "--bevel-angle",
                "95",
            ],
            "",
            "--bevel-angle applies to paper bevels only",
        ),
        (
            vec![
                "trace",
                w,
                "--shape",
                "sphere:8",
                "--backend",
                "melax",
                "--bevel-angle",
                "180",
            ],
            "",
            "--bevel-angle must be between 0 and 180 degrees, got 180",
        ),
        (
            vec!["trace", w, "--shape", "sphere:8", "--backend", "onion"],
            "",
            "the onion backend cannot trace sphere",
        ),
        (
            vec!["compile", w, "--pose", "stand=1,2,3"],
            "",
            "pose 'stand=1,2,3': 3 numbers, not 6",
        ),
        (
            vec!["bench", "--agents", "4", "--steps", "1", "--grid-cell", "0"],
            "",
            "--grid-cell: grid_cell: must be >= 1, got 0",
        ),
        (
            vec!["bench", "--agents", "0"],
            "",
            "invalid value '0' for '--agents <AGENTS>': 0 agents; a crowd holds 1 to 1000000",
        ),
        (
            vec!["bench", "--steps", "0"],
            "",
            "--agents, --steps and --runs must be positive",
        ),
        (
            vec!["bench", "--agents", "4", "--runs", "0"],
            "",
            "--agents, --steps and --runs must be positive",
        ),
        (
            vec!["trace", w, "--shape", "point", "--verify"],
            "",
            "--tree <TREE>",
        ),
        (
            vec!["compile", w, "--fill-outside"],
            "",
            "--fill-outside needs spawn points",
        ),
        (
            vec!["compile", "/no/such/world.toml"],
            "",
            "cannot read the world",
        ),
    ];
    for (args, stdin, expected) in cases {
        let out = sim(&args, stdin);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(expected),
            "{args:?}: expected {expected:?} in {stderr}"
        );
    }
    // clap's own errors (unknown backend) also exit with 2.
    let out = sim(&["trace", w, "--shape", "point", "--backend", "nope"], "");
    assert_eq!(out.status.code(), Some(2));
}

/// `sim trace` output for `segments`, as parsed JSON lines.
fn trace_json(args: &[&str], segments: &str) -> Vec<serde_json::Value> {
    let out = sim(args, segments);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn trace_verifies_a_saved_tree_and_refuses_an_edited_one() {
    let tmp = scratch_dir();
    let world = scratch(&tmp, "wall-verify.toml", WALL);
    let w = world.to_str().unwrap();
    let saved = world.with_file_name("wall-verify.onion");
    let out = sim(&["compile", w, "-o", saved.to_str().unwrap()], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let box_stand = "box:-16,-16,-24,16,16,32";
    let segments = "0 0 0 100 0 0\n72 0 0 72 50 0\n";
    let trace = |tree: &PathBuf, verify: bool| {
        let mut args = vec!["trace", w, "--backend", "onion", "--shape", box_stand];
        args.extend(["--tree", tree.to_str().unwrap()]);
        if verify {
            args.push("--verify");
        }
        sim(&args, segments)
    };
    // A good tree: verified, one note, the same answers.
    let out = trace(&saved, true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("wall-verify.onion: verified: "), "{stderr}");
    assert!(
        stderr.contains(" leaves, ") && stderr.contains(" points, "),
        "{stderr}"
    );
    assert_eq!(out.stdout, trace(&saved, false).stdout);
    // A solid leaf made empty, the checksum recomputed: it loads, and --verify refuses it.
    let mut bytes = std::fs::read(&saved).unwrap();
    let tree = cspace_onion::OnionTree::from_bytes(&bytes).unwrap();
    let solid = (0..tree.leaf_count() as u32)
        .find(|&l| tree.leaf_mask(l) == 0b11)
        .unwrap();
    let n = bytes.len();
    let at = n - 8 - 8 * (tree.leaf_count() - solid as usize);
    bytes[at..at + 8].copy_from_slice(&0u64.to_le_bytes());
    let sum = cspace_onion::fnv1a64(&bytes[..n - 8]);
    bytes[n - 8..].copy_from_slice(&sum.to_le_bytes());
    let edited = saved.with_file_name("wall-edited.onion");
    std::fs::write(&edited, &bytes).unwrap();
    assert!(trace(&edited, false).status.success());
    let out = trace(&edited, true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    for part in [
        "wall-edited.onion does not verify against ",
        &format!("leaf {solid}: pose stand (space 0) at ["),
        "the tree says empty, the world says solid",
    ] {
        assert!(stderr.contains(part), "{part:?} in {stderr}");
    }
}

#[test]
fn compile_prints_tree_statistics_and_saves_a_tree_that_traces_like_the_exact_backend() {
    let tmp = scratch_dir();
    let world = scratch(&tmp, "wall-compile.toml", WALL);
    let w = world.to_str().unwrap();
    let saved = world.with_file_name("wall.onion");
    let out = sim(
        &[
            "compile",
            w,
            "--pose",
            "stand=-16,-16,-24,16,16,32",
            "--pose",
            "crouch=-16,-16,-24,16,16,16",
            "-o",
            saved.to_str().unwrap(),
            "--json",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["spaces"], 2);
    assert_eq!(stats["poses"][1]["name"], "crouch");
    for key in ["nodes", "leaves", "depth_max"] {
        assert!(stats[key].as_u64().unwrap() > 0, "{key}: {stats}");
    }
    assert!(stats["compile_seconds"].as_f64().unwrap() >= 0.0);
    // The saved tree answers as the exact backend: a hit on the wall, a miss away from it, and a
    // start inside it.
    let segments = "0 0 0 100 0 0\n0 0 0 -100 0 0\n72 0 0 72 50 0\n";
    let box_stand = "box:-16,-16,-24,16,16,32";
    let exact = trace_json(&["trace", w, "--shape", box_stand], segments);
    let from_file = trace_json(
        &[
            "trace",
            w,
            "--backend",
            "onion",
            "--tree",
            saved.to_str().unwrap(),
            "--shape",
            box_stand,
        ],
        segments,
    );
    let compiled_here = trace_json(
        &["trace", w, "--backend", "onion", "--shape", box_stand],
        segments,
    );
    assert_eq!(exact, from_file);
    assert_eq!(exact, compiled_here);
    assert_eq!(exact[0]["brush"], 0);
    assert_eq!(exact[2]["start_solid"], true);
    // A pose the file does not hold is refused, naming the ones it has.
    let out = sim(
        &[
            "trace",
            w,
            "--backend",
            "onion",
            "--tree",
            saved.to_str().unwrap(),
            "--shape",
            "box:-8,-8,-8,8,8,8",
        ],
        "",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("stand=-16,-16,-24,16,16,32 crouch=-16,-16,-24,16,16,16"),
        "{stderr}"
    );
    // A damaged file is an error, never a wrong tree.
    let bytes = std::fs::read(&saved).unwrap();
    let damaged = saved.with_file_name("damaged.onion");
    std::fs::write(&damaged, &bytes[..bytes.len() - 3]).unwrap();
    let out = sim(
        &[
            "trace",
            w,
            "--backend",
            "onion",
            "--tree",
            damaged.to_str().unwrap(),
            "--shape",
            box_stand,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a usable onion tree"));
    // A tree is refused for any other world, naming both files.
    let other = scratch(
        &tmp,
        "wall-moved.toml",
        &WALL.replace("[64, -512, -512]", "[65, -512, -512]"),
    );
    let out = sim(
        &[
            "trace",
            other.to_str().unwrap(),
            "--backend",
            "onion",
            "--tree",
            saved.to_str().unwrap(),
            "--shape",
            box_stand,
        ],
        "",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("the tree was compiled from another world"),
        "{stderr}"
    );
    assert!(stderr.contains("wall.onion and "), "{stderr}");
    // Without --json: a text summary.
    let out = sim(&["compile", w], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("2 spaces, "), "{text}");
}

/// `--runs 3`: each crowd and backend three times; the rate reported is the median of the three,
/// listed slowest first.
#[test]
fn bench_reports_the_median_of_its_runs() {
    let rows = bench_json(&[
        "--agents",
        "4",
        "--steps",
        "2",
        "--backends",
        "exact",
        "--runs",
        "3",
    ]);
    assert_eq!(rows.len(), 1);
    let runs: Vec<f64> = rows[0]["runs_agent_steps_per_second"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(runs.len(), 3);
    assert!(runs.is_sorted(), "{runs:?}");
    assert_eq!(rows[0]["agent_steps_per_second"].as_f64().unwrap(), runs[1]);
    // Every run ended on the same state, which the row names.
    let end = rows[0]["end_state"].as_str().unwrap();
    assert_eq!(end.len(), 16, "{end}");
    assert!(u64::from_str_radix(end, 16).is_ok(), "{end}");
    let ends = rows[0]["runs_end_state"].as_array().unwrap();
    assert_eq!(ends.len(), 3);
    assert!(ends.iter().all(|e| e == end), "{ends:?}");
    // The text table names the runs and the spread.
    let out = sim(
        &[
            "bench",
            "--agents",
            "4",
            "--steps",
            "1",
            "--backends",
            "exact",
            "--runs",
            "2",
            "--threads",
            "1,2",
        ],
        "",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "| threads | agents | steps | runs | agent steps/s (median) | slowest - fastest |"
        ),
        "{text}"
    );
    assert!(
        text.contains("| groups per step | outside groups | end state |"),
        "{text}"
    );
    // A row per thread count, ending on the same state.
    let end_of = |threads: &str| {
        let row = text
            .lines()
            .find(|l| l.starts_with(&format!("| open world | exact | {threads} | 4 | 1 | 2 | ")))
            .unwrap_or_else(|| panic!("no row for {threads} threads: {text}"));
        row.split('|').nth(13).unwrap().trim().to_string()
    };
    assert_eq!(end_of("1").len(), 16, "{text}");
    assert_eq!(end_of("1"), end_of("2"), "{text}");
}

/// `sim bench ARGS --json`, which must succeed, as its rows.
fn bench_json(args: &[&str]) -> Vec<serde_json::Value> {
    let args: Vec<&str> = ["bench"]
        .iter()
        .chain(args)
        .chain(&["--json"])
        .copied()
        .collect();
    let out = sim(&args, "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn bench_times_a_small_crowd_per_backend_with_the_grid_asked_for() {
    let rows = bench_json(&[
        "--agents",
        "8",
        "--steps",
        "2",
        "--backends",
        "exact,onion",
        "--grid-cell",
        "128",
    ]);
    let backends: Vec<_> = rows
        .iter()
        .map(|r| r["backend"].as_str().unwrap())
        .collect();
    assert_eq!(backends, ["exact", "onion"]);
    for row in &rows {
        assert_eq!(row["agents"], 8);
        assert!(
            row["agent_steps_per_second"].as_f64().unwrap() > 0.0,
            "{row}"
        );
        assert!(
            row["agent_candidates_per_trace"].as_f64().unwrap() >= 0.0,
            "{row}"
        );
    }
}

#[test]
fn compile_fills_the_outside_of_golodetz_figure_1() {
    // Our rooms.map: two rooms and a corridor, sealed, with spawn points. Filled from them, each
    // pose keeps exactly the three empty leaves of Figure 1 (room, corridor, room).
    let map = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/rooms.map");
    let out = sim(&["compile", map, "--fill-outside", "--json"], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let empty: Vec<_> = stats["leaf_patterns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["pattern"] == "EE")
        .collect();
    assert_eq!(empty.len(), 1, "{stats}");
    assert_eq!(empty[0]["leaves"], 3, "{stats}");
    for pose in stats["poses"].as_array().unwrap() {
        assert!(
            pose["outside_fill"]
                .as_str()
                .unwrap()
                .starts_with("filled "),
            "{stats}"
        );
    }
}

#[test]
fn melax_traces_any_shape_with_either_bevel_rule() {
    let tmp = scratch_dir();
    let world = scratch(&tmp, "wall-melax.toml", WALL);
    let w = world.to_str().unwrap();
    let segments = "0 0 0 100 0 0\n";
    for (backend, extra) in [
        ("melax", vec![]),
        ("melax", vec!["--bevel-angle", "95"]),
        ("melax", vec!["--bevel", "exact"]),
        ("melax-exact", vec![]),
    ] {
        for shape in ["sphere:8", "cylinder:16,28", "box:-16,-16,-24,16,16,32"] {
            let mut args = vec!["trace", w, "--backend", backend, "--shape", shape];
            args.extend(&extra);
            let hit = &trace_json(&args, segments)[0];
            let exact = &trace_json(&["trace", w, "--shape", shape], segments)[0];
            // Head-on into a flat wall every bevel rule is exact.
            assert_eq!(
                hit["normal"],
                serde_json::json!([-1.0, 0.0, 0.0]),
                "{args:?}"
            );
            let (a, b) = (
                hit["end"][0].as_f64().unwrap(),
                exact["end"][0].as_f64().unwrap(),
            );
            assert!((a - b).abs() < 1e-9, "{args:?}: {a} vs {b}");
        }
    }
}

#[test]
fn malformed_toml_worlds_name_file_line_and_column() {
    let tmp = scratch_dir();
    let cases = [
        (
            "[[brush]]\nbox = { min = [0, 0, 0], max = [1, 1] }\n",
            ":2:",
            "expected",
        ),
        (
            "[[brush]]\nbox = { min = [0, 0, 0], max = [1, 1, 1] }\nplanes = []\n",
            ":1:1:",
            "either `box` or `planes`",
        ),
        (
            "[[brush]]\nbox = { min = [0, 0, 0], max = [1, 1, 0] }\n",
            ":2:",
            "must exceed min",
        ),
        (
            "[[brush]]\nbox = { min = [0, 0, nan], max = [1, 1, 1] }\n",
            ":2:",
            "non-finite",
        ),
        (
            "[[brush]]\nplanes = [ { normal = [1, 0, 0], dist = 1 }, { normal = [-1, 0, 0], dist = 1 }, { normal = [0, 1, 0], dist = 1 }, { normal = [0, -1, 0], dist = 1 } ]\n",
            ":1:1:",
            "brush 0: brush is open",
        ),
        (
            "[[brush]]\nplanes = [ { normal = [0, 0, 0], dist = 1 } ]\n",
            ":2:",
            "plane 0: plane normal is zero (or too short to give a direction)",
        ),
        (
            "[[brush]]\nbox = { min = [0, 0, 0], max = [1, 1, 1] }\ncolour = 3\n",
            ":3:1:",
            "unknown field `colour`",
        ),
        ("# nothing\n", ":1:1:", "world has no brushes"),
        ("map = \"missing.map\"\n", ":1:7:", "cannot read"),
    ];
    for (i, (text, location, message)) in cases.into_iter().enumerate() {
        let world = scratch(&tmp, &format!("bad{i}.toml"), text);
        let out = sim(&["trace", world.to_str().unwrap(), "--shape", "point"], "");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "case {i}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "case {i}: one line: {stderr}");
        let expected_prefix = format!("error: {}{location}", world.display());
        assert!(
            stderr.starts_with(&expected_prefix),
            "case {i}: expected {expected_prefix:?} in {stderr}"
        );
        assert!(
            stderr.contains(message),
            "case {i}: expected {message:?} in {stderr}"
        );
    }
}

/// The map corpus directory, when `CSPACE_MAPS` is set (a set but unreadable path fails).
pub fn corpus(test: &str) -> Option<PathBuf> {
    let dir = cspace_corpus::dir(test)?;
    assert!(
        dir.join("SOURCES.md").is_file(),
        "CSPACE_MAPS={} is set but holds no SOURCES.md",
        dir.display()
    );
    Some(dir)
}

/// The brush totals of the corpus table in SOURCES.md: (file, total brushes, patches).
fn sources_table(dir: &std::path::Path) -> Vec<(String, usize, usize)> {
    let text = std::fs::read_to_string(dir.join("SOURCES.md")).unwrap();
    let mut rows = Vec::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | `file.map` | tier | repo | path | license | format | brushes total / ws / axial | patches | ...
        if cells.len() > 9 && cells[1].starts_with('`') && cells[1].ends_with(".map`") {
            let file = cells[1].trim_matches('`').to_string();
            let total = cells[7]
                .split('/')
                .next()
                .unwrap()
                .trim()
                .replace(',', "")
                .parse()
                .unwrap();
            let patches = cells[8].replace(',', "").parse().unwrap();
            rows.push((file, total, patches));
        }
    }
    rows
}

#[test]
fn sim_map_counts_match_the_corpus_table() {
    let Some(dir) = corpus("sim_map_counts_match_the_corpus_table") else {
        return;
    };
    let rows = sources_table(&dir);
    assert_eq!(rows.len(), 17, "the table lists 17 maps");
    for (file, total, patches) in rows {
        let out = sim(&["map", dir.join(&file).to_str().unwrap(), "--json"], "");
        assert!(
            out.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["brushes"]["total"], total, "{file}");
        let p = &report["patches"];
        assert_eq!(p["total"], patches, "{file}");
        let fates =
            ["solid", "clip", "non_solid", "dropped", "invalid"].map(|k| p[k].as_u64().unwrap());
        assert_eq!(
            fates.iter().sum::<u64>(),
            patches as u64,
            "{file}: every patch accounted for"
        );
        let listed = p["collidable_patches"].as_array().unwrap().len()
            + p["skipped"].as_array().unwrap().len();
        assert_eq!(listed, patches, "{file}: every patch listed");
        let (bound, measured) = (
            p["error_bound"].as_f64().unwrap(),
            p["measured_error"].as_f64().unwrap(),
        );
        assert!(
            measured <= bound && bound <= cspace_geom::tolerance::PATCH_ERROR,
            "{file}: measured {measured} within the bound {bound}, within the default"
        );
        let b = &report["brushes"];
        assert_eq!(
            b["in_world"].as_u64().unwrap(),
            ["solid", "clip"]
                .map(|k| b[k].as_u64().unwrap())
                .iter()
                .sum::<u64>()
                + p["facets"].as_u64().unwrap(),
            "{file}: the world holds the solid and clip brushes and the facets"
        );
        let parts =
            ["solid", "clip", "non_solid", "dropped", "invalid"].map(|k| b[k].as_u64().unwrap());
        assert_eq!(
            parts.iter().sum::<u64>(),
            total as u64,
            "{file}: every brush accounted for"
        );
        eprintln!("{file}: {b}");
    }
}

#[test]
fn sim_map_reports_our_own_map_and_refuses_broken_ones() {
    let tmp = scratch_dir();
    let rooms = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/rooms.map");
    let out = sim(&["map", rooms, "--json"], "");
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["brushes"]["solid"], 9);
    assert_eq!(report["spawn_points"].as_array().unwrap().len(), 2);
    assert_eq!(
        report["bounds"]["min"],
        serde_json::json!([-16.0, -16.0, -16.0])
    );
    // An entity missing its opening brace (as in DeepMind Lab's nav_maze_random_goal_02.map).
    let broken = scratch(
        &tmp,
        "broken.map",
        "{\n\"classname\" \"worldspawn\"\n}\n\"classname\" \"info_player_start\"\n}\n",
    );
    let out = sim(&["map", broken.to_str().unwrap()], "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("broken.map:4:1:") && stderr.contains("expected '{'"),
        "{stderr}"
    );
}

/// A `patchDef2` of `rows x columns` control points over a 32-unit lattice at height `z`,
/// with its middle points raised by 48 units (a bump).
fn patch_text(shader: &str, rows: usize, columns: usize, z: f64) -> String {
    let mut text = format!("patchDef2\n{{\n{shader}\n( {rows} {columns} 0 0 0 )\n(\n");
    for r in 0..rows {
        text.push('(');
        for c in 0..columns {
            let bump = if r % 2 == 1 && c % 2 == 1 { 48.0 } else { 0.0 };
            text.push_str(&format!(" ( {} {} {} 0 0 )", 32 * r, 32 * c, z + bump));
        }
        text.push_str(" )\n");
    }
    text.push_str(")\n}\n");
    text
}

#[test]
fn sim_map_reports_what_became_of_each_patch() {
    let tmp = scratch_dir();
    // A collidable bump, a non-solid one, and one whose grid is 4 x 3 (even: no patch).
    let map = format!(
        "{{\n\"classname\" \"worldspawn\"\n{{\n{}}}\n{{\n{}}}\n{{\n{}}}\n}}\n",
        patch_text("common/caulk", 5, 3, 0.0),
        patch_text("textures/x/pipe_nonsolid", 3, 3, 128.0),
        patch_text("common/caulk", 4, 3, 256.0),
    );
    let path = scratch(&tmp, "patches.map", &map);
    let out = sim(&["map", path.to_str().unwrap()], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "patches: 3 in all; 1 collidable (1 solid, 0 clip) as 64 facets; 1 non-solid, \
             0 dropped markers, 1 invalid"
        ),
        "{text}"
    );
    assert!(text.contains("tessellation: facets within "), "{text}");
    assert!(
        text.contains(
            "patches.map:17: entity 0 patch 1 (textures/x/pipe_nonsolid, 3 x 3): non-solid shader"
        ),
        "{text}"
    );
    assert!(
        text.contains("patches.map:33:3: entity 0 patch 2 (common/caulk, 4 x 3): invalid, skipped: patch is 4 x 3"),
        "{text}"
    );
    let out = sim(&["map", path.to_str().unwrap(), "--json"], "");
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let p = &report["patches"];
    assert_eq!(p["total"], 3);
    assert_eq!(p["collidable"], 1);
    assert_eq!(p["facets"], 64);
    assert_eq!(report["brushes"]["in_world"], 64);
    let collidable = &p["collidable_patches"][0];
    assert_eq!(collidable["facets"], 64);
    let (bound, measured) = (
        p["error_bound"].as_f64().unwrap(),
        p["measured_error"].as_f64().unwrap(),
    );
    assert!(
        0.0 < measured && measured <= bound && bound <= cspace_geom::tolerance::PATCH_ERROR,
        "measured {measured}, bound {bound}"
    );
    assert_eq!(collidable["measured_error"].as_f64().unwrap(), measured);
    let skipped = p["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 2);
    assert_eq!(skipped[0]["fate"], "non_solid");
    assert_eq!(skipped[0]["reason"], "non-solid shader");
    assert_eq!(skipped[1]["fate"], "invalid");
    let at = skipped[1]["source"].as_str().unwrap();
    assert!(at.ends_with("patches.map:33:3"), "{at}");
}

/// A baseline of the fixture `scenario` on `backend`, written by `sim run --trace` into `dir`
/// under the snapshot's name (`exact@drop.toml.snap`): a snapshot is the trace.
pub fn baseline(dir: &std::path::Path, scenario: &str, backend: &str) -> PathBuf {
    let path = dir.join(format!("{backend}@{scenario}.snap"));
    let out = sim(
        &[
            "run",
            &scenario_path(scenario),
            "--backend",
            backend,
            "--trace",
            path.to_str().unwrap(),
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    path
}

/// A scenario of the CLI tests' own fixtures (`crates/cli/tests/fixtures`, see its README).
pub fn scenario_path(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn sim_run_summarises_writes_the_trace_and_exits_1_on_a_failed_expectation() {
    let tmp = scratch_dir();
    let trace = tmp.path().join("tunnel.trace");
    let out = sim(
        &[
            "run",
            &scenario_path("tunnel.toml"),
            "--backend",
            "exact",
            "--trace",
            trace.to_str().unwrap(),
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("| stander |") && stdout.contains("ok     agent riser stays crouched"),
        "{stdout}"
    );
    let written = std::fs::read_to_string(&trace).unwrap();
    assert!(written.starts_with("cspace trace 1\nscenario tunnel\nbackend exact\n"));
    // One backend: no verdict line.
    assert!(!stdout.contains("verdict:"), "{stdout}");

    // JSON summary.
    let out = sim(&["run", &scenario_path("drop.toml"), "--json"], "");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["runs"][0]["agents"][0]["on_ground"], true);
    assert_eq!(json["passed"], true);
    assert!(json["verdict"].as_str().unwrap().starts_with("verdict: ok"));

    // A failed expectation: exit code 1, and the verdict names it.
    let text = std::fs::read_to_string(scenario_path("drop.toml"))
        .unwrap()
        .replace("by = 1.3", "by = 0.5");
    let failing = scratch(&tmp, "drop-too-soon.toml", &text);
    let out = sim(&["run", failing.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("FAILED agent past the edge reaches"));
    let verdict = stdout.lines().last().unwrap();
    assert!(
        verdict.starts_with("verdict: FAILED: ") && verdict.contains("drop-too-soon.toml:"),
        "{verdict}"
    );
}

/// A ledge a sphere rolls off, where plane shifting (Melax Figure 1) holds the sphere up past
/// the edge: melax and exact differ by far more than the scenario's tolerance, and say why.
const LEDGE_WITH_A_DECLARED_DIFFERENCE: &str = r#"
name = "ledge"
time_step = 0.015625
steps = 96
backends = ["exact", "udop+exact", "melax", "melax-exact"]
tolerance = 0.001
[[expected_difference]]
between = ["melax", "melax-exact"]
and = ["exact", "udop+exact"]
tolerance = 32.0
reason = "plane shifting rounds no edges"
[poses]
ball = { sphere = 16 }
[world]
[[world.brush]]
box = { min = [-512, -512, -16], max = [1024, 512, 0] }
[[world.brush]]
box = { min = [400, 128, 0], max = [1024, 512, 64] }
[[agent]]
name = "ball"
pose = "ball"
start = [500, 300, 80.03125]
script = [{ at = 0, move = [-1, 0] }]
"#;

/// The verdict line says which backends differ by declaration, by how much, and why, rather
/// than that every backend agrees within the scenario's tolerance.
#[test]
fn the_verdict_states_declared_differences_as_such() {
    let tmp = scratch_dir();
    let scenario = scratch(&tmp, "ledge.toml", LEDGE_WITH_A_DECLARED_DIFFERENCE);
    let out = sim(&["run", scenario.to_str().unwrap()], "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let verdict = stdout.lines().last().unwrap();
    assert!(
        verdict.contains("the backends agree within 0.001 units, except melax, melax-exact against exact, udop+exact (up to ")
            && verdict.contains("agent ball), declared: plane shifting rounds no edges"),
        "{verdict}"
    );
}

/// The README's main job: `sim run scenarios/tunnel.toml --trace tunnel.trace` writes
/// `tunnel.trace` (the trace of every backend, one after another) and ends with one verdict.
#[test]
fn sim_run_on_every_backend_writes_one_trace_file_and_a_verdict() {
    let tmp = scratch_dir();
    let trace = tmp.path().join("all.trace");
    let out = sim(
        &[
            "run",
            &scenario_path("tunnel.toml"),
            "--trace",
            trace.to_str().unwrap(),
        ],
        "",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let traces =
        cspace_scenario::trace::parse_all(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    let backends: Vec<&str> = traces
        .iter()
        .map(|t| t.record.header.backend.as_str())
        .collect();
    assert_eq!(
        backends,
        ["exact", "udop+exact", "onion", "melax", "melax-exact"]
    );
    let verdict = stdout.lines().last().unwrap();
    assert!(
        verdict.starts_with("verdict: ok: 3 expectation(s) met on 5 backends")
            && verdict.contains("the backends agree"),
        "{verdict}"
    );
    // `sim plot --against` picks the trace of the backend it draws from such a file.
    let png = tmp.path().join("all.png");
    let out = sim(
        &[
            "plot",
            &scenario_path("tunnel.toml"),
            "--backend",
            "onion",
            "--against",
            trace.to_str().unwrap(),
            "-o",
            png.to_str().unwrap(),
        ],
        "",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("onion: within 0.001 units of the baseline"),
        "{stderr}"
    );
}

#[test]
fn sim_compare_counts_the_backends_it_compares() {
    let out = sim(&["compare", &scenario_path("tunnel.toml")], "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.starts_with("tunnel: 5 backends compared"),
        "{stdout}"
    );
    let out = sim(
        &[
            "compare",
            &scenario_path("tunnel.toml"),
            "--backends",
            "exact,onion",
        ],
        "",
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("tunnel: 2 backends compared"));
}

/// A relative `CSPACE_MAPS` is a path from the folder the command was typed in (the shell's
/// `PWD`), whatever the folder the program runs in (cargo runs tests in their package's folder)
/// and wherever the scenario lies.
#[test]
fn a_relative_cspace_maps_is_relative_to_where_the_command_was_typed() {
    let tmp = scratch_dir();
    let typed_in = tmp.path().join("typed-in");
    let maps = typed_in.join("shared/maps");
    std::fs::create_dir_all(&maps).unwrap();
    std::fs::copy(scenario_path("rooms.map"), maps.join("rooms.map")).unwrap();
    let text = std::fs::read_to_string(scenario_path("rooms.toml")).unwrap();
    assert!(
        text.contains("map = \"rooms.map\""),
        "rooms.toml names its map"
    );
    let scenario = scratch(
        &tmp,
        "rooms-from-corpus.toml",
        &text.replace("map = \"rooms.map\"", "map = \"${CSPACE_MAPS}/rooms.map\""),
    );
    let run = |pwd: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_sim"))
            .args(["check", scenario.to_str().unwrap()])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("PWD", pwd)
            .env("CSPACE_MAPS", "shared/maps")
            .output()
            .unwrap()
    };
    let out = run(&typed_in);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Typed elsewhere: the same relative value names another folder, and the error says which.
    let out = run(tmp.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let expected = tmp.path().join("shared/maps/rooms.map");
    assert!(stderr.contains(&expected.display().to_string()), "{stderr}");
}

#[test]
fn sim_plot_draws_against_a_snapshot_and_refuses_unknown_formats() {
    let tmp = scratch_dir();
    let svg = tmp.path().join("drop.svg");
    let snapshot = baseline(tmp.path(), "drop.toml", "exact");
    let snapshot = snapshot.to_str().unwrap();
    let out = sim(
        &[
            "plot",
            &scenario_path("drop.toml"),
            "--against",
            snapshot,
            "-o",
            svg.to_str().unwrap(),
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("exact: within 0.001 units of the baseline at every sample"),
        "{stderr}"
    );
    let drawing = std::fs::read_to_string(&svg).unwrap();
    assert!(
        drawing.starts_with("<svg")
            && drawing.contains("top view")
            && drawing.contains("side view")
    );

    // A changed constant parts the trajectories: the plot says where.
    let text = std::fs::read_to_string(scenario_path("drop.toml"))
        .unwrap()
        .replace("[poses]", "[params]\ngravity = 600\n\n[poses]");
    let changed = scratch(&tmp, "drop-lighter.toml", &text);
    let out = sim(
        &[
            "plot",
            changed.to_str().unwrap(),
            "--against",
            snapshot,
            "-o",
            svg.to_str().unwrap(),
        ],
        "",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("the first at step"), "{stderr}");
    assert!(
        std::fs::read_to_string(&svg)
            .unwrap()
            .contains("first divergence at step")
    );

    // A baseline of another scenario is refused, naming both.
    let stairs = baseline(tmp.path(), "stairs.toml", "exact");
    let out = sim(
        &[
            "plot",
            &scenario_path("drop.toml"),
            "--against",
            stairs.to_str().unwrap(),
            "-o",
            svg.to_str().unwrap(),
        ],
        "",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "exact@stairs.toml.snap:2:10: this is a trace of scenario \"stairs\", not of \"drop\""
        ),
        "{stderr}"
    );

    let out = sim(&["plot", &scenario_path("drop.toml"), "-o", "plot.txt"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("must be a .svg or .png file"));
    let bad_baseline = scratch(&tmp, "not-a-trace.txt", "hello\n");
    let out = sim(
        &[
            "plot",
            &scenario_path("drop.toml"),
            "--against",
            bad_baseline.to_str().unwrap(),
            "-o",
            svg.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not-a-trace.txt:1:1: "),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn sim_check_validates_scenarios_worlds_and_maps() {
    let tmp = scratch_dir();
    let out = sim(
        &[
            "check",
            &scenario_path("tunnel.toml"),
            &scenario_path("rooms.map"),
            &scenario_path("rooms.toml"),
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 3);
    let bad = scratch(
        &tmp,
        "bad-scenario.toml",
        "name = \"x\"\ntime_step = 0\nsteps = 1\n[world]\n[[agent]]\npose = \"p\"\nstart = [0, 0, 0]\n",
    );
    let out = sim(
        &[
            "check",
            &scenario_path("tunnel.toml"),
            bad.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).contains("ok "));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("bad-scenario.toml:2:13: time_step must be positive")
    );
}

/// `sim ... | head -1`: a reader that closes standard output early ends the command quietly with
/// exit code 0, in every subcommand (println! used to panic with exit code 101).
#[test]
fn a_closed_standard_output_ends_every_command_quietly() {
    let tmp = scratch_dir();
    let world = scratch(&tmp, "wall-closed.toml", WALL);
    let w = world.to_str().unwrap();
    let plot = tmp.path().join("closed.svg");
    let report = tmp.path().join("closed.html");
    let tunnel = scenario_path("tunnel.toml");
    let rooms = scenario_path("rooms.map");
    let commands: Vec<Vec<&str>> = vec![
        vec!["run", &tunnel, "--backend", "exact"],
        vec!["compare", &tunnel],
        vec!["check", &tunnel, w],
        vec!["map", &rooms],
        vec!["compile", w, "--json"],
        vec![
            "bench",
            "--agents",
            "4",
            "--steps",
            "2",
            "--backends",
            "exact",
        ],
        vec!["trace", w, "--shape", "point"],
        vec![
            "plot",
            &tunnel,
            "--backend",
            "exact",
            "-o",
            plot.to_str().unwrap(),
        ],
        vec!["report", &tunnel, "-o", report.to_str().unwrap()],
        vec!["nav", &rooms, "--json"],
        vec!["path", &rooms, "--from", "128,128,24", "--to", "512,128,24"],
        vec!["los", w],
        vec!["sweep", &tunnel, "--backends", "exact", "--seeds", "0..2"],
    ];
    for args in commands {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sim"))
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before anything is written.
        drop(child.stdout.take());
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all("0 0 0 100 0 0\n".repeat(1000).as_bytes());
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// `sim run --verify`: every agent position checked by the exact reference after every step. A
/// clean run says how many it checked; an agent left in solid (started deep inside a brush, too
/// deep for the emergency search) fails the run with the step, agent and position.
#[test]
fn run_verify_checks_every_position_and_fails_on_one_in_solid() {
    let tmp = scratch_dir();
    let clean = sim(&["run", &scenario_path("drop.toml"), "--verify"], "");
    let stdout = String::from_utf8_lossy(&clean.stdout);
    assert!(clean.status.success(), "{stdout}");
    assert!(
        stdout.contains(
            "verify: 258 agent positions checked with the exact reference's point query, 0 in solid"
        ) && stdout.contains("0 agent positions in solid (verified)"),
        "{stdout}"
    );
    let buried = scratch(
        &tmp,
        "buried.toml",
        r#"name = "buried"
time_step = 0.015625
steps = 4
[poses]
stand = { box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }
[world]
[[world.brush]]
box = { min = [-4096, -4096, -4096], max = [4096, 4096, 4096] }
[[agent]]
pose = "stand"
start = [0, 0, 0]
allow_start_in_solid = true
"#,
    );
    for backend in ["exact", "onion"] {
        let out = sim(
            &[
                "run",
                buried.to_str().unwrap(),
                "--backend",
                backend,
                "--verify",
                "--json",
            ],
            "",
        );
        assert_eq!(out.status.code(), Some(1), "{backend}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let guard = &json["runs"][0]["verification"];
        assert_eq!(guard["checked"], 5, "{backend}: {guard}");
        assert_eq!(guard["in_solid"], 5, "{backend}: {guard}");
        assert_eq!(guard["first"][0]["step"], 0, "{backend}: {guard}");
        assert_eq!(
            guard["first"][0]["position"],
            serde_json::json!([0.0, 0.0, 0.0])
        );
        let text = sim(
            &[
                "run",
                buried.to_str().unwrap(),
                "--backend",
                backend,
                "--verify",
            ],
            "",
        );
        let stdout = String::from_utf8_lossy(&text.stdout);
        assert!(
            stdout.contains("IN SOLID step 4: agent 0 (stand) in solid at (0, 0, 0)"),
            "{backend}: {stdout}"
        );
    }
}

/// `sim bench --threads 0` is refused, naming the option.
#[test]
fn bench_refuses_zero_threads() {
    let out = sim(
        &["bench", "--agents", "2", "--steps", "1", "--threads", "2,0"],
        "",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--threads: thread counts must be positive"),
        "{stderr}"
    );
}
