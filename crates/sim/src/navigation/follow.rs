//! Following a planned path with the ordinary movement model (scenario `goto`).
//!
//! Once per step, before the agents move (the script system, `apply_scripts`), a goto agent's
//! wished direction, speed, jump and crouch are set from its own state alone (position,
//! velocity, ground, pose) and its path, so that the interaction groups that move it later see an
//! ordinary intent and the step stays bit-identical on any number of threads. Nothing else is
//! changed: the movement model walks, steps up, falls, jumps and crouches as for a scripted
//! agent.
//!
//! - **Speed control.** The follower wants a horizontal velocity (along the leg to the next
//!   waypoint, pulled back onto the leg's line when it drifts, straight at the waypoint near it;
//!   at most the pose's speed, slowing down as it nears a corner, an edge or the goal) and picks the
//!   wished direction and speed that give it after Quake's friction and acceleration
//!   (`PM_Friction`, `PM_Accelerate`): the wish points along the difference between the wanted
//!   and the predicted velocity, so the agent turns without drifting wide.
//! - **Waypoints** (`cspace_nav::Waypoint`): a walk or step waypoint is reached within
//!   [`FollowParams::waypoint_radius`] seen from above (or passed, crossing the line through it
//!   square to the leg, close to it), at the floor's height within a step; the goal within
//!   [`FollowParams::arrival_radius`], slowed down to [`FollowParams::arrival_speed`]. A crouch or stand-up waypoint is reached when the pose has
//!   changed (the movement model stands up only where the standing box fits). A drop or jump's
//!   landing is reached on landing within [`FollowParams::landing_radius`].
//! - **Crests** (a waypoint where the floor falls away, `cspace_nav::NavParams::crest_bend`):
//!   crossed slowly enough that the short flight off the top lands within
//!   [`FollowParams::crest_landing`] of the next leg, and reached only when passed.
//! - **Corners**: one round a wall's end (solid just inside it) is reached only once the next
//!   leg clears the wall ([`FollowParams::corner_cut`]); the others may be cut within the radius.
//!   Each is taken no faster than the drift outward stops on the floor probed beyond it.
//! - **Drops**: the edge is walked off slowly ([`FollowParams::drop_speed`], and no faster than
//!   the pose's air control stops the fall over the landing) along the link's direction, the
//!   fall steered towards the landing (air control is weak, a crouching agent's weaker still).
//! - **Jumps**: the take-off is approached from a run-up point behind it on its floor (up to
//!   [`FollowParams::run_up`] back along the jump), then run at along the jump's line at full
//!   speed; the jump is wished at the step that reaches the take-off, as the planner traced it
//!   (walk speed out, jump speed up). A jump onto a ledge is taken against the riser, no run-up,
//!   once the agent no longer slides along it ([`FollowParams::take_off_slide`]). A take-off,
//!   and an edge to walk off, is reached within [`FollowParams::run_up_radius`], not the
//!   waypoint radius.
//! - **Replanning**: a path is planned again from where the agent stands when it strays more than
//!   [`FollowParams::stray_distance`] from its leg, falls below it, lands away from a landing, or
//!   makes no progress for [`FollowParams::stall_seconds`]; after [`FollowParams::max_replans`]
//!   plans without reaching a waypoint, the goto fails (stuck).

use cspace_geom::DVec3;
use cspace_nav::{Endpoint, LinkKind, NavContext, NavError, Waypoint, rise_along};

use super::planner::Planner;
use crate::agent::{AgentId, Ground, Pose};
use crate::intent::Intent;
use crate::params::MoveParams;
use crate::record::{EventKind, GotoFailure};

/// The follower's constants (units, seconds).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FollowParams {
    /// A walk or step waypoint is reached within this distance seen from above, units: 12 (under
    /// half a Quake player's width, two steps at walk speed).
    pub waypoint_radius: f64,
    /// The goal is reached within this distance seen from above, on the floor, units: 8.
    pub arrival_radius: f64,
    /// ... and no faster than this, units/s: 40 (friction then stops the agent within 2 units).
    pub arrival_speed: f64,
    /// A drop's or jump's landing is reached on landing within this distance, units: 48 (a
    /// landing within a player and a half of the traced one; a farther one is planned from).
    pub landing_radius: f64,
    /// A take-off's run-up point is reached within this distance, units: 6.
    pub run_up_radius: f64,
    /// Farther than this from the leg being walked, seen from above, the agent plans again,
    /// units: 48.
    pub stray_distance: f64,
    /// No progress of a unit towards the waypoint for this long plans again, seconds: 1.
    pub stall_seconds: f64,
    /// Plans in a row without reaching a waypoint before the goto fails, stuck: 8.
    pub max_replans: u32,
    /// The share of the ground acceleration (`accelerate * speed`) counted on when slowing down
    /// for a corner, an edge or the goal: 0.25 (the model brakes about four times harder on the
    /// ground, but not at all in the air: a step down on the way is a short fall).
    pub braking_share: f64,
    /// The same for a corner between two walks: 0.5 (drifting wide there meets a wall at worst,
    /// where the others can meet a ledge).
    pub corner_braking_share: f64,
    /// The slowest a corner is taken, as a share of the pose's speed: 0.25 (the speed through a
    /// corner is the pose's speed times the squared cosine of half the turn, at least this).
    pub corner_speed_share: f64,
    /// The speed a ledge is walked off at before a drop, units/s: 40 (the planner traced the
    /// fall straight down from 4 units past the edge; at 40 units/s a fall of 100 units lands
    /// about 20 units out, a narrow shaft is not crossed before the fall is deeper than a step
    /// (which the step-up would climb back out of), and the weak air control steers the rest;
    /// the speed control holds it against Quake's stop-speed friction).
    pub drop_speed: f64,
    /// The longest run-up behind a jump's take-off, units: 48 (Quake's acceleration reaches walk
    /// speed from rest in about 30 units).
    pub run_up: f64,
    /// How fast a sideways offset from the line of a leg, a drop or a jump is corrected, per
    /// second: 8 (a unit off, 8 units/s back).
    pub lateral_gain: f64,
    /// Over a crest (a waypoint where the floor falls away, `cspace_nav::NavParams::crest_bend`)
    /// the agent flies on a little; it goes slowly enough to land within this share of the
    /// next leg: 0.5.
    pub crest_landing: f64,
    /// A corner between two walks pulled tight round a wall's end (solid within
    /// [`FollowParams::wall_probe`] inside it) is reached within the radius only once the agent
    /// is at most this far on its inside of the next leg's line, units: 0.5 (the planner's
    /// corners are a unit off the walls; cutting such a corner by more ran into the wall's end
    /// and stood there, pushing square at it). Other corners (round a floor's edge, or bends of
    /// the corridor of areas) are cut as the radius allows.
    pub corner_cut: f64,
    /// How far inside a corner, along the bisector, solid makes it a wall's end, units: 2.
    pub wall_probe: f64,
    /// A jump onto a ledge against the riser (landing within the waypoint radius seen from
    /// above) waits for the sideways speed left from the leg before to fall below this,
    /// units/s: 96 (under a player's width of drift while rising to the apex, 0.34 s; at a
    /// corner's speed it flew along the riser past a narrow ledge).
    pub take_off_slide: f64,
    /// A move in one step longer than the agent's speeds before and after it allow, by more
    /// than this, is a teleport, units: 32 (a mover carries a rider at most 6 units in a step
    /// of 1/64 s at Quake III's door speed, 400 units/s).
    pub teleport_margin: f64,
}

impl Default for FollowParams {
    fn default() -> FollowParams {
        FollowParams {
            waypoint_radius: 12.0,
            arrival_radius: 8.0,
            arrival_speed: 40.0,
            landing_radius: 48.0,
            run_up_radius: 6.0,
            stray_distance: 48.0,
            stall_seconds: 1.0,
            max_replans: 8,
            braking_share: 0.25,
            corner_braking_share: 0.5,
            corner_speed_share: 0.25,
            drop_speed: 40.0,
            run_up: 48.0,
            lateral_gain: 8.0,
            crest_landing: 0.5,
            corner_cut: 0.5,
            wall_probe: 2.0,
            take_off_slide: 96.0,
            teleport_margin: 32.0,
        }
    }
}

/// A path a goto agent planned, as `sim plot` draws it.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedPath {
    /// The step it was planned at (applied from that step on).
    pub step: u64,
    /// The agent.
    pub agent: AgentId,
    /// The waypoints, the agent's start first.
    pub waypoints: Vec<Waypoint>,
    /// The floor under each leg (leg `i` from waypoint `i` to `i + 1`), as side views draw it
    /// ([`cspace_nav::NavMesh::floors_under`]).
    pub floors: Vec<Vec<cspace_nav::FloorPoint>>,
    /// A plan made again on the way.
    pub replan: bool,
}

/// A goto agent's state (a hecs component): its goal and graph, the path it follows and how it
/// is doing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Follow {
    /// Where its origin should go; `None` when it has no goto under way.
    pub goal: Option<DVec3>,
    /// The planner's graph for its poses ([`Planner::mesh_index`]); `None` for an agent without
    /// goto.
    pub mesh: Option<usize>,
    plan: Option<Plan>,
    /// Plans made for the current goal.
    plans_made: u32,
    /// Plans in a row since a waypoint was last reached.
    replans: u32,
    /// The nearest the agent came to its steering target since it was set, units, and when.
    best: f64,
    best_step: u64,
    /// In the air since heading for the current waypoint.
    airborne: bool,
    /// Jumped for the current waypoint.
    jumped: bool,
    /// Teleported since heading for the current waypoint.
    teleported: bool,
    /// Its position and velocity at the last steering: a move since then longer than they
    /// allow was a teleport.
    last: Option<(DVec3, DVec3)>,
}

#[derive(Debug, Clone, PartialEq)]
struct Plan {
    waypoints: Vec<Waypoint>,
    /// The waypoint headed for (the start, 0, is where it was planned from).
    next: usize,
    /// Per waypoint: the run-up point of a jump that takes off from it.
    run_up: Vec<Option<DVec3>>,
    /// Per waypoint: what kind of corner it is.
    corners: Vec<Corner>,
}

/// A corner between two walks, as the follower takes it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Corner {
    /// Pulled tight round a wall's end ([`FollowParams::corner_cut`]).
    wall: bool,
    /// The floor beyond it, square to the next leg on the outside of the turn, units: where
    /// the drift outward while turning must stop ([`corners`]; infinite up to a wall).
    room: f64,
}

impl Default for Corner {
    fn default() -> Corner {
        Corner {
            wall: false,
            room: f64::INFINITY,
        }
    }
}

/// The agent's state as steering reads it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AgentNow {
    pub position: DVec3,
    pub velocity: DVec3,
    pub ground: Ground,
    pub pose: Pose,
}

/// What steering shares between agents: the planner and its scratch, the constants, the step.
pub(crate) struct Steer<'a> {
    pub planner: &'a Planner,
    pub ctx: &'a mut NavContext,
    pub params: &'a MoveParams,
    pub follow: &'a FollowParams,
    pub dt: f64,
    pub step: u64,
    pub agent: AgentId,
    /// Events to record for the agent.
    pub events: &'a mut Vec<EventKind>,
    /// Paths planned, for plots.
    pub plans: &'a mut Vec<PlannedPath>,
}

/// Whether the agent keeps to its path.
enum Course {
    On,
    /// Held up near a corner (by other agents, most often): on to the next waypoint.
    Skip,
    /// Off it, or making no progress: plan again.
    Off,
}

/// Whether the waypoint headed for is reached.
enum Reach {
    Yes,
    No,
    /// A drop or jump landed away from its landing.
    Missed,
}

/// The horizontal unit direction of `v`, or zero.
fn flat(v: DVec3) -> DVec3 {
    DVec3::new(v.x, v.y, 0.0).normalize_or_zero()
}

/// The horizontal distance between two points.
fn across(a: DVec3, b: DVec3) -> f64 {
    (a - b).truncate().length()
}

/// The sideways offset of `p` from the line through `origin` along the horizontal unit `u`
/// (positive to the left).
fn sideways(p: DVec3, origin: DVec3, u: DVec3) -> f64 {
    turn(u, p - origin)
}

/// The sine of the turn from horizontal unit `a` to `b` seen from above, positive to the left
/// (for any `b`, its length times that sine: how far it reaches left of `a`).
fn turn(a: DVec3, b: DVec3) -> f64 {
    a.x * b.y - a.y * b.x
}

/// The horizontal unit 90 degrees left of `u`.
fn left_of(u: DVec3) -> DVec3 {
    DVec3::new(-u.y, u.x, 0.0)
}

impl Follow {
    /// A follower for an agent planned by graph `mesh`.
    pub fn new(mesh: Option<usize>) -> Follow {
        Follow {
            mesh,
            ..Follow::default()
        }
    }

    /// Starts a goto towards `goal` (planned at the next steering).
    pub(crate) fn start(&mut self, goal: DVec3) {
        *self = Follow {
            goal: Some(goal),
            ..Follow::new(self.mesh)
        };
    }

    /// Ends any goto (another script event fired).
    pub(crate) fn cancel(&mut self) {
        *self = Follow::new(self.mesh);
    }

    /// True while a goto is under way.
    pub fn active(&self) -> bool {
        self.goal.is_some()
    }

    /// Sets the agent's intent for this step from its path (planning it first, or again, when
    /// needed), and records what happened.
    pub(crate) fn steer(&mut self, now: &AgentNow, s: &mut Steer<'_>, intent: &mut Intent) {
        let Some(goal) = self.goal else { return };
        let on_ground = now.ground.walkable().is_some();
        if !on_ground {
            self.airborne = true;
        }
        intent.jump = false;
        let last = self.last.replace((now.position, now.velocity));
        if let Some((at, velocity)) = last
            && self.plan.is_some()
        {
            let allowed = (velocity.length() + now.velocity.length()) * s.dt;
            if now.position.distance(at) > allowed + s.follow.teleport_margin
                && !self.teleport(now, goal, s)
            {
                stop(intent, now);
                return;
            }
        }
        self.pushed(on_ground);
        if self.plan.is_none() {
            if !on_ground {
                // Plan where it lands; keep wishing what it wished.
                return;
            }
            if !self.plan_from(now, goal, s) || self.plan.is_none() {
                stop(intent, now);
                return;
            }
        }
        // Advance past every waypoint reached.
        loop {
            let plan = self.plan.as_ref().expect("a plan");
            if plan.next >= plan.waypoints.len() {
                s.events.push(EventKind::Arrived { at: now.position });
                self.cancel();
                stop(intent, now);
                return;
            }
            match self.reached(now, s) {
                Reach::Yes => {
                    self.plan.as_mut().expect("a plan").next += 1;
                    self.replans = 0;
                    self.airborne = !on_ground;
                    self.jumped = false;
                    self.teleported = false;
                    self.best = f64::INFINITY;
                    self.best_step = s.step;
                }
                Reach::No => break,
                Reach::Missed => {
                    if !self.replan(now, goal, s) || self.plan.is_none() {
                        stop(intent, now);
                        return;
                    }
                }
            }
        }
        if on_ground {
            match self.off_course(now, s) {
                Course::On => {}
                Course::Skip => {
                    self.plan.as_mut().expect("a plan").next += 1;
                    self.best = f64::INFINITY;
                    self.best_step = s.step;
                }
                Course::Off => {
                    if !self.replan(now, goal, s) {
                        stop(intent, now);
                        return;
                    }
                }
            }
        }
        if self.plan.is_none() {
            stop(intent, now);
            return;
        }
        self.drive(now, s, intent);
    }

    /// The agent was teleported: it goes on from the next teleport of its path (its landing is
    /// then checked as a drop's is), or, with none ahead, plans again where it lands. False
    /// when the goto ended.
    fn teleport(&mut self, now: &AgentNow, goal: DVec3, s: &mut Steer<'_>) -> bool {
        let plan = self.plan.as_mut().expect("a plan");
        let ahead = (plan.next..plan.waypoints.len())
            .find(|&j| plan.waypoints[j].kind == LinkKind::Teleport);
        match ahead {
            Some(j) => {
                plan.next = j;
                self.teleported = true;
                self.airborne = now.ground.walkable().is_none();
                self.jumped = false;
                self.best = f64::INFINITY;
                self.best_step = s.step;
                true
            }
            None => self.replan(now, goal, s),
        }
    }

    /// Off the ground while walking onto a push pad: the pad has it, on to the pad's landing.
    fn pushed(&mut self, on_ground: bool) {
        let Some(plan) = self.plan.as_mut() else {
            return;
        };
        let onto_pad = plan
            .waypoints
            .get(plan.next + 1)
            .is_some_and(|w| w.kind == LinkKind::Push);
        if !on_ground && onto_pad && plan.next > 0 {
            plan.next += 1;
            self.airborne = true;
            self.best = f64::INFINITY;
        }
    }

    /// Plans from where the agent stands; false when the goto ended (recorded).
    fn plan_from(&mut self, now: &AgentNow, goal: DVec3, s: &mut Steer<'_>) -> bool {
        let Some(index) = self.mesh else {
            s.events.push(EventKind::GotoFailed {
                to: goal,
                why: GotoFailure::Unreachable,
            });
            self.cancel();
            return false;
        };
        let mesh = s.planner.mesh(index);
        // Standing where the standing pose is free (the goal is then placed for it first), else
        // crouching.
        let mut planned = mesh.path(now.position, goal, 0, s.ctx);
        if now.pose == Pose::Crouching
            && mesh.poses().len() > 1
            && matches!(
                planned,
                Err(NavError::InSolid {
                    what: Endpoint::Start,
                    ..
                })
            )
        {
            planned = mesh.path(now.position, goal, 1, s.ctx);
        }
        let failure = match planned {
            Ok(Some(path)) => {
                let replan = self.plans_made > 0;
                self.plans_made += 1;
                s.events.push(EventKind::Planned {
                    to: goal,
                    waypoints: path.waypoints.len() as u32,
                    length: path.length(),
                    replan,
                });
                s.plans.push(PlannedPath {
                    step: s.step,
                    agent: s.agent,
                    waypoints: path.waypoints.clone(),
                    floors: mesh.floors_under(&path),
                    replan,
                });
                let run_up = run_ups(&path.waypoints, mesh, s.params, s.follow);
                let corners = corners(&path.waypoints, mesh, s.params, s.follow);
                self.plan = Some(Plan {
                    waypoints: path.waypoints,
                    next: 1,
                    run_up,
                    corners,
                });
                self.best = f64::INFINITY;
                self.best_step = s.step;
                self.airborne = false;
                self.jumped = false;
                self.teleported = false;
                return true;
            }
            Ok(None) => GotoFailure::Unreachable,
            Err(NavError::InSolid {
                what: Endpoint::Start,
                ..
            }) => GotoFailure::StartInSolid,
            Err(NavError::NoGround {
                what: Endpoint::Start,
                ..
            }) => GotoFailure::NoGroundAtStart,
            Err(NavError::InSolid { .. }) => GotoFailure::GoalInSolid,
            Err(NavError::NoGround { .. }) => GotoFailure::NoGroundAtGoal,
            Err(_) => GotoFailure::Unreachable,
        };
        // A failure on the way (standing where the planner finds no floor) is tried again next
        // step, within the replan budget; an unreachable goal or a first plan that fails ends it.
        if self.plans_made > 0
            && failure != GotoFailure::Unreachable
            && self.replans < s.follow.max_replans
        {
            self.replans += 1;
            self.plan = None;
            return true;
        }
        s.events.push(EventKind::GotoFailed {
            to: goal,
            why: failure,
        });
        self.cancel();
        false
    }

    /// Plans again from here (when on the ground); false when the goto ended.
    fn replan(&mut self, now: &AgentNow, goal: DVec3, s: &mut Steer<'_>) -> bool {
        self.replans += 1;
        self.plan = None;
        if self.replans > s.follow.max_replans {
            s.events.push(EventKind::GotoFailed {
                to: goal,
                why: GotoFailure::Stuck,
            });
            self.cancel();
            return false;
        }
        if now.ground.walkable().is_none() {
            return true;
        }
        self.plan_from(now, goal, s)
    }

    /// Whether the waypoint headed for is reached.
    fn reached(&self, now: &AgentNow, s: &Steer<'_>) -> Reach {
        let plan = self.plan.as_ref().expect("a plan");
        let (fp, mp) = (s.follow, s.params);
        let i = plan.next;
        let w = plan.waypoints[i];
        let prev = plan.waypoints[i - 1];
        let on_ground = now.ground.walkable().is_some();
        let level = |at: DVec3| (now.position.z - at.z).abs() <= mp.step_height + 1.0;
        match w.kind {
            LinkKind::Crouch if now.pose == Pose::Crouching => Reach::Yes,
            LinkKind::StandUp if now.pose == Pose::Standing => Reach::Yes,
            LinkKind::Crouch | LinkKind::StandUp => Reach::No,
            // Landed after the flight (or, teleported, on the floor): where planned, or
            // somewhere to plan from.
            LinkKind::Drop | LinkKind::Jump | LinkKind::Push | LinkKind::Teleport => {
                let flown = if w.kind == LinkKind::Teleport {
                    self.teleported
                } else {
                    self.airborne
                };
                if !(on_ground && flown) {
                    Reach::No
                } else if across(now.position, w.position) <= fp.landing_radius && level(w.position)
                {
                    Reach::Yes
                } else {
                    Reach::Missed
                }
            }
            LinkKind::Walk | LinkKind::Step => {
                if !on_ground || !level(w.position) {
                    return Reach::No;
                }
                let Some(after) = plan.waypoints.get(i + 1) else {
                    return if across(now.position, w.position) <= fp.arrival_radius
                        && now.velocity.truncate().length() <= fp.arrival_speed
                    {
                        Reach::Yes
                    } else {
                        Reach::No
                    };
                };
                if matches!(after.kind, LinkKind::Jump | LinkKind::Drop) {
                    // A take-off is reached at its run-up point (or itself), an edge to walk off
                    // at itself, as near as a run-up point: the link's own steering runs from
                    // there (an edge taken at the radius was walked off beside a narrow shaft).
                    let target = plan.run_up[i].unwrap_or(w.position);
                    let u = flat(after.position - w.position);
                    let d = (now.position - target).truncate();
                    let near = d.length() <= fp.run_up_radius;
                    let passed = d.dot(u.truncate()) >= 0.0
                        && sideways(now.position, target, u).abs() <= fp.run_up_radius;
                    return if near || passed {
                        Reach::Yes
                    } else {
                        Reach::No
                    };
                }
                // A crest is reached when passed: the agent slows down for it up to the top. A
                // corner round a wall's end, once the next leg clears the wall.
                let leg = flat(w.position - prev.position);
                if across(now.position, w.position) <= fp.waypoint_radius
                    && self.crest_speed(now, s).is_none()
                    && (!plan.corners[i].wall
                        || inside_corner(now.position, leg, w.position, after) <= fp.corner_cut)
                {
                    return Reach::Yes;
                }
                // Passed: beyond the line through it square to the leg, close to it.
                let d = (now.position - w.position).truncate();
                if leg != DVec3::ZERO
                    && d.dot(leg.truncate()) >= 0.0
                    && sideways(now.position, w.position, leg).abs() <= 2.0 * fp.waypoint_radius
                {
                    return Reach::Yes;
                }
                Reach::No
            }
        }
    }

    /// Where the agent steers now, on the ground: the waypoint, a take-off's run-up point, or,
    /// before a teleport or a push, the point in the volume it walks into.
    fn target(&self) -> DVec3 {
        let plan = self.plan.as_ref().expect("a plan");
        let w = plan.waypoints[plan.next];
        if matches!(w.kind, LinkKind::Teleport | LinkKind::Push) {
            return plan.waypoints[plan.next - 1].position;
        }
        match plan.waypoints.get(plan.next + 1) {
            Some(after) if after.kind == LinkKind::Jump && w.kind != LinkKind::Jump => {
                plan.run_up[plan.next].unwrap_or(w.position)
            }
            _ => w.position,
        }
    }

    /// Whether the agent, on the ground, keeps to its path: far from its leg or below it, it is
    /// off; making no progress it is off too, unless it is held up within twice the waypoint
    /// radius of a corner whose next leg it can walk (a walk or step waypoint before a walk, a
    /// step or a pose change): then it goes on to the next waypoint, which unties agents that
    /// crowd one corner (every one waiting for the others to leave it).
    fn off_course(&mut self, now: &AgentNow, s: &Steer<'_>) -> Course {
        let plan = self.plan.as_ref().expect("a plan");
        let (fp, mp) = (s.follow, s.params);
        let w = plan.waypoints[plan.next];
        let prev = plan.waypoints[plan.next - 1];
        let target = self.target();
        let p = now.position;
        let strayed = match w.kind {
            LinkKind::Walk | LinkKind::Step => {
                let below = p.z < prev.position.z.min(w.position.z) - 2.0 * mp.step_height;
                below || distance_to_leg(p, prev.position, target) > fp.stray_distance
            }
            // Before the edge or the take-off: kept near the link's line.
            LinkKind::Drop | LinkKind::Jump if !self.airborne => {
                let u = flat(w.position - prev.position);
                sideways(p, prev.position, u).abs() > fp.stray_distance
            }
            _ => false,
        };
        if strayed {
            return Course::Off;
        }
        let d = across(p, target);
        if d < self.best - 1.0 {
            self.best = d;
            self.best_step = s.step;
            return Course::On;
        }
        // A door on the way may hold it up while it opens.
        if (s.step - self.best_step) as f64 * s.dt <= fp.stall_seconds + w.wait {
            return Course::On;
        }
        let corner = matches!(w.kind, LinkKind::Walk | LinkKind::Step)
            && plan.waypoints.get(plan.next + 1).is_some_and(|after| {
                matches!(
                    after.kind,
                    LinkKind::Walk | LinkKind::Step | LinkKind::Crouch | LinkKind::StandUp
                )
            });
        if corner && d <= 2.0 * fp.waypoint_radius {
            Course::Skip
        } else {
            Course::Off
        }
    }

    /// How fast the walk waypoint headed for may be crossed when it is a crest (the floor falls
    /// away beyond it, `cspace_nav::NavParams::crest_bend`), on the ground: an agent whose
    /// floor's slope (rise per unit across) falls by `bend` leaves the ground there with its
    /// horizontal speed `v` and flies `2 v^2 bend / g` across before it meets the floor again.
    /// It should land within [`FollowParams::crest_landing`] of the next leg (at least
    /// [`FollowParams::arrival_radius`]): no faster than `sqrt(g L / (2 bend))`. `None` where
    /// the floor does not fall away.
    fn crest_speed(&self, now: &AgentNow, s: &Steer<'_>) -> Option<f64> {
        let plan = self.plan.as_ref()?;
        let w = plan.waypoints[plan.next];
        let after = plan.waypoints.get(plan.next + 1)?;
        let here = now.ground.walkable()?;
        if w.kind != LinkKind::Walk || !matches!(after.kind, LinkKind::Walk | LinkKind::Step) {
            return None;
        }
        let mesh = s.planner.mesh(self.mesh?);
        let beyond = mesh.areas()[w.area as usize].polygon.plane.normal();
        let bend = rise_along(here, w.position - now.position)
            - rise_along(beyond, after.position - w.position);
        if bend <= 0.0 {
            return None;
        }
        let (fp, mp) = (s.follow, s.params);
        let landing =
            (fp.crest_landing * across(w.position, after.position)).max(fp.arrival_radius);
        Some((mp.gravity * landing / (2.0 * bend)).sqrt())
    }

    /// Sets the intent towards the waypoint headed for.
    fn drive(&mut self, now: &AgentNow, s: &Steer<'_>, intent: &mut Intent) {
        let plan = self.plan.as_ref().expect("a plan");
        let (fp, mp) = (s.follow, s.params);
        let i = plan.next;
        let w = plan.waypoints[i];
        let prev = plan.waypoints[i - 1];
        let p = now.position;
        let on_ground = now.ground.walkable().is_some();
        intent.crouch = w.pose != 0;
        let scale = if now.pose == Pose::Crouching {
            mp.crouch_speed_scale
        } else {
            1.0
        };
        let top = mp.walk_speed * scale;
        let braking = fp.braking_share * mp.accelerate * top;
        let wanted = match w.kind {
            // Changing pose where the planner said (standing up only fits there): on to the
            // point, stopping on it.
            LinkKind::Crouch | LinkKind::StandUp => {
                let d = across(p, w.position);
                flat(w.position - p) * top.min((2.0 * braking * d).sqrt())
            }
            // Into the volume (at its point, where it waits for the teleporter or the pad); in
            // the air, no wish: the pad's arc is the planner's, and air control would bend it.
            LinkKind::Teleport | LinkKind::Push => {
                if !on_ground {
                    intent.direction = DVec3::ZERO;
                    intent.speed = 0.0;
                    return;
                }
                let d = across(p, prev.position);
                flat(prev.position - p) * top.min((2.0 * braking * d).sqrt())
            }
            LinkKind::Jump => {
                let u = flat(w.position - prev.position);
                if !on_ground || self.jumped {
                    // In the air: keep running at the landing.
                    intent.direction = flat(w.position - p);
                    intent.speed = mp.walk_speed;
                    return;
                }
                let along = (p - prev.position).truncate().dot(u.truncate());
                // The speed along the jump, and the pull back onto its line.
                let ahead = now.velocity.truncate().dot(u.truncate()).max(0.0);
                let side = sideways(p, prev.position, u);
                let pull = left_of(u) * (side * fp.lateral_gain).clamp(-0.5 * top, 0.5 * top);
                // A jump onto a ledge against the riser (landing within the waypoint radius
                // seen from above): not while still sliding sideways from the leg before (it
                // flew along the riser and missed a narrow ledge).
                let ledge = across(prev.position, w.position) <= fp.waypoint_radius;
                if along < -(ahead * s.dt + 1.0) {
                    u * top - pull
                } else if ledge && turn(u, now.velocity).abs() > fp.take_off_slide {
                    u * ahead - pull
                } else {
                    intent.jump = true;
                    intent.direction = u;
                    intent.speed = mp.walk_speed;
                    self.jumped = true;
                    return;
                }
            }
            LinkKind::Drop => {
                // Air control is the pose's (`PM_AirMove` accelerates by the crouched wish
                // speed): the edge is walked off no faster than the fall can stop over the
                // landing, a few units past it (a crouching agent's 40 units/s crossed a narrow
                // shaft and stepped out onto its far side).
                let air = mp.air_accelerate * top;
                if on_ground {
                    let u = flat(w.position - prev.position);
                    let past = across(prev.position, w.position).max(1.0);
                    let slow = fp.drop_speed.min(top).min((2.0 * air * past).sqrt());
                    let side = sideways(p, prev.position, u);
                    u * slow - left_of(u) * (side * fp.lateral_gain).clamp(-slow, slow)
                } else {
                    let d = across(p, w.position);
                    flat(w.position - p) * fp.drop_speed.min((2.0 * air * d).sqrt())
                }
            }
            LinkKind::Walk | LinkKind::Step => {
                let target = self.target();
                let to = flat(target - p);
                let (mut arrive, mut decel) = pass_speed(plan, i, to, top, mp, fp);
                // The stops just beyond, as far as a few walks reach (the goal, standing up,
                // walking off an edge): no faster here than braking for them allows (a goal
                // right behind a waypoint was overshot, off a cliff). Corners beyond are left
                // to their own waypoint: braking for them too made the tight turns late.
                let mut ahead = 0.0;
                for j in i + 1..plan.waypoints.len().min(i + 1 + LOOK_AHEAD) {
                    let (a, b) = (plan.waypoints[j - 1], plan.waypoints[j]);
                    if !matches!(b.kind, LinkKind::Walk | LinkKind::Step) {
                        break;
                    }
                    ahead += across(a.position, b.position);
                    let stop = plan.waypoints.get(j + 1).map(|w| w.kind);
                    if !matches!(stop, None | Some(LinkKind::StandUp | LinkKind::Drop)) {
                        continue;
                    }
                    let way = flat(b.position - a.position);
                    let (v, brake) = pass_speed(plan, j, way, top, mp, fp);
                    let allowed = (v * v + 2.0 * brake * ahead).sqrt();
                    if allowed < arrive {
                        (arrive, decel) = (allowed, brake);
                    }
                }
                let d = across(p, target);
                // Over a crest, braked for as for an edge.
                let (arrive, decel) = match self.crest_speed(now, s) {
                    Some(v) if v < arrive => (v, braking),
                    _ => (arrive, decel),
                };
                let mesh = s.planner.mesh(self.mesh.expect("a goto agent's graph"));
                // Steep ground is walked at the pace the planner counted on there.
                let np = mesh.params();
                let steep = now.ground.walkable().is_some_and(|n| n.z < np.steep_normal);
                let top = if steep {
                    top * np.steep_speed_share
                } else {
                    top
                };
                let speed = top.min((arrive * arrive + 2.0 * decel * d).sqrt());
                // Along the leg's line (the corridor pulled tight), pulled back onto it; near
                // the waypoint, straight at it.
                let leg = flat(target - prev.position);
                if leg == DVec3::ZERO || d <= 2.0 * fp.waypoint_radius {
                    to * speed
                } else {
                    let side = sideways(p, prev.position, leg);
                    let pull = (side * fp.lateral_gain).clamp(-0.5 * speed, 0.5 * speed);
                    let along = (speed * speed - pull * pull).sqrt();
                    leg * along - left_of(leg) * pull
                }
            }
        };
        let (direction, speed) = wish_for(wanted, now, mp, s.dt, scale);
        intent.direction = direction;
        intent.speed = speed;
    }
}

/// How many waypoints beyond the one headed for the speed control looks at: 3.
const LOOK_AHEAD: usize = 3;

/// The speed at which walk or step waypoint `i`, come to along the horizontal unit `to`, may be
/// passed, and the braking to slow down for it (units/s, units/s^2): stopping at the goal or
/// where the agent stands up, slowly off an edge, through a corner at [`corner`]'s share and no
/// faster than its sideways speed after the turn, `v sin(turn)`, stops within the floor beyond
/// it ([`Corner::room`]) at the corner braking.
fn pass_speed(
    plan: &Plan,
    i: usize,
    to: DVec3,
    top: f64,
    mp: &MoveParams,
    fp: &FollowParams,
) -> (f64, f64) {
    let braking = fp.braking_share * mp.accelerate * top;
    let corner_braking = fp.corner_braking_share * mp.accelerate * top;
    let w = plan.waypoints[i];
    match plan.waypoints.get(i + 1) {
        None => (0.0, braking),
        Some(after) => match after.kind {
            LinkKind::Drop => (fp.drop_speed.min(top), braking),
            LinkKind::Crouch => (top, braking),
            LinkKind::StandUp => (0.0, braking),
            // Into the volume: the teleporter or the pad takes over wherever it is touched.
            LinkKind::Teleport | LinkKind::Push => (top, braking),
            LinkKind::Jump | LinkKind::Walk | LinkKind::Step => {
                let next = flat(after.position - w.position);
                let share = corner(to, next, fp);
                let sine = if to.dot(next) < 0.0 {
                    1.0
                } else {
                    turn(to, next).abs()
                };
                let room = (2.0 * corner_braking * plan.corners[i].room).sqrt() / sine;
                ((top * share).min(room), corner_braking)
            }
        },
    }
}

/// The speed share a corner from direction `a` to direction `b` is taken at: the square of the
/// cosine of half the turn (a right angle at half speed, where the sideways drift while turning
/// is a few units), at least [`FollowParams::corner_speed_share`].
fn corner(a: DVec3, b: DVec3, fp: &FollowParams) -> f64 {
    if a == DVec3::ZERO || b == DVec3::ZERO {
        return 1.0;
    }
    (0.5 * (1.0 + a.dot(b))).clamp(fp.corner_speed_share, 1.0)
}

/// How far `p` is on the inside of the corner at `w` (come to along the horizontal unit `leg`)
/// from the line of the leg on to `after`. Zero or less on the outside, and where the path goes
/// on straight.
fn inside_corner(p: DVec3, leg: DVec3, w: DVec3, after: &Waypoint) -> f64 {
    let next = flat(after.position - w);
    // Positive for a turn to the left, whose inside is on the left.
    let left = turn(leg, next);
    if left == 0.0 {
        return 0.0;
    }
    sideways(p, w, next) * left.signum()
}

/// The farthest the floor beyond a corner is probed, units: 32 (a right angle at Quake's walk
/// speed stops its sideways drift within 32 units at the corner braking, 1,600 units/s^2).
const ROOM_PROBE: f64 = 32.0;

/// For each waypoint at a corner between two walks or steps (the others get the default), in
/// the pose's configuration space:
/// - whether the path was pulled tight round a wall's end: solid [`FollowParams::wall_probe`]
///   inside it along the bisector of the turn;
/// - the floor beyond it: probed square to the next leg on the outside, 1, 2, 4 ... 32 units
///   out, up to the first point with no floor within a step below it (a wall, solid, ends the
///   probe with room to spare: drifting into it only slows the agent).
fn corners(
    waypoints: &[Waypoint],
    mesh: &cspace_nav::NavMesh,
    mp: &MoveParams,
    fp: &FollowParams,
) -> Vec<Corner> {
    let walk = |w: &Waypoint| matches!(w.kind, LinkKind::Walk | LinkKind::Step);
    let mut out = vec![Corner::default(); waypoints.len()];
    for (i, three) in waypoints.windows(3).enumerate() {
        let [prev, w, after] = three else { continue };
        let Some(space) = mesh.leaf_graph(w.pose) else {
            continue;
        };
        let (leg, next) = (
            flat(w.position - prev.position),
            flat(after.position - w.position),
        );
        let left = turn(leg, next);
        if !(walk(w) && walk(after)) || left == 0.0 {
            continue;
        }
        let inward = (next - leg).normalize_or_zero();
        let outward = -left_of(next) * left.signum();
        let mut room = f64::INFINITY;
        let mut probe = 1.0;
        while probe <= ROOM_PROBE {
            let q = w.position + outward * probe;
            if space.is_solid(q) {
                break;
            }
            if !space.is_solid(q - DVec3::Z * mp.step_height) {
                room = 0.5 * probe;
                break;
            }
            probe *= 2.0;
        }
        out[i + 1] = Corner {
            wall: space.is_solid(w.position + inward * fp.wall_probe),
            room,
        };
    }
    out
}

/// The horizontal distance from `p` to the segment `a`..`b`.
fn distance_to_leg(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    let (p, a, b) = (p.truncate(), a.truncate(), b.truncate());
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 {
        ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + ab * t)).length()
}

/// No wish: the agent stops (keeping its pose, so it does not try to stand where it cannot).
fn stop(intent: &mut Intent, now: &AgentNow) {
    intent.direction = DVec3::ZERO;
    intent.speed = 0.0;
    intent.jump = false;
    intent.crouch = now.pose == Pose::Crouching;
}

/// The wished direction and speed (the intent's; at most the pose's top speed, `scale` of the
/// walk speed, which is what a crouched agent wishes on the ground at most) that turn the
/// agent's horizontal velocity into `wanted` in one step of `dt`, as far as the movement model
/// allows: friction first (on the ground, `PM_Friction`), then `PM_Accelerate`, which adds along
/// the wish at most `accel * dt * wish_speed`, and only up to `wish_speed` along it. With the
/// difference `m` between the wanted and the predicted velocity along the unit `d`, and the
/// predicted speed `c` along `d`, the wish `max(m / (accel dt), m + c)` adds exactly `m`.
fn wish_for(wanted: DVec3, now: &AgentNow, mp: &MoveParams, dt: f64, scale: f64) -> (DVec3, f64) {
    let top = mp.walk_speed * scale;
    let v = DVec3::new(now.velocity.x, now.velocity.y, 0.0);
    let on_ground = now.ground.walkable().is_some();
    let (predicted, accel) = if on_ground {
        let speed = v.length();
        let after = if speed < 1.0 {
            DVec3::ZERO
        } else {
            let drop = speed.max(mp.stop_speed) * mp.friction * dt;
            v * ((speed - drop).max(0.0) / speed)
        };
        (after, mp.accelerate)
    } else {
        (v, mp.air_accelerate)
    };
    let delta = wanted - predicted;
    let m = delta.length();
    let Some(d) = delta.try_normalize() else {
        return (flat(wanted), wanted.length().min(top));
    };
    let c = predicted.dot(d);
    let wish = (m / (accel * dt)).max(m + c).clamp(0.0, top);
    (d, wish)
}

/// For each waypoint a jump takes off from (a standing take-off over a gap, not onto a ledge):
/// the farthest point behind it along the jump, at most [`FollowParams::run_up`] back, on its
/// area's floor (convex: the run along it is on the floor), trying 48, 40, ... 8 units.
fn run_ups(
    waypoints: &[Waypoint],
    mesh: &cspace_nav::NavMesh,
    mp: &MoveParams,
    fp: &FollowParams,
) -> Vec<Option<DVec3>> {
    let mut out = vec![None; waypoints.len()];
    for (i, pair) in waypoints.windows(2).enumerate() {
        let (t, l) = (pair[0], pair[1]);
        if l.kind != LinkKind::Jump || l.position.z - t.position.z > mp.step_height {
            continue;
        }
        let u = flat(l.position - t.position);
        let area = &mesh.areas()[t.area as usize];
        let mut back = fp.run_up;
        while back >= fp.run_up_radius {
            let r = t.position - u * back;
            if area.contains_xy(r, 0.0) {
                out[i] = Some(
                    area.on_floor(r) + DVec3::Z * (t.position.z - area.on_floor(t.position).z),
                );
                break;
            }
            back -= 8.0;
        }
    }
    out
}
