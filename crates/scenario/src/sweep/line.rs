//! One run of a sweep as one JSON line (`docs/sweep.md`, "Output"). Fields in a fixed order;
//! nothing in a line depends on the clock, the thread count, the shard or the folder the
//! command was typed in, except the `timing` object that `--timing` appends.

use serde::{Deserialize, Serialize};

use crate::run::RunOutcome;
use crate::scenario::Scenario;

/// One run's line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunLine {
    /// The run id: its place in the sweep's enumeration, from 0.
    pub run: u64,
    /// How many runs the whole sweep has (all shards together).
    pub runs: u64,
    /// The scenario file as the sweep names it.
    pub scenario: String,
    /// The scenario's `name`.
    pub name: String,
    /// The map in the place of the scenario's world, as the sweep file writes it (`null`: the
    /// scenario's own world).
    pub map: Option<String>,
    /// The seed (0: the scenario as written).
    pub seed: u64,
    /// The backend.
    pub backend: String,
    /// Every expectation met, and no error.
    pub passed: bool,
    /// Why the run could not be made (the backend cannot be built for the world, ...); `null`
    /// when it ran.
    pub error: Option<String>,
    /// The expectations, in the scenario's order.
    pub expectations: Vec<ExpectationLine>,
    /// The fingerprint of every agent's end state, 16 hex digits (`Sim::state_hash`); `null`
    /// when the run could not be made.
    pub end_state: Option<String>,
    /// Steps run.
    pub steps: u64,
    /// Agent updates run (agents times steps; asleep agents and agents out of the world are not
    /// counted).
    pub agent_steps: u64,
    /// Wall-clock figures, only with `--timing`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing: Option<Timing>,
}

/// One expectation's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExpectationLine {
    /// The agent, by name (its index when unnamed).
    pub agent: String,
    /// What is expected, as `sim run` words it.
    pub check: String,
    /// Where it is written: the scenario as the sweep names it, `:line:column`.
    pub at: String,
    /// Met.
    pub passed: bool,
    /// Why not, when not met.
    pub failure: Option<String>,
}

/// A run's wall-clock figures (they differ from run to run, so they are kept apart).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Seconds of the simulation (the backend's build is not counted; runs share it).
    pub seconds: f64,
    /// Agent steps per second of the simulation.
    pub agent_steps_per_second: f64,
}

/// What identifies a run in its line.
#[derive(Debug, Clone)]
pub(super) struct Identity {
    pub(super) run: u64,
    pub(super) runs: u64,
    pub(super) scenario: String,
    pub(super) map: Option<String>,
    pub(super) seed: u64,
    pub(super) backend: &'static str,
}

impl RunLine {
    /// A run's line before it is made: not passed, nothing measured.
    fn new(id: Identity, scenario: &Scenario) -> RunLine {
        RunLine {
            run: id.run,
            runs: id.runs,
            scenario: id.scenario,
            name: scenario.name.clone(),
            map: id.map,
            seed: id.seed,
            backend: id.backend.to_string(),
            passed: false,
            error: None,
            expectations: Vec::new(),
            end_state: None,
            steps: 0,
            agent_steps: 0,
            timing: None,
        }
    }

    /// The line of a run that ran.
    pub(super) fn ran(
        id: Identity,
        scenario: &Scenario,
        outcome: &RunOutcome,
        timing: bool,
    ) -> RunLine {
        let mut line = RunLine::new(id, scenario);
        let file = scenario.path.display().to_string();
        line.expectations = outcome
            .checks
            .iter()
            .map(|c| ExpectationLine {
                agent: scenario.agent_names[c.expectation.agent.0 as usize].clone(),
                check: c.expectation.check.describe(),
                // `written_at` is `path:line:column`; the path as the sweep names it keeps the
                // line the same wherever the command runs.
                at: match c.expectation.written_at.strip_prefix(&file) {
                    Some(place) => format!("{}{place}", line.scenario),
                    None => c.expectation.written_at.clone(),
                },
                passed: c.failure.is_none(),
                failure: c.failure.clone(),
            })
            .collect();
        line.passed = outcome.passed();
        line.end_state = Some(format!("{:016x}", outcome.end_state));
        line.steps = scenario.steps;
        line.agent_steps = outcome.counters.agent_steps;
        line.timing = timing.then(|| Timing {
            seconds: outcome.seconds,
            // not a tolerance: guards the division
            agent_steps_per_second: line.agent_steps as f64 / outcome.seconds.max(1e-9),
        });
        line
    }

    /// The line of a run that could not be made.
    pub(super) fn failed(id: Identity, scenario: &Scenario, error: String) -> RunLine {
        RunLine {
            error: Some(error),
            ..RunLine::new(id, scenario)
        }
    }

    /// The line as written: one line of JSON, without the newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a run line serialises")
    }
}
