//! The living world in the step (issue 32, `docs/entities.md`): after the agents move, every
//! mover team advances by its clock ([`Machinery`]) in the entity order of its master and pushes
//! what is in its way, then the triggers the agents touch act (`triggers.rs`). One fixed order on
//! the calling thread, so every thread count gives the same bits.
//!
//! Pushing follows Quake III's `G_MoverTeam` / `G_MoverPush` / `G_TryPushingEntity`
//! (`g_mover.c`), which is Quake 1's `SV_PushMove` (`sv_phys.c`) with the pushed entity
//! translated instead of traced: each member of the team is moved to where its clock puts it;
//! every agent riding it (its ground is the mover's), and every agent the moved mover now
//! overlaps, is moved by the same offset; an agent left in solid or in another agent goes back
//! to where it was if that place is free, and otherwise the push is blocked: the members and
//! every agent moved go back, and the team reverses or waits ([`Machinery::block`]). Riders get
//! no velocity.

use std::sync::Arc;

use cspace_contact::{FilterStack, Slot};
use cspace_entities::rules::QUAKE1_TOUCH_REACH;
use cspace_entities::{Entities, Machinery, MoverEventKind as ClockEvent};
use cspace_geom::tolerance::CONTACT;
use cspace_geom::{Aabb, Collider, DVec3, Prepared, QueryContext, Shape, World};

use crate::agent::{AgentId, Ground, Pose, PoseSet, Position, Rest};
use crate::box_grid::BoxGrid;
use crate::movers::{Models, Scene};
use crate::record::{EventKind, MoverEvent, MoverEventKind};

use super::{Sim, SimError};

mod triggers;

use triggers::TriggerState;

/// What a simulation needs for a living world ([`crate::SimConfig::living`]): the map's entities
/// and the movers' brush models built in the run's backend for the agents' shapes.
#[derive(Debug, Clone)]
pub struct Living {
    /// The entities (their movers in the order of [`Models`]).
    pub entities: Arc<Entities>,
    /// Every mover's structure, in the backend of the simulation's collider, ready for every
    /// shape an agent will have ([`crate::AgentSpec::shapes`]).
    pub models: Arc<Models>,
}

/// The movers where they are, their clock, and who rides what.
pub(crate) struct LivingState {
    scene: Scene,
    machinery: Machinery,
    entities: Arc<Entities>,
    /// Per agent id, the mover it rode after the last step.
    riding: Vec<Option<usize>>,
    queries: QueryContext,
    /// What the triggers keep between steps (`triggers.rs`).
    triggers: TriggerState,
    /// The world's liquids (`None`: it has none).
    liquids: Option<super::Liquids>,
    /// Which triggers an agent may touch: each trigger's bounds wherever it can be, grown by the
    /// touch reach ([`trigger_reach`]).
    trigger_grid: BoxGrid,
}

/// Every place trigger `t` can be, grown by the touch reach both dialects' tests need: its bounds,
/// or (a button's surface) its bounds at every place its mover goes.
fn trigger_reach(entities: &Entities, t: &cspace_entities::Trigger) -> Aabb {
    let bounds = match t.follows {
        Some(m) => entities.movers[m]
            .extreme_offsets()
            .into_iter()
            .fold(Aabb::EMPTY, |a, o| a.merged(t.bounds.translated(o))),
        None => t.bounds,
    };
    bounds.loosened(QUAKE1_TOUCH_REACH)
}

/// One agent as the mover pass sees it.
struct Rider {
    id: AgentId,
    /// Its rank in id order among the live agents (its slot in the simulation's filter stack).
    rank: u32,
    entity: hecs::Entity,
    shape: Prepared,
    traced: Prepared,
    bounds: Aabb,
    position: DVec3,
    on_ground: bool,
    moved: bool,
}

impl LivingState {
    /// The scene of `collider`'s world and `living`'s movers where they spawn.
    pub(crate) fn new(
        collider: Arc<dyn Collider>,
        living: Living,
        dt: f64,
        seed: u64,
    ) -> Result<LivingState, SimError> {
        let mut machinery = Machinery::seeded(&living.entities, dt, seed);
        let mut scene = Scene::new(collider, living.models);
        for (m, &offset) in machinery.offsets().iter().enumerate() {
            scene.set_offset(m, offset);
        }
        let triggers = TriggerState::new(&living.entities, machinery.rng());
        let liquids = super::Liquids::new(&living.entities);
        let trigger_grid = BoxGrid::new(
            living
                .entities
                .triggers
                .iter()
                .map(|t| trigger_reach(&living.entities, t))
                .collect(),
        );
        Ok(LivingState {
            trigger_grid,
            triggers,
            liquids,
            scene,
            machinery,
            entities: living.entities,
            riding: Vec::new(),
            queries: QueryContext::new(),
        })
    }

    /// The scene agents are traced against.
    pub(crate) fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The world's liquids, if it has any.
    pub(crate) fn liquids(&self) -> Option<&super::Liquids> {
        self.liquids.as_ref()
    }

    /// Every mover's offset now.
    pub(crate) fn offsets(&self) -> &[DVec3] {
        self.scene.offsets()
    }

    /// Each mover's brushes where drawn, as a world (for the exactness guard).
    pub(crate) fn mover_worlds(&self) -> Vec<Arc<World>> {
        self.entities
            .movers
            .iter()
            .map(|m| Arc::new(World::new(m.brushes.clone())))
            .collect()
    }

    /// The mover `rider` stands on: the one whose brush the ground probe meets first (Quake's
    /// `groundentity`, from the same probe the movement model finds the ground with).
    fn ground_mover(&mut self, rider: &Rider, probe: f64) -> Option<usize> {
        if !rider.on_ground {
            return None;
        }
        let reach = rider.bounds.loosened(probe + CONTACT);
        if !self.scene.meets_any(&reach) {
            return None;
        }
        let below = rider.position - DVec3::new(0.0, 0.0, probe);
        let hit = self
            .scene
            .trace(&mut self.queries, &rider.traced, rider.position, below);
        hit.surface()
            .and_then(|s| self.scene.mover_of_brush(s.brush))
    }
}

impl Sim {
    /// The movers' pass of the step: riders found, every team advanced and pushing in order,
    /// then the triggers touched.
    pub(super) fn run_movers(&mut self) {
        let step = self.step;
        let probe = self.params.ground_probe;
        let Some(living) = self.living.as_mut() else {
            return;
        };
        let (world, live, agents) = (&self.world, &self.live, &self.agents);
        // Every agent a mover can meet this step (ride or push), as it stands after moving, in id
        // order, and those a pushed agent is likely to meet: an agent whose bounds, grown by the
        // ground probe, meet no mover's reach can neither ride nor be pushed (the clock keeps
        // every mover in its reach); those within BYSTANDER_REACH more are read too.
        let margin = probe + CONTACT + BYSTANDER_REACH;
        let mut riders: Vec<Rider> = Vec::new();
        // One view for every agent: a query per agent prepares it anew each time.
        let regions = (0..living.scene.models().len()).flat_map(|m| {
            let (reach, placed) = (living.scene.models().reach(m), living.scene.placed(m));
            [Some(reach), (!reach.contains(&placed)).then_some(placed)]
                .into_iter()
                .flatten()
                .map(move |r| r.loosened(margin))
        });
        let near = ranks_near(
            (!self.filters_stale).then_some(&mut self.filters),
            self.live.len(),
            regions,
        );
        let mut view = self
            .world
            .view::<(&PoseSet, &Pose, &Position, &Ground, &Rest)>();
        for rank in near {
            let (rank, id) = (rank as usize, self.live[rank as usize]);
            let entity = self.agents[id.0 as usize].expect("a live agent");
            let (poses, pose, position, ground, rest) =
                view.get_mut(entity).expect("agents have every component");
            if rest.left_world {
                continue;
            }
            let bounds = poses.get(*pose).shape().bounds().translated(position.0);
            if !living.scene.may_meet(&bounds.loosened(margin)) {
                continue;
            }
            let shape = poses.get(*pose).clone();
            riders.push(Rider {
                id,
                rank: rank as u32,
                entity,
                traced: poses.traced(*pose).clone(),
                shape,
                bounds,
                position: position.0,
                on_ground: ground.walkable().is_some(),
                moved: false,
            });
        }
        drop(view);
        let mut riding: Vec<Option<usize>> = riders
            .iter()
            .map(|r| living.ground_mover(r, probe))
            .collect();
        living.machinery.begin_step();
        record_clock(
            &mut self.recorder.mover_events,
            &mut living.machinery,
            &mut living.scene,
            step,
        );
        // The agents no mover can meet, read when a push first needs them (`blocks`).
        let mut others: Option<Vec<Body>> = None;
        let read = |riders: &[Rider]| bodies_apart(world, live, agents, riders);
        for t in 0..living.machinery.team_count() {
            let moves: Vec<(usize, DVec3)> = living
                .machinery
                .proposal(t)
                .into_iter()
                .filter(|&(m, to)| to != living.scene.offset(m))
                .collect();
            if moves.is_empty() {
                living.machinery.commit(t);
                continue;
            }
            let mut placed: Vec<(usize, DVec3)> = Vec::new();
            let mut pushed: Vec<(usize, DVec3, Option<usize>)> = Vec::new();
            let mut blocked = None;
            'parts: for (m, to) in moves {
                let from = living.scene.offset(m);
                let delta = to - from;
                living.scene.set_offset(m, to);
                placed.push((m, from));
                let now = living.scene.placed(m);
                // Where an agent this mover pushes can meet only agents of `riders`.
                let zone = living.scene.models().reach(m).loosened(margin);
                for i in 0..riders.len() {
                    let rides = riding[i] == Some(m);
                    if !rides {
                        // Quake III tests only agents whose bounds meet the mover's new place
                        // (strictly), and pushes those it now overlaps.
                        let rider = &riders[i];
                        let b = rider.shape.shape().bounds().translated(rider.position);
                        let meets = (0..3).all(|k| b.min[k] < now.max[k] && b.max[k] > now.min[k]);
                        if !meets
                            || !living.scene.is_solid(
                                &mut living.queries,
                                &rider.shape,
                                rider.position,
                            )
                        {
                            continue;
                        }
                    }
                    let old = riders[i].position;
                    pushed.push((i, old, riding[i]));
                    riders[i].position = old + delta;
                    if !rides {
                        // "may have pushed them off an edge".
                        riding[i] = None;
                    }
                    let near = Near {
                        zone: &zone,
                        others: &mut others,
                        read: &read,
                    };
                    if !blocks(&living.scene, &mut living.queries, &riders, i, near) {
                        continue;
                    }
                    // "if it is ok to leave in the old position, do it".
                    riders[i].position = old;
                    let near = Near {
                        zone: &zone,
                        others: &mut others,
                        read: &read,
                    };
                    if !blocks(&living.scene, &mut living.queries, &riders, i, near) {
                        riding[i] = None;
                        pushed.pop();
                        continue;
                    }
                    blocked = Some(riders[i].id);
                    break 'parts;
                }
            }
            match blocked {
                Some(agent) => {
                    for &(i, at, was) in pushed.iter().rev() {
                        riders[i].position = at;
                        riding[i] = was;
                    }
                    for &(m, at) in placed.iter().rev() {
                        living.scene.set_offset(m, at);
                    }
                    self.recorder.mover_events.push(MoverEvent {
                        step,
                        mover: living.machinery.members(t)[0] as u32,
                        kind: MoverEventKind::Blocked { agent },
                    });
                    living.machinery.block(t);
                }
                None => {
                    for &(i, ..) in &pushed {
                        riders[i].moved = true;
                    }
                    living.machinery.commit(t);
                }
            }
            record_clock(
                &mut self.recorder.mover_events,
                &mut living.machinery,
                &mut living.scene,
                step,
            );
        }
        debug_assert!(
            living
                .machinery
                .offsets()
                .iter()
                .zip(living.scene.offsets())
                .all(|(a, b)| a == b),
            "the scene stands where the clock says"
        );
        // Riders of the step.
        for &m in riding.iter().flatten() {
            living.machinery.ridden(m);
        }
        // Back into the agents: positions moved, riders woken, rides begun (an agent no mover
        // can meet rides none).
        let known = living.riding.len();
        let before = std::mem::replace(&mut living.riding, vec![None; known]);
        for (i, rider) in riders.iter().enumerate() {
            let index = rider.id.0 as usize;
            if riding[i].is_some() && before.get(index).copied().flatten() != riding[i] {
                self.recorder.record(
                    step,
                    rider.id,
                    EventKind::Rides {
                        mover: riding[i].expect("checked") as u32,
                    },
                );
            }
            if living.riding.len() <= index {
                living.riding.resize(index + 1, None);
            }
            living.riding[index] = riding[i];
            if !rider.moved {
                continue;
            }
            let mut query = self
                .world
                .query_one::<(&mut Position, &mut Rest)>(rider.entity);
            let (position, rest) = query.get().expect("agents have every component");
            position.0 = rider.position;
            rest.still_steps = 0;
            if rest.asleep {
                rest.asleep = false;
                self.recorder.record(step, rider.id, EventKind::Woke);
            }
            // The filter stack follows (its pose is unchanged): what a rebuild would hold.
            if !self.filters_stale {
                self.filters.move_to(Slot(rider.rank), rider.position);
            }
        }
        #[cfg(debug_assertions)]
        self.assert_filters_current();
        // Then the triggers the agents touch, where they now are.
        self.run_triggers();
    }

    /// Every mover's offset from where the file draws it, when the world lives.
    pub fn mover_offsets(&self) -> Option<&[DVec3]> {
        self.living.as_ref().map(|l| l.offsets())
    }

    /// The movers' events kept ([`crate::SimConfig::recording`], as [`Sim::events`]).
    pub fn mover_events(&self) -> &[MoverEvent] {
        &self.recorder.mover_events
    }
}

/// The ranks of the live agents (`count` of them) whose bounds may meet one of `regions`, in rank
/// order, each once: with the simulation's filter stack current (`filters`), those whose bodies
/// meet a region grown by [`NEAR_SLACK`] (a look-up per region instead of one per agent); else
/// every rank. A pre-filter only: its callers test each agent as they would without it, so the
/// agents they keep are the same.
fn ranks_near(
    filters: Option<&mut FilterStack>,
    count: usize,
    regions: impl Iterator<Item = Aabb>,
) -> Vec<u32> {
    let Some(filters) = filters else {
        return (0..count as u32).collect();
    };
    let mut ranks: Vec<u32> = Vec::new();
    let mut found = Vec::new();
    for region in regions {
        filters.meeting(&region.loosened(NEAR_SLACK), &mut found);
        ranks.extend(found.iter().map(|s| s.0));
    }
    ranks.sort_unstable();
    ranks.dedup();
    ranks
}

/// How much [`ranks_near`] grows each region, units: the pre-filter must keep every agent whose
/// own bounds, grown by a margin, meet the region (the test its callers make), and growing the
/// other box instead rounds differently by a few ulps. Not a tolerance: any slack well above
/// rounding at [`cspace_geom::tolerance::MAX_COORDINATE`] keeps the pre-filter a superset.
const NEAR_SLACK: f64 = 1.0;

/// How far beyond a mover's reach (and the ground probe) the movers' pass reads agents, units: a
/// Quake player's height (56) and then some, so that an agent a mover carries or pushes is tested
/// against the agents it can meet without reading every agent; a pushed agent that leaves the
/// mover's reach grown by this reads every agent (`Near`). Not a tolerance: a reach.
const BYSTANDER_REACH: f64 = 64.0;

/// The agents a pushed agent may meet beside the movers' pass's own: for a pushed agent whose
/// bounds leave `zone` (the pushing mover's reach grown by the pass's margin, which holds every
/// agent the pass did not read out), every other agent, read once a step by `read`.
struct Near<'a, F: Fn(&[Rider]) -> Vec<Body>> {
    zone: &'a Aabb,
    others: &'a mut Option<Vec<Body>>,
    read: &'a F,
}

/// An agent no mover can meet this step: its shape where it stands.
struct Body {
    shape: Shape,
    position: DVec3,
    bounds: Aabb,
}

/// Every live agent in the world that is not one of `riders` (both in id order), as a body.
fn bodies_apart(
    world: &hecs::World,
    live: &[AgentId],
    agents: &[Option<hecs::Entity>],
    riders: &[Rider],
) -> Vec<Body> {
    let mut next = riders.iter().map(|r| r.rank).peekable();
    let mut out = Vec::new();
    super::for_each_body(world, live, agents, |slot, shape, at, left| {
        if next.next_if_eq(&slot.0).is_some() || left {
            return;
        }
        out.push(Body {
            bounds: shape.bounds().translated(at),
            shape: shape.clone(),
            position: at,
        });
    });
    out
}

/// True when agent `i` of `riders`, where it now is, is in solid or in another agent (of
/// `riders`, where they now are, or of `near`): Quake tests a pushed entity with its clip mask,
/// which holds the other players' bodies (`G_TestEntityPosition`, `g_mover.c`;
/// `SV_TestEntityPosition`, `sv_phys.c`). Overlap is the movement's own test of one agent
/// against another (`Tracer::is_free`): touching is free.
fn blocks<F: Fn(&[Rider]) -> Vec<Body>>(
    scene: &Scene,
    queries: &mut QueryContext,
    riders: &[Rider],
    i: usize,
    near: Near<'_, F>,
) -> bool {
    let me = &riders[i];
    if scene.is_solid(queries, &me.shape, me.position) {
        return true;
    }
    let shape = me.shape.shape();
    let bounds = shape.bounds().translated(me.position);
    let overlaps = |theirs: &Shape, at: DVec3| {
        cspace_contact::time_of_impact(shape, me.position, DVec3::ZERO, theirs, at, DVec3::ZERO)
            .expect("agent shapes are checked when the simulation is built")
            .is_some()
    };
    let rider = riders.iter().enumerate().any(|(j, other)| {
        let theirs = other.shape.shape();
        j != i
            && theirs
                .bounds()
                .translated(other.position)
                .intersects(&bounds)
            && overlaps(theirs, other.position)
    });
    if rider || near.zone.contains(&bounds) {
        return rider;
    }
    near.others
        .get_or_insert_with(|| (near.read)(riders))
        .iter()
        .any(|o| o.bounds.intersects(&bounds) && overlaps(&o.shape, o.position))
}

/// Moves the clock's events into the record, at `step`; a mover a `killtarget` removed leaves
/// the scene.
pub(super) fn record_clock(
    out: &mut Vec<MoverEvent>,
    machinery: &mut Machinery,
    scene: &mut Scene,
    step: u64,
) {
    out.extend(machinery.drain_events().into_iter().map(|e| MoverEvent {
        step,
        mover: e.mover as u32,
        kind: match e.kind {
            ClockEvent::Started => MoverEventKind::Started,
            ClockEvent::Reached => MoverEventKind::Reached,
            ClockEvent::Reversed => MoverEventKind::Reversed,
            ClockEvent::Removed => {
                scene.remove(e.mover);
                MoverEventKind::Removed
            }
        },
    }));
}
