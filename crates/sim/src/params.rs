//! Movement constants. The defaults are Quake's; a scenario can override each one.

use serde::Deserialize;

/// The constants of the movement model (units, seconds).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MoveParams {
    /// Downward acceleration, units/s^2: 800 (Quake's `sv_gravity`).
    pub gravity: f64,
    /// Top walking speed, units/s: 320 (Quake's `cl_forwardspeed` with `sv_maxspeed`).
    pub walk_speed: f64,
    /// Ground acceleration factor, 1/s: 10 (`sv_accelerate`): each step adds up to
    /// `accelerate * dt * wish_speed` towards the wished velocity.
    pub accelerate: f64,
    /// Air acceleration factor, 1/s: 1 (Quake III's `pm_airaccelerate`).
    pub air_accelerate: f64,
    /// Ground friction, 1/s: 4 (Quake's `sv_friction`).
    pub friction: f64,
    /// Below this speed friction acts as if at this speed, units/s: 100 (`sv_stopspeed`), so that
    /// slow agents stop instead of creeping.
    pub stop_speed: f64,
    /// Highest step an agent walks up, units: 18 (Quake's `STEPSIZE`).
    pub step_height: f64,
    /// Upward speed of a jump, units/s: 270 (Quake III's `JUMP_VELOCITY`).
    pub jump_speed: f64,
    /// Distance a stopped mover keeps from the hit plane, units: 1/32 (`DIST_EPSILON`).
    pub skin: f64,
    /// Velocity clipping over-bounce: 1.001 (Quake III's `OVERCLIP`): clipped velocity points
    /// slightly away from the plane, so the next move does not graze it.
    pub overclip: f64,
    /// Length of the downward probe that finds the ground, units: 0.25 (Quake III's
    /// `PM_GroundTrace`).
    pub ground_probe: f64,
    /// Smallest z of a walkable ground normal: 0.7 (Quake III's `MIN_WALK_NORMAL`, about 45.6
    /// degrees of slope).
    pub min_walk_normal: f64,
    /// Speed scale while crouched: 0.25 (Quake III's `pm_duckScale`).
    pub crouch_speed_scale: f64,
    /// Longest physics sub-step, seconds: 0.066 (longer steps are split into equal parts, as
    /// Quake III's `pmove_msec` limit does).
    pub max_substep: f64,
    /// Moves per sub-step before giving up: 4 (Quake III's `numbumps`).
    pub bumps: u32,
    /// Planes remembered while sliding: 5 (Quake III's `MAX_CLIP_PLANES`).
    pub max_clip_planes: u32,
    /// Steps an agent must rest (on ground, no speed, no input) before it sleeps: 16.
    pub sleep_after_steps: u32,
    /// Cell size of the agent grid (Blow's 2D grid), units: 32, one player width, so a player's
    /// bounds cover at most two cells per side. In the 1,000-agent E1M1 crowd 2.9 other agents
    /// are tested per trace, against 4.8 with 64-unit cells and 10.2 with 128-unit cells, and a
    /// step costs 6 % fewer instructions than with 64 (24 is about as good, 16 worse; on the open
    /// world 32 and 64 cost the same). Measure with `sim bench --agents 1000 --map
    /// quake_e1m1.map --backends onion --grid-cell N`; answers do not depend on it.
    pub grid_cell: f64,
}

impl Default for MoveParams {
    fn default() -> Self {
        MoveParams {
            gravity: 800.0,
            walk_speed: 320.0,
            accelerate: 10.0,
            air_accelerate: 1.0,
            friction: 4.0,
            stop_speed: 100.0,
            step_height: 18.0,
            jump_speed: 270.0,
            skin: cspace_geom::tolerance::DEFAULT_SKIN,
            overclip: 1.001,
            ground_probe: 0.25,
            min_walk_normal: 0.7,
            crouch_speed_scale: 0.25,
            max_substep: 0.066,
            bumps: 4,
            max_clip_planes: 5,
            sleep_after_steps: 16,
            grid_cell: 32.0,
        }
    }
}

impl MoveParams {
    /// Checks every constant: finite, and positive or non-negative as its meaning requires.
    /// The error names the field.
    pub fn validate(&self) -> Result<(), String> {
        let non_negative = [
            ("gravity", self.gravity),
            ("walk_speed", self.walk_speed),
            ("accelerate", self.accelerate),
            ("air_accelerate", self.air_accelerate),
            ("friction", self.friction),
            ("stop_speed", self.stop_speed),
            ("step_height", self.step_height),
            ("jump_speed", self.jump_speed),
            ("skin", self.skin),
            ("crouch_speed_scale", self.crouch_speed_scale),
        ];
        for (name, value) in non_negative {
            if !value.is_finite() || value < 0.0 {
                return Err(format!("{name} must be a finite number >= 0, got {value}"));
            }
        }
        let positive = [
            ("ground_probe", self.ground_probe),
            ("max_substep", self.max_substep),
            ("grid_cell", self.grid_cell),
        ];
        for (name, value) in positive {
            if !value.is_finite() || value <= 0.0 {
                return Err(format!("{name} must be a finite number > 0, got {value}"));
            }
        }
        if !(self.overclip.is_finite() && self.overclip >= 1.0) {
            return Err(format!(
                "overclip must be a finite number >= 1, got {}",
                self.overclip
            ));
        }
        if !(self.min_walk_normal.is_finite() && (0.0..=1.0).contains(&self.min_walk_normal)) {
            return Err(format!(
                "min_walk_normal must be within [0, 1], got {}",
                self.min_walk_normal
            ));
        }
        if self.bumps == 0 || self.max_clip_planes < 2 {
            return Err("bumps must be at least 1 and max_clip_planes at least 2".to_string());
        }
        Ok(())
    }
}
