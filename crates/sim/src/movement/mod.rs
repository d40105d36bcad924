//! The movement model: Quake III's `bg_pmove.c` and `bg_slidemove.c` (friction, acceleration,
//! jump, crouch, ground trace, slide move, step up), under one of two profiles
//! ([`Profile`], `docs/movement.md`): Quake III's own rules, or cspace's, which change a few of
//! them on purpose (Quake II's step-up rule, no speed kept into a plane, no velocity left
//! pointing into a touched plane, an exact contact model, a wider search for agents found in
//! solid), each declared and tested.

mod player;
pub mod water;

pub use player::{Player, PlayerMove};
pub use water::{Water, WaterJump};

use cspace_contact::Contact;
use cspace_geom::DVec3;

use crate::agent::{Ground, Pose, PoseSet};
use crate::intent::Intent;
use crate::params::{MoveParams, Profile, WaterParams};
use crate::record::EventKind;
use cspace_geom::tolerance::{LAUNCH_SPEED, MAX_SPEED};

/// Quake III's landing timer (`PM_GroundTrace`, `bg_pmove.c`): a landing faster than this
/// downwards, units/s (200), ...
const LAND_TIMER_SPEED: f64 = 200.0;
/// ... starts a timer of this many seconds (`pm_time = 250` ms) during which the slide move
/// keeps the velocity it had before it slid (`PM_SlideMove`'s `primal_velocity`).
const LAND_TIMER: f64 = 0.25;

/// A timer of the movement model (Quake III's `pm_time` with `PMF_TIME_LAND` or
/// `PMF_TIME_KNOCKBACK`): while it runs, the slide move keeps the velocity it started with; a
/// knockback also takes the ground friction away, walks with the air's acceleration and lets
/// gravity act on the ground.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MoveTimer {
    /// Seconds left (0: no timer).
    pub seconds: f64,
    /// Set by a hard landing (Quake III only).
    pub land: bool,
    /// Set by a push (a jump pad, a teleporter, a hit).
    pub knockback: bool,
    /// Seconds left during which a wish backwards (against the view's forward direction) is
    /// dropped, its sideways part kept: Quake 1's hold after a teleport ("hack to not let you
    /// back into teleporter", `SV_AirMove` in `sv_user.c`: `fmove = 0` while `sv.time <
    /// teleport_time`). It runs down on its own, beside `seconds`.
    pub hold_backward: f64,
    /// Set by a Quake III water jump (`PMF_TIME_WATERJUMP`): no control, gravity, and the slide
    /// keeps its velocity until the agent falls or lands (`movement/water.rs`).
    pub water_jump: bool,
}

impl MoveTimer {
    /// A knockback of `seconds`: no friction, weak control, gravity on the ground.
    pub fn knockback(seconds: f64) -> MoveTimer {
        MoveTimer {
            seconds,
            land: false,
            knockback: true,
            hold_backward: 0.0,
            water_jump: false,
        }
    }

    /// True while it runs.
    pub fn running(&self) -> bool {
        self.seconds > 0.0
    }
}

/// The answer to one trace of a mover: the world's hit and, in a simulation, the other agents',
/// whichever comes first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveHit {
    /// Free fraction of the move (after the skin pull-back), in `[0, 1]`.
    pub fraction: f64,
    /// Where the mover ends (world, units).
    pub end: DVec3,
    /// The hit normal, pointing to the mover; `None` on a miss.
    pub normal: Option<DVec3>,
    /// The move started in solid (world).
    pub start_solid: bool,
    /// The move never left solid (world).
    pub all_solid: bool,
    /// The contact, when something was hit.
    pub contact: Option<Contact>,
}

impl MoveHit {
    /// The mover's hit of the world: a backend's answer, with the contact it describes (made by
    /// `agent` in `step`).
    pub fn of_world(hit: &cspace_geom::Hit, step: u64, agent: cspace_contact::AgentId) -> MoveHit {
        MoveHit {
            fraction: hit.fraction(),
            end: hit.end(),
            normal: hit.surface().map(|s| s.plane.normal()),
            start_solid: hit.start_solid(),
            all_solid: hit.all_solid(),
            contact: Contact::from_hit(step, agent, hit),
        }
    }
}

/// What the movement model asks of the world around a mover: traces and overlap tests of its
/// shape in a pose. A simulation answers with the backend and the other agents
/// (`simulation/tracer.rs`); [`PlayerMove`] with the backend alone.
pub trait Surroundings {
    /// Sweeps the mover in `pose` from `start` to `end`.
    fn trace(&mut self, pose: Pose, start: DVec3, end: DVec3) -> MoveHit;
    /// True when the mover in `pose` at `position` overlaps nothing.
    fn is_free(&mut self, pose: Pose, position: DVec3) -> bool;
    /// The mover's shapes, prepared for the backend.
    fn poses(&self) -> &PoseSet;
    /// The water rules of a world with liquids; `None` (the default): no liquid anywhere, and
    /// the movement model is the one of a dry world, bit for bit.
    fn water(&self) -> Option<&WaterParams> {
        None
    }
    /// The liquid containing `point`, if any (`docs/entities.md`, "Liquids": on a face per the
    /// dialect).
    fn liquid(&mut self, _point: DVec3) -> Option<cspace_entities::LiquidKind> {
        None
    }
    /// Whether `point` is inside a brush of the world (closed: on a face is inside, as Quake
    /// III's `CM_PointContents`), in a living world the static world's or a mover's where it
    /// stands: `Some(true)` for solid, `Some(false)` for clip only, `None` outside every brush.
    fn solid(&mut self, _point: DVec3) -> Option<bool> {
        None
    }
    /// The outward normal of the first brush of the world (in a living world, the static
    /// world's or a mover's where it stands) a line from `start` to `end` meets (Quake's
    /// `traceline`), `None` when it meets none.
    fn line(&mut self, _start: DVec3, _end: DVec3) -> Option<DVec3> {
        None
    }
}

/// The state of the agent being moved (copied out of its components and written back).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct MoverState {
    pub position: DVec3,
    pub velocity: DVec3,
    pub pose: Pose,
    pub ground: Ground,
    pub intent: Intent,
    pub can_crouch: bool,
    pub timer: MoveTimer,
    /// The agent's liquid (left at its default in a world without liquids).
    pub water: Water,
}

/// What a move produced besides the new state.
#[derive(Debug, Default)]
pub(crate) struct MoveLog {
    /// Every trace that hit something, in order.
    pub hits: Vec<MoveHit>,
    /// Events other than contacts.
    pub events: Vec<EventKind>,
}

impl MoveLog {
    /// Empties the log, keeping its buffers for the next agent.
    pub fn clear(&mut self) {
        self.hits.clear();
        self.events.clear();
    }
}

/// Quake III's `PM_ClipVelocity`: removes the part of `v` into the plane, over-bouncing slightly.
pub(crate) fn clip_velocity(v: DVec3, normal: DVec3, overclip: f64) -> DVec3 {
    let backoff = v.dot(normal);
    let backoff = if backoff < 0.0 {
        backoff * overclip
    } else {
        backoff / overclip
    };
    v - normal * backoff
}

/// Crouching and standing (`PM_CheckDuck`): crouching always fits (the pose is smaller);
/// standing only where the whole standing shape is free.
pub(crate) fn crouch_or_stand(st: &mut MoverState, tr: &mut impl Surroundings, log: &mut MoveLog) {
    if !st.can_crouch {
        return;
    }
    match (st.intent.crouch, st.pose) {
        (true, Pose::Standing) => st.pose = Pose::Crouching,
        (false, Pose::Crouching) => {
            if tr.is_free(Pose::Standing, st.position) {
                st.pose = Pose::Standing;
            } else {
                log.events.push(EventKind::StandRefused);
            }
        }
        _ => {}
    }
}

/// One frame of movement (Quake III's `PmoveSingle` for one sub-step of `dt` seconds), in the
/// profile's order. cspace: crouch or stand, the timers, walk or fall, the ground. Quake III:
/// crouch or stand, the ground, the timers, walk or fall, the ground again, then the velocity
/// rounded to integers (`trap_SnapVector`, round to nearest, ties to even as `cvtps2dq` rounds).
pub(crate) fn frame(
    st: &mut MoverState,
    tr: &mut impl Surroundings,
    p: &MoveParams,
    dt: f64,
    log: &mut MoveLog,
) {
    let frame_start = st.velocity;
    // A world with liquids: the level before the pose changes (`PM_SetWaterLevel` precedes
    // `PM_CheckDuck`), the move chosen by it, and the level again at the end.
    let water = tr.water().copied();
    let before = st.water;
    if let Some(w) = &water {
        water::set_level(st, tr, w);
    }
    crouch_or_stand(st, tr, log);
    if p.profile == Profile::Quake3 {
        ground_check(st, tr, p, frame_start, log);
        if let Some(w) = &water {
            water::land(st, w);
        }
    }
    drop_timers(st, dt);
    match &water {
        Some(w) => water::move_in_liquid(st, tr, p, w, dt, log),
        None => walk_or_fall(st, tr, p, dt, None, log),
    }
    ground_check(st, tr, p, frame_start, log);
    if let Some(w) = &water {
        water::land(st, w);
        water::end_frame(st, tr, w, before, dt, log);
    }
    if p.profile == Profile::Quake3 {
        st.velocity = DVec3::new(
            st.velocity.x.round_ties_even(),
            st.velocity.y.round_ties_even(),
            st.velocity.z.round_ties_even(),
        );
    }
}

/// Places an agent just spawned or teleported: cspace frees it if it is in solid
/// ([`unstick`]), then finds its ground; Quake III finds its ground.
pub(crate) fn settle(
    st: &mut MoverState,
    tr: &mut impl Surroundings,
    p: &MoveParams,
    log: &mut MoveLog,
    stacks: &mut Stacks,
) {
    if p.profile == Profile::Cspace {
        unstick_placed(st, tr, log, Some(stacks));
    }
    let start = st.velocity;
    ground_check(st, tr, p, start, log);
    if let Some(w) = tr.water().copied() {
        let before = st.water;
        water::note_level(st, tr, &w, before, log);
    }
}

/// `PM_DropTimers`: the timer runs down by `dt`, and ends (every timer flag cleared) when `dt`
/// reaches what is left.
fn drop_timers(st: &mut MoverState, dt: f64) {
    let hold = (st.timer.hold_backward - dt).max(0.0);
    if st.timer.running() {
        if dt >= st.timer.seconds {
            st.timer = MoveTimer::default();
        } else {
            st.timer.seconds -= dt;
        }
    }
    st.timer.hold_backward = hold;
}

/// `PM_GroundTrace`: what is under the agent, found by a short downward trace. `frame_start` is
/// the velocity the frame began with (Quake III's `previous_velocity`, which decides a hard
/// landing).
pub(crate) fn ground_check(
    st: &mut MoverState,
    tr: &mut impl Surroundings,
    p: &MoveParams,
    frame_start: DVec3,
    log: &mut MoveLog,
) {
    let quake3 = p.profile == Profile::Quake3;
    let was_airborne = st.ground == Ground::Air;
    // Quake III lands (`PM_CrashLand`) whenever it had no ground entity: in the air or on steep
    // ground.
    let had_no_ground = st.ground.walkable().is_none();
    let below = st.position - DVec3::new(0.0, 0.0, p.ground_probe);
    let mut hit = tr.trace(st.pose, st.position, below);
    if hit.start_solid {
        if quake3 {
            // `PM_CorrectAllSolid` looks for a free place around and moves nothing; its ground
            // trace still starts in solid: nothing under the agent to stand on.
            if hit.all_solid {
                st.ground = Ground::Air;
                return;
            }
        } else {
            unstick(st, tr, log);
            let below = st.position - DVec3::new(0.0, 0.0, p.ground_probe);
            hit = tr.trace(st.pose, st.position, below);
        }
    }
    st.ground = match hit.normal {
        None => Ground::Air,
        // Moving up and away from the plane: a jump or a launch, not a landing.
        Some(n) if st.velocity.z > 0.0 && st.velocity.dot(n) > LAUNCH_SPEED => Ground::Air,
        Some(n) if n.z < p.min_walk_normal => Ground::Steep(n),
        Some(n) if quake3 => {
            if had_no_ground && frame_start.z < -LAND_TIMER_SPEED {
                st.timer = MoveTimer {
                    seconds: LAND_TIMER,
                    land: true,
                    ..st.timer
                };
            }
            Ground::Walkable(n)
        }
        Some(n) => {
            // Settle onto walkable ground (a skin above it), so the resting height does not
            // depend on where in its last step a fall ended, and a landing stops the fall.
            // Quake III floats up to the probe length above the ground, and keeps the speed.
            // Walking on, the speed along the ground is kept: downhill too.
            if hit.fraction > 0.0 {
                st.position = hit.end;
            }
            if was_airborne {
                st.velocity.z = st.velocity.z.max(0.0);
            }
            Ground::Walkable(n)
        }
    };
    // Landing is a contact, whether the last move of the fall hit the ground or the probe found it.
    if was_airborne && st.ground != Ground::Air {
        log.hits.push(hit);
    }
}

/// Quake III's `PM_CorrectAllSolid`, then Blow's emergency routine, recorded as an event: the
/// start itself, then its 26 neighbours of `{-1, 0, 1}^3` (Quake III tries these 27 positions),
/// then the same 26 directions at 2, 4, 8, ..., 256 units, then the floor around it one shape
/// apart ([`floor_lattice`]): the first free position found in that order, which is near but not
/// always the nearest free position.
pub(crate) fn unstick(st: &mut MoverState, tr: &mut impl Surroundings, log: &mut MoveLog) {
    unstick_placed(st, tr, log, None);
}

/// Where the agents of a stack (placed on one point with one shape) were freed so far: the
/// place in [`unstick`]'s order of the last one freed, by its starting point and shape. The
/// next agent of the stack starts its search after it: the places before it were taken or
/// solid for the last one, and agents settle in id order without moving apart, so they still
/// are. A stack of `n` agents is then spread in about `n` place tests instead of `n^2 / 2`
/// (issue 36: 10,000 agents on one point took 51.8 s a step). Kept for one settling pass.
///
/// It also counts the agents of each stack still to settle: while one is left, the stack's point
/// is taken (they stand there), so the agents before it do not test it against the whole pile.
#[derive(Debug, Default)]
pub(crate) struct Stacks {
    last: std::collections::HashMap<StackKey, usize>,
    waiting: std::collections::HashMap<StackKey, usize>,
}

/// A stack: a starting point (its bits) and a shape (its full description).
type StackKey = ([u64; 3], String);

fn stack_key(from: DVec3, shape: &cspace_geom::Shape) -> StackKey {
    (from.to_array().map(f64::to_bits), format!("{shape:?}"))
}

impl Stacks {
    /// Forgets every stack (a new settling pass).
    pub fn clear(&mut self) {
        self.last.clear();
        self.waiting.clear();
    }

    /// Counts an agent still to settle at `from` with `shape`.
    pub fn wait(&mut self, from: DVec3, shape: &cspace_geom::Shape) {
        *self.waiting.entry(stack_key(from, shape)).or_default() += 1;
    }
}

/// [`unstick`], for an agent just placed (`stacks`: the settling pass's stacks, and the wider
/// lattice of [`SETTLE_LATTICE_RINGS`]) or found in solid while it moves (`None`).
fn unstick_placed(
    st: &mut MoverState,
    tr: &mut impl Surroundings,
    log: &mut MoveLog,
    mut stacks: Option<&mut Stacks>,
) {
    let from = st.position;
    let key = stacks
        .as_ref()
        .map(|_| stack_key(from, tr.poses().get(st.pose).shape()));
    // Others of its stack still to settle stand on its point: it is taken.
    let others_waiting = match (&stacks, &key) {
        (Some(stacks), Some(key)) => stacks.waiting.get(key).is_some_and(|&n| n > 1),
        _ => false,
    };
    if let (Some(stacks), Some(key)) = (stacks.as_deref_mut(), &key)
        && let Some(n) = stacks.waiting.get_mut(key)
    {
        *n = n.saturating_sub(1);
    }
    if !others_waiting && tr.is_free(st.pose, from) {
        return;
    }
    let shape = tr.poses().get(st.pose);
    let size = shape.shape().bounds().size() + 2.0 * shape.skin();
    let rings = if stacks.is_some() {
        SETTLE_LATTICE_RINGS
    } else {
        LATTICE_RINGS
    };
    let places = UnstickPlaces::new(from, size, rings);
    let first = match (&stacks, &key) {
        (Some(stacks), Some(key)) => stacks.last.get(key).map_or(0, |last| last + 1),
        _ => 0,
    };
    let found = (first.min(places.len())..places.len())
        .map(|n| (n, places.get(n)))
        .find(|&(_, (to, _))| tr.is_free(st.pose, to))
        .map(|(n, (to, nudged))| (n, to, nudged));
    if let (Some(stacks), Some(key)) = (stacks, key) {
        // A stack with no place left: the agents after it find none either.
        let last = found.map_or(usize::MAX - 1, |(place, ..)| place);
        stacks.last.insert(key, last);
    }
    match found {
        Some((_, to, nudged)) => {
            st.position = to;
            if !nudged {
                st.velocity = DVec3::ZERO;
            }
            log.events.push(EventKind::Unstuck { from, to, nudged });
        }
        None => {
            st.velocity = DVec3::ZERO;
            log.events.push(EventKind::Stuck { at: from });
        }
    }
}

/// The places `unstick` tries, in order, for a mover of `size` (its shape's bounds widened by
/// its skin) found in solid at `from`: the 26 unit offsets within +-1, nearest first (straight up
/// before sideways), then in a fixed order; then the same directions at radii 2, 4, ... 256; then
/// the floor around, one shape apart, ring by ring (`floor_lattice`; a pile of agents started
/// on one point fills the rings and spreads over the floor). Read by index, so a stack's next
/// agent starts where the last one stopped, and by `sim check`, which counts the free places
/// around a stack before it runs.
#[derive(Clone, Copy, Debug)]
pub struct UnstickPlaces {
    from: DVec3,
    size: DVec3,
    len: usize,
}

impl UnstickPlaces {
    /// The places around `from` for a mover of `size`, with `rings` rings of the floor lattice
    /// ([`SETTLE_LATTICE_RINGS`] for an agent just placed).
    pub fn new(from: DVec3, size: DVec3, rings: i32) -> UnstickPlaces {
        let side = 2 * rings.clamp(0, SETTLE_LATTICE_RINGS.max(LATTICE_RINGS)) as usize + 1;
        UnstickPlaces {
            from,
            size,
            len: NUDGES_AND_RINGS + side * side - 1,
        }
    }

    /// How many places there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none (never: the 26 nudges come first).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The place `n` (below [`len`](Self::len)), and whether it is a nudge (a move of at most one
    /// unit, which keeps the mover's velocity).
    pub fn get(&self, n: usize) -> (DVec3, bool) {
        let nudges = nudges();
        if n < nudges.len() {
            (self.from + nudges[n], true)
        } else if n < NUDGES_AND_RINGS {
            let ring = (n - nudges.len()) / nudges.len() + 1;
            let radius = f64::from(1u32 << ring);
            let offset = nudges[(n - nudges.len()) % nudges.len()];
            (self.from + offset.normalize() * radius, false)
        } else {
            let (i, j) = floor_lattice()[n - NUDGES_AND_RINGS];
            let cell = DVec3::new(f64::from(i) * self.size.x, f64::from(j) * self.size.y, 0.0);
            (self.from + cell, false)
        }
    }
}

/// How many rings of [`floor_lattice`] the emergency search tries for an agent found in solid
/// while it moves: 1,088 positions, a square 33 shapes wide.
const LATTICE_RINGS: i32 = 16;

/// How many rings the search tries for an agent just placed: 16,640 positions, a square 129
/// shapes wide, so that ten thousand agents started on one point all find a place (a scenario
/// stacking more than the free places around them is refused by its checker).
pub const SETTLE_LATTICE_RINGS: i32 = 64;

/// The last stage of [`unstick`]: the lattice one shape (and skin) apart at the mover's height,
/// ring by ring (the square ring at Chebyshev distance 1, 2, ...), nearest first in each ring,
/// then in `(i, j)` order. Agents started on one point spread out here instead of staying stacked,
/// where every move of one was blocked by the others and every step cost the square of their
/// number (issue 17, failure 9).
fn floor_lattice() -> &'static [(i32, i32)] {
    static LATTICE: std::sync::OnceLock<Vec<(i32, i32)>> = std::sync::OnceLock::new();
    LATTICE.get_or_init(|| {
        (1..=SETTLE_LATTICE_RINGS.max(LATTICE_RINGS))
            .flat_map(|ring| {
                let mut cells: Vec<(i32, i32)> = (-ring..=ring)
                    .flat_map(|i| (-ring..=ring).map(move |j| (i, j)))
                    .filter(|&(i, j)| i.abs().max(j.abs()) == ring)
                    .collect();
                cells.sort_by_key(|&(i, j)| (i * i + j * j, i, j));
                cells
            })
            .collect()
    })
}

/// How many places [`unstick`] tries before the floor lattice: the 26 nudges, then the same
/// directions at 8 radii.
const NUDGES_AND_RINGS: usize = 26 * 9;

/// The 26 offsets of `{-1, 0, 1}^3` but the origin, by length, then up before down, then in
/// x, y, z order; sorted once.
fn nudges() -> &'static [DVec3; 26] {
    static NUDGES: std::sync::OnceLock<[DVec3; 26]> = std::sync::OnceLock::new();
    NUDGES.get_or_init(|| {
        let mut all = [DVec3::ZERO; 26];
        let mut n = 0;
        for i in [-1.0, 0.0, 1.0] {
            for j in [-1.0, 0.0, 1.0] {
                for k in [-1.0, 0.0, 1.0] {
                    if (i, j, k) != (0.0, 0.0, 0.0) {
                        all[n] = DVec3::new(i, j, k);
                        n += 1;
                    }
                }
            }
        }
        all.sort_by(|a, b| {
            a.length_squared()
                .total_cmp(&b.length_squared())
                .then(b.z.total_cmp(&a.z))
        });
        all
    })
}

/// `PM_Friction`, on walkable ground only, and not while knocked back.
fn friction(st: &mut MoverState, p: &MoveParams, dt: f64) {
    if st.ground.walkable().is_none() {
        return;
    }
    let horizontal = DVec3::new(st.velocity.x, st.velocity.y, 0.0);
    let speed = horizontal.length();
    if speed < 1.0 {
        st.velocity.x = 0.0;
        st.velocity.y = 0.0;
        return;
    }
    if st.timer.knockback {
        return;
    }
    let control = speed.max(p.stop_speed);
    let drop = control * p.friction * dt;
    let scale = (speed - drop).max(0.0) / speed;
    st.velocity *= scale;
}

/// `PM_Accelerate`: towards `wish_dir` at up to `wish_speed`, by at most `accel * dt * wish_speed`.
fn accelerate(st: &mut MoverState, wish_dir: DVec3, wish_speed: f64, accel: f64, dt: f64) {
    let current = st.velocity.dot(wish_dir);
    let add = wish_speed - current;
    if add <= 0.0 {
        return;
    }
    let step = (accel * dt * wish_speed).min(add);
    st.velocity += wish_dir * step;
}

/// The wished direction and speed. On the ground a crouched agent wishes at most
/// `crouch_speed_scale` of the walk speed (`PM_WalkMove`); in the air it wishes what it wishes
/// (`PM_AirMove`).
fn wish(st: &MoverState, p: &MoveParams, on_ground: bool) -> (DVec3, f64) {
    let speed = if on_ground && st.pose == Pose::Crouching {
        st.intent.speed.min(p.walk_speed * p.crouch_speed_scale)
    } else {
        st.intent.speed
    };
    let dir = st.intent.direction;
    let forward = st.intent.view.forward();
    let back = dir.dot(forward);
    if st.timer.hold_backward > 0.0 && back < 0.0 {
        // Quake 1 drops the backward move and keeps the sideways one (its wish speed is their
        // length).
        let side = dir - forward * back;
        return (side.normalize_or_zero(), speed * side.length());
    }
    (dir, speed)
}

/// One sub-step of movement: `PM_WalkMove` on walkable ground (with the jump check), otherwise
/// `PM_AirMove` (sliding down steep ground). `wading`: Quake III's water rules at water level 1
/// (`PM_Friction`'s water term on the ground and in the air, `PM_WalkMove`'s wading speed).
pub(crate) fn walk_or_fall(
    st: &mut MoverState,
    tr: &mut impl Surroundings,
    p: &MoveParams,
    dt: f64,
    wading: Option<&WaterParams>,
    log: &mut MoveLog,
) {
    // Quake's SV_CheckVelocity: no mover goes faster than MAX_SPEED (clamped by length, so the
    // direction is kept), which keeps every move inside the numeric domain.
    st.velocity = st.velocity.clamp_length_max(MAX_SPEED);
    if let Some(normal) = st.ground.walkable() {
        if st.intent.jump {
            st.intent.jump = false;
            st.velocity.z = p.jump_speed;
            st.ground = Ground::Air;
        } else {
            match wading {
                Some(w) => water::friction_quake3(st, p, w, true, dt),
                None => friction(st, p, dt),
            }
            let (dir, speed) = wish(st, p, true);
            let speed = match wading {
                Some(w) => speed.min(water::wade_speed(p, w, st.water.level)),
                None => speed,
            };
            // Project the wish onto the ground plane so slopes are walked at full speed.
            let dir = clip_velocity(dir, normal, p.overclip).normalize_or_zero();
            // Knocked back, the agent has the air's control, and gravity acts.
            let knocked = st.timer.knockback;
            let accel = if knocked {
                p.air_accelerate
            } else {
                p.accelerate
            };
            accelerate(st, dir, speed, accel, dt);
            if knocked {
                st.velocity.z -= p.gravity * dt;
            }
            // Slide along the ground keeping the speed along it, so slopes are walked as fast
            // as flat ground (Quake III's "don't decrease velocity when going up or down a
            // slope"). Quake III keeps the whole speed, into the plane included, which turns the
            // speed of a landing into an upward bounce (its "overbounce" bug); cspace drops the
            // part into the plane.
            let speed = match p.profile {
                Profile::Quake3 => st.velocity.length(),
                Profile::Cspace => (st.velocity - normal * st.velocity.dot(normal)).length(),
            };
            st.velocity =
                clip_velocity(st.velocity, normal, p.overclip).normalize_or_zero() * speed;
            if st.velocity.x == 0.0 && st.velocity.y == 0.0 {
                return;
            }
            step_slide_move(st, tr, p, dt, false, log);
            return;
        }
    }
    if let Some(w) = wading {
        water::friction_quake3(st, p, w, false, dt);
    }
    let (dir, speed) = wish(st, p, false);
    accelerate(st, dir, speed, p.air_accelerate, dt);
    if let Ground::Steep(n) = st.ground {
        st.velocity = clip_velocity(st.velocity, n, p.overclip);
    }
    step_slide_move(st, tr, p, dt, true, log);
}

/// `PM_StepSlideMove`: slide; if blocked, also try the move from `step_height` higher and
/// pushed back down. Quake III keeps the stepped move; cspace (Quake II's rule) keeps whichever
/// went farther horizontally, landing only on walkable ground.
fn step_slide_move(
    st: &mut MoverState,
    tr: &mut impl Surroundings,
    p: &MoveParams,
    dt: f64,
    gravity: bool,
    log: &mut MoveLog,
) {
    let start = *st;
    let first_hits = log.hits.len();
    if !slide_move(st, tr, p, dt, gravity, log) {
        return;
    }
    // Never step up while still moving up, unless standing on walkable ground below.
    if st.velocity.z > 0.0 {
        let below = tr.trace(
            st.pose,
            start.position,
            start.position - DVec3::new(0.0, 0.0, p.step_height),
        );
        if below.normal.is_none_or(|n| n.z < p.min_walk_normal) {
            return;
        }
    }
    let down = *st;
    // The unstepped move's hits are `first_hits..down_hits`; the stepped move's follow them.
    let down_hits = log.hits.len();
    let up = tr.trace(
        st.pose,
        start.position,
        start.position + DVec3::new(0.0, 0.0, p.step_height),
    );
    if up.all_solid {
        *st = down;
        return;
    }
    let climbed = up.end.z - start.position.z;
    *st = MoverState {
        position: up.end,
        velocity: start.velocity,
        ..down
    };
    slide_move(st, tr, p, dt, gravity, log);
    let pushed = tr.trace(
        st.pose,
        st.position,
        st.position - DVec3::new(0.0, 0.0, climbed),
    );
    if !pushed.all_solid {
        st.position = pushed.end;
    }
    if p.profile == Profile::Quake3 {
        // The stepped move, whatever the unstepped one did.
        log.hits.drain(first_hits..down_hits);
        if let Some(n) = pushed.normal {
            st.velocity = clip_velocity(st.velocity, n, p.overclip);
        }
        return;
    }
    let landed = pushed.normal.is_some_and(|n| n.z >= p.min_walk_normal);
    let horizontal = |a: DVec3| (a - start.position).truncate().length_squared();
    if !landed || horizontal(down.position) >= horizontal(st.position) {
        // The unstepped move went as far: keep it, and its contacts.
        log.hits.truncate(down_hits);
        *st = down;
        return;
    }
    log.hits.drain(first_hits..down_hits);
    if let Some(n) = pushed.normal {
        st.velocity = clip_velocity(st.velocity, n, p.overclip);
    }
    // Keep the vertical speed of the unstepped move (Quake II).
    st.velocity.z = down.velocity.z;
}

/// The most planes remembered while sliding, whatever `max_clip_planes` says.
const PLANES: usize = 16;

/// `PM_SlideMove`: up to `bumps` traces, clipping the velocity against every plane hit; a second
/// plane sends the mover along the crease, a third stops it; while a timer runs the velocity it
/// started with is kept. Returns whether anything was hit.
fn slide_move(
    st: &mut MoverState,
    tr: &mut impl Surroundings,
    p: &MoveParams,
    dt: f64,
    gravity: bool,
    log: &mut MoveLog,
) -> bool {
    let quake3 = p.profile == Profile::Quake3;
    let mut velocity = st.velocity;
    let mut end_velocity = velocity;
    // What a running timer keeps (`primal_velocity`).
    let mut primal = velocity;
    if gravity {
        // Half-step average: exact positions for constant gravity whatever the step.
        end_velocity.z -= p.gravity * dt;
        velocity.z = 0.5 * (velocity.z + end_velocity.z);
        primal.z = end_velocity.z;
        if let Some(n) = st.ground.plane() {
            velocity = clip_velocity(velocity, n, p.overclip);
        }
    }
    let max_planes = (p.max_clip_planes as usize).min(PLANES);
    let mut planes = [DVec3::ZERO; PLANES];
    let mut count = 0;
    // Planes actually touched, for the final check that velocity points into none of them.
    let mut touched = [DVec3::ZERO; PLANES];
    let mut touched_count = 0;
    if let Some(n) = st.ground.plane() {
        planes[0] = n;
        count = 1;
        touched[0] = n;
        touched_count = 1;
    }
    // Never turn against the original velocity.
    if let Some(d) = velocity.try_normalize() {
        planes[count] = d;
        count += 1;
    }
    let mut time_left = dt;
    let mut bumps = 0;
    while bumps < p.bumps {
        let travel = velocity * time_left;
        let hit = tr.trace(st.pose, st.position, st.position + travel);
        if hit.all_solid {
            // Trapped: stop falling, and (cspace) try to get out.
            velocity.z = 0.0;
            if !quake3 {
                unstick(st, tr, log);
            }
            st.velocity = velocity;
            return true;
        }
        if hit.fraction > 0.0 {
            st.position = hit.end;
        }
        let Some(normal) = hit.normal else { break };
        log.hits.push(hit);
        bumps += 1;
        time_left -= time_left * hit.fraction;
        if touched_count < PLANES {
            touched[touched_count] = normal;
            touched_count += 1;
        }
        if count >= max_planes {
            velocity = DVec3::ZERO;
            if quake3 {
                // "this shouldn't really happen": stopped, and nothing else done.
                st.velocity = velocity;
                return true;
            }
            break;
        }
        // The same plane again: nudge out along it (fixes epsilon trouble with oblique planes).
        // A plane within the 0.99 of one already met but not the same (a seam between two faces
        // a few degrees apart, such as a walkable slope meeting a slightly steeper one) can
        // still be entered: when it blocks the move where it stands, clip against it first.
        // Quake III only nudges, and a velocity into such a plane was stopped dead on every
        // bump, step after step (an agent stood still at full speed on ericw_q1_mountain's
        // terrain for 95 s). A move that gets on is left to the nudge, as in Quake III.
        if planes[..count].iter().any(|q| normal.dot(*q) > 0.99) {
            // Blocked where it stands: the move ended within the skin of its start.
            let blocked = hit.fraction * travel.length() <= tr.poses().get(st.pose).skin();
            if !quake3 && blocked && velocity.dot(normal) < 0.0 {
                velocity = clip_velocity(velocity, normal, p.overclip);
                end_velocity = clip_velocity(end_velocity, normal, p.overclip);
            }
            velocity += normal;
            continue;
        }
        planes[count] = normal;
        count += 1;
        // Clip against the first plane the move enters; a second sends it along the crease; a
        // third stops it.
        let mut stopped = false;
        for i in 0..count {
            if velocity.dot(planes[i]) >= 0.1 {
                continue;
            }
            let mut clip = clip_velocity(velocity, planes[i], p.overclip);
            let mut end_clip = clip_velocity(end_velocity, planes[i], p.overclip);
            for j in 0..count {
                if j == i || clip.dot(planes[j]) >= 0.1 {
                    continue;
                }
                clip = clip_velocity(clip, planes[j], p.overclip);
                end_clip = clip_velocity(end_clip, planes[j], p.overclip);
                if clip.dot(planes[i]) >= 0.0 {
                    continue;
                }
                let crease = planes[i].cross(planes[j]).normalize_or_zero();
                clip = crease * crease.dot(velocity);
                end_clip = crease * crease.dot(end_velocity);
                if (0..count).any(|k| k != i && k != j && clip.dot(planes[k]) < 0.1) {
                    stopped = true;
                    break;
                }
            }
            velocity = clip;
            end_velocity = end_clip;
            break;
        }
        if stopped {
            // Stop dead at a triple plane interaction.
            st.velocity = DVec3::ZERO;
            return true;
        }
    }
    if gravity {
        velocity = end_velocity;
    }
    // "don't change velocity if in a timer (FIXME: is this correct?)", as Quake III has it.
    if st.timer.running() {
        velocity = primal;
    }
    if quake3 {
        st.velocity = velocity;
        return bumps > 0;
    }
    // Never leave the velocity pointing into a plane the mover touched (Quake III can, after a
    // crease or a nudge): clip again, and stop if that does not settle it.
    for _ in 0..3 {
        match touched[..touched_count]
            .iter()
            .find(|n| velocity.dot(**n) < 0.0)
        {
            Some(n) => velocity = clip_velocity(velocity, *n, p.overclip),
            None => break,
        }
    }
    if touched[..touched_count]
        .iter()
        .any(|n| velocity.dot(*n) < 0.0)
    {
        velocity = DVec3::ZERO;
    }
    st.velocity = velocity;
    bumps > 0
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use cspace_geom::generate::{Rng, oriented_box};
    use cspace_geom::{Aabb, Brush, Collider, ExactCollider, Shape, World};

    use super::*;

    /// Quake III failure mode: after clipping against creases and repeated planes, the velocity
    /// can point back into a plane already touched. Here, after every slide, it never does.
    #[test]
    fn clip_velocity_never_points_into_a_touched_plane() {
        let mut rng = Rng::new(21);
        let mut brushes = vec![
            Brush::from_aabb(Aabb::new(
                DVec3::new(-600.0, -600.0, -16.0),
                DVec3::new(600.0, 600.0, 0.0),
            ))
            .unwrap(),
        ];
        for _ in 0..60 {
            let centre = DVec3::new(
                rng.range(-400.0, 400.0),
                rng.range(-400.0, 400.0),
                rng.range(-20.0, 60.0),
            );
            let half = DVec3::new(
                rng.range(8.0, 60.0),
                rng.range(8.0, 60.0),
                rng.range(8.0, 60.0),
            );
            brushes.push(oriented_box(centre, half, rng.frame()));
        }
        let world = Arc::new(World::from_brushes(brushes));
        let collider = ExactCollider::new(world);
        let mut queries = cspace_geom::QueryContext::new();
        let shape = Shape::new_box(
            DVec3::new(-16.0, -16.0, -24.0),
            DVec3::new(16.0, 16.0, 32.0),
        )
        .unwrap();
        let poses = PoseSet {
            standing: collider.prepare(&shape).unwrap(),
            crouching: None,
            traced: None,
        };
        let p = MoveParams::default();
        let (mut slides, mut clipped) = (0, 0);
        while slides < 3000 {
            let position = DVec3::new(
                rng.range(-450.0, 450.0),
                rng.range(-450.0, 450.0),
                rng.range(25.0, 120.0),
            );
            let mut tracer = player::world_surroundings(&collider, &mut queries, &poses);
            if !tracer.is_free(Pose::Standing, position) {
                continue;
            }
            let mut st = MoverState {
                position,
                velocity: rng.unit_vector() * rng.range(50.0, 3000.0),
                pose: Pose::Standing,
                ground: Ground::Air,
                intent: Intent::default(),
                can_crouch: false,
                timer: MoveTimer::default(),
                water: Water::default(),
            };
            let mut log = MoveLog::default();
            let start = st.velocity;
            ground_check(&mut st, &mut tracer, &p, start, &mut log);
            let gravity = st.ground.walkable().is_none();
            let mut log = MoveLog::default();
            slide_move(&mut st, &mut tracer, &p, 1.0 / 16.0, gravity, &mut log);
            slides += 1;
            clipped += !log.hits.is_empty() as usize;
            let planes = log
                .hits
                .iter()
                .filter_map(|h| h.normal)
                .chain(st.ground.plane());
            for n in planes {
                assert!(
                    st.velocity.dot(n) >= 0.0,
                    "velocity {} points into {n}",
                    st.velocity
                );
            }
        }
        assert!(clipped > 1000, "too few clips to mean anything: {clipped}");
    }
}
