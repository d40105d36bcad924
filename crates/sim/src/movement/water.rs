//! Moving in liquids (issue 32): the water level from three sample points, swimming, sinking,
//! wading and water jumps, under the world's water rules ([`WaterRules`]: Quake 1's engine and
//! QuakeC, or Quake III's `bg_pmove.c`), and the damage of slime and lava as events.
//!
//! The frame (`movement::frame`) calls in here only when the world has liquids
//! ([`Surroundings::water`]); a world without any moves as it always did, bit for bit.
//!
//! What an intent means in water (`docs/movement.md`, "Liquids"): the agent looks along its wished
//! direction with its view's pitch ([`crate::View::pitch`], positive looking down), so its
//! forward key swims along `(d cos(pitch), -sin(pitch))` for a wished horizontal direction `d`;
//! `jump` is the jump (Quake III: swim up, its `upmove`; Quake 1: `PlayerJump`'s swim up) and
//! `crouch` swims down (both games' move-down key), as held keys.

use cspace_entities::LiquidKind;
use cspace_geom::DVec3;

use super::{
    MoveLog, MoveTimer, MoverState, Surroundings, accelerate, clip_velocity, slide_move,
    step_slide_move, walk_or_fall,
};
use crate::agent::Pose;
use crate::params::{MoveParams, Profile, WaterParams, WaterRules};
use crate::record::EventKind;

/// An agent's liquid: its water level (0 dry, 1 feet, 2 waist, 3 head under), the liquid at its
/// feet, Quake 1's water jump under way and the damage clock. Plain data, read by a driver
/// through [`crate::AgentState::water_level`] and [`crate::AgentState::liquid`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Water {
    /// 0 to 3: how many of the three sample points are in a liquid (Quake's `waterlevel`).
    pub level: u8,
    /// The liquid at the lowest sample point (Quake's `watertype`), when `level > 0`.
    pub liquid: Option<LiquidKind>,
    /// Quake 1's water jump under way (`FL_WATERJUMP`): the seconds left and the horizontal
    /// velocity it keeps (`movedir`). Quake III's is a [`MoveTimer`] (`PMF_TIME_WATERJUMP`).
    pub jump: Option<WaterJump>,
    /// Seconds until slime or lava may hurt again (Quake 1's `dmgtime`, Quake III's
    /// `pain_debounce_time`, as time left).
    pub damage_wait: f64,
}

/// Quake 1's water jump under way (`CheckWaterJump`, `client.qc`; `SV_WaterJump`, `sv_user.c`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaterJump {
    /// Seconds left (`teleport_time - time`).
    pub seconds: f64,
    /// The horizontal velocity set every frame (`movedir`: 50 into the ledge's face).
    pub push: DVec3,
}

/// The water level and liquid of an agent at `position` in `pose`, from the rules' three sample
/// points over its shape's bounds (`docs/entities.md`, "Liquids"):
///
/// - Quake III (`PM_SetWaterLevel`): the feet plus 1, then the feet plus `sample2 / 2`, then the
///   feet plus `sample2 = view height - mins z` (whole units: `sample1` and `sample2` are C
///   `int`s, so both are truncated; `MINS_Z` is the shape's lowest point, -24 for Quake's box,
///   and the view height is the pose's, 26 standing and 12 crouched: heights -23, 1 and 26 about
///   the origin standing, -23, -6 and 12 crouched);
/// - Quake 1 (`SV_CheckWater`, `sv_phys.c`): the feet plus 1, then the middle of the bounds'
///   height, then the view offset 22 (-23, 4 and 22 for Quake's -24..32 box).
///
/// A point counts as in a liquid when the contents query says so ([`Surroundings::liquid`]).
pub fn level(
    tr: &mut impl Surroundings,
    w: &WaterParams,
    position: DVec3,
    pose: Pose,
) -> (u8, Option<LiquidKind>) {
    let [first, second, third] = sample_heights(w, tr.poses().get(pose).shape().bounds(), pose);
    let at = |z: f64| DVec3::new(position.x, position.y, position.z + z);
    let Some(liquid) = tr.liquid(at(first)) else {
        return (0, None);
    };
    if tr.liquid(at(second)).is_none() {
        return (1, Some(liquid));
    }
    if tr.liquid(at(third)).is_none() {
        return (2, Some(liquid));
    }
    (3, Some(liquid))
}

/// The three sample heights about the origin ([`level`]) of a shape with these bounds.
pub fn sample_heights(w: &WaterParams, bounds: cspace_geom::Aabb, pose: Pose) -> [f64; 3] {
    let mins_z = bounds.min.z;
    match w.rules {
        WaterRules::Quake3 => {
            let view = match pose {
                Pose::Standing => w.view_height,
                Pose::Crouching => w.crouch_view_height,
            };
            let sample2 = (view - mins_z).trunc();
            let sample1 = (sample2 / 2.0).trunc();
            [mins_z + 1.0, mins_z + sample1, mins_z + sample2]
        }
        WaterRules::Quake1 => [
            mins_z + 1.0,
            (bounds.min.z + bounds.max.z) * 0.5,
            w.view_height,
        ],
    }
}

/// Samples the water level into `st.water` (the liquid kept only while in one).
pub(super) fn set_level(st: &mut MoverState, tr: &mut impl Surroundings, w: &WaterParams) {
    let (level, liquid) = level(tr, w, st.position, st.pose);
    st.water.level = level;
    st.water.liquid = liquid;
}

/// The end of a frame in a world with liquids: the level sampled again (`PM_SetWaterLevel`'s
/// second call), a `water level` event when it or the liquid changed since `before`, and the
/// damage of slime and lava (events only: nothing has health).
pub(super) fn end_frame(
    st: &mut MoverState,
    tr: &mut impl Surroundings,
    w: &WaterParams,
    before: Water,
    dt: f64,
    log: &mut MoveLog,
) {
    note_level(st, tr, w, before, log);
    hurt(st, w, dt, log);
}

/// Samples the level, and records a `water level` event when it or the liquid changed since
/// `before` (an agent just placed: since it was dry).
pub(super) fn note_level(
    st: &mut MoverState,
    tr: &mut impl Surroundings,
    w: &WaterParams,
    before: Water,
    log: &mut MoveLog,
) {
    set_level(st, tr, w);
    if (st.water.level, st.water.liquid) != (before.level, before.liquid) {
        log.events.push(EventKind::WaterLevel {
            level: st.water.level,
            liquid: st.water.liquid,
        });
    }
}

/// Slime and lava hurt every `damage_every` seconds, `damage` per water level (Quake 1
/// `WaterMove`, `client.qc`: lava 10, slime 4, every 0.2 s and 1 s, at once on entering; Quake
/// III `P_WorldEffects`, `g_active.c`: lava 30, slime 10, at once and then as the pain
/// debounce of 700 ms allows). Recorded as `liquid damage` events; no health is simulated.
fn hurt(st: &mut MoverState, w: &WaterParams, dt: f64, log: &mut MoveLog) {
    let which = match st.water.liquid {
        Some(LiquidKind::Lava) if st.water.level > 0 => 0,
        Some(LiquidKind::Slime) if st.water.level > 0 => 1,
        _ => {
            st.water.damage_wait = 0.0;
            return;
        }
    };
    if st.water.damage_wait > 0.0 {
        st.water.damage_wait = (st.water.damage_wait - dt).max(0.0);
        if st.water.damage_wait > 0.0 {
            return;
        }
    }
    let liquid = st.water.liquid.expect("matched above");
    log.events.push(EventKind::LiquidDamage {
        liquid,
        damage: w.damage[which] * f64::from(st.water.level),
    });
    st.water.damage_wait = w.damage_every[which];
}

/// Quake III ends a water jump when it lands on walkable ground (`PM_GroundTrace`: "hitting
/// solid ground will end a waterjump").
pub(super) fn land(st: &mut MoverState, w: &WaterParams) {
    if w.rules == WaterRules::Quake3 && st.timer.water_jump && st.ground.walkable().is_some() {
        st.timer = MoveTimer::default();
    }
}

/// The agent's view forward: its wished direction when it wishes one, else its view's yaw; and
/// the same pitched by its view's pitch (Quake's `AngleVectors`, pitch positive down).
fn forward(st: &MoverState) -> (DVec3, DVec3) {
    let flat = if st.intent.direction == DVec3::ZERO {
        st.intent.view.forward()
    } else {
        st.intent.direction
    };
    let (sin, cos) = st.intent.view.pitch.to_radians().sin_cos();
    (flat, DVec3::new(flat.x * cos, flat.y * cos, -sin))
}

/// The wished forward and up speeds of the intent as Quake's keys (`forwardmove`, `upmove`):
/// forward at the intent's speed, up at the walk speed while jumping (Quake III) and down at it
/// while crouching (both).
fn keys(st: &MoverState, p: &MoveParams, w: &WaterParams) -> (f64, f64) {
    let f = if st.intent.direction == DVec3::ZERO {
        0.0
    } else {
        st.intent.speed
    };
    let up = if st.intent.crouch {
        -p.walk_speed
    } else if st.intent.jump && w.rules == WaterRules::Quake3 {
        p.walk_speed
    } else {
        0.0
    };
    (f, up)
}

/// One sub-step's move in a world with liquids, in place of [`walk_or_fall`]: Quake III's
/// `PmoveSingle` choice (water jump, swim, walk wading, fall) or Quake 1's `SV_ClientThink` and
/// `SV_Physics_Client` (water jump, swim, walk), each on the level found at the frame's start.
pub(super) fn move_in_liquid(
    st: &mut MoverState,
    tr: &mut impl Surroundings,
    p: &MoveParams,
    w: &WaterParams,
    dt: f64,
    log: &mut MoveLog,
) {
    match w.rules {
        WaterRules::Quake3 => quake3_move(st, tr, p, w, dt, log),
        WaterRules::Quake1 => quake1_move(st, tr, p, w, dt, log),
    }
}

fn quake3_move(
    st: &mut MoverState,
    tr: &mut impl Surroundings,
    p: &MoveParams,
    w: &WaterParams,
    dt: f64,
    log: &mut MoveLog,
) {
    if st.timer.water_jump {
        water_jump_move(st, tr, p, dt, log);
    } else if st.water.level > 1 {
        if check_water_jump_quake3(st, tr, w) {
            water_jump_move(st, tr, p, dt, log);
        } else {
            swim_quake3(st, tr, p, w, dt, log);
        }
    } else if st.water.level == 1 {
        walk_or_fall(st, tr, p, dt, Some(w), log);
    } else {
        walk_or_fall(st, tr, p, dt, None, log);
    }
}

/// `PM_CheckWaterJump`: at water level 2, no timer running, solid 30 ahead at 4 above the origin
/// and nothing 16 higher: velocity 200 along the (pitched) view, 350 up, for at most 2 s
/// (`PMF_TIME_WATERJUMP`).
fn check_water_jump_quake3(
    st: &mut MoverState,
    tr: &mut impl Surroundings,
    w: &WaterParams,
) -> bool {
    if st.timer.running() || st.water.level != 2 {
        return false;
    }
    let (flat, pitched) = forward(st);
    let flat = DVec3::new(flat.x, flat.y, 0.0).normalize_or_zero();
    let mut spot = st.position + flat * w.jump_reach;
    spot.z += w.jump_low;
    if tr.solid(spot) != Some(true) {
        return false;
    }
    spot.z = st.position.z + w.jump_high.unwrap_or(w.jump_low);
    if tr.solid(spot).is_some() {
        return false;
    }
    st.velocity = pitched * w.jump_forward;
    st.velocity.z = w.jump_up;
    st.timer = MoveTimer {
        seconds: w.jump_time,
        land: false,
        knockback: false,
        water_jump: true,
        // Quake 1's hold after a teleport runs down on its own.
        hold_backward: st.timer.hold_backward,
    };
    true
}

/// `PM_WaterJumpMove`: no control, the stepped slide with gravity, then gravity once more (as
/// Quake III has it), and the jump ends as soon as it falls.
fn water_jump_move(
    st: &mut MoverState,
    tr: &mut impl Surroundings,
    p: &MoveParams,
    dt: f64,
    log: &mut MoveLog,
) {
    step_slide_move(st, tr, p, dt, true, log);
    st.velocity.z -= p.gravity * dt;
    if st.velocity.z < 0.0 {
        st.timer = MoveTimer::default();
    }
}

/// `PM_WaterMove` past the water jump: water friction, the wish along the pitched view plus up
/// or down (`PM_CmdScale`: the largest key's speed), sinking at 60 without input, capped at
/// `swim_scale` of the walk speed, `pm_wateraccelerate`, the ground plane clipped keeping the
/// speed (cspace: the speed along it), and a slide without gravity or step.
fn swim_quake3(
    st: &mut MoverState,
    tr: &mut impl Surroundings,
    p: &MoveParams,
    w: &WaterParams,
    dt: f64,
    log: &mut MoveLog,
) {
    friction_quake3(st, p, w, st.ground.walkable().is_some(), dt);
    let (_, pitched) = forward(st);
    let (f, up) = keys(st, p, w);
    let wish = if f == 0.0 && up == 0.0 {
        DVec3::new(0.0, 0.0, -w.sink_speed)
    } else {
        let scale = f.abs().max(up.abs()) / (f * f + up * up).sqrt();
        (pitched * f + DVec3::new(0.0, 0.0, up)) * scale
    };
    let speed = wish.length().min(p.walk_speed * w.swim_scale);
    accelerate(st, wish.normalize_or_zero(), speed, w.accelerate, dt);
    if let Some(n) = st.ground.plane()
        && st.velocity.dot(n) < 0.0
    {
        let speed = match p.profile {
            Profile::Quake3 => st.velocity.length(),
            Profile::Cspace => (st.velocity - n * st.velocity.dot(n)).length(),
        };
        st.velocity = clip_velocity(st.velocity, n, p.overclip).normalize_or_zero() * speed;
    }
    slide_move(st, tr, p, dt, false, log);
}

/// `PM_Friction` with water: on walkable ground (its horizontal speed; below 1 unit/s the
/// horizontal velocity stops, "allow sinking underwater"), ground friction at water level 1 or
/// less unless knocked back, plus `speed * waterfriction * waterlevel` in water, on the ground
/// or not.
pub(super) fn friction_quake3(
    st: &mut MoverState,
    p: &MoveParams,
    w: &WaterParams,
    walking: bool,
    dt: f64,
) {
    let v = if walking {
        DVec3::new(st.velocity.x, st.velocity.y, 0.0)
    } else {
        st.velocity
    };
    let speed = v.length();
    if speed < 1.0 {
        st.velocity.x = 0.0;
        st.velocity.y = 0.0;
        return;
    }
    let mut drop = 0.0;
    if st.water.level <= 1 && walking && !st.timer.knockback {
        drop += speed.max(p.stop_speed) * p.friction * dt;
    }
    drop += speed * w.friction * f64::from(st.water.level) * dt;
    let scale = (speed - drop).max(0.0) / speed;
    st.velocity *= scale;
}

/// The most a wading Quake III agent wishes (`PM_WalkMove`): `1 - (1 - swim_scale) *
/// waterlevel / 3` of the walk speed (5/6 at level 1).
pub(super) fn wade_speed(p: &MoveParams, w: &WaterParams, level: u8) -> f64 {
    let scale = 1.0 - (1.0 - w.swim_scale) * (f64::from(level) / 3.0);
    p.walk_speed * scale
}

fn quake1_move(
    st: &mut MoverState,
    tr: &mut impl Surroundings,
    p: &MoveParams,
    w: &WaterParams,
    dt: f64,
    log: &mut MoveLog,
) {
    // `SV_WaterJump`: the jump ends when its time is up or the agent is out of the liquid.
    if let Some(jump) = st.water.jump {
        if jump.seconds <= 0.0 || st.water.level == 0 {
            st.water.jump = None;
        } else {
            st.water.jump = Some(WaterJump {
                seconds: jump.seconds - dt,
                ..jump
            });
        }
    }
    // `PlayerPreThink`: `CheckWaterJump` at level 2, then `PlayerJump`'s swim up.
    if st.water.jump.is_none() && st.water.level == 2 {
        check_water_jump_quake1(st, tr, w);
    }
    if st.water.jump.is_none()
        && st.water.level >= 2
        && st.intent.jump
        && let (Some(up), Some(liquid)) = (w.swim_up, st.water.liquid)
    {
        st.velocity.z = match liquid {
            LiquidKind::Water => up[0],
            LiquidKind::Slime => up[1],
            LiquidKind::Lava => up[2],
        };
    }
    // `SV_ClientThink`, then `SV_Physics_Client`: no gravity in water (level 2 and more) or in a
    // water jump; a water jump slides without stepping (`SV_WalkMove`).
    match st.water.jump {
        Some(jump) => {
            st.velocity.x = jump.push.x;
            st.velocity.y = jump.push.y;
            slide_move(st, tr, p, dt, false, log);
        }
        None if st.water.level >= 2 => {
            swim_quake1(st, p, w, dt);
            // `SV_FlyMove` clips against the floor with no over-bounce (`ClipVelocity(..., 1)`):
            // a swimmer sinking onto it stops there.
            if let Some(n) = st.ground.plane()
                && st.velocity.dot(n) < 0.0
            {
                st.velocity -= n * st.velocity.dot(n);
            }
            step_slide_move(st, tr, p, dt, false, log);
        }
        None => walk_or_fall(st, tr, p, dt, None, log),
    }
}

/// `CheckWaterJump` (`client.qc`): a line 24 ahead at 8 above the origin meets solid, and the same
/// line at the agent's top does not: 225 up, and 50 into the face met kept as the horizontal
/// velocity for at most 2 s.
fn check_water_jump_quake1(st: &mut MoverState, tr: &mut impl Surroundings, w: &WaterParams) {
    let (flat, _) = forward(st);
    let flat = DVec3::new(flat.x, flat.y, 0.0).normalize_or_zero();
    let start = st.position + DVec3::new(0.0, 0.0, w.jump_low);
    let Some(normal) = tr.line(start, start + flat * w.jump_reach) else {
        return;
    };
    let top = tr.poses().get(st.pose).shape().bounds().max.z;
    let high = st.position + DVec3::new(0.0, 0.0, w.jump_high.unwrap_or(top));
    if tr.line(high, high + flat * w.jump_reach).is_some() {
        return;
    }
    st.velocity.z = w.jump_up;
    st.water.jump = Some(WaterJump {
        seconds: w.jump_time,
        push: normal * -w.jump_forward,
    });
}

/// `SV_WaterMove` (`sv_user.c`): the wish along the pitched view plus the move-down key, sinking
/// at 60 without input, capped at the walk speed (`sv_maxspeed`) and scaled by 0.7; friction
/// `sv_friction` on the whole speed; acceleration `sv_accelerate` towards the wish, by what the
/// speed (not its part along the wish) lacks.
fn swim_quake1(st: &mut MoverState, p: &MoveParams, w: &WaterParams, dt: f64) {
    let (_, pitched) = forward(st);
    let (f, up) = keys(st, p, w);
    let mut wish = pitched * f + DVec3::new(0.0, 0.0, up);
    if f == 0.0 && up == 0.0 {
        wish.z -= w.sink_speed;
    }
    let mut speed = wish.length();
    if speed > p.walk_speed {
        wish *= p.walk_speed / speed;
        speed = p.walk_speed;
    }
    speed *= w.swim_scale;
    let now = st.velocity.length();
    let mut new_speed = 0.0;
    if now > 0.0 {
        new_speed = (now - dt * now * w.friction).max(0.0);
        st.velocity *= new_speed / now;
    }
    if speed == 0.0 {
        return;
    }
    let add = speed - new_speed;
    if add <= 0.0 {
        return;
    }
    let step = (w.accelerate * speed * dt).min(add);
    st.velocity += wish.normalize_or_zero() * step;
}
