//! Depth rays: a fan of rays from each agent's eye, answered by the line of sight's tree
//! ([`LineOfSight::first_blocked`]: where the sight pose's cube, half side 1/32, first enters
//! solid), as fractions of the range or distances.

use cspace_geom::DVec3;
use cspace_nav::{LineOfSight, NavContext};

use crate::config::{MAX_PITCH, RayConfig};
use crate::real::Real;
use crate::view::{Facing, sin_cos_degrees};

/// The fan: each ray's yaw offset from the view as its sine and cosine (computed once), the
/// fan's pitch offset, its reach and its units.
#[derive(Debug, Clone)]
pub struct Fan {
    offsets: Vec<(f64, f64)>,
    config: RayConfig,
}

impl Fan {
    /// `rays.count` rays spread evenly over the field of view seen from above, from its left edge
    /// (`+fov/2`: Quake's yaw turns left) to its right, all at the fan's pitch.
    pub fn new(rays: &RayConfig) -> Fan {
        let offsets = (0..rays.count)
            .map(|i| {
                let yaw = if rays.count == 1 {
                    0.0
                } else {
                    rays.fov * (0.5 - i as f64 / (rays.count - 1) as f64)
                };
                sin_cos_degrees(yaw)
            })
            .collect();
        Fan {
            offsets,
            config: *rays,
        }
    }

    /// Calls `f` with each ray's unit direction from `view` (Quake's `AngleVectors` forward:
    /// yaw counter-clockwise from +x, pitch positive looking down): the yaw offsets added by the
    /// angle-addition formulas, the pitch the view's plus the fan's, clamped to the steepest.
    pub fn directions(&self, view: &Facing, mut f: impl FnMut(usize, DVec3)) {
        let (sp, cp) = if self.config.pitch == 0.0 {
            view.pitch_sin_cos
        } else {
            sin_cos_degrees((view.pitch + self.config.pitch).clamp(-MAX_PITCH, MAX_PITCH))
        };
        let (sy, cy) = view.yaw_sin_cos;
        for (i, &(sd, cd)) in self.offsets.iter().enumerate() {
            let s = sy * cd + cy * sd;
            let c = cy * cd - sy * sd;
            f(i, DVec3::new(cp * c, cp * s, -sp));
        }
    }

    /// Casts the fan from `eye` with `view` into `out` (one value per ray).
    pub fn cast<T: Real>(
        &self,
        sight: &LineOfSight,
        ctx: &mut NavContext,
        eye: DVec3,
        view: &Facing,
        out: &mut [T],
    ) {
        let RayConfig {
            range, distances, ..
        } = self.config;
        self.directions(view, |i, d| {
            let fraction = sight
                .first_blocked(eye, eye + d * range, ctx)
                .unwrap_or(1.0);
            out[i] = T::of(if distances {
                fraction * range
            } else {
                fraction
            });
        });
    }

    /// The segments [`Fan::cast`] traces from `eye` with `view` (for tests against `sim los`
    /// and `sim trace`).
    pub fn segments(&self, eye: DVec3, view: &Facing) -> Vec<(DVec3, DVec3)> {
        let mut out = Vec::with_capacity(self.offsets.len());
        self.directions(view, |_, d| out.push((eye, eye + d * self.config.range)));
        out
    }
}
