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
use cspace_mapfile::{BuildOptions, MapFile, MapWorld, build_world};
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

/// `text` read as a living world with `dialect`'s rules.
fn built(text: &str, dialect: Dialect) -> MapWorld {
    let file = MapFile::parse(text, "fired.map").unwrap();
    let options = BuildOptions {
        dialect: Some(dialect),
        living: true,
        ..BuildOptions::default()
    };
    build_world(&file, &options).unwrap()
}

/// A living simulation of `built` on `backend`.
fn simulate(backend: BackendKind, built: &MapWorld, seed: u64) -> Sim {
    let statics = built.world.brushes().iter().map(|b| b.brush.clone());
    living_sim(backend, statics.collect(), built.living.clone(), seed, 2000)
}

/// A living simulation of `text` read with `dialect`'s rules, on `backend`, without warnings.
fn living_map(backend: BackendKind, text: &str, dialect: Dialect, seed: u64) -> Sim {
    let built = built(text, dialect);
    assert!(
        built.living.warnings.is_empty(),
        "{:?}",
        built.living.warnings
    );
    simulate(backend, &built, seed)
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

/// A teleporter at x 0..64 whose target is "dest", named "tele" when `named`.
fn teleporter(named: bool) -> String {
    let mut keys = vec![("classname", "trigger_teleport"), ("target", "dest")];
    if named {
        keys.push(("targetname", "tele"));
    }
    entity(&keys, &[brush([0, -64, 0], [64, 64, 128], "trigger")])
}

/// A destination named "dest" of `class` at `origin`, with `more` keys.
fn destination(class: &str, origin: &str, more: &[(&str, &str)]) -> String {
    let mut keys = vec![
        ("classname", class),
        ("targetname", "dest"),
        ("origin", origin),
    ];
    keys.extend_from_slice(more);
    entity(&keys, &[])
}

/// Quake 1: a teleporter named "tele" (x 0..64), its destination, and (when `fired`) a
/// `trigger_once` at x -400..-336 whose target is the teleporter. The teleporter is written
/// first, so it is tested before the trigger_once in each step.
fn named_teleporter(fired: bool) -> String {
    let mut entities = vec![
        teleporter(true),
        destination(
            "info_teleport_destination",
            "500 300 40",
            &[("angle", "90")],
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
        teleporter(true),
        destination("misc_teleporter_dest", "500 300 40", &[]),
    ]);
    let mut sim = living_map(BackendKind::Exact, &text, Dialect::Quake3, 0);
    let a = sim
        .spawn(AgentSpec::new(player(), standing(32.0, 0.0)))
        .unwrap();
    sim.run(4);
    assert_eq!(teleports(&sim, a), [1]);
}

/// The `target_push` velocities of the test map (Quake III, gravity 800), from the game's
/// arithmetic:
///
/// - "level" (`angles` "-45 90 0", `speed` 500): `SP_target_push` scales `G_SetMovedir`'s
///   direction, `AngleVectors` forward `(cos p cos y, cos p sin y, -sin p)` (`q_math.c`), by the
///   speed: pitch -45 looks up, so about (0, 353.6, 353.6);
/// - "aimed" (origin (0, 0, 100), `target` the point (300, 400, 500)): `AimAtTarget` from its
///   origin, `h` = 400, `t = sqrt(h / (g / 2))` = 1 s, `v_xy = d_xy / t` = (300, 400), `v_z = t g`
///   = 800.
fn expected_pushes() -> [DVec3; 2] {
    let (sy, cy) = 90f64.to_radians().sin_cos();
    let (sp, cp) = (-45f64).to_radians().sin_cos();
    let level = DVec3::new(cp * cy, cp * sy, -sp) * 500.0;
    let h: f64 = 500.0 - 100.0;
    let t = (h / (800.0 / 2.0)).sqrt();
    let flat = DVec3::new(300.0, 400.0, 0.0);
    let aimed = flat / flat.length() * (flat.length() / t) + DVec3::Z * (t * 800.0);
    [level, aimed]
}

/// A Quake III map with two `target_push`es ("level", "aimed"), a `target_delay` of 0.5 s to
/// the aimed one, and two touch triggers: one at x -64..64 fires "level", one at x 200..328
/// fires "later" (the delay), each once.
fn target_push_map() -> String {
    map(&[
        entity(
            &[
                ("classname", "target_push"),
                ("targetname", "level"),
                ("angles", "-45 90 0"),
                ("speed", "500"),
            ],
            &[],
        ),
        entity(
            &[
                ("classname", "target_push"),
                ("targetname", "aimed"),
                ("origin", "0 0 100"),
                ("target", "apex"),
                ("spawnflags", "1"),
            ],
            &[],
        ),
        entity(
            &[
                ("classname", "target_position"),
                ("targetname", "apex"),
                ("origin", "300 400 500"),
            ],
            &[],
        ),
        entity(
            &[
                ("classname", "target_delay"),
                ("targetname", "later"),
                ("target", "aimed"),
                ("wait", "0.5"),
            ],
            &[],
        ),
        entity(
            &[
                ("classname", "trigger_multiple"),
                ("target", "level"),
                ("wait", "-1"),
            ],
            &[brush([-64, -64, 0], [64, 64, 128], "trigger")],
        ),
        entity(
            &[
                ("classname", "trigger_multiple"),
                ("target", "later"),
                ("wait", "-1"),
            ],
            &[brush([200, -64, 0], [328, 64, 128], "trigger")],
        ),
    ])
}

/// The steps and velocities of `agent`'s `target_push` events.
fn pushes(sim: &Sim, agent: AgentId) -> Vec<(u64, u32, DVec3)> {
    sim.events()
        .iter()
        .filter(|e| e.agent == agent)
        .filter_map(|e| match e.kind {
            EventKind::TargetPushed { push, velocity } => Some((e.step, push, velocity)),
            _ => None,
        })
        .collect()
}

fn near(a: DVec3, b: DVec3) -> bool {
    (a - b).length() <= 1e-9
}

/// Quake III's `target_push`: a trigger touched by agent 1 uses it with agent 1 as the activator
/// (`Touch_Multi`, `G_UseTargets`, `Use_target_push`), which leaves with the velocity the game's
/// arithmetic gives; agent 0, touching nothing, is not pushed. Through a `target_delay` the
/// activator is kept (`ent->activator`) and the push comes 0.5 s later, wherever the activator
/// then is (here far from every trigger): fired at step 1 (1/64 s), the delay runs out at the
/// first step at or past 1/64 + 0.5 s, step 33.
#[test]
fn a_quake3_target_push_launches_the_activator() {
    let [level, aimed] = expected_pushes();
    for backend in BackendKind::ALL {
        let mut sim = living_map(backend, &target_push_map(), Dialect::Quake3, 0);
        let idle = sim
            .spawn(AgentSpec::new(player(), standing(-500.0, 0.0)))
            .unwrap();
        let a = sim
            .spawn(AgentSpec::new(player(), standing(0.0, 0.0)))
            .unwrap();
        let b = sim
            .spawn(AgentSpec::new(player(), standing(264.0, 0.0)))
            .unwrap();
        sim.step();
        let me = sim.agent(a).unwrap();
        assert!(near(me.velocity, level), "{backend:?}: {me:?} vs {level}");
        assert!(!me.on_ground, "{backend:?}: pushed up, off the ground");
        // The activator need not be near any trigger when the delayed use comes.
        sim.teleport(b, standing(-800.0, 600.0), DVec3::ZERO)
            .unwrap();
        sim.run(40);
        assert_eq!(pushes(&sim, idle), [], "{backend:?}");
        let got = pushes(&sim, a);
        assert_eq!(got.len(), 1, "{backend:?}: {got:?}");
        assert_eq!((got[0].0, got[0].1), (1, 0), "{backend:?}");
        let got = pushes(&sim, b);
        assert_eq!(got.len(), 1, "{backend:?}: {got:?}");
        assert_eq!((got[0].0, got[0].1), (33, 1), "{backend:?}");
        assert!(near(got[0].2, aimed), "{backend:?}: {got:?} vs {aimed}");
        let v = sim.verification().unwrap();
        assert_eq!(v.in_solid, 0, "{backend:?}: {:?}", v.first);
    }
}

/// `trigger_always` uses its targets with itself as the activator (`G_UseTargets(ent, ent)`),
/// no client: a `target_push` it fires pushes nobody (`Use_target_push` returns). Quake 1 has no
/// `target_push`: warned, removed.
#[test]
fn a_target_push_without_an_agent_activator_pushes_nobody() {
    let text = map(&[
        entity(
            &[
                ("classname", "target_push"),
                ("targetname", "up"),
                ("angle", "-1"),
            ],
            &[],
        ),
        entity(&[("classname", "trigger_always"), ("target", "up")], &[]),
    ]);
    let mut sim = living_map(BackendKind::Exact, &text, Dialect::Quake3, 0);
    let a = sim
        .spawn(AgentSpec::new(player(), standing(0.0, 0.0)))
        .unwrap();
    sim.run(64);
    assert_eq!(pushes(&sim, a), []);
    assert!(sim.agent(a).unwrap().on_ground);

    let built = built(&text, Dialect::Quake1);
    assert!(built.living.target_pushes.is_empty());
    assert!(
        built
            .living
            .warnings
            .iter()
            .any(|w| w.to_string().contains("target_push is not a Quake 1 class")),
        "{:?}",
        built.living.warnings
    );
}

/// A `target_position` named "apex" at `origin`.
fn apex(origin: &str) -> String {
    entity(
        &[
            ("classname", "target_position"),
            ("targetname", "apex"),
            ("origin", origin),
        ],
        &[],
    )
}

/// Quake III's `AimAtTarget` (`g_trigger.c`) from `from` to the apex `to` under gravity 800:
/// `t = sqrt(h / (g / 2))`, `v_xy = d_xy / t` towards it, `v_z = t g`.
fn aim_at_target(from: DVec3, to: DVec3) -> DVec3 {
    let t = ((to.z - from.z) / (800.0 / 2.0)).sqrt();
    let flat = DVec3::new(to.x - from.x, to.y - from.y, 0.0);
    flat / flat.length() * (flat.length() / t) + DVec3::Z * (t * 800.0)
}

/// Two `target_position`s named "apex"; a jump pad (x -32..32, z 0..8: centre (0, 0, 4)) and a
/// `target_push` at (0, 0, 50), fired by a trigger at x 500..600, both aim at "apex".
/// `G_PickTarget` picks one of the two for each, once, when the game spawns them
/// (`AimAtTarget` is their think): from the simulation's seeded generator. The same seed always
/// aims the same way; among 16 seeds each of them aims at both points.
#[test]
fn quake3_aims_pick_among_points_of_one_name_with_the_seed() {
    let apexes = [
        DVec3::new(300.0, 0.0, 260.0),
        DVec3::new(-300.0, 100.0, 200.0),
    ];
    let text = map(&[
        entity(
            &[("classname", "trigger_push"), ("target", "apex")],
            &[brush([-32, -32, 0], [32, 32, 8], "trigger")],
        ),
        apex("300 0 260"),
        apex("-300 100 200"),
        entity(
            &[
                ("classname", "target_push"),
                ("targetname", "tp"),
                ("origin", "0 0 50"),
                ("target", "apex"),
            ],
            &[],
        ),
        entity(
            &[("classname", "trigger_multiple"), ("target", "tp")],
            &[brush([500, -64, 0], [600, 64, 128], "trigger")],
        ),
    ]);
    let pad = DVec3::new(0.0, 0.0, 4.0);
    let origin = DVec3::new(0.0, 0.0, 50.0);
    // Which apex each aims at, for a seed.
    let run = |seed: u64| {
        let mut sim = living_map(BackendKind::Exact, &text, Dialect::Quake3, seed);
        let a = sim
            .spawn(AgentSpec::new(player(), standing(0.0, 0.0)))
            .unwrap();
        let b = sim
            .spawn(AgentSpec::new(player(), standing(550.0, 0.0)))
            .unwrap();
        sim.step();
        let which = |v: DVec3, from: DVec3| {
            let found = apexes
                .iter()
                .position(|&to| near(v, aim_at_target(from, to)));
            found.unwrap_or_else(|| panic!("seed {seed}: {v} aims at no apex from {from}"))
        };
        let pad_pick = which(sim.agent(a).unwrap().velocity, pad);
        let got = pushes(&sim, b);
        assert_eq!(got.len(), 1, "seed {seed}: {got:?}");
        (pad_pick, which(got[0].2, origin))
    };
    let mut seen = [[false; 2]; 2];
    for seed in 0..16 {
        let picks = run(seed);
        assert_eq!(run(seed), picks, "seed {seed} is not deterministic");
        seen[0][picks.0] = true;
        seen[1][picks.1] = true;
    }
    assert_eq!(seen, [[true; 2]; 2], "16 seeds never picked some apex");
}

/// A destination's pitch: both games set the velocity from `AngleVectors` of its whole
/// `angles` (Quake III `TeleportPlayer`, `g_misc.c`: 400 along it; Quake 1 `teleport_touch`:
/// `makevectors (t.mangle)`, `v_forward * 300`, with `info_teleport_destination`'s `mangle =
/// angles`). `AngleVectors` (`q_math.c`, Quake 1's `mathlib.c`) gives `(cos p cos y, cos p sin
/// y, -sin p)`: a positive pitch looks, and sends, down. The view takes the angles too
/// (`SetClientViewAngle`; Quake 1's `fixangle` sends `angles` as the view). An `angle` key is a
/// yaw alone (pitch 0).
#[test]
fn a_pitched_destination_sends_the_agent_along_its_pitch() {
    let forward = |pitch: f64, yaw: f64| {
        let (sy, cy) = yaw.to_radians().sin_cos();
        let (sp, cp) = pitch.to_radians().sin_cos();
        DVec3::new(cp * cy, cp * sy, -sp)
    };
    // (dialect, destination class, angles key, its value, pitch, yaw, speed, lift)
    let cases = [
        (
            Dialect::Quake1,
            "info_teleport_destination",
            "angles",
            "30 90 0",
            30.0,
            90.0,
            300.0,
            27.0,
        ),
        (
            Dialect::Quake3,
            "misc_teleporter_dest",
            "angles",
            "-45 180 0",
            -45.0,
            180.0,
            400.0,
            1.0,
        ),
        (
            Dialect::Quake3,
            "misc_teleporter_dest",
            "angle",
            "45",
            0.0,
            45.0,
            400.0,
            1.0,
        ),
    ];
    for (dialect, class, key, value, pitch, yaw, speed, lift) in cases {
        let text = map(&[
            teleporter(false),
            destination(class, "500 300 200", &[(key, value)]),
        ]);
        for backend in BackendKind::ALL {
            let mut sim = living_map(backend, &text, dialect, 0);
            let a = sim
                .spawn(AgentSpec::new(player(), standing(32.0, 0.0)))
                .unwrap();
            sim.step();
            assert_eq!(teleports(&sim, a), [1], "{dialect:?} {backend:?}");
            let me = sim.agent(a).unwrap();
            assert_eq!(me.position, DVec3::new(500.0, 300.0, 200.0 + lift));
            let expected = forward(pitch, yaw) * speed;
            assert!(
                near(me.velocity, expected),
                "{dialect:?} {backend:?}: {} vs {expected}",
                me.velocity
            );
            let view = sim.intent(a).unwrap().view;
            assert_eq!((view.pitch, view.yaw), (pitch, yaw), "{dialect:?}");
        }
    }
}

/// Quake III's `trigger_hurt` (`g_trigger.c`): `START_OFF` (1) spawns it unlinked, a use toggles
/// it (`hurt_use`: "Targeting the trigger will toggle its on / off state"), `SLOW` (16) hits once
/// a second instead of every `FRAMETIME` (`hurt_touch`). Three hurt volumes, the first two named
/// "h" (the first `START_OFF`), the third `SLOW`, then a `trigger_once` firing "h" at step 1,
/// after the volumes were tested in that step. Quake III: the first hurts from step 2 every 0.1
/// s (the first step at or past the last hit's time + 0.1: steps 2, 9, 16, 23 ...), the second
/// at step 1 only (then off), the third at steps 1, 65, 129. Quake 1's `trigger_hurt` reads no
/// flags and has no use: each hurts once a second (`hurt_on`), at steps 1, 65, 129.
#[test]
fn a_quake3_hurt_volume_starts_off_toggles_when_used_and_may_be_slow() {
    let hurt = |name: Option<&'static str>, flags: &'static str, x: i32| {
        let mut keys = vec![
            ("classname", "trigger_hurt"),
            ("dmg", "7"),
            ("spawnflags", flags),
        ];
        if let Some(name) = name {
            keys.push(("targetname", name));
        }
        entity(&keys, &[brush([x, -64, 0], [x + 128, 64, 128], "trigger")])
    };
    let text = map(&[
        hurt(Some("h"), "1", 0),
        hurt(Some("h"), "0", 200),
        hurt(None, "16", 400),
        entity(
            &[("classname", "trigger_once"), ("target", "h")],
            &[brush([600, -64, 0], [728, 64, 128], "trigger")],
        ),
    ]);
    for dialect in [Dialect::Quake3, Dialect::Quake1] {
        let mut sim = living_map(BackendKind::Exact, &text, dialect, 0);
        let ids: Vec<AgentId> = [64.0, 264.0, 464.0, 664.0]
            .iter()
            .map(|&x| {
                sim.spawn(AgentSpec::new(player(), standing(x, 0.0)))
                    .unwrap()
            })
            .collect();
        sim.run(130);
        let hurts = |agent: AgentId| -> Vec<u64> {
            sim.events()
                .iter()
                .filter(|e| e.agent == agent && matches!(e.kind, EventKind::Hurt { .. }))
                .map(|e| e.step)
                .collect()
        };
        match dialect {
            Dialect::Quake3 => {
                assert_eq!(hurts(ids[0])[..4], [2, 9, 16, 23]);
                assert_eq!(hurts(ids[1]), [1]);
                assert_eq!(hurts(ids[2]), [1, 65, 129]);
            }
            Dialect::Quake1 => {
                for &id in &ids[..3] {
                    assert_eq!(hurts(id), [1, 65, 129]);
                }
            }
        }
        assert_eq!(hurts(ids[3]), [] as [u64; 0]);
    }
}

/// A jump pad whose target names a point above it and one below: `AimAtTarget` frees the pad
/// when `G_PickTarget` picks the one below (its `time` is not a number), so with some seeds the
/// agent on it is launched to the point above, with the others it stays on the ground.
#[test]
fn a_jump_pad_that_picks_a_point_below_is_freed() {
    let text = map(&[
        entity(
            &[("classname", "trigger_push"), ("target", "apex")],
            &[brush([-32, -32, 0], [32, 32, 8], "trigger")],
        ),
        apex("300 0 260"),
        apex("300 0 -200"),
    ]);
    let built = built(&text, Dialect::Quake3);
    assert_eq!(
        built.living.warnings.len(),
        1,
        "{:?}",
        built.living.warnings
    );
    let up = aim_at_target(DVec3::new(0.0, 0.0, 4.0), DVec3::new(300.0, 0.0, 260.0));
    let mut seen = [false; 2];
    for seed in 0..16 {
        let mut sim = simulate(BackendKind::Exact, &built, seed);
        let a = sim
            .spawn(AgentSpec::new(player(), standing(0.0, 0.0)))
            .unwrap();
        sim.step();
        let me = sim.agent(a).unwrap();
        if near(me.velocity, up) {
            seen[0] = true;
        } else {
            assert!(
                me.on_ground && me.velocity == DVec3::ZERO,
                "seed {seed}: {me:?}"
            );
            seen[1] = true;
        }
    }
    assert_eq!(seen, [true, true]);
}

/// A teleporter at x 0..64 whose target is "dest", with `more` keys.
fn teleporter_with(more: &[(&str, &str)]) -> String {
    let mut keys = vec![("classname", "trigger_teleport"), ("target", "dest")];
    keys.extend_from_slice(more);
    entity(&keys, &[brush([0, -64, 0], [64, 64, 128], "trigger")])
}

/// A named door of width 8 at x `x` opening along y (travel 120: 1.2 s), far from every agent
/// (a named door has no field).
fn named_door(name: &str, x: i32) -> String {
    entity(
        &[
            ("classname", "func_door"),
            ("targetname", name),
            ("angle", "90"),
        ],
        &[brush([x, 400, 0], [x + 8, 528, 128], "door")],
    )
}

/// The teleporter map of the tests below: a teleporter (with `keys`) whose target "dest" names
/// a destination (`destination_class`) and also door 0 and a relay that fires door 1 ("relayed");
/// door 2 is named "gone", door 3 "idle" (nothing names it).
fn teleporter_targets(keys: &[(&str, &str)], destination_class: &str) -> String {
    map(&[
        teleporter_with(keys),
        destination(destination_class, "500 -300 40", &[]),
        named_door("dest", -600),
        entity(
            &[
                ("classname", "trigger_relay"),
                ("targetname", "dest"),
                ("target", "relayed"),
            ],
            &[],
        ),
        named_door("relayed", -400),
        named_door("gone", -200),
        named_door("idle", 200),
    ])
}

/// Every mover event but reaching an end, as (step, mover, kind).
fn mover_events(sim: &Sim) -> Vec<(u64, u32, MoverEventKind)> {
    sim.mover_events()
        .iter()
        .filter(|e| e.kind != MoverEventKind::Reached)
        .map(|e| (e.step, e.mover, e.kind))
        .collect()
}

/// Quake 1's `teleport_touch` (`triggers.qc`) calls `SUB_UseTargets` (`subs.qc`) before it moves
/// the toucher: the teleporter's `target` names its destination, and `find` reaches every entity
/// of that name, so a door and a relay sharing the destination's name are used (the relay fires
/// its own target), in the step of the teleport; nothing else moves. Quake III's
/// `trigger_teleporter_touch` (`g_trigger.c`) fires nothing.
#[test]
fn a_quake1_teleporter_fires_what_its_target_names() {
    for backend in BackendKind::ALL {
        let text = teleporter_targets(&[], "info_teleport_destination");
        let mut sim = living_map(backend, &text, Dialect::Quake1, 0);
        let a = sim
            .spawn(AgentSpec::new(player(), standing(32.0, 0.0)))
            .unwrap();
        sim.run(8);
        assert_eq!(teleports(&sim, a), [1], "{backend:?}");
        assert_eq!(
            mover_events(&sim),
            [
                (1, 0, MoverEventKind::Started),
                (1, 1, MoverEventKind::Started)
            ],
            "{backend:?}"
        );
        // Once through, the agent touches it no more: nothing fires again.
        sim.run(400);
        let started = mover_events(&sim)
            .iter()
            .filter(|e| e.2 == MoverEventKind::Started)
            .count();
        // Each door opens, waits 3 s and closes (two starts each), nothing more.
        assert_eq!(started, 4, "{backend:?}: {:?}", mover_events(&sim));
    }
    let text = teleporter_targets(&[], "misc_teleporter_dest");
    let mut sim = living_map(BackendKind::Exact, &text, Dialect::Quake3, 0);
    let a = sim
        .spawn(AgentSpec::new(player(), standing(32.0, 0.0)))
        .unwrap();
    sim.run(8);
    assert_eq!(teleports(&sim, a), [1]);
    assert_eq!(mover_events(&sim), []);
}

/// The teleporter's own `killtarget` and `delay` (`SUB_UseTargets` reads them from `self`, the
/// teleporter): a `killtarget` removes door 2 ("gone") and returns, so the destination's name
/// fires nothing, and the agent is teleported all the same (`teleport_touch` goes on after
/// `SUB_UseTargets`); a `delay` of 0.5 s uses the targets from a `DelayedUse` at the first step
/// at or past the touch's time plus 0.5 (touched at step 1, 1/64 s: step 33), the teleport
/// itself at once.
#[test]
fn a_quake1_teleporters_killtarget_and_delay_are_its_own() {
    let text = teleporter_targets(&[("killtarget", "gone")], "info_teleport_destination");
    let mut sim = living_map(BackendKind::Exact, &text, Dialect::Quake1, 0);
    let a = sim
        .spawn(AgentSpec::new(player(), standing(32.0, 0.0)))
        .unwrap();
    sim.run(64);
    assert_eq!(teleports(&sim, a), [1]);
    assert_eq!(mover_events(&sim), [(1, 2, MoverEventKind::Removed)]);

    let text = teleporter_targets(&[("delay", "0.5")], "info_teleport_destination");
    let mut sim = living_map(BackendKind::Exact, &text, Dialect::Quake1, 0);
    let a = sim
        .spawn(AgentSpec::new(player(), standing(32.0, 0.0)))
        .unwrap();
    sim.run(40);
    assert_eq!(teleports(&sim, a), [1]);
    assert_eq!(
        mover_events(&sim),
        [
            (33, 0, MoverEventKind::Started),
            (33, 1, MoverEventKind::Started)
        ]
    );
}

/// Quake III, two `target_push`es ("p", entities 1 and 2: up, or up and along +y) used through a
/// random `target_relay` ("r") by a `trigger_multiple` (x -64..64, `wait` 0.5, `random` 0.4)
/// that four agents stand in: the clock draws a pick and a wait at every firing, from the run's
/// generator, in the step's fixed order. The same seed ends on the same bits on one and two
/// threads; different seeds push differently.
#[test]
fn quake3_random_relays_and_waits_draw_in_a_fixed_order() {
    let text = map(&[
        entity(
            &[
                ("classname", "target_push"),
                ("targetname", "p"),
                ("angle", "-1"),
                ("speed", "200"),
            ],
            &[],
        ),
        entity(
            &[
                ("classname", "target_push"),
                ("targetname", "p"),
                ("angles", "-45 90 0"),
                ("speed", "200"),
            ],
            &[],
        ),
        entity(
            &[
                ("classname", "target_relay"),
                ("targetname", "r"),
                ("target", "p"),
                ("spawnflags", "4"),
            ],
            &[],
        ),
        entity(
            &[
                ("classname", "trigger_multiple"),
                ("target", "r"),
                ("wait", "0.5"),
                ("random", "0.4"),
            ],
            &[brush([-64, -64, 0], [64, 64, 128], "trigger")],
        ),
    ]);
    let run = |seed: u64, threads: usize| {
        super::on_threads(threads, || {
            let mut sim = living_map(BackendKind::Exact, &text, Dialect::Quake3, seed);
            for i in 0..4 {
                sim.spawn(AgentSpec::new(
                    player(),
                    standing(-40.0 + 25.0 * f64::from(i), 0.0),
                ))
                .unwrap();
            }
            sim.run(640);
            let pushes: Vec<(u64, u32, DVec3)> = sim
                .events()
                .iter()
                .filter_map(|e| match e.kind {
                    EventKind::TargetPushed { push, velocity } => Some((e.step, push, velocity)),
                    _ => None,
                })
                .collect();
            (sim.state_hash(), pushes)
        })
    };
    let mut outcomes = Vec::new();
    for seed in [0, 1, 2] {
        let one = run(seed, 1);
        assert_eq!(one, run(seed, 2), "seed {seed}");
        // Both pushes come up, and firings are at least 0.1 s (wait 0.5 - 0.4) apart: 6.4
        // steps, so 7 (the first step at or past it).
        assert!(
            one.1.iter().any(|p| p.1 == 0) && one.1.iter().any(|p| p.1 == 1),
            "{:?}",
            one.1
        );
        assert!(
            one.1.windows(2).all(|w| w[1].0 - w[0].0 >= 7),
            "{:?}",
            one.1
        );
        assert!(
            one.1.windows(2).any(|w| w[1].0 - w[0].0 != 32),
            "{:?}",
            one.1
        );
        outcomes.push(one.1);
    }
    assert_ne!(outcomes[0], outcomes[1]);
    assert_ne!(outcomes[1], outcomes[2]);
}

/// A trigger_multiple at x -64..64 with `angle` `angle` (none when empty) whose target opens a
/// named door far away, read with `dialect`'s rules; an agent stands in it, its script setting
/// its view first when `view` is given; whether the door started within 8 steps, and whether
/// the agent touched the trigger.
fn one_way(dialect: Dialect, angle: &str, view: Option<(f64, f64)>) -> (bool, bool) {
    use cspace_sim::{Action, ScriptEvent, Scripted, View};
    let mut keys = vec![("classname", "trigger_multiple"), ("target", "far")];
    if !angle.is_empty() {
        keys.push(("angle", angle));
    }
    let text = map(&[
        entity(&keys, &[brush([-64, -64, 0], [64, 64, 128], "trigger")]),
        named_door("far", 600),
    ]);
    let built = built(&text, dialect);
    let statics = built.world.brushes().iter().map(|b| b.brush.clone());
    let sim = living_sim(
        BackendKind::Exact,
        statics.collect(),
        built.living.clone(),
        0,
        2000,
    );
    let script: Vec<ScriptEvent> = view
        .map(|(yaw, pitch)| ScriptEvent {
            at: 0.0,
            action: Action::View(View { yaw, pitch }),
        })
        .into_iter()
        .collect();
    let mut run = Scripted {
        sim,
        scripts: Default::default(),
    };
    let id = run
        .sim
        .spawn(AgentSpec::new(player(), standing(0.0, 0.0)))
        .unwrap();
    run.scripts.add(id, std::sync::Arc::from(script));
    run.run(8);
    let started = run
        .sim
        .mover_events()
        .iter()
        .any(|e| e.kind == MoverEventKind::Started);
    let touched = run
        .sim
        .events()
        .iter()
        .any(|e| matches!(e.kind, EventKind::Touches { trigger: 0, .. }));
    (started, touched)
}

/// Quake 1's one-way triggers (`InitTrigger`'s `SetMovedir`, `multi_touch` in `triggers.qc`):
/// a trigger with angles fires only for a player whose `v_forward` (from its `angles`: the
/// view's yaw, and its pitch divided by -3, `SV_ClientThink`) makes a product with `movedir` of
/// 0 or more. Facing its way (`angle` 180: -x; the view's yaw 180) fires it; an agent whose
/// script sets no view looks along yaw 0 (+x), against it, and does not (the touch is still
/// reported); `angle` -1 (up): looking down 30 degrees, the player's angles pitch -10 and
/// `makevectors` gives `v_forward.z = sin 10` > 0, so it fires, looking up 30 it does not; a
/// trigger without angles fires whatever the view. Quake III's `Touch_Multi` never looks.
#[test]
fn quake1_one_way_triggers_fire_for_agents_facing_their_way() {
    let q1 = Dialect::Quake1;
    assert_eq!(one_way(q1, "180", Some((180.0, 0.0))), (true, true));
    assert_eq!(one_way(q1, "180", Some((170.0, 60.0))), (true, true));
    assert_eq!(one_way(q1, "180", None), (false, true));
    assert_eq!(one_way(q1, "180", Some((0.0, 0.0))), (false, true));
    assert_eq!(one_way(q1, "-1", Some((0.0, 30.0))), (true, true));
    assert_eq!(one_way(q1, "-1", Some((0.0, -30.0))), (false, true));
    assert_eq!(one_way(q1, "", Some((0.0, -30.0))), (true, true));
    assert_eq!(one_way(q1, "", None), (true, true));
    assert_eq!(one_way(Dialect::Quake3, "180", None), (true, true));
}
