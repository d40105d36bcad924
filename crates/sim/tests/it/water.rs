//! Liquids in a living world (issue 32, stage 4; `movement/water.rs`, `docs/entities.md`
//! "Liquids"). Every expected value comes from the games' own arithmetic:
//!
//! - the water level changes at the heights Quake 1's `SV_CheckWater` and Quake III's
//!   `PM_SetWaterLevel` sample, with a point on the surface in the water for Quake III (a closed
//!   brush, `CM_PointContents`) and out of it for Quake 1 (its BSP's front side), on every backend
//!   (the contents query reads the brushes, not the backend);
//! - a swimmer wishing nothing sinks at 60 units/s (Quake III) or 42 (Quake 1's 60 x 0.7), and
//!   swims level at 160 (320 x `pm_swimScale` 0.5) or 224 (320 x 0.7);
//! - Quake III wades at 5/6 of the walk speed at water level 1;
//! - a water jump sets 350 up and 200 forward (Quake III, less two gravities for its first frame)
//!   or 225 up and 50 into the ledge's face (Quake 1);
//! - slime and lava hurt (events) at each dialect's rate;
//! - a run with liquids ends on the same bits on one and two threads.

use std::sync::Arc;

use cspace_entities::{Dialect, Entities, Liquid, LiquidKind};
use cspace_geom::{BrushSource, DVec3, Shape, World};
use cspace_sim::{
    AgentId, AgentSpec, BackendKind, EventKind, Intent, Living, Models, MoveParams, Recording, Sim,
    SimConfig, View,
};

// Quake's player box (Quake III's mins z too, -24, which `PM_SetWaterLevel` reads as `MINS_Z`).
use super::living::{cube, player};

fn crouched() -> Shape {
    Shape::new_box(
        DVec3::new(-16.0, -16.0, -24.0),
        DVec3::new(16.0, 16.0, 16.0),
    )
    .unwrap()
}

/// A pool: its floor's top at z -256, a ledge west of x -512 standing 8 above the surface, and
/// `kind` filling x -512..512, y -512..512, z -256..`surface`.
fn pool(
    backend: BackendKind,
    dialect: Dialect,
    kind: LiquidKind,
    surface: f64,
    params: MoveParams,
    parallel_from: usize,
) -> Sim {
    let statics = vec![
        cube([-1024.0, -512.0, -272.0], [512.0, 512.0, -256.0]),
        cube([-1024.0, -512.0, -256.0], [-512.0, 512.0, surface + 8.0]),
    ];
    let mut entities = Entities::empty(dialect);
    entities.liquids.push(Liquid {
        kind,
        brush: cube([-512.0, -512.0, -256.0], [512.0, 512.0, surface]),
        source: BrushSource::default(),
    });
    let entities = Arc::new(entities);
    let world = Arc::new(World::from_brushes(statics));
    let shapes = [player(), crouched()];
    let mut all = shapes.to_vec();
    if params.trace_epsilon > 0.0 {
        all.extend(
            shapes
                .iter()
                .map(|s| cspace_sim::agent::grown(s, params.trace_epsilon)),
        );
    }
    let collider = backend.build_for(&world, &all).unwrap().unwrap();
    let models = Models::build(backend, &entities.movers, &all)
        .unwrap()
        .unwrap();
    let config = SimConfig {
        params,
        recording: Recording::Events,
        verify: true,
        parallel_from,
        living: Some(Living {
            entities,
            models: Arc::new(models),
        }),
        ..SimConfig::default()
    };
    Sim::new(collider, config).unwrap()
}

fn water_sim(backend: BackendKind, dialect: Dialect) -> Sim {
    pool(
        backend,
        dialect,
        LiquidKind::Water,
        0.0,
        MoveParams::default(),
        2000,
    )
}

/// The level of an agent placed at height `z` (settled: placed agents do not move before their
/// first step, in water or not).
fn level_at(sim: &mut Sim, z: f64, crouch: bool) -> u8 {
    let mut spec = AgentSpec::new(player(), DVec3::new(0.0, 0.0, z));
    spec.crouching = Some(crouched());
    spec.start_crouched = crouch;
    let id = sim.spawn(spec).unwrap();
    sim.settle();
    let me = sim.agent(id).unwrap();
    assert_eq!(me.position.z, z, "settling moved the agent");
    assert_eq!(me.liquid.is_some(), me.water_level > 0);
    sim.despawn(id).unwrap();
    me.water_level
}

/// The heights where the level changes, from each engine's sample points (the surface at z 0,
/// Quake's box -24..32):
///
/// - Quake 1 (`SV_CheckWater`): feet + 1 = z - 23, the box's middle z + (-24 + 32) / 2 = z + 4,
///   the view offset z + 22; a point on the surface is out (the BSP's front side): level 1 below
///   z 23, 2 below -4, 3 below -22.
/// - Quake III (`PM_SetWaterLevel`, `MINS_Z` -24): `sample2 = viewheight - MINS_Z` = 26 + 24 =
///   50 standing, 12 + 24 = 36 crouched; `sample1 = sample2 / 2` = 25, 18; the points z - 23,
///   z - 24 + sample1, z - 24 + sample2; a point on the surface is in (a closed brush): level 1
///   at z 23 and below, 2 at -1 (crouched: 6), 3 at -26 (crouched: -12).
#[test]
fn the_water_level_changes_at_each_dialects_sample_heights_on_every_backend() {
    // Just above, on and just below each height (0.001: far above rounding, below any feature).
    let near = 1.0 / 1024.0;
    for backend in BackendKind::ALL {
        let mut q1 = water_sim(backend, Dialect::Quake1);
        for (z, level) in [
            (23.0 + near, 0),
            (23.0, 0),
            (23.0 - near, 1),
            (-4.0, 1),
            (-4.0 - near, 2),
            (-22.0, 2),
            (-22.0 - near, 3),
        ] {
            assert_eq!(
                level_at(&mut q1, z, false),
                level,
                "{backend:?} Quake 1 at z {z}"
            );
        }
        let mut q3 = water_sim(backend, Dialect::Quake3);
        for (z, crouch, level) in [
            (23.0 + near, false, 0),
            (23.0, false, 1),
            (-1.0 + near, false, 1),
            (-1.0, false, 2),
            (-26.0 + near, false, 2),
            (-26.0, false, 3),
            (23.0, true, 1),
            (6.0 + near, true, 1),
            (6.0, true, 2),
            (-12.0 + near, true, 2),
            (-12.0, true, 3),
        ] {
            assert_eq!(
                level_at(&mut q3, z, crouch),
                level,
                "{backend:?} Quake III at z {z}, crouched {crouch}"
            );
        }
    }
}

/// Steps `sim` `n` times with `intent` set every step.
fn run(sim: &mut Sim, id: AgentId, intent: Intent, n: usize) {
    for _ in 0..n {
        sim.set_intent(id, intent).unwrap();
        sim.step();
    }
}

/// Sinking: Quake III accelerates at 4 x 60 per second towards 60 down against a friction of
/// 3 x speed (level 3): it reaches 60 and stays (the friction's loss, 60 x 3/64, is below the
/// acceleration's 3.75). Quake 1 wishes 60 x 0.7 = 42 and accelerates at 10 x 42 against 4 x
/// speed: it stays at 42. Swimming level: the caps 320 x 0.5 = 160 and 320 x 0.7 = 224, held the
/// same way.
#[test]
fn swimmers_sink_at_60_or_42_and_swim_at_160_or_224() {
    for (dialect, sink, swim) in [
        (Dialect::Quake3, 60.0, 160.0),
        (Dialect::Quake1, 42.0, 224.0),
    ] {
        let mut sim = water_sim(BackendKind::Exact, dialect);
        let id = sim
            .spawn(AgentSpec::new(player(), DVec3::new(0.0, -300.0, -100.0)))
            .unwrap();
        run(&mut sim, id, Intent::default(), 128);
        let me = sim.agent(id).unwrap();
        assert_eq!(me.water_level, 3);
        assert!(
            (me.velocity.z + sink).abs() < 1e-9 && me.velocity.truncate() == glam::DVec2::ZERO,
            "{dialect:?} sinks at {}",
            me.velocity
        );
        let id = sim
            .spawn(AgentSpec::new(player(), DVec3::new(-400.0, 300.0, -100.0)))
            .unwrap();
        let z = sim.agent(id).unwrap().position.z;
        run(&mut sim, id, Intent::walk(DVec3::X, 320.0), 192);
        let me = sim.agent(id).unwrap();
        assert!(
            (me.velocity.x - swim).abs() < 1e-9 && me.velocity.z == 0.0 && me.position.z == z,
            "{dialect:?} swims at {}",
            me.velocity
        );
    }
}

/// Quake III's swim follows the view's pitch: looking 90 degrees down (pitch 90) the forward key
/// swims straight down at the cap, 160; crouching (the move-down key) with no wish does too.
#[test]
fn quake3_swims_along_the_views_pitch_and_down_when_crouching() {
    let mut sim = water_sim(BackendKind::Exact, Dialect::Quake3);
    let mut spec = AgentSpec::new(player(), DVec3::new(0.0, 0.0, -40.0));
    spec.crouching = Some(crouched());
    let id = sim.spawn(spec).unwrap();
    let mut intent = Intent::walk(DVec3::X, 320.0);
    intent.view = View {
        yaw: 0.0,
        pitch: 90.0,
    };
    run(&mut sim, id, intent, 64);
    let me = sim.agent(id).unwrap();
    assert!(
        (me.velocity.z + 160.0).abs() < 1e-9 && me.velocity.x.abs() < 1e-9,
        "{}",
        me.velocity
    );
    let down = Intent {
        crouch: true,
        ..Intent::default()
    };
    let id = sim
        .spawn({
            let mut spec = AgentSpec::new(player(), DVec3::new(200.0, 0.0, -40.0));
            spec.crouching = Some(crouched());
            spec
        })
        .unwrap();
    run(&mut sim, id, down, 64);
    let me = sim.agent(id).unwrap();
    assert!((me.velocity.z + 160.0).abs() < 1e-9, "{}", me.velocity);
}

/// Quake III's wading (`PM_WalkMove` at water level 1): the wish is capped at `1 - 0.5 x 1/3`
/// of 320, 266.67, and ground plus water friction (4 + 1 per second, x speed) never undercut
/// the acceleration's 10 x 266.67: the walk holds 800/3 exactly. Quake 1 walks at level 1 as on
/// land (`SV_AirMove`): 320.
#[test]
fn quake3_wades_at_five_sixths_of_the_walk_speed_and_quake1_walks_on() {
    for (dialect, speed) in [(Dialect::Quake3, 800.0 / 3.0), (Dialect::Quake1, 320.0)] {
        // Water 16 deep on the pool's floor: level 1 for an agent standing on it.
        let mut sim = pool(
            BackendKind::Exact,
            dialect,
            LiquidKind::Water,
            -240.0,
            MoveParams::default(),
            2000,
        );
        let id = sim
            .spawn(AgentSpec::new(
                player(),
                DVec3::new(-400.0, 0.0, -231.96875),
            ))
            .unwrap();
        run(&mut sim, id, Intent::walk(DVec3::X, 320.0), 128);
        let me = sim.agent(id).unwrap();
        assert_eq!(me.water_level, 1);
        assert!(me.on_ground);
        assert!(
            (me.velocity.x - speed).abs() < 1e-9,
            "{dialect:?}: {}",
            me.velocity
        );
    }
}

/// The water jump out of the pool onto its ledge (west, x < -512, top 8 above the surface): an
/// agent at level 2 swimming west. Quake III: 200 along the view and 350 up, its first frame
/// then taking gravity twice (the stepped slide's, then `PM_WaterJumpMove`'s own): 350 - 2 x
/// 800 / 64 = 325. Quake 1: 225 up, and `movedir` = -50 x the face's normal (+x), 50 west into
/// it, with no gravity while in the water.
#[test]
fn a_water_jump_sets_each_dialects_speeds() {
    for dialect in [Dialect::Quake3, Dialect::Quake1] {
        let mut sim = water_sim(BackendKind::Exact, dialect);
        let (id, v) = swim_at_the_ledge(&mut sim);
        match dialect {
            Dialect::Quake3 => {
                assert_eq!(v.z, 350.0 - 2.0 * 800.0 / 64.0, "{v}");
                assert_eq!((v.x, v.y), (-200.0, 0.0), "{v}");
            }
            Dialect::Quake1 => {
                assert_eq!(v.z, 225.0, "{v}");
                assert_eq!((v.x, v.y), (-50.0, 0.0), "{v}");
            }
        }
        // Out of the water and onto the ledge (1 s later, at most 320 units west of it).
        run(&mut sim, id, Intent::walk(DVec3::NEG_X, 320.0), 64);
        let me = sim.agent(id).unwrap();
        assert!(
            me.on_ground && me.position.x < -512.0 && me.position.z == 32.03125,
            "{dialect:?}: {me:?}"
        );
    }
}

/// An agent at level 2 in the pool (z -8: Quake 1's middle, z + 4, and Quake III's second
/// point, z + 1, under; the eyes out), 22 from the ledge's face (x -512) to the box's, swimming
/// west for a step: its id and velocity.
fn swim_at_the_ledge(sim: &mut Sim) -> (AgentId, DVec3) {
    let id = sim
        .spawn(AgentSpec::new(player(), DVec3::new(-490.0, 0.0, -8.0)))
        .unwrap();
    sim.settle();
    assert_eq!(sim.agent(id).unwrap().water_level, 2);
    sim.set_intent(id, Intent::walk(DVec3::NEG_X, 320.0))
        .unwrap();
    sim.step();
    (id, sim.agent(id).unwrap().velocity)
}

/// Lava and slime hurt as events: Quake 1 `WaterMove` (lava 10 x level every 0.2 s, slime 4 x
/// level every second, at once on entering), Quake III `P_WorldEffects` (lava 30 x level, slime
/// 10 x level, every 0.7 s as its pain debounce allows). Over 2 s at level 3 from the first
/// frame: Quake 1's lava hurts 10 times by 30, its slime twice by 12; Quake III's lava 3 times
/// by 90, its slime 3 times by 30. Water never hurts.
#[test]
fn slime_and_lava_hurt_at_each_dialects_rate() {
    for (dialect, kind, count, damage) in [
        (Dialect::Quake1, LiquidKind::Lava, 10, 30.0),
        (Dialect::Quake1, LiquidKind::Slime, 2, 12.0),
        (Dialect::Quake3, LiquidKind::Lava, 3, 90.0),
        (Dialect::Quake3, LiquidKind::Slime, 3, 30.0),
        (Dialect::Quake3, LiquidKind::Water, 0, 0.0),
    ] {
        let mut sim = pool(
            BackendKind::Exact,
            dialect,
            kind,
            0.0,
            MoveParams::default(),
            2000,
        );
        // On the pool's floor, deep under.
        let id = sim
            .spawn(AgentSpec::new(player(), DVec3::new(0.0, 0.0, -231.96875)))
            .unwrap();
        run(&mut sim, id, Intent::default(), 128);
        let hurts: Vec<f64> = sim
            .events()
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::LiquidDamage { liquid, damage } if e.agent == id => {
                    assert_eq!(liquid, kind);
                    Some(damage)
                }
                _ => None,
            })
            .collect();
        assert_eq!(hurts.len(), count, "{dialect:?} {kind:?}: {hurts:?}");
        assert!(hurts.iter().all(|&d| d == damage), "{hurts:?}");
    }
}

/// A crowd swimming, sinking and jumping out ends on the same bits on one thread and in
/// interaction groups on two.
#[test]
fn a_run_with_liquids_ends_on_the_same_bits_on_one_and_two_threads() {
    for dialect in [Dialect::Quake1, Dialect::Quake3] {
        let run = |threads: usize| {
            super::on_threads(threads, || {
                let mut sim = pool(
                    BackendKind::Exact,
                    dialect,
                    LiquidKind::Water,
                    0.0,
                    MoveParams::default(),
                    0,
                );
                let ids: Vec<AgentId> = (0..24)
                    .map(|i| {
                        let x = -480.0 + 40.0 * f64::from(i % 12);
                        let z = if i < 12 { 40.0 } else { -120.0 };
                        sim.spawn(AgentSpec::new(
                            player(),
                            DVec3::new(x, -40.0 + 3.0 * f64::from(i), z),
                        ))
                        .unwrap()
                    })
                    .collect();
                for step in 0..300u32 {
                    for (k, &id) in ids.iter().enumerate() {
                        let angle = f64::from(step / 50 + k as u32) * 1.3;
                        let mut intent =
                            Intent::walk(DVec3::new(angle.cos(), angle.sin(), 0.0), 320.0);
                        intent.jump = (step / 40 + k as u32).is_multiple_of(3);
                        intent.view.pitch = f64::from(k as u32 % 5) * 20.0 - 40.0;
                        sim.set_intent(id, intent).unwrap();
                    }
                    sim.step();
                }
                let v = sim.verification().unwrap();
                assert_eq!(v.in_solid, 0, "{:?}", v.first);
                let levels = sim
                    .events()
                    .iter()
                    .filter(|e| matches!(e.kind, EventKind::WaterLevel { .. }))
                    .count();
                (sim.state_hash(), levels)
            })
        };
        let (one, levels) = run(1);
        assert!(
            levels > 24,
            "the crowd hardly met the water: {levels} level changes"
        );
        assert_eq!(run(2), (one, levels), "{dialect:?}");
    }
}

/// The pool of [`pool`] whose ledge (x -1024..-512, up to 8 above the surface at 0) is a mover:
/// a named `func_door`, never fired, so it stands where the file draws it, in the scene but not
/// in the static world.
fn pool_with_a_mover_ledge(backend: BackendKind, dialect: Dialect) -> Sim {
    let inputs = [
        cspace_entities::EntityInput::new(0, 1, [("classname", "worldspawn")]),
        cspace_entities::EntityInput::new(
            1,
            10,
            [("classname", "func_door"), ("targetname", "never")],
        )
        .with_solid(cube([-1024.0, -512.0, -256.0], [-512.0, 512.0, 8.0])),
    ];
    let mut entities = cspace_entities::spawn(&inputs, dialect);
    assert!(entities.warnings.is_empty(), "{:?}", entities.warnings);
    assert_eq!(entities.movers.len(), 1);
    entities.liquids.push(Liquid {
        kind: LiquidKind::Water,
        brush: cube([-512.0, -512.0, -256.0], [512.0, 512.0, 0.0]),
        source: BrushSource::default(),
    });
    let floor = cube([-1024.0, -512.0, -272.0], [512.0, 512.0, -256.0]);
    super::triggers::living_sim(backend, vec![floor], entities, 0, 2000)
}

/// A water jump against a mover's brush: the solid tests of `PM_CheckWaterJump` (Quake III's
/// `pm->pointcontents`, `CM_PointContents` over the world and the brush models) and
/// `CheckWaterJump` (Quake 1's `traceline`, which meets brush models) see the movers where they
/// stand, so the agent of `a_water_jump_sets_each_dialects_speeds` jumps out onto a ledge that is
/// a mover with the same speeds (350 - 2 x 800 / 64 up and 200 along the view; 225 up and 50
/// into the face) and lands on its top. Before, the tests saw the static world only: no jump.
#[test]
fn a_water_jump_sees_a_movers_ledge() {
    for backend in BackendKind::ALL {
        for dialect in [Dialect::Quake3, Dialect::Quake1] {
            let mut sim = pool_with_a_mover_ledge(backend, dialect);
            let (id, v) = swim_at_the_ledge(&mut sim);
            let expected = match dialect {
                Dialect::Quake3 => DVec3::new(-200.0, 0.0, 350.0 - 2.0 * 800.0 / 64.0),
                Dialect::Quake1 => DVec3::new(-50.0, 0.0, 225.0),
            };
            assert_eq!(v, expected, "{backend:?} {dialect:?}");
            run(&mut sim, id, Intent::walk(DVec3::NEG_X, 320.0), 64);
            let me = sim.agent(id).unwrap();
            assert!(
                me.on_ground && me.position.x < -512.0 && me.position.z == 32.03125,
                "{backend:?} {dialect:?}: {me:?}"
            );
            let v = sim.verification().unwrap();
            assert_eq!(v.in_solid, 0, "{backend:?}: {:?}", v.first);
        }
    }
}
