//! The movers' clock (`Machinery`): each rule against the game's numbers.

use cspace_entities::{Dialect, EntityInput, Machinery, MoverEventKind, spawn};
use cspace_geom::{Aabb, Brush, DVec3};

fn door(dialect: Dialect, keys: &[(&str, &str)]) -> Machinery {
    let brush = Brush::from_aabb(Aabb::new(DVec3::ZERO, DVec3::new(8.0, 64.0, 96.0))).unwrap();
    let mut k = vec![("classname", "func_door"), ("angle", "-1")];
    k.extend_from_slice(keys);
    let inputs = [
        EntityInput::new(0, 1, [("classname", "worldspawn")]),
        EntityInput::new(1, 10, k).with_solid(brush),
    ];
    Machinery::new(&spawn(&inputs, dialect), 1.0 / 64.0)
}

/// Steps the clock `n` times with nothing in the way; the events with their step.
fn run(m: &mut Machinery, n: u32, touch: impl Fn(u32) -> bool) -> Vec<(u32, MoverEventKind)> {
    let mut events = Vec::new();
    for step in 1..=n {
        m.begin_step();
        for t in 0..m.team_count() {
            m.commit(t);
        }
        if touch(step) {
            m.touch(0);
        }
        events.extend(m.drain_events().into_iter().map(|e| (step, e.kind)));
    }
    events
}

/// Quake 1: the field opens the door at once (`door_go_up`); 88 units at 100 u/s is 0.88 s,
/// which ends at the first step at or past it (57 steps of 1/64 s after the step it started);
/// it waits 3 s (192 steps) and closes.
#[test]
fn a_quake1_door_opens_waits_and_closes() {
    let mut m = door(Dialect::Quake1, &[]);
    let events = run(&mut m, 400, |step| step == 1);
    assert_eq!(
        events,
        [
            (1, MoverEventKind::Started),
            (1 + 57, MoverEventKind::Reached),
            (1 + 57 + 192, MoverEventKind::Started),
            (1 + 57 + 192 + 57, MoverEventKind::Reached),
        ]
    );
    assert_eq!(m.offsets()[0], DVec3::ZERO);
}

/// Quake III: the door sets off 50 ms after it is used (`Use_BinaryMover`) and moves at 400 u/s
/// for a whole number of milliseconds (88 units: 220 ms).
#[test]
fn a_quake3_door_sets_off_fifty_milliseconds_late() {
    let mut m = door(Dialect::Quake3, &[]);
    run(&mut m, 1, |step| step == 1);
    let team = 0;
    // Still at rest 3 steps (46.9 ms) after being used, moving at the 4th (62.5 ms).
    for _ in 0..3 {
        assert_eq!(m.proposal(team)[0].1, DVec3::ZERO);
        m.commit(team);
    }
    assert!(m.proposal(team)[0].1.z > 0.0);
    let expected = 400.0 * (4.0 / 64.0 - 0.05);
    assert!((m.proposal(team)[0].1.z - expected).abs() < 1e-9);
}

/// A blocked door reverses from where it is ("only partway up before reversing"): it is home
/// after as long as it had been opening; a crusher never reverses.
#[test]
fn a_blocked_door_reverses_unless_it_is_a_crusher() {
    let mut m = door(Dialect::Quake1, &[]);
    run(&mut m, 11, |step| step == 1);
    let open = m.offsets()[0];
    assert!((open.z - 1000.0 / 64.0).abs() < 1e-9, "{open}");
    m.block(0);
    assert_eq!(m.drain_events()[0].kind, MoverEventKind::Reversed);
    let events = run(&mut m, 12, |_| false);
    assert_eq!(events, [(10, MoverEventKind::Reached)]);
    assert_eq!(m.offsets()[0], DVec3::ZERO);

    // Quake 1: a door with a negative wait crushes ("let it just squash the object").
    let mut m = door(Dialect::Quake1, &[("wait", "-1")]);
    run(&mut m, 11, |step| step == 1);
    m.block(0);
    assert!(m.drain_events().is_empty());
    assert!(m.is_crusher(0));
}
