//! Malformed scenarios: each one gives an error naming the file, line and column, and the field.

use std::path::PathBuf;

use cspace_scenario::scenario::Scenario;

/// A valid scenario to break, line by line.
const BASE: &str = r#"name = "base"
time_step = 0.015625
steps = 10

[poses]
stand = { box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }

[world]
[[world.brush]]
box = { min = [-512, -512, -16], max = [512, 512, 0] }

[[agent]]
pose = "stand"
start = [0, 0, 24.03125]
script = [{ at = 0, move = [1, 0] }]
"#;

/// Where the scenarios parsed here say they come from (a name only: parsing reads nothing
/// there, so nothing is made).
fn dir() -> PathBuf {
    std::env::temp_dir().join("cspace-scenario-errors")
}

#[test]
fn the_base_scenario_is_valid() {
    let s = Scenario::parse(&dir().join("base.toml"), BASE).unwrap();
    assert_eq!(s.agents.len(), 1);
}

/// A script's `view = [yaw, pitch]` (degrees) sets the agent's view, and only that.
#[test]
fn a_script_view_is_an_action() {
    let text = BASE.replace(
        "script = [{ at = 0, move = [1, 0] }]",
        "script = [{ at = 0, move = [1, 0] }, { at = 0.5, view = [180, -12.5] }]",
    );
    let s = Scenario::parse(&dir().join("view.toml"), &text).unwrap();
    assert_eq!(
        s.agents[0].script[1].action,
        cspace_sim::Action::View(cspace_sim::View {
            yaw: 180.0,
            pitch: -12.5
        })
    );
}

#[test]
fn malformed_scenarios_name_file_line_column_and_field() {
    let cases: Vec<(&str, String, &str, &str)> = vec![
        ("unknown field", BASE.replace("steps = 10", "steps = 10\ncolour = 1"), ":4:1:", "unknown field `colour`"),
        ("wrong type", BASE.replace("steps = 10", "steps = \"ten\""), ":3:9:", "invalid type"),
        ("non-finite number", BASE.replace("time_step = 0.015625", "time_step = nan"), ":2:13:", "time_step must be a finite number"),
        ("zero time step", BASE.replace("time_step = 0.015625", "time_step = 0.0"), ":2:13:", "time_step must be positive"),
        ("negative time step", BASE.replace("time_step = 0.015625", "time_step = -1.0"), ":2:13:", "time_step must be positive"),
        ("negative steps", BASE.replace("steps = 10", "steps = -3"), ":3:9:", "steps must be positive"),
        ("zero sample_every", BASE.replace("steps = 10", "steps = 10\nsample_every = 0"), ":4:16:", "sample_every must be positive"),
        ("empty world", BASE.replace("[[world.brush]]\nbox = { min = [-512, -512, -16], max = [512, 512, 0] }\n", ""), ":1:1:", "world has no brushes"),
        (
            "open brush",
            BASE.replace(
                "box = { min = [-512, -512, -16], max = [512, 512, 0] }",
                "planes = [{ normal = [1, 0, 0], dist = 1 }, { normal = [-1, 0, 0], dist = 1 }, { normal = [0, 1, 0], dist = 1 }, { normal = [0, -1, 0], dist = 1 }]",
            ),
            ":9:1:",
            "brush 0: brush is open",
        ),
        ("unknown pose", BASE.replace("pose = \"stand\"", "pose = \"sit\""), ":13:8:", "unknown pose \"sit\"; the [poses] table defines: stand"),
        ("unknown backend", BASE.replace("steps = 10", "steps = 10\nbackends = [\"exact\", \"quake\"]"), ":4:22:", "unknown backend \"quake\""),
        ("agent starting in solid", BASE.replace("start = [0, 0, 24.03125]", "start = [0, 0, 10]"), ":12:1:", "agent 0 starts in solid"),
        (
            "script time going backwards",
            BASE.replace("script = [{ at = 0, move = [1, 0] }]", "script = [{ at = 2, move = [1, 0] }, { at = 1, jump = true }]"),
            ":15:45:",
            "script time goes backwards: 1 after 2",
        ),
        ("missing map file", BASE.replace("[world]\n", "[world]\nmap = \"nowhere.map\"\n"), ":9:7:", "map: cannot read"),
        ("unset variable in map path", BASE.replace("[world]\n", "[world]\nmap = \"${CSPACE_NO_SUCH_VARIABLE}/x.map\"\n"), ":9:7:", "CSPACE_NO_SUCH_VARIABLE"),
        ("missing name", BASE.replace("name = \"base\"\n", ""), ":1:1:", "missing field `name`"),
        ("inverted box pose", BASE.replace("maxs = [16, 16, 32]", "maxs = [16, 16, -30]"), ":6:9:", "pose \"stand\""),
        ("pose with two shapes", BASE.replace("stand = { box", "stand = { sphere = 4, box"), ":6:9:", "give exactly one of `box`, `sphere`, `cylinder`"),
        (
            "two actions in one event",
            BASE.replace("{ at = 0, move = [1, 0] }", "{ at = 0, move = [1, 0], jump = true }"),
            ":15:11:",
            "give exactly one of `move`, `jump`",
        ),
        ("view not finite", BASE.replace("move = [1, 0]", "view = [nan, 0]"), ":15:28:", "script.view yaw: coordinate NaN is not a finite number"),
        ("view pitch beyond the domain", BASE.replace("move = [1, 0]", "view = [0, 1e300]"), ":15:28:", "script.view pitch"),
        ("view of one angle", BASE.replace("move = [1, 0]", "view = [90]"), ":15:28:", "script.view: expected 2 numbers, got 1"),
        ("view of three angles", BASE.replace("move = [1, 0]", "view = [90, 0, 0]"), ":15:28:", "script.view: expected 2 numbers, got 3"),
        ("view and move in one event", BASE.replace("move = [1, 0]", "move = [1, 0], view = [90, 0]"), ":15:11:", "`goto`, `view`"),
        ("speed without move", BASE.replace("{ at = 0, move = [1, 0] }", "{ at = 0, jump = true, speed = 3 }"), ":15:11:", "`speed` goes with `move`"),
        ("zero move direction", BASE.replace("move = [1, 0]", "move = [0, 0]"), ":15:28:", "direction must be finite and not zero"),
        ("start and spawn", BASE.replace("start = [0, 0, 24.03125]", "start = [0, 0, 24.03125]\nspawn = 0"), ":12:1:", "give either `start` or `spawn`"),
        ("spawn out of range", BASE.replace("start = [0, 0, 24.03125]", "spawn = 3"), ":14:9:", "spawn 3: the world has 0 spawn points"),
        ("no agents", BASE[..BASE.find("[[agent]]").unwrap()].to_string(), ":1:1:", "no agents"),
        ("params out of range", BASE.replace("[world]", "[params]\ngravity = -800\n\n[world]"), ":9:1:", "params.gravity: must be >= 0, got -800"),
        (
            "inline params out of range",
            BASE.replace("steps = 10", "steps = 10\nparams = { walk_speed = 320, friction = nan }"),
            ":4:30:",
            "params.friction: NaN is not a finite number",
        ),
        ("params unknown field", BASE.replace("[world]", "[params]\ngravty = 800\n\n[world]"), ":9:1:", "unknown field `gravty`"),
        (
            "expectation without a check",
            format!("{BASE}\n[[expect]]\nagent = 0\n"),
            ":17:1:",
            "give exactly one of `reaches`, `never_reaches`",
        ),
        ("expectation for an unknown agent", format!("{BASE}\n[[expect]]\nagent = 4\nends_on_ground = true\n"), ":18:9:", "expect: no agent 4; the agents are 0..1 or by name: 0"),
        // Names are quoted as written, not as Rust debug text (`Name("crawler")`).
        ("expectation for an unknown name", format!("{BASE}\n[[expect]]\nagent = \"crawler\"\nends_on_ground = true\n"), ":18:9:", "expect: no agent \"crawler\"; the agents are"),
        (
            "unknown contact filter",
            format!("{BASE}\n[[expect]]\nagent = 0\nno_contacts_with = \"ghosts\"\n"),
            ":19:20:",
            "expected \"world\", \"agents\" or an agent index, got \"ghosts\"",
        ),
        (
            "contact filter of an unknown agent",
            format!("{BASE}\n[[expect]]\nagent = 0\nno_contacts_with = 7\n"),
            ":19:20:",
            "no_contacts_with: no agent 7; the agents are 0..1",
        ),
        (
            "expected difference without a reason",
            BASE.replace("steps = 10", "steps = 10\n[[expected_difference]]\nbackends = [\"exact\", \"onion\"]\ntolerance = 1\nreason = \" \""),
            ":4:1:",
            "give the reason",
        ),
        (
            "expected difference naming a backend twice",
            BASE.replace("steps = 10", "steps = 10\n[[expected_difference]]\nbackends = [\"exact\", \"exact\"]\ntolerance = 1\nreason = \"why\""),
            ":5:22:",
            "expected_difference: exact is named twice",
        ),
        (
            "expected difference of three backends as a pair",
            BASE.replace("steps = 10", "steps = 10\n[[expected_difference]]\nbackends = [\"exact\", \"onion\", \"melax\"]\ntolerance = 1\nreason = \"why\""),
            ":4:1:",
            "`backends` names exactly two backends (or give two groups",
        ),
        (
            "expected difference with one group",
            BASE.replace("steps = 10", "steps = 10\n[[expected_difference]]\nbetween = [\"exact\"]\ntolerance = 1\nreason = \"why\""),
            ":4:1:",
            "name the backends as `backends = [a, b]`, or as two groups",
        ),
        (
            "expected difference with both forms",
            BASE.replace("steps = 10", "steps = 10\n[[expected_difference]]\nbackends = [\"exact\", \"onion\"]\nbetween = [\"melax\"]\nand = [\"exact\"]\ntolerance = 1\nreason = \"why\""),
            ":4:1:",
            "name the backends as `backends = [a, b]`, or as two groups",
        ),
        (
            "expected difference with an empty group",
            BASE.replace("steps = 10", "steps = 10\n[[expected_difference]]\nbetween = [\"exact\"]\nand = []\ntolerance = 1\nreason = \"why\""),
            ":6:7:",
            "expected_difference: the list is empty",
        ),
        (
            "expected difference with a backend in both groups",
            BASE.replace("steps = 10", "steps = 10\n[[expected_difference]]\nbetween = [\"melax\", \"exact\"]\nand = [\"melax\"]\ntolerance = 1\nreason = \"why\""),
            ":6:7:",
            "expected_difference: melax is in both groups",
        ),
    ];
    assert!(cases.len() >= 20);
    check_cases(cases);
}

/// Issue 17's numeric domain: every number beyond its limit is refused where it is written,
/// naming the value and the limit (failures 1, 2, 3, 5 and 7 of the issue, as scenarios).
#[test]
fn numbers_beyond_the_numeric_domain_are_refused_where_they_are_written() {
    let crowd = |spacing: &str| with_crowd("[0, 0, 24.03125]", (2, 2), spacing);
    let cases: Vec<(&str, String, &str, &str)> = vec![
        // Failure 3: a time step of 1e300 hung the sub-stepping.
        (
            "huge time step",
            BASE.replace("time_step = 0.015625", "time_step = 1e300"),
            ":2:13:",
            "time_step: time step 1e300 s is beyond cspace's limit of 1 s (tolerance::MAX_TIME_STEP)",
        ),
        (
            "tiny sub-step",
            BASE.replace("[world]", "[params]\nmax_substep = 1e-300\n\n[world]"),
            ":9:1:",
            "params.max_substep: must be >= 0.0001, got 1e-300",
        ),
        (
            "many bumps",
            BASE.replace("[world]", "[params]\nbumps = 4000000000\n\n[world]"),
            ":9:1:",
            "params.bumps: must be within 1..=64, got 4000000000",
        ),
        (
            "huge gravity",
            BASE.replace("[world]", "[params]\ngravity = 1e300\n\n[world]"),
            ":9:1:",
            "params.gravity: acceleration 1e300 units/s^2 is beyond cspace's limit of 65536 units/s^2",
        ),
        (
            "huge overclip",
            BASE.replace("[world]", "[params]\noverclip = 1e308\n\n[world]"),
            ":9:1:",
            "params.overclip: must be within [1, 2], got 1e308",
        ),
        // Failure 2: huge cylinders panicked the exact backend; failure 7: 1e15 poses failed late.
        (
            "huge cylinder pose",
            BASE.replace(
                "stand = { box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }",
                "stand = { cylinder = { radius = 1e300, half_height = 1e300 } }",
            ),
            ":6:9:",
            "pose \"stand\": shape size 1e300 units is beyond cspace's limit of 65536 units (tolerance::MAX_SHAPE_EXTENT)",
        ),
        (
            "huge box pose",
            BASE.replace("maxs = [16, 16, 32]", "maxs = [16, 16, 1e15]"),
            ":6:9:",
            "pose \"stand\": shape size 1e15 units is beyond",
        ),
        // Failure 6: an agent starting at x = 1e12 ran silently.
        (
            "far start",
            BASE.replace("start = [0, 0, 24.03125]", "start = [1e12, 0, 24.03125]"),
            ":14:9:",
            "start: coordinate 1e12 units is beyond cspace's limit of 524288 units (tolerance::MAX_COORDINATE)",
        ),
        // Failure 5: speeds of 1e300 gave non-finite states.
        (
            "huge velocity",
            BASE.replace(
                "start = [0, 0, 24.03125]",
                "start = [0, 0, 24.03125]\nvelocity = [0, 0, -1e300]",
            ),
            ":15:12:",
            "velocity: speed -1e300 units/s is beyond cspace's limit of 65536 units/s (tolerance::MAX_SPEED)",
        ),
        (
            "huge script speed",
            BASE.replace("move = [1, 0] }", "move = [1, 0], speed = 1e300 }"),
            ":15:44:",
            "script.speed: speed 1e300 units/s is beyond",
        ),
        // Failure 1: a crowd spacing of 1e308 overflowed the start positions.
        (
            "crowd spacing",
            crowd("[1e308, 1e308]"),
            ":22:11:",
            "spacing: the crowd's far corner is at (1e308, 1e308, 24.031): coordinate 1e308 units is beyond",
        ),
        (
            "crowd origin",
            crowd("[64, 64]").replace("origin = [0, 0, 24.03125]", "origin = [0, -6e5, 24.03125]"),
            ":19:10:",
            "origin: coordinate -600000 units is beyond",
        ),
        (
            "a world brush beyond the domain",
            BASE.replace("max = [512, 512, 0]", "max = [600000, 512, 0]"),
            ":9:1:",
            "brush 0: brush reaches 600000 units from the origin, beyond the limit of +-524288 units",
        ),
    ];
    check_cases(cases);
}

/// A goto's target is checked where it is written: a point where the agent fits, over a walkable
/// floor, within the domain, or a spawn point the world has; the agent's poses are boxes, the
/// crouching one inside the standing one; `arrives` checks an agent that has a goto.
#[test]
fn goto_targets_and_arrivals_are_checked_where_they_are_written() {
    let goto = |target: &str| BASE.replace("move = [1, 0]", &format!("goto = {target}"));
    let cases: Vec<(&str, String, &str, &str)> = vec![
        (
            "target in solid",
            goto("[100, 0, 0]"),
            ":15:28:",
            "goto target (100, 0, 0) is inside solid for the agent's poses",
        ),
        (
            "target over the void",
            goto("[600, 0, 24]"),
            ":15:28:",
            "goto target (600, 0, 24) has no walkable floor within 264.03125 units below it",
        ),
        (
            "target beyond the domain",
            goto("[1e9, 0, 24]"),
            ":15:28:",
            "goto: coordinate 1e9 units is beyond cspace's limit",
        ),
        (
            "spawn point of a world without any",
            goto("{ spawn = 0 }"),
            ":15:28:",
            "goto spawn 0: the world has 0 spawn points",
        ),
        (
            "neither a point nor a spawn point",
            goto("{ spawns = 0 }"),
            ":15:28:",
            "goto: expected [x, y, z] or { spawn = N }",
        ),
        (
            "goto and move in one event",
            BASE.replace("move = [1, 0]", "move = [1, 0], goto = [0, 0, 24.03125]"),
            ":15:11:",
            "give exactly one of `move`, `jump`, `crouch`, `stand`, `stop`, `goto`",
        ),
        (
            "a sphere sent somewhere",
            goto("[0, 0, 24.03125]").replace("stand = { box", "ball = { sphere = 16 }\nstand = { box").replace("pose = \"stand\"", "pose = \"ball\""),
            ":16:28:",
            "goto: the agent is sphere:16; goto plans for box poses",
        ),
        (
            "a crouching box wider than the standing one",
            goto("[0, 0, 24.03125]")
                .replace("stand = { box", "wide = { box = { mins = [-20, -20, -24], maxs = [20, 20, 16] } }\nstand = { box")
                .replace("pose = \"stand\"", "pose = \"stand\"\ncrouch_pose = \"wide\""),
            ":17:28:",
            "goto: the agent's crouching box must fit inside its standing box",
        ),
        (
            "arrives without a goto",
            format!("{BASE}\n[[expect]]\nagent = 0\narrives = true\n"),
            ":17:1:",
            "expect: `arrives` checks a goto, and agent 0 has none in its script",
        ),
        (
            "a deadline for never arriving",
            format!("{}\n[[expect]]\nagent = 0\narrives = false\nby = 2\n", goto("[0, 0, 24.03125]")),
            ":17:1:",
            "expect: `by` goes with `reaches` or `arrives = true`",
        ),
    ];
    check_cases(cases);
    // The same checks pass a goto to a free point over the floor, and `arrives` with it.
    let fine = format!(
        "{}\n[[expect]]\nagent = 0\narrives = true\nby = 0.1\n",
        goto("[200, 0, 24.03125]")
    );
    let s = Scenario::parse(&dir().join("goto.toml"), &fine).unwrap();
    assert!(s.uses_goto());
}

/// [`BASE`] with a crowd of `rows` x `columns` agents standing at `origin`, `spacing` apart (its
/// `origin` on line 19, its `spacing` on line 22).
fn with_crowd(origin: &str, (rows, columns): (u32, u32), spacing: &str) -> String {
    format!(
        "{BASE}\n[[crowd]]\npose = \"stand\"\norigin = {origin}\nrows = {rows}\ncolumns = {columns}\nspacing = {spacing}\n"
    )
}

/// Each case's error starts with `file:line:column:` and contains its message.
fn check_cases(cases: Vec<(&str, String, &str, &str)>) {
    let mut wrong = Vec::new();
    for (what, text, location, message) in cases {
        let error = match Scenario::parse(&dir().join("bad.toml"), &text) {
            Ok(_) => {
                wrong.push(format!("{what}: accepted"));
                continue;
            }
            Err(e) => format!("{e:#}"),
        };
        let prefix = format!("{}{location}", dir().join("bad.toml").display());
        if !error.starts_with(&prefix) || !error.contains(message) {
            wrong.push(format!(
                "{what}: expected {location} {message:?}, got {error:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Issue 36, item 2: a crowd whose agents overlap without standing on one point, or which stacks
/// more agents on one point than the world leaves room for around it, is refused where its
/// spacing is written, with the numbers; neither is left to run for hours.
#[test]
fn crowds_that_cannot_be_spread_are_refused_where_their_spacing_is_written() {
    let crowd = |rows: u32, spacing: &str| with_crowd("[0, 0, 24.03125]", (rows, 10), spacing);
    // A room 256 units square inside and 128 high, walled as far as the settling step looks:
    // 7 x 7 agents fit on its floor, and the checker's bound (every place the settling step
    // tries that the world leaves free) is under 300.
    let room = crowd(30, "[0, 0]").replace(
        "[[world.brush]]\nbox = { min = [-512, -512, -16], max = [512, 512, 0] }\n",
        "[[world.brush]]\nbox = { min = [-4096, -4096, -16], max = [4096, 4096, 0] }\n\
         [[world.brush]]\nbox = { min = [-4096, -4096, 128], max = [4096, 4096, 144] }\n\
         [[world.brush]]\nbox = { min = [-4096, -4096, 0], max = [-128, 4096, 128] }\n\
         [[world.brush]]\nbox = { min = [128, -4096, 0], max = [4096, 4096, 128] }\n\
         [[world.brush]]\nbox = { min = [-128, -4096, 0], max = [128, -128, 128] }\n\
         [[world.brush]]\nbox = { min = [-128, 128, 0], max = [128, 4096, 128] }\n",
    );
    let cases: Vec<(&str, String, &str, &str)> = vec![
        (
            "agents inside each other",
            crowd(2, "[0.000000001, -1]"),
            ":22:11:",
            "spacing: 0.000000001 (x, between columns) puts each agent inside the next: the pose is 32 across; use 0 to stack them on one point",
        ),
        (
            "agents inside each other along y",
            crowd(2, "[64, 8]"),
            ":22:11:",
            "spacing: 8 (y, between rows) puts each agent inside the next: the pose is 32 across",
        ),
        (
            "more agents on a point than fit the room",
            room,
            ":32:11:",
            "spacing: 300 agents start on one point (0, 0, 24.031), and the world leaves room for at most ",
        ),
    ];
    check_cases(cases);
    // One row stacked on one point per column, in the open: accepted and spread when it starts.
    let stacked = Scenario::parse(&dir().join("stacked.toml"), &crowd(10, "[64, 0]")).unwrap();
    assert_eq!(stacked.agents.len(), 1 + 100);
}

/// A fixed list of numbers with one number too many or too few is refused where it is written,
/// naming the field, the count it takes and the count found (a fixed `[f64; N]` read by serde
/// took the first N numbers of a longer list and ran).
#[test]
fn fixed_lists_of_the_wrong_length_are_refused_where_they_are_written() {
    let crowd = |origin: &str, spacing: &str| with_crowd(origin, (2, 2), spacing);
    let expect = |region: &str| format!("{BASE}\n[[expect]]\nagent = 0\nreaches = {region}\n");
    let cases: Vec<(&str, String, &str, &str)> = vec![
        // An agent's fields.
        (
            "start of four",
            BASE.replace("start = [0, 0, 24.03125]", "start = [0, 0, 24.03125, 3]"),
            ":14:9:",
            "start: expected 3 numbers, got 4",
        ),
        (
            "start of two",
            BASE.replace("start = [0, 0, 24.03125]", "start = [0, 0]"),
            ":14:9:",
            "start: expected 3 numbers, got 2",
        ),
        (
            "velocity of four",
            BASE.replace(
                "start = [0, 0, 24.03125]",
                "start = [0, 0, 24.03125]\nvelocity = [0, 0, 1, 1]",
            ),
            ":15:12:",
            "velocity: expected 3 numbers, got 4",
        ),
        // A pose's box.
        (
            "pose mins of four",
            BASE.replace("mins = [-16, -16, -24]", "mins = [-16, -16, -24, 0]"),
            ":6:26:",
            "pose \"stand\": box.mins: expected 3 numbers, got 4",
        ),
        (
            "pose maxs of two",
            BASE.replace("maxs = [16, 16, 32]", "maxs = [16, 16]"),
            ":6:50:",
            "pose \"stand\": box.maxs: expected 3 numbers, got 2",
        ),
        // Script steps.
        (
            "move of three",
            BASE.replace("move = [1, 0]", "move = [1, 0, 7]"),
            ":15:28:",
            "script.move: expected 2 numbers, got 3",
        ),
        (
            "move of one",
            BASE.replace("move = [1, 0]", "move = [1]"),
            ":15:28:",
            "script.move: expected 2 numbers, got 1",
        ),
        (
            "goto of four",
            BASE.replace("move = [1, 0]", "goto = [200, 0, 24.03125, 1]"),
            ":15:28:",
            "goto: expected 3 numbers, got 4",
        ),
        (
            "goto of two",
            BASE.replace("move = [1, 0]", "goto = [200, 0]"),
            ":15:28:",
            "goto: expected 3 numbers, got 2",
        ),
        // A crowd's grid.
        (
            "crowd origin of four",
            crowd("[0, 0, 24.03125, 0]", "[64, 64]"),
            ":19:10:",
            "origin: expected 3 numbers, got 4",
        ),
        (
            "crowd spacing of three",
            crowd("[0, 0, 24.03125]", "[64, 64, 64]"),
            ":22:11:",
            "spacing: expected 2 numbers, got 3",
        ),
        (
            "crowd spacing of one",
            crowd("[0, 0, 24.03125]", "[64]"),
            ":22:11:",
            "spacing: expected 2 numbers, got 1",
        ),
        // An expectation's region.
        (
            "region min of four",
            expect("{ min = [-1, -1, 0, 9], max = [1, 1, 64] }"),
            ":19:19:",
            "reaches.min: expected 3 numbers, got 4",
        ),
        (
            "region max of two",
            expect("{ min = [-1, -1, 0], max = [1, 1] }"),
            ":19:38:",
            "reaches.max: expected 3 numbers, got 2",
        ),
        // The scenario's inline world.
        (
            "brush max of four",
            BASE.replace("max = [512, 512, 0]", "max = [512, 512, 0, 1]"),
            ":10:40:",
            "brush 0: box.max: expected 3 numbers, got 4",
        ),
        (
            "brush min of two",
            BASE.replace("min = [-512, -512, -16]", "min = [-512, -512]"),
            ":10:15:",
            "brush 0: box.min: expected 3 numbers, got 2",
        ),
        (
            "plane normal of four",
            BASE.replace(
                "box = { min = [-512, -512, -16], max = [512, 512, 0] }",
                "planes = [{ normal = [0, 0, 1, 0], dist = 0 }]",
            ),
            ":10:22:",
            "brush 0 plane 0: normal: expected 3 numbers, got 4",
        ),
    ];
    check_cases(cases);
}

/// A TOML world file's brushes read their lists as a scenario's inline world does.
#[test]
fn a_world_file_refuses_a_brush_list_of_the_wrong_length() {
    let path = dir().join("world.toml");
    let world = "[[brush]]\nbox = { min = [-512, -512, -16], max = [512, 512, 0] }\n";
    assert!(cspace_scenario::world_file::parse_world(&path, world).is_ok());
    let cases = [
        (
            world.replace("max = [512, 512, 0]", "max = [512, 512, 0, 1]"),
            ":2:40:",
            "brush 0: box.max: expected 3 numbers, got 4",
        ),
        (
            world.replace("min = [-512, -512, -16]", "min = []"),
            ":2:15:",
            "brush 0: box.min: expected 3 numbers, got 0",
        ),
        (
            "[[brush]]\nplanes = [{ normal = [1, 0], dist = 1 }]\n".to_string(),
            ":2:22:",
            "brush 0 plane 0: normal: expected 3 numbers, got 2",
        ),
    ];
    for (text, location, message) in cases {
        let error = match cspace_scenario::world_file::parse_world(&path, &text) {
            Ok(_) => panic!("accepted:\n{text}"),
            Err(e) => e.to_string(),
        };
        let prefix = format!("{}{location}", path.display());
        assert!(
            error.starts_with(&prefix) && error.contains(message),
            "expected {location} {message:?}, got {error:?}"
        );
    }
}
