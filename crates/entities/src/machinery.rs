//! The clock of the living world: where every mover is, and what a touch, a firing or a blocked
//! push does to it (Quake 1's `doors.qc`, `plats.qc`, `buttons.qc` and `SV_PushMove` in
//! `sv_phys.c`; Quake III's `G_MoverTeam`, `Use_BinaryMover`, `Reached_BinaryMover`,
//! `Blocked_Door`, `Touch_DoorTrigger`, `Touch_Plat`, `Touch_PlatCenterTrigger` and
//! `Reached_Train` in `g_mover.c`).
//!
//! It knows no agents: the simulator asks where a team would be after the step
//! ([`Machinery::proposal`]), pushes what is in the way, and either commits the step
//! ([`Machinery::commit`]) or reports the team blocked ([`Machinery::block`]); then it reports
//! the triggers agents touch ([`Machinery::touch`]).
//!
//! Every team keeps its own clock in whole steps (Quake 1's `ltime`, the pusher's local time,
//! which stands still while the pusher is blocked; Quake III shifts the trajectory's start by
//! the frame instead, the same thing): its time is `ticks * dt`, never accumulated. State
//! changes (reaching an end, a wait running out) happen at the first step at or past their
//! time, as the games' thinks run at the first frame at or past `nextthink`.

use cspace_geom::DVec3;

use crate::defs::{Activation, BinaryMotion, Entities, Motion, Mover, MoverKind, TriggerKind};
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
    /// Nothing moves it here (Quake 1 secret doors: not simulated yet).
    Still,
}

/// A team: its master and members (linked doors move as one), its clock and its state.
#[derive(Debug, Clone, PartialEq)]
struct Team {
    master: usize,
    members: Vec<usize>,
    /// Steps the team's clock has run (it stands still while blocked).
    ticks: u64,
    state: State,
}

/// The clock of a map's movers and the triggers that set them going.
#[derive(Debug, Clone, PartialEq)]
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
    /// Firings waiting for their `delay`: (global time, target name).
    pending: Vec<(f64, String)>,
    events: Vec<MoverEvent>,
}

#[derive(Debug, Clone, PartialEq)]
struct TriggerClock {
    kind: TriggerKind,
    ready: f64,
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
    /// The movers of `entities` where they spawn, stepped `dt` seconds at a time.
    pub fn new(entities: &Entities, dt: f64) -> Machinery {
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
            })
            .collect();
        Machinery {
            dialect: entities.dialect,
            dt,
            movers,
            triggers,
            teams,
            team_of,
            offsets,
            step: 0,
            pending: Vec::new(),
            events: Vec::new(),
        }
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

    /// A step begins: firings whose delay ran out act now.
    pub fn begin_step(&mut self) {
        self.step += 1;
        let now = self.time();
        let due: Vec<String> = {
            let (due, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.pending)
                .into_iter()
                .partition(|(at, _)| *at <= now);
            self.pending = waiting;
            due.into_iter().map(|(_, name)| name).collect()
        };
        for name in due {
            self.fire_now(&name);
        }
    }

    /// Where every member of team `t` would be after this step: (mover, offset), members in
    /// order. Equal to [`Machinery::offsets`] when it does not move.
    pub fn proposal(&self, t: usize) -> Vec<(usize, DVec3)> {
        let team = &self.teams[t];
        let at = (team.ticks + 1) as f64 * self.dt;
        team.members
            .iter()
            .map(|&m| (m, self.place(team.state, m, at)))
            .collect()
    }

    /// Team `t` moved as proposed: its clock runs one step and what is due happens (an end
    /// reached, a wait run out).
    pub fn commit(&mut self, t: usize) {
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
                    if fires && let Some(target) = self.movers[master].target.clone() {
                        self.fire(&target, 0.0);
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
            _ => {}
        }
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

    /// An agent touches trigger `trigger` (an index of [`Entities::triggers`]) this step.
    pub fn touch(&mut self, trigger: usize) {
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
                self.use_team(self.team_of[mover], Use::DoorField);
            }
            TriggerKind::PlatField { mover } => self.use_team(self.team_of[mover], Use::PlatField),
            TriggerKind::ButtonTouch { mover } => self.use_team(self.team_of[mover], Use::Touch),
            TriggerKind::Fire {
                target,
                wait,
                delay,
                touchable,
                ..
            } => {
                if !touchable || now < clock.ready {
                    return;
                }
                self.triggers[trigger].ready = if wait < 0.0 {
                    f64::INFINITY
                } else {
                    now + wait
                };
                if let Some(target) = target {
                    self.fire(&target, delay);
                }
            }
            // Teleporters, push pads, hurt and other volumes: not simulated yet.
            _ => {}
        }
    }

    /// An agent rides mover `m` this step: a Quake III plat at its top waits a second more
    /// (`Touch_Plat`).
    pub fn ridden(&mut self, m: usize) {
        if self.dialect != Dialect::Quake3 || self.movers[m].kind != MoverKind::Plat {
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

    /// Fires `name`: every mover of that `targetname` is used, after `delay` seconds.
    pub fn fire(&mut self, name: &str, delay: f64) {
        if delay > 0.0 {
            self.pending.push((self.time() + delay, name.to_string()));
        } else {
            self.fire_now(name);
        }
    }

    fn fire_now(&mut self, name: &str) {
        let used: Vec<usize> = self
            .movers
            .iter()
            .enumerate()
            .filter(|(_, m)| m.targetname.as_deref() == Some(name))
            .map(|(i, _)| self.team_of[i])
            .collect();
        let mut done: Vec<usize> = Vec::new();
        for t in used {
            if !done.contains(&t) {
                done.push(t);
                self.use_team(t, Use::Fire);
            }
        }
    }

    /// The events since the last call, in the order they happened.
    pub fn drain_events(&mut self) -> Vec<MoverEvent> {
        std::mem::take(&mut self.events)
    }

    fn event(&mut self, mover: usize, kind: MoverEventKind) {
        self.events.push(MoverEvent { mover, kind });
    }

    /// Team `t` is used (Quake III `Use_BinaryMover`; Quake 1 `door_fire`, `plat_center_touch`,
    /// `plat_use`, `button_fire`, `train_use`).
    fn use_team(&mut self, t: usize, how: Use) {
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
                && let Some(target) = self.movers[master].target.clone()
            {
                self.fire(&target, 0.0);
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
            _ => self.offsets[m],
        }
    }
}

/// Where a mover spawns in its cycle.
fn spawn_state(mover: &Mover) -> State {
    match &mover.motion {
        Motion::Binary(b) if b.starts_at_pos2 => State::AtPos2 { until: None },
        Motion::Binary(_) => State::AtPos1,
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
