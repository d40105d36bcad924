//! What Quake III leaves to chance, drawn from the clock's seeded generator
//! (`Machinery::seeded`, SplitMix64): `target_relay`'s `RANDOM` (`target_relay_use`,
//! `g_target.c`, picks one entity with `G_PickTarget`, `g_utils.c`) and `trigger_multiple`'s
//! `random` (`multi_trigger`, `g_trigger.c`: `nextthink = level.time + (wait + random *
//! crandom()) * 1000`). Each is checked against the game's formula applied to the generator's
//! draws, and across seeds.

use cspace_entities::{Dialect, Machinery, TriggerKind, Used, spawn};
use cspace_geom::generate::Rng;

use super::firing::{DT, cube, door, point, run, started, world};
use cspace_entities::InputContents;

/// A `trigger_always` (entity 1) fires "r", a `target_relay` (entity 2, `spawnflags` 4) whose
/// target "d" names three doors (entities 3, 4, 5: movers 0, 1, 2) and a `target_position`
/// (entity 6), which has no `use`.
fn random_relay() -> Vec<cspace_entities::EntityInput> {
    vec![
        world(),
        point(1, &[("classname", "trigger_always"), ("target", "r")]),
        point(
            2,
            &[
                ("classname", "target_relay"),
                ("targetname", "r"),
                ("target", "d"),
                ("spawnflags", "4"),
            ],
        ),
        door(3, "d"),
        door(4, "d"),
        door(5, "d"),
        point(
            6,
            &[
                ("classname", "target_position"),
                ("targetname", "d"),
                ("origin", "0 0 0"),
            ],
        ),
    ]
}

/// `G_PickTarget` gathers every entity of the name in entity order (3, 4, 5, 6) and uses
/// `choice[rand() % num_choices]`, here the generator's first draw (nothing else draws in this
/// map): a door (moved at step 20, `trigger_always`'s 300 ms) or the point (nothing moves). The
/// same seed always picks the same; among 64 seeds every choice comes up.
#[test]
fn a_random_target_relay_uses_one_entity_picked_with_the_seed() {
    let e = spawn(&random_relay(), Dialect::Quake3);
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    assert_eq!(e.relays[1].choices, [3, 4, 5, 6]);
    let mut seen = [false; 4];
    for seed in 0..64 {
        let pick = (Rng::new(seed).next_u64() % 4) as usize;
        seen[pick] = true;
        let expected: Vec<(u64, usize)> = if pick < 3 { vec![(20, pick)] } else { vec![] };
        for _ in 0..2 {
            let mut m = Machinery::seeded(&e, DT, seed);
            let events = run(&mut m, 30, |_, _| {});
            assert_eq!(started(&events), expected, "seed {seed}");
        }
    }
    assert_eq!(seen, [true; 4]);
}

/// `G_PickTarget` picks among the first 32 (`MAXCHOICES`) entities of the name.
#[test]
fn a_random_target_relay_picks_among_the_first_32() {
    let mut inputs = random_relay();
    inputs.truncate(3);
    for i in 3..43 {
        inputs.push(cspace_entities::EntityInput::new(
            i,
            10 * i,
            [
                ("classname", "target_position"),
                ("targetname", "d"),
                ("origin", "0 0 0"),
            ],
        ));
    }
    let e = spawn(&inputs, Dialect::Quake3);
    assert_eq!(e.relays[1].choices, (3..35).collect::<Vec<u32>>());
}

/// A Quake III `trigger_multiple` (entity 1, `wait` 1, `random` `random`) firing a `target_push`
/// (entity 2): the steps at which an agent touching it at every step sets it off, over `steps`.
fn firings(random: &'static str, wait: &'static str, seed: u64, steps: u64) -> Vec<u64> {
    let inputs = [
        world(),
        point(
            1,
            &[
                ("classname", "trigger_multiple"),
                ("target", "p"),
                ("wait", wait),
                ("random", random),
            ],
        )
        .with_brush(
            cube([0.0, 0.0, 0.0], [8.0, 8.0, 8.0]),
            InputContents::NonSolid,
        ),
        point(2, &[("classname", "target_push"), ("targetname", "p")]),
    ];
    let e = spawn(&inputs, Dialect::Quake3);
    let mut m = Machinery::seeded(&e, DT, seed);
    let mut fired = Vec::new();
    run(&mut m, steps, |step, m| {
        m.touch_by(0, 7);
        for u in m.drain_uses() {
            assert_eq!(u.used, Used::Push(0));
            fired.push(step);
        }
    });
    fired
}

/// `multi_trigger`: after a firing at time `t` the trigger waits until `t + wait + random *
/// crandom()`, `crandom()` = `2 * (random() - 0.5)` in [-1, 1] (`q_shared.h`). With `wait` 1 and
/// `random` 0.5 the wait lies in [0.5, 1.5] s: at 64 steps a second, the next firing (the first
/// step at or past it) comes 32 to 96 steps after the last, both ends included. Without
/// `random` every wait is 64 steps. The first wait is the formula applied to the generator's
/// first draw (`crandom` from its low 15 bits, as `rand() & 0x7fff`).
#[test]
fn a_random_trigger_multiple_waits_wait_plus_random_times_crandom() {
    let steady = firings("0", "1", 5, 64 * 10);
    assert_eq!(steady, (0..10).map(|i| 1 + 64 * i).collect::<Vec<u64>>());

    let mut all_gaps = Vec::new();
    let mut sequences = Vec::new();
    for seed in 0..8 {
        let fired = firings("0.5", "1", seed, 64 * 40);
        assert_eq!(fired, firings("0.5", "1", seed, 64 * 40), "seed {seed}");
        assert_eq!(fired[0], 1);
        let gaps: Vec<u64> = fired.windows(2).map(|w| w[1] - w[0]).collect();
        for &gap in &gaps {
            assert!(
                (32..=96).contains(&gap),
                "seed {seed}: gap {gap} in {gaps:?}"
            );
        }
        // The first wait from the formula: the clock's time at step 1 is 1/64.
        let bits = Rng::new(seed).next_u64();
        let crandom = 2.0 * ((bits & 0x7fff) as f64 / 32767.0 - 0.5);
        let ready = DT + 1.0 + 0.5 * crandom;
        let next = (2..).find(|&s| s as f64 * DT >= ready).unwrap();
        assert_eq!(fired[1], next, "seed {seed}");
        all_gaps.extend(gaps);
        sequences.push(fired);
    }
    sequences.sort();
    sequences.dedup();
    assert_eq!(sequences.len(), 8, "every seed waits its own way");
    all_gaps.sort_unstable();
    all_gaps.dedup();
    assert!(all_gaps.len() > 20, "{all_gaps:?}");
}

/// `SP_trigger_multiple`: a `random` at least `wait` becomes `wait - FRAMETIME`, `FRAMETIME`
/// being 100 (milliseconds) and `wait` seconds: 1 - 100 = -99 (warned). A `wait` of 0 is no wait:
/// `multi_trigger` frees the trigger after its firing (`if (ent->wait > 0)`), so it fires once.
#[test]
fn quake3_random_and_wait_edges_follow_sp_trigger_multiple() {
    let inputs = [
        world(),
        point(
            1,
            &[
                ("classname", "trigger_multiple"),
                ("wait", "1"),
                ("random", "2"),
            ],
        )
        .with_brush(
            cube([0.0, 0.0, 0.0], [8.0, 8.0, 8.0]),
            InputContents::NonSolid,
        ),
    ];
    let e = spawn(&inputs, Dialect::Quake3);
    let TriggerKind::Fire { random, .. } = e.triggers[0].kind else {
        panic!("{:?}", e.triggers[0].kind);
    };
    assert_eq!(random, 1.0 - 100.0);
    assert!(
        e.warnings
            .iter()
            .any(|w| w.entity == 1 && w.message.contains("random")),
        "{:?}",
        e.warnings
    );
    assert_eq!(firings("0", "0", 0, 256), [1]);
}

/// Quake III's `target_delay` (`Use_Target_Delay`, `g_target.c`): `nextthink = level.time +
/// (wait + random * crandom()) * 1000`. With `wait` 1 and `random` 0.5, fired at step 1 (1/64
/// s), it fires its door at the first step at or past `1/64 + 1 + 0.5 * crandom()`, the
/// generator's first draw (in [-1, 1]: steps 33 to 97).
#[test]
fn a_quake3_target_delay_waits_wait_plus_random_times_crandom() {
    let inputs = [
        world(),
        point(
            1,
            &[
                ("classname", "target_delay"),
                ("targetname", "later"),
                ("target", "d"),
                ("wait", "1"),
                ("random", "0.5"),
            ],
        ),
        door(2, "d"),
    ];
    let e = spawn(&inputs, Dialect::Quake3);
    let mut steps = Vec::new();
    for seed in 0..8 {
        let mut m = Machinery::seeded(&e, DT, seed);
        let events = run(&mut m, 120, |step, m| {
            if step == 1 {
                m.fire("later", 0.0);
            }
        });
        let bits = Rng::new(seed).next_u64();
        let crandom = 2.0 * ((bits & 0x7fff) as f64 / 32767.0 - 0.5);
        let due = DT + 1.0 + 0.5 * crandom;
        let step = (1..).find(|&s| s as f64 * DT >= due).unwrap();
        assert!((33..=97).contains(&step), "{step}");
        assert_eq!(started(&events), [(step, 0)], "seed {seed}");
        steps.push(step);
    }
    steps.sort_unstable();
    steps.dedup();
    assert!(steps.len() > 4, "{steps:?}");
}
