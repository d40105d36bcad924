//! Spawning entities with each dialect's rules: defaults, positions, teams, fields, and bad
//! input as located warnings with a defined behaviour.

use cspace_entities::{
    Activation, Dialect, EntityInput, InputContents, LiquidKind, Motion, MoverKind, Push,
    TriggerKind, spawn,
};
use cspace_geom::{Aabb, Brush, DVec3};

fn cube(min: [f64; 3], max: [f64; 3]) -> Brush {
    Brush::from_aabb(Aabb::new(DVec3::from_array(min), DVec3::from_array(max))).unwrap()
}

fn world() -> EntityInput {
    EntityInput::new(0, 1, [("classname", "worldspawn")])
        .with_solid(cube([-512.0, -512.0, -16.0], [512.0, 512.0, 0.0]))
}

fn entity<'a>(index: u32, keys: &[(&'a str, &'a str)]) -> EntityInput {
    EntityInput::new(index, 10 * index, keys.iter().copied())
}

/// A door 8 x 64 x 96: Quake 1 moves it by the dot product of its size and direction less the
/// lip, at 100 u/s, waits 3 s; Quake III at 400 u/s, 2 s.
#[test]
fn doors_follow_each_dialects_defaults() {
    let door = cube([0.0, 0.0, 0.0], [8.0, 64.0, 96.0]);
    for (dialect, speed, wait) in [(Dialect::Quake1, 100.0, 3.0), (Dialect::Quake3, 400.0, 2.0)] {
        let inputs = [
            world(),
            entity(1, &[("classname", "func_door"), ("angle", "90")]).with_solid(door.clone()),
            entity(
                2,
                &[("classname", "func_door"), ("angle", "-1"), ("lip", "16")],
            )
            .with_solid(cube([100.0, 0.0, 0.0], [108.0, 64.0, 96.0])),
        ];
        let e = spawn(&inputs, dialect);
        assert!(e.warnings.is_empty(), "{:?}", e.warnings);
        let [a, b] = [&e.movers[0], &e.movers[1]];
        assert_eq!((a.speed, a.binary().unwrap().wait), (speed, wait));
        assert_eq!(a.binary().unwrap().pos2, DVec3::new(0.0, 56.0, 0.0));
        assert_eq!(b.binary().unwrap().pos2, DVec3::new(0.0, 0.0, 80.0));
        assert_eq!(a.spawn_offset, DVec3::ZERO);
        // Apart (92 units), they are two teams with a field each.
        assert_eq!((a.team, b.team), (0, 1));
        assert_eq!(e.triggers.len(), 2);
    }
}

/// A diagonal door: Quake 1 travels `|dir . size| - lip`, Quake III `|dir| . size - lip`.
#[test]
fn a_diagonal_door_travels_as_each_game_computes() {
    let inputs = [
        world(),
        entity(1, &[("classname", "func_door"), ("angle", "135")])
            .with_solid(cube([0.0, 0.0, 0.0], [64.0, 64.0, 64.0])),
    ];
    let dir = DVec3::new(-(0.5f64.sqrt()), 0.5f64.sqrt(), 0.0);
    let q1 = spawn(&inputs, Dialect::Quake1);
    let q3 = spawn(&inputs, Dialect::Quake3);
    let d1 = q1.movers[0].binary().unwrap().pos2.length();
    let d3 = q3.movers[0].binary().unwrap().pos2.length();
    assert!(
        (d1 - ((dir.x * 64.0 + dir.y * 64.0).abs() - 8.0).abs()).abs() < 1e-9,
        "{d1}"
    );
    assert!(
        (d3 - (dir.x.abs() * 64.0 + dir.y.abs() * 64.0 - 8.0)).abs() < 1e-9,
        "{d3}"
    );
}

/// Touching doors link into one team (Quake 1), with one field: the team's bounds grown by 60,
/// 60, 8. Quake III links by the `team` key and grows the field by 120 on the thinnest axis.
#[test]
fn touching_doors_are_one_team_with_one_field() {
    let left = cube([0.0, 0.0, 0.0], [8.0, 64.0, 96.0]);
    let right = cube([0.0, 64.0, 0.0], [8.0, 128.0, 96.0]);
    let inputs = [
        world(),
        entity(1, &[("classname", "func_door"), ("angle", "270")]).with_solid(left.clone()),
        entity(2, &[("classname", "func_door"), ("angle", "90")]).with_solid(right.clone()),
    ];
    let e = spawn(&inputs, Dialect::Quake1);
    assert_eq!((e.movers[0].team, e.movers[1].team), (0, 0));
    assert_eq!(e.triggers.len(), 1);
    assert_eq!(
        e.triggers[0].bounds,
        Aabb::new(
            DVec3::new(-60.0, -60.0, -8.0),
            DVec3::new(68.0, 188.0, 104.0)
        )
    );
    // Quake III: no team key, no link.
    let e = spawn(&inputs, Dialect::Quake3);
    assert_eq!((e.movers[0].team, e.movers[1].team), (0, 1));
    let teamed = [
        world(),
        entity(1, &[("classname", "func_door"), ("team", "d")]).with_solid(left),
        entity(2, &[("classname", "func_door"), ("team", "d")]).with_solid(right),
    ];
    let e = spawn(&teamed, Dialect::Quake3);
    assert_eq!((e.movers[0].team, e.movers[1].team), (0, 0));
    // Bounds grown by 1 (SV_LinkEntity), then 120 along x, the thinnest.
    assert_eq!(
        e.triggers[0].bounds,
        Aabb::new(
            DVec3::new(-121.0, -1.0, -1.0),
            DVec3::new(129.0, 129.0, 97.0)
        )
    );
    // DOOR_DONT_LINK (4) keeps a Quake 1 door alone.
    let apart = [
        world(),
        entity(1, &[("classname", "func_door"), ("spawnflags", "4")])
            .with_solid(cube([0.0, 0.0, 0.0], [8.0, 64.0, 96.0])),
        entity(2, &[("classname", "func_door")])
            .with_solid(cube([0.0, 64.0, 0.0], [8.0, 128.0, 96.0])),
    ];
    let e = spawn(&apart, Dialect::Quake1);
    assert_eq!((e.movers[0].team, e.movers[1].team), (0, 1));
}

/// Named, shootable and key doors get no field: a fired target opens the first; the others stay
/// (agents neither shoot nor carry keys), with a warning. A start-open door spawns open and
/// closes when used.
#[test]
fn named_shootable_key_and_start_open_doors() {
    let d = || cube([0.0, 0.0, 0.0], [8.0, 64.0, 96.0]);
    let inputs = [
        world(),
        entity(1, &[("classname", "func_door"), ("targetname", "t1")]).with_solid(d()),
        entity(2, &[("classname", "func_door"), ("health", "10")])
            .with_solid(cube([200.0, 0.0, 0.0], [208.0, 64.0, 96.0])),
        entity(3, &[("classname", "func_door"), ("spawnflags", "8")])
            .with_solid(cube([400.0, 0.0, 0.0], [408.0, 64.0, 96.0])),
        entity(
            4,
            &[
                ("classname", "func_door"),
                ("spawnflags", "1"),
                ("angle", "90"),
            ],
        )
        .with_solid(cube([600.0, 0.0, 0.0], [608.0, 64.0, 96.0])),
        entity(5, &[("classname", "trigger_once"), ("target", "t1")])
            .with_brush(d(), InputContents::NonSolid),
    ];
    let e = spawn(&inputs, Dialect::Quake1);
    let act: Vec<Activation> = e.movers.iter().map(|m| m.activation).collect();
    assert_eq!(
        act,
        [
            Activation::Fired,
            Activation::Never,
            Activation::Never,
            Activation::Field
        ]
    );
    assert_eq!(e.warnings.len(), 2, "{:?}", e.warnings);
    let open = e.movers[3].binary().unwrap();
    assert_eq!(
        (open.pos1, open.pos2),
        (DVec3::new(0.0, 56.0, 0.0), DVec3::ZERO)
    );
    assert_eq!(e.movers[3].spawn_offset, open.pos1);
    // A key door never returns, and so crushes instead of reversing.
    assert!(e.movers[2].crusher && e.movers[2].binary().unwrap().wait < 0.0);
}

/// A lift drawn at its top spawns lowered by its height less 8 (Quake 1) or less its lip (Quake
/// III); a named Quake 1 lift spawns at the top and waits to be fired.
#[test]
fn plats_spawn_lowered_unless_named() {
    let plat = cube([0.0, 0.0, 0.0], [128.0, 128.0, 200.0]);
    let inputs = [
        world(),
        entity(1, &[("classname", "func_plat")]).with_solid(plat.clone()),
        entity(2, &[("classname", "func_plat"), ("targetname", "up")])
            .with_solid(cube([300.0, 0.0, 0.0], [428.0, 128.0, 200.0])),
        entity(3, &[("classname", "trigger_once"), ("target", "up")])
            .with_brush(plat, InputContents::NonSolid),
    ];
    let q1 = spawn(&inputs, Dialect::Quake1);
    let lowered = &q1.movers[0];
    assert_eq!(lowered.speed, 150.0);
    assert_eq!(lowered.spawn_offset, DVec3::new(0.0, 0.0, -192.0));
    let named = &q1.movers[1];
    assert!(named.binary().unwrap().starts_at_pos2);
    assert_eq!(named.spawn_offset, DVec3::ZERO);
    // Quake 1 builds a field for both, from 8 above the top down by the travel and 8 more,
    // inset 25.
    let fields: Vec<&Aabb> = q1
        .triggers
        .iter()
        .filter(|t| matches!(t.kind, TriggerKind::PlatField { .. }))
        .map(|t| &t.bounds)
        .collect();
    assert_eq!(fields.len(), 2);
    assert_eq!(
        *fields[0],
        Aabb::new(DVec3::new(25.0, 25.0, 8.0), DVec3::new(103.0, 103.0, 208.0))
    );
    // Quake III: speed 200, lowered by 200 - 8, a field only for the unnamed one, around the
    // lowered plat, inset 33.
    let q3 = spawn(&inputs, Dialect::Quake3);
    assert_eq!(q3.movers[0].speed, 200.0);
    assert_eq!(q3.movers[1].spawn_offset, DVec3::new(0.0, 0.0, -192.0));
    let fields: Vec<&Aabb> = q3
        .triggers
        .iter()
        .filter(|t| matches!(t.kind, TriggerKind::PlatField { .. }))
        .map(|t| &t.bounds)
        .collect();
    assert_eq!(
        fields,
        [&Aabb::new(
            DVec3::new(33.0, 33.0, -192.0),
            DVec3::new(95.0, 95.0, 16.0)
        )]
    );
}

/// Buttons: speed 40, wait 1, lip 4, pressed by touch (a surface that follows the button).
#[test]
fn buttons_are_pressed_by_touch() {
    let inputs = [
        world(),
        entity(
            1,
            &[
                ("classname", "func_button"),
                ("angle", "180"),
                ("target", "t"),
            ],
        )
        .with_solid(cube([0.0, 0.0, 32.0], [8.0, 32.0, 64.0])),
        entity(2, &[("classname", "func_door"), ("targetname", "t")])
            .with_solid(cube([100.0, 0.0, 0.0], [108.0, 64.0, 96.0])),
    ];
    let e = spawn(&inputs, Dialect::Quake1);
    let b = &e.movers[0];
    assert_eq!(
        (b.kind, b.speed, b.activation),
        (MoverKind::Button, 40.0, Activation::Touch)
    );
    assert_eq!(b.binary().unwrap().pos2, DVec3::new(-4.0, 0.0, 0.0));
    let surface = e
        .triggers
        .iter()
        .find(|t| t.kind == TriggerKind::ButtonTouch { mover: 0 })
        .unwrap();
    assert_eq!((surface.bounds, surface.follows), (b.bounds, Some(0)));
}

/// Trains: Quake 1 puts the train's mins at each corner; Quake III its origin brush's centre.
/// The chain loops back to its first corner.
#[test]
fn trains_follow_their_corners() {
    let corner = |i: u32, name: &'static str, next: &'static str, origin: &'static str| {
        entity(
            i,
            &[
                ("classname", "path_corner"),
                ("targetname", name),
                ("target", next),
                ("origin", origin),
            ],
        )
    };
    let mut train = entity(1, &[("classname", "func_train"), ("target", "c1")])
        .with_solid(cube([0.0, 0.0, 0.0], [64.0, 64.0, 16.0]));
    train.origin_brush = Some(DVec3::new(32.0, 32.0, 8.0));
    let inputs = [
        world(),
        train,
        corner(2, "c1", "c2", "100 0 0"),
        corner(3, "c2", "c1", "100 200 0"),
    ];
    let q1 = spawn(&inputs, Dialect::Quake1);
    let Motion::Path {
        stops,
        loop_to,
        start_wait,
    } = &q1.movers[0].motion
    else {
        panic!("a train has a path");
    };
    assert_eq!(
        stops.iter().map(|s| s.offset).collect::<Vec<_>>(),
        [DVec3::new(100.0, 0.0, 0.0), DVec3::new(100.0, 200.0, 0.0)]
    );
    assert_eq!((*loop_to, *start_wait), (Some(0), 0.2));
    assert_eq!(stops[0].wait, 0.1);
    let q3 = spawn(&inputs, Dialect::Quake3);
    let Motion::Path { stops, .. } = &q3.movers[0].motion else {
        panic!("a train has a path");
    };
    assert_eq!(stops[0].offset, DVec3::new(68.0, -32.0, -8.0));
    assert_eq!(q3.movers[0].spawn_offset, stops[0].offset);
}

/// Quake 1 secret doors: back by their width along `v_right` (or left, or down), then along
/// their angle by their length.
#[test]
fn secret_doors_move_back_then_sideways() {
    let inputs = [
        world(),
        entity(
            1,
            &[
                ("classname", "func_door_secret"),
                ("angle", "90"),
                ("targetname", "s"),
            ],
        )
        .with_solid(cube([0.0, 0.0, 0.0], [64.0, 16.0, 96.0])),
        entity(2, &[("classname", "trigger_once"), ("target", "s")]).with_brush(
            cube([0.0, -64.0, 0.0], [64.0, -32.0, 96.0]),
            InputContents::NonSolid,
        ),
    ];
    let e = spawn(&inputs, Dialect::Quake1);
    let Motion::Secret(s) = &e.movers[0].motion else {
        panic!("a secret door");
    };
    // angle 90: forward +y, right +x; width |right . size| = 64, length |forward . size| = 16.
    assert_eq!(
        (s.dest1, s.dest2),
        (DVec3::new(64.0, 0.0, 0.0), DVec3::new(64.0, 16.0, 0.0))
    );
    assert_eq!((e.movers[0].speed, s.wait), (50.0, 5.0));
}

/// Teleporters find their destinations; Quake 1 takes the first of a name, Quake III all.
/// Push pads: Quake 1's speed times 10 along the angle; Quake III's aimed at the apex.
#[test]
fn teleporters_and_push_pads() {
    let dest = |i: u32, origin: &'static str| {
        entity(
            i,
            &[
                ("classname", "info_teleport_destination"),
                ("targetname", "d"),
                ("origin", origin),
                ("angle", "90"),
            ],
        )
    };
    let pad = cube([0.0, 0.0, 0.0], [64.0, 64.0, 8.0]);
    let inputs = [
        world(),
        dest(1, "0 0 100"),
        dest(2, "500 0 100"),
        entity(3, &[("classname", "trigger_teleport"), ("target", "d")])
            .with_brush(pad.clone(), InputContents::NonSolid),
        entity(
            4,
            &[
                ("classname", "target_position"),
                ("targetname", "apex"),
                ("origin", "232 32 404"),
            ],
        ),
        entity(
            5,
            &[
                ("classname", "trigger_push"),
                ("angle", "-1"),
                ("speed", "300"),
                ("target", "apex"),
            ],
        )
        .with_brush(pad, InputContents::NonSolid),
    ];
    let q1 = spawn(&inputs, Dialect::Quake1);
    let q3 = spawn(&inputs, Dialect::Quake3);
    let destinations = |e: &cspace_entities::Entities| match &e.triggers[0].kind {
        TriggerKind::Teleport { destinations, .. } => destinations.len(),
        other => panic!("a teleporter: {other:?}"),
    };
    assert_eq!((destinations(&q1), destinations(&q3)), (1, 2));
    assert_eq!(
        q1.triggers[1].kind,
        TriggerKind::Push(Push::Velocity {
            velocity: DVec3::new(0.0, 0.0, 3000.0),
            once: false
        })
    );
    let TriggerKind::Push(apex) = q3.triggers[1].kind else {
        panic!("a jump pad");
    };
    // From the pad's centre (32, 32, 4): 400 up, 200 along x; t = sqrt(400 / 400) = 1 s.
    assert_eq!(apex.velocity(800.0), Some(DVec3::new(200.0, 0.0, 800.0)));
}

/// Bad input gives a located warning and a defined behaviour, never a panic: a target naming
/// nothing, a broken path_corner chain, a teleporter without a destination, a liquid inside a
/// brush entity, a key that is not a number.
#[test]
fn bad_input_is_a_located_warning() {
    let door = cube([0.0, 0.0, 0.0], [8.0, 64.0, 96.0]);
    let inputs = [
        world().with_brush(
            cube([0.0, 0.0, -64.0], [64.0, 64.0, -32.0]),
            InputContents::Liquid(LiquidKind::Slime),
        ),
        entity(1, &[("classname", "func_button"), ("target", "nobody")]).with_solid(door.clone()),
        entity(2, &[("classname", "func_train"), ("target", "c1")])
            .with_solid(cube([200.0, 0.0, 0.0], [264.0, 64.0, 16.0])),
        entity(
            3,
            &[
                ("classname", "path_corner"),
                ("targetname", "c1"),
                ("target", "c2"),
                ("origin", "0 0 0"),
            ],
        ),
        entity(
            4,
            &[("classname", "trigger_teleport"), ("target", "nowhere")],
        )
        .with_brush(door.clone(), InputContents::NonSolid),
        entity(5, &[("classname", "func_door"), ("speed", "fast")])
            .with_solid(cube([400.0, 0.0, 0.0], [408.0, 64.0, 96.0]))
            .with_brush(door, InputContents::Liquid(LiquidKind::Water)),
    ];
    let e = spawn(&inputs, Dialect::Quake1);
    let said: Vec<(u32, u32, &str)> = e
        .warnings
        .iter()
        .map(|w| (w.entity, w.line, w.message.as_str()))
        .collect();
    let has = |entity: u32, words: &str| {
        said.iter()
            .any(|(e, line, m)| *e == entity && *line == 10 * entity && m.contains(words))
    };
    assert!(has(1, "names no entity"), "{said:#?}");
    assert!(has(2, "chain breaks"), "{said:#?}");
    assert!(has(4, "names no destination"), "{said:#?}");
    assert!(has(5, "liquid"), "{said:#?}");
    assert!(has(5, "not a finite number"), "{said:#?}");
    // The world's slime is a liquid; the door's water is not.
    assert_eq!(e.liquids.len(), 1);
    // The train runs to its last corner and stops; the bad speed is the default's.
    let Motion::Path { stops, loop_to, .. } = &e.movers[1].motion else {
        panic!("a train");
    };
    assert_eq!((stops.len(), *loop_to), (1, None));
    assert_eq!(e.movers[2].speed, 100.0);
    let button = e.warnings.iter().find(|w| w.entity == 1).unwrap();
    assert!(
        button
            .to_string()
            .starts_with("line 10: entity 1 (func_button): target \"nobody\" names no entity"),
        "{button}"
    );
}

/// Rotating movers are kept solid where drawn, with a warning; a `func_wall` is kept without one.
#[test]
fn rotating_movers_are_kept_where_drawn() {
    let inputs = [
        world(),
        entity(1, &[("classname", "func_rotating")])
            .with_solid(cube([0.0, 0.0, 0.0], [8.0, 64.0, 96.0])),
        entity(2, &[("classname", "func_wall")])
            .with_solid(cube([100.0, 0.0, 0.0], [108.0, 64.0, 96.0])),
    ];
    let e = spawn(&inputs, Dialect::Quake3);
    assert!(e.movers.is_empty());
    assert_eq!(e.kept.len(), 2);
    assert_eq!(e.warnings.len(), 1);
    assert!(e.warnings[0].message.contains("rotating"));
}

/// Keys of every kind and value, shuffled across classes, never panic and give finite
/// positions.
#[test]
fn hostile_keys_never_panic() {
    let classes = [
        "func_door",
        "func_door_secret",
        "func_plat",
        "func_button",
        "func_train",
        "trigger_once",
        "trigger_multiple",
        "trigger_teleport",
        "trigger_push",
        "trigger_counter",
        "path_corner",
        "info_teleport_destination",
        "target_position",
    ];
    let values = [
        "",
        "0",
        "-1",
        "-2",
        "1e308",
        "nan",
        "inf",
        "3 4",
        "t",
        "1 2 3",
        "-0",
        "65536",
        "4294967296",
        "0.5",
        "x y z",
    ];
    let keys = cspace_entities::rules::KEYS;
    let mut n = 0u64;
    for dialect in Dialect::ALL {
        for (c, class) in classes.iter().enumerate() {
            let mut inputs = vec![world()];
            for i in 0..values.len() {
                n = n
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let key = keys[(n >> 33) as usize % keys.len()];
                let value = values[(n >> 20) as usize % values.len()];
                let class = classes[(c + i) % classes.len()];
                let mut e = entity(
                    i as u32 + 1,
                    &[
                        ("classname", class),
                        (key, value),
                        ("target", "t"),
                        ("targetname", "t"),
                        ("origin", values[i]),
                    ],
                );
                if !class.starts_with("path")
                    && !class.starts_with("info")
                    && !class.starts_with("target_")
                {
                    e = e.with_solid(cube([0.0, 0.0, 0.0], [8.0, 8.0, 8.0 + i as f64]));
                }
                inputs.push(e);
            }
            let e = spawn(&inputs, dialect);
            for m in &e.movers {
                for o in m.extreme_offsets() {
                    assert!(o.is_finite(), "{class}: {o}");
                }
            }
            for t in &e.triggers {
                if let TriggerKind::Push(p) = &t.kind {
                    assert!(p.velocity(800.0).is_none_or(|v| v.is_finite()));
                }
            }
        }
    }
}

/// `G_PickTarget` (`g_utils.c`) picks among the first 32 entities of a name (`MAXCHOICES`): a
/// Quake III jump pad keeps the first 32 of 40 points named alike as its apexes, in entity
/// order, and a teleporter its first 32 destinations; one whose points lie above and below it
/// is kept with a warning (a run that picks one below frees it), one whose points all lie below
/// is ignored with a warning.
#[test]
fn quake3_picks_among_the_first_32_points_of_a_name() {
    let mut inputs = vec![world()];
    for i in 0..40u32 {
        let origin = format!("{} 0 {}", 10 * i, 100 + i);
        for name in ["apex", "dest"] {
            inputs.push(EntityInput::new(
                inputs.len() as u32,
                10 * inputs.len() as u32,
                [
                    ("classname", "target_position"),
                    ("targetname", name),
                    ("origin", origin.as_str()),
                ],
            ));
        }
    }
    let pad = |index: usize, target: &'static str| {
        EntityInput::new(
            index as u32,
            10 * index as u32,
            [("classname", "trigger_push"), ("target", target)],
        )
        .with_brush(
            cube([-32.0, -32.0, 0.0], [32.0, 32.0, 8.0]),
            InputContents::NonSolid,
        )
    };
    inputs.push(pad(inputs.len(), "apex"));
    inputs.push(
        EntityInput::new(
            inputs.len() as u32,
            10 * inputs.len() as u32,
            [("classname", "trigger_teleport"), ("target", "dest")],
        )
        .with_brush(
            cube([100.0, -32.0, 0.0], [164.0, 32.0, 64.0]),
            InputContents::NonSolid,
        ),
    );
    let e = spawn(&inputs, Dialect::Quake3);
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    let expected: Vec<DVec3> = (0..32)
        .map(|i| DVec3::new(f64::from(10 * i), 0.0, f64::from(100 + i)))
        .collect();
    assert_eq!(e.triggers[0].apexes, expected);
    let TriggerKind::Teleport { destinations, .. } = &e.triggers[1].kind else {
        panic!("{:?}", e.triggers[1].kind);
    };
    let origins: Vec<DVec3> = destinations.iter().map(|&d| e.spots[d].origin).collect();
    assert_eq!(origins, expected);

    // Points above and below the pad (its centre at z 4): kept, warned; all below: ignored.
    let point = |index: u32, name: &'static str, z: &'static str| {
        EntityInput::new(
            index,
            10 * index,
            [
                ("classname", "target_position"),
                ("targetname", name),
                ("origin", z),
            ],
        )
    };
    let inputs = [
        world(),
        point(1, "mixed", "100 0 200"),
        point(2, "mixed", "100 0 -200"),
        point(3, "low", "100 0 -200"),
        pad(4, "mixed"),
        pad(5, "low"),
    ];
    let e = spawn(&inputs, Dialect::Quake3);
    assert_eq!(e.triggers.len(), 1);
    assert_eq!(e.triggers[0].apexes.len(), 2);
    let warnings: Vec<String> = e.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("line 40") && warnings[0].contains("1 of the 2 points"));
    assert!(warnings[1].contains("line 50") && warnings[1].contains("not above"));
}
