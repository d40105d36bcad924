//! `sim report` as a reviewer meets it: the page of a deliberately changed scenario, rendered by
//! a real browser (headless Chromium) to a picture that is not blank, whose page names the failing
//! scenario on its first screen.
//!
//! Without Chromium the browser half says by name that it was skipped, unless
//! `CSPACE_REQUIRE_TOOLS` names `chromium` (`.ci/run` installs it and then does), when it fails.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::cli::{baseline, scratch_dir, sim};

/// The scenarios of the report's page, from the CLI tests' fixtures.
const SCENARIOS: [&str; 3] = ["tunnel.toml", "drop.toml", "stairs.toml"];

/// The backends the fixtures run on.
const BACKENDS: [&str; 5] = ["exact", "udop+exact", "onion", "melax", "melax-exact"];

/// Baselines of the fixtures, as they are, in `dir`; then a copy of them in `dir/scenarios` with
/// the tunnel's third agent turning at 1.5 s instead of standing up.
fn changed_scenarios(dir: &Path) -> Vec<PathBuf> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let snapshots = dir.join("snapshots/traces");
    std::fs::create_dir_all(&snapshots).unwrap();
    for name in SCENARIOS {
        for backend in BACKENDS {
            baseline(&snapshots, name, backend);
        }
    }
    let dir = dir.join("scenarios");
    std::fs::create_dir_all(&dir).unwrap();
    let mut paths = Vec::new();
    for name in SCENARIOS {
        let mut text = std::fs::read_to_string(source.join(name)).unwrap();
        if name == "tunnel.toml" {
            let changed = text.replace("{ at = 2, stand = true }", "{ at = 1.5, move = [1, 0.2] }");
            assert_ne!(changed, text, "the tunnel's riser stands up at 2 s");
            text = changed;
        }
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        paths.push(path);
    }
    paths
}

fn browser() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            let found = Command::new("which").arg(name).output().ok()?;
            found
                .status
                .success()
                .then(|| PathBuf::from(String::from_utf8_lossy(&found.stdout).trim()))
        })
}

#[test]
fn the_report_of_a_changed_scenario_says_what_failed_and_renders_in_a_browser() {
    let scratch = scratch_dir();
    let dir = scratch.path();
    let scenarios = changed_scenarios(dir);
    let page = dir.join("report.html");
    // Beside `scenarios/`, as in the project: found without `--snapshots`.
    let mut args: Vec<String> = vec!["report".into()];
    args.extend(scenarios.iter().map(|p| p.display().to_string()));
    args.extend(["-o".into(), page.display().to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = sim(&args, "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("FAILED tunnel.toml on exact: the trace differs from"),
        "{stdout}"
    );
    // The riser turns at 1.5 s, step 96: the trajectories part there or later, never before.
    let step: usize = stdout
        .split("first divergence at step ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no first divergence named:\n{stdout}"));
    assert!(step >= 96, "{stdout}");
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: nothing fetched from anywhere.
    for external in ["http://", "https://", "src=\"", "<link", "<script"] {
        let outside_svg: String = html.split("<svg").next().unwrap_or_default().to_string();
        assert!(
            !outside_svg.contains(external),
            "the page refers to {external}"
        );
    }
    // The first screen lists the failure; unchanged scenarios are not failures.
    let failed = &html[html.find("id=\"failed\"").unwrap()..html.find("id=\"overview\"").unwrap()];
    assert!(
        failed.contains("tunnel.toml") && !failed.contains("drop.toml"),
        "{failed}"
    );
    assert!(html.contains("<pre class=\"diff\">") && html.contains("<svg class=\"figure\""));

    let Some(chromium) = browser() else {
        let required = std::env::var("CSPACE_REQUIRE_TOOLS").unwrap_or_default();
        assert!(
            !required.split_whitespace().any(|t| t == "chromium"),
            "Chromium is not installed (apt-get install chromium)"
        );
        let _ = writeln!(
            std::io::stderr().lock(),
            "skipped: the browser half of the_report_of_a_changed_scenario_says_what_failed_and_renders_in_a_browser (no Chromium)"
        );
        return;
    };
    let shot = dir.join("report.png");
    let headless = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--window-size=1400,1000",
    ];
    let profile = format!("--user-data-dir={}", dir.join("profile").display());
    let url = format!("file://{}", page.display());
    let run = |extra: &str| {
        Command::new(&chromium)
            .args(headless)
            .arg(&profile)
            .arg(extra)
            .arg(&url)
            .output()
            .expect("chromium starts")
    };
    let out = run(&format!("--screenshot={}", shot.display()));
    assert!(
        shot.is_file(),
        "no screenshot: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The picture is not blank: a good share of its pixels are not the background.
    let decoder = png::Decoder::new(std::fs::File::open(&shot).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut pixels).unwrap();
    let channels = info.color_type.samples();
    let inked = pixels[..info.buffer_size()]
        .chunks(channels)
        .filter(|p| p.iter().take(3).any(|&c| c < 200))
        .count();
    let total = (info.width * info.height) as usize;
    assert!(
        inked * 50 > total,
        "the screenshot is nearly blank: {inked} of {total} pixels inked"
    );
    // What the browser made of the page: its first screen names the failing scenario.
    let dom = String::from_utf8(run("--dump-dom").stdout).unwrap();
    let title = &dom[dom.find("<h1>").unwrap()..dom.find("</h1>").unwrap()];
    assert!(title.contains("failure(s) in 3 scenarios"), "{title}");
    let first = &dom[dom.find("id=\"failed\"").unwrap()..];
    assert!(first[..first.find("</section>").unwrap()].contains("tunnel.toml"));
}

/// A scenario that reads the map corpus is skipped by name when `CSPACE_MAPS` is unset, as the
/// tests that need the corpus are, and is not a failure; with the variable set to a folder
/// without the map it does not run, and that is a failure.
#[test]
fn a_corpus_scenario_is_skipped_by_name_without_cspace_maps() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let scratch = scratch_dir();
    let tmp = scratch.path();
    let out = tmp.join("report.html");
    let args = |out: &Path| {
        vec![
            "report".to_string(),
            dir.join("e1m1_walk.toml").display().to_string(),
            dir.join("tunnel.toml").display().to_string(),
            "-o".to_string(),
            out.display().to_string(),
        ]
    };
    let run = |env: Option<&Path>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_sim"));
        command.args(args(&out));
        match env {
            None => command.env_remove("CSPACE_MAPS"),
            Some(p) => command.env("CSPACE_MAPS", p),
        };
        command.output().expect("sim runs")
    };
    let unset = run(None);
    let stdout = String::from_utf8_lossy(&unset.stdout);
    assert_eq!(unset.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("skipped: ")
            && stdout.contains("e1m1_walk.toml (it reads the map corpus and CSPACE_MAPS is unset; from the repository root: CSPACE_MAPS=../shared/maps)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("2 scenarios, nothing failed, 1 skipped"),
        "{stdout}"
    );
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(
        page.contains("Skipped, not failed: e1m1_walk.toml"),
        "{page}"
    );

    let empty = tmp.join("no-maps");
    std::fs::create_dir_all(&empty).unwrap();
    let missing = run(Some(&empty));
    let stdout = String::from_utf8_lossy(&missing.stdout);
    assert_eq!(missing.status.code(), Some(2), "{stdout}");
    assert!(
        stdout.contains("FAILED e1m1_walk.toml does not run"),
        "{stdout}"
    );
}

/// A scenario outside a project has no snapshots beside it: its traces are not compared, which
/// is said and is not a failure. Naming a folder (`--snapshots DIR`) compares them: a missing
/// snapshot there fails, and baselines made with `sim run --trace` match.
#[test]
fn a_scenario_without_snapshots_is_not_compared_unless_a_folder_is_named() {
    let scratch = scratch_dir();
    let dir = scratch.path();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/drop.toml");
    let scenario = dir.join("drop.toml");
    std::fs::copy(&fixture, &scenario).unwrap();
    let page = dir.join("report.html");
    let report = |extra: &[&str]| {
        let mut args = vec![
            "report",
            scenario.to_str().unwrap(),
            "--backends",
            "exact,onion",
            "-o",
            page.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        sim(&args, "")
    };

    let out = report(&[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("not compared: ")
            && stdout.contains("drop.toml on exact, onion (no snapshots in ")
            && stdout.contains("1 scenarios, nothing failed"),
        "{stdout}"
    );
    assert!(!stdout.contains("FAILED"), "{stdout}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("exact, onion: not compared"),
        "the page says so"
    );

    let snapshots = dir.join("baselines");
    std::fs::create_dir_all(&snapshots).unwrap();
    let out = report(&["--snapshots", snapshots.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("FAILED drop.toml on exact: no snapshot yet"),
        "{stdout}"
    );

    for backend in ["exact", "onion"] {
        baseline(&snapshots, "drop.toml", backend);
    }
    let out = report(&["--snapshots", snapshots.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("nothing failed") && !stdout.contains("not compared"),
        "{stdout}"
    );
}
