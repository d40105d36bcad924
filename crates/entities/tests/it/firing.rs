//! Firing names through the clock (`Machinery`): relays and counters (Quake 1 `trigger_relay`,
//! `trigger_counter`; Quake III `target_relay`, `trigger_always`), `killtarget` (Quake 1
//! `SUB_UseTargets`), loops of relays, and Quake 1 secret doors (`fd_secret_use` ..
//! `fd_secret_move6`), each against the games' arithmetic.

use cspace_entities::{
    Dialect, EntityInput, EntityUse, InputContents, Machinery, MoverEventKind, Used, spawn,
};
use cspace_geom::{Aabb, Brush, DVec3};

pub(crate) const DT: f64 = 1.0 / 64.0;

pub(crate) fn cube(min: [f64; 3], max: [f64; 3]) -> Brush {
    Brush::from_aabb(Aabb::new(DVec3::from_array(min), DVec3::from_array(max))).unwrap()
}

pub(crate) fn world() -> EntityInput {
    EntityInput::new(0, 1, [("classname", "worldspawn")])
}

/// A door named `name` (entity `index`), sliding up, 100 units apart from the others.
pub(crate) fn door(index: u32, name: &'static str) -> EntityInput {
    let x = 100.0 * f64::from(index);
    EntityInput::new(
        index,
        10 * index,
        [
            ("classname", "func_door"),
            ("angle", "-1"),
            ("targetname", name),
        ],
    )
    .with_solid(cube([x, 0.0, 0.0], [x + 8.0, 64.0, 96.0]))
}

pub(crate) fn point(index: u32, keys: &[(&'static str, &'static str)]) -> EntityInput {
    EntityInput::new(index, 10 * index, keys.iter().copied())
}

/// Steps the clock `n` times with nothing in the way, calling `act` after each step's moves;
/// the events with their step and mover.
pub(crate) fn run(
    m: &mut Machinery,
    n: u64,
    mut act: impl FnMut(u64, &mut Machinery),
) -> Vec<(u64, usize, MoverEventKind)> {
    let mut events = Vec::new();
    for step in 1..=n {
        m.begin_step();
        for t in 0..m.team_count() {
            m.commit(t);
        }
        act(step, m);
        events.extend(
            m.drain_events()
                .into_iter()
                .map(|e| (step, e.mover, e.kind)),
        );
    }
    events
}

pub(crate) fn started(events: &[(u64, usize, MoverEventKind)]) -> Vec<(u64, usize)> {
    events
        .iter()
        .filter(|e| e.2 == MoverEventKind::Started)
        .map(|e| (e.0, e.1))
        .collect()
}

/// A touched trigger fires relay `a` (delay 0.5 s), which fires relay `b` (delay 0.25 s), which
/// opens the door: each delay counted from its own firing (`SUB_UseTargets`' `DelayedUse`), so
/// the door opens at the first step at or past 1/64 + 0.5 + 0.25 s (step 49).
#[test]
fn a_chain_of_relays_fires_in_order_with_each_delay() {
    let inputs = [
        world(),
        point(1, &[("classname", "trigger_once"), ("target", "a")]).with_brush(
            cube([0.0, 0.0, 0.0], [8.0, 8.0, 8.0]),
            InputContents::NonSolid,
        ),
        point(
            2,
            &[
                ("classname", "trigger_relay"),
                ("targetname", "a"),
                ("target", "b"),
                ("delay", "0.5"),
            ],
        ),
        point(
            3,
            &[
                ("classname", "trigger_relay"),
                ("targetname", "b"),
                ("target", "d"),
                ("delay", "0.25"),
            ],
        ),
        door(4, "d"),
    ];
    let e = spawn(&inputs, Dialect::Quake1);
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    let mut m = Machinery::new(&e, DT);
    let events = run(&mut m, 80, |step, m| {
        if step == 1 {
            m.touch(0);
        }
    });
    assert_eq!(started(&events), [(49, 0)]);
}

/// One name reaching several entities uses them in entity order, each use finished (with what
/// it fires at no delay) before the next: relay `r` (entity 2) opens door `y` before door `x`
/// (entity 3) opens.
#[test]
fn a_name_uses_its_entities_in_entity_order_depth_first() {
    let inputs = [
        world(),
        point(
            2,
            &[
                ("classname", "trigger_relay"),
                ("targetname", "x"),
                ("target", "y"),
            ],
        ),
        door(3, "x"),
        door(4, "y"),
    ];
    let mut m = Machinery::new(&spawn(&inputs, Dialect::Quake1), DT);
    let events = run(&mut m, 1, |_, m| m.fire("x", 0.0));
    assert_eq!(started(&events), [(1, 1), (1, 0)]);
}

/// `trigger_counter`: the `count`th use passes the firing on (default 2), then the counter is
/// gone (`counter_use`, `multi_trigger`).
#[test]
fn a_counter_fires_on_its_count_then_is_gone() {
    for (count, opens_at) in [(None, 2), (Some("3"), 3)] {
        let mut keys = vec![
            ("classname", "trigger_counter"),
            ("targetname", "c"),
            ("target", "d"),
        ];
        keys.extend(count.map(|c| ("count", c)));
        let inputs = [world(), point(1, &keys), door(2, "d")];
        let e = spawn(&inputs, Dialect::Quake1);
        let mut m = Machinery::new(&e, DT);
        // Fired once every 10 steps.
        let events = run(&mut m, 60, |step, m| {
            if step % 10 == 0 {
                m.fire("c", 0.0);
            }
        });
        assert_eq!(started(&events)[0], (10 * opens_at, 0), "count {count:?}");
        assert!(m.relay_removed(0));
    }
    // A negative count never fires (QuakeC's count never reaches exactly 0), warned.
    let inputs = [
        world(),
        point(
            1,
            &[
                ("classname", "trigger_counter"),
                ("targetname", "c"),
                ("target", "d"),
                ("count", "-1"),
            ],
        ),
        door(2, "d"),
    ];
    let e = spawn(&inputs, Dialect::Quake1);
    assert!(
        e.warnings[0].message.contains("never fires"),
        "{:?}",
        e.warnings
    );
    let mut m = Machinery::new(&e, DT);
    let events = run(&mut m, 10, |_, m| m.fire("c", 0.0));
    assert!(events.is_empty(), "{events:?}");
}

/// Relays naming each other in a loop never hang: a relay used twice in one step is used again
/// at the next step's start. Around the loop `a -> b -> a`, `b` is used once a step, so the
/// counter `b` (count 5) reaches its count at the fifth step.
#[test]
fn a_loop_of_relays_fires_once_a_step_and_never_hangs() {
    let inputs = [
        world(),
        point(
            1,
            &[
                ("classname", "trigger_relay"),
                ("targetname", "a"),
                ("target", "b"),
            ],
        ),
        point(
            2,
            &[
                ("classname", "trigger_relay"),
                ("targetname", "b"),
                ("target", "a"),
            ],
        ),
        point(
            3,
            &[
                ("classname", "trigger_counter"),
                ("targetname", "b"),
                ("target", "d"),
                ("count", "5"),
            ],
        ),
        // A relay naming itself.
        point(
            4,
            &[
                ("classname", "trigger_relay"),
                ("targetname", "s"),
                ("target", "s"),
            ],
        ),
        door(5, "d"),
    ];
    let mut m = Machinery::new(&spawn(&inputs, Dialect::Quake1), DT);
    let events = run(&mut m, 40, |step, m| {
        if step == 1 {
            m.fire("a", 0.0);
            m.fire("s", 0.0);
        }
    });
    assert_eq!(started(&events), [(5, 0)]);
}

/// Quake 1's `killtarget` removes every entity of that name and then returns: id's
/// `SUB_UseTargets` never fires the `target` of an entity with a `killtarget`. A removed door
/// moves no more and is reported; a removed relay relays no more; a removed trigger acts no
/// more.
#[test]
fn killtarget_removes_movers_relays_and_triggers() {
    let field = cube([0.0, 0.0, 0.0], [8.0, 8.0, 8.0]);
    let inputs = [
        world(),
        point(
            1,
            &[
                ("classname", "trigger_once"),
                ("killtarget", "k"),
                ("target", "e"),
            ],
        )
        .with_brush(field.clone(), InputContents::NonSolid),
        door(2, "k"),
        door(3, "e"),
        point(
            4,
            &[
                ("classname", "trigger_relay"),
                ("targetname", "k"),
                ("target", "e"),
            ],
        ),
        point(
            5,
            &[
                ("classname", "trigger_multiple"),
                ("targetname", "k"),
                ("target", "e"),
            ],
        )
        .with_brush(field, InputContents::NonSolid),
    ];
    let e = spawn(&inputs, Dialect::Quake1);
    let mut m = Machinery::new(&e, DT);
    let events = run(&mut m, 100, |step, m| match step {
        1 => m.touch(0),
        // The removed relay and the removed trigger, fired and touched.
        2 => {
            m.fire("k", 0.0);
            m.touch(1);
        }
        _ => {}
    });
    assert_eq!(events, [(1, 0, MoverEventKind::Removed)]);
    assert!(m.removed(0) && !m.removed(1));
    assert!(m.relay_removed(0) && m.trigger_removed(1));
    assert!(m.proposal(m.team_of(0)).is_empty());

    // Quake III has no killtarget: warned and ignored, the target fires.
    let e = spawn(&inputs, Dialect::Quake3);
    assert!(
        e.warnings
            .iter()
            .any(|w| w.entity == 1 && w.message.contains("no killtarget")),
        "{:?}",
        e.warnings
    );
    let mut m = Machinery::new(&e, DT);
    let events = run(&mut m, 2, |step, m| {
        if step == 1 {
            m.touch(0);
        }
    });
    assert_eq!(started(&events), [(1, 1)]);
}

/// Quake III: `trigger_always` uses its targets 300 ms after the world starts
/// (`SP_trigger_always`), at the first step at or past it (step 20 of 1/64 s); Quake 1 has no
/// such class (warned, removed). `target_relay` with `RED_ONLY` uses none (agents are on no
/// team, warned); with `RANDOM`, see `random.rs`.
#[test]
fn quake3_relays() {
    let always =
        |target: &'static str| point(1, &[("classname", "trigger_always"), ("target", target)]);
    let relay = |flags: &'static str| {
        point(
            2,
            &[
                ("classname", "target_relay"),
                ("targetname", "r"),
                ("target", "d"),
                ("spawnflags", flags),
            ],
        )
    };
    let inputs = [world(), always("r"), relay("0"), door(3, "d"), door(4, "d")];
    let mut m = Machinery::new(&spawn(&inputs, Dialect::Quake3), DT);
    let events = run(&mut m, 30, |_, _| {});
    assert_eq!(started(&events), [(20, 0), (20, 1)]);

    let q1 = spawn(&inputs, Dialect::Quake1);
    assert!(
        q1.warnings.iter().any(|w| w.entity == 1),
        "{:?}",
        q1.warnings
    );
    let events = run(&mut Machinery::new(&q1, DT), 30, |_, _| {});
    assert!(events.is_empty());

    let inputs = [world(), always("r"), relay("1"), door(3, "d")];
    let e = spawn(&inputs, Dialect::Quake3);
    assert!(e.warnings.iter().any(|w| w.entity == 2), "{:?}", e.warnings);
    let events = run(&mut Machinery::new(&e, DT), 30, |_, _| {});
    assert!(events.is_empty());
}

/// A trigger fired by name goes off as if touched (`multi_use`), even one agents cannot touch
/// (Quake 1's `NOTOUCH`), and then waits as it does when touched.
#[test]
fn a_trigger_fired_by_name_goes_off() {
    let inputs = [
        world(),
        point(
            1,
            &[
                ("classname", "trigger_multiple"),
                ("targetname", "t"),
                ("target", "d"),
                ("spawnflags", "1"),
            ],
        )
        .with_brush(
            cube([0.0, 0.0, 0.0], [8.0, 8.0, 8.0]),
            InputContents::NonSolid,
        ),
        door(2, "d"),
    ];
    let mut m = Machinery::new(&spawn(&inputs, Dialect::Quake1), DT);
    let events = run(&mut m, 3, |step, m| match step {
        1 => m.touch(0),
        2 => m.fire("t", 0.0),
        _ => {}
    });
    assert_eq!(started(&events), [(2, 0)]);
}

/// A Quake 1 secret door 64 x 16 x 96 facing +y (angle 90) and fired at step 1: back along
/// `v_right` by its width (64 units, to `dest1`) at 50 u/s (1.28 s), a second's pause, along
/// its angle by its length (16 units, 0.32 s) to `dest2`, 5 s open, back to `dest1`, a second,
/// home. Each stage ends at the first step at or past its time (`doors.qc`'s thinks at
/// `ltime`), counted from the step the one before ended.
#[test]
fn a_secret_door_moves_back_sideways_waits_and_returns() {
    let secret = |flags: &'static str| {
        point(
            1,
            &[
                ("classname", "func_door_secret"),
                ("angle", "90"),
                ("targetname", "s"),
                ("spawnflags", flags),
            ],
        )
        .with_solid(cube([0.0, 0.0, 0.0], [64.0, 16.0, 96.0]))
    };
    let inputs = [world(), secret("0")];
    let mut m = Machinery::new(&spawn(&inputs, Dialect::Quake1), DT);
    let mut at = Vec::new();
    let events = run(&mut m, 700, |step, m| {
        if step == 1 || step == 30 {
            // The second use, while it moves, does nothing ("exit if still moving around").
            m.fire("s", 0.0);
        }
        if [42, 100, 160, 300, 520, 600, 700].contains(&step) {
            at.push((step, m.offsets()[0]));
        }
    });
    use MoverEventKind::{Reached, Started};
    let kinds: Vec<(u64, MoverEventKind)> = events.iter().map(|e| (e.0, e.2)).collect();
    // 1 + ceil(1.28 * 64) = 83; + 64; + ceil(0.32 * 64) = 21 (168); + 5 * 64 (488); + 21; + 64;
    // + 82 (655).
    assert_eq!(
        kinds,
        [
            (1, Started),
            (83, Reached),
            (147, Started),
            (168, Reached),
            (488, Started),
            (509, Reached),
            (573, Started),
            (655, Reached),
        ]
    );
    let close = |a: DVec3, b: DVec3| (a - b).length() < 1e-9;
    let expected = [
        // 41 steps into the first move: 41/64 s at 50 u/s.
        (42, DVec3::new(41.0 / 64.0 * 50.0, 0.0, 0.0)),
        (100, DVec3::new(64.0, 0.0, 0.0)),
        // 13 steps into the second move.
        (160, DVec3::new(64.0, 13.0 / 64.0 * 50.0, 0.0)),
        (300, DVec3::new(64.0, 16.0, 0.0)),
        (520, DVec3::new(64.0, 0.0, 0.0)),
        // 27 steps on the way home.
        (600, DVec3::new(64.0 - 27.0 / 64.0 * 50.0, 0.0, 0.0)),
        (700, DVec3::ZERO),
    ];
    for ((step, got), (s, want)) in at.iter().zip(expected) {
        assert_eq!(*step, s);
        assert!(close(*got, want), "step {step}: {got} != {want}");
    }

    // SECRET_OPEN_ONCE: it stays open. A blocked secret door waits (secret_blocked only hurts).
    let mut m = Machinery::new(&spawn(&[world(), secret("1")], Dialect::Quake1), DT);
    run(&mut m, 1000, |step, m| {
        if step == 1 {
            m.fire("s", 0.0);
        }
    });
    assert_eq!(m.offsets()[0], DVec3::new(64.0, 16.0, 0.0));
    let mut m = Machinery::new(&spawn(&[world(), secret("0")], Dialect::Quake1), DT);
    run(&mut m, 10, |step, m| {
        if step == 1 {
            m.fire("s", 0.0);
        }
    });
    let before = m.offsets()[0];
    m.begin_step();
    m.block(0);
    assert!(m.drain_events().is_empty());
    // Its clock stood still: the next step goes on from where it stood.
    let next = m.proposal(0)[0].1.x;
    assert!(
        (next - (before.x + 50.0 / 64.0)).abs() < 1e-9,
        "{next} {before}"
    );
}

/// A button pressed twice fires a counter (count 2), which fires a relay (delay 0.5 s), which
/// opens a secret door (`scenarios/secret.toml`'s chain).
#[test]
fn a_button_pressed_twice_opens_a_secret_door_through_a_counter() {
    let inputs = [
        world(),
        point(
            1,
            &[
                ("classname", "func_door_secret"),
                ("angle", "0"),
                ("targetname", "secret"),
            ],
        )
        .with_solid(cube([256.0, -32.0, 0.0], [272.0, 32.0, 96.0])),
        point(
            2,
            &[
                ("classname", "func_button"),
                ("angle", "180"),
                ("target", "count"),
            ],
        )
        .with_solid(cube([-16.0, 128.0, 0.0], [0.0, 192.0, 48.0])),
        point(
            3,
            &[
                ("classname", "trigger_counter"),
                ("targetname", "count"),
                ("target", "relay"),
            ],
        ),
        point(
            4,
            &[
                ("classname", "trigger_relay"),
                ("targetname", "relay"),
                ("target", "secret"),
                ("delay", "0.5"),
            ],
        ),
    ];
    let e = spawn(&inputs, Dialect::Quake1);
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    let mut m = Machinery::new(&e, DT);
    // Pressed at step 1 and again once back at rest.
    let events = run(&mut m, 200, |step, m| {
        if step == 1 || step == 120 {
            m.touch(0);
        }
    });
    let secret: Vec<(u64, MoverEventKind)> = events
        .iter()
        .filter(|e| e.1 == 0)
        .map(|e| (e.0, e.2))
        .collect();
    // The button's 12 units at 40 u/s take 0.3 s (20 steps from 120): the second firing at
    // step 140, the relay's at the first step at or past 140/64 + 0.5 s: step 172.
    assert_eq!(
        secret.first(),
        Some(&(172, MoverEventKind::Started)),
        "{events:?}"
    );
}

/// The activator (Quake's `activator`) goes with what a touch fires: through a relay at once,
/// and through a Quake III button, which keeps it (`Use_BinaryMover`'s `ent->activator`) and
/// fires its targets with it when it reaches its far end (`Reached_BinaryMover`); a firing
/// nobody touched (`Machinery::fire`) has none. What reaches a `target_push` or a teleporter is
/// handed back as used (`drain_uses`), in order.
#[test]
fn the_activator_goes_with_the_firing_to_what_the_simulator_uses() {
    let inputs = [
        world(),
        point(
            1,
            &[
                ("classname", "target_push"),
                ("targetname", "p"),
                ("angle", "-1"),
            ],
        ),
        point(
            2,
            &[
                ("classname", "target_relay"),
                ("targetname", "r"),
                ("target", "p"),
            ],
        ),
        EntityInput::new(3, 30, [("classname", "trigger_multiple"), ("target", "r")]).with_brush(
            cube([-100.0, 0.0, 0.0], [-90.0, 8.0, 8.0]),
            InputContents::NonSolid,
        ),
        // A button 16 units deep along its angle (+x): it travels 16 less its lip of 4.
        point(
            4,
            &[
                ("classname", "func_button"),
                ("angle", "0"),
                ("target", "p"),
            ],
        )
        .with_solid(cube([200.0, 0.0, 0.0], [216.0, 16.0, 16.0])),
    ];
    let entities = spawn(&inputs, Dialect::Quake3);
    assert!(entities.warnings.is_empty(), "{:?}", entities.warnings);
    assert_eq!(entities.target_pushes.len(), 1);
    // The written trigger, then the button's surface.
    assert_eq!(entities.triggers.len(), 2);
    let mut m = Machinery::new(&entities, DT);
    let mut uses = Vec::new();
    run(&mut m, 40, |step, m| {
        match step {
            1 => m.touch_by(0, 7),
            2 => m.touch_by(1, 9),
            3 => m.fire("p", 0.0),
            _ => {}
        }
        uses.extend(m.drain_uses().into_iter().map(|u| (step, u)));
    });
    let push = |agent| EntityUse {
        used: Used::Push(0),
        activator: agent,
    };
    // The button sets off 50 ms after its use (Use_BinaryMover) and moves 12 units at 40 u/s:
    // whole milliseconds, 300, so it reaches its end at the first step at or past 0.35 s after
    // step 2's 2/64 s: step 25 (0.390625 s).
    assert_eq!(
        uses,
        [(1, push(Some(7))), (3, push(None)), (25, push(Some(9)))]
    );
}

/// Quake III reads no `delay` (`g_spawn.c`'s `fields` have none; `G_UseTargets` fires at once):
/// a `trigger_multiple`'s is warned about and ignored, its door opening at the touch's step.
/// Its `target_delay` waits its `delay` when it has one ("check delay for backwards
/// compatibility", `SP_target_delay`), else its `wait`; and it has one think
/// (`Use_Target_Delay` sets `nextthink`): used at step 1 and again at step 11, with a wait of
/// 0.5 s (32 steps), it fires once, at step 43, where Quake 1's `DelayedUse`s would each fire.
#[test]
fn quake3_reads_no_delay_and_its_target_delay_has_one_think() {
    let trigger = |target: &'static str| {
        point(
            1,
            &[
                ("classname", "trigger_multiple"),
                ("target", target),
                ("delay", "0.5"),
            ],
        )
        .with_brush(
            cube([0.0, 0.0, 0.0], [8.0, 8.0, 8.0]),
            InputContents::NonSolid,
        )
    };
    let inputs = [world(), trigger("d"), door(2, "d")];
    let e = spawn(&inputs, Dialect::Quake3);
    assert!(
        e.warnings
            .iter()
            .any(|w| w.entity == 1 && w.message.contains("delay")),
        "{:?}",
        e.warnings
    );
    let events = run(&mut Machinery::new(&e, DT), 4, |step, m| {
        if step == 1 {
            m.touch(0);
        }
    });
    assert_eq!(started(&events), [(1, 0)]);

    let delayed = |keys: &[(&'static str, &'static str)]| {
        let mut all = vec![
            ("classname", "target_delay"),
            ("targetname", "later"),
            ("target", "d"),
        ];
        all.extend_from_slice(keys);
        [world(), point(1, &all), door(2, "d")]
    };
    let e = spawn(
        &delayed(&[("delay", "0.25"), ("wait", "3")]),
        Dialect::Quake3,
    );
    assert_eq!(e.relays[0].delay, 0.25);
    let e = spawn(&delayed(&[("wait", "0.5")]), Dialect::Quake3);
    assert_eq!(e.relays[0].delay, 0.5);
    let events = run(&mut Machinery::new(&e, DT), 80, |step, m| {
        if step == 1 || step == 11 {
            m.fire("later", 0.0);
        }
    });
    assert_eq!(started(&events), [(43, 0)]);
}
