//! What `sim report` shows a reviewer (issue 34, item 7), on a fixture written into a scratch
//! folder: a scenario, its snapshots on every backend, and the scenario changed. Backends whose
//! traces and diffs are the same are shown once, named together; the plots are shown at their own
//! size, so that no text in them is under 11 pixels on the page; diff lines wrap.

use super::cli::scratch_dir;
use super::words::sim_in;

/// A standing agent stopped by a low ceiling, a crouching one under it, and one that stands up
/// at 2 s (the change turns it instead).
const SCENARIO: &str = r#"
name = "low"
description = "pictures test"
time_step = 0.015625
steps = 192
sample_every = 8

[poses]
stand = { box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }
crouch = { box = { mins = [-16, -16, -24], maxs = [16, 16, 16] } }

[world]
[[world.brush]]
box = { min = [-512, -512, -16], max = [1024, 512, 0] }
[[world.brush]]
box = { min = [0, -300, 48], max = [256, 300, 128] }

[[agent]]
name = "stander"
pose = "stand"
crouch_pose = "crouch"
start = [-100, -200, 24.03125]
script = [{ at = 0, move = [1, 0] }]

[[agent]]
name = "croucher"
pose = "stand"
crouch_pose = "crouch"
start = [-100, 0, 24.03125]
script = [{ at = 0, crouch = true }, { at = 0, move = [1, 0] }, { at = 2, stand = true }]
"#;

/// The number after `name="` in `element`.
fn attribute(element: &str, name: &str) -> Option<f64> {
    let at = element.find(&format!("{name}=\""))? + name.len() + 2;
    element[at..at + element[at..].find('"')?].parse().ok()
}

#[test]
fn the_report_shows_identical_backends_once_at_a_readable_size() {
    let tmp = scratch_dir();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("snaps")).unwrap();
    std::fs::write(dir.join("low.toml"), SCENARIO).unwrap();
    let backends = ["exact", "udop+exact", "onion", "melax", "melax-exact"];
    for b in backends {
        let out = sim_in(dir, &["run", "low.toml", "--backend", b, "--trace", "-"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let snap = format!(
            "---\nsource: test\n---\n{}",
            String::from_utf8_lossy(&out.stdout)
        );
        std::fs::write(dir.join(format!("snaps/{b}@low.toml.snap")), snap).unwrap();
    }
    let changed = SCENARIO.replace("{ at = 2, stand = true }", "{ at = 1.5, move = [1, 0.4] }");
    assert_ne!(changed, SCENARIO);
    std::fs::write(dir.join("low.toml"), changed).unwrap();
    let out = sim_in(
        dir,
        &[
            "report",
            "low.toml",
            "--snapshots",
            "snaps",
            "-o",
            "report.html",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();

    // Five backends, one trace: one heading naming them together, one plot, one diff.
    let headings = page
        .split("<h3 class=\"bad\">")
        .skip(1)
        .filter(|h| h[..h.find("</h3>").unwrap()].contains("the trace differs from"))
        .count();
    assert_eq!(headings, 1, "grouped");
    assert!(
        page.contains("exact, udop+exact, onion, melax, melax-exact: the trace differs from"),
        "the group is named"
    );
    assert_eq!(page.matches("<pre class=\"diff\">").count(), 1);
    for b in backends {
        let id = format!("id=\"low-toml--{}\"", b.replace('+', "-"));
        assert!(page.contains(&id), "the link to {b} lands somewhere: {id}");
    }
    // Diff lines wrap instead of running off the right edge.
    assert!(page.contains("pre.diff { white-space: pre-wrap; overflow-wrap: anywhere; }"));

    // Every figure is shown at its own size, and every text in it is at least 11 pixels there.
    let figures: Vec<&str> = page.split("<svg class=\"figure\"").skip(1).collect();
    assert_eq!(figures.len(), 2, "the regression plot and the trajectories");
    for figure in figures {
        let svg = &figure[..figure.find("</svg>").unwrap()];
        let tag = &svg[..svg.find('>').unwrap()];
        let width = attribute(tag, "width").unwrap();
        let shown = tag
            .split("style=\"width: ")
            .nth(1)
            .and_then(|s| s.split("px").next())
            .and_then(|s| s.parse::<f64>().ok())
            .expect("a width in pixels");
        let scale = shown / width;
        let sizes: Vec<f64> = svg
            .split("<text ")
            .skip(1)
            .filter_map(|t| attribute(t, "font-size"))
            .collect();
        assert!(sizes.len() > 20, "{} texts", sizes.len());
        let least = sizes.iter().fold(f64::INFINITY, |m, &s| m.min(s)) * scale;
        assert!(least >= 11.0, "a text of {least} px on the page");
    }
}
