//! Interaction groups: the agents that can touch one another within a step, moved together in id
//! order, each group independently of the others (on any thread).
//!
//! Each (sub)step, every agent's *reach* is the box its shapes (standing and crouching) can
//! occupy during the step: its bounds grown by the farthest it can move (its speed, what the step
//! can add to it, a step up and down and the ground probe). Agents whose reaches overlap are
//! joined, transitively (union-find over a grid of the reaches), into groups. An agent's traces
//! and point queries only ever meet agents inside its reach, so an agent outside the group cannot
//! change its move: moving each group's agents in id order, groups in any order or in parallel,
//! gives exactly the sequential result (every agent in id order). Events are merged back in the
//! order of the agent being moved, which is the sequential order.

use cspace_contact::{ContactTarget, FilterStack, FilterStats, Slot};
use cspace_geom::tolerance::MAX_COORDINATE;
use cspace_geom::{Aabb, Collider, DVec3, MoverCache, QueryContext, QueryCounters};

use super::liquids::Liquids;
use super::tracer::Tracer;
use crate::agent::{
    AgentId, Ground, Pending, Pose, PoseSet, Position, Rest, Totals, TouchKey, Touching, Velocity,
};
use crate::intent::Intent;
use crate::movement::{self, MoveLog, MoveTimer, MoverState, Water};
use crate::movers::Scene;
use crate::params::{MoveParams, WaterParams};
use crate::record::{ContactEvent, EventKind};

/// How much farther than its computed reach an agent is kept from other groups (units): a margin
/// for rounding in the reach itself, never relied on.
const REACH_MARGIN: f64 = 1.0;

/// The components a moving agent reads and writes, by name.
#[derive(hecs::Query)]
pub(super) struct Mover<'a> {
    pub(super) id: &'a AgentId,
    pub(super) poses: &'a PoseSet,
    pub(super) pose: &'a mut Pose,
    pub(super) position: &'a mut Position,
    pub(super) velocity: &'a mut Velocity,
    pub(super) ground: &'a mut Ground,
    pub(super) intent: &'a mut Intent,
    pub(super) rest: &'a mut Rest,
    pub(super) totals: &'a mut Totals,
    pub(super) touching: &'a mut Touching,
    pub(super) cache: &'a mut MoverCache,
    pub(super) pending: &'a Pending,
    pub(super) timer: &'a mut MoveTimer,
    pub(super) water: &'a mut Water,
}

/// What every group shares while it moves: the backend, the constants and the step.
#[derive(Clone, Copy)]
pub(super) struct Shared<'a> {
    pub(super) collider: &'a dyn Collider,
    pub(super) params: &'a MoveParams,
    pub(super) step: u64,
    pub(super) floor: f64,
    /// The living world's liquids, if it has any.
    pub(super) liquids: Option<&'a Liquids>,
    /// The living world's scene (then `collider` too), for the movers' quiet boxes.
    pub(super) scene: Option<&'a Scene>,
}

impl<'a> Shared<'a> {
    /// In a living world, what `mover`'s reach for a move of `dt` meets: the reach as its
    /// tracer's quiet box when it meets no mover's place (the movers stand still while agents
    /// move: its traces inside it skip the movers' look-up, [`Scene::trace_in_quiet`]), and as
    /// its dry box when it meets no liquid ([`Liquids::is_dry`]: sample points inside it skip the
    /// liquids' look-up). Both are checked again per trace and per point, so the reach need not
    /// hold every move for the answers to stay the scene's and the liquids'.
    fn calm(&self, mover: &Mover<'_>, dt: f64) -> Calm {
        if self.scene.is_none() && self.liquids.is_none() {
            return Calm::default();
        }
        let water = self.liquids.map(|l| water_reach(l.params()));
        let reach = reach(mover, self.params, water, dt);
        Calm {
            quiet: self.scene.filter(|s| !s.meets_any(&reach)).map(|_| reach),
            dry: self.liquids.filter(|l| l.is_dry(&reach)).map(|_| reach),
        }
    }
}

/// A mover's reach for the step, where it meets nothing of the living world ([`Shared::calm`]).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Calm {
    /// The reach, when it meets no mover's place ([`Tracer::quiet`]).
    pub(super) quiet: Option<Aabb>,
    /// The reach, when it meets no liquid ([`Tracer::dry`]).
    pub(super) dry: Option<Aabb>,
}

/// What a group's agents do in this pass.
#[derive(Debug, Clone, Copy)]
pub(super) enum Phase {
    /// Free agents that start in solid and find the ground (before the first step).
    Settle,
    /// Move the awake agents by `dt` seconds.
    Move(f64),
}

impl Phase {
    /// The systems of the phase, on one agent (`stacks`: the settling pass's stacks).
    fn apply(
        self,
        st: &mut MoverState,
        tr: &mut Tracer,
        p: &MoveParams,
        log: &mut MoveLog,
        stacks: &mut movement::Stacks,
    ) {
        match self {
            Phase::Settle => {
                movement::settle(st, tr, p, log, stacks);
            }
            Phase::Move(dt) => {
                movement::frame(st, tr, p, dt, log);
            }
        }
    }
}

/// One worker's scratch: its query context, the filter stack of the group it moves, buffers.
pub(super) struct Worker {
    queries: QueryContext,
    filters: FilterStack,
    ids: Vec<AgentId>,
    candidates: Vec<Slot>,
    log: MoveLog,
    touches: Vec<TouchKey>,
    stacks: movement::Stacks,
}

impl Worker {
    pub(super) fn new(params: &MoveParams, time_filters: bool) -> Worker {
        Worker {
            queries: QueryContext::new(),
            filters: FilterStack::new(params.grid_cell, time_filters),
            ids: Vec::new(),
            candidates: Vec::new(),
            log: MoveLog::default(),
            touches: Vec::new(),
            stacks: movement::Stacks::default(),
        }
    }
}

/// What moving one group did, merged into the simulation afterwards.
#[derive(Debug, Default)]
pub(super) struct GroupOutcome {
    /// The events, each with the id of the agent being moved when it happened (the sequential
    /// order is the order of that id, then of happening).
    pub(super) events: Vec<(u32, AgentId, EventKind)>,
    pub(super) traces: u64,
    pub(super) agent_steps: u64,
    pub(super) queries: QueryCounters,
    pub(super) filters: FilterStats,
}

impl GroupOutcome {
    /// Appends what another group did (moved after this one).
    pub(super) fn add(&mut self, other: GroupOutcome) {
        self.events.extend(other.events);
        self.traces += other.traces;
        self.agent_steps += other.agent_steps;
        self.queries += other.queries;
        self.filters.merge(&other.filters);
    }
}

/// Moves (or settles) one group's agents, given in ascending id order, in that order. With
/// `global`, the group is every agent (index = id) and `global` is the simulation's filter stack,
/// kept current move by move (the sequential step); otherwise the group gets a filter stack of
/// its own members, or none when it is one agent.
pub(super) fn run_group(
    worker: &mut Worker,
    shared: Shared<'_>,
    group: &mut [Mover<'_>],
    phase: Phase,
    global: Option<&mut FilterStack>,
) -> GroupOutcome {
    let Worker {
        queries,
        filters: local,
        ids,
        candidates,
        log,
        touches,
        stacks,
    } = worker;
    stacks.clear();
    if let Phase::Settle = phase {
        for mover in group.iter().filter(|m| m.pending.settle.is_some()) {
            stacks.wait(mover.position.0, mover.poses.get(*mover.pose).shape());
        }
    }
    let mut out = GroupOutcome::default();
    ids.clear();
    ids.extend(group.iter().map(|m| *m.id));
    let mut stack = match global {
        Some(global) => Some(global),
        // Alone, an agent meets no other: no filter stack to fill.
        None if group.len() == 1 => None,
        None => {
            local.clear();
            for (index, mover) in group.iter().enumerate() {
                let at = Slot(index as u32);
                local.insert(at, mover.poses.get(*mover.pose).shape(), mover.position.0);
                if mover.rest.left_world {
                    local.remove(at);
                }
            }
            Some(local)
        }
    };
    let mut scratch = Scratch {
        queries,
        ids,
        candidates,
        log,
        touches,
    };
    for index in 0..group.len() {
        match phase {
            Phase::Move(_) => {
                let rest = *group[index].rest;
                if rest.asleep || rest.left_world {
                    continue;
                }
                out.agent_steps += 1;
            }
            // Only the agents placed since the last settling are settled.
            Phase::Settle if group[index].pending.settle.is_none() => continue,
            Phase::Settle => {}
        }
        let filters = stack.as_deref_mut();
        let calm = match phase {
            Phase::Move(dt) => shared.calm(&group[index], dt),
            Phase::Settle => Calm::default(),
        };
        update_one(
            &mut scratch,
            filters,
            (shared, calm),
            group,
            index,
            &mut out,
            |st, tr, p, log| phase.apply(st, tr, p, log, stacks),
        );
    }
    out.queries = std::mem::take(&mut scratch.queries.counters);
    if let Some(stack) = stack {
        out.filters = stack.take_stats();
    }
    out
}

/// A worker's scratch but its filter stack, borrowed for one group.
struct Scratch<'a> {
    queries: &'a mut QueryContext,
    ids: &'a [AgentId],
    candidates: &'a mut Vec<Slot>,
    log: &'a mut MoveLog,
    touches: &'a mut Vec<TouchKey>,
}

/// Moves the group's agent `index`: copies it out of its components, runs `update` on it with its
/// tracer, then writes it back and records what happened.
fn update_one(
    scratch: &mut Scratch<'_>,
    mut filters: Option<&mut FilterStack>,
    (shared, calm): (Shared<'_>, Calm),
    group: &mut [Mover<'_>],
    index: usize,
    out: &mut GroupOutcome,
    update: impl FnOnce(&mut MoverState, &mut Tracer, &MoveParams, &mut MoveLog),
) {
    let local = Slot(index as u32);
    let mut log = std::mem::take(scratch.log);
    log.clear();
    let woken = {
        let mover = &mut group[index];
        let id = *mover.id;
        let before = MoverState {
            position: mover.position.0,
            velocity: mover.velocity.0,
            pose: *mover.pose,
            ground: *mover.ground,
            intent: *mover.intent,
            can_crouch: mover.poses.crouching.is_some(),
            timer: *mover.timer,
            water: *mover.water,
        };
        let mut after = before;
        // The agent's cache (a caching backend's state for this mover) serves its queries.
        scratch.queries.with_mover(mover.cache, |queries| {
            let mut tracer = Tracer {
                collider: shared.collider,
                queries,
                filters: filters.as_deref_mut(),
                me: local,
                ids: scratch.ids,
                poses: mover.poses,
                step: shared.step,
                candidates: &mut *scratch.candidates,
                traces: &mut out.traces,
                liquids: shared.liquids,
                quiet: calm.quiet,
                dry: calm.dry,
                scene: shared.scene,
            };
            update(&mut after, &mut tracer, shared.params, &mut log);
        });
        let left = left_world(after.position, shared.floor);
        if left {
            after.velocity = DVec3::ZERO;
        }
        if let Some(filters) = filters.as_deref_mut() {
            track_in_filters(filters, local, mover.poses, &before, &after);
        }
        write_back(mover, &before, &after);
        let woken = record_contacts(scratch.touches, out, shared.step, mover, &log);
        for &kind in &log.events {
            out.events.push((id.0, id, kind));
        }
        if left {
            mover.rest.left_world = true;
            mover.rest.asleep = false;
            if let Some(filters) = filters {
                filters.remove(local);
            }
            out.events
                .push((id.0, id, EventKind::LeftWorld { at: after.position }));
        } else {
            rest_or_sleep(shared.params, out, id, mover.rest, &after, &log);
        }
        woken
    };
    let id = scratch.ids[index];
    for other in woken {
        let at = scratch
            .ids
            .binary_search(&other)
            .expect("an agent touched is in the mover's group");
        let rest = &mut group[at].rest;
        rest.still_steps = 0;
        if rest.asleep {
            rest.asleep = false;
            out.events.push((id.0, other, EventKind::Woke));
        }
    }
    *scratch.log = log;
}

/// Keeps the group's filter stack current for the agents that follow (most moves keep the pose,
/// and the stack holds the shape of the pose the move started in).
fn track_in_filters(
    filters: &mut FilterStack,
    local: Slot,
    poses: &PoseSet,
    before: &MoverState,
    after: &MoverState,
) {
    if after.pose == before.pose {
        filters.move_to(local, after.position);
    } else {
        filters.update(local, poses.get(after.pose).shape(), after.position);
    }
}

/// Writes an agent's new state into its components, and the distance it moved into its totals.
fn write_back(mover: &mut Mover<'_>, before: &MoverState, after: &MoverState) {
    mover.position.0 = after.position;
    mover.velocity.0 = after.velocity;
    *mover.timer = after.timer;
    *mover.water = after.water;
    *mover.pose = after.pose;
    *mover.ground = after.ground;
    *mover.intent = after.intent;
    mover.totals.distance += after.position.distance(before.position);
}

/// Records the contacts that began in this move (a target the agent was not touching in its
/// previous move), keeps what it touches now, and returns the agents it touched (to wake).
fn record_contacts(
    touches: &mut Vec<TouchKey>,
    out: &mut GroupOutcome,
    step: u64,
    mover: &mut Mover<'_>,
    log: &MoveLog,
) -> Vec<AgentId> {
    let id = *mover.id;
    let mut woken = Vec::new();
    let mut now = std::mem::take(touches);
    now.clear();
    for hit in &log.hits {
        let Some(contact) = hit.contact else { continue };
        let key = TouchKey::of(&contact.other);
        if !now.contains(&key) {
            now.push(key);
            if !mover.touching.0.contains(&key) {
                mover.totals.contacts += 1;
                debug_assert_eq!(contact.step, step);
                out.events
                    .push((id.0, id, EventKind::Contact(ContactEvent::of(&contact))));
            }
        }
        if let ContactTarget::Agent(other) = contact.other {
            woken.push(other);
        }
    }
    now.sort_unstable();
    // The previous list becomes the next agent's buffer.
    *touches = std::mem::replace(&mut mover.touching.0, now);
    woken
}

/// True when an agent at `position` has left the world: below `floor`, or beyond
/// [`MAX_COORDINATE`] on any axis (the numeric domain, [`cspace_geom::domain`]).
pub(super) fn left_world(position: DVec3, floor: f64) -> bool {
    let inside = position.abs().max_element() <= MAX_COORDINATE; // false for NaN too
    position.z < floor || !inside
}

/// Counts the steps an agent rests (on walkable ground, still, wishing nothing, nothing hit) and
/// puts it to sleep after `sleep_after_steps` of them (Blow's sleeping objects).
fn rest_or_sleep(
    params: &MoveParams,
    out: &mut GroupOutcome,
    id: AgentId,
    rest: &mut Rest,
    after: &MoverState,
    log: &MoveLog,
) {
    let resting = after.ground.walkable().is_some()
        && after.velocity == DVec3::ZERO
        && after.intent.direction == DVec3::ZERO
        && !after.intent.jump
        && (after.pose == Pose::Standing) != after.intent.crouch
        && log.hits.is_empty()
        && log.events.is_empty();
    rest.still_steps = if resting { rest.still_steps + 1 } else { 0 };
    if rest.still_steps >= params.sleep_after_steps && !rest.asleep && params.sleep_after_steps > 0
    {
        rest.asleep = true;
        out.events.push((id.0, id, EventKind::Slept));
    }
}

/// The box `mover` can occupy while it moves `dt` seconds: its poses' bounds around its position,
/// grown by the farthest it can go. Its speed after the step is at most its speed now plus what
/// the step can add: acceleration towards the wish (at most `accelerate * dt * wish`, Quake III's
/// `PM_Accelerate`), gravity, and a jump (which replaces the vertical speed) when it wants one;
/// clipping against planes never adds speed. It slides at most that speed for `dt` (the bumps
/// share the step's time), steps up and down by at most the step height, and the ground probe
/// looks a little further down; the skin both ways.
///
/// `water`: the most speed liquids can set at once ([`water_reach`]) in a world with liquids.
pub(super) fn reach(mover: &Mover<'_>, params: &MoveParams, water: Option<f64>, dt: f64) -> Aabb {
    let poses = mover.poses;
    let mut bounds = poses.traced(Pose::Standing).shape().bounds();
    if poses.crouching.is_some() {
        bounds = bounds.merged(poses.traced(Pose::Crouching).shape().bounds());
    }
    let now = mover
        .velocity
        .0
        .length()
        .min(cspace_geom::tolerance::MAX_SPEED);
    let wish = mover.intent.speed.max(params.walk_speed);
    let accelerate = params.accelerate.max(params.air_accelerate) * dt * wish;
    let jump = if mover.intent.jump {
        params.jump_speed + now
    } else {
        0.0
    };
    let slide = (now + accelerate + params.gravity * dt + jump + water.unwrap_or(0.0)) * dt
        + 2.0 * params.skin
        + REACH_MARGIN;
    let climb = params.step_height + params.ground_probe;
    let grow = DVec3::new(slide, slide, slide + climb);
    let at = bounds.translated(mover.position.0);
    Aabb::new(at.min - grow, at.max + grow)
}

/// The most speed a liquid's rules can set at once, units/s: a water jump's speeds (up and
/// forward) and Quake 1's swim up, added to an agent's reach in a world with liquids (its swim
/// acceleration is within the ground's, already counted).
pub(super) fn water_reach(w: &WaterParams) -> f64 {
    let swim_up = w
        .swim_up
        .map_or(0.0, |up| up.into_iter().fold(0.0, f64::max));
    w.jump_up + w.jump_forward + swim_up
}

/// The groups of a step: union-find over the agents' overlapping reaches, found through a grid
/// of square cells as wide as the widest reach (a reach meets only reaches whose lowest corner is
/// in its cell or a neighbouring one).
#[derive(Debug, Default)]
pub(super) struct Partition {
    parent: Vec<u32>,
    /// Per agent with a reach (not a large one): its cell ([`pack`]) and id, sorted.
    cells: Vec<(u64, u32)>,
    /// The runs of `cells` in one cell: the cell, where its run starts and ends.
    runs: Vec<(u64, usize, usize)>,
    widths: Vec<f64>,
    size: Vec<usize>,
    offset: Vec<usize>,
    /// The members of every group, group after group, each group's in ascending id order; groups
    /// in the order of their smallest member.
    pub(super) members: Vec<u32>,
    /// Where each group starts in `members` (and, last, its length).
    pub(super) starts: Vec<usize>,
    /// Per agent, its place in `members` (`u32::MAX` for an agent in no group).
    pub(super) rank: Vec<u32>,
}

/// Bits per axis of a packed cell.
const CELL_BITS: u32 = 21;

/// A cell's coordinates packed into one key, x then y then z, each offset by `2^20` (cells are at
/// least a unit wide and reaches lie in the numeric domain, within `±2^20`; anything beyond is
/// clamped, which only puts more agents in a cell). Keys sort as the cells do in (x, y, z) order.
fn pack(cell: DVec3) -> u64 {
    let offset = 1i64 << (CELL_BITS - 1);
    let field = |v: f64| ((v as i64).clamp(-offset + 1, offset - 2) + offset) as u64;
    (field(cell.x) << (2 * CELL_BITS)) | (field(cell.y) << CELL_BITS) | field(cell.z)
}

/// What adding `[dx, dy, dz]` to a cell adds to its key (fields never cross: cells are kept one
/// away from their fields' ends).
const fn offset_of(d: [i64; 3]) -> u64 {
    let shifted = (d[0] << (2 * CELL_BITS)) + (d[1] << CELL_BITS) + d[2];
    shifted as u64
}

/// The cell itself and the 13 cells after it in (x, y, z) order among its 26 neighbours, as key
/// offsets.
const FORWARD: [u64; 14] = {
    let mut out = [0; 14];
    let mut n = 1;
    let mut x = -1;
    while x <= 1 {
        let mut y = -1;
        while y <= 1 {
            let mut z = -1;
            while z <= 1 {
                if x > 0 || (x == 0 && (y > 0 || (y == 0 && z > 0))) {
                    out[n] = offset_of([x, y, z]);
                    n += 1;
                }
                z += 1;
            }
            y += 1;
        }
        x += 1;
    }
    out
};

/// The median of `values` (reordered), or 0 for none.
fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let middle = values.len() / 2;
    *values.select_nth_unstable_by(middle, f64::total_cmp).1
}

impl Partition {
    /// Joins the groups of `i` and `j`; the smaller index is the root, so roots are their
    /// groups' smallest members.
    fn union(&mut self, i: u32, j: u32) {
        let (ri, rj) = (self.root(i), self.root(j));
        if ri != rj {
            self.parent[ri.max(rj) as usize] = ri.min(rj);
        }
    }

    fn root(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let grand = self.parent[self.parent[i as usize] as usize];
            self.parent[i as usize] = grand;
            i = grand;
        }
        i
    }

    /// Groups the agents with a reach (`None`: left the world, in no group) by overlapping
    /// reaches, transitively.
    pub(super) fn split(&mut self, reaches: &[Option<Aabb>]) {
        let n = reaches.len();
        self.parent.clear();
        self.parent.extend(0..n as u32);
        // Cells twice the median reach wide and high (in 3D: agents falling past each other are
        // far apart in z); the few larger reaches (agents falling fast, say) are tested against
        // every other instead of enlarging every cell.
        let side = |r: &Aabb| r.size();
        self.widths.clear();
        self.widths
            .extend(reaches.iter().flatten().map(|r| side(r).x.max(side(r).y)));
        let width = median(&mut self.widths);
        self.widths.clear();
        self.widths
            .extend(reaches.iter().flatten().map(|r| side(r).z));
        let height = median(&mut self.widths);
        let cell = DVec3::new(2.0 * width, 2.0 * width, 2.0 * height).max(DVec3::ONE);
        let large = |r: &Aabb| side(r).cmpgt(cell).any();
        for (i, a) in reaches.iter().enumerate() {
            let Some(a) = a.filter(large) else {
                continue;
            };
            for (j, b) in reaches.iter().enumerate() {
                if let Some(b) = b
                    && j != i
                    && a.intersects(b)
                {
                    self.union(i as u32, j as u32);
                }
            }
        }
        self.cells.clear();
        self.cells
            .extend(reaches.iter().enumerate().filter_map(|(i, r)| {
                let r = r.filter(|r| !large(r))?;
                Some((pack((r.min / cell).floor()), i as u32))
            }));
        self.cells.sort_unstable();
        // The runs of agents per cell, in cell order.
        self.runs.clear();
        let mut start = 0;
        while start < self.cells.len() {
            let key = self.cells[start].0;
            let end = start + self.cells[start..].partition_point(|c| c.0 == key);
            self.runs.push((key, start, end));
            start = end;
        }
        // Each run against itself and against the runs of the 13 neighbours after its cell in
        // (x, y, z) order: every pair of cells within one of each other once. Adding an offset
        // keeps the cells' order, so one pointer per offset walks the runs once.
        for (n, d) in FORWARD.into_iter().enumerate() {
            let mut p = 0;
            for r in 0..self.runs.len() {
                let (key, start, end) = self.runs[r];
                let (from, to) = if n == 0 {
                    (start, end)
                } else {
                    let next = key.wrapping_add(d);
                    while p < self.runs.len() && self.runs[p].0 < next {
                        p += 1;
                    }
                    match self.runs.get(p) {
                        Some(&(k, from, to)) if k == next => (from, to),
                        _ => continue,
                    }
                };
                for a in start..end {
                    let i = self.cells[a].1;
                    let ra = reaches[i as usize].expect("listed agents have a reach");
                    let first = if n == 0 { a + 1 } else { from };
                    for b in first..to {
                        let j = self.cells[b].1;
                        if ra.intersects(&reaches[j as usize].expect("listed agents have a reach"))
                        {
                            self.union(i, j);
                        }
                    }
                }
            }
        }
        // Members by group: count, then place (each group's members ascending, groups ordered by
        // their root, the smallest member).
        self.size.clear();
        self.size.resize(n, 0);
        for (i, reach) in reaches.iter().enumerate() {
            if reach.is_some() {
                let r = self.root(i as u32) as usize;
                self.size[r] += 1;
            }
        }
        self.starts.clear();
        self.offset.clear();
        self.offset.resize(n, 0);
        let mut total = 0;
        for r in 0..n {
            if self.size[r] > 0 {
                self.starts.push(total);
                self.offset[r] = total;
                total += self.size[r];
            }
        }
        self.starts.push(total);
        self.members.clear();
        self.members.resize(total, 0);
        self.rank.clear();
        self.rank.resize(n, u32::MAX);
        for (i, reach) in reaches.iter().enumerate() {
            if reach.is_some() {
                let r = self.root(i as u32) as usize;
                self.members[self.offset[r]] = i as u32;
                self.rank[i] = self.offset[r] as u32;
                self.offset[r] += 1;
            }
        }
    }

    /// The number of groups.
    pub(super) fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(x: f64) -> Option<Aabb> {
        Some(Aabb::new(
            DVec3::new(x, 0.0, 0.0),
            DVec3::new(x + 10.0, 10.0, 10.0),
        ))
    }

    #[test]
    fn overlapping_reaches_join_transitively_and_groups_list_their_members_in_order() {
        let mut p = Partition::default();
        // 0-1-3 chain (0 touches 3 only through 1), 2 alone, 4 has left the world, 5 alone.
        let reaches = [
            cube(0.0),
            cube(8.0),
            cube(100.0),
            cube(16.0),
            None,
            cube(300.0),
        ];
        p.split(&reaches);
        let groups: Vec<&[u32]> = (0..p.len())
            .map(|g| &p.members[p.starts[g]..p.starts[g + 1]])
            .collect();
        assert_eq!(groups, [&[0, 1, 3][..], &[2], &[5]]);
    }
}
