//! `killtarget` in the step (issue 32, stage 4): a Quake 1 trigger whose `killtarget` names a
//! mover removes it (`SUB_UseTargets`' `remove`): the mover leaves the scene, so its brushes
//! collide no more on any backend, the trace reports it (`mover M removed`), and the exactness
//! guard forgets it. Before the scene could drop a mover, the gate stayed solid and the agent
//! stopped against it.

use cspace_entities::{Dialect, EntityInput, spawn};
use cspace_geom::DVec3;
use cspace_sim::{AgentSpec, BackendKind, Intent, MoverEventKind, Sim, SimConfig};

use super::living::{cube, player};
use super::triggers::living_sim;

/// A floor, a named door across it (x 100..112, the "gate", never opened: nothing fires its
/// name) and a trigger_once before it whose killtarget is the gate.
fn gated(backend: BackendKind, kill: bool) -> Sim {
    let mut trigger = vec![("classname", "trigger_once")];
    if kill {
        trigger.push(("killtarget", "gate"));
    }
    let inputs = [
        EntityInput::new(0, 1, [("classname", "worldspawn")]),
        EntityInput::new(1, 10, [("classname", "func_door"), ("targetname", "gate")])
            .with_solid(cube([100.0, -512.0, 0.0], [112.0, 512.0, 128.0])),
        EntityInput::new(2, 20, trigger).with_brush(
            cube([0.0, -512.0, 0.0], [32.0, 512.0, 128.0]),
            cspace_entities::InputContents::NonSolid,
        ),
    ];
    let entities = spawn(&inputs, Dialect::Quake1);
    assert!(entities.warnings.is_empty(), "{:?}", entities.warnings);
    let floor = cube([-512.0, -512.0, -16.0], [512.0, 512.0, 0.0]);
    living_sim(
        backend,
        vec![floor],
        entities,
        0,
        SimConfig::default().parallel_from,
    )
}

#[test]
fn a_killtarget_removes_a_mover_from_the_scene() {
    for backend in BackendKind::ALL {
        for kill in [false, true] {
            let mut sim = gated(backend, kill);
            let id = sim
                .spawn(AgentSpec::new(player(), DVec3::new(-100.0, 0.0, 24.03125)))
                .unwrap();
            sim.set_intent(id, Intent::walk(DVec3::X, 320.0)).unwrap();
            sim.run(96);
            let x = sim.agent(id).unwrap().position.x;
            let removed: Vec<_> = sim
                .mover_events()
                .iter()
                .filter(|e| e.kind == MoverEventKind::Removed)
                .map(|e| e.mover)
                .collect();
            if kill {
                // 1.5 s at 320 u/s from x -100: far past where the gate stood.
                assert!(x > 300.0, "{backend:?}: {x}");
                assert_eq!(removed, [0], "{backend:?}");
            } else {
                // Against the gate's face (x 100) with its 16-unit half-width.
                assert!(x < 84.0 && x > 83.0, "{backend:?}: {x}");
                assert!(removed.is_empty(), "{backend:?}");
            }
            let v = sim.verification().unwrap();
            assert_eq!(v.in_solid, 0, "{backend:?}: {:?}", v.first);
        }
    }
}
