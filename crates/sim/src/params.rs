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

/// Whose water rules a living world's liquids follow: the game's, from the world's entity dialect
/// (`docs/entities.md`, "Liquids"), whatever the movement [`Profile`] (both profiles share the
/// water rules of the dialect; `docs/movement.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaterRules {
    /// Quake 1: the engine's `SV_CheckWater` (`sv_phys.c`), `SV_WaterMove` and `SV_WaterJump`
    /// (`sv_user.c`), and the game's `CheckWaterJump`, `PlayerJump` and `WaterMove` (QuakeC
    /// `client.qc`).
    Quake1,
    /// Quake III: `PM_SetWaterLevel`, `PM_WaterMove`, `PM_CheckWaterJump`, `PM_WaterJumpMove`,
    /// `PM_Friction` and `PM_WalkMove` (`bg_pmove.c`), and `P_WorldEffects` (`g_active.c`).
    Quake3,
}

impl WaterRules {
    /// The name traces and documents use: `quake1`, `quake3`.
    pub fn name(self) -> &'static str {
        match self {
            WaterRules::Quake1 => "quake1",
            WaterRules::Quake3 => "quake3",
        }
    }
}

/// The constants of moving in liquids, per dialect (units, seconds). Every value is the game's,
/// named beside it; `docs/movement.md` and `docs/entities.md` list them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaterParams {
    /// Whose rules.
    pub rules: WaterRules,
    /// The third sample point's height above the origin standing, units: Quake III's
    /// `DEFAULT_VIEWHEIGHT` 26 (`bg_public.h`, measured from `MINS_Z`: `viewheight - MINS_Z`
    /// above the feet); Quake 1's `view_ofs` 22 (`PutClientInServer`, `client.qc`).
    pub view_height: f64,
    /// The same, crouched: Quake III's `CROUCH_VIEWHEIGHT` 12; Quake 1 has no crouch (22).
    pub crouch_view_height: f64,
    /// The most a swimmer wishes, as a share of the walk speed: Quake III's `pm_swimScale` 0.5
    /// (which also slows wading: `1 - (1 - 0.5) * waterlevel / 3`, `PM_WalkMove`); Quake 1's 0.7
    /// (`SV_WaterMove`).
    pub swim_scale: f64,
    /// Acceleration in liquid, 1/s: Quake III's `pm_wateraccelerate` 4; Quake 1's
    /// `sv_accelerate` 10 (`SV_WaterMove`).
    pub accelerate: f64,
    /// Friction in liquid, 1/s: Quake III's `pm_waterfriction` 1, times the water level
    /// (`PM_Friction`, also wading and in the air); Quake 1's `sv_friction` 4 (`SV_WaterMove`,
    /// at water level 2 and more).
    pub friction: f64,
    /// The downward wish of a swimmer wishing nothing, units/s: 60 in both (`PM_WaterMove`'s
    /// "sink towards bottom", `SV_WaterMove`'s "drift towards bottom"; Quake 1 scales it by
    /// `swim_scale` as every wish, so it sinks at 42).
    pub sink_speed: f64,
    /// How far ahead of the origin a water jump looks for a ledge, units: Quake III 30
    /// (`PM_CheckWaterJump`), Quake 1 24 (`CheckWaterJump`'s traces).
    pub jump_reach: f64,
    /// The height above the origin where the ledge must be solid, units: Quake III 4, Quake 1 8.
    pub jump_low: f64,
    /// The height above the origin where the way must be open, units: Quake III 20 (4 + 16);
    /// `None` for Quake 1's, the agent's top (`start_z + maxs_z - 8`, from 8 up).
    pub jump_high: Option<f64>,
    /// A water jump's upward speed, units/s: Quake III 350, Quake 1 225.
    pub jump_up: f64,
    /// A water jump's forward speed, units/s: Quake III 200 along the view
    /// (`VectorScale(pml.forward, 200, ...)`); Quake 1 50 into the ledge's face (`movedir =
    /// trace_plane_normal * -50`, kept by `SV_WaterJump`).
    pub jump_forward: f64,
    /// How long a water jump lasts at most, seconds: 2 in both (Quake III's `pm_time = 2000`
    /// with `PMF_TIME_WATERJUMP`; Quake 1's `teleport_time = time + 2`, "safety net").
    pub jump_time: f64,
    /// Quake 1's swim up with the jump button (`PlayerJump`, NetQuake `client.qc`; the same in
    /// QuakeWorld's `JumpButton`, `pmove.c`): the upward speed set in water, slime and lava,
    /// units/s (100, 80, 50). Quake III swims up by its wish (`upmove`): `None`.
    pub swim_up: Option<[f64; 3]>,
    /// Damage per water level of a damage tick in lava and slime (events only: no health is
    /// simulated): Quake 1 10 and 4 (`WaterMove`, `client.qc`), Quake III 30 and 10
    /// (`P_WorldEffects`, `g_active.c`).
    pub damage: [f64; 2],
    /// Seconds between damage ticks in lava and slime: Quake 1 0.2 and 1 (`dmgtime`, `WaterMove`);
    /// Quake III 0.7 for both (a hit sets `pain_debounce_time` 700 ms ahead, `P_DamageFeedback`,
    /// and `P_WorldEffects` waits for it).
    pub damage_every: [f64; 2],
}

impl WaterParams {
    /// Quake 1's.
    pub fn quake1() -> WaterParams {
        WaterParams {
            rules: WaterRules::Quake1,
            view_height: 22.0,
            crouch_view_height: 22.0,
            swim_scale: 0.7,
            accelerate: 10.0,
            friction: 4.0,
            sink_speed: 60.0,
            jump_reach: 24.0,
            jump_low: 8.0,
            jump_high: None,
            jump_up: 225.0,
            jump_forward: 50.0,
            jump_time: 2.0,
            swim_up: Some([100.0, 80.0, 50.0]),
            damage: [10.0, 4.0],
            damage_every: [0.2, 1.0],
        }
    }

    /// Quake III's.
    pub fn quake3() -> WaterParams {
        WaterParams {
            rules: WaterRules::Quake3,
            view_height: 26.0,
            crouch_view_height: 12.0,
            swim_scale: 0.5,
            accelerate: 4.0,
            friction: 1.0,
            sink_speed: 60.0,
            jump_reach: 30.0,
            jump_low: 4.0,
            jump_high: Some(20.0),
            jump_up: 350.0,
            jump_forward: 200.0,
            jump_time: 2.0,
            swim_up: None,
            damage: [30.0, 10.0],
            damage_every: [0.7, 0.7],
        }
    }

    /// The rules' constants.
    pub fn of(rules: WaterRules) -> WaterParams {
        match rules {
            WaterRules::Quake1 => WaterParams::quake1(),
            WaterRules::Quake3 => WaterParams::quake3(),
        }
    }
}
