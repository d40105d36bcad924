//! What an agent wants to do next: its [`Intent`], set by whoever drives it
//! ([`crate::Sim::set_intent`]), and the vocabulary of scripts ([`Action`]) that changes one.

use cspace_geom::DVec3;
use cspace_geom::domain::{self, OutOfDomain, Quantity};

/// Where an agent looks: yaw and pitch in degrees (Quake's view angles: yaw counter-clockwise
/// from +x seen from above, pitch positive looking down). [`Intent::direction`] is in world
/// space, so the movement model reads the view only in Quake 1's hold after a teleport (a wish
/// against the view's forward direction is dropped, [`crate::movement::MoveTimer`]) and Quake
/// 1's one-way triggers read its facing (`multi_touch`, docs/entities.md "Triggers"); a
/// teleporter turns it to its destination's facing, and a script sets it ([`Action::View`]).
/// Observations (depth rays, a policy's frame) read it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct View {
    /// Degrees counter-clockwise from +x, seen from above.
    pub yaw: f64,
    /// Degrees, positive looking down (Quake's sign).
    pub pitch: f64,
}

impl View {
    /// The horizontal unit vector of `yaw`.
    pub fn forward(self) -> DVec3 {
        let (s, c) = self.yaw.to_radians().sin_cos();
        DVec3::new(c, s, 0.0)
    }
}

/// What an agent wants for the steps to come, until it is set again: the script vocabulary as
/// state.
///
/// The movement model reads the wished direction and speed, the jump and the crouch; a goto
/// takes them over while it is under way ([`Intent::goto`]). The step changes the intent it
/// acts on: a jump is taken (and `jump` cleared) at the first step on walkable ground, and a
/// goto steers the agent each step and ends (`goto` cleared) when it arrives or cannot. Read it
/// back with [`crate::Sim::intent`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Intent {
    /// The wished direction, world space: its horizontal part is used, normalised (zero: no
    /// wish to move).
    pub direction: DVec3,
    /// The wished speed, units/s (the pose's speed scale applies on top).
    pub speed: f64,
    /// Jump at the first step on walkable ground from now on.
    pub jump: bool,
    /// Crouch (false: stand up as soon as the standing pose fits).
    pub crouch: bool,
    /// Where it looks (Quake 1's teleport hold and one-way triggers, observations).
    pub view: View,
    /// Go to this point (where the agent's origin should end, on the walkable floor below it):
    /// plan a path with the navigation graph of the agent's poses and follow it with the
    /// movement model, steering, jumping and crouching as its links require
    /// ([`crate::navigation::follow`]), until it arrives or cannot. Setting another point (or
    /// `None`) ends the goto under way; setting the same point again keeps it.
    pub goto: Option<DVec3>,
}

impl Intent {
    /// Walking towards `direction` at `speed` units/s.
    pub fn walk(direction: DVec3, speed: f64) -> Intent {
        Intent {
            direction: flat_unit(direction),
            speed,
            ..Intent::default()
        }
    }

    /// Checks the numeric domain: a finite direction, a speed within
    /// [`MAX_SPEED`](cspace_geom::tolerance::MAX_SPEED), view angles finite, a goto target
    /// within [`MAX_COORDINATE`](cspace_geom::tolerance::MAX_COORDINATE). The error says which.
    pub fn check_domain(&self) -> Result<(), (&'static str, OutOfDomain)> {
        domain::check_point(Quantity::Coordinate, self.direction).map_err(|e| ("direction", e))?;
        domain::check(Quantity::Speed, self.speed).map_err(|e| ("speed", e))?;
        domain::check(Quantity::Coordinate, self.view.yaw).map_err(|e| ("view yaw", e))?;
        domain::check(Quantity::Coordinate, self.view.pitch).map_err(|e| ("view pitch", e))?;
        if let Some(target) = self.goto {
            domain::check_point(Quantity::Coordinate, target).map_err(|e| ("goto target", e))?;
        }
        Ok(())
    }

    /// The same intent with its direction made horizontal and unit (or zero), as the movement
    /// model uses it. A direction that already is (within the rounding of a normalisation) is
    /// kept bit for bit: an intent read back and set again does not drift.
    pub(crate) fn normalised(self) -> Intent {
        let d = self.direction;
        let unit =
            d.z == 0.0 && (d == DVec3::ZERO || (d.length_squared() - 1.0).abs() <= UNIT_ROUNDING);
        Intent {
            direction: if unit { d } else { flat_unit(d) },
            ..self
        }
    }

    /// What a script event does to the intent: a move sets the direction and speed, a stop
    /// clears them, a jump, a crouch or a stand sets those, a view the view; a goto sets the
    /// target, and any other action but a view ends a goto under way.
    pub fn apply(&mut self, action: &Action) {
        match *action {
            Action::Move { direction, speed } => {
                self.direction = flat_unit(direction);
                self.speed = speed;
            }
            Action::Stop => {
                self.direction = DVec3::ZERO;
                self.speed = 0.0;
            }
            Action::Jump => self.jump = true,
            Action::Crouch => self.crouch = true,
            Action::Stand => self.crouch = false,
            Action::View(view) => self.view = view,
            Action::Goto(_) => {}
        }
        self.goto = match *action {
            Action::Goto(target) => Some(target),
            // Looking elsewhere moves nothing: a goto under way goes on.
            Action::View(_) => self.goto,
            _ => None,
        };
    }
}

/// How far from 1 the squared length of a normalised vector can be: a few units in the last
/// place of 1 (not a tolerance of the geometry: the rounding of `normalize` itself).
const UNIT_ROUNDING: f64 = 4.0 * f64::EPSILON;

/// The horizontal unit vector of `v`, or zero.
fn flat_unit(v: DVec3) -> DVec3 {
    DVec3::new(v.x, v.y, 0.0).normalize_or_zero()
}

/// What a script tells an agent to do (`docs/scenario-format.md`), applied to its intent
/// ([`Intent::apply`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Action {
    /// Walk (or steer in the air) towards `direction` (its horizontal part is used) at `speed`
    /// units/s, until told otherwise.
    Move {
        /// The wished direction (normalised horizontally).
        direction: DVec3,
        /// The wished speed, units/s.
        speed: f64,
    },
    /// Stop wishing to move (friction brings the agent to rest).
    Stop,
    /// Jump, at the first step on walkable ground from now on.
    Jump,
    /// Crouch (switch to the crouching pose).
    Crouch,
    /// Stand up as soon as the standing pose fits.
    Stand,
    /// Go to this point ([`Intent::goto`]).
    Goto(DVec3),
    /// Look this way ([`Intent::view`]): yaw and pitch, degrees. Nothing else changes (a goto
    /// under way goes on).
    View(View),
}
