//! The clock of the living world: where every mover is, and what a touch, a firing or a blocked
//! push does to it (Quake 1's `doors.qc`, `plats.qc`, `buttons.qc` and `SV_PushMove` in
//! `sv_phys.c`; Quake III's `G_MoverTeam`, `Use_BinaryMover`, `Reached_BinaryMover`,
//! `Blocked_Door`, `Touch_DoorTrigger`, `Touch_Plat`, `Touch_PlatCenterTrigger` and
//! `Reached_Train` in `g_mover.c`).
//!
//! It knows no agents: the simulator asks where a team would be after the step
//! ([`Machinery::proposal`]), pushes what is in the way, and either commits the step
//! ([`Machinery::commit`]) or reports the team blocked ([`Machinery::block`]); then it reports
//! the triggers agents touch ([`Machinery::touch_by`], naming the activator). What a firing
//! uses that the clock does not run (a Quake 1 teleporter's `teleport_use`) it hands back to the
//! simulator ([`Machinery::drain_uses`]), with the agent that set the firing going.
//!
//! Firing a name follows Quake 1's `SUB_UseTargets` (`subs.qc`) and Quake III's `G_UseTargets`
//! (`g_utils.c`): after the user's `delay` (a copy of its `target` and `killtarget` waits, as
//! Quake 1's `DelayedUse` entity does), Quake 1 removes every entity named by `killtarget` and
//! then returns (id's loop ends the function when no more are found, so a Quake 1 entity with a
//! `killtarget` never fires its `target`); otherwise every entity named by `target` is used, in
//! entity order: mover teams (`door_use`, `plat_use`, `train_use`, `button_use`,
//! `fd_secret_use`), relays (`trigger_relay`: its own `SUB_UseTargets`; `trigger_counter`:
//! `counter_use`, the `count`th use passes on and the counter is gone; Quake III `target_relay`)
//! and triggers (`multi_use`: a `trigger_once` / `trigger_multiple` fired by name, as if
//! touched). A firing's work is a stack (depth first, as the games' nested calls are), never a
//! recursion; a relay or trigger used a second time in one step is used again at the start of
//! the next step instead (once), so a loop of relays naming each other fires once a step around
//! the loop and never hangs (the games overflow QuakeC's stack or loop for ever).
//!
//! Every team keeps its own clock in whole steps (Quake 1's `ltime`, the pusher's local time,
//! which stands still while the pusher is blocked; Quake III shifts the trajectory's start by
//! the frame instead, the same thing): its time is `ticks * dt`, never accumulated. State
//! changes (reaching an end, a wait running out) happen at the first step at or past their
//! time, as the games' thinks run at the first frame at or past `nextthink`.

use cspace_geom::DVec3;
use cspace_geom::generate::Rng;

use crate::defs::{
    Activation, BinaryMotion, Entities, Motion, Mover, MoverKind, Relay, RelayKind, SecretMotion,
    TriggerKind,
};
use crate::dialect::Dialect;
use crate::rules;

/// What happened to a mover team in a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoverEventKind {
    /// It set off (towards its far end, back home, or along a train's next leg).
    Started,
    /// It reached the end of its move.
    Reached,
    /// A blocked push sent it back the way it came (doors and plats that are no crushers).
    Reversed,
    /// A `killtarget` removed it (Quake 1 `SUB_UseTargets`): this mover (not its team) is gone
    /// from the world; its brushes collide no more.
    Removed,
}

/// Something that happened to a mover team: `mover` is the team's master (an index in
/// [`Entities::movers`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoverEvent {
    /// The team's master.
    pub mover: usize,
    /// What.
    pub kind: MoverEventKind,
}

/// A named entity a firing used that the simulator acts on ([`Machinery::drain_uses`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Used {
    /// A trigger that is not a `trigger_once` / `trigger_multiple` (an index of
    /// [`Entities::triggers`]): a Quake 1 teleporter with a `targetname` works for 0.2 s after
    /// such a use (`teleport_use`, `triggers.qc`).
    Trigger(usize),
    /// A Quake III `target_push` (an index of [`Entities::target_pushes`]): it sets the
    /// activator's velocity (`Use_target_push`, `g_trigger.c`).
    Push(usize),
}

/// One use of a named entity, with the agent that set the firing going.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntityUse {
    /// What was used.
    pub used: Used,
    /// The agent whose touch set the firing going (Quake's `activator`), as the simulator named
    /// it ([`Machinery::touch_by`]); `None` when no agent did (a `trigger_always`, a firing from
    /// [`Machinery::fire`], a touch from [`Machinery::touch`]).
    pub activator: Option<u32>,
}

/// Where a team is in its cycle.
#[derive(Debug, Clone, Copy, PartialEq)]
enum State {
    /// At `pos1` (a two-position mover at rest).
    AtPos1,
    /// At `pos2` until the team's time reaches `until` (`None`: until used again).
    AtPos2 { until: Option<f64> },
    /// Moving to `pos2` (or back to `pos1`), started at team time `start`.
    Moving { to2: bool, start: f64 },
    /// A train standing at stop `stop` until `until` (`None`: until fired, or for good).
    AtStop { stop: usize, until: Option<f64> },
    /// A train on its leg from stop `from` to stop `to`, started at `start`.
    Leg { from: usize, to: usize, start: f64 },
    /// A Quake 1 secret door on its way, in `stage` since team time `start`.
    Secret { stage: Secret, start: f64 },
    /// Nothing moves it.
    Still,
}

/// The stages of a Quake 1 secret door's cycle (`doors.qc`): `fd_secret_use` sets off to
/// `dest1`, `fd_secret_move1` waits a second, `fd_secret_move2` goes to `dest2`,
/// `fd_secret_move3` waits `wait` (for good with `SECRET_OPEN_ONCE`), `fd_secret_move4` goes
/// back to `dest1`, `fd_secret_move5` waits a second, `fd_secret_move6` goes home.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Secret {
    ToDest1,
    PauseOut,
    ToDest2,
    Open,
    BackToDest1,
    PauseBack,
    Home,
}

/// A team: its master and members (linked doors move as one), its clock and its state.
#[derive(Debug, Clone, PartialEq)]
struct Team {
    master: usize,
    members: Vec<usize>,
    /// Steps the team's clock has run (it stands still while blocked).
    ticks: u64,
    state: State,
    /// The agent that last used it (Quake III's `ent->activator`, set by `Use_BinaryMover`;
    /// Quake 1's `activator` when a door opens, a button's `enemy`): what it fires, it fires
    /// with this activator.
    activator: Option<u32>,
}

/// The clock of a map's movers and the triggers that set them going.
#[derive(Debug, Clone)]
pub struct Machinery {
    dialect: Dialect,
    dt: f64,
    movers: Vec<Mover>,
    /// Per trigger of [`Entities::triggers`]: what it does, where it is, and the global time
    /// from which it acts again.
    triggers: Vec<TriggerClock>,
    teams: Vec<Team>,
    /// Per mover, its team's index in `teams`.
    team_of: Vec<usize>,
    /// Per mover, its offset now.
    offsets: Vec<DVec3>,
    /// Global steps run.
    step: u64,
    /// Per mover: a `killtarget` removed it.
    removed: Vec<bool>,
    /// The relays and counters, with their state.
    relays: Vec<RelayClock>,
    /// Per `target_push` of [`Entities::target_pushes`], its entity and name.
    pushes: Vec<(u32, Option<String>)>,
    /// Uses of targets waiting for their `delay`: (global time, what, the relay whose one think
    /// it is: a Quake III `target_delay`), in the order made.
    pending: Vec<(f64, Uses, Option<usize>)>,
    /// Relays and triggers used twice in a step: used again at the next step's start, with
    /// their activator.
    deferred: Vec<(Named, Option<u32>)>,
    /// The firing being worked through (a stack: depth first).
    work: Vec<Work>,
    events: Vec<MoverEvent>,
    /// The named entities a firing used that the simulator acts on, since the last drain.
    uses: Vec<EntityUse>,
    /// The run's generator (SplitMix64, [`Machinery::seeded`]): what Quake III leaves to chance.
    rng: Rng,
}

#[derive(Debug, Clone, PartialEq)]
struct TriggerClock {
    kind: TriggerKind,
    /// The global time from which it acts again.
    ready: f64,
    entity: u32,
    targetname: Option<String>,
    /// A `killtarget` removed it.
    removed: bool,
    guard: OncePerStep,
}

#[derive(Debug, Clone, PartialEq)]
struct RelayClock {
    relay: Relay,
    /// Uses still needed before a counter passes one on.
    remaining: u32,
    removed: bool,
    guard: OncePerStep,
}

/// A relay's or trigger's guard: used at most once a step by name, a second use deferred to the
/// next step's start (once), so loops of relays never hang.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct OncePerStep {
    /// The global step it was last used in.
    used: Option<u64>,
    /// A second use in that step waits for the next step.
    deferred: bool,
}

impl OncePerStep {
    /// `Ok` when it may be used in `step`; else `Err(true)` the first time it must be deferred,
    /// `Err(false)` when it already is.
    fn admit(&mut self, step: u64) -> Result<(), bool> {
        if self.used == Some(step) {
            let first = !self.deferred;
            self.deferred = true;
            return Err(first);
        }
        self.used = Some(step);
        Ok(())
    }
}

/// What a fired name reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Named {
    Team(usize),
    Relay(usize),
    Trigger(usize),
    Push(usize),
}

/// One entity's `SUB_UseTargets` / `G_UseTargets`, after its delay: what it removes and what it
/// fires.
#[derive(Debug, Clone, PartialEq)]
struct Uses {
    target: Option<String>,
    killtarget: Option<String>,
    /// Quake III `target_relay`'s `RANDOM`: the entities (map entity indices) one is picked
    /// among (`G_PickTarget`), instead of every entity `target` names.
    pick: Option<Vec<u32>>,
    /// The agent that set the firing going (Quake's `activator`, copied through a delay as
    /// Quake 1's `DelayedUse` copies it into its `enemy` and Quake III's `target_delay` into its
    /// `activator`).
    activator: Option<u32>,
}

#[derive(Debug, Clone, PartialEq)]
enum Work {
    Uses(Uses),
    /// One entity a name reached, and the firing's activator.
    Use(Named, Option<u32>),
}

/// What sets a team going.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Use {
    /// An agent in a door team's field.
    DoorField,
    /// An agent in a plat's field.
    PlatField,
    /// An agent touching a button.
    Touch,
    /// A fired target naming it.
    Fire,
}

impl Machinery {
    /// The movers of `entities` where they spawn, stepped `dt` seconds at a time, with the
    /// generator of seed 0 ([`Machinery::seeded`]).
    pub fn new(entities: &Entities, dt: f64) -> Machinery {
        Machinery::seeded(entities, dt, 0)
    }

    /// The movers of `entities` where they spawn, stepped `dt` seconds at a time; what Quake III
    /// leaves to chance is drawn from a SplitMix64 generator of `seed` (a simulation's
    /// `SimConfig::seed`), in the clock's fixed order, so a run gives the same bits on any thread
    /// count. The clock draws for Quake III's random `target_relay` (`G_PickTarget`) and
    /// `trigger_multiple`'s wait (`crandom()`); the simulator draws its own picks from the same
    /// generator ([`Machinery::rng`]).
    pub fn seeded(entities: &Entities, dt: f64, seed: u64) -> Machinery {
        let movers = entities.movers.clone();
        let mut teams: Vec<Team> = Vec::new();
        let mut team_of = vec![usize::MAX; movers.len()];
        for (m, mover) in movers.iter().enumerate() {
            let master = if mover.team < movers.len() {
                mover.team
            } else {
                m
            };
            if team_of[master] == usize::MAX {
                team_of[master] = teams.len();
                teams.push(Team {
                    master,
                    members: Vec::new(),
                    ticks: 0,
                    state: spawn_state(&movers[master]),
                    activator: None,
                });
            }
            team_of[m] = team_of[master];
            teams[team_of[m]].members.push(m);
        }
        let offsets = movers.iter().map(|m| m.spawn_offset).collect();
        let triggers = entities
            .triggers
            .iter()
            .map(|t| TriggerClock {
                kind: t.kind.clone(),
                ready: 0.0,
                entity: t.entity,
                targetname: t.targetname.clone(),
                removed: false,
                guard: OncePerStep::default(),
            })
            .collect();
        let relays: Vec<RelayClock> = entities
            .relays
            .iter()
            .map(|r| RelayClock {
                relay: r.clone(),
                remaining: match r.kind {
                    RelayKind::Counter { count } => count,
                    RelayKind::Relay => 0,
                },
                removed: false,
                guard: OncePerStep::default(),
            })
            .collect();
        // Quake III's trigger_always uses its targets once, its delay (SP_trigger_always's 300
        // ms) after the world starts.
        let pending = relays
            .iter()
            .filter(|r| r.relay.at_start)
            .map(|r| (r.relay.delay, uses_of(&r.relay, None), None))
            .collect();
        Machinery {
            dialect: entities.dialect,
            dt,
            removed: vec![false; movers.len()],
            movers,
            triggers,
            teams,
            team_of,
            offsets,
            step: 0,
            relays,
            pushes: entities
                .target_pushes
                .iter()
                .map(|p| (p.entity, p.targetname.clone()))
                .collect(),
            pending,
            deferred: Vec::new(),
            work: Vec::new(),
            events: Vec::new(),
            uses: Vec::new(),
            rng: Rng::new(seed),
        }
    }

    /// The run's generator, one stream for the clock and the simulator: the simulator's draws
    /// (Quake III's teleporter destinations and jump pad apexes, `G_PickTarget`) and the clock's
    /// are made in one fixed order (the step's passes, entity order, agent id order).
    pub fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }

    /// True when a `killtarget` removed mover `m`: it is gone from the world (it moves no more
    /// and its brushes must collide no more).
    pub fn removed(&self, m: usize) -> bool {
        self.removed[m]
    }

    /// True when a `killtarget` removed trigger `k` (an index of [`Entities::triggers`]), or the
    /// mover it belongs to (a door team's field, once every member is gone; a plat's field; a
    /// button's surface): it acts no more.
    pub fn trigger_removed(&self, k: usize) -> bool {
        let clock = &self.triggers[k];
        clock.removed
            || match clock.kind {
                TriggerKind::DoorField { mover } => !self.team_alive(self.team_of[mover]),
                TriggerKind::PlatField { mover } | TriggerKind::ButtonTouch { mover } => {
                    self.removed[mover]
                }
                _ => false,
            }
    }

    /// True when a `killtarget` removed relay `r` (an index of [`Entities::relays`]), or a
    /// counter passed its firing on (`trigger_counter` then removes itself).
    pub fn relay_removed(&self, r: usize) -> bool {
        self.relays[r].removed
    }

    /// True while team `t` has a member left.
    fn team_alive(&self, t: usize) -> bool {
        self.teams[t].members.iter().any(|&m| !self.removed[m])
    }

    /// Every mover's offset from where the file draws it, now.
    pub fn offsets(&self) -> &[DVec3] {
        &self.offsets
    }

    /// How many teams (each moved as one, in the entity order of their masters).
    pub fn team_count(&self) -> usize {
        self.teams.len()
    }

    /// Team `t`'s members (indices of [`Entities::movers`]), its master first.
    pub fn members(&self, t: usize) -> &[usize] {
        &self.teams[t].members
    }

    /// The team mover `m` belongs to.
    pub fn team_of(&self, m: usize) -> usize {
        self.team_of[m]
    }

    /// True when mover `m` never reverses when blocked (it waits instead).
    pub fn is_crusher(&self, m: usize) -> bool {
        self.movers[m].crusher
    }

    /// The global time, seconds: steps run times `dt`.
    pub fn time(&self) -> f64 {
        self.step as f64 * self.dt
    }

    /// A step begins: relays and triggers used twice in the last step are used again, then the
    /// uses whose delay ran out act, in the order they were made.
    pub fn begin_step(&mut self) {
        self.step += 1;
        for (named, activator) in std::mem::take(&mut self.deferred) {
            match named {
                Named::Relay(r) => self.relays[r].guard.deferred = false,
                Named::Trigger(k) => self.triggers[k].guard.deferred = false,
                Named::Team(_) | Named::Push(_) => {}
            }
            self.work.push(Work::Use(named, activator));
            self.settle();
        }
        let now = self.time();
        let (due, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.pending)
            .into_iter()
            .partition(|(at, ..)| *at <= now);
        self.pending = waiting;
        for (_, uses, _) in due {
            self.work.push(Work::Uses(uses));
            self.settle();
        }
    }

    /// Where every member of team `t` would be after this step: (mover, offset), members in
    /// order. Equal to [`Machinery::offsets`] when it does not move.
    pub fn proposal(&self, t: usize) -> Vec<(usize, DVec3)> {
        let team = &self.teams[t];
        let at = (team.ticks + 1) as f64 * self.dt;
        team.members
            .iter()
            .filter(|&&m| !self.removed[m])
            .map(|&m| (m, self.place(team.state, m, at)))
            .collect()
    }

    /// Team `t` moved as proposed: its clock runs one step and what is due happens (an end
    /// reached, a wait run out).
    pub fn commit(&mut self, t: usize) {
        if !self.team_alive(t) {
            return;
        }
        let moved = self.proposal(t);
        for (m, offset) in moved {
            self.offsets[m] = offset;
        }
        let team = &mut self.teams[t];
        team.ticks += 1;
        let now = team.ticks as f64 * self.dt;
        let master = team.master;
        match team.state {
            State::Moving { to2, start } => {
                let done = team
                    .members
                    .iter()
                    .filter(|&&m| !self.removed[m])
                    .all(|&m| now >= start + duration(self.dialect, &self.movers[m]));
                if done {
                    let b = binary(&self.movers[master]);
                    self.teams[t].state = if to2 {
                        let until = (b.wait >= 0.0 && !b.toggle).then_some(now + b.wait);
                        State::AtPos2 { until }
                    } else {
                        State::AtPos1
                    };
                    self.event(master, MoverEventKind::Reached);
                    // Targets fired at the far end: Quake 1 buttons (`button_wait`), every
                    // Quake III binary mover (`Reached_BinaryMover`).
                    let fires = to2
                        && (self.dialect == Dialect::Quake3
                            || self.movers[master].kind == MoverKind::Button);
                    if fires {
                        self.use_targets_of_mover(master);
                    }
                }
            }
            State::AtPos2 { until: Some(until) } if now >= until => {
                self.teams[t].state = State::Moving {
                    to2: false,
                    start: now,
                };
                self.event(master, MoverEventKind::Started);
            }
            State::AtStop {
                stop,
                until: Some(until),
            } if now >= until => {
                if let Motion::Path { stops, loop_to, .. } = &self.movers[master].motion {
                    let next = if stop + 1 < stops.len() {
                        Some(stop + 1)
                    } else {
                        *loop_to
                    };
                    self.teams[t].state = match next {
                        Some(to) => {
                            self.event(master, MoverEventKind::Started);
                            State::Leg {
                                from: stop,
                                to,
                                start: now,
                            }
                        }
                        None => State::AtStop { stop, until: None },
                    };
                }
            }
            State::Leg { from, to, start } => {
                if let Motion::Path { stops, .. } = &self.movers[master].motion
                    && now >= start + leg_duration(self.dialect, stops, from, to)
                {
                    let wait = stops[to].wait;
                    self.teams[t].state = State::AtStop {
                        stop: to,
                        until: (wait >= 0.0).then_some(now + wait),
                    };
                    self.event(master, MoverEventKind::Reached);
                }
            }
            State::Secret { stage, start } => self.secret_step(t, stage, start, now),
            _ => {}
        }
        self.settle();
    }

    /// A secret door's think (`fd_secret_move1` .. `fd_secret_done`, `doors.qc`): at the end of
    /// a move or a wait, the next stage begins at the team's time `now`.
    fn secret_step(&mut self, t: usize, stage: Secret, start: f64, now: f64) {
        let master = self.teams[t].master;
        let Motion::Secret(s) = self.movers[master].motion else {
            return;
        };
        let speed = self.movers[master].speed;
        let ends = match stage {
            Secret::PauseOut | Secret::PauseBack => start + rules::SECRET_PAUSE,
            Secret::Open if s.open_once => return,
            Secret::Open => start + s.wait,
            moving => {
                let (from, to) = secret_leg(&s, moving);
                start + secret_time(from, to, speed)
            }
        };
        if now < ends {
            return;
        }
        let (next, kind) = match stage {
            Secret::ToDest1 => (Some(Secret::PauseOut), MoverEventKind::Reached),
            Secret::PauseOut => (Some(Secret::ToDest2), MoverEventKind::Started),
            Secret::ToDest2 => (Some(Secret::Open), MoverEventKind::Reached),
            Secret::Open => (Some(Secret::BackToDest1), MoverEventKind::Started),
            Secret::BackToDest1 => (Some(Secret::PauseBack), MoverEventKind::Reached),
            Secret::PauseBack => (Some(Secret::Home), MoverEventKind::Started),
            Secret::Home => (None, MoverEventKind::Reached),
        };
        self.teams[t].state = match next {
            Some(stage) => State::Secret { stage, start: now },
            None => State::AtPos1,
        };
        self.event(master, kind);
    }

    /// Team `t` could not move as proposed (an agent would be left in solid): its clock stands
    /// still, and it reverses unless it is a crusher (Quake 1 `door_blocked`, `plat_crush`;
    /// Quake III `Blocked_Door`; buttons, trains and crushers wait for the way to clear).
    pub fn block(&mut self, t: usize) {
        let master = self.teams[t].master;
        if self.movers[master].crusher {
            return;
        }
        let now = self.teams[t].ticks as f64 * self.dt;
        if let State::Moving { to2, start } = self.teams[t].state {
            self.teams[t].state = reversed(
                to2,
                start,
                now,
                duration(self.dialect, &self.movers[master]),
            );
            self.event(master, MoverEventKind::Reversed);
        }
    }

    /// An agent touches trigger `trigger` (an index of [`Entities::triggers`]) this step; a
    /// removed one ([`Machinery::trigger_removed`]) does nothing. What it fires has no activator
    /// ([`Machinery::touch_by`] names one).
    pub fn touch(&mut self, trigger: usize) {
        self.touched(trigger, None);
    }

    /// Agent `agent` (the simulator's id; the clock only carries it) touches trigger `trigger`
    /// this step, first of the agents touching it: it is the activator of what the touch fires
    /// (Quake 1 `multi_touch`'s `self.enemy = other`, `door_trigger_touch`'s `activator = other`,
    /// `button_touch`; Quake III `Touch_Multi`, `Touch_DoorTrigger`, `Touch_Button`), reported
    /// with the uses the simulator acts on ([`Machinery::drain_uses`]).
    pub fn touch_by(&mut self, trigger: usize, agent: u32) {
        self.touched(trigger, Some(agent));
    }

    /// Agent `agent` goes through Quake 1 teleporter `trigger` (an index of
    /// [`Entities::triggers`]): `teleport_touch` (`triggers.qc`) calls `SUB_UseTargets` before it
    /// moves the toucher, so the teleporter's `target` (its destination's name) uses every mover,
    /// relay and trigger of that name (a destination has no `use`), after its `delay`; a
    /// `killtarget` removes what it names and fires nothing. A removed teleporter, or one that
    /// fires nothing (Quake III's, [`TriggerKind::Teleport`]'s `fires`), does nothing here.
    ///
    /// `teleport_touch` sets no `activator`: QuakeC's global still holds the last firing's. In
    /// Quake 1 the activator only chooses who reads a `message` (agents have none), and the
    /// toucher is the player a single-player game's last firing most often named: the clock names
    /// `agent`.
    pub fn teleport_by(&mut self, trigger: usize, agent: u32) {
        if self.trigger_removed(trigger) {
            return;
        }
        let TriggerKind::Teleport {
            fires: Some(fires), ..
        } = &self.triggers[trigger].kind
        else {
            return;
        };
        let uses = Uses {
            target: fires.target.clone(),
            killtarget: fires.killtarget.clone(),
            pick: None,
            activator: Some(agent),
        };
        let delay = fires.delay;
        self.use_targets(uses, delay);
        self.settle();
    }

    fn touched(&mut self, trigger: usize, activator: Option<u32>) {
        if self.trigger_removed(trigger) {
            return;
        }
        let now = self.time();
        let clock = &self.triggers[trigger];
        match clock.kind.clone() {
            TriggerKind::DoorField { mover } => {
                if self.dialect == Dialect::Quake1 {
                    // door_trigger_touch: at most once a second.
                    if now < clock.ready {
                        return;
                    }
                    self.triggers[trigger].ready = now + rules::QUAKE1_FIELD_REPEAT;
                }
                self.use_team(self.team_of[mover], Use::DoorField, activator);
            }
            TriggerKind::PlatField { mover } => {
                self.use_team(self.team_of[mover], Use::PlatField, activator)
            }
            TriggerKind::ButtonTouch { mover } => {
                self.use_team(self.team_of[mover], Use::Touch, activator)
            }
            TriggerKind::Fire {
                touchable: true, ..
            } => self.multi_trigger(trigger, activator),
            // Teleporters, push pads, hurt and other volumes: the simulator acts on them.
            _ => {}
        }
        self.settle();
    }

    /// A `trigger_once` / `trigger_multiple` goes off (Quake 1 `multi_trigger`, Quake III
    /// `multi_trigger`): unless it is still waiting, it uses its targets after its delay and
    /// waits `wait` (negative: for good).
    fn multi_trigger(&mut self, trigger: usize, activator: Option<u32>) {
        let now = self.time();
        let clock = &self.triggers[trigger];
        let TriggerKind::Fire {
            target,
            killtarget,
            wait,
            random,
            delay,
            ..
        } = clock.kind.clone()
        else {
            return;
        };
        if now < clock.ready {
            return;
        }
        self.triggers[trigger].ready = if wait > 0.0 {
            // Quake III: `nextthink = level.time + (wait + random * crandom()) * 1000`, a draw at
            // every re-arm (Quake 1's `nextthink = time + wait` has no such term). A wait that
            // comes out at or below 0 re-arms at the next step, as a think already due runs at
            // the next frame.
            match self.dialect {
                Dialect::Quake1 => now + wait,
                Dialect::Quake3 => now + wait + random * rules::crandom(self.rng.next_u64()),
            }
        } else {
            // Both games' multi_trigger: `if (wait > 0)` waits, else the trigger is freed.
            f64::INFINITY
        };
        self.use_targets(
            Uses {
                target,
                killtarget,
                pick: None,
                activator,
            },
            delay,
        );
    }

    /// An agent rides mover `m` this step: a Quake III plat at its top waits a second more
    /// (`Touch_Plat`).
    pub fn ridden(&mut self, m: usize) {
        if self.dialect != Dialect::Quake3
            || self.movers[m].kind != MoverKind::Plat
            || self.removed[m]
        {
            return;
        }
        let t = self.team_of[m];
        let now = self.teams[t].ticks as f64 * self.dt;
        if let State::AtPos2 { until: Some(_) } = self.teams[t].state {
            self.teams[t].state = State::AtPos2 {
                until: Some(now + rules::PLAT_HOLD),
            };
        }
    }

    /// Fires `name` after `delay` seconds: every mover team, relay and trigger of that
    /// `targetname` is used, in entity order (a trigger fired by name goes off as if touched).
    pub fn fire(&mut self, name: &str, delay: f64) {
        self.use_targets(
            Uses {
                target: Some(name.to_string()),
                killtarget: None,
                pick: None,
                activator: None,
            },
            delay,
        );
        self.settle();
    }

    /// Queues `uses` after `delay` seconds (`SUB_UseTargets`' `DelayedUse`), or on the work
    /// stack now.
    fn use_targets(&mut self, uses: Uses, delay: f64) {
        if uses.target.is_none() && uses.killtarget.is_none() {
            return;
        }
        if delay > 0.0 {
            self.pending.push((self.time() + delay, uses, None));
        } else {
            self.work.push(Work::Uses(uses));
        }
    }

    /// Mover `m` uses its targets (a Quake 1 door opening, a button at its far end, a Quake III
    /// mover reaching `pos2`, a secret door used).
    fn use_targets_of_mover(&mut self, m: usize) {
        let mover = &self.movers[m];
        let uses = Uses {
            target: mover.target.clone(),
            killtarget: mover.killtarget.clone(),
            pick: None,
            activator: self.teams[self.team_of[m]].activator,
        };
        let delay = mover.delay;
        self.use_targets(uses, delay);
    }

    /// Works through the stack until it is empty.
    fn settle(&mut self) {
        while let Some(work) = self.work.pop() {
            match work {
                Work::Uses(uses) => self.run_uses(uses),
                Work::Use(named, activator) => self.use_named(named, activator),
            }
        }
    }

    /// `SUB_UseTargets` after its delay: Quake 1 removes what `killtarget` names and returns;
    /// else what `target` names is used, in entity order (pushed so that the first is used
    /// first, and what it fires before the next).
    fn run_uses(&mut self, uses: Uses) {
        if let Some(kill) = &uses.killtarget {
            self.kill(kill);
            if self.dialect == Dialect::Quake1 {
                return;
            }
        }
        let Some(name) = &uses.target else {
            return;
        };
        let found = match &uses.pick {
            None => self.named(name),
            // G_PickTarget: `rand() % num_choices` (none: NULL, no draw); `if (ent && ent->use)`
            // only the entity picked is used, and nothing when it has no use here.
            Some(choices) if choices.is_empty() => Vec::new(),
            Some(choices) => {
                let entity = choices[self.rng.below(choices.len())];
                self.named_entity(name, entity).into_iter().collect()
            }
        };
        let activator = uses.activator;
        self.work.extend(
            found
                .into_iter()
                .rev()
                .map(|named| Work::Use(named, activator)),
        );
    }

    /// Everything named `name` that is still there, in entity order (a team once, where its
    /// first named member stands).
    fn named(&self, name: &str) -> Vec<Named> {
        self.named_entities(name)
            .into_iter()
            .map(|(_, named)| named)
            .collect()
    }

    /// What map entity `entity`, named `name`, is to the clock, if it is anything that has a
    /// use (a mover's team: Quake III's `Use_BinaryMover` passes a team slave's use to its
    /// master).
    fn named_entity(&self, name: &str, entity: u32) -> Option<Named> {
        let is = |n: &Option<String>| n.as_deref() == Some(name);
        if let Some(m) = (0..self.movers.len()).find(|&m| {
            self.movers[m].entity == entity && !self.removed[m] && is(&self.movers[m].targetname)
        }) {
            return Some(Named::Team(self.team_of[m]));
        }
        self.named_entities(name)
            .into_iter()
            .find(|&(e, _)| e == entity)
            .map(|(_, named)| named)
    }

    /// [`Machinery::named`], each with its map entity.
    fn named_entities(&self, name: &str) -> Vec<(u32, Named)> {
        let is = |n: &Option<String>| n.as_deref() == Some(name);
        let mut found: Vec<(u32, Named)> = Vec::new();
        for (m, mover) in self.movers.iter().enumerate() {
            let team = Named::Team(self.team_of[m]);
            if !self.removed[m] && is(&mover.targetname) && !found.iter().any(|f| f.1 == team) {
                found.push((mover.entity, team));
            }
        }
        for (r, clock) in self.relays.iter().enumerate() {
            if !clock.removed && is(&clock.relay.targetname) {
                found.push((clock.relay.entity, Named::Relay(r)));
            }
        }
        for (k, clock) in self.triggers.iter().enumerate() {
            if !clock.removed && is(&clock.targetname) {
                found.push((clock.entity, Named::Trigger(k)));
            }
        }
        for (p, (entity, name)) in self.pushes.iter().enumerate() {
            if is(name) {
                found.push((*entity, Named::Push(p)));
            }
        }
        // A stable sort: generated fields share their mover's entity, and follow it.
        found.sort_by_key(|f| f.0);
        found
    }

    /// Uses one thing a name reached. A relay or trigger already used this step waits for the
    /// next step's start instead (once: a third use in the step is dropped).
    fn use_named(&mut self, named: Named, activator: Option<u32>) {
        let step = self.step;
        match named {
            // Use_target_push: the simulator sets the activator's velocity.
            Named::Push(p) => self.uses.push(EntityUse {
                used: Used::Push(p),
                activator,
            }),
            Named::Team(t) => {
                if self.team_alive(t) {
                    self.use_team(t, Use::Fire, activator);
                }
            }
            Named::Relay(r) => {
                let clock = &mut self.relays[r];
                if clock.removed {
                    return;
                }
                if let Err(first) = clock.guard.admit(step) {
                    if first {
                        self.deferred.push((named, activator));
                    }
                    return;
                }
                if let RelayKind::Counter { .. } = clock.relay.kind {
                    // counter_use: "count" uses; below zero it does nothing.
                    if clock.remaining == 0 {
                        return;
                    }
                    clock.remaining -= 1;
                    if clock.remaining > 0 {
                        return;
                    }
                    // multi_trigger with wait -1: gone (SUB_Remove).
                    clock.removed = true;
                }
                let (uses, delay) = (uses_of(&clock.relay, activator), clock.relay.delay);
                if clock.relay.single_think {
                    // Use_Target_Delay: one think, set again at every use, its wait drawn.
                    let wait = delay + clock.relay.random * rules::crandom(self.rng.next_u64());
                    self.pending.retain(|p| p.2 != Some(r));
                    if uses.target.is_some() || uses.killtarget.is_some() {
                        self.pending.push((self.time() + wait, uses, Some(r)));
                    }
                } else {
                    self.use_targets(uses, delay);
                }
            }
            Named::Trigger(k) => {
                if let Err(first) = self.triggers[k].guard.admit(step) {
                    if first {
                        self.deferred.push((named, activator));
                    }
                    return;
                }
                if self.trigger_removed(k) {
                    return;
                }
                match self.triggers[k].kind {
                    // multi_use: as if touched, even by a trigger agents cannot touch.
                    TriggerKind::Fire { .. } => self.multi_trigger(k, activator),
                    // The simulator's to act on (a Quake 1 teleporter's `teleport_use`).
                    _ => self.uses.push(EntityUse {
                        used: Used::Trigger(k),
                        activator,
                    }),
                }
            }
        }
    }

    /// Removes every mover, trigger and relay named `name` (Quake 1 `SUB_UseTargets`'
    /// `killtarget` loop, `remove`).
    fn kill(&mut self, name: &str) {
        let is = |n: &Option<String>| n.as_deref() == Some(name);
        for m in 0..self.movers.len() {
            if !self.removed[m] && is(&self.movers[m].targetname) {
                self.removed[m] = true;
                self.event(m, MoverEventKind::Removed);
            }
        }
        for clock in &mut self.triggers {
            if is(&clock.targetname) {
                clock.removed = true;
            }
        }
        for clock in &mut self.relays {
            if is(&clock.relay.targetname) {
                clock.removed = true;
            }
        }
    }

    /// The events since the last call, in the order they happened.
    pub fn drain_events(&mut self) -> Vec<MoverEvent> {
        std::mem::take(&mut self.events)
    }

    /// The named entities firings used since the last call that the simulator acts on (the
    /// clock knows no agents), in the order they were used, with each firing's activator.
    pub fn drain_uses(&mut self) -> Vec<EntityUse> {
        std::mem::take(&mut self.uses)
    }

    fn event(&mut self, mover: usize, kind: MoverEventKind) {
        self.events.push(MoverEvent { mover, kind });
    }

    /// Team `t` is used (Quake III `Use_BinaryMover`; Quake 1 `door_fire`, `plat_center_touch`,
    /// `plat_use`, `button_fire`, `train_use`).
    fn use_team(&mut self, t: usize, how: Use, activator: Option<u32>) {
        // Quake III `Use_BinaryMover` keeps its activator at every use, whatever it then does;
        // Quake 1's `button_touch` its `enemy`.
        self.teams[t].activator = activator;
        let master = self.teams[t].master;
        let mover = &self.movers[master];
        let now = self.teams[t].ticks as f64 * self.dt;
        let state = self.teams[t].state;
        if let Motion::Path { .. } = mover.motion {
            // train_use: a named Quake 1 train waiting at its first corner sets off.
            if how == Use::Fire
                && mover.activation == Activation::Fired
                && let State::AtStop {
                    stop: 0,
                    until: None,
                } = state
            {
                self.teams[t].state = State::AtStop {
                    stop: 0,
                    until: Some(now),
                };
            }
            return;
        }
        if let Motion::Secret(_) = mover.motion {
            // fd_secret_use: "exit if still moving around"; else fire its targets and set off.
            if how == Use::Fire && state == State::AtPos1 {
                self.use_targets_of_mover(master);
                self.teams[t].state = State::Secret {
                    stage: Secret::ToDest1,
                    start: now,
                };
                self.event(master, MoverEventKind::Started);
            }
            return;
        }
        let Motion::Binary(b) = mover.motion else {
            return;
        };
        if how == Use::Touch && mover.activation != Activation::Touch
            || how == Use::DoorField && mover.activation != Activation::Field
        {
            return;
        }
        let full = duration(self.dialect, mover);
        let kind = mover.kind;
        let next = match self.dialect {
            Dialect::Quake3 => match (how, state) {
                // Touch_PlatCenterTrigger and Touch_Button act at pos1 only; Touch_DoorTrigger
                // never while opening.
                (Use::PlatField | Use::Touch, s) if s != State::AtPos1 => None,
                (Use::DoorField, State::Moving { to2: true, .. }) => None,
                // "start moving 50 msec later".
                (_, State::AtPos1) => Some((
                    State::Moving {
                        to2: true,
                        start: now + rules::QUAKE3_USE_DELAY,
                    },
                    MoverEventKind::Started,
                )),
                // "if all the way up, just delay before coming down".
                (_, State::AtPos2 { until }) => {
                    self.teams[t].state = State::AtPos2 {
                        until: until.map(|_| now + b.wait),
                    };
                    None
                }
                (_, State::Moving { to2, start }) => {
                    Some((reversed(to2, start, now, full), MoverEventKind::Reversed))
                }
                _ => None,
            },
            Dialect::Quake1 => match (kind, how, state) {
                // plat_center_touch: up from the bottom, a second more at the top.
                (MoverKind::Plat, Use::PlatField, State::AtPos1) => Some((
                    State::Moving {
                        to2: true,
                        start: now,
                    },
                    MoverEventKind::Started,
                )),
                (MoverKind::Plat, Use::PlatField, State::AtPos2 { until: Some(_) }) => {
                    self.teams[t].state = State::AtPos2 {
                        until: Some(now + rules::PLAT_HOLD),
                    };
                    None
                }
                // plat_use: a named plat waiting at the top goes down, once.
                (MoverKind::Plat, Use::Fire, State::AtPos2 { until: None }) => Some((
                    State::Moving {
                        to2: false,
                        start: now,
                    },
                    MoverEventKind::Started,
                )),
                (MoverKind::Plat, ..) => None,
                // door_fire with TOGGLE: an open or opening door closes.
                (_, _, State::AtPos2 { .. }) if b.toggle => Some((
                    State::Moving {
                        to2: false,
                        start: now,
                    },
                    MoverEventKind::Started,
                )),
                (_, _, State::Moving { to2: true, start }) if b.toggle => {
                    Some((reversed(true, start, now, full), MoverEventKind::Reversed))
                }
                // door_go_up / button_fire: nothing while going up; at the top a door's wait
                // starts over (a button's does not).
                (_, _, State::Moving { to2: true, .. }) => None,
                (MoverKind::Button, _, State::AtPos2 { .. }) => None,
                (_, _, State::AtPos2 { until }) => {
                    self.teams[t].state = State::AtPos2 {
                        until: until.map(|_| now + b.wait),
                    };
                    None
                }
                (_, _, State::Moving { to2: false, start }) => {
                    Some((reversed(false, start, now, full), MoverEventKind::Reversed))
                }
                (_, _, State::AtPos1) => Some((
                    State::Moving {
                        to2: true,
                        start: now,
                    },
                    MoverEventKind::Started,
                )),
                _ => None,
            },
        };
        if let Some((state, kind)) = next {
            let opening = matches!(state, State::Moving { to2: true, .. });
            self.teams[t].state = state;
            self.event(master, kind);
            // door_go_up fires the door's targets as it starts opening (Quake 1 doors).
            if opening
                && self.dialect == Dialect::Quake1
                && self.movers[master].kind == MoverKind::Door
            {
                self.use_targets_of_mover(master);
            }
        }
    }

    /// Mover `m`'s offset at team time `at` in `state`.
    fn place(&self, state: State, m: usize, at: f64) -> DVec3 {
        let mover = &self.movers[m];
        match (&mover.motion, state) {
            (Motion::Binary(b), State::AtPos1) => b.pos1,
            (Motion::Binary(b), State::AtPos2 { .. }) => b.pos2,
            (Motion::Binary(b), State::Moving { to2, start }) => {
                let (from, to) = if to2 {
                    (b.pos1, b.pos2)
                } else {
                    (b.pos2, b.pos1)
                };
                along(from, to, at - start, duration(self.dialect, mover))
            }
            (Motion::Path { stops, .. }, State::AtStop { stop, .. }) => stops[stop].offset,
            (Motion::Path { stops, .. }, State::Leg { from, to, start }) => along(
                stops[from].offset,
                stops[to].offset,
                at - start,
                leg_duration(self.dialect, stops, from, to),
            ),
            (Motion::Secret(s), State::Secret { stage, start }) => match stage {
                Secret::PauseOut | Secret::PauseBack => s.dest1,
                Secret::Open => s.dest2,
                moving => {
                    let (from, to) = secret_leg(s, moving);
                    along(from, to, at - start, secret_time(from, to, mover.speed))
                }
            },
            (Motion::Secret(_), State::AtPos1) => DVec3::ZERO,
            _ => self.offsets[m],
        }
    }
}

/// What a relay's use does: its targets and killtargets.
fn uses_of(relay: &Relay, activator: Option<u32>) -> Uses {
    Uses {
        activator,
        target: relay.target.clone(),
        killtarget: relay.killtarget.clone(),
        pick: relay.pick_one.then(|| relay.choices.clone()),
    }
}

/// Where a secret door's moving stage goes from and to (offsets from where it is drawn, which
/// is home: `oldorigin`).
fn secret_leg(s: &SecretMotion, stage: Secret) -> (DVec3, DVec3) {
    match stage {
        Secret::ToDest1 => (DVec3::ZERO, s.dest1),
        Secret::ToDest2 => (s.dest1, s.dest2),
        Secret::BackToDest1 => (s.dest2, s.dest1),
        Secret::Home => (s.dest1, DVec3::ZERO),
        Secret::PauseOut | Secret::PauseBack => (s.dest1, s.dest1),
        Secret::Open => (s.dest2, s.dest2),
    }
}

/// How long a secret door's move takes: Quake 1's `SUB_CalcMove` (`subs.qc`), `len / speed` but
/// at least 0.03 s ([`rules::travel_time`]), and 0.1 s for a move to where it already is ("already
/// there": `nextthink = ltime + 0.1`).
fn secret_time(from: DVec3, to: DVec3, speed: f64) -> f64 {
    if from == to {
        rules::QUAKE1_STILL_MOVE
    } else {
        rules::travel_time(Dialect::Quake1, from.distance(to), speed)
    }
}

/// Where a mover spawns in its cycle.
fn spawn_state(mover: &Mover) -> State {
    match &mover.motion {
        Motion::Binary(b) if b.starts_at_pos2 => State::AtPos2 { until: None },
        Motion::Binary(_) | Motion::Secret(_) => State::AtPos1,
        Motion::Path {
            stops, start_wait, ..
        } if !stops.is_empty() => State::AtStop {
            stop: 0,
            until: (mover.activation == Activation::Automatic).then_some(*start_wait),
        },
        _ => State::Still,
    }
}

/// The two positions of a binary mover (movers of other motions have none: zeros).
fn binary(mover: &Mover) -> BinaryMotion {
    match mover.motion {
        Motion::Binary(b) => b,
        _ => BinaryMotion {
            pos1: DVec3::ZERO,
            pos2: DVec3::ZERO,
            wait: -1.0,
            toggle: false,
            starts_at_pos2: false,
        },
    }
}

/// How long a binary mover's move between its positions takes ([`rules::travel_time`]).
fn duration(dialect: Dialect, mover: &Mover) -> f64 {
    let b = binary(mover);
    rules::travel_time(dialect, b.pos1.distance(b.pos2), mover.speed)
}

/// How long a train's leg takes, at the speed of the stop it leaves.
fn leg_duration(dialect: Dialect, stops: &[crate::defs::PathStop], from: usize, to: usize) -> f64 {
    rules::travel_time(
        dialect,
        stops[from].offset.distance(stops[to].offset),
        stops[from].speed,
    )
}

/// The point `elapsed` seconds into a straight move of `duration` seconds from `from` to `to`
/// (Quake III's `TR_LINEAR_STOP`; Quake 1 moves at `velocity` and stops at `finaldest`).
fn along(from: DVec3, to: DVec3, elapsed: f64, duration: f64) -> DVec3 {
    if elapsed <= 0.0 {
        from
    } else if elapsed >= duration {
        to
    } else {
        from + (to - from) * (elapsed / duration)
    }
}

/// The move back from where a move started at `start` is at `now`: Quake III's "only partway
/// up before reversing" (`Use_BinaryMover`: the new move starts `total - partial` ago), Quake 1's
/// `SUB_CalcMove` from the current origin (the same at constant speed).
fn reversed(to2: bool, start: f64, now: f64, full: f64) -> State {
    let partial = (now - start).clamp(0.0, full);
    State::Moving {
        to2: !to2,
        start: now - (full - partial),
    }
}
