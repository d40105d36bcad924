//! Entities that act when a firing uses them (issue 32's fidelity; `docs/entities.md`,
//! "Firing a name", "Teleporters"), from small map texts read as the map reader reads files:
//!
//! - a Quake 1 teleporter with a `targetname` works only for 0.2 s after being fired
//!   (`teleport_use`, `teleport_touch`, `qw-qc/triggers.qc`), and touches again what already
//!   stands in it (`force_retouch`);
//! - a named `trigger_multiple` is still fired by touch in both games (Quake 1's
//!   `trigger_multiple` sets `touch = multi_touch` unless `NOTOUCH`, whatever its `targetname`;
//!   Quake III's `SP_trigger_multiple` always sets `Touch_Multi`), and a named Quake III
//!   teleporter works by touch (`trigger_teleporter_touch` reads no `targetname`).

use cspace_entities::Dialect;
use cspace_geom::DVec3;
use cspace_mapfile::map_text::{self, entity};
use cspace_mapfile::{BuildOptions, MapFile, build_world};
use cspace_sim::{AgentId, AgentSpec, BackendKind, EventKind, MoverEventKind, Sim};

use super::living::player;
use super::triggers::living_sim;

/// A Quake-format axial brush.
fn brush(min: [i32; 3], max: [i32; 3], texture: &str) -> String {
    map_text::box_brush(min, max, texture, map_text::QUAKE)
}

/// A worldspawn with a floor (top at z 0) followed by `entities`.
fn map(entities: &[String]) -> String {
    let mut text = entity(
        &[("classname", "worldspawn")],
        &[brush([-1024, -1024, -16], [1024, 1024, 0], "floor")],
    );
    for e in entities {
        text.push_str(e);
    }
    text
}

/// A living simulation of `text` read with `dialect`'s rules, on `backend`, without warnings.
fn living_map(backend: BackendKind, text: &str, dialect: Dialect, seed: u64) -> Sim {
    let file = MapFile::parse(text, "fired.map").unwrap();
    let options = BuildOptions {
        dialect: Some(dialect),
        living: true,
        ..BuildOptions::default()
    };
    let built = build_world(&file, &options).unwrap();
    assert!(
        built.living.warnings.is_empty(),
        "{:?}",
        built.living.warnings
    );
    let statics = built.world.brushes().iter().map(|b| b.brush.clone());
    living_sim(backend, statics.collect(), built.living, seed, 2000)
}

/// Where an agent stands on the floor at (x, y).
fn standing(x: f64, y: f64) -> DVec3 {
    DVec3::new(x, y, 24.03125)
}

/// The steps at which `agent` was teleported.
fn teleports(sim: &Sim, agent: AgentId) -> Vec<u64> {
    sim.events()
        .iter()
        .filter(|e| e.agent == agent && matches!(e.kind, EventKind::Teleported { .. }))
        .map(|e| e.step)
        .collect()
}

/// Quake 1: a teleporter named "tele" (x 0..64), its destination, and (when `fired`) a
/// `trigger_once` at x -400..-336 whose target is the teleporter. The teleporter is written
/// first, so it is tested before the trigger_once in each step.
fn named_teleporter(fired: bool) -> String {
    let mut entities = vec![
        entity(
            &[
                ("classname", "trigger_teleport"),
                ("targetname", "tele"),
                ("target", "dest"),
            ],
            &[brush([0, -64, 0], [64, 64, 128], "trigger")],
        ),
        entity(
            &[
                ("classname", "info_teleport_destination"),
                ("targetname", "dest"),
                ("origin", "500 300 40"),
                ("angle", "90"),
            ],
            &[],
        ),
    ];
    if fired {
        entities.push(entity(
            &[("classname", "trigger_once"), ("target", "tele")],
            &[brush([-400, -64, 0], [-336, 64, 128], "trigger")],
        ));
    }
    map(&entities)
}

/// Never fired, a named Quake 1 teleporter is inert; fired, it teleports the agent standing in
/// it at the next step (`force_retouch = 2`: "make sure even still objects get hit").
#[test]
fn a_named_quake1_teleporter_works_once_fired() {
    for backend in BackendKind::ALL {
        let mut sim = living_map(backend, &named_teleporter(false), Dialect::Quake1, 0);
        let a = sim
            .spawn(AgentSpec::new(player(), standing(32.0, 0.0)))
            .unwrap();
        sim.run(64);
        assert_eq!(teleports(&sim, a), [] as [u64; 0], "{backend:?}");
        // It touched the teleporter all the same.
        assert!(
            sim.events()
                .iter()
                .any(|e| e.agent == a && matches!(e.kind, EventKind::Touches { trigger: 0, .. })),
            "{backend:?}"
        );

        let mut sim = living_map(backend, &named_teleporter(true), Dialect::Quake1, 0);
        let a = sim
            .spawn(AgentSpec::new(player(), standing(32.0, 0.0)))
            .unwrap();
        // B stands in the trigger_once: it fires "tele" at step 1, after the teleporter was
        // tested in that step; the next step's touch teleports A.
        let b = sim
            .spawn(AgentSpec::new(player(), standing(-368.0, 0.0)))
            .unwrap();
        sim.run(64);
        assert_eq!(teleports(&sim, a), [2], "{backend:?}");
        assert_eq!(teleports(&sim, b), [] as [u64; 0], "{backend:?}");
        // triggers.qc: the destination's origin + '0 0 27'.
        let landed = sim.events().iter().find_map(|e| match e.kind {
            EventKind::Teleported { to, .. } => Some(to),
            _ => None,
        });
        assert_eq!(landed, Some(DVec3::new(500.0, 300.0, 67.0)), "{backend:?}");
        let v = sim.verification().unwrap();
        assert_eq!(v.in_solid, 0, "{backend:?}: {:?}", v.first);
    }
}

/// The window: fired at step 1 (the clock's time 1/64 s), `teleport_use` sets `nextthink =
/// time + 0.2`, and `teleport_touch` works while `nextthink` is not past (`nextthink < time`
/// returns) and before the think clears it. Quake 1 runs a frame's touches with `time` at the
/// frame's start and the think in the frame that reaches `nextthink` after them
/// (`SV_RunThink`), so with the clock's time at each step's end the teleporter works at step
/// `k` when `k / 64 < 1 / 64 + 0.2`: up to step 13 (12.8 steps after the firing), not at step
/// 14. An agent put into it before step 13 is teleported at step 13; one put in before step 14
/// never is.
#[test]
fn a_fired_quake1_teleporter_works_for_0_2_seconds() {
    for (enter, teleported) in [(5, true), (13, true), (14, false), (40, false)] {
        let mut sim = living_map(
            BackendKind::Exact,
            &named_teleporter(true),
            Dialect::Quake1,
            0,
        );
        let c = sim
            .spawn(AgentSpec::new(player(), standing(-100.0, 300.0)))
            .unwrap();
        sim.spawn(AgentSpec::new(player(), standing(-368.0, 0.0)))
            .unwrap();
        assert_eq!(sim.dt(), 1.0 / 64.0);
        sim.run(enter - 1);
        sim.teleport(c, standing(32.0, 0.0), DVec3::ZERO).unwrap();
        sim.run(64);
        let expected: &[u64] = if teleported { &[enter] } else { &[] };
        assert_eq!(teleports(&sim, c), expected, "entering at step {enter}");
        if !teleported {
            // Still standing in the teleporter.
            let me = sim.agent(c).unwrap();
            assert!(me.position.x > 0.0 && me.position.x < 64.0, "{me:?}");
        }
    }
}

/// A `trigger_multiple` with a `targetname` and a func_door it targets (named, so only a firing
/// opens it): both games fire it when an agent touches it.
#[test]
fn a_named_trigger_multiple_is_fired_by_touch_in_both_games() {
    let text = map(&[
        entity(
            &[("classname", "func_door"), ("targetname", "door")],
            &[brush([200, -64, 0], [208, 64, 128], "door")],
        ),
        entity(
            &[
                ("classname", "trigger_multiple"),
                ("targetname", "named"),
                ("target", "door"),
            ],
            &[brush([-64, -64, 0], [64, 64, 128], "trigger")],
        ),
    ]);
    for dialect in [Dialect::Quake1, Dialect::Quake3] {
        let mut sim = living_map(BackendKind::Exact, &text, dialect, 0);
        sim.spawn(AgentSpec::new(player(), standing(0.0, 0.0)))
            .unwrap();
        sim.run(4);
        let started: Vec<u64> = sim
            .mover_events()
            .iter()
            .filter(|e| e.kind == MoverEventKind::Started)
            .map(|e| e.step)
            .collect();
        // Quake 1's door_use starts at once; Quake III's Use_BinaryMover starts the move 50 ms
        // later but reports it as used now.
        assert_eq!(started, [1], "{dialect:?}");
    }
}

/// Quake III's teleporter reads no `targetname`: a named one teleports by touch.
#[test]
fn a_named_quake3_teleporter_works_by_touch() {
    let text = map(&[
        entity(
            &[
                ("classname", "trigger_teleport"),
                ("targetname", "tele"),
                ("target", "dest"),
            ],
            &[brush([0, -64, 0], [64, 64, 128], "trigger")],
        ),
        entity(
            &[
                ("classname", "misc_teleporter_dest"),
                ("targetname", "dest"),
                ("origin", "500 300 40"),
            ],
            &[],
        ),
    ]);
    let mut sim = living_map(BackendKind::Exact, &text, Dialect::Quake3, 0);
    let a = sim
        .spawn(AgentSpec::new(player(), standing(32.0, 0.0)))
        .unwrap();
    sim.run(4);
    assert_eq!(teleports(&sim, a), [1]);
}
