//! The games' defaults and constants, per dialect, each with the file it comes from (id's
//! `qw-qc` QuakeC and `WinQuake` engine for Quake 1, ioquake3's `code/game` for Quake III).
//! `docs/entities.md` lists them all.

use cspace_geom::DVec3;

use crate::dialect::Dialect;

/// The defaults of a two-position mover class: used when its key is missing or 0 (QuakeC's
/// `if (!self.speed) self.speed = 100;`, Quake III's `G_SpawnFloat("lip", "8", ...)`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BinaryDefaults {
    /// Units/s.
    pub speed: f64,
    /// Seconds at the far end before returning.
    pub wait: f64,
    /// Units left showing at the end of the move.
    pub lip: f64,
}

/// Door defaults: Quake 1 `func_door` (`doors.qc`): speed 100, wait 3, lip 8; Quake III
/// `SP_func_door` (`g_mover.c`): speed 400, wait 2, lip 8.
pub fn door(dialect: Dialect) -> BinaryDefaults {
    match dialect {
        Dialect::Quake1 => BinaryDefaults {
            speed: 100.0,
            wait: 3.0,
            lip: 8.0,
        },
        Dialect::Quake3 => BinaryDefaults {
            speed: 400.0,
            wait: 2.0,
            lip: 8.0,
        },
    }
}

/// Plat defaults: Quake 1 `func_plat` (`plats.qc`): speed 150, 3 s at the top (`plat_hit_top`),
/// travel `size_z - 8` unless `height`; Quake III `SP_func_plat` (`g_mover.c`): speed 200, wait
/// forced to 1 s, lip 8, travel `size_z - lip` unless `height`.
pub fn plat(dialect: Dialect) -> BinaryDefaults {
    match dialect {
        Dialect::Quake1 => BinaryDefaults {
            speed: 150.0,
            wait: 3.0,
            lip: 8.0,
        },
        Dialect::Quake3 => BinaryDefaults {
            speed: 200.0,
            wait: 1.0,
            lip: 8.0,
        },
    }
}

/// Button defaults, the same in both: speed 40, wait 1, lip 4 (`buttons.qc`, `SP_func_button`).
pub fn button(_dialect: Dialect) -> BinaryDefaults {
    BinaryDefaults {
        speed: 40.0,
        wait: 1.0,
        lip: 4.0,
    }
}

/// Train speed, both games: 100 units/s (`func_train`, `SP_func_train`).
pub const TRAIN_SPEED: f64 = 100.0;

/// Quake 1's think delay between a train's legs when a corner has no `wait`, and before its
/// first leg, seconds: `train_wait` and `func_train_find` set `nextthink = ltime + 0.1`
/// (`plats.qc`).
pub const QUAKE1_TRAIN_THINK: f64 = 0.1;

/// Quake 1 secret doors: speed 50 (forced), wait 5, a second's pause between their moves
/// (`func_door_secret`, `fd_secret_move1`, `doors.qc`).
pub const SECRET_SPEED: f64 = 50.0;
/// See [`SECRET_SPEED`].
pub const SECRET_WAIT: f64 = 5.0;
/// See [`SECRET_SPEED`].
pub const SECRET_PAUSE: f64 = 1.0;

/// How long a Quake 1 move to where the mover already is takes, seconds: `SUB_CalcMove`
/// ("already there": `nextthink = ltime + 0.1`, `subs.qc`).
pub const QUAKE1_STILL_MOVE: f64 = 0.1;

/// How long after the world starts Quake III's `trigger_always` uses its targets, seconds
/// (`SP_trigger_always`: `nextthink = level.time + 300`, "we must have some delay to make sure
/// our use targets are present", `g_trigger.c`).
pub const QUAKE3_ALWAYS_DELAY: f64 = 0.3;

/// How much a Quake 1 door team's field is larger than the team's bounds, units:
/// `setsize(trigger, t1 - '60 60 8', t2 + '60 60 8')` (`spawn_field`, `doors.qc`).
pub const QUAKE1_DOOR_FIELD: DVec3 = DVec3::new(60.0, 60.0, 8.0);

/// How much a Quake III door team's field is larger than the team's bounds along their thinnest
/// axis, units (`Think_SpawnNewDoorTrigger`, `g_mover.c`).
pub const QUAKE3_DOOR_FIELD: f64 = 120.0;

/// Quake 1's plat field (`plat_spawn_inside_trigger`, `plats.qc`): inset 25 units on x and y, 8
/// above the plat's top; a side of 50 units or less gets a 1-unit slab at its middle.
pub const QUAKE1_PLAT_INSET: f64 = 25.0;
/// See [`QUAKE1_PLAT_INSET`].
pub const QUAKE1_PLAT_NARROW: f64 = 50.0;
/// Quake III's plat field (`SpawnPlatTrigger`, `g_mover.c`): inset 33 units on x and y, 8 above
/// the lowered plat's top.
pub const QUAKE3_PLAT_INSET: f64 = 33.0;
/// The height of a plat field above the plat's top (both games), units.
pub const PLAT_FIELD_ABOVE: f64 = 8.0;

/// How long a plat waits once more at the top while an agent is on it (or in its field), seconds
/// (Quake 1 `plat_center_touch`: `nextthink = ltime + 1`; Quake III `Touch_Plat`: `+ 1000` ms).
pub const PLAT_HOLD: f64 = 1.0;

/// How often a Quake 1 door field opens its doors at most, seconds (`door_trigger_touch`:
/// `attack_finished = time + 1`, `doors.qc`).
pub const QUAKE1_FIELD_REPEAT: f64 = 1.0;

/// How long after being used a Quake III mover at rest sets off, seconds (`Use_BinaryMover`:
/// "start moving 50 msec later, becase if this was player triggered, level.time hasn't been
/// advanced yet", `g_mover.c`).
pub const QUAKE3_USE_DELAY: f64 = 0.05;

/// How far a Quake 1 entity's bounds reach beyond its box for touching triggers, units:
/// `SV_LinkEdict` grows `absmin`/`absmax` by 1 "to make sure they touch when just against"
/// (`world.c`).
pub const QUAKE1_TOUCH_REACH: f64 = 1.0;

/// Quake 1 `trigger_multiple`'s default wait, seconds (`triggers.qc`); Quake III's is 0.5
/// (`SP_trigger_multiple`, `g_trigger.c`).
pub fn multiple_wait(dialect: Dialect) -> f64 {
    match dialect {
        Dialect::Quake1 => 0.2,
        Dialect::Quake3 => 0.5,
    }
}

/// Quake III `SP_trigger_multiple` (`g_trigger.c`) replaces a `random` at least `wait` (with
/// `wait >= 0`) by `wait - FRAMETIME` ("trigger_multiple has random >= wait"), where `wait` is in
/// seconds and `FRAMETIME` 100 (milliseconds): the value it subtracts, as written.
pub const QUAKE3_RANDOM_CLAMP: f64 = 100.0;

/// Quake III's `crandom()` from 64 random bits: `2.0 * (random() - 0.5)`, with `random()` =
/// `(rand() & 0x7fff) / (float)0x7fff` (`q_shared.h`), so it spans [-1, 1], both ends included,
/// in 32,768 steps (the low 15 bits stand for `rand()`'s).
pub fn crandom(bits: u64) -> f64 {
    let random = (bits & 0x7fff) as f64 / f64::from(0x7fff);
    2.0 * (random - 0.5)
}

/// Quake 1's player `angles` from its view (`SV_ClientThink`, `WinQuake/sv_user.c`): the yaw
/// as it is, the pitch the view's divided by this and turned over (`angles[PITCH] =
/// -v_angle[PITCH]/3`), what `multi_touch`'s `makevectors (other.angles)` reads.
pub const QUAKE1_BODY_PITCH_DIVISOR: f64 = 3.0;

/// The forward direction of a Quake 1 player whose view is `yaw`, `pitch` (degrees, pitch
/// positive looking down): `makevectors` of its `angles` (`(-pitch / 3, yaw, 0)`,
/// [`QUAKE1_BODY_PITCH_DIVISOR`]).
pub fn quake1_body_forward(yaw: f64, pitch: f64) -> DVec3 {
    forward(DVec3::new(-pitch / QUAKE1_BODY_PITCH_DIVISOR, yaw, 0.0))
}

/// Quake 1 `trigger_push`'s default speed (`triggers.qc`); the velocity is `10 * speed` along its
/// direction.
pub const QUAKE1_PUSH_SPEED: f64 = 1000.0;
/// See [`QUAKE1_PUSH_SPEED`].
pub const QUAKE1_PUSH_SCALE: f64 = 10.0;
/// Quake 1's `sv_maxvelocity`, units/s: `SV_CheckVelocity` holds every velocity component to it
/// (`sv_phys.c`).
pub const QUAKE1_MAX_VELOCITY: f64 = 2000.0;

/// How many entities of one name Quake III's `G_PickTarget` picks among (`MAXCHOICES`,
/// `g_utils.c`): the first 32 it finds, in entity order.
pub const PICK_CHOICES: usize = 32;

/// Quake III `target_push`'s default speed, units/s (`SP_target_push`: `if (!self->speed)
/// self->speed = 1000;`).
pub const TARGET_PUSH_SPEED: f64 = 1000.0;

/// Quake 1 `trigger_counter`'s default count (`triggers.qc`).
pub const COUNTER_COUNT: u32 = 2;

/// Quake 1 `trigger_hurt`'s default damage (`triggers.qc`); Quake III's is 5 too
/// (`SP_trigger_hurt`).
pub const HURT_DAMAGE: f64 = 5.0;

/// Where a teleported agent appears, above its destination's origin, units: Quake 1's
/// `info_teleport_destination` adds `'0 0 27'` to its origin (`triggers.qc`); Quake III's
/// `TeleportPlayer` adds 1 (`g_misc.c`).
pub fn teleport_lift(dialect: Dialect) -> f64 {
    match dialect {
        Dialect::Quake1 => 27.0,
        Dialect::Quake3 => 1.0,
    }
}

/// The speed a teleported agent leaves its destination with, along the destination's facing,
/// units/s: 300 (Quake 1 `teleport_touch`), 400 (Quake III `TeleportPlayer`).
pub fn teleport_speed(dialect: Dialect) -> f64 {
    match dialect {
        Dialect::Quake1 => 300.0,
        Dialect::Quake3 => 400.0,
    }
}

/// Quake's `AngleVectors` forward for `angles` (pitch, yaw, roll in degrees; Quake III's
/// `q_math.c`, and Quake 1's `mathlib.c` behind QuakeC's `makevectors`): `(cos p cos y, cos p
/// sin y, -sin p)`, so a positive pitch looks down, as the view's pitch does; roll does not turn
/// it. Level (pitch 0), it is `(cos y, sin y, 0)` to the bit, as the view's forward is.
pub fn forward(angles: DVec3) -> DVec3 {
    let (sy, cy) = angles.y.to_radians().sin_cos();
    let (sp, cp) = angles.x.to_radians().sin_cos();
    // `0 - sin p`, not `-sin p`: level is +0, not -0.
    DVec3::new(cp * cy, cp * sy, 0.0 - sp)
}

/// How long after a teleport Quake 1 ignores backward input (`teleport_time = time + 0.7`,
/// `triggers.qc`; `SV_AirMove` drops `fmove < 0` until then), seconds.
pub const QUAKE1_TELEPORT_HOLD: f64 = 0.7;
/// How long after a teleport Quake III holds the agent without friction (`pm_time = 160` with
/// `PMF_TIME_KNOCKBACK`, `TeleportPlayer`), seconds.
pub const QUAKE3_TELEPORT_HOLD: f64 = 0.16;

/// How long a Quake 1 teleporter with a `targetname` works after being fired
/// (`teleport_use`: `nextthink = time + 0.2`), seconds.
pub const QUAKE1_TELEPORT_ARMED: f64 = 0.2;

/// The class names this crate reads as movers, kept solid, or refused (rotating), for
/// listings and the fuzzer.
pub const MOVER_CLASSES: [&str; 5] = [
    "func_door",
    "func_door_secret",
    "func_plat",
    "func_button",
    "func_train",
];

/// Rotating movers: kept solid where drawn, with a warning.
pub const ROTATING_CLASSES: [&str; 3] = ["func_rotating", "func_door_rotating", "func_pendulum"];

/// Movers on a sine (Quake III's `func_bobbing`): kept solid where drawn, with a warning.
pub const UNSIMULATED_CLASSES: [&str; 1] = ["func_bobbing"];

/// Quake III's `FRAMETIME` (100 ms, `g_local.h`): trains and door fields are set up one frame
/// after the map spawns (`nextthink = level.time + FRAMETIME`), seconds.
pub const QUAKE3_FRAMETIME: f64 = 0.1;

/// The shortest move of a Quake 1 mover, seconds: `SUB_CalcMove` makes `traveltime` at least
/// 0.03 (`subs.qc`). Quake III's is 1 ms (`InitMover`: `trDuration <= 0` becomes 1).
pub const QUAKE1_MIN_TRAVEL: f64 = 0.03;
/// See [`QUAKE1_MIN_TRAVEL`].
// not a tolerance: a game constant, one millisecond
pub const QUAKE3_MIN_TRAVEL: f64 = 0.001;

/// How long a move from `from` to `to` at `speed` takes, seconds: Quake 1's `len / speed` (at
/// least [`QUAKE1_MIN_TRAVEL`]); Quake III's whole milliseconds `distance * 1000 / speed`
/// truncated to an `int` (at least 1 ms, `InitMover` and `Reached_Train`).
pub fn travel_time(dialect: Dialect, distance: f64, speed: f64) -> f64 {
    match dialect {
        Dialect::Quake1 => (distance / speed).max(QUAKE1_MIN_TRAVEL),
        // not a tolerance: milliseconds to seconds
        Dialect::Quake3 => ((distance * 1000.0 / speed).trunc() / 1000.0).max(QUAKE3_MIN_TRAVEL),
    }
}

/// Every key this crate reads, for the fuzzer and the documentation.
pub const KEYS: [&str; 22] = [
    "classname",
    "targetname",
    "target",
    "killtarget",
    "angle",
    "angles",
    "origin",
    "speed",
    "wait",
    "lip",
    "height",
    "dmg",
    "health",
    "spawnflags",
    "team",
    "delay",
    "count",
    "t_width",
    "t_length",
    "message",
    "random",
    "items",
];
