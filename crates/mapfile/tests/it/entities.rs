//! The living entities of the corpus maps (issue 32): E1M1's doors, lifts, buttons and
//! teleporter, E3M5's wind tunnels, the corpus totals of the issue, and movers taken out of the
//! static world when they live.

use cspace_entities::{Activation, Dialect, MoverKind, Push, TriggerKind};
use cspace_geom::DVec3;
use cspace_mapfile::{BrushFate, BuildOptions, MapWorld, load_world};

use crate::support::corpus;

fn load(bytes: &[u8], name: &str, living: bool) -> MapWorld {
    let options = BuildOptions {
        living,
        ..BuildOptions::default()
    };
    load_world(bytes, name, &options).expect("corpus maps parse")
}

/// E1M1 read with Quake 1's rules: 29 movers (14 doors, 7 secret doors, 2 plats, 6 buttons), its
/// lifts spawned lowered, its first door opening at 400 u/s by its field, the teleporter to its
/// one destination (27 above it when used), and the liquid slime.
#[test]
fn e1m1_has_its_doors_lifts_buttons_and_teleporter() {
    let Some(corpus) = corpus("entities::e1m1_has_its_doors_lifts_buttons_and_teleporter") else {
        return;
    };
    let map = load(&corpus.read("quake_e1m1.map"), "quake_e1m1.map", false);
    let e = &map.living;
    assert_eq!(e.dialect, Dialect::Quake1);
    let count = |kind| e.movers.iter().filter(|m| m.kind == kind).count();
    assert_eq!(
        [
            count(MoverKind::Door),
            count(MoverKind::SecretDoor),
            count(MoverKind::Plat),
            count(MoverKind::Button),
            count(MoverKind::Train)
        ],
        [14, 7, 2, 6, 0]
    );
    // Entity 14 (line 9353): the first door off the start, `speed 400`, `angle 270`; its pair
    // (entity 15) touches it, so they are one team with entity 14 the master and one field.
    let first = e.movers.iter().position(|m| m.entity == 14).unwrap();
    let pair = e.movers.iter().position(|m| m.entity == 15).unwrap();
    assert_eq!(e.movers[first].speed, 400.0);
    assert_eq!(e.movers[first].activation, Activation::Field);
    assert_eq!(e.movers[pair].team, first);
    let fields: Vec<_> = e
        .triggers
        .iter()
        .filter(|t| t.kind == TriggerKind::DoorField { mover: first })
        .collect();
    assert_eq!(fields.len(), 1);
    let team = e.movers[first].bounds.merged(e.movers[pair].bounds);
    assert_eq!(fields[0].bounds.min, team.min - DVec3::new(60.0, 60.0, 8.0));
    // Lifts: drawn at the top, spawned lowered unless named (entity 188 is `height 400`).
    for m in e.movers.iter().filter(|m| m.kind == MoverKind::Plat) {
        let b = m.binary().unwrap();
        assert_eq!(b.pos2, DVec3::ZERO, "plat {} rests at the bottom", m.entity);
        assert!(b.pos1.z < 0.0);
        assert_eq!(m.spawn_offset, b.pos1);
    }
    let tall = e.movers.iter().find(|m| m.entity == 188).unwrap();
    assert_eq!(tall.binary().unwrap().pos1, DVec3::new(0.0, 0.0, -400.0));
    // The teleporter (entity 178) goes to t6, entity 204.
    let teleporter = e.triggers.iter().find(|t| t.entity == 178).unwrap();
    let TriggerKind::Teleport { destinations, .. } = &teleporter.kind else {
        panic!("entity 178 is a teleporter: {:?}", teleporter.kind);
    };
    assert_eq!(destinations.len(), 1);
    assert_eq!(e.spots[destinations[0]].entity, 204);
    // Its slime and its teleporter texture (water) are liquids of the world model.
    assert!(!e.liquids.is_empty());
}

/// E3M5's wind tunnels are Quake 1 `trigger_push`es: 16 of them, 10 times their speed along
/// their angle (`360`: +x; `-1`: up).
#[test]
fn e3m5_wind_tunnels_push_ten_times_their_speed() {
    let Some(corpus) = corpus("entities::e3m5_wind_tunnels_push_ten_times_their_speed") else {
        return;
    };
    let map = load(&corpus.read("quake_e3m5.map"), "quake_e3m5.map", false);
    let pushes: Vec<_> = map
        .living
        .triggers
        .iter()
        .filter_map(|t| match t.kind {
            TriggerKind::Push(Push::Velocity { velocity, .. }) => Some((t.entity, velocity)),
            _ => None,
        })
        .collect();
    assert_eq!(pushes.len(), 16);
    // Entity 2: `angle 360`, `speed 75`; entity 5: `angle -1`, `speed 75`.
    assert!(pushes.contains(&(2, DVec3::new(750.0, 0.0, 0.0))));
    assert!(pushes.contains(&(5, DVec3::new(0.0, 0.0, 750.0))));
}

/// Across the corpus, the counts the issue gives: 137 doors (`func_door*`: doors and secret
/// doors), 5 lifts, 1 train, 35 buttons, 47 teleporters, 16 push pads, 58
/// `trigger_once`/`trigger_multiple`; and its liquids.
#[test]
fn corpus_counts_match_the_issue() {
    let Some(corpus) = corpus("entities::corpus_counts_match_the_issue") else {
        return;
    };
    let mut movers = [0usize; 5];
    let (mut teleporters, mut pushes, mut fires) = (0, 0, 0);
    let mut liquids = [0usize; 3];
    for name in [
        "ericw_retrojam1_ericw.map",
        "librequake_e3m4.map",
        "quake_dm4.map",
        "quake_e1m1.map",
        "quake_e3m5.map",
        "unvanquished_chasm.map",
    ] {
        let map = load(&corpus.read(name), name, false);
        for l in &map.living.liquids {
            liquids[l.kind as usize] += 1;
        }
        for m in &map.living.movers {
            movers[m.kind as usize] += 1;
        }
        for t in &map.living.triggers {
            match &t.kind {
                TriggerKind::Teleport { .. } => teleporters += 1,
                TriggerKind::Push(_) => pushes += 1,
                TriggerKind::Fire { .. }
                    if ["trigger_once", "trigger_multiple"]
                        .contains(&t.classname.to_ascii_lowercase().as_str()) =>
                {
                    fires += 1
                }
                _ => {}
            }
        }
    }
    let [doors, secret, plats, buttons, trains] = movers;
    assert_eq!(doors + secret, 137, "func_door* ({doors} + {secret})");
    assert_eq!([plats, buttons, trains], [5, 35, 1]);
    assert_eq!([teleporters, pushes, fires], [47, 16, 58]);
    // Of the corpus's 116 brushes with a liquid texture (85 water, 12 slime, 4 lava, 15
    // `*teleport`), 28 also have solid faces, and the strongest contents win (`build_world`,
    // step 4): they are solid. Of the rest, the world model's are liquids (`*teleport` is water);
    // two lie in brush entities (a `func_wall`, a `func_illusionary`) and are reported.
    assert_eq!(liquids, [69, 11, 3]);
}

/// Living movers leave the static world: their brushes become `BrushFate::Mover`, the world
/// keeps every other brush in order, and nothing else changes.
#[test]
fn living_movers_leave_the_static_world() {
    let Some(corpus) = corpus("entities::living_movers_leave_the_static_world") else {
        return;
    };
    let bytes = corpus.read("quake_e1m1.map");
    let frozen = load(&bytes, "quake_e1m1.map", false);
    let living = load(&bytes, "quake_e1m1.map", true);
    let mover_brushes: usize = living.living.movers.iter().map(|m| m.brushes.len()).sum();
    assert_eq!(living.tally.mover, mover_brushes);
    assert_eq!(living.world.len() + mover_brushes, frozen.world.len());
    assert_eq!(living.tally.total, frozen.tally.total);
    for (f, l) in frozen.brushes.iter().zip(&living.brushes) {
        match (&f.fate, &l.fate) {
            (BrushFate::Solid(_) | BrushFate::Clip(_), BrushFate::Mover(m)) => {
                assert_eq!(living.living.movers[*m].entity, l.source.entity)
            }
            (BrushFate::Solid(a), BrushFate::Solid(b)) => {
                assert_eq!(
                    frozen.world.brush(*a).brush.bounds(),
                    living.world.brush(*b).brush.bounds()
                )
            }
            (a, b) => assert_eq!(a, b),
        }
    }
}
