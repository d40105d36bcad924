//! `sim nav`, `sim path` and `sim los` on the obstacle course (`scenarios/obstacle_course.map`: a
//! low tunnel, a step, a gap to jump and a drop), as a user runs them, and every way they refuse
//! their input.

use serde_json::Value;

use crate::cli::{scratch, scratch_dir, sim};

fn course() -> String {
    format!(
        "{}/tests/fixtures/obstacle_course.map",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn stdout_of(args: &[&str], stdin: &str, code: i32) -> String {
    let out = sim(args, stdin);
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json_of(args: &[&str], code: i32) -> Value {
    serde_json::from_str(&stdout_of(args, "", code)).unwrap()
}

#[test]
fn sim_nav_counts_areas_and_links_of_every_kind_per_pose() {
    let course = course();
    let stats = json_of(&["nav", &course, "--json"], 0);
    let poses = stats["poses"].as_array().unwrap();
    assert_eq!(poses.len(), 2, "{stats}");
    assert_eq!(poses[0]["name"], "stand");
    assert_eq!(poses[1]["name"], "crouch");
    let links = |p: usize, kind: &str| poses[p]["links"][kind].as_u64().unwrap();
    for kind in ["walk", "step", "drop", "jump", "crouch"] {
        assert!(links(0, kind) > 0, "no {kind} link standing: {stats}");
    }
    assert!(links(1, "stand") > 0, "no stand-up link: {stats}");
    let total: u64 = ["walk", "step", "drop", "jump", "crouch", "stand"]
        .iter()
        .map(|k| links(0, k))
        .sum();
    assert_eq!(poses[0]["links_total"].as_u64().unwrap(), total);
    // Crouching keeps only what standing does not cover (the tunnel) and its neighbours.
    assert!(poses[1]["areas"].as_u64() < poses[1]["areas_found"].as_u64());
    assert!(stats["line_of_sight_nodes"].as_u64().unwrap() > 0);
    assert!(stats["build_seconds"].as_f64().unwrap() >= 0.0);
    assert!(stats["compile_seconds"].as_f64().unwrap() >= 0.0);

    // Standing alone: one pose, and no pose change.
    let standing = json_of(&["nav", &course, "--pose", "stand", "--json"], 0);
    assert_eq!(standing["poses"].as_array().unwrap().len(), 1);
    assert_eq!(standing["poses"][0]["links"]["crouch"], 0);

    // The text says the same in lines, one per pose.
    let text = stdout_of(&["nav", &course], "", 0);
    assert!(text.starts_with("stand: "), "{text}");
    assert!(text.contains("\ncrouch: "), "{text}");
    assert!(text.contains(" jump "), "{text}");
    assert!(text.contains("components; line of sight: "), "{text}");

    // The outside filled from the spawn points (the course is open above: the flood leaks and
    // the tree is kept as it is, so the counts are the same).
    let filled = json_of(&["nav", &course, "--fill-outside", "--json"], 0);
    assert_eq!(filled["poses"][0]["areas"], stats["poses"][0]["areas"]);
}

#[test]
fn sim_path_lists_waypoints_with_their_link_kinds() {
    let course = course();
    let (start, goal) = ("-960,0,24", "960,64,-40");
    let path = json_of(
        &["path", &course, "--from", start, "--to", goal, "--json"],
        0,
    );
    assert_eq!(path["reachable"], true);
    assert_eq!(path["pose"], "stand");
    let waypoints = path["waypoints"].as_array().unwrap();
    let kinds: Vec<&str> = waypoints
        .iter()
        .map(|w| w["kind"].as_str().unwrap())
        .collect();
    for kind in ["crouch", "stand", "step", "jump", "drop"] {
        assert!(kinds.contains(&kind), "no {kind} in {kinds:?}");
    }
    // Crouching from the crouch to the stand-up, standing elsewhere.
    let crouch = kinds.iter().position(|k| *k == "crouch").unwrap();
    let stand = kinds.iter().position(|k| *k == "stand").unwrap();
    for (i, w) in waypoints.iter().enumerate() {
        let expected = if (crouch..stand).contains(&i) {
            "crouch"
        } else {
            "stand"
        };
        assert_eq!(w["pose"], expected, "waypoint {i}: {w}");
    }
    let last = &waypoints[waypoints.len() - 1]["position"];
    assert_eq!(
        (last[0].as_f64(), last[1].as_f64()),
        (Some(960.0), Some(64.0))
    );
    assert!((last[2].as_f64().unwrap() - (-40.0 + 1.0 / 32.0)).abs() < 1e-9);
    // At least the straight distance, and the estimate counts the slow crouch.
    let length = path["length"].as_f64().unwrap();
    assert!((1920.0..2100.0).contains(&length), "{length}");
    assert!(path["cost"].as_f64().unwrap() > length / 320.0);

    // The text: a summary, then a line per waypoint.
    let text = stdout_of(&["path", &course, "--from", start, "--to", goal], "", 0);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("path from (-960, 0, 24) to (960, 64, -40) for pose stand: "));
    assert_eq!(lines.len(), 1 + waypoints.len(), "{text}");
    assert!(lines.iter().any(|l| l.contains(" jump ")), "{text}");

    // Starting crouched: the path begins in the crouching pose and stands up where it can.
    let crouched = json_of(
        &[
            "path", &course, "--from", start, "--to", goal, "--pose", "crouch", "--json",
        ],
        0,
    );
    assert_eq!(crouched["pose"], "crouch");
    assert_eq!(crouched["waypoints"][0]["pose"], "crouch");

    // The drop is one way: back up is unreachable, exit 1.
    let back = json_of(
        &["path", &course, "--from", goal, "--to", start, "--json"],
        1,
    );
    assert_eq!(back["reachable"], false);
    assert!(back.get("waypoints").is_none());
    let text = stdout_of(&["path", &course, "--from", goal, "--to", start], "", 1);
    assert_eq!(
        text,
        "unreachable: no path from (960, 64, -40) to (-960, 0, 24) for pose stand\n"
    );
}

#[test]
fn sim_los_answers_one_json_line_per_segment() {
    let course = course();
    let segments = "\
# along the start hall, over the floor
-960 0 8 -800 0 8
# through the tunnel's roof
-900 0 100 -500 0 100

# across the gap, above the floors
100 0 40 300 0 40
# into the floor of the lower hall
600 0 -40 600 0 -80
# grazing the floor's top face at the sight cube's half side (1/32): touching is free
-1000 0 0.03125 -300 0 0.03125
# on the face itself: the sight cube (half side 1/32) is in the floor
-1000 0 0 -300 0 0
";
    let out = stdout_of(&["los", &course], segments, 0);
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let visible: Vec<bool> = answers
        .iter()
        .map(|a| a["visible"].as_bool().unwrap())
        .collect();
    assert_eq!(visible, [true, false, true, false, true, false], "{out}");
}

#[test]
fn nav_path_and_los_refuse_bad_input_with_a_located_error_and_exit_code_2() {
    let tmp = scratch_dir();
    let course = course();
    let c = course.as_str();
    let flat = scratch(
        &tmp,
        "nav-flat.toml",
        "[[brush]]\nbox = { min = [-512, -512, -16], max = [512, 512, 0] }\n",
    );
    let f = flat.to_str().unwrap();
    let broken = scratch(
        &tmp,
        "nav-broken.toml",
        "[[brush]]\nbox = { min = [0, 0, 0], max = [0, 1, 1] }\n",
    );
    let b = broken.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str, String)> = vec![
        (
            vec!["nav", "/no/such/world.toml"],
            "",
            "cannot read the world".into(),
        ),
        (
            vec!["nav", b],
            "",
            "nav-broken.toml:2:32: brush 0: box max [0, 1, 1] must exceed min".into(),
        ),
        (
            vec!["nav", c, "--pose", "stand", "--pose", "stand"],
            "",
            "--pose stand is given twice".into(),
        ),
        (
            vec!["nav", c, "--pose", "crouch", "--pose", "stand"],
            "",
            "pose stand does not fit inside the primary pose crouch".into(),
        ),
        (
            vec!["nav", f, "--fill-outside"],
            "",
            "--fill-outside needs spawn points".into(),
        ),
        (
            vec!["nav", c, "--pose", "lying"],
            "",
            "invalid value 'lying' for '--pose".into(),
        ),
        (
            vec!["path", c, "--from", "-960,0,0", "--to", "960,0,-40"],
            "",
            format!("{c}: --from -960,0,0: start [-960, 0, 0] is inside solid for pose stand"),
        ),
        (
            vec!["path", c, "--from", "-960,0,24", "--to", "170,0,40"],
            "",
            format!(
                "{c}: --to 170,0,40: goal [170, 0, 40] has no walkable floor below it for pose stand"
            ),
        ),
        (
            vec!["path", c, "--from", "-960,0", "--to", "960,0,-40"],
            "",
            "point \"-960,0\": expected X,Y,Z (3 numbers), got 2".into(),
        ),
        (
            vec!["path", c, "--from", "-960,zero,24", "--to", "960,0,-40"],
            "",
            "\"zero\" is not a number in point".into(),
        ),
        (
            vec!["path", c, "--from", "1e9,0,24", "--to", "960,0,-40"],
            "",
            "tolerance::MAX_COORDINATE".into(),
        ),
        (
            vec!["path", c, "--from", "-960,0,24"],
            "",
            "--to <TO>".into(),
        ),
        (
            vec![
                "path",
                "/no/such/world.map",
                "--from",
                "0,0,0",
                "--to",
                "1,1,1",
            ],
            "",
            "cannot read the world".into(),
        ),
        (
            vec!["los", c],
            "-960 0 8 -800 0 8\n-960 0 8 -800 x 8\n",
            "stdin:2:15: \"x\" is not a number".into(),
        ),
        (
            vec!["los", c],
            "# six numbers a line\n1 2 3 4 5\n",
            "stdin:2:1: expected 6 numbers (x0 y0 z0 x1 y1 z1), found 5".into(),
        ),
        (
            vec!["los", c],
            "0 0 0 3e6 0 0\n",
            "stdin:1:7: coordinate 3000000 units is beyond cspace's limit".into(),
        ),
        (
            vec!["los", c],
            "0 0 0 inf 0 0\n",
            "stdin:1:7: \"inf\" is not finite".into(),
        ),
        (
            vec!["los", "/no/such/world.toml"],
            "",
            "cannot read the world".into(),
        ),
    ];
    for (args, stdin, expected) in cases {
        let out = sim(&args, stdin);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&expected),
            "{args:?}: expected {expected:?} in {stderr}"
        );
        // One line, but for clap's own refusals of an argument (which add a hint).
        if !stderr.contains("For more information") {
            assert_eq!(stderr.lines().count(), 1, "{args:?}: one line: {stderr}");
        }
    }
    // The answers before a malformed line are written.
    let out = sim(&["los", c], "-960 0 8 -800 0 8\n-960 0 8 -800 x 8\n");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "{\"visible\":true}\n");
}

/// The obstacle course as a scenario with one goto agent whose script says `rest`
/// (its later events).
fn course_scenario(rest: &str) -> cspace_scenario::Scenario {
    let text = format!(
        r#"name = "course"
time_step = 0.015625
steps = 640
[poses]
stand = {{ box = {{ mins = [-16, -16, -24], maxs = [16, 16, 32] }} }}
crouch = {{ box = {{ mins = [-16, -16, -24], maxs = [16, 16, 16] }} }}
[world]
map = "obstacle_course.map"
[[agent]]
pose = "stand"
crouch_pose = "crouch"
spawn = 0
script = [{{ at = 0, goto = {{ spawn = 1 }} }}{rest}]
"#
    );
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    cspace_scenario::Scenario::parse(&dir.join("course.toml"), &text).unwrap()
}

fn events(outcome: &cspace_scenario::RunOutcome) -> Vec<String> {
    outcome
        .trace()
        .lines()
        .skip_while(|l| *l != "events")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn a_goto_plans_once_follows_its_path_and_arrives() {
    use cspace_scenario::{RunOptions, run_scenario};
    use cspace_sim::BackendKind;
    let outcome = run_scenario(
        &course_scenario(""),
        BackendKind::Exact,
        RunOptions::default(),
    )
    .unwrap();
    let events = events(&outcome);
    assert!(
        events[0].contains("agent 0 planned a path to (960.000, 64.000, -40.000): 10 waypoints"),
        "{events:?}"
    );
    assert!(
        events.iter().any(|e| e.contains("arrived at")),
        "{events:?}"
    );
    assert!(
        !events.iter().any(|e| e.contains("replanned")),
        "{events:?}"
    );
    // The plan is kept for plots: the waypoints with their kinds.
    assert_eq!(outcome.plans.len(), 1);
    let kinds: Vec<&str> = outcome.plans[0]
        .waypoints
        .iter()
        .map(|w| w.kind.name())
        .collect();
    assert_eq!(
        kinds,
        [
            "walk", "walk", "crouch", "walk", "stand", "step", "jump", "walk", "drop", "walk"
        ]
    );
    let end = outcome.record.finals[0].state.position;
    assert!(
        (end.truncate() - cspace_geom::DVec3::new(960.0, 64.0, 0.0).truncate()).length() < 8.0,
        "{end}"
    );
}

#[test]
fn a_goto_jumps_onto_ledges_up_to_the_apex_plus_an_air_step() {
    use cspace_scenario::{RunOptions, run_scenario};
    use cspace_sim::BackendKind;
    // The apex is 45.6 units; the movement model steps 18 more in the air once the jump stops
    // rising, and the planner plans ledges up to 61.6 (a 2-unit margin): found missing by the
    // brute-force search (`nav_brute_force`), which climbed a 48-unit ledge of E1M1 and a
    // 56-unit one of E3M5.
    for (height, arrives) in [
        (32.0, true),
        (48.0, true),
        (56.0, true),
        (61.0, true),
        (62.0, false),
    ] {
        let top = height + 24.03125;
        let text = format!(
            r#"name = "ledge"
time_step = 0.015625
steps = 320
[poses]
stand = {{ box = {{ mins = [-16, -16, -24], maxs = [16, 16, 32] }} }}
[[world.brush]]
box = {{ min = [-512, -256, -16], max = [512, 256, 0] }}
[[world.brush]]
box = {{ min = [0, -256, 0], max = [512, 256, {height}] }}
[[agent]]
pose = "stand"
start = [-300, 0, 24.03125]
script = [{{ at = 0, goto = [300, 0, {top}] }}]
"#
        );
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let scenario = cspace_scenario::Scenario::parse(&dir.join("ledge.toml"), &text).unwrap();
        for backend in [BackendKind::Exact, BackendKind::Onion] {
            let outcome = run_scenario(&scenario, backend, RunOptions::default()).unwrap();
            let events = events(&outcome);
            assert_eq!(
                events.iter().any(|e| e.contains("arrived at")),
                arrives,
                "ledge {height} on {backend:?}: {events:?}"
            );
            if arrives {
                assert!(
                    !events.iter().any(|e| e.contains("replanned")),
                    "ledge {height} on {backend:?}: {events:?}"
                );
                let kinds: Vec<&str> = outcome.plans[0]
                    .waypoints
                    .iter()
                    .map(|w| w.kind.name())
                    .collect();
                assert!(kinds.contains(&"jump"), "{kinds:?}");
            } else {
                assert!(
                    events.iter().any(|e| e.contains("cannot go to")),
                    "ledge {height} on {backend:?}: {events:?}"
                );
            }
        }
    }
}

#[test]
fn another_script_event_ends_a_goto_under_way() {
    use cspace_scenario::{RunOptions, run_scenario};
    use cspace_sim::BackendKind;
    let outcome = run_scenario(
        &course_scenario(", { at = 2, stop = true }"),
        BackendKind::Onion,
        RunOptions::default(),
    )
    .unwrap();
    let events = events(&outcome);
    assert!(!events.iter().any(|e| e.contains("arrived")), "{events:?}");
    // It stopped where it was at 2 s (in the tunnel, crouching), and rests.
    let end = outcome.record.finals[0].state;
    assert!(end.position.x < -600.0, "{}", end.position);
    assert_eq!(end.velocity, cspace_geom::DVec3::ZERO);
    // A second goto replaces the first.
    let outcome = run_scenario(
        &course_scenario(", { at = 1, goto = [-960, 64, 24.03125] }"),
        BackendKind::Onion,
        RunOptions::default(),
    )
    .unwrap();
    assert_eq!(outcome.plans.len(), 2);
    let end = outcome.record.finals[0].state.position;
    assert!(
        (end.x + 960.0).abs() < 8.0 && (end.y - 64.0).abs() < 8.0,
        "{end}"
    );
}

#[test]
fn a_planner_of_another_world_is_refused() {
    use cspace_sim::navigation::Planner;
    use cspace_sim::{AgentId, BackendKind, Scripted, SimConfig};
    let scenario = course_scenario("");
    let flat =
        cspace_geom::World::from_brushes([cspace_geom::Brush::from_aabb(cspace_geom::Aabb::new(
            cspace_geom::DVec3::new(-512.0, -512.0, -16.0),
            cspace_geom::DVec3::new(512.0, 512.0, 0.0),
        ))
        .unwrap()]);
    let goto = [(AgentId(0), &scenario.agents[0].spec)];
    let planner = Planner::build(&flat, &goto, &scenario.params, &[]).unwrap();
    let collider = BackendKind::Exact
        .build_for(&scenario.world.world, &scenario.shapes())
        .unwrap()
        .unwrap();
    let config = SimConfig {
        params: scenario.params,
        dt: scenario.dt,
        planner: Some(std::sync::Arc::new(planner)),
        ..SimConfig::default()
    };
    let error = Scripted::new(collider, config, &scenario.agents).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("navigation: the planner was built for world"),
        "{error}"
    );
}

/// `sim plot` draws the planned paths: the legs coloured by their links (step amber, drop
/// purple, jump green) and the pose changes, under the runs; without goto agents, nothing.
#[test]
fn plots_draw_the_planned_paths_with_their_link_kinds() {
    use cspace_report::plot::{Plot, Series};
    use cspace_scenario::{RunOptions, run_scenario};
    use cspace_sim::BackendKind;
    let tmp = scratch_dir();
    let scenario = course_scenario("");
    let outcome = run_scenario(&scenario, BackendKind::Onion, RunOptions::default()).unwrap();
    let runs = [Series {
        label: "onion".to_string(),
        record: outcome.record.as_written(),
    }];
    let plot = |paths| Plot {
        world: &scenario.world.world,
        agent_names: &scenario.agent_names,
        runs: &runs,
        baseline: None,
        tolerance: scenario.tolerance,
        paths,
        crowds: &[],
    };
    let (step, drop, jump) = ("#C8A000", "#8C3CB4", "#14963C");
    let with = plot(&outcome.plans).svg().unwrap();
    for colour in [step, drop, jump] {
        assert!(with.contains(colour), "no {colour} in the plot");
    }
    assert!(with.contains("planned paths"));
    let without = plot(&[]).svg().unwrap();
    for colour in [step, drop, jump] {
        assert!(!without.contains(colour), "{colour} without paths");
    }
    // The command writes it as a PNG too.
    let png = tmp.path().join("goto.png");
    let course = format!(
        "{}/tests/fixtures/goto_obstacle_course.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = crate::cli::sim(
        &[
            "plot",
            &course,
            "--backend",
            "onion",
            "-o",
            png.to_str().unwrap(),
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::metadata(&png).unwrap().len() > 10_000);
}

#[test]
fn a_goto_just_over_a_ridge_slows_down_for_the_crest_and_stops_on_the_far_slope() {
    // A 45-degree roof 64 high across the floor; the goal is on the far slope, 24 units past
    // the crest (the box rests on the ridge over 32 units). At the pace of steep ground the
    // agent left the ground at the crest and flew over the far slope to the floor, again and
    // again (ericw_qbsp_angled_brush's rotated box, 28 failures of the corpus validation). The
    // planner puts a waypoint on each crest, and the follower crosses it slowly enough to land
    // within half the next leg.
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let rest = format!(
        r#"[[world.brush]]
box = {{ min = [-512, -128, -16], max = [512, 128, 0] }}
[[world.brush]]
planes = [{{ normal = [{s}, 0, {s}], dist = {d} }}, {{ normal = [-{s}, 0, {s}], dist = {d} }}, {{ normal = [0, 0, -1], dist = 0 }}, {{ normal = [0, 1, 0], dist = 128 }}, {{ normal = [0, -1, 0], dist = 128 }}]
[[agent]]
pose = "stand"
start = [-300, 0, 24.03125]
script = [{{ at = 0, goto = [40, 0, 64.03125] }}]
"#,
        d = 64.0 * s
    );
    arrives_clear_of("ridge", &rest, &[]);
}

/// Runs a goto scenario of 640 steps with Quake's standing and crouching boxes, whose world
/// and agent are `rest`, on the exact and onion backends, and asserts that the goto arrived on
/// its first plan without a contact with any of world brushes `brushes` (none checked when
/// empty).
fn arrives_clear_of(name: &str, rest: &str, brushes: &[u32]) {
    let text = format!(
        r#"name = "{name}"
time_step = 0.015625
steps = 640
[poses]
stand = {{ box = {{ mins = [-16, -16, -24], maxs = [16, 16, 32] }} }}
crouch = {{ box = {{ mins = [-16, -16, -24], maxs = [16, 16, 16] }} }}
{rest}"#
    );
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let scenario =
        cspace_scenario::Scenario::parse(&dir.join(format!("{name}.toml")), &text).unwrap();
    for backend in [
        cspace_sim::BackendKind::Exact,
        cspace_sim::BackendKind::Onion,
    ] {
        let outcome = cspace_scenario::run_scenario(
            &scenario,
            backend,
            cspace_scenario::RunOptions::default(),
        )
        .unwrap();
        let events = events(&outcome);
        let arrived = events.iter().any(|e| e.contains("arrived at"));
        let replanned = events.iter().any(|e| e.contains("replanned"));
        assert!(arrived && !replanned, "{name} on {backend:?}: {events:?}");
        for brush in brushes {
            let touch = format!("contact world brush {brush} ");
            assert!(
                !events.iter().any(|e| e.contains(&touch)),
                "{name} on {backend:?} touched brush {brush}: {events:?}"
            );
        }
    }
}

#[test]
fn a_goto_round_a_walls_end_turns_at_the_corner_not_into_the_wall() {
    // A wall (brush 1) ends at x = 0; the path goes round its end, a unit off it. Turning
    // within the waypoint radius cut the corner by several units and ran into the wall's end:
    // in the maze of the corpus validation (dmlab_nav_maze_static_01) the agent then pushed
    // square at a door's jamb and stood there until it planned again (13 late arrivals). A
    // corner whose inside is solid is reached only once the next leg clears the wall.
    let rest = r#"[[world.brush]]
box = { min = [-512, -512, -16], max = [512, 512, 0] }
[[world.brush]]
box = { min = [-512, -8, 0], max = [0, 8, 128] }
[[agent]]
pose = "stand"
start = [-300, -120, 24.03125]
script = [{ at = 0, goto = [-300, 60, 24.03125] }]
"#;
    arrives_clear_of("wall_end", rest, &[1]);
}

#[test]
fn a_goto_round_a_walls_end_above_a_cliff_slows_down_to_stay_on_the_floor() {
    // The same turn round a wall's end (brush 1), with a cliff 15 units beyond the corner
    // (ericw_q1_rocks): taken at the corner speed of a right angle, the drift outward went over
    // the edge, down to the floor below (brush 2). The follower probes the floor beyond each
    // corner and takes it no faster than its sideways speed can stop on it.
    let rest = r#"[[world.brush]]
box = { min = [-512, -40, -16], max = [16, 512, 0] }
[[world.brush]]
box = { min = [-512, -8, 0], max = [0, 512, 128] }
[[world.brush]]
box = { min = [-1024, -1024, -416], max = [1024, 1024, -400] }
[[agent]]
pose = "stand"
start = [-300, -40, 24.03125]
script = [{ at = 0, goto = [17, 300, 24.03125] }]
"#;
    arrives_clear_of("cliff_corner", rest, &[1, 2]);
}

#[test]
fn a_crouching_goto_drops_down_a_narrow_slot_without_touching_its_far_side() {
    // A crouch-high tunnel whose floor has a slot 40 units wide (8 for the crouching box),
    // 200 units above the floor below. A crouching agent's air control is a quarter of a
    // standing one's (`PM_AirMove` accelerates by the crouched wish speed): walking off at
    // 40 units/s it could not stop over the landing, crossed the slot and met its far side
    // (brush 1), in quake_dm4 stepping out onto it (7 failures of the corpus validation).
    let rest = r#"[[world.brush]]
box = { min = [-512, -64, -16], max = [0, 64, 0] }
[[world.brush]]
box = { min = [40, -64, -16], max = [512, 64, 0] }
[[world.brush]]
box = { min = [-512, -64, 48], max = [512, 64, 64] }
[[world.brush]]
box = { min = [-512, 64, -216], max = [512, 80, 64] }
[[world.brush]]
box = { min = [-512, -80, -216], max = [512, -64, 64] }
[[world.brush]]
box = { min = [-512, -64, -216], max = [512, 64, -200] }
[[agent]]
pose = "stand"
crouch_pose = "crouch"
crouched = true
start = [-200, 0, 24.03125]
script = [{ at = 0, goto = [200, 0, -175.96875] }]
"#;
    arrives_clear_of("slot", rest, &[1]);
}

#[test]
fn a_goto_jumps_onto_a_narrow_ledge_once_it_no_longer_slides_along_the_riser() {
    // A ledge 48 high and 40 wide (brush 1), reached along its riser: a wall (brush 2) keeps
    // the agent off its other side, so the path runs east along the riser and jumps north
    // from it. Jumping as it reached the take-off, the agent kept its speed along the riser
    // (a right-angle corner's half speed), flew past the ledge's end and fell back to the
    // floor, brush 0 (quake_e1m1's crouching room, unvanquished_chasm: 12 failures of the
    // corpus validation). It waits until it slides slowly.
    let rest = r#"[[world.brush]]
box = { min = [-512, -512, -16], max = [512, 512, 0] }
[[world.brush]]
box = { min = [0, 0, 0], max = [40, 48, 48] }
[[world.brush]]
box = { min = [-64, 0, 0], max = [0, 512, 128] }
[[agent]]
pose = "stand"
start = [-300, -20, 24.03125]
script = [{ at = 0, goto = [20, 24, 72.03125] }]
"#;
    arrives_clear_of("narrow_ledge", rest, &[0]);
}
