//! Driving a simulation step by step, as a bot, a policy or a Python binding does: a Quake map,
//! 100 agents spawned around its spawn points, each given its own intent before every step (a
//! wander: a heading that turns a little each step, a jump now and then, some crouching) for
//! 1,000 steps; one agent is teleported back to the first spawn point on the way and one is
//! despawned; then the fingerprint of every agent's state.
//!
//! ```sh
//! cargo run --release -p cspace-sim --example drive -- ../shared/maps/quake_e1m1.map
//! ```
//!
//! `-- MAP AGENTS STEPS` changes the crowd and the length, and a fourth argument `memory`
//! prints the process's resident memory ten times on the way (Linux): with recording off, a
//! simulation keeps nothing that grows with the steps.
//!
//! The same run gives the same fingerprint on every run and any number of threads, and the
//! intents given as scripts instead end on the same bits (`tests/it/driving.rs`).

use std::sync::Arc;

use cspace_geom::{Collider, DVec3, QueryContext, Shape, World};
use cspace_sim::{
    Action, AgentId, AgentSpec, BackendKind, Intent, ScriptEvent, ScriptedAgent, Sim, SimConfig,
};

/// What the run does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plan {
    /// Agents spawned.
    pub agents: usize,
    /// Steps of [`DT`].
    pub steps: u64,
    /// At this step, agent 7 is teleported to the first spawn point.
    pub teleport_at: Option<u64>,
    /// At this step, the last agent is despawned.
    pub despawn_at: Option<u64>,
    /// [`SimConfig::parallel_from`].
    pub parallel_from: usize,
}

/// Seconds per step: Quake III's 125 Hz.
pub const DT: f64 = 1.0 / 125.0;

/// The plan the example runs.
pub const PLAN: Plan = Plan {
    agents: 100,
    steps: 1000,
    teleport_at: Some(500),
    despawn_at: Some(750),
    parallel_from: cspace_sim::PARALLEL_FROM,
};

/// The Quake player: standing box and crouching box.
pub fn player() -> (Shape, Shape) {
    let standing = Shape::new_box(
        DVec3::new(-16.0, -16.0, -24.0),
        DVec3::new(16.0, 16.0, 32.0),
    )
    .expect("a valid box");
    let crouching = Shape::new_box(
        DVec3::new(-16.0, -16.0, -24.0),
        DVec3::new(16.0, 16.0, 16.0),
    )
    .expect("a valid box");
    (standing, crouching)
}

/// Where the agents start: around the spawn points, ring after ring of spots 48 units apart,
/// the first `count` spots free of solid for the standing box (checked with `collider`).
pub fn starts(collider: &dyn Collider, spawns: &[DVec3], count: usize) -> Vec<DVec3> {
    let prepared = collider.prepare(&player().0).expect("a box");
    let mut ctx = QueryContext::new();
    let mut out: Vec<DVec3> = Vec::with_capacity(count);
    for ring in 0..16 {
        for &spawn in spawns {
            let around = if ring == 0 { 1 } else { 8 * ring };
            for k in 0..around {
                let angle = std::f64::consts::TAU * k as f64 / around as f64;
                let (s, c) = angle.sin_cos();
                let at = spawn + DVec3::new(c, s, 0.0) * (48.0 * ring as f64);
                let apart = out.iter().all(|p| p.distance(at) >= 48.0);
                if out.len() < count && apart && !collider.is_solid(&mut ctx, &prepared, at) {
                    out.push(at);
                }
            }
        }
    }
    out
}

/// The wander policy: agent `agent`'s wish at `step` (a pure function of the two). It turns
/// its heading by a few degrees each step, jumps every 97 steps, and every fifth agent crouches
/// from step 300 to 400.
pub fn wish(agent: u32, step: u64) -> (DVec3, bool, bool) {
    let t = step as f64 * DT;
    let heading = f64::from(agent) * 2.399963 + 1.5 * (0.7 * t + f64::from(agent)).sin();
    let (s, c) = heading.sin_cos();
    let jump = (step + u64::from(agent)).is_multiple_of(97);
    let crouch = agent.is_multiple_of(5) && (300..400).contains(&step);
    (DVec3::new(c, s, 0.0), jump, crouch)
}

/// The intent `agent` is given before `step`, from the one it has: the wish's heading at walk
/// speed, its crouch, and a jump when the wish has one (a jump asked for waits for the ground,
/// as a script's does).
pub fn intent(now: Intent, agent: u32, step: u64) -> Intent {
    let (direction, jump, crouch) = wish(agent, step);
    Intent {
        jump: now.jump || jump,
        crouch,
        ..Intent::walk(direction, 320.0)
    }
}

/// The same wishes as scripts: each step's heading, crouch or stand, and jump, at the step's
/// time.
pub fn scripts(starts: &[DVec3], steps: u64) -> Vec<ScriptedAgent> {
    let (standing, crouching) = player();
    starts
        .iter()
        .enumerate()
        .map(|(agent, &start)| {
            let mut script = Vec::new();
            for step in 0..steps {
                let at = step as f64 * DT;
                let (direction, jump, crouch) = wish(agent as u32, step);
                let mut push = |action| script.push(ScriptEvent { at, action });
                push(Action::Move {
                    direction,
                    speed: 320.0,
                });
                push(if crouch {
                    Action::Crouch
                } else {
                    Action::Stand
                });
                if jump {
                    push(Action::Jump);
                }
            }
            ScriptedAgent {
                spec: AgentSpec {
                    crouching: Some(crouching.clone()),
                    ..AgentSpec::new(standing.clone(), start)
                },
                script: script.into(),
            }
        })
        .collect()
}

/// Runs `plan` on `collider` from `starts`, driven from here step by step; the fingerprint of
/// the end state.
pub fn drive(collider: Arc<dyn Collider>, starts: &[DVec3], plan: Plan) -> u64 {
    drive_with(collider, starts, plan, |_, _| {})
}

/// [`drive`], calling `after` with each step's index and the simulation after it.
pub fn drive_with(
    collider: Arc<dyn Collider>,
    starts: &[DVec3],
    plan: Plan,
    mut after: impl FnMut(u64, &Sim),
) -> u64 {
    let (standing, crouching) = player();
    let config = SimConfig {
        dt: DT,
        parallel_from: plan.parallel_from,
        ..SimConfig::default()
    };
    let mut sim = Sim::new(collider, config).expect("Quake's constants are valid");
    let ids: Vec<AgentId> = starts
        .iter()
        .map(|&start| {
            let spec = AgentSpec {
                crouching: Some(crouching.clone()),
                ..AgentSpec::new(standing.clone(), start)
            };
            sim.spawn(spec).expect("a player box at a free start")
        })
        .collect();
    let mut events = 0;
    for step in 0..plan.steps {
        if plan.teleport_at == Some(step) {
            sim.teleport(ids[7], starts[0], DVec3::ZERO)
                .expect("the first start is free");
        }
        if plan.despawn_at == Some(step) {
            sim.despawn(ids[ids.len() - 1])
                .expect("the last agent is there");
        }
        for &id in sim.ids().to_vec().iter() {
            if sim.has_left_world(id).expect("a live agent") {
                continue;
            }
            let now = sim.intent(id).expect("a live agent");
            sim.set_intent(id, intent(now, id.0, step))
                .expect("intents within the domain");
        }
        sim.step();
        events += sim.drain_events().len();
        after(step, &sim);
    }
    eprintln!(
        "{} agents, {} steps on {}: {events} events, {}",
        sim.ids().len(),
        plan.steps,
        sim.backend(),
        sim.counters()
    );
    sim.state_hash()
}

/// Loads the map of the first argument.
fn load(path: &str) -> (Arc<World>, Vec<DVec3>) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let map = cspace_mapfile::load_world(&bytes, path, &cspace_mapfile::BuildOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let spawns = map.spawn_points.iter().map(|s| s.origin).collect();
    (Arc::new(map.world), spawns)
}

/// The process's resident memory now and at its peak, KiB (`VmRSS`, `VmHWM`; Linux).
fn resident() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

#[allow(dead_code, reason = "the test includes this file for its functions")]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .cloned()
        .unwrap_or_else(|| "../shared/maps/quake_e1m1.map".to_string());
    let number = |i: usize, default| args.get(i).map_or(default, |a| a.parse().expect("a count"));
    let plan = Plan {
        agents: number(1, PLAN.agents as u64) as usize,
        steps: number(2, PLAN.steps),
        ..PLAN
    };
    let memory = args.get(3).is_some_and(|a| a == "memory");
    let (world, spawns) = load(&path);
    let collider = BackendKind::Onion
        .build_for(&world, &[player().0, player().1])
        .expect("the onion compiles the map")
        .expect("the onion takes boxes");
    let starts = starts(collider.as_ref(), &spawns, plan.agents);
    let every = (plan.steps / 10).max(1);
    let hash = drive_with(collider, &starts, plan, |step, sim| {
        if memory
            && (step + 1).is_multiple_of(every)
            && let Some((now, peak)) = resident()
        {
            println!(
                "step {:>7}: {} events kept, resident {now} KiB, peak {peak} KiB",
                step + 1,
                sim.events().len()
            );
        }
    });
    println!("state hash {hash:016x}");
}
