//! Issue 35's input classes, case by case: baseline traces and snapshots (numbers past the
//! domain, huge header counts, names with control characters and path separators), scenarios
//! past a budget or with hostile names, map blocks past a budget, and the memory cap. Each is
//! run through `run_input` as a fuzzing run runs it, and must end as the issue says.

use std::sync::OnceLock;

use cspace_fuzz::classes::{
    VIEWS, crowd_tables, disc, number_lists, patch, with_list_length, with_view,
};
use cspace_fuzz::memory::MemoryCap;
use cspace_fuzz::mutate::toml_string;
use cspace_fuzz::{Fixtures, Target, Verdict, case_seed, run_input};
use cspace_geom::generate::Rng;

fn fixtures() -> &'static Fixtures {
    static FIXTURES: OnceLock<Fixtures> = OnceLock::new();
    // The panic hook stays the default one: a test's own panics print (so does any panic
    // `run_input` catches, which it then reports without its message).
    FIXTURES.get_or_init(|| Fixtures::new(None).expect("the fixtures build"))
}

/// `input` through `target`: the refusal's message, or `None` when accepted; a failure fails.
fn verdict(target: Target, input: &str) -> Option<String> {
    match run_input(fixtures(), target, input.as_bytes()) {
        Ok(Verdict::Accepted) => None,
        Ok(Verdict::Refused(message)) => Some(message),
        Err(failure) => panic!(
            "{}: {failure}\n{}",
            target.name(),
            &input[..input.len().min(600)]
        ),
    }
}

/// The seed `file` of the baseline target with `edit` applied, as a case's input.
fn baseline(file: &str, edit: impl Fn(&str) -> String) -> String {
    let text = fixtures().baseline_seed(file).expect("a seed file");
    format!("{file}\n{}", edit(text))
}

/// The first line of `text` starting `prefix`, replaced with `with`.
fn replace_line(text: &str, prefix: &str, with: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starts {prefix:?}"));
    text.replacen(line, with, 1)
}

#[test]
fn every_baseline_seed_is_accepted_and_drawn() {
    for file in [
        "drop.trace",
        "drop-all.trace",
        "exact@drop.toml.snap",
        "rooms.trace",
        "rooms-all.trace",
        "exact@rooms.toml.snap",
    ] {
        assert_eq!(
            verdict(Target::Baseline, &baseline(file, str::to_string)),
            None,
            "{file}"
        );
    }
}

#[test]
fn positions_past_the_domain_are_refused_where_they_are() {
    for number in ["1e200", "1e308", "inf", "nan", "-1e300"] {
        for file in ["drop.trace", "exact@drop.toml.snap"] {
            let input = baseline(file, |t| {
                // The first coordinate of the first sampled position.
                let at = t.find("position (").unwrap() + "position (".len();
                let end = at + t[at..].find(',').unwrap();
                format!("{}{number}{}", &t[..at], &t[end..])
            });
            let message = verdict(Target::Baseline, &input).expect("refused");
            assert!(message.contains(file), "{message}");
        }
    }
}

#[test]
fn huge_header_counts_are_refused_in_a_short_error() {
    for count in ["4294967296", "1000001", "18446744073709551616", "-1"] {
        let input = baseline("drop-all.trace", |t| {
            replace_line(t, "agents ", &format!("agents {count}"))
        });
        let message = verdict(Target::Baseline, &input).expect("refused");
        assert!(message.contains("drop-all.trace:6:"), "{message}");
    }
}

#[test]
fn totals_past_two_to_the_53_are_refused() {
    let input = baseline("drop.trace", |t| {
        let line = t.lines().find(|l| l.contains(" distance ")).unwrap();
        let (head, tail) = line.split_once(" distance ").unwrap();
        let rest = tail.split_once(' ').unwrap().1;
        t.replacen(line, &format!("{head} distance 1e16 {rest}"), 1)
    });
    assert!(verdict(Target::Baseline, &input).is_some());
}

/// Regression (found by the baseline target): a baseline whose backend line holds an escape
/// character was read, and `sim plot --against` wrote it into the SVG's legend, which XML does
/// not allow; names with control characters are now refused where they are written.
#[test]
fn names_with_control_characters_are_refused_and_separators_are_only_names() {
    for name in ["\u{1b}[31mred", "a\rb", "a\0b", &"n".repeat(257)] {
        for key in ["scenario", "backend"] {
            let input = baseline("exact@drop.toml.snap", |t| {
                replace_line(t, &format!("{key} "), &format!("{key} {name}"))
            });
            let message = verdict(Target::Baseline, &input).expect("refused");
            assert!(message.contains("exact@drop.toml.snap:"), "{message}");
        }
    }
    // A newline forges a line: the forged line is read as what it says, or refused.
    let input = baseline("drop.trace", |t| {
        replace_line(t, "scenario ", "scenario drop\nsteps 99")
    });
    let _ = verdict(Target::Baseline, &input);
    // Path separators are printable: the trace reads them as a name (never a path).
    for name in ["../escaped-plot", "/abs/path/x", "a/b"] {
        let input = baseline("drop.trace", |t| {
            replace_line(t, "backend ", &format!("backend {name}"))
        });
        assert_eq!(verdict(Target::Baseline, &input), None, "{name}");
    }
}

/// The `drop` scenario's text, with `extra` appended (a scenario case's input: its file name,
/// then its text).
fn scenario_with(edit: impl Fn(&str) -> String) -> String {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/drop.toml"),
    )
    .unwrap();
    format!("drop.toml\n{}", edit(&text))
}

#[test]
fn crowds_past_the_agent_budget_or_stacked_are_refused() {
    let past = [
        ((1000, 1001), ["48", "48"], 1, 1),
        ((1000, 1000), ["48", "48"], 1, 1),
        ((4, 4), ["0", "0"], 1, 1),
        ((4, 4), ["48", "48"], 1, 2),
        ((4, 4), ["1e-9", "1e-9"], 1, 1),
    ];
    for (size, spacing, events, copies) in past {
        let input = scenario_with(|t| {
            t.to_string() + &crowd_tables("stand", size, spacing, events, copies)
        });
        let message = verdict(Target::Scenario, &input)
            .unwrap_or_else(|| panic!("{size:?} {spacing:?} x{copies} accepted"));
        assert!(message.contains("drop.toml:"), "{message}");
    }
}

#[test]
fn a_crowd_of_100000_with_a_2000_event_script_stays_within_the_cap() {
    fixtures();
    let cap = MemoryCap::new(1 << 30);
    let input = scenario_with(|t| {
        t.to_string() + &crowd_tables("stand", (100, 1000), ["48", "48"], 2000, 1)
    });
    // Refused or accepted (it is larger than a fuzzed scenario is run): either within 1 GB.
    let _ = verdict(Target::Scenario, &input);
    cap.check().unwrap();
}

#[test]
fn scenario_names_with_control_characters_are_refused() {
    for name in ["a\nsteps 99", "\u{1b}[31m", "a\0b", &"n".repeat(257)] {
        let hostile = toml_string(name);
        let input =
            scenario_with(|t| t.replacen("name = \"drop\"", &format!("name = {hostile}"), 1));
        let message = verdict(Target::Scenario, &input).expect("refused");
        assert!(message.contains("drop.toml:4:"), "{message}");
        let input = scenario_with(|t| {
            t.replacen("name = \"onto the ledge\"", &format!("name = {hostile}"), 1)
        });
        assert!(verdict(Target::Scenario, &input).is_some());
        let input = scenario_with(|t| {
            t.replace("\nstand =", &format!("\n{hostile} ="))
                .replace("\"stand\"", &hostile)
        });
        assert!(verdict(Target::Scenario, &input).is_some());
    }
}

/// Issue 32's script views: a `view` that is not two finite angles within the numeric domain is
/// refused where it is written; an ordinary one runs.
#[test]
fn script_views_out_of_the_domain_are_refused_where_they_are() {
    for (i, view) in VIEWS.iter().enumerate() {
        let input = scenario_with(|t| with_view(t, view));
        let ordinary = i >= VIEWS.len() - 2;
        match verdict(Target::Scenario, &input) {
            None => assert!(ordinary, "{view} accepted"),
            Some(message) => {
                assert!(!ordinary, "{view} refused: {message}");
                assert!(message.contains("drop.toml:"), "{message}");
            }
        }
    }
}

/// Every fixed list of numbers of a scenario and of a TOML world (points, vectors, script moves,
/// crowd spacings, regions, brush corners, plane normals) with one number more or one fewer is
/// refused where it is written, naming the counts (a fixed `[f64; N]` took the first N numbers
/// of a longer list and ran).
#[test]
fn fixed_lists_one_number_too_long_or_too_short_are_refused_where_they_are() {
    let scenarios = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let world = "[[brush]]\nbox = { min = [-512, -512, -16], max = [512, 512, 0] }\n[[brush]]\n\
                 planes = [{ normal = [1, 0, 0], dist = 80 }, { normal = [-1, 0, 0], dist = -64 }, \
                 { normal = [0, 1, 0], dist = 512 }, { normal = [0, -1, 0], dist = 512 }, \
                 { normal = [0, 0, 1], dist = 128 }, { normal = [0, 0, -1], dist = 0 }]\n";
    assert_eq!(verdict(Target::World, world), None);
    let mut cases = Vec::new();
    for name in ["drop.toml", "crowd.toml"] {
        let text = std::fs::read_to_string(scenarios.join(name)).unwrap();
        cases.push((Target::Scenario, name, text));
    }
    cases.push((Target::World, "fuzz-world.toml", world.to_string()));
    for (target, name, text) in cases {
        let lists = number_lists(&text);
        assert!(lists.len() >= 8, "{name}: {} lists", lists.len());
        for list in lists {
            for longer in [true, false] {
                let written = &text[list.clone()];
                let count = written.split(',').count();
                let got = if longer { count + 1 } else { count - 1 };
                let mutated = with_list_length(&text, list.clone(), longer);
                let input = match target {
                    Target::Scenario => format!("{name}\n{mutated}"),
                    _ => mutated,
                };
                let message = verdict(target, &input)
                    .unwrap_or_else(|| panic!("{name}: {written} with {got} numbers accepted"));
                assert!(
                    message.contains(&format!("{name}:"))
                        && message.contains(&format!("expected {count} numbers, got {got}")),
                    "{name}: {written} with {got} numbers: {message}"
                );
            }
        }
    }
}

/// A map of `block` (an entity or a worldspawn brush) and a floor.
fn map_with(block: &str) -> String {
    format!(
        "{{\n\"classname\" \"worldspawn\"\n{{\n( -64 -64 -16 ) ( -64 -63 -16 ) ( -63 -64 -16 ) t 0 0 0 1 1\n\
         ( 64 64 0 ) ( 64 65 0 ) ( 65 64 0 ) t 0 0 0 1 1\n( -64 -64 -16 ) ( -63 -64 -16 ) ( -64 -64 -15 ) t 0 0 0 1 1\n\
         ( 64 64 0 ) ( 64 64 1 ) ( 65 64 0 ) t 0 0 0 1 1\n( -64 -64 -16 ) ( -64 -64 -15 ) ( -64 -63 -16 ) t 0 0 0 1 1\n\
         ( 64 64 0 ) ( 65 64 0 ) ( 64 65 0 ) t 0 0 0 1 1\n}}\n{block}}}\n"
    )
}

#[test]
fn a_patch_past_the_facet_budget_is_refused_where_it_is() {
    let message = verdict(Target::Map, &map_with(&patch(5, 500_000.0))).expect("refused");
    assert!(message.contains("fuzz.map:"), "{message}");
    assert_eq!(verdict(Target::Map, &map_with(&patch(3, 64.0))), None);
}

#[test]
fn a_brush_past_the_face_budget_is_left_out_and_one_within_it_builds() {
    // 1,100 sides and a top and a bottom: refused as a brush, the map loads without it.
    assert_eq!(verdict(Target::Map, &map_with(&disc(1100))), None);
    assert_eq!(verdict(Target::Map, &map_with(&disc(1022))), None);
}

#[test]
fn a_few_hundred_fresh_baseline_cases_find_nothing() {
    let mut accepted = 0;
    for case in 0..300u64 {
        let input = fixtures().input(Target::Baseline, &mut Rng::new(case_seed(35, case)));
        match run_input(fixtures(), Target::Baseline, &input) {
            Ok(Verdict::Accepted) => accepted += 1,
            Ok(Verdict::Refused(_)) => {}
            Err(failure) => panic!("case {case} (--seed 35 --case {case}): {failure}"),
        }
    }
    assert!(accepted >= 30, "only {accepted} of 300 accepted");
}
