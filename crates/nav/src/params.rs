//! What the navigation knows about the movement model, and the poses it plans for.

use cspace_geom::tolerance::DEFAULT_SKIN;

use crate::error::NavError;

/// The movement model's constants as the planner needs them (units and seconds; Quake's
/// defaults). The simulator maps its `MoveParams` onto these.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NavParams {
    /// Downward acceleration, units/s^2: 800 (Quake's `sv_gravity`). Sets the fall times and
    /// the jump arc.
    pub gravity: f64,
    /// Top walking speed, units/s: 320 (Quake's `cl_forwardspeed` with `sv_maxspeed`). Sets the
    /// walk costs, the horizontal speed of the jump arc and the A* heuristic.
    pub walk_speed: f64,
    /// Upward speed of a jump, units/s: 270 (Quake III's `JUMP_VELOCITY`); the apex is
    /// `jump_speed^2 / (2 gravity)` = 45.6 units above the take-off.
    pub jump_speed: f64,
    /// Highest step an agent walks up, units: 18 (Quake's `STEPSIZE`).
    pub step_height: f64,
    /// Highest step an agent climbs in the air when not rising, units: 18. Quake III's
    /// `PM_StepSlideMove` (and cspace's movement model) steps up in the air too, once the jump
    /// has stopped rising, so a jump against a riser climbs a ledge up to the apex plus this
    /// (less `jump_margin`); 0 for Quake's `SV_WalkMove`, which steps only on the ground.
    pub air_step_height: f64,
    /// Deepest fall a drop or jump link may take, units: 264, the fall after which Quake's
    /// player lands faster than 650 units/s and is hurt (`client.qc`, `PlayerPostThink`).
    /// The simulator has no fall damage; this keeps the planner from ledges a player avoids.
    pub max_fall: f64,
    /// Smallest z of a walkable floor's normal: 0.7 (Quake III's `MIN_WALK_NORMAL`, about 45.6
    /// degrees of slope).
    pub min_walk_normal: f64,
    /// Floors whose normal's z is below this are steep, 0.85 (about 32 degrees): they are walked
    /// at [`NavParams::steep_speed_share`] of the pose's speed. At full speed an agent leaves a
    /// steep floor at every crest and lands lower down (the simulated validation found it on
    /// terrain and rotated brushes); the simulator's follower slows down there.
    pub steep_normal: f64,
    /// The speed on steep floors, as a share of the pose's speed: 0.5.
    pub steep_speed_share: f64,
    /// A walk from one area to the next whose floor's slope along the path (rise per unit
    /// across) falls by more than this is over a crest, and a waypoint of the path: 0.25 (level
    /// ground to a 14-degree slope down, or a 45-degree slope up to 37 degrees). An agent that
    /// walks fast over a crest leaves the ground and flies on; the simulator's follower slows
    /// down for it there.
    pub crest_bend: f64,
    /// Distance between the probes along an area's open edge (a ledge, a riser), units: 16,
    /// half a Quake player's width, so every step of a staircase is probed at least once.
    pub probe_spacing: f64,
    /// How far past an edge the probes look, horizontally, units: 4. More than the skin and
    /// the rounding, less than the narrowest step tread worth climbing (a riser in
    /// configuration space is where the box's side meets it, so any reach past it is over the
    /// step).
    pub probe_reach: f64,
    /// How far below the best a jump against a riser climbs (the apex plus the air step) the
    /// highest ledge planned lies, units: 2. Pressed against the riser, the agent steps onto the
    /// lip at the first step after the apex where its move is blocked; with Quake's constants a
    /// standing jump in the simulator climbs a 63-unit ledge and not a 64-unit one (63.6 at best),
    /// and the brute-force search over the simulator climbed a 56-unit one in `quake_e3m5` that
    /// an 8-unit margin had left unplanned.
    pub jump_margin: f64,
    /// Time step of the jump arc's chords, seconds: 1/64 (a chord is at most
    /// `gravity * dt^2 / 8` = 0.024 units below the arc).
    pub arc_step: f64,
    /// Extra cost of a jump, seconds: 0.5, so a walk or a drop is preferred when it is not much
    /// longer (a jump can fail where a walk does not).
    pub jump_penalty: f64,
    /// Cost of changing pose (crouching or standing up), seconds: 0.1, so the planner does not
    /// crouch where it need not.
    pub pose_change_cost: f64,
    /// Extra cost of a teleporter link, seconds: 0.1 (the walk into its volume is counted by the
    /// search, the fall at the destination by the link; this keeps a teleporter from being
    /// taken where walking is about as fast). Push pad links cost their flight plus
    /// [`NavParams::jump_penalty`], as jumps do (the agent enters the pad wherever it walks
    /// in, and lands as far off as it did).
    pub trigger_cost: f64,
    /// How far inside the overlap of the two poses' floors a pose change is placed, units: 8
    /// (a quarter of a Quake player's width), so that an agent arriving a little off the point
    /// still stands up where the primary pose is free.
    pub pose_change_inset: f64,
    /// Height of waypoints above the floor, units: the skin (1/32, Quake's `DIST_EPSILON`),
    /// where a mover rests after a trace.
    pub clearance: f64,
}

impl Default for NavParams {
    fn default() -> NavParams {
        NavParams {
            gravity: 800.0,
            walk_speed: 320.0,
            jump_speed: 270.0,
            step_height: 18.0,
            air_step_height: 18.0,
            max_fall: 264.0,
            min_walk_normal: 0.7,
            steep_normal: 0.85,
            steep_speed_share: 0.5,
            crest_bend: 0.25,
            probe_spacing: 16.0,
            probe_reach: 4.0,
            jump_margin: 2.0,
            arc_step: 1.0 / 64.0,
            jump_penalty: 0.5,
            pose_change_cost: 0.1,
            trigger_cost: 0.1,
            pose_change_inset: 8.0,
            clearance: DEFAULT_SKIN,
        }
    }
}

/// The finest jump-arc step, seconds: finer chords only cost time (a chord of 1/64 s is already
/// within 0.024 units of the arc).
const MIN_ARC_STEP: f64 = 1.0 / 1024.0;

/// The finest probe spacing, units: closer probes along an edge only cost time.
const MIN_PROBE_SPACING: f64 = 1.0;

impl NavParams {
    /// The longest flight of a jump arc, seconds: up to the apex and down to the deepest fall
    /// below the take-off.
    pub fn max_flight_time(&self) -> f64 {
        let (v, g) = (self.jump_speed, self.gravity);
        (v + (v * v + 2.0 * g * self.max_fall).sqrt()) / g
    }

    /// The height of the jump's apex above the take-off, units.
    pub fn jump_apex(&self) -> f64 {
        self.jump_speed * self.jump_speed / (2.0 * self.gravity)
    }

    /// The highest ledge a jump against its riser is planned onto, units: the apex, plus the
    /// step the movement model climbs in the air after it, less the margin (45.6 + 18 - 2 =
    /// 61.6 with Quake's constants).
    pub fn ledge_jump_height(&self) -> f64 {
        self.jump_apex() + self.air_step_height - self.jump_margin
    }

    /// Checks every constant: finite, positive where it divides or steps, the walk normal in
    /// `(0, 1]`. The error names the field.
    pub fn validate(&self) -> Result<(), NavError> {
        let bad = |field: &'static str, value: f64, reason: &'static str| {
            Err(NavError::BadParams {
                field,
                value,
                reason,
            })
        };
        for (field, value) in [
            ("gravity", self.gravity),
            ("walk_speed", self.walk_speed),
            ("probe_spacing", self.probe_spacing),
            ("probe_reach", self.probe_reach),
            ("arc_step", self.arc_step),
        ] {
            if !(value.is_finite() && value > 0.0) {
                return bad(field, value, "must be finite and positive");
            }
        }
        for (field, value) in [
            ("jump_speed", self.jump_speed),
            ("step_height", self.step_height),
            ("air_step_height", self.air_step_height),
            ("max_fall", self.max_fall),
            ("crest_bend", self.crest_bend),
            ("jump_margin", self.jump_margin),
            ("jump_penalty", self.jump_penalty),
            ("pose_change_cost", self.pose_change_cost),
            ("trigger_cost", self.trigger_cost),
            ("pose_change_inset", self.pose_change_inset),
            ("clearance", self.clearance),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return bad(field, value, "must be finite and not negative");
            }
        }
        if !(self.min_walk_normal > 0.0 && self.min_walk_normal <= 1.0) {
            return bad("min_walk_normal", self.min_walk_normal, "must be in (0, 1]");
        }
        if !(0.0..=1.0).contains(&self.steep_normal) {
            return bad("steep_normal", self.steep_normal, "must be in [0, 1]");
        }
        if !(self.steep_speed_share > 0.0 && self.steep_speed_share <= 1.0) {
            return bad(
                "steep_speed_share",
                self.steep_speed_share,
                "must be in (0, 1]",
            );
        }
        if !(MIN_ARC_STEP..=1.0).contains(&self.arc_step) {
            return bad("arc_step", self.arc_step, "must be from 1/1024 to 1 second");
        }
        if self.probe_spacing < MIN_PROBE_SPACING {
            return bad(
                "probe_spacing",
                self.probe_spacing,
                "must be at least 1 unit",
            );
        }
        Ok(())
    }
}

/// A pose to plan for: the name of one of the tree's poses, and how fast an agent moves in it.
///
/// The first pose given to [`crate::NavMesh::build`] is the *primary* pose (standing): its graph
/// has every walkable area. Every further pose (crouching) must fit inside the primary pose's
/// box; its graph keeps the areas the primary pose does not cover (and their neighbours), joined
/// to the primary graph by crouch and stand-up links.
#[derive(Debug, Clone, PartialEq)]
pub struct NavPose {
    /// The name of a pose of the onion tree ([`cspace_onion::Pose::name`]).
    pub name: String,
    /// Speed relative to [`NavParams::walk_speed`]: 1 standing, 0.25 crouching (Quake III's
    /// `pm_duckScale`).
    pub speed_scale: f64,
    /// Whether the agent can jump in this pose: standing yes; crouching no (Quake III reads one
    /// up-move for both, so a crouching player cannot jump).
    pub can_jump: bool,
}

impl NavPose {
    /// A pose by name with its speed scale; it can jump when the scale is 1.
    pub fn new(name: impl Into<String>, speed_scale: f64) -> NavPose {
        NavPose {
            name: name.into(),
            speed_scale,
            can_jump: speed_scale == 1.0,
        }
    }

    /// The standing pose (`stand`, [`cspace_onion::Pose::quake_standing`]'s name): full speed,
    /// can jump.
    pub fn stand() -> NavPose {
        NavPose::new("stand", 1.0)
    }

    /// The crouching pose (`crouch`): a quarter of the speed, no jumps.
    pub fn crouch() -> NavPose {
        NavPose::new("crouch", 0.25)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quake_jump_apex_is_45_6_units() {
        let apex = NavParams::default().jump_apex();
        assert!((apex - 45.5625).abs() < 1e-12, "apex {apex}");
        // A jump against a riser: the apex, the air step, less the margin.
        let ledge = NavParams::default().ledge_jump_height();
        assert!((ledge - 61.5625).abs() < 1e-12, "ledge {ledge}");
    }

    #[test]
    fn bad_params_name_the_field() {
        type Change = fn(&mut NavParams);
        let cases: [(Change, &str); 9] = [
            (|p| p.gravity = 0.0, "gravity"),
            (|p| p.air_step_height = -1.0, "air_step_height"),
            (|p| p.steep_normal = 1.5, "steep_normal"),
            (|p| p.steep_speed_share = 0.0, "steep_speed_share"),
            (|p| p.max_fall = f64::NAN, "max_fall"),
            (|p| p.crest_bend = -1.0, "crest_bend"),
            (|p| p.min_walk_normal = 1.5, "min_walk_normal"),
            (|p| p.arc_step = 2.0, "arc_step"),
            (|p| p.probe_spacing = 0.5, "probe_spacing"),
        ];
        for (change, field) in cases {
            let mut p = NavParams::default();
            change(&mut p);
            let e = p.validate().unwrap_err();
            assert!(e.to_string().contains(field), "{e}");
        }
        assert!(NavParams::default().validate().is_ok());
    }
}
