//! What a simulation reports: events ([`Event`]: contacts, unsticking, refused stands, gotos,
//! sleep) and, when asked, the sampled states of every agent ([`Sample`]), kept as
//! [`Recording`] says.

use cspace_contact::Contact;
use cspace_contact::ContactTarget;
use cspace_geom::{BrushId, DVec3};

use crate::agent::{AgentId, AgentState};

/// What a simulation keeps of its history ([`crate::SimConfig::recording`]).
///
/// Whatever it keeps, [`crate::Sim::drain_events`] hands over the events since it was last
/// called; with [`Recording::Off`] those of the last step only, so that a run of any length
/// holds no more than one step's events and memory stays flat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recording {
    /// Nothing kept beyond the last step's events.
    Off,
    /// Every event kept ([`crate::Sim::events`]).
    Events,
    /// Every event, and every agent's state every `every` steps (and at step 0, after the
    /// agents are settled) ([`crate::Sim::samples`]).
    Sampled {
        /// Steps between samples, at least 1.
        every: u64,
    },
}

/// What an agent touched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Touched {
    /// A brush of the world.
    Brush(BrushId),
    /// Another agent.
    Agent(AgentId),
}

/// A contact that began: the agent was not touching this target in its previous move
/// (Golodetz: a contact is a point, a normal and a time).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactEvent {
    /// What it touched.
    pub target: Touched,
    /// The contact point on the obstacle's surface (world, units).
    pub point: DVec3,
    /// Unit normal pointing from the obstacle towards the agent.
    pub normal: DVec3,
    /// When, as a fraction of the move being traced, in `[0, 1]`.
    pub time_of_impact: f64,
    /// How deep the agent was already inside the obstacle when the move started (units); 0 for
    /// an ordinary contact.
    pub depth: f64,
}

impl ContactEvent {
    /// The event of a contact the simulation found.
    pub fn of(contact: &Contact) -> ContactEvent {
        ContactEvent {
            target: match contact.other {
                ContactTarget::World { brush, .. } => Touched::Brush(brush),
                ContactTarget::Agent(id) => Touched::Agent(id),
            },
            point: contact.point,
            normal: contact.normal,
            time_of_impact: contact.time_of_impact,
            depth: contact.depth,
        }
    }
}

/// Something that happened to an agent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EventKind {
    /// A contact began.
    Contact(ContactEvent),
    /// The agent was found in solid and freed (Blow's emergency routine, Quake III's
    /// `PM_CorrectAllSolid`): moved from `from` to `to`; `nudged` when one of the 26 neighbours
    /// within +-1 unit was free, otherwise the first free position of the wider search.
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
    /// takes no further part (Quake kills a player who falls out of the world) until teleported.
    LeftWorld {
        /// Where it was when it left.
        at: DVec3,
    },
    /// The agent planned a path to its goto target ([`crate::Intent::goto`]): first when the
    /// goto starts, again (`replan`) when it strayed from the path or stopped making progress.
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
    /// The agent began to ride mover `mover` (an index of the living world's movers): its ground
    /// is the mover's (Quake's `groundentity`), so the mover carries it (issue 32).
    Rides {
        /// The mover.
        mover: u32,
    },
    /// The agent began to touch trigger `trigger` (an index of the living world's triggers),
    /// made of map entity `entity` (issue 32): reported when the contact begins, not at every
    /// step of it (Quake calls the trigger's `touch` every frame of contact).
    Touches {
        /// The trigger.
        trigger: u32,
        /// The map entity it comes from (the mover's, for a generated field).
        entity: u32,
    },
    /// A hurt volume (`trigger_hurt`) hit the agent with `damage` as written: an event only,
    /// there is no health.
    Hurt {
        /// The trigger.
        trigger: u32,
        /// The damage per hit as written (`dmg`).
        damage: f64,
    },
    /// A teleporter (`trigger_teleport`) moved the agent from `from` to `to`.
    Teleported {
        /// The teleporter (an index of the living world's triggers).
        trigger: u32,
        /// Where the agent was.
        from: DVec3,
        /// Where it landed.
        to: DVec3,
    },
    /// A Quake III `target_push` (`Use_target_push`, `g_trigger.c`), used by a firing the agent
    /// set going (its activator), set the agent's velocity.
    TargetPushed {
        /// The `target_push` (an index of the living world's `target_pushes`).
        push: u32,
        /// The velocity it set, units/s.
        velocity: DVec3,
    },
    /// A teleporter's landing place is in solid for the agent (the world or a mover), or outside
    /// the numeric domain: the teleport is refused and the agent stays (Quake III kills what
    /// stands there, Quake 1 places the player anyway; agents have no health and are never left
    /// in solid).
    TeleportRefused {
        /// The teleporter.
        trigger: u32,
        /// Where it would have landed.
        to: DVec3,
    },
    /// The agent's water level or the liquid at its feet changed (a living world's liquids,
    /// `movement/water.rs`): its new level, 0 (out of every liquid) to 3 (head under), and the
    /// liquid (`None` at level 0).
    WaterLevel {
        /// 0 to 3.
        level: u8,
        /// The liquid at its feet.
        liquid: Option<cspace_entities::LiquidKind>,
    },
    /// Slime or lava hurt the agent (events only: no health is simulated): `damage` points, the
    /// dialect's rate per water level (`docs/entities.md`, "Liquids").
    LiquidDamage {
        /// Slime or lava.
        liquid: cspace_entities::LiquidKind,
        /// The damage the game would deal.
        damage: f64,
    },
}

/// What happened to a mover (a team of linked movers is named by its master).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoverEventKind {
    /// It set off.
    Started,
    /// It reached the end of its move.
    Reached,
    /// Its push was blocked by an agent that would have been left in solid: it and everything
    /// it moved went back (Quake III's `G_MoverTeam`, Quake 1's `SV_PushMove`).
    Blocked {
        /// The agent in the way.
        agent: AgentId,
    },
    /// Blocked, it turned back (a door or plat that is no crusher).
    Reversed,
    /// A `killtarget` removed this mover (not its team): its brushes collide no more (Quake 1
    /// `SUB_UseTargets`).
    Removed,
}

/// A mover's event with its step (issue 32).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoverEvent {
    /// The step during which it happened.
    pub step: u64,
    /// The mover (an index of the living world's movers; a team's master).
    pub mover: u32,
    /// What happened.
    pub kind: MoverEventKind,
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
    /// Every failure, in a fixed order.
    pub const ALL: [GotoFailure; 6] = [
        GotoFailure::Unreachable,
        GotoFailure::StartInSolid,
        GotoFailure::NoGroundAtStart,
        GotoFailure::GoalInSolid,
        GotoFailure::NoGroundAtGoal,
        GotoFailure::Stuck,
    ];

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
    /// The step after which it is reported: it happened during that step (0: while the agents
    /// were settled before the first step).
    pub step: u64,
    /// The agent.
    pub agent: AgentId,
    /// What happened.
    pub kind: EventKind,
}

/// Every agent's state at the end of a step.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The step (0 is the initial state, after settling, before any step).
    pub step: u64,
    /// One state per agent, in id order.
    pub states: Vec<AgentState>,
}

/// Collects events and sampled states as [`Recording`] says.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Recorder {
    pub(crate) recording: Recording,
    /// The events kept: every one (`Events`, `Sampled`) or the last step's (`Off`).
    pub(crate) events: Vec<Event>,
    /// How many of `events` [`crate::Sim::drain_events`] has handed over.
    pub(crate) drained: usize,
    /// The sampled states.
    pub(crate) samples: Vec<Sample>,
    /// The movers' events, kept as `events` are.
    pub(crate) mover_events: Vec<MoverEvent>,
    /// Per agent (by id): its last event is a refused stand. A refusal streak is recorded once.
    refusing: Vec<bool>,
}

impl Recorder {
    /// An empty recorder keeping what `recording` says.
    pub(crate) fn new(recording: Recording) -> Recorder {
        let recording = match recording {
            Recording::Sampled { every } => Recording::Sampled {
                every: every.max(1),
            },
            other => other,
        };
        Recorder {
            recording,
            events: Vec::new(),
            drained: 0,
            samples: Vec::new(),
            mover_events: Vec::new(),
            refusing: Vec::new(),
        }
    }

    /// A step begins: with nothing kept, the previous step's events go.
    pub(crate) fn begin_step(&mut self) {
        if self.recording == Recording::Off {
            self.events.clear();
            self.mover_events.clear();
            self.drained = 0;
        }
    }

    /// True when the states of `step` are to be sampled.
    pub(crate) fn samples_at(&self, step: u64) -> bool {
        matches!(self.recording, Recording::Sampled { every } if step.is_multiple_of(every))
    }

    /// Records that `kind` happened to `agent` at `step`. A refused stand is recorded once per
    /// streak: while the agent's last event is a refused stand, another is not recorded.
    pub(crate) fn record(&mut self, step: u64, agent: AgentId, kind: EventKind) {
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

    /// Keeps `states` as the sample of `step` (replacing one of the same step: agents spawned
    /// after a step are sampled with the others when they are settled).
    pub(crate) fn sample(&mut self, step: u64, states: Vec<AgentState>) {
        if let Some(last) = self.samples.last_mut().filter(|s| s.step == step) {
            last.states = states;
        } else {
            self.samples.push(Sample { step, states });
        }
    }

    /// The events not yet handed over, now handed over.
    pub(crate) fn drain(&mut self) -> &[Event] {
        let from = self.drained.min(self.events.len());
        self.drained = self.events.len();
        &self.events[from..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A refused stand is recorded once per streak: again only after another event of the same
    /// agent; another agent's events do not end the streak.
    #[test]
    fn a_refusal_streak_is_recorded_once() {
        let mut r = Recorder::new(Recording::Events);
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

    /// Without recording, a step's events are handed over once and gone at the next step;
    /// with it, every event is kept and handed over once.
    #[test]
    fn drained_events_are_handed_over_once_and_off_keeps_one_step() {
        let mut off = Recorder::new(Recording::Off);
        let mut kept = Recorder::new(Recording::Events);
        for r in [&mut off, &mut kept] {
            r.begin_step();
            r.record(1, AgentId(0), EventKind::Slept);
            r.record(1, AgentId(1), EventKind::Slept);
            assert_eq!(r.drain().len(), 2);
            assert_eq!(r.drain().len(), 0);
            r.begin_step();
            r.record(2, AgentId(0), EventKind::Woke);
        }
        assert_eq!(off.events.len(), 1);
        assert_eq!(kept.events.len(), 3);
        assert_eq!(off.drain()[0].step, 2);
        assert_eq!(kept.drain()[0].step, 2);
    }
}
