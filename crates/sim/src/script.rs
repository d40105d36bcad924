//! Scripts: timed actions written before a run, played by a driver that sets each agent's
//! intent before each step ([`Scripts::apply`]). Scripts are one caller of
//! [`Sim::set_intent`] among others (a policy, a bot, Python): a run driven from outside with
//! the same intents ends on the same bits.

use cspace_geom::domain::{self, OutOfDomain, Quantity};
use cspace_geom::tolerance::TIME_SLACK;
use std::sync::Arc;

use crate::agent::AgentId;
use crate::intent::Action;
use crate::simulation::{Sim, SimError};

/// A scripted action, applied from time `at` (seconds) on.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptEvent {
    /// When, in seconds from the start.
    pub at: f64,
    /// What.
    pub action: Action,
}

/// An agent and its script: what [`Scripted::new`] spawns and drives.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptedAgent {
    /// The agent.
    pub spec: crate::AgentSpec,
    /// Its script, shared: the agents of a crowd hold one script between them, so that memory
    /// grows with agents plus events, not with their product.
    pub script: Arc<[ScriptEvent]>,
}

impl ScriptedAgent {
    /// True when its script sends it somewhere ([`Action::Goto`]).
    pub fn uses_goto(&self) -> bool {
        uses_goto(&self.script)
    }
}

/// True when `script` sends its agent somewhere ([`Action::Goto`]).
pub fn uses_goto(script: &[ScriptEvent]) -> bool {
    script.iter().any(|e| matches!(e.action, Action::Goto(_)))
}

/// Checks a script's numbers against the numeric domain ([`cspace_geom::domain`]): every
/// scripted speed within [`MAX_SPEED`](cspace_geom::tolerance::MAX_SPEED), every goto target
/// and every view angle within [`MAX_COORDINATE`](cspace_geom::tolerance::MAX_COORDINATE).
/// The error says which (`script speed`, `goto target`, `script view yaw`, `script view pitch`).
pub fn check_domain(script: &[ScriptEvent]) -> Result<(), (&'static str, OutOfDomain)> {
    for event in script {
        match event.action {
            Action::Move { speed, .. } => {
                domain::check(Quantity::Speed, speed).map_err(|e| ("script speed", e))?;
            }
            Action::Goto(target) => {
                domain::check_point(Quantity::Coordinate, target)
                    .map_err(|e| ("goto target", e))?;
            }
            Action::View(view) => {
                domain::check(Quantity::Coordinate, view.yaw)
                    .map_err(|e| ("script view yaw", e))?;
                domain::check(Quantity::Coordinate, view.pitch)
                    .map_err(|e| ("script view pitch", e))?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// One agent's script and how far it has been played.
#[derive(Debug, Clone, PartialEq)]
struct Playing {
    agent: AgentId,
    events: Arc<[ScriptEvent]>,
    next: usize,
}

/// The scripts of a run, played into a [`Sim`] one step at a time.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scripts {
    playing: Vec<Playing>,
}

impl Scripts {
    /// No scripts.
    pub fn new() -> Scripts {
        Scripts::default()
    }

    /// Adds `agent`'s script (its events sorted by time, stably). A script already in order is
    /// shared, not copied: the agents of a crowd play one script.
    pub fn add(&mut self, agent: AgentId, events: impl Into<Arc<[ScriptEvent]>>) {
        let mut events: Arc<[ScriptEvent]> = events.into();
        if !events.is_sorted_by(|a, b| a.at.total_cmp(&b.at).is_le()) {
            let mut sorted = events.to_vec();
            sorted.sort_by(|a, b| a.at.total_cmp(&b.at));
            events = sorted.into();
        }
        self.playing.push(Playing {
            agent,
            events,
            next: 0,
        });
        // Agents are driven in id order, as the step moves them. Scripts come in id order from
        // `Scripted::new`: sort only when one does not (a sort per add would make adding a crowd
        // quadratic).
        let n = self.playing.len();
        if n > 1 && self.playing[n - 2].agent > self.playing[n - 1].agent {
            self.playing.sort_by_key(|p| p.agent);
        }
    }

    /// Sets, before `sim`'s next step, the intent of every agent whose script has events due by
    /// the time the step starts: the agent's intent as it stands, changed by each due event in
    /// order ([`crate::Intent::apply`]). An agent that left the world is skipped (its events stay
    /// due); a despawned agent's script is dropped.
    pub fn apply(&mut self, sim: &mut Sim) -> Result<(), SimError> {
        // A small slack so an event at exactly k * dt fires at step k despite rounding of k * dt.
        let due = sim.time() + TIME_SLACK;
        self.playing.retain(|p| sim.contains(p.agent));
        for playing in &mut self.playing {
            let is_due = |p: &Playing| p.events.get(p.next).is_some_and(|e| e.at <= due);
            if !is_due(playing) || sim.has_left_world(playing.agent)? {
                continue;
            }
            let mut intent = sim.intent(playing.agent)?;
            while is_due(playing) {
                let action = playing.events[playing.next].action;
                if let Action::Goto(target) = action
                    && intent.goto == Some(target)
                {
                    // The same goto again starts it over: end the one under way first.
                    intent.goto = None;
                    sim.set_intent(playing.agent, intent)?;
                }
                intent.apply(&action);
                playing.next += 1;
            }
            sim.set_intent(playing.agent, intent)?;
        }
        Ok(())
    }
}

/// A simulation and the scripts that drive it: what a scenario runs, and what tests and
/// benchmarks use to move agents by plan.
#[derive(Debug)]
pub struct Scripted {
    /// The simulation.
    pub sim: Sim,
    /// Its agents' scripts.
    pub scripts: Scripts,
}

impl Scripted {
    /// A simulation of `agents`, spawned in order (ids 0, 1, 2, ...), each driven by its script,
    /// and settled. When a script has a goto and `config` brings no planner, one is built for
    /// the goto agents' poses ([`Planner::build`](crate::navigation::Planner::build), the
    /// outside not filled: a simulation knows no spawn points; [`Scripted::with_spawns`] fills
    /// it).
    pub fn new(
        collider: std::sync::Arc<dyn cspace_geom::Collider>,
        config: crate::SimConfig,
        agents: &[ScriptedAgent],
    ) -> Result<Scripted, SimError> {
        Scripted::with_spawns(collider, config, agents, &[])
    }

    /// [`Scripted::new`], a planner it builds filling the world's outside from `spawns` (the
    /// map's spawn points; [`Planner::build`](crate::navigation::Planner::build)'s `fill_from`).
    /// A living world's planner is built once the simulation is, from its jump pads' picks
    /// ([`Sim::jump_pad_apexes`]): the graph lands where this run's pads send agents.
    pub fn with_spawns(
        collider: std::sync::Arc<dyn cspace_geom::Collider>,
        mut config: crate::SimConfig,
        agents: &[ScriptedAgent],
        spawns: &[cspace_geom::DVec3],
    ) -> Result<Scripted, SimError> {
        let goto: Vec<(AgentId, &crate::AgentSpec)> = agents
            .iter()
            .enumerate()
            .filter(|(_, a)| a.uses_goto())
            .map(|(i, a)| (AgentId(i as u32), &a.spec))
            .collect();
        let plan = config.planner.is_none() && !goto.is_empty();
        let living = config.living.as_ref().map(|l| l.entities.clone());
        if plan {
            config.params.validate()?;
            if living.is_none() {
                let planner = crate::navigation::Planner::build(
                    collider.world(),
                    &goto,
                    &config.params,
                    spawns,
                )?;
                config.planner = Some(std::sync::Arc::new(planner));
            }
        }
        let params = config.params;
        let mut sim = Sim::new(collider.clone(), config)?;
        if let (true, Some(entities)) = (plan, living) {
            // A living world: teleporters, push pads and doors that open are planned through,
            // the pads aimed where this simulation's picks send agents.
            let planner = crate::navigation::Planner::build_living(
                collider.world(),
                &entities,
                &sim.jump_pad_apexes(),
                &goto,
                &params,
                spawns,
            )?;
            sim.set_planner(std::sync::Arc::new(planner))?;
        }
        if let Some(planner) = sim.planner() {
            for &(id, spec) in &goto {
                if planner
                    .mesh_index(&spec.standing, spec.crouching.as_ref())
                    .is_none()
                {
                    return Err(crate::navigation::PlanError::NotPlanned { agent: id.0 }.into());
                }
            }
        }
        let mut scripts = Scripts::new();
        for agent in agents {
            let id = AgentId(sim.ids().len() as u32);
            check_domain(&agent.script).map_err(|(what, error)| SimError::OutOfDomain {
                agent: id,
                what,
                error,
            })?;
            let id = sim.spawn(agent.spec.clone())?;
            scripts.add(id, agent.script.clone());
        }
        sim.settle();
        Ok(Scripted { sim, scripts })
    }

    /// Applies the scripts' due events, then steps.
    pub fn step(&mut self) {
        self.scripts
            .apply(&mut self.sim)
            .expect("scripts are checked when the run is built");
        self.sim.step();
    }

    /// Runs `steps` steps.
    pub fn run(&mut self, steps: u64) {
        for _ in 0..steps {
            self.step();
        }
    }
}
