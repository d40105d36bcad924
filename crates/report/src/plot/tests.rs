//! The plot as its SVG says it: the glyphs, the pose marks, the labels, the crowds' colours, the
//! text sizes, and the same bytes for the same input.

use std::path::Path;

use cspace_scenario::{RunOptions, Scenario, run_scenario};
use cspace_sim::BackendKind;

use super::*;

/// A low tunnel with a standing agent stopped at its mouth, a croucher that passes, a riser
/// refused standing inside (the crouchers at one height, so the side view puts them on one
/// line), and one walking south (its arrows point down, where a crouch mark must not look
/// alike).
const TUNNEL: &str = r#"
name = "tunnel"
description = "plot test"
time_step = 0.015625
steps = 320
sample_every = 8

[poses]
stand = { box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }
crouch = { box = { mins = [-16, -16, -24], maxs = [16, 16, 16] } }

[world]
[[world.brush]]
box = { min = [-512, -512, -16], max = [1024, 512, 0] }
[[world.brush]]
box = { min = [0, -48, 48], max = [256, 48, 128] }
[[world.brush]]
box = { min = [0, 152, 48], max = [640, 248, 128] }

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
script = [{ at = 0, crouch = true }, { at = 0, move = [1, 0] }]

[[agent]]
name = "riser"
pose = "stand"
crouch_pose = "crouch"
start = [-100, 200, 24.03125]
script = [{ at = 0, crouch = true }, { at = 0, move = [1, 0] }, { at = 2, stand = true }]

[[agent]]
name = "south"
pose = "stand"
start = [-300, 400, 24.03125]
script = [{ at = 0, move = [0, -1] }]
"#;

fn scenario(text: &str) -> Scenario {
    Scenario::parse(Path::new("plot-test.toml"), text).expect("the test scenario is valid")
}

fn run(scenario: &Scenario, backend: BackendKind) -> Series {
    let outcome = run_scenario(scenario, backend, RunOptions::default()).expect("it runs");
    Series {
        label: backend.name().to_string(),
        record: outcome.record.as_written(),
    }
}

fn plot<'a>(scenario: &'a Scenario, runs: &'a [Series], baseline: Option<&'a Series>) -> Plot<'a> {
    Plot {
        world: &scenario.world.world,
        agent_names: &scenario.agent_names,
        runs,
        baseline,
        tolerance: scenario.tolerance,
        paths: &[],
        crowds: &scenario.crowds,
    }
}

/// Every element `<tag .../>` of `svg` whose attributes contain `has`.
fn elements<'s>(svg: &'s str, tag: &str, has: &str) -> Vec<&'s str> {
    let open = format!("<{tag} ");
    svg.match_indices(&open)
        .map(|(i, _)| &svg[i..i + svg[i..].find('>').unwrap_or(0) + 1])
        .filter(|e| e.contains(has))
        .collect()
}

/// The points of a `<polygon points="x,y x,y ...">`, relative to its first point.
fn shape(polygon: &str) -> Vec<(i32, i32)> {
    let start = polygon.find("points=\"").unwrap() + 8;
    let list = &polygon[start..start + polygon[start..].find('"').unwrap()];
    let points: Vec<(i32, i32)> = list
        .split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect();
    points
        .iter()
        .map(|p| (p.0 - points[0].0, p.1 - points[0].1))
        .collect()
}

/// The regression of the first divergence's mark: the views drew a red ring around a red
/// diamond (a red disc with white specks) where the legend showed a diamond alone. Now every red
/// polygon is the legend's diamond, and no red ring is drawn.
#[test]
fn the_first_divergence_is_the_legends_diamond_in_every_view() {
    let s = scenario(TUNNEL);
    let now = run(&s, BackendKind::Exact);
    let changed =
        scenario(&TUNNEL.replace("{ at = 2, stand = true }", "{ at = 1.5, move = [1, 0.4] }"));
    let then = Series {
        label: "baseline".to_string(),
        record: run(&changed, BackendKind::Exact).record,
    };
    let runs = [now];
    let svg = plot(&s, &runs, Some(&then)).svg().unwrap();
    let red = elements(&svg, "polygon", "fill=\"#D60000\"");
    // The legend's, the top view's and the side view's.
    assert_eq!(red.len(), 3, "{red:?}");
    let legend = shape(red[0]);
    assert_eq!(legend.len(), 4, "a diamond: {legend:?}");
    for r in &red {
        assert_eq!(shape(r), legend, "{r}");
    }
    assert!(elements(&svg, "circle", "#D60000").is_empty());
}

/// Crouching is drawn from the trace for scripted agents: the croucher and the riser get the
/// crouch mark (a squat box: a rect wider than tall in their colour) and ticks; the riser's
/// refused stand is marked; the stander gets none. The agent walking south gets arrowheads
/// (polygons), never a crouch mark.
#[test]
fn scripted_crouching_is_drawn_from_the_trace_with_its_own_glyph() {
    let s = scenario(TUNNEL);
    let runs = [run(&s, BackendKind::Exact)];
    let p = plot(&s, &runs, None);
    let svg = p.svg().unwrap();
    let palette = p.palette();
    let hex = |agent: usize| {
        let c = palette.colour(agent);
        format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
    };
    let squat = |agent: usize| {
        elements(&svg, "rect", &format!("stroke=\"{}\"", hex(agent)))
            .into_iter()
            .filter(|r| {
                let number = |name: &str| -> i32 {
                    let at = r.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                    r[at..at + r[at..].find('"').unwrap()].parse().unwrap()
                };
                number("width") > number("height")
            })
            .count()
    };
    // One crouch at the start, in each of the two views.
    assert_eq!(squat(1), 2, "croucher");
    assert_eq!(squat(2), 2, "riser");
    assert_eq!(squat(0), 0, "stander");
    assert_eq!(squat(3), 0, "south");
    // The refused stand: the riser's tall box with the red stroke across it, in the legend and
    // both views.
    let slashes = elements(&svg, "polyline", "stroke=\"#D60000\"");
    assert_eq!(slashes.len(), 3, "{slashes:?}");
    // The south walker's arrows are filled triangles in its colour.
    let arrows = elements(&svg, "polygon", &format!("fill=\"{}\"", hex(3)));
    assert!(arrows.len() >= 4, "{arrows:?}");
    assert!(arrows.iter().all(|a| shape(a).len() == 3));
}

/// In the side view the croucher and the riser are on one line: both colours show on it, in
/// alternating dashes, rather than the later one covering the earlier.
#[test]
fn agents_at_one_height_both_show_in_the_side_view() {
    let s = scenario(TUNNEL);
    let runs = [run(&s, BackendKind::Exact)];
    let p = plot(&s, &runs, None);
    let svg = p.svg().unwrap();
    let side = &svg[svg.find("side view").unwrap()..];
    let palette = p.palette();
    for agent in [1, 2] {
        let c = palette.colour(agent);
        let stroke = format!("stroke=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
        let dashes = elements(side, "polyline", &stroke).len();
        assert!(
            dashes > 10,
            "agent {agent}: {dashes} pieces in the side view"
        );
    }
}

/// A crowd of 72 (two of 36): a hue per crowd, shaded by id, named in the legend with its agent
/// range, and ids written at the starts.
#[test]
fn crowds_are_named_with_their_ranges_and_their_agents_by_id() {
    let text = r#"
name = "crowd"
description = "plot test"
time_step = 0.015625
steps = 64
sample_every = 16
[poses]
stand = { box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }
[world]
[[world.brush]]
box = { min = [-1024, -1024, -16], max = [1024, 1024, 0] }
[[crowd]]
pose = "stand"
origin = [-600, -200, 24.03125]
rows = 6
columns = 6
spacing = [48, 80]
script = [{ at = 0, move = [1, 0] }]
[[crowd]]
pose = "stand"
origin = [360, -180, 24.03125]
rows = 6
columns = 6
spacing = [48, 80]
script = [{ at = 0, move = [-1, 0] }]
"#;
    let s = scenario(text);
    let runs = [run(&s, BackendKind::Exact)];
    let p = plot(&s, &runs, None);
    let svg = p.svg().unwrap();
    assert!(svg.contains("crowd 1: agents 0-35"), "legend");
    assert!(svg.contains("crowd 2: agents 36-71"), "legend");
    let texts: Vec<&str> = svg
        .split("<text ")
        .skip(1)
        .map(|t| t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()].trim())
        .collect();
    for id in ["0", "35", "36", "71"] {
        assert!(texts.contains(&id), "agent {id} is named: {texts:?}");
    }
    let palette = p.palette();
    let colours: std::collections::BTreeSet<(u8, u8, u8)> = (0..72)
        .map(|a| {
            let c = palette.colour(a);
            (c.0, c.1, c.2)
        })
        .collect();
    assert_eq!(colours.len(), 72, "a colour per agent");
}

/// Every text of the plot is at least 11 pixels in the SVG (the HTML report shows plots at
/// their own size).
#[test]
fn no_text_is_smaller_than_11_pixels() {
    let s = scenario(TUNNEL);
    let runs = [run(&s, BackendKind::Exact)];
    let baseline = runs[0].clone();
    let svg = plot(&s, &runs, Some(&baseline)).svg().unwrap();
    let sizes: Vec<f64> = svg
        .match_indices("font-size=\"")
        .map(|(i, m)| {
            let rest = &svg[i + m.len()..];
            rest[..rest.find('"').unwrap()].parse().unwrap()
        })
        .collect();
    assert!(sizes.len() > 20);
    let least = sizes.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(least >= 11.0, "a text of {least} px");
}

/// Same input, same bytes: the SVG and the PNG written twice are identical.
#[test]
fn a_plot_is_the_same_bytes_every_time() {
    let s = scenario(TUNNEL);
    let runs = [run(&s, BackendKind::Exact)];
    let p = plot(&s, &runs, None);
    assert_eq!(p.svg().unwrap(), p.svg().unwrap());
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.png"), dir.path().join("b.png"));
    p.write(&a).unwrap();
    p.write(&b).unwrap();
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

/// A goto over a step: the planned path is drawn over its floors, the step where the floor
/// rises (a short amber piece, named `step`), not one amber line from the start to the goal.
#[test]
fn a_planned_path_follows_its_floors_and_names_its_step() {
    let text = r#"
name = "goto step"
description = "plot test"
time_step = 0.015625
steps = 256
sample_every = 8
[poses]
stand = { box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }
[world]
[[world.brush]]
box = { min = [-512, -256, -16], max = [512, 256, 0] }
[[world.brush]]
box = { min = [0, -256, 0], max = [512, 256, 16] }
[[agent]]
name = "goer"
pose = "stand"
start = [-300, 0, 24.03125]
script = [{ at = 0, goto = [300, 0, 40.03125] }]
"#;
    let s = scenario(text);
    let outcome = run_scenario(&s, BackendKind::Onion, RunOptions::default()).unwrap();
    assert!(!outcome.plans.is_empty(), "the goer plans a path");
    let runs = [Series {
        label: "onion".to_string(),
        record: outcome.record.as_written(),
    }];
    let p = Plot {
        paths: &outcome.plans,
        ..plot(&s, &runs, None)
    };
    let svg = p.svg().unwrap();
    let amber = elements(&svg, "polyline", "stroke=\"#C8A000\"");
    let legend = 1;
    assert!(amber.len() > legend, "no step piece drawn: {amber:?}");
    for piece in &amber[legend..] {
        let start = piece.find("points=\"").unwrap() + 8;
        let xs: Vec<i32> = piece[start..start + piece[start..].find('"').unwrap()]
            .split_whitespace()
            .map(|p| p.split_once(',').unwrap().0.parse().unwrap())
            .collect();
        let span = xs.iter().max().unwrap() - xs.iter().min().unwrap();
        assert!(span < 20, "a step piece {span} px long: {piece}");
    }
    let named = svg
        .split("<text ")
        .skip(1)
        .filter(|t| t.contains("fill=\"#C8A000\"") && t.contains(">\nstep\n</text>"))
        .count();
    assert!(named >= 1, "the step is named");
}
