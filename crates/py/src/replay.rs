//! A recorded run as a scenario: the map, the agents' starts, and every step the intent each
//! agent was given, written as script events (`docs/scenario-format.md`) whose numbers read back
//! to the same bits. `sim run` on it drives the simulator through the same `set_intent` calls
//! and ends on the same state (`Sim::state_hash`), and `sim plot SCENARIO --against TRACE` draws
//! the recorded run over its world.

use std::fmt::Write as _;
use std::path::Path;

use cspace_geom::{DVec3, Shape};
use cspace_sim::{BackendKind, MoveParams};

/// One agent's intent for one step, as the batch set it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepIntent {
    /// The agent's index in its world.
    pub agent: u32,
    /// The wish direction before normalisation (x, y): a script's `move`, normalised as the
    /// batch's intent was.
    pub raw: [f64; 2],
    /// The wish speed, units/s.
    pub speed: f64,
    /// The jump button.
    pub jump: bool,
    /// The crouch button.
    pub crouch: bool,
}

/// What a world's run gave its agents since its last full reset.
#[derive(Debug, Clone, PartialEq)]
pub struct Replay {
    /// The agents' settled starts.
    pub starts: Vec<DVec3>,
    /// Every step's intents.
    pub steps: Vec<Vec<StepIntent>>,
    /// False once an agent was reset on the way (a teleport no scenario can say).
    pub replayable: bool,
}

impl Default for Replay {
    fn default() -> Replay {
        Replay {
            starts: Vec::new(),
            steps: Vec::new(),
            replayable: true,
        }
    }
}

/// What the scenario says besides the intents.
#[derive(Debug)]
pub struct ReplayWorld<'a> {
    /// The scenario's name (the trace's).
    pub name: &'a str,
    /// The map.
    pub map: &'a Path,
    /// Seconds per step.
    pub dt: f64,
    /// Steps run.
    pub steps: u64,
    /// Trajectory sampling.
    pub sample_every: u64,
    /// The backend.
    pub backend: BackendKind,
    /// The movement constants (a profile's).
    pub params: &'a MoveParams,
    /// The standing box.
    pub standing: &'a Shape,
    /// The crouching box.
    pub crouching: Option<&'a Shape>,
    /// The agents' starts.
    pub starts: &'a [DVec3],
}

/// A number as TOML writes it so that it reads back to the same bits (Rust's shortest
/// round-trip form, with a decimal point).
fn number(x: f64) -> String {
    format!("{x:?}")
}

fn boxed(shape: &Shape) -> Result<String, String> {
    match shape {
        Shape::Box(b) => Ok(format!(
            "{{ box = {{ mins = [{}, {}, {}], maxs = [{}, {}, {}] }} }}",
            number(b.mins.x),
            number(b.mins.y),
            number(b.mins.z),
            number(b.maxs.x),
            number(b.maxs.y),
            number(b.maxs.z)
        )),
        other => Err(format!("{} is not a box", other.describe())),
    }
}

/// The scenario text of a recorded run.
pub fn scenario_text(replay: &Replay, world: &ReplayWorld<'_>) -> Result<String, String> {
    if !replay.replayable {
        return Err(
            "an agent was reset since the last full reset (a teleport, which a scenario cannot \
             say): replay scenarios cover runs from reset() with autoreset off or no episode \
             ended"
                .to_string(),
        );
    }
    if world.steps == 0 {
        return Err("no step was taken since the last full reset".to_string());
    }
    let map = world
        .map
        .canonicalize()
        .map_err(|e| format!("{}: {e}", world.map.display()))?;
    let mut s = String::new();
    let w = &mut s;
    let _ = writeln!(
        w,
        "# A run of cspace.VectorEnv replayed: every agent's start and, every step, the intent the\n\
         # environment gave it (move, crouch or stand, jump). `sim run` on it ends on the same state."
    );
    let _ = writeln!(w, "name = {:?}", world.name);
    let _ = writeln!(w, "time_step = {}", number(world.dt));
    let _ = writeln!(w, "steps = {}", world.steps);
    let _ = writeln!(w, "sample_every = {}", world.sample_every);
    let _ = writeln!(w, "backends = [{:?}]", world.backend.name());
    let _ = writeln!(w, "movement = {:?}", world.params.profile.name());
    let _ = writeln!(w, "\n[poses]\nstand = {}", boxed(world.standing)?);
    if let Some(c) = world.crouching {
        let _ = writeln!(w, "crouch = {}", boxed(c)?);
    }
    let _ = writeln!(w, "\n[world]\nmap = {:?}", map.display().to_string());
    for (k, start) in world.starts.iter().enumerate() {
        let _ = writeln!(w, "\n[[agent]]\nname = \"agent {k}\"\npose = \"stand\"");
        if world.crouching.is_some() {
            let _ = writeln!(w, "crouch_pose = \"crouch\"");
        }
        let _ = writeln!(
            w,
            "start = [{}, {}, {}]\nscript = [",
            number(start.x),
            number(start.y),
            number(start.z)
        );
        for (step, intents) in replay.steps.iter().enumerate() {
            let Some(i) = intents.iter().find(|i| i.agent == k as u32) else {
                continue;
            };
            let at = number(step as f64 * world.dt);
            if i.speed == 0.0 {
                let _ = writeln!(w, "  {{ at = {at}, stop = true }},");
            } else {
                let _ = writeln!(
                    w,
                    "  {{ at = {at}, move = [{}, {}], speed = {} }},",
                    number(i.raw[0]),
                    number(i.raw[1]),
                    number(i.speed)
                );
            }
            if world.crouching.is_some() {
                let pose = if i.crouch { "crouch" } else { "stand" };
                let _ = writeln!(w, "  {{ at = {at}, {pose} = true }},");
            }
            if i.jump {
                let _ = writeln!(w, "  {{ at = {at}, jump = true }},");
            }
        }
        let _ = writeln!(w, "]");
    }
    Ok(s)
}
