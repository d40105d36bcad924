//! Bad `path_corner` chains (issue 32, stage 4): each a located warning naming the entity and
//! the corner, with a defined behaviour, never a panic or a hang.

use cspace_entities::{Dialect, EntityInput, Machinery, Motion, spawn};
use cspace_geom::{Aabb, Brush, DVec3};

fn train_with(corners: &[(&'static str, &'static str, &'static str)]) -> Vec<EntityInput> {
    let brush = Brush::from_aabb(Aabb::new(DVec3::ZERO, DVec3::new(64.0, 64.0, 16.0))).unwrap();
    let mut inputs = vec![
        EntityInput::new(0, 1, [("classname", "worldspawn")]),
        EntityInput::new(1, 10, [("classname", "func_train"), ("target", "c1")]).with_solid(brush),
    ];
    for (i, &(name, target, origin)) in corners.iter().enumerate() {
        let index = 2 + i as u32;
        inputs.push(EntityInput::new(
            index,
            10 * index,
            [
                ("classname", "path_corner"),
                ("targetname", name),
                ("target", target),
                ("origin", origin),
            ],
        ));
    }
    inputs
}

/// A corner naming itself: the train stays at it (a loop of one stop), warned on the train's
/// line; its clock runs without a hang.
#[test]
fn a_corner_targeting_itself_is_warned_and_the_train_stays() {
    for dialect in [Dialect::Quake1, Dialect::Quake3] {
        let e = spawn(&train_with(&[("c1", "c1", "0 0 0")]), dialect);
        let w = e
            .warnings
            .iter()
            .find(|w| w.message.contains("targets itself"))
            .unwrap_or_else(|| panic!("{:?}", e.warnings));
        assert_eq!((w.line, w.entity), (10, 1));
        assert!(w.message.contains("\"c1\""), "{w}");
        let Motion::Path { stops, loop_to, .. } = &e.movers[0].motion else {
            panic!("a train");
        };
        assert_eq!((stops.len(), *loop_to), (1, Some(0)));
        let mut m = Machinery::new(&e, 1.0 / 64.0);
        for _ in 0..200 {
            m.begin_step();
            m.commit(0);
        }
        assert_eq!(m.offsets()[0], stops[0].offset);
    }
}

/// A chain that returns to a middle corner: the train loops from its last corner back to that
/// one, warned with the corner's name.
#[test]
fn a_chain_returning_to_a_middle_corner_is_warned() {
    let e = spawn(
        &train_with(&[
            ("c1", "c2", "0 0 0"),
            ("c2", "c3", "128 0 0"),
            ("c3", "c2", "128 128 0"),
        ]),
        Dialect::Quake1,
    );
    let w = e
        .warnings
        .iter()
        .find(|w| w.message.contains("returns to"))
        .unwrap_or_else(|| panic!("{:?}", e.warnings));
    assert_eq!((w.line, w.entity), (10, 1));
    assert!(w.message.contains("\"c2\""), "{w}");
    let Motion::Path { stops, loop_to, .. } = &e.movers[0].motion else {
        panic!("a train");
    };
    assert_eq!((stops.len(), *loop_to), (3, Some(1)));
    // A chain closing on its first corner is a plain loop: no warning.
    let e = spawn(
        &train_with(&[("c1", "c2", "0 0 0"), ("c2", "c1", "128 0 0")]),
        Dialect::Quake1,
    );
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
}

/// A teleporter without a `target`, and one whose target names no destination: each warned on
/// its own line with the key and value, and each does nothing (no destination).
#[test]
fn teleporters_without_a_destination_are_warned_and_do_nothing() {
    use cspace_entities::{InputContents, TriggerKind};
    let volume = Brush::from_aabb(Aabb::new(DVec3::ZERO, DVec3::new(64.0, 64.0, 64.0))).unwrap();
    let inputs = [
        EntityInput::new(0, 1, [("classname", "worldspawn")]),
        EntityInput::new(1, 10, [("classname", "trigger_teleport")])
            .with_brush(volume.clone(), InputContents::NonSolid),
        EntityInput::new(
            2,
            20,
            [("classname", "trigger_teleport"), ("target", "nowhere")],
        )
        .with_brush(volume, InputContents::NonSolid),
    ];
    for dialect in [Dialect::Quake1, Dialect::Quake3] {
        let e = spawn(&inputs, dialect);
        let said = |entity: u32, words: &str| {
            e.warnings
                .iter()
                .any(|w| w.entity == entity && w.line == 10 * entity && w.message.contains(words))
        };
        assert!(said(1, "without a target"), "{:?}", e.warnings);
        assert!(
            said(2, "\"nowhere\" names no destination"),
            "{:?}",
            e.warnings
        );
        for t in &e.triggers {
            assert_eq!(
                t.kind,
                TriggerKind::Teleport {
                    destinations: Vec::new(),
                    needs_firing: false,
                    fires: None,
                }
            );
        }
    }
}
