//! Where an agent looks: yaw and pitch in degrees (Quake's view angles) with their sines and
//! cosines, computed once when the view is set, from the sweep's polynomial (the same bits on
//! every machine: a wish direction never depends on the platform's `sin`).

use cspace_geom::DVec3;
use cspace_scenario::sweep::sin_cos;

use crate::config::MAX_PITCH;

/// `yaw` in (-180, 180] degrees.
pub fn wrap_yaw(yaw: f64) -> f64 {
    let y = yaw.rem_euclid(360.0);
    if y > 180.0 { y - 360.0 } else { y }
}

/// `(sin, cos)` of `degrees` within [-180, 180].
pub fn sin_cos_degrees(degrees: f64) -> (f64, f64) {
    sin_cos(degrees * (std::f64::consts::PI / 180.0))
}

/// A view and its sines and cosines.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Facing {
    /// Degrees counter-clockwise from +x seen from above, in (-180, 180].
    pub yaw: f64,
    /// Degrees, positive looking down, within the steepest pitch either way.
    pub pitch: f64,
    /// `(sin, cos)` of the yaw.
    pub yaw_sin_cos: (f64, f64),
    /// `(sin, cos)` of the pitch.
    pub pitch_sin_cos: (f64, f64),
}

impl Facing {
    /// The view of `yaw` (wrapped into (-180, 180]) and `pitch` (clamped to the steepest).
    pub fn new(yaw: f64, pitch: f64) -> Facing {
        let yaw = wrap_yaw(yaw);
        let pitch = pitch.clamp(-MAX_PITCH, MAX_PITCH);
        Facing {
            yaw,
            pitch,
            yaw_sin_cos: sin_cos_degrees(yaw),
            pitch_sin_cos: sin_cos_degrees(pitch),
        }
    }

    /// The horizontal unit vector the yaw faces.
    pub fn forward(&self) -> DVec3 {
        let (s, c) = self.yaw_sin_cos;
        DVec3::new(c, s, 0.0)
    }

    /// The horizontal unit vector to the right of the yaw (Quake's `right`).
    pub fn right(&self) -> DVec3 {
        let (s, c) = self.yaw_sin_cos;
        DVec3::new(s, -c, 0.0)
    }

    /// `v` (world) in the yaw's frame: forward, left, up.
    pub fn local(&self, v: DVec3) -> DVec3 {
        let (s, c) = self.yaw_sin_cos;
        DVec3::new(c * v.x + s * v.y, -s * v.x + c * v.y, v.z)
    }
}
