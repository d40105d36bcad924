//! The typed entities: what [`crate::spawn`] makes of a map's entities.

use cspace_geom::{Aabb, Brush, BrushSource, DVec3, WorldBrush};

use crate::dialect::Dialect;
use crate::warning::EntityWarning;

/// A map's living entities, read with one dialect's rules.
///
/// Every list keeps the file's entity order (a generated trigger field follows the triggers
/// written in the file, in the order of the movers it belongs to), which is the order the
/// simulator runs them in.
#[derive(Debug, Clone, PartialEq)]
pub struct Entities {
    /// The rules they were read with.
    pub dialect: Dialect,
    /// Brush models that move (doors, secret doors, plats, buttons, trains).
    pub movers: Vec<Mover>,
    /// Volumes that act on the agents touching them.
    pub triggers: Vec<Trigger>,
    /// Entities without a volume that only pass on what fires them (`trigger_relay`,
    /// `trigger_counter`, `target_relay`, `trigger_always`).
    pub relays: Vec<Relay>,
    /// Named points: teleport destinations, path corners, jump pad targets.
    pub spots: Vec<Spot>,
    /// Quake III's `target_push` points: used by a fired target, they set the activator's
    /// velocity.
    pub target_pushes: Vec<TargetPush>,
    /// Liquid brushes of the world model.
    pub liquids: Vec<Liquid>,
    /// Brush entities that stay where the file draws them (walls and static models, and movers
    /// this simulator does not move, with why).
    pub kept: Vec<Kept>,
    /// What was odd, and what was done instead.
    pub warnings: Vec<EntityWarning>,
}

impl Spot {
    /// The direction it faces: `AngleVectors` of its angles (Quake III's `TeleportPlayer`;
    /// Quake 1's `makevectors (t.mangle)` in `teleport_touch`), pitch included: `(cos p cos y,
    /// cos p sin y, -sin p)` ([`rules::forward`](crate::rules::forward)).
    pub fn forward(&self) -> DVec3 {
        crate::rules::forward(DVec3::new(self.pitch, self.yaw, 0.0))
    }
}

impl Entities {
    /// No entities, read with `dialect`'s rules (the entities of an inline world).
    pub fn empty(dialect: Dialect) -> Entities {
        Entities {
            dialect,
            movers: Vec::new(),
            triggers: Vec::new(),
            relays: Vec::new(),
            spots: Vec::new(),
            target_pushes: Vec::new(),
            liquids: Vec::new(),
            kept: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// True when nothing moves or acts: no movers, triggers or liquids (the world then behaves
    /// as a static one).
    pub fn is_inert(&self) -> bool {
        self.movers.is_empty() && self.triggers.is_empty() && self.liquids.is_empty()
    }

    /// The mover made of entity `entity`, if any.
    pub fn mover_of_entity(&self, entity: u32) -> Option<usize> {
        self.movers.iter().position(|m| m.entity == entity)
    }
}

/// What kind of brush model a mover is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoverKind {
    /// `func_door`: two positions; opened by its field, a fired target or touch.
    Door,
    /// `func_door_secret` (Quake 1): back, then sideways, then back again.
    SecretDoor,
    /// `func_plat`: a lift, spawned lowered.
    Plat,
    /// `func_button`: pressed by touch, fires its targets.
    Button,
    /// `func_train`: follows its `path_corner`s.
    Train,
}

impl MoverKind {
    /// A short name: `door`, `secret door`, `plat`, `button`, `train`.
    pub fn name(self) -> &'static str {
        match self {
            MoverKind::Door => "door",
            MoverKind::SecretDoor => "secret door",
            MoverKind::Plat => "plat",
            MoverKind::Button => "button",
            MoverKind::Train => "train",
        }
    }
}

/// How a mover is set going.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Activation {
    /// By an agent entering its field (a door team's or a plat's [`Trigger`]).
    Field,
    /// By an agent touching it (buttons).
    Touch,
    /// Only when a target naming it is fired (a `targetname`).
    Fired,
    /// It moves on its own from the start (trains without a `targetname`).
    Automatic,
    /// It must be shot or opened with a key, which agents here cannot do: it stays where it
    /// spawns unless a target naming it is fired.
    Never,
}

/// A two-position mover (doors, plats, buttons): offsets from where the file draws it.
///
/// Quake III's convention (`g_mover.c`): `pos1` is "at rest", where it spawns, `pos2` is
/// "activated". Quake 1 plats (whose `pos1` is the top) and start-open doors are written in it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BinaryMotion {
    /// Where it rests and spawns (units, from the drawn position).
    pub pos1: DVec3,
    /// Where it goes when used.
    pub pos2: DVec3,
    /// Seconds it stays at `pos2` before returning; negative: it never returns.
    pub wait: f64,
    /// It waits at both ends for a trigger (Quake 1's `TOGGLE` doors).
    pub toggle: bool,
    /// It spawns at `pos2` and waits for a fired target before it works (a Quake 1 plat with a
    /// `targetname`, `plats.qc`: "it will start out disabled in the extended position").
    pub starts_at_pos2: bool,
}

/// A Quake 1 secret door's moves (`fd_secret_use`, `doors.qc`): from its drawn place to `dest1`,
/// a second's pause, to `dest2`, `wait` seconds, back to `dest1`, a second, home.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SecretMotion {
    /// The first stop (offset from the drawn position).
    pub dest1: DVec3,
    /// The second stop.
    pub dest2: DVec3,
    /// Seconds at `dest2` before coming back.
    pub wait: f64,
    /// It stays open (`SECRET_OPEN_ONCE`).
    pub open_once: bool,
}

/// One stop of a train's path.
#[derive(Debug, Clone, PartialEq)]
pub struct PathStop {
    /// The `path_corner` entity.
    pub entity: u32,
    /// Where the train is when it stands at the corner (offset from its drawn position).
    pub offset: DVec3,
    /// Seconds it stands there before moving on (the corner's `wait`; Quake 1 adds its think
    /// delay of 0.1 s when there is none). Negative: it stays there for good (Quake 1's
    /// `train_wait` never thinks again; Quake III reads a negative wait as none).
    pub wait: f64,
    /// The speed of the leg that starts here (units/s): the corner's `speed` in Quake III,
    /// else the train's.
    pub speed: f64,
}

/// How a mover moves.
#[derive(Debug, Clone, PartialEq)]
pub enum Motion {
    /// Doors, plats, buttons.
    Binary(BinaryMotion),
    /// Quake 1 secret doors.
    Secret(SecretMotion),
    /// Trains: the stops in order; after the last it goes on to stop `loop_to` when the chain of
    /// corners closes on itself, else it stops there.
    Path {
        /// The corners, from the one it spawns at.
        stops: Vec<PathStop>,
        /// The stop the last one leads to (the first, unless the chain returns to a later one).
        loop_to: Option<usize>,
        /// Seconds at the first corner before the first leg (Quake 1: two think delays of 0.1 s,
        /// `func_train_find` then `train_next`; Quake III: one `FRAMETIME`).
        start_wait: f64,
    },
}

/// A brush model that moves.
#[derive(Debug, Clone, PartialEq)]
pub struct Mover {
    /// The entity's index in the file.
    pub entity: u32,
    /// The 1-based line of its opening `{`.
    pub line: u32,
    /// Its class as written.
    pub classname: String,
    /// What it is.
    pub kind: MoverKind,
    /// Its solid and clip brushes where the file draws them; the mover's frame is the world's
    /// translated by its offset.
    pub brushes: Vec<WorldBrush>,
    /// The bounds of its brushes where drawn.
    pub bounds: Aabb,
    /// Its `targetname`: fired targets of this name use it.
    pub targetname: Option<String>,
    /// Its `target`: what it fires (buttons when pressed, doors when they open).
    pub target: Option<String>,
    /// Its `killtarget` (Quake 1): what it removes when it fires (`SUB_UseTargets`).
    pub killtarget: Option<String>,
    /// Seconds between its firing and its targets' use (Quake 1 `delay`, `SUB_UseTargets`).
    pub delay: f64,
    /// Its speed, units/s.
    pub speed: f64,
    /// Never reverses when blocked: Quake 1 doors with a negative `wait` ("let it just squash
    /// the object"), Quake III doors and plats with the `CRUSHER` flag, and every button and train
    /// (which wait instead).
    pub crusher: bool,
    /// How it moves.
    pub motion: Motion,
    /// How it is set going.
    pub activation: Activation,
    /// The index (in [`Entities::movers`]) of its team's master: linked doors move as one, and
    /// the master decides. Itself when alone.
    pub team: usize,
    /// Where it spawns: its offset from the drawn position at time 0.
    pub spawn_offset: DVec3,
    /// Its `spawnflags`.
    pub flags: u32,
    /// Its `team` key (Quake III links movers of one team).
    pub team_key: Option<String>,
}

impl Mover {
    /// The two positions of a door, plat or button.
    pub fn binary(&self) -> Option<&BinaryMotion> {
        match &self.motion {
            Motion::Binary(b) => Some(b),
            _ => None,
        }
    }

    /// The bounds where it spawns.
    pub fn spawn_bounds(&self) -> Aabb {
        self.bounds.translated(self.spawn_offset)
    }

    /// Every offset it can rest at or pass through the ends of: its spawn place and the ends of
    /// its moves (the bounds of these boxes bound everywhere it goes).
    pub fn extreme_offsets(&self) -> Vec<DVec3> {
        let mut out = vec![self.spawn_offset, DVec3::ZERO];
        match &self.motion {
            Motion::Binary(b) => out.extend([b.pos1, b.pos2]),
            Motion::Secret(s) => out.extend([s.dest1, s.dest2]),
            Motion::Path { stops, .. } => out.extend(stops.iter().map(|s| s.offset)),
        }
        out
    }

    /// The box it can ever occupy: its bounds at every place it goes (moves are straight lines
    /// between them).
    pub fn travel_bounds(&self) -> Aabb {
        self.extreme_offsets()
            .into_iter()
            .fold(Aabb::EMPTY, |a, o| a.merged(self.bounds.translated(o)))
    }
}

/// What a push pad does to an agent in it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Push {
    /// Quake 1's `trigger_push` (`triggers.qc`): the velocity becomes `10 * speed` along its
    /// direction, every frame of contact (then held to `sv_maxvelocity`, 2000 per axis); or
    /// Quake III's `target_push` without a `target`: `speed` along its angles, when used.
    Velocity {
        /// The velocity set, units/s.
        velocity: DVec3,
        /// `PUSH_ONCE`: it works once, then is gone.
        once: bool,
    },
    /// Quake III's jump pad (`AimAtTarget`, `g_trigger.c`): the velocity that reaches the
    /// `target_position` at the apex of the leap, from the centre of the pad.
    Apex {
        /// The centre of the pad's bounds.
        from: DVec3,
        /// The target's origin: the apex. When several points share the target's name, the
        /// first of them; a run aims at the one it picks ([`Trigger::apexes`]).
        apex: DVec3,
    },
}

impl Push {
    /// The velocity it gives under `gravity` (units/s²); `None` for a jump pad whose target is
    /// not above it (Quake III frees such a pad: `time` is 0 or not a number).
    ///
    /// Quake III's `AimAtTarget`: `t = sqrt(h / (g / 2))`, `v_xy = d_xy / t` towards the target,
    /// `v_z = t g`.
    pub fn velocity(&self, gravity: f64) -> Option<DVec3> {
        match *self {
            Push::Velocity { velocity, .. } => Some(velocity),
            Push::Apex { from, apex } => {
                let height = apex.z - from.z;
                let time = (height / (0.5 * gravity)).sqrt();
                if !(time > 0.0 && time.is_finite()) {
                    return None;
                }
                let flat = DVec3::new(apex.x - from.x, apex.y - from.y, 0.0);
                let distance = flat.length();
                let direction = flat.normalize_or_zero();
                let mut v = direction * (distance / time);
                v.z = time * gravity;
                Some(v)
            }
        }
    }
}

/// Quake III's `target_push` (`SP_target_push`, `Use_target_push`, `g_trigger.c`): a point
/// entity that, used by a fired target, sets the velocity of the firing's activator (an agent;
/// nothing without one).
#[derive(Debug, Clone, PartialEq)]
pub struct TargetPush {
    /// The entity.
    pub entity: u32,
    /// Its line.
    pub line: u32,
    /// Its name: fired targets of this name use it.
    pub targetname: Option<String>,
    /// The velocity it sets: `speed` (1000) along its angles ([`Push::Velocity`], never
    /// `once`; `G_SetMovedir`: `angle` -1 up, -2 down, else `AngleVectors`, pitch included), or,
    /// with a `target`, the velocity that reaches that point at the apex of the leap from its
    /// own origin ([`Push::Apex`], `AimAtTarget`).
    pub push: Push,
    /// `spawnflags` 1, `bouncepad`: only its sound differs (the jump pad's, not the wind's).
    pub bouncepad: bool,
    /// With a `target`, the points `AimAtTarget` picks its apex among (see
    /// [`Trigger::apexes`]); empty without one.
    pub apexes: Vec<DVec3>,
}

/// What a trigger does to an agent that touches it.
#[derive(Debug, Clone, PartialEq)]
pub enum TriggerKind {
    /// `trigger_once`, `trigger_multiple`, `trigger_secret` (and Quake III's): fires its target
    /// when an agent touches it, then waits `wait` seconds (negative: never again).
    Fire {
        /// What it fires.
        target: Option<String>,
        /// What it removes when it fires (`killtarget`, Quake 1).
        killtarget: Option<String>,
        /// Seconds before it can fire again; 0 or negative: once (`multi_trigger`: `if
        /// (wait > 0)` waits, else it is freed).
        wait: f64,
        /// Quake III's `random` (`SP_trigger_multiple`): each wait is `wait + random *
        /// crandom()` seconds, `crandom()` in [-1, 1] drawn from the run's generator
        /// (`multi_trigger`); 0 in Quake 1, which has no such key.
        random: f64,
        /// Seconds between the touch and the firing (`delay`).
        delay: f64,
        /// Only fired by name, never by touch (Quake 1's `NOTOUCH` flag, or a `health` to shoot).
        touchable: bool,
        /// Quake 1, a trigger with angles (`InitTrigger`'s `SetMovedir`: `angle` -1 up, -2 down,
        /// else `makevectors` of its angles): a touch fires it only when the agent faces within
        /// 90 degrees of this direction (`multi_touch` returns when `v_forward * movedir < 0`,
        /// `v_forward` from the agent's angles). `None` without angles, and in Quake III
        /// (`Touch_Multi` never looks).
        facing: Option<DVec3>,
    },
    /// A door team's field: an agent in it opens the team (Quake 1's `spawn_field`, Quake III's
    /// `Think_SpawnNewDoorTrigger`).
    DoorField {
        /// The team's master mover.
        mover: usize,
    },
    /// A plat's field: an agent in it sends the plat up, or keeps it at the top.
    PlatField {
        /// The plat.
        mover: usize,
    },
    /// A button's surface: an agent touching the button presses it.
    ButtonTouch {
        /// The button.
        mover: usize,
    },
    /// `trigger_teleport`: to one of its destinations (Quake III picks one at random).
    Teleport {
        /// The destinations (indices in [`Entities::spots`]); empty when none was found (then
        /// it does nothing).
        destinations: Vec<usize>,
        /// Only works for 0.2 s after a target naming it is fired (a Quake 1 teleporter with a
        /// `targetname`).
        needs_firing: bool,
        /// What it fires as an agent goes through (Quake 1: `teleport_touch` calls
        /// `SUB_UseTargets` before it moves the toucher, `triggers.qc`): its `target`, which
        /// names its destination and anything else of that name, its `killtarget` and `delay`.
        /// `None` in Quake III (`trigger_teleporter_touch` fires nothing) and without a
        /// destination.
        fires: Option<Firing>,
    },
    /// `trigger_push`: a push pad or jump pad.
    Push(Push),
    /// `trigger_hurt` (and liquids' damage): reported as events only.
    Hurt {
        /// The damage per hit as written (`dmg`).
        damage: f64,
        /// Quake III's `SLOW` (`spawnflags` 16): a hit a second, not every `FRAMETIME`
        /// (`hurt_touch`).
        slow: bool,
        /// Quake III's `START_OFF` (`spawnflags` 1): it spawns unlinked, touching nothing, until
        /// a firing uses it; every use toggles it (`hurt_use` links or unlinks it).
        start_off: bool,
    },
    /// Anything else with a volume (`trigger_changelevel`, `trigger_onlyregistered`, ...):
    /// touches are reported, nothing else happens.
    Other,
}

impl TriggerKind {
    /// A short name for listings.
    pub fn name(&self) -> &'static str {
        match self {
            TriggerKind::Fire { .. } => "fires targets",
            TriggerKind::DoorField { .. } => "door field",
            TriggerKind::PlatField { .. } => "plat field",
            TriggerKind::ButtonTouch { .. } => "button surface",
            TriggerKind::Teleport { .. } => "teleporter",
            TriggerKind::Push(Push::Velocity { .. }) => "push (Quake 1)",
            TriggerKind::Push(Push::Apex { .. }) => "jump pad",
            TriggerKind::Hurt { .. } => "hurt (events only)",
            TriggerKind::Other => "touch events only",
        }
    }
}

/// What an entity's `SUB_UseTargets` fires (Quake 1 `subs.qc`): where it is read apart from the
/// entity's own kind (a Quake 1 teleporter's).
#[derive(Debug, Clone, PartialEq)]
pub struct Firing {
    /// What it uses: every mover, relay and trigger of this `targetname`.
    pub target: Option<String>,
    /// What it removes (and then fires nothing: Quake 1's `killtarget` loop returns).
    pub killtarget: Option<String>,
    /// Seconds between the firing and its effects (`DelayedUse`).
    pub delay: f64,
}

/// A volume that acts on agents touching it.
#[derive(Debug, Clone, PartialEq)]
pub struct Trigger {
    /// The entity it comes from (the mover's entity for a generated field).
    pub entity: u32,
    /// The 1-based line of that entity.
    pub line: u32,
    /// Its class (`door field`, `plat field` and `button` for generated ones).
    pub classname: String,
    /// Its bounds (Quake 1 tests agents box against box).
    pub bounds: Aabb,
    /// Its brushes (Quake III tests agents' shapes against them); empty for generated fields,
    /// which are boxes.
    pub brushes: Vec<Brush>,
    /// What it does.
    pub kind: TriggerKind,
    /// Its `targetname`.
    pub targetname: Option<String>,
    /// A mover it follows (a button's surface moves with the button).
    pub follows: Option<usize>,
    /// A Quake III jump pad's possible apexes: the origins of every named point of its
    /// `target`, in entity order, at most [`rules::PICK_CHOICES`](crate::rules::PICK_CHOICES)
    /// (`G_PickTarget`'s `MAXCHOICES`). `AimAtTarget` picks one at random, once, when the game
    /// spawns the pad (its think, one `FRAMETIME` after the spawn); a simulation draws it from
    /// its seeded generator. Empty for every other trigger.
    pub apexes: Vec<DVec3>,
}

/// What a relay does when fired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelayKind {
    /// Passes the firing on (`trigger_relay`, `target_relay`, `trigger_always` at the start).
    Relay,
    /// Passes it on after being fired `count` times, then is gone (`trigger_counter`).
    Counter {
        /// Firings needed; 0: it never passes one on (a negative or fractional `count` in
        /// QuakeC's `counter_use` never reaches exactly 0).
        count: u32,
    },
}

/// An entity fired by name only.
#[derive(Debug, Clone, PartialEq)]
pub struct Relay {
    /// The entity.
    pub entity: u32,
    /// Its line.
    pub line: u32,
    /// Its class.
    pub classname: String,
    /// What it does.
    pub kind: RelayKind,
    /// Its name.
    pub targetname: Option<String>,
    /// What it fires.
    pub target: Option<String>,
    /// What it removes.
    pub killtarget: Option<String>,
    /// Seconds between being fired and firing.
    pub delay: f64,
    /// It fires once when the world starts, after its `delay` (Quake III `trigger_always`).
    pub at_start: bool,
    /// It uses only one of the entities its target names, picked at random among
    /// [`Relay::choices`] (Quake III `target_relay`'s `RANDOM` flag, `G_PickTarget`).
    pub pick_one: bool,
    /// Quake III's `target_delay`: it has one think (`Use_Target_Delay` sets its `nextthink` and
    /// `activator`), so a use while a firing waits moves that firing, with the new activator,
    /// instead of adding one (Quake 1's `DelayedUse` entities each fire).
    pub single_think: bool,
    /// Quake III `target_delay`'s `random`: each use waits `delay + random * crandom()`,
    /// `crandom()` in [-1, 1] drawn from the run's generator (`Use_Target_Delay`); 0 otherwise.
    pub random: f64,
    /// With [`Relay::pick_one`]: the entities (indices in the map's entity list) `G_PickTarget`
    /// picks among, every entity of the map whose `targetname` is its `target`, in entity order,
    /// at most [`rules::PICK_CHOICES`](crate::rules::PICK_CHOICES); a pick of one that has no
    /// `use` here (a point, a light) does nothing. Empty otherwise.
    pub choices: Vec<u32>,
}

/// A named point: a teleport destination, a path corner, a jump pad's target.
#[derive(Debug, Clone, PartialEq)]
pub struct Spot {
    /// The entity.
    pub entity: u32,
    /// Its line.
    pub line: u32,
    /// Its class.
    pub classname: String,
    /// Its name.
    pub targetname: Option<String>,
    /// Its `target` (a path corner's next corner).
    pub target: Option<String>,
    /// Its `origin` as written.
    pub origin: DVec3,
    /// Its facing, degrees counter-clockwise from +X (the `angle` key, or the yaw of `angles`).
    pub yaw: f64,
    /// Its pitch, degrees, positive looking down as Quake's view angles are: the first number of
    /// `angles` (Quake 1's `info_teleport_destination` keeps `mangle = angles`; Quake III's
    /// `G_ParseField` reads `angles` whole); 0 with an `angle` key, which is a yaw alone (Quake
    /// 1's `ED_ParseEpair` rewrites it `0 angle 0`, Quake III's `F_ANGLEHACK`).
    pub pitch: f64,
    /// Its `wait`, seconds (path corners).
    pub wait: f64,
    /// Its `speed`, units/s (Quake III path corners); 0 when not given.
    pub speed: f64,
}

/// The kind of a liquid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LiquidKind {
    /// Water (and Quake 1's other `*` textures: `*teleport`).
    Water,
    /// Slime.
    Slime,
    /// Lava.
    Lava,
}

impl LiquidKind {
    /// `water`, `slime`, `lava`.
    pub fn name(self) -> &'static str {
        match self {
            LiquidKind::Water => "water",
            LiquidKind::Slime => "slime",
            LiquidKind::Lava => "lava",
        }
    }
}

/// A liquid brush of the world model.
#[derive(Debug, Clone, PartialEq)]
pub struct Liquid {
    /// What it is.
    pub kind: LiquidKind,
    /// The brush.
    pub brush: Brush,
    /// Where it was written.
    pub source: BrushSource,
}

/// Why a brush entity stays where the file draws it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeptReason {
    /// A wall or static model (`func_wall`, `func_static`, `func_episodegate`, ...).
    Static,
    /// A rotating mover (`func_rotating`, `func_door_rotating`, `func_pendulum`): not moved by
    /// this simulator; kept solid where drawn.
    Rotating,
    /// A mover on a sine (`func_bobbing`): not moved by this simulator; kept solid where drawn.
    NotSimulated,
    /// A mover whose keys give it nowhere to go (a train without a usable path).
    Stuck,
}

/// A brush entity kept solid where the file draws it.
#[derive(Debug, Clone, PartialEq)]
pub struct Kept {
    /// The entity.
    pub entity: u32,
    /// Its line.
    pub line: u32,
    /// Its class.
    pub classname: String,
    /// Why.
    pub reason: KeptReason,
}
