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
    /// `PM_CorrectAllSolid`): moved from `from` to `to`; `nudged` when one of the 26 neighbours
    /// within +-1 unit was free, otherwise the first free position along the same 26 directions
    /// at 2, 4, ..., 256 units.
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
    /// The agent left the world: it fell more than
    /// [`FALL_MARGIN`](cspace_geom::tolerance::FALL_MARGIN) below the world's lowest point, or
    /// went beyond [`MAX_COORDINATE`](cspace_geom::tolerance::MAX_COORDINATE). It stops there and
    /// takes no further part (Quake kills a player who falls out of the world).
    LeftWorld {
        /// Where it was when it left.
        at: DVec3,
    },
    /// The agent planned a path to its goto target ([`crate::agent::Action::Goto`]): first when
    /// the goto fires, again (`replan`) when it strayed from the path or stopped making progress.
    Planned {
        /// The target.
        to: DVec3,
        /// Waypoints of the path, the start's included.
        waypoints: u32,
        /// Its length through the waypoints, units.
        length: f64,
        /// A plan made again on the way.
        replan: bool,
    },
    /// The agent reached its goto target (within
    /// [`FollowParams::arrival_radius`](crate::navigation::FollowParams::arrival_radius) seen from
    /// above, on the floor) and stopped wishing to move.
    Arrived {
        /// Where its origin was.
        at: DVec3,
    },
    /// The agent's goto ended without arriving: no path, or a path it could not follow.
    GotoFailed {
        /// The target.
        to: DVec3,
        /// Why.
        why: GotoFailure,
    },
    /// The agent fell asleep.
    Slept,
    /// The agent woke up.
    Woke,
}

/// Why a goto ended without arriving.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GotoFailure {
    /// The planner found no path from where the agent stands to the target.
    Unreachable,
    /// The agent's position is inside solid for its pose in the planner's configuration space.
    StartInSolid,
    /// No walkable floor below the agent within the deepest fall the planner takes.
    NoGroundAtStart,
    /// The target is inside solid for every pose of the agent.
    GoalInSolid,
    /// No walkable floor below the target within the deepest fall.
    NoGroundAtGoal,
    /// It planned again and again without reaching the next waypoint
    /// ([`FollowParams::max_replans`](crate::navigation::FollowParams::max_replans)).
    Stuck,
}

impl GotoFailure {
    /// How traces and summaries say it.
    pub fn describe(self) -> &'static str {
        match self {
            GotoFailure::Unreachable => "unreachable",
            GotoFailure::StartInSolid => "start in solid",
            GotoFailure::NoGroundAtStart => "no floor below the start",
            GotoFailure::GoalInSolid => "target in solid",
            GotoFailure::NoGroundAtGoal => "no floor below the target",
            GotoFailure::Stuck => "stuck",
        }
    }
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
    /// Per agent (by id): its last event is a refused stand. A refusal streak is recorded once.
    refusing: Vec<bool>,
}

impl Recorder {
    /// An empty recorder sampling every `sample_every` steps (at least 1).
    pub fn new(sample_every: u64) -> Recorder {
        Recorder {
            sample_every: sample_every.max(1),
            events: Vec::new(),
            samples: Vec::new(),
            refusing: Vec::new(),
        }
    }

    /// Records that `kind` happened to `agent` at `step`. A refused stand is recorded once per
    /// streak: while the agent's last event is a refused stand, another is not recorded.
    pub fn record(&mut self, step: u64, agent: AgentId, kind: EventKind) {
        let index = agent.0 as usize;
        if self.refusing.len() <= index {
            self.refusing.resize(index + 1, false);
        }
        let refused = kind == EventKind::StandRefused;
        if refused && self.refusing[index] {
            return;
        }
        self.refusing[index] = refused;
        self.events.push(Event { step, agent, kind });
    }

    /// Drops the contact events (the settling before a run finds the ground under its agents;
    /// that is not a contact of the run).
    pub fn forget_contacts(&mut self) {
        self.events
            .retain(|e| !matches!(e.kind, EventKind::Contact(_)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A refused stand is recorded once per streak: again only after another event of the same
    /// agent; another agent's events do not end the streak.
    #[test]
    fn a_refusal_streak_is_recorded_once() {
        let mut r = Recorder::new(1);
        let (a, b) = (AgentId(0), AgentId(3));
        r.record(1, a, EventKind::StandRefused);
        r.record(2, a, EventKind::StandRefused);
        r.record(2, b, EventKind::Woke);
        r.record(3, a, EventKind::StandRefused);
        r.record(4, a, EventKind::Slept);
        r.record(5, a, EventKind::StandRefused);
        r.record(5, b, EventKind::StandRefused);
        let kept: Vec<(u64, u32)> = r.events.iter().map(|e| (e.step, e.agent.0)).collect();
        assert_eq!(kept, [(1, 0), (2, 3), (4, 0), (5, 0), (5, 3)]);
    }
}
