//! The expectations of a living world's triggers (issue 32): `rides`, `uses_teleporter`,
//! `triggers`, and `reaches` on the far side of a teleporter, judged from the run's events and
//! its every step (not its samples), and refused where they are written when they name nothing.

use std::path::{Path, PathBuf};

use cspace_scenario::scenario::Scenario;
use cspace_scenario::{RunOptions, run_scenario};
use cspace_sim::BackendKind;

fn scenarios() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios")
}

/// `scenarios/teleport_quake1.toml` with `expect` in place of its expectations.
fn teleport_with(expect: &str) -> Result<Scenario, String> {
    let text = std::fs::read_to_string(scenarios().join("teleport_quake1.toml")).unwrap();
    let head = &text[..text.find("[[expect]]").unwrap()];
    Scenario::parse(
        &scenarios().join("teleport_quake1.toml"),
        &format!("{head}{expect}"),
    )
    .map_err(|e| format!("{e:#}"))
}

/// The failures of a run of `scenario` on the exact reference, sampled once at the end only.
fn failures(scenario: &Scenario) -> Vec<Option<String>> {
    let outcome = run_scenario(
        scenario,
        BackendKind::Exact,
        RunOptions {
            sample_every: Some(100_000),
            ..RunOptions::default()
        },
    )
    .unwrap();
    outcome.checks.into_iter().map(|c| c.failure).collect()
}

/// A region beyond the teleporter is reached although the agent never walks there: the check
/// follows every step, so a teleport between samples is seen; a region on the line it would
/// have walked without the teleporter is never reached.
#[test]
fn reaches_holds_through_a_teleporter_between_samples() {
    let s = teleport_with(
        "[[expect]]\nagent = \"sideways\"\nreaches = { min = [-300, 200, 0], max = [-200, 300, 128] }\nby = 0.8\n\
         [[expect]]\nagent = \"sideways\"\nnever_reaches = { min = [200, -64, 0], max = [512, 64, 128] }\n",
    )
    .unwrap();
    assert_eq!(failures(&s), [None, None]);
}

#[test]
fn teleporter_and_trigger_expectations_are_judged_from_the_events() {
    let s = teleport_with(
        "[[expect]]\nagent = \"sideways\"\nuses_teleporter = true\n\
         [[expect]]\nagent = \"sideways\"\nuses_teleporter = false\n\
         [[expect]]\nagent = \"backwards\"\nuses_teleporter = 1\n\
         [[expect]]\nagent = \"backwards\"\ntriggers = 1\n\
         [[expect]]\nagent = \"backwards\"\ntriggers = \"TRIGGER_TELEPORT\"\n",
    )
    .unwrap();
    let f = failures(&s);
    assert_eq!(f[0], None);
    assert!(
        f[1].as_deref()
            .is_some_and(|w| w.contains("teleported at step 46")),
        "{f:?}"
    );
    assert_eq!(f[2..], [None, None, None]);
}

#[test]
fn rides_is_judged_from_the_ride_events() {
    let text = std::fs::read_to_string(scenarios().join("living.toml")).unwrap();
    let head = &text[..text.find("[[expect]]").unwrap()];
    let s = Scenario::parse(
        &scenarios().join("living.toml"),
        &format!(
            "{head}[[expect]]\nagent = \"up the lift\"\nrides = \"func_plat\"\n\
             [[expect]]\nagent = \"up the lift\"\nrides = 1\n\
             [[expect]]\nagent = \"through the door\"\nrides = \"plat\"\n"
        ),
    )
    .unwrap();
    let f = failures(&s);
    assert_eq!(f[..2], [None, None]);
    assert_eq!(f[2].as_deref(), Some("never rode it"));
}

#[test]
fn expectations_naming_nothing_are_refused_where_they_are_written() {
    let e = teleport_with("[[expect]]\nagent = 0\nrides = \"door\"\n").unwrap_err();
    assert!(
        e.contains("rides: no mover door; the movers are: none"),
        "{e}"
    );
    assert!(e.contains("teleport_quake1.toml:38:9: rides"), "{e}");
    let e = teleport_with("[[expect]]\nagent = 0\ntriggers = \"trigger_once\"\n").unwrap_err();
    assert!(
        e.contains("the triggers are: trigger_teleport (entity 1)"),
        "{e}"
    );
    let e = teleport_with("[[expect]]\nagent = 0\nuses_teleporter = 2\n").unwrap_err();
    assert!(
        e.contains("entity 2 is no teleporter; the teleporters are entities: 1"),
        "{e}"
    );
    let frozen = teleport_with("[[expect]]\nagent = 0\nuses_teleporter = true\n")
        .unwrap()
        .path;
    let text = std::fs::read_to_string(&frozen).unwrap();
    let head = &text[..text.find("[[expect]]").unwrap()].replace("living = true\n", "");
    let e = Scenario::parse(
        &frozen,
        &format!("{head}[[expect]]\nagent = 0\ntriggers = 1\n"),
    )
    .map(|_| ())
    .unwrap_err();
    assert!(
        format!("{e:#}").contains("triggers needs a living world"),
        "{e:#}"
    );
}

#[test]
fn a_seed_must_be_a_whole_number_from_0() {
    let text = std::fs::read_to_string(scenarios().join("teleport_quake3.toml")).unwrap();
    let bad = text.replace("seed = 0", "seed = -3");
    let e = Scenario::parse(&scenarios().join("teleport_quake3.toml"), &bad).unwrap_err();
    assert!(
        format!("{e:#}").contains("seed must be a whole number from 0, got -3"),
        "{e:#}"
    );
    let s = Scenario::parse(&scenarios().join("teleport_quake3.toml"), &text).unwrap();
    assert_eq!(s.seed, 0);
}
