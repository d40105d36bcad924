//! The recorder: per step, the events (contacts, unsticking, refused stands, sleep) and, every
//! few steps, the state of every agent.

use cspace_contact::{AgentId, Contact};
use cspace_geom::DVec3;

use crate::agent::Pose;

/// Something that happened to an agent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EventKind {
    /// A contact began (the agent was not touching this target in its previous step).
    Contact(Contact),
    /// The agent was found in solid and freed (Blow's emergency routine, Quake III's
    /// `PM_CorrectAllSolid`): moved from `from` to `to`; `nudged` when one of the 27 positions
    /// within +-1 unit was free, otherwise the nearest free position found by a wider search.
    Unstuck {
        /// Where it was stuck.
        from: DVec3,
        /// Where it was freed to.
        to: DVec3,
        /// Freed by a nudge within +-1 unit.
        nudged: bool,
    },
    /// The agent was found in solid and no free position was found nearby: it stays put.
    Stuck {
        /// Where.
        at: DVec3,
    },
    /// The agent wants to stand but the standing pose does not fit where it is.
    StandRefused,
    /// The agent fell asleep.
    Slept,
    /// The agent woke up.
    Woke,
}

/// An event with its step and agent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Event {
    /// The step.
    pub step: u64,
    /// The agent.
    pub agent: AgentId,
    /// What happened.
    pub kind: EventKind,
}

/// The state of one agent at the end of a step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AgentState {
    /// The agent.
    pub id: AgentId,
    /// Its origin (units).
    pub position: DVec3,
    /// Its velocity (units/s).
    pub velocity: DVec3,
    /// Its pose.
    pub pose: Pose,
    /// On walkable ground.
    pub on_ground: bool,
    /// Asleep.
    pub asleep: bool,
}

/// All agents' states at the end of a step.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The step (0 is the initial state, before any step).
    pub step: u64,
    /// One state per agent, in id order.
    pub states: Vec<AgentState>,
}

/// Collects events and sampled states.
#[derive(Debug, Clone, PartialEq)]
pub struct Recorder {
    /// States are sampled when `step % sample_every == 0` (and at the end of a run).
    pub sample_every: u64,
    /// Every event, in the order it happened.
    pub events: Vec<Event>,
    /// The sampled states.
    pub samples: Vec<Sample>,
}

impl Recorder {
    /// An empty recorder sampling every `sample_every` steps (at least 1).
    pub fn new(sample_every: u64) -> Recorder {
        Recorder {
            sample_every: sample_every.max(1),
            events: Vec::new(),
            samples: Vec::new(),
        }
    }
}
