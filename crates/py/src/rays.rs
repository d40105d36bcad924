//! Depth rays: a fan of rays from each agent's eye, answered by the line of sight's tree
//! ([`LineOfSight::first_blocked`]: where the sight pose's cube, half side 1/32, first enters
//! solid), as fractions of the range or distances.

use cspace_geom::DVec3;
use cspace_nav::{LineOfSight, NavContext};
use cspace_scenario::sweep::sin_cos;

use crate::batch::Real;
use crate::config::{MAX_PITCH, RayConfig};

/// Each ray's yaw and pitch offsets from the view, degrees: `count` rays spread evenly over the
/// field of view seen from above, from its left edge (`+fov/2`, Quake's yaw turns left) to its
/// right, all at the fan's pitch.
pub fn fan(rays: &RayConfig) -> Vec<(f64, f64)> {
    (0..rays.count)
        .map(|i| {
            let yaw = if rays.count == 1 {
                0.0
            } else {
                rays.fov * (0.5 - i as f64 / (rays.count - 1) as f64)
            };
            (yaw, rays.pitch)
        })
        .collect()
}

/// Quake's forward vector of a view (`AngleVectors`, `q_math.c`): yaw counter-clockwise from +x,
/// pitch positive looking down; the sweep's polynomial sine and cosine, so the rays are the same
/// bits on every machine.
pub fn direction(yaw: f64, pitch: f64) -> DVec3 {
    let y = yaw.rem_euclid(360.0);
    let y = if y > 180.0 { y - 360.0 } else { y };
    let p = pitch.clamp(-MAX_PITCH, MAX_PITCH);
    let radians = std::f64::consts::PI / 180.0;
    let (sy, cy) = sin_cos(y * radians);
    let (sp, cp) = sin_cos(p * radians);
    DVec3::new(cp * cy, cp * sy, -sp)
}

/// Casts the fan from `eye` with the view (`yaw`, `pitch`) into `out` (one value per ray).
#[allow(clippy::too_many_arguments)]
pub fn cast<T: Real>(
    sight: &LineOfSight,
    ctx: &mut NavContext,
    rays: &RayConfig,
    fan: &[(f64, f64)],
    eye: DVec3,
    yaw: f64,
    pitch: f64,
    out: &mut [T],
) {
    for (value, &(dy, dp)) in out.iter_mut().zip(fan) {
        let end = eye + direction(yaw + dy, pitch + dp) * rays.range;
        let fraction = sight.first_blocked(eye, end, ctx).unwrap_or(1.0);
        *value = T::of(if rays.distances {
            fraction * rays.range
        } else {
            fraction
        });
    }
}

/// The segments of the fan from `eye` with the view (`yaw`, `pitch`): what `cast` traces (for
/// tests against `sim los` and `sim trace`).
pub fn segments(rays: &RayConfig, eye: DVec3, yaw: f64, pitch: f64) -> Vec<(DVec3, DVec3)> {
    fan(rays)
        .iter()
        .map(|&(dy, dp)| (eye, eye + direction(yaw + dy, pitch + dp) * rays.range))
        .collect()
}
