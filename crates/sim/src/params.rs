//! Movement constants and the rules they go with: a [`Profile`] (cspace's or Quake III's) with
//! its defaults; a scenario can override each constant (`docs/movement.md`).

/// Whose rules the movement model follows (`docs/movement.md` lists every difference).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize, serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Profile {
    /// cspace's: Quake III's `bg_pmove.c` with declared, tested changes (an exact contact model:
    /// touching is free and agents stop a skin short; the farther of the stepped and unstepped
    /// moves; no speed into a plane kept; velocities never left pointing into a touched plane).
    #[default]
    Cspace,
    /// Quake III's Pmove as the game runs it: its constants, its trace epsilon (a move ending
    /// within 1/8 unit of a face stops 1/8 short), the landing and knockback timers, crouched
    /// speed on the ground only, no landing settle, and the velocity rounded to integers every
    /// frame (`trap_SnapVector`).
    Quake3,
}

impl Profile {
    /// The name scenarios write (`movement = "quake3"`).
    pub fn name(self) -> &'static str {
        match self {
            Profile::Cspace => "cspace",
            Profile::Quake3 => "quake3",
        }
    }
}

/// The constants of the movement model (units, seconds), and the profile whose rules they go
/// with.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize, serde::Serialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
pub struct MoveParams {
    /// The rules: cspace's by default ([`MoveParams::quake3`] for Quake III's). Scenarios choose
    /// it with `movement = "quake3"`, not in `[params]`.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub profile: Profile,
    /// Downward acceleration, units/s^2: 800 (Quake's `sv_gravity`).
    pub gravity: f64,
    /// Top walking speed, units/s: 320 (Quake's `cl_forwardspeed` with `sv_maxspeed`).
    pub walk_speed: f64,
    /// Ground acceleration factor, 1/s: 10 (`sv_accelerate`): each step adds up to
    /// `accelerate * dt * wish_speed` towards the wished velocity.
    pub accelerate: f64,
    /// Air acceleration factor, 1/s: 1 (Quake III's `pm_airaccelerate`).
    pub air_accelerate: f64,
    /// Ground friction, 1/s: 4 (Quake's `sv_friction`); 6 for Quake III (`pm_friction`).
    pub friction: f64,
    /// Below this speed friction acts as if at this speed, units/s: 100 (`sv_stopspeed`), so that
    /// slow agents stop instead of creeping.
    pub stop_speed: f64,
    /// Highest step an agent walks up, units: 18 (Quake's `STEPSIZE`).
    pub step_height: f64,
    /// Upward speed of a jump, units/s: 270 (Quake III's `JUMP_VELOCITY`).
    pub jump_speed: f64,
    /// Distance a stopped mover keeps from the hit plane, units: 1/32 (Quake's `DIST_EPSILON`);
    /// 0 for Quake III, whose trace epsilon keeps the distance instead.
    pub skin: f64,
    /// Quake III's trace epsilon, units: 0 (cspace: touching is free), 1/8 for Quake III
    /// (`SURFACE_CLIP_EPSILON` of `cm_local.h`): a move that ends within it of a face is a hit,
    /// and stops it short of the face. Traces sweep the agent's shapes grown by it, with no skin
    /// (`docs/movement.md`: exact on axial faces).
    pub trace_epsilon: f64,
    /// Velocity clipping over-bounce: 1.001 (Quake III's `OVERCLIP`): clipped velocity points
    /// slightly away from the plane, so the next move does not graze it.
    pub overclip: f64,
    /// Length of the downward probe that finds the ground, units: 0.25 (Quake III's
    /// `PM_GroundTrace`).
    pub ground_probe: f64,
    /// Smallest z of a walkable ground normal: 0.7 (Quake III's `MIN_WALK_NORMAL`, about 45.6
    /// degrees of slope).
    pub min_walk_normal: f64,
    /// The most a crouched agent wishes on the ground, as a share of the walk speed: 0.25 (Quake
    /// III's `pm_duckScale`). In the air crouching does not slow the wish (as in Quake III).
    pub crouch_speed_scale: f64,
    /// Longest physics sub-step, seconds: 0.066 (Quake III's limit in `Pmove`). A longer step
    /// is split: into equal parts (cspace), or into parts of this length and the rest (Quake
    /// III).
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
            profile: Profile::Cspace,
            trace_epsilon: 0.0,
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

use cspace_geom::tolerance::TIME_SLACK;

impl MoveParams {
    /// Quake III's constants and rules (`bg_pmove.c`, `bg_local.h`, `cm_local.h`): friction 6,
    /// the trace epsilon 1/8 and no skin; the rest as cspace's defaults, which are Quake III's
    /// too (gravity 800, stop speed 100, accelerations 10 and 1, jump 270, step 18, duck scale
    /// 0.25, overclip 1.001, ground probe 0.25, walkable 0.7, 4 bumps, 5 clip planes, 66 ms).
    pub fn quake3() -> MoveParams {
        MoveParams {
            profile: Profile::Quake3,
            friction: 6.0,
            skin: 0.0,
            trace_epsilon: cspace_geom::tolerance::QUAKE3_TRACE_EPSILON,
            ..MoveParams::default()
        }
    }

    /// The defaults of `profile`.
    pub fn of(profile: Profile) -> MoveParams {
        match profile {
            Profile::Cspace => MoveParams::default(),
            Profile::Quake3 => MoveParams::quake3(),
        }
    }

    /// The lengths of the sub-steps a step of `dt` seconds is split into: equal parts of at most
    /// `max_substep` (cspace), or parts of `max_substep` and then the rest (Quake III's `Pmove`,
    /// which chops a command's time that way).
    pub fn substeps(&self, dt: f64) -> impl Iterator<Item = f64> {
        let equal = (dt / self.max_substep).ceil().max(1.0) as u32;
        let (count, first, last) = match self.profile {
            Profile::Cspace => (equal, dt / equal as f64, dt / equal as f64),
            Profile::Quake3 => {
                // Whole parts, and the rest unless it is rounding (then the last part takes it).
                let whole = ((dt + TIME_SLACK) / self.max_substep).floor() as u32;
                let rest = dt - whole as f64 * self.max_substep;
                if whole == 0 {
                    (1, dt, dt)
                } else if rest > TIME_SLACK {
                    (whole + 1, self.max_substep, rest)
                } else {
                    (whole, self.max_substep, self.max_substep + rest)
                }
            }
        };
        (0..count).map(move |i| if i + 1 == count { last } else { first })
    }
}

/// The most bumps and clip planes a scenario may ask for (Quake III uses 4 and 5): each bump is
/// a trace, so the limit bounds a sub-step's work.
pub const MAX_BUMPS: u32 = 64;

/// A movement constant out of its range: the field and why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct ParamError {
    /// The field, as a scenario's `[params]` table spells it.
    pub field: &'static str,
    /// What is wrong, with the value and the range.
    pub message: String,
}

impl MoveParams {
    /// Checks every constant: finite, within the range its meaning allows, and within the
    /// numeric domain ([`cspace_geom::domain`]: speeds, accelerations, rates, lengths and time
    /// steps). The error names the field.
    pub fn validate(&self) -> Result<(), ParamError> {
        use cspace_geom::domain::{Quantity, check, number};
        use cspace_geom::tolerance::{MIN_GRID_CELL, MIN_SUBSTEP};
        let err = |field: &'static str, message: String| Err(ParamError { field, message });
        // (field, value, smallest allowed, is the smallest allowed itself, quantity)
        let ranges = [
            ("gravity", self.gravity, 0.0, true, Quantity::Acceleration),
            ("walk_speed", self.walk_speed, 0.0, true, Quantity::Speed),
            ("accelerate", self.accelerate, 0.0, true, Quantity::Rate),
            (
                "air_accelerate",
                self.air_accelerate,
                0.0,
                true,
                Quantity::Rate,
            ),
            ("friction", self.friction, 0.0, true, Quantity::Rate),
            ("stop_speed", self.stop_speed, 0.0, true, Quantity::Speed),
            (
                "step_height",
                self.step_height,
                0.0,
                true,
                Quantity::ShapeExtent,
            ),
            ("jump_speed", self.jump_speed, 0.0, true, Quantity::Speed),
            ("skin", self.skin, 0.0, true, Quantity::ShapeExtent),
            (
                "trace_epsilon",
                self.trace_epsilon,
                0.0,
                true,
                Quantity::ShapeExtent,
            ),
            (
                "ground_probe",
                self.ground_probe,
                0.0,
                false,
                Quantity::ShapeExtent,
            ),
            (
                "max_substep",
                self.max_substep,
                MIN_SUBSTEP,
                true,
                Quantity::TimeStep,
            ),
            (
                "grid_cell",
                self.grid_cell,
                MIN_GRID_CELL,
                true,
                Quantity::Coordinate,
            ),
        ];
        for (field, value, low, inclusive, quantity) in ranges {
            if !value.is_finite() {
                return err(field, format!("{} is not a finite number", number(value)));
            }
            let below = if inclusive { value < low } else { value <= low };
            if below {
                let bound = if inclusive { ">=" } else { ">" };
                return err(
                    field,
                    format!("must be {bound} {low}, got {}", number(value)),
                );
            }
            if let Err(e) = check(quantity, value) {
                return err(field, e.to_string());
            }
        }
        let fractions = [
            ("overclip", self.overclip, 1.0, 2.0),
            ("min_walk_normal", self.min_walk_normal, 0.0, 1.0),
            ("crouch_speed_scale", self.crouch_speed_scale, 0.0, 1.0),
        ];
        for (field, value, low, high) in fractions {
            if !(low..=high).contains(&value) {
                return err(
                    field,
                    format!("must be within [{low}, {high}], got {}", number(value)),
                );
            }
        }
        if !(1..=MAX_BUMPS).contains(&self.bumps) {
            return err(
                "bumps",
                format!("must be within 1..={MAX_BUMPS}, got {}", self.bumps),
            );
        }
        if !(2..=MAX_BUMPS).contains(&self.max_clip_planes) {
            return err(
                "max_clip_planes",
                format!(
                    "must be within 2..={MAX_BUMPS}, got {}",
                    self.max_clip_planes
                ),
            );
        }
        Ok(())
    }
}
