//! The triggers' pass of the living world's step (issue 32, `docs/entities.md` "Triggers",
//! "Teleporters", "Push pads"): after the movers, every trigger in its order tests every agent
//! in id order, and acts on those it touches.
//!
//! - **Contact** follows each game's test. Quake 1 (`SV_TouchLinks`, `world.c`): the agent's
//!   bounds and the trigger's, each grown by 1 unit (`SV_LinkEdict`), meet. Quake III
//!   (`G_TouchTriggers`, `g_active.c`): candidates by bounds (the trigger's grown by 1, as
//!   `SV_LinkEntity` links it; Quake III takes a fixed range of 40, 40, 52 around the origin,
//!   which holds its player box, where we take the agent's own bounds, so a large agent is not
//!   cut short), then `trap_EntityContact` (`SV_EntityContact`, `sv_game.c`): the agent's box
//!   against the trigger's brushes exactly (`CM_TransformedBoxTrace` of a zero-length move, its
//!   `startsolid`, which `CM_TestBoxInBrush` sets unless the origin is strictly in front of a
//!   plane of the brush pushed out by the box: touching counts). Generated fields have no
//!   brushes: their box is tested closed against the agent's (`CM_TempBoxModel`). A button's
//!   surface is pressed by an impact in Quake III (`Touch_Button` from the move), which an
//!   agent pressed against it only touches: it is tested as Quake 1's, grown by 1. Spheres and
//!   cylinders (which Quake has not) are tested with the exact reference's point query on the
//!   trigger's brushes (deeper than [`CONTACT`](cspace_geom::tolerance::CONTACT) inside). The
//!   test never goes through the run's backend: every backend gives the same answer.
//! - **Teleporters**: Quake 1 `teleport_touch` (`triggers.qc`), Quake III
//!   `trigger_teleporter_touch` and `TeleportPlayer` (`g_trigger.c`, `g_misc.c`).
//! - **Push pads**: Quake 1 `trigger_push_touch` (`triggers.qc`) and `SV_CheckVelocity`
//!   (`sv_phys.c`), Quake III `trigger_push_touch` and `BG_TouchJumpPad` (`g_trigger.c`,
//!   `bg_misc.c`).
//! - **Hurt**: Quake 1 `hurt_touch` (`triggers.qc`), Quake III `hurt_touch` (`g_trigger.c`):
//!   events only.

use std::sync::Arc;

use cspace_entities::rules::{self, QUAKE1_TOUCH_REACH};
use cspace_entities::{Dialect, Entities, Machinery, Push, Trigger, TriggerKind, Used};
use cspace_geom::expand::box_expanded_planes_iter;
use cspace_geom::generate::Rng;
use cspace_geom::{Aabb, Collider, DVec3, ExactCollider, Prepared, QueryContext, Shape, World};

use crate::agent::{AgentId, Ground, Pose, PoseSet, Position, Rest, Velocity};
use crate::intent::{Intent, View};
use crate::movement::MoveTimer;
use crate::record::EventKind;

use super::super::Sim;

/// How long a Quake III hurt volume waits between hits, seconds: `hurt_touch` sets `timestamp =
/// level.time + FRAMETIME` (`g_trigger.c`), or a second with its `SLOW` flag
/// ([`QUAKE3_SLOW_HURT_REPEAT`]).
const QUAKE3_HURT_REPEAT: f64 = rules::QUAKE3_FRAMETIME;
/// How long a Quake III hurt volume with the `SLOW` flag (16) waits between hits, seconds:
/// `timestamp = level.time + 1000` (`hurt_touch`).
const QUAKE3_SLOW_HURT_REPEAT: f64 = 1.0;
/// How long a Quake 1 hurt volume is off after a hit, seconds: `hurt_touch` makes it
/// `SOLID_NOT` and `hurt_on` restores it a second later (`triggers.qc`).
const QUAKE1_HURT_REPEAT: f64 = 1.0;

/// The triggers' own state: what the movers' clock does not keep.
pub(crate) struct TriggerState {
    /// Per trigger: used up (a Quake 1 `PUSH_ONCE` push pad, removed after its push).
    gone: Vec<bool>,
    /// Per trigger: the time from which a hurt volume hits again.
    hurt_ready: Vec<f64>,
    /// Per trigger: unlinked, touching nothing (a Quake III hurt volume `START_OFF`, or turned
    /// off by a use: `hurt_use` toggles it).
    unlinked: Vec<bool>,
    /// The rules the triggers were read with.
    dialect: Dialect,
    /// Per trigger: the clock's time at which a Quake 1 teleporter with a `targetname` stops
    /// working (`teleport_use`'s `nextthink`; never fired: -infinity).
    armed_until: Vec<f64>,
    /// Per trigger: the exact reference over its brushes, for shapes other than boxes in
    /// Quake III's test (`None` without brushes, or in Quake 1).
    exact: Vec<Option<ExactCollider>>,
    /// Per agent id: the triggers it touched at the last step, ascending.
    touching: Vec<Vec<u32>>,
    /// Per trigger, a jump pad's push aimed at the apex picked when the world starts (`None`
    /// for every other trigger: its own kind says what it does).
    aimed: Vec<Option<Push>>,
    /// Per `target_push`, what it sets: aimed at the apex picked when the world starts, or its
    /// fixed velocity; `None` when the pick freed it.
    target_pushes: Vec<Option<Push>>,
    queries: QueryContext,
}

impl TriggerState {
    /// The triggers of `triggers`, read with `dialect`'s rules, none used yet; the jump pads
    /// aimed with `rng`, the run's generator (the movers' clock's, [`Machinery::rng`], seeded
    /// by [`crate::SimConfig::seed`]), before anything else draws from it.
    pub(crate) fn new(entities: &Entities, rng: &mut Rng) -> TriggerState {
        let (dialect, triggers) = (entities.dialect, &entities.triggers);
        let exact = triggers
            .iter()
            .map(|t| {
                (dialect == Dialect::Quake3 && !t.brushes.is_empty()).then(|| {
                    ExactCollider::new(Arc::new(World::from_brushes(t.brushes.iter().cloned())))
                })
            })
            .collect();
        let mut state = TriggerState {
            gone: vec![false; triggers.len()],
            hurt_ready: vec![0.0; triggers.len()],
            unlinked: triggers
                .iter()
                .map(|t| {
                    matches!(
                        t.kind,
                        TriggerKind::Hurt {
                            start_off: true,
                            ..
                        }
                    )
                })
                .collect(),
            dialect,
            armed_until: vec![f64::NEG_INFINITY; triggers.len()],
            exact,
            touching: Vec::new(),
            aimed: vec![None; triggers.len()],
            target_pushes: entities
                .target_pushes
                .iter()
                .map(|p| Some(p.push))
                .collect(),
            queries: QueryContext::new(),
        };
        state.aim(entities, rng);
        state
    }

    /// Quake III's `AimAtTarget` (`g_trigger.c`), the think every jump pad and aimed
    /// `target_push` runs once, one `FRAMETIME` after the map spawns, in entity order (one frame's
    /// thinks, `G_RunFrame`): each picks its apex among the points of its target's name with
    /// `G_PickTarget` (`rand() % num_choices`, a draw even for one choice), here from the
    /// simulation's generator, before any teleporter draws from it. A pick that is not above the
    /// pad frees it (`!time`; not a number: freed too, never a velocity).
    fn aim(&mut self, entities: &Entities, rng: &mut Rng) {
        /// One `AimAtTarget` think: whose, from where, among which apexes.
        struct Aim<'e> {
            entity: u32,
            /// A jump pad (an index of the triggers) or a `target_push` (of the target pushes).
            pad: Result<usize, usize>,
            from: DVec3,
            apexes: &'e [DVec3],
        }
        let mut aims: Vec<Aim> = Vec::new();
        for (k, t) in entities.triggers.iter().enumerate() {
            if let TriggerKind::Push(Push::Apex { from, .. }) = t.kind {
                aims.push(Aim {
                    entity: t.entity,
                    pad: Ok(k),
                    from,
                    apexes: &t.apexes,
                });
            }
        }
        for (p, t) in entities.target_pushes.iter().enumerate() {
            if let Push::Apex { from, .. } = t.push {
                aims.push(Aim {
                    entity: t.entity,
                    pad: Err(p),
                    from,
                    apexes: &t.apexes,
                });
            }
        }
        aims.sort_by_key(|a| a.entity);
        for aim in aims {
            if aim.apexes.is_empty() {
                continue;
            }
            let apex = aim.apexes[rng.below(aim.apexes.len())];
            let push = Push::Apex {
                from: aim.from,
                apex,
            };
            let freed = push.velocity(1.0).is_none();
            match aim.pad {
                Ok(k) => {
                    self.aimed[k] = Some(push);
                    self.gone[k] |= freed;
                }
                Err(p) => self.target_pushes[p] = (!freed).then_some(push),
            }
        }
    }

    /// Acts on the named entities the movers' clock used since it was last asked
    /// ([`Machinery::drain_uses`]), at the clock's time `now`. A `target_push` becomes an act
    /// for the pass to apply with the others (`Use_target_push`, `g_trigger.c`): its activator's
    /// velocity becomes the push's (`AimAtTarget`'s with the run's `gravity`, or `speed` along
    /// its angles), wherever the activator now is; without an agent activator (none, or one
    /// despawned) nothing is pushed (`if (!activator->client) return;`), nor by a push its aim
    /// freed.
    fn take_uses(&mut self, machinery: &mut Machinery, pass: &Pass, acts: &mut Vec<Acting>) {
        let Pass {
            triggers,
            now,
            entities,
            gravity,
        } = *pass;
        for used in machinery.drain_uses() {
            match used.used {
                Used::Push(p) => {
                    let agent = used.activator.and_then(|agent| {
                        let entity = (*entities.get(agent as usize)?)?;
                        Some((AgentId(agent), entity))
                    });
                    let velocity = self.target_pushes[p].and_then(|push| push.velocity(gravity));
                    if let (Some((id, entity)), Some(velocity)) = (agent, velocity) {
                        let push = p as u32;
                        acts.push((id, entity, Act::TargetPush { push, velocity }));
                    }
                }
                // teleport_use (triggers.qc): `nextthink = time + 0.2`, and `force_retouch = 2`
                // so that what already stands in it is touched again; every agent in a trigger
                // is tested at every step here, so it is.
                Used::Trigger(k) => match triggers[k].kind {
                    TriggerKind::Teleport {
                        needs_firing: true, ..
                    } => self.armed_until[k] = now + rules::QUAKE1_TELEPORT_ARMED,
                    // hurt_use (Quake III): "Targeting the trigger will toggle its on / off
                    // state" (trap_UnlinkEntity / trap_LinkEntity). Quake 1's has no use.
                    TriggerKind::Hurt { .. } if self.dialect == Dialect::Quake3 => {
                        self.unlinked[k] = !self.unlinked[k];
                    }
                    _ => {}
                },
            }
        }
    }

    /// True when a Quake 1 teleporter with a `targetname` works at the clock's time `now`:
    /// `teleport_touch` returns while `self.nextthink < time`. Quake 1 runs the players' touches
    /// before the teleporter's think in a frame (entities in number order, players first), with
    /// `time` the frame's start, and the think clears `nextthink` in the frame that reaches it
    /// (`SV_RunThink`, `sv_phys.c`: `nextthink <= sv.time + host_frametime`); with the clock's
    /// time the frame's end, both say: it works in the steps strictly before `nextthink`.
    fn armed(&self, k: usize, now: f64) -> bool {
        now < self.armed_until[k]
    }

    /// True when an agent of `shape` at `position` touches trigger `k` (`trigger`, whose
    /// bounds are `bounds` where it is now), by `dialect`'s test (the module's doc).
    fn touches(
        &mut self,
        dialect: Dialect,
        k: usize,
        trigger: &Trigger,
        bounds: &Aabb,
        shape: &Shape,
        position: DVec3,
    ) -> bool {
        let agent = shape.bounds().translated(position);
        let impact = matches!(trigger.kind, TriggerKind::ButtonTouch { .. });
        if dialect == Dialect::Quake1 || impact {
            return agent
                .loosened(QUAKE1_TOUCH_REACH)
                .intersects(&bounds.loosened(QUAKE1_TOUCH_REACH));
        }
        if !agent.intersects(&bounds.loosened(QUAKE1_TOUCH_REACH)) {
            return false;
        }
        if trigger.brushes.is_empty() {
            return agent.intersects(bounds);
        }
        match (shape, &self.exact[k]) {
            (Shape::Box(b), _) => quake3_box_contact(&trigger.brushes, b, position),
            (_, Some(exact)) => exact
                .prepare(shape)
                .is_ok_and(|p| exact.is_solid(&mut self.queries, &p, position)),
            (_, None) => false,
        }
    }
}

/// Quake III's `CM_TestBoxInBrush` on each of `brushes`: the box at `position` is in contact
/// with a brush unless its origin is strictly in front of a plane of the brush pushed out by the
/// box (its faces and bevels: the exact Minkowski sum, closed).
pub(crate) fn quake3_box_contact(
    brushes: &[cspace_geom::Brush],
    shape: &cspace_geom::BoxShape,
    position: DVec3,
) -> bool {
    brushes.iter().any(|brush| {
        box_expanded_planes_iter(brush, shape).all(|p| p.signed_distance(position) <= 0.0)
    })
}

/// True unless `kind` is a Quake 1 one-way trigger the agent looking along `view` does not face:
/// `multi_touch` (`triggers.qc`) returns when `v_forward * self.movedir < 0`, `v_forward` from
/// `makevectors (other.angles)`, the player's angles its view's yaw and a third of its pitch
/// turned over (`SV_ClientThink`, [`rules::quake1_body_forward`]). Facing across it (a product of
/// 0) sets it off.
fn faces(kind: &TriggerKind, view: View) -> bool {
    match kind {
        TriggerKind::Fire {
            facing: Some(movedir),
            ..
        } => rules::quake1_body_forward(view.yaw, view.pitch).dot(*movedir) >= 0.0,
        _ => true,
    }
}

/// What the triggers' pass knows of the step, for the uses it acts on.
#[derive(Clone, Copy)]
struct Pass<'a> {
    triggers: &'a [Trigger],
    /// The clock's time.
    now: f64,
    /// Per agent id, its entity (`None` once despawned).
    entities: &'a [Option<hecs::Entity>],
    gravity: f64,
}

/// An act of the pass on an agent (its id and entity), applied once every trigger was tested.
type Acting = (AgentId, hecs::Entity, Act);

/// One agent as the triggers see it.
struct Toucher {
    id: AgentId,
    entity: hecs::Entity,
    shape: Prepared,
    position: DVec3,
    /// Where it looks (Quake 1's one-way triggers read its facing).
    view: View,
}

/// What a trigger does to an agent, applied once every trigger has been tested.
enum Act {
    /// A push pad sets the velocity (and lifts the agent off the ground when it points up).
    Push(DVec3),
    /// A `target_push` (an index of the entities' `target_pushes`) sets the activator's
    /// velocity, as a push pad does, with an event.
    TargetPush { push: u32, velocity: DVec3 },
    /// Teleporter `trigger` puts the agent, which was at `from`, at `to` with `velocity`,
    /// looking along `view`.
    Teleport {
        trigger: u32,
        from: DVec3,
        to: DVec3,
        velocity: DVec3,
        view: View,
    },
}

impl Sim {
    /// The triggers' pass: every trigger in order, every agent in id order; the movers' clock
    /// hears of every trigger touched ([`cspace_entities::Machinery::touch`], once a step), and
    /// teleporters, push pads and hurt volumes act here.
    pub(super) fn run_triggers(&mut self) {
        let step = self.step;
        let gravity = self.params.gravity;
        let Some(living) = self.living.as_mut() else {
            return;
        };
        let entities = living.entities.clone();
        let dialect = entities.dialect;
        let now = living.machinery.time();
        // Where each trigger is now, grown by the touch reach (every dialect's touch needs the
        // agent's reach to meet it).
        let meets: Vec<Aabb> = entities
            .triggers
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let bounds = match t.follows {
                    Some(m) => {
                        let at = t.bounds.translated(living.scene.offset(m));
                        living
                            .trigger_grid
                            .placed(k, &at.loosened(QUAKE1_TOUCH_REACH));
                        at
                    }
                    None => t.bounds,
                };
                bounds.loosened(QUAKE1_TOUCH_REACH)
            })
            .collect();
        // The agents that may touch a trigger (their bounds grown by the touch reach meet it),
        // found through the triggers' grid, and per trigger those agents in id order; an agent
        // near none touches none.
        let mut agents: Vec<Toucher> = Vec::new();
        let mut near: Vec<Vec<usize>> = vec![Vec::new(); entities.triggers.len()];
        // Only the agents near some trigger are read (`ranks_near`); of the others, those that
        // touched something last step touch nothing now, as the loop below would find.
        let near_ranks = super::ranks_near(
            (!self.filters_stale).then_some(&mut self.filters),
            self.live.len(),
            meets.iter().map(|m| m.loosened(QUAKE1_TOUCH_REACH)),
        );
        if near_ranks.len() < self.live.len() {
            let mut next = near_ranks.iter().copied().peekable();
            for (rank, &id) in self.live.iter().enumerate() {
                if next.next_if_eq(&(rank as u32)).is_some() {
                    continue;
                }
                let Some(touching) = living.triggers.touching.get_mut(id.0 as usize) else {
                    continue;
                };
                if touching.is_empty() {
                    continue;
                }
                let entity = self.agents[id.0 as usize].expect("a live agent");
                let left = self
                    .world
                    .get::<&Rest>(entity)
                    .expect("agents have every component")
                    .left_world;
                if !left {
                    touching.clear();
                }
            }
        }
        let mut view = self
            .world
            .view::<(&PoseSet, &Pose, &Position, &Rest, &Intent)>();
        for rank in near_ranks {
            let id = self.live[rank as usize];
            let entity = self.agents[id.0 as usize].expect("a live agent");
            let (poses, pose, position, rest, intent) =
                view.get_mut(entity).expect("agents have every component");
            if rest.left_world {
                continue;
            }
            let shape = poses.get(*pose);
            let reach = shape
                .shape()
                .bounds()
                .translated(position.0)
                .loosened(QUAKE1_TOUCH_REACH);
            let i = agents.len();
            let mut any = false;
            living.trigger_grid.candidates(&reach, |k| {
                if reach.intersects(&meets[k]) {
                    near[k].push(i);
                    any = true;
                }
                true
            });
            if any {
                agents.push(Toucher {
                    id,
                    entity,
                    shape: shape.clone(),
                    position: position.0,
                    view: intent.view,
                });
            } else if let Some(touching) = living.triggers.touching.get_mut(id.0 as usize) {
                touching.clear();
            }
        }
        drop(view);
        let mut touched: Vec<Vec<u32>> = vec![Vec::new(); agents.len()];
        let mut teleported = vec![false; agents.len()];

        let mut events: Vec<(AgentId, EventKind)> = Vec::new();
        // What the movers' pass fired (a delayed use, a button at its end) acts first.
        let pass = Pass {
            triggers: &entities.triggers,
            now,
            entities: &self.agents,
            gravity,
        };
        let mut acts: Vec<Acting> = Vec::new();
        living
            .triggers
            .take_uses(&mut living.machinery, &pass, &mut acts);
        for (k, trigger) in entities.triggers.iter().enumerate() {
            // Gone: a `PUSH_ONCE` pad that pushed, or a trigger a `killtarget` removed; or
            // unlinked for now (a Quake III hurt volume turned off).
            if living.triggers.gone[k]
                || living.triggers.unlinked[k]
                || living.machinery.trigger_removed(k)
            {
                continue;
            }
            let bounds = match trigger.follows {
                // A button's surface, drawn with it, moves with it.
                Some(m) => trigger.bounds.translated(living.scene.offset(m)),
                None => trigger.bounds,
            };
            // The first agent touching it: the activator of what it fires.
            let mut first: Option<AgentId> = None;
            for &i in &near[k] {
                let agent = &agents[i];
                // An agent teleported in this pass touches nothing more this step.
                if teleported[i] {
                    continue;
                }
                if !living.triggers.touches(
                    dialect,
                    k,
                    trigger,
                    &bounds,
                    agent.shape.shape(),
                    agent.position,
                ) {
                    continue;
                }
                // Quake 1's multi_touch: a one-way trigger returns for an agent not facing its
                // way (the touch is still reported).
                if faces(&trigger.kind, agent.view) {
                    first.get_or_insert(agent.id);
                }
                touched[i].push(k as u32);
                let act = match &trigger.kind {
                    TriggerKind::Teleport {
                        destinations,
                        needs_firing,
                        ..
                    } => {
                        // A Quake 1 teleporter with a `targetname` works for 0.2 s after being
                        // fired (`teleport_use`, `teleport_touch`).
                        if *needs_firing && !living.triggers.armed(k, now)
                            || destinations.is_empty()
                        {
                            continue;
                        }
                        // Quake 1's teleport_touch fires its targets first (SUB_UseTargets),
                        // whatever then becomes of the toucher.
                        living.machinery.teleport_by(k, agent.id.0);
                        living
                            .triggers
                            .take_uses(&mut living.machinery, &pass, &mut acts);
                        // G_PickTarget draws even with one choice.
                        let pick = match dialect {
                            Dialect::Quake1 => 0,
                            Dialect::Quake3 => living.machinery.rng().below(destinations.len()),
                        };
                        let spot = &entities.spots[destinations[pick]];
                        let to = spot.origin + DVec3::Z * rules::teleport_lift(dialect);
                        // Both games turn the player to the destination's angles, pitch
                        // included (SetClientViewAngle; Quake 1's fixangle sends `angles`).
                        let view = View {
                            yaw: spot.yaw,
                            pitch: spot.pitch,
                        };
                        // A hostile map's destination at the domain's edge cannot be reached.
                        let outside = cspace_geom::domain::check_point(
                            cspace_geom::domain::Quantity::Coordinate,
                            to,
                        )
                        .is_err();
                        if outside || living.scene.is_solid(&mut living.queries, &agent.shape, to) {
                            events.push((
                                agent.id,
                                EventKind::TeleportRefused {
                                    trigger: k as u32,
                                    to,
                                },
                            ));
                            continue;
                        }
                        Act::Teleport {
                            trigger: k as u32,
                            from: agent.position,
                            to,
                            // AngleVectors / makevectors of the angles, pitch included: a positive
                            // pitch sends the agent down.
                            velocity: spot.forward() * rules::teleport_speed(dialect),
                            view,
                        }
                    }
                    TriggerKind::Push(push) => {
                        let push = living.triggers.aimed[k].as_ref().unwrap_or(push);
                        let Some(velocity) = push.velocity(gravity) else {
                            continue;
                        };
                        if let Push::Velocity { once: true, .. } = push {
                            living.triggers.gone[k] = true;
                        }
                        // Quake 1's SV_CheckVelocity holds every component to sv_maxvelocity.
                        let max = rules::QUAKE1_MAX_VELOCITY;
                        Act::Push(match push {
                            Push::Velocity { .. } => {
                                velocity.clamp(DVec3::splat(-max), DVec3::splat(max))
                            }
                            Push::Apex { .. } => velocity,
                        })
                    }
                    TriggerKind::Hurt { damage, slow, .. } => {
                        if now >= living.triggers.hurt_ready[k] {
                            living.triggers.hurt_ready[k] = now
                                + match (dialect, slow) {
                                    (Dialect::Quake1, _) => QUAKE1_HURT_REPEAT,
                                    (Dialect::Quake3, false) => QUAKE3_HURT_REPEAT,
                                    (Dialect::Quake3, true) => QUAKE3_SLOW_HURT_REPEAT,
                                };
                            events.push((
                                agent.id,
                                EventKind::Hurt {
                                    trigger: k as u32,
                                    damage: *damage,
                                },
                            ));
                        }
                        continue;
                    }
                    _ => continue,
                };
                teleported[i] |= matches!(act, Act::Teleport { .. });
                acts.push((agent.id, agent.entity, act));
                if living.triggers.gone[k] {
                    break;
                }
            }
            if let Some(agent) = first {
                living.machinery.touch_by(k, agent.0);
                living
                    .triggers
                    .take_uses(&mut living.machinery, &pass, &mut acts);
            }
        }
        // Touches that began, per agent in id order, before what the triggers did to it.
        let mut began: Vec<(AgentId, EventKind)> = Vec::new();
        for (agent, now_touching) in agents.iter().zip(&mut touched) {
            let index = agent.id.0 as usize;
            if living.triggers.touching.len() <= index {
                living.triggers.touching.resize(index + 1, Vec::new());
            }
            now_touching.sort_unstable();
            now_touching.dedup();
            let before = &living.triggers.touching[index];
            for &k in now_touching.iter() {
                if before.binary_search(&k).is_err() {
                    began.push((
                        agent.id,
                        EventKind::Touches {
                            trigger: k,
                            entity: entities.triggers[k as usize].entity,
                        },
                    ));
                }
            }
            living.triggers.touching[index] = std::mem::take(now_touching);
        }
        super::record_clock(
            &mut self.recorder.mover_events,
            &mut living.machinery,
            &mut living.scene,
            step,
        );
        for (agent, kind) in began.into_iter().chain(events) {
            self.recorder.record(step, agent, kind);
        }
        for (id, entity, act) in acts {
            match act {
                Act::Push(velocity) => {
                    self.push_agent(step, id, entity, velocity);
                }
                Act::TargetPush { push, velocity } => {
                    // An agent out of the world takes no part (a dead player: `pm_type !=
                    // PM_NORMAL` returns).
                    if !self.has_left_world(id).expect("a live agent") {
                        let velocity = self.push_agent(step, id, entity, velocity);
                        self.recorder
                            .record(step, id, EventKind::TargetPushed { push, velocity });
                    }
                }
                Act::Teleport {
                    trigger,
                    from,
                    to,
                    velocity,
                    view,
                } => {
                    {
                        let mut query = self
                            .world
                            .query_one::<(&mut Intent, &mut MoveTimer)>(entity);
                        let (intent, t) = query.get().expect("agents have every component");
                        intent.view = view;
                        *t = teleport_timer(dialect, *t);
                    }
                    self.place(entity, to, velocity);
                    self.recorder
                        .record(step, id, EventKind::Teleported { trigger, from, to });
                }
            }
        }
    }
}

impl Sim {
    /// Per trigger of the living world ([`cspace_entities::Entities::triggers`]), the apex its
    /// Quake III jump pad aims at in this run: the point `G_PickTarget` picked when the world
    /// started, from the run's generator (`AimAtTarget`, docs/entities.md "Push pads"); `None`
    /// for every other trigger and for a pad the pick freed (a point not above it). Empty for a
    /// frozen world. The navigation planner aims its push links with it
    /// ([`Planner::build_living`](crate::navigation::Planner::build_living)), so a simulation's
    /// graph lands where its pads send agents.
    pub fn jump_pad_apexes(&self) -> Vec<Option<DVec3>> {
        let Some(living) = self.living.as_ref() else {
            return Vec::new();
        };
        let triggers = &living.triggers;
        triggers
            .aimed
            .iter()
            .zip(&triggers.gone)
            .map(|(aimed, &gone)| match aimed {
                Some(Push::Apex { apex, .. }) if !gone => Some(*apex),
                _ => None,
            })
            .collect()
    }

    /// Sets the velocity of agent `id` (`entity`; a push pad, a `target_push`), held to
    /// [`MAX_SPEED`](cspace_geom::tolerance::MAX_SPEED) by length as every move is (a hostile
    /// map's speed or apex can ask for more); launched upwards, it leaves the ground now, as
    /// Quake III's next ground trace would see it (`PM_GroundTrace`: moving up and away); it
    /// wakes. The velocity set.
    fn push_agent(
        &mut self,
        step: u64,
        id: AgentId,
        entity: hecs::Entity,
        velocity: DVec3,
    ) -> DVec3 {
        let velocity = velocity.clamp_length_max(cspace_geom::tolerance::MAX_SPEED);
        let mut query = self
            .world
            .query_one::<(&mut Velocity, &mut Ground, &mut Rest)>(entity);
        let (v, ground, rest) = query.get().expect("agents have every component");
        v.0 = velocity;
        if velocity.z > 0.0 {
            *ground = Ground::Air;
        }
        rest.still_steps = 0;
        if rest.asleep {
            rest.asleep = false;
            self.recorder.record(step, id, EventKind::Woke);
        }
        velocity
    }
}

/// The movement timer after a teleport: Quake 1 ignores backward input for 0.7 s
/// (`teleport_time = time + 0.7`, `teleport_touch`); Quake III holds the agent 160 ms without
/// friction (`pm_time = 160` with `PMF_TIME_KNOCKBACK`, `TeleportPlayer`), its other flags kept.
fn teleport_timer(dialect: Dialect, timer: MoveTimer) -> MoveTimer {
    match dialect {
        Dialect::Quake1 => MoveTimer {
            hold_backward: rules::QUAKE1_TELEPORT_HOLD,
            ..timer
        },
        Dialect::Quake3 => MoveTimer {
            seconds: rules::QUAKE3_TELEPORT_HOLD,
            knockback: true,
            ..timer
        },
    }
}
