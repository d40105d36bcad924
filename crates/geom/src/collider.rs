//! The contract every collision backend fulfils: [`Collider`] and its answer, [`Hit`].

use glam::DVec3;

use crate::plane::Plane;
use crate::shape::Shape;
use crate::tolerance::DEFAULT_SKIN;
use crate::world::BrushId;

/// A shape a backend has accepted, ready for traces.
///
/// Made by [`Collider::prepare`], which checks once that the backend can answer for the shape and
/// records the backend's own slot for it (the onion's configuration-space index, say).
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared {
    shape: Shape,
    slot: u32,
    skin: f64,
    mover: Option<u64>,
}

impl Prepared {
    /// A prepared shape with the backend's `slot`, the default skin and no mover id.
    pub fn new(shape: Shape, slot: u32) -> Prepared {
        Prepared {
            shape,
            slot,
            skin: DEFAULT_SKIN,
            mover: None,
        }
    }

    /// The same with another skin (units; see [`Hit::fraction`]).
    pub fn with_skin(self, skin: f64) -> Prepared {
        Prepared { skin, ..self }
    }

    /// The same, tagged with the caller's id for the moving agent: caching backends (the k-UDOP
    /// free-space cache) keep their state per mover.
    pub fn with_mover(self, mover: u64) -> Prepared {
        Prepared {
            mover: Some(mover),
            ..self
        }
    }

    /// The shape.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The backend's slot for the shape.
    pub fn slot(&self) -> u32 {
        self.slot
    }

    /// The skin, in units.
    pub fn skin(&self) -> f64 {
        self.skin
    }

    /// The mover id, when the caller gave one.
    pub fn mover(&self) -> Option<u64> {
        self.mover
    }
}

/// A backend cannot answer for a shape.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the {backend} backend cannot trace {shape}: {reason}")]
pub struct UnsupportedShape {
    /// The backend's name.
    pub backend: String,
    /// The shape, as the command line writes it.
    pub shape: String,
    /// Why, and what it can do instead.
    pub reason: String,
}

/// The surface a trace hit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HitSurface {
    /// The plane the shape's origin hit, in the shape's configuration space: a world plane
    /// pushed out by the shape's support. Its normal points from the obstacle towards the mover.
    pub plane: Plane,
    /// The contact point on the world surface (world coordinates, units): where the shape
    /// touches the obstacle at [`HitSurface::time_of_impact`].
    pub point: DVec3,
    /// The brush hit.
    pub brush: BrushId,
    /// Fraction of the segment at which the shape first touches the obstacle, in `[0, 1]`,
    /// before the skin pull-back; `fraction <= time_of_impact`.
    pub time_of_impact: f64,
}

/// A backend's answer for a shape moving on a straight segment from `start` to `end`.
///
/// The shape is free where it overlaps no brush's interior by more than
/// [`crate::tolerance::CONTACT`]; touching and sliding along surfaces are free.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// Free fraction of the move, in `[0, 1]`; 1 means nothing was hit.
    ///
    /// After a hit the end is pulled back as Quake III does, so that it stays the skin away
    /// from the hit plane measured along its normal:
    /// `fraction = max(0, (d_start - skin) / (d_start - d_end))` with `d_start`, `d_end` the signed
    /// distances of the segment's ends to the hit plane. It is 0 when the move never leaves solid.
    pub fraction: f64,
    /// The position reached: `start + fraction * (end - start)`.
    pub end: DVec3,
    /// What was hit; `None` when `fraction == 1` or the move never leaves solid.
    pub surface: Option<HitSurface>,
    /// The move starts inside solid. A solid region the move starts in never blocks leaving it:
    /// the hit, if any, is the first entry into solid after the start region is left.
    pub start_solid: bool,
    /// The move never leaves solid (then `fraction == 0`).
    pub all_solid: bool,
}

impl Hit {
    /// Nothing in the way.
    pub fn miss(end: DVec3) -> Hit {
        Hit {
            fraction: 1.0,
            end,
            surface: None,
            start_solid: false,
            all_solid: false,
        }
    }

    /// The whole move is inside solid.
    pub fn all_solid(start: DVec3) -> Hit {
        Hit {
            fraction: 0.0,
            end: start,
            surface: None,
            start_solid: true,
            all_solid: true,
        }
    }

    /// True when something stopped the move.
    pub fn is_hit(&self) -> bool {
        self.surface.is_some()
    }

    /// A blocked move: the fraction from the skin rule on `plane` whose signed distances at the
    /// segment's ends are `d_start` and `d_end` (`d_start > d_end`).
    pub fn blocked(
        start: DVec3,
        end: DVec3,
        skin: f64,
        surface: HitSurface,
        start_solid: bool,
    ) -> Hit {
        let d_start = surface.plane.signed_distance(start);
        let d_end = surface.plane.signed_distance(end);
        let fraction = skin_fraction(d_start, d_end, skin).min(surface.time_of_impact);
        Hit {
            fraction,
            end: lerp(start, end, fraction),
            surface: Some(surface),
            start_solid,
            all_solid: false,
        }
    }
}

/// `max(0, (d_start - skin) / (d_start - d_end))`, clamped to `[0, 1]` (Quake III's
/// `CM_TraceThroughBrush` with `SURFACE_CLIP_EPSILON`).
#[inline]
pub fn skin_fraction(d_start: f64, d_end: f64, skin: f64) -> f64 {
    let denominator = d_start - d_end;
    if denominator <= 0.0 {
        return 0.0;
    }
    ((d_start - skin) / denominator).clamp(0.0, 1.0)
}

/// `a + (b - a) * t`, with `t == 1` giving exactly `b`.
#[inline]
pub fn lerp(a: DVec3, b: DVec3, t: f64) -> DVec3 {
    if t == 1.0 { b } else { a + (b - a) * t }
}

/// A collision backend: answers swept-shape traces and point queries against a static world.
///
/// Backends: `exact` ([`crate::exact::ExactCollider`]), `onion`, `melax`, and the k-UDOP cache
/// wrapping any of them. Every backend answers in the same shape so any two can be compared.
pub trait Collider: Send {
    /// The backend's name as the command line spells it (`exact`, `onion`, ...).
    fn name(&self) -> &str;

    /// Checks that this backend can answer for `shape` and prepares it.
    fn prepare(&self, shape: &Shape) -> Result<Prepared, UnsupportedShape>;

    /// Sweeps `shape` from `start` to `end`.
    fn trace(&mut self, shape: &Prepared, start: DVec3, end: DVec3) -> Hit;

    /// True when `shape` placed at `position` overlaps solid (deeper than the contact tolerance).
    fn is_solid(&mut self, shape: &Prepared, position: DVec3) -> bool;

    /// The backend's own counters (nodes visited, cache skips, ...) as one line for run
    /// summaries; `None` when it keeps none.
    fn counters(&self) -> Option<String> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skin_fraction_follows_quake() {
        // Start 10 units in front, end 10 behind: touch at 0.5, pulled back by 1/32 along 20.
        assert_eq!(
            skin_fraction(10.0, -10.0, 1.0 / 32.0),
            (10.0 - 1.0 / 32.0) / 20.0
        );
        // Already within the skin: no progress.
        assert_eq!(skin_fraction(0.01, -5.0, 1.0 / 32.0), 0.0);
        // Parallel or moving away: no progress through this plane.
        assert_eq!(skin_fraction(1.0, 1.0, 1.0 / 32.0), 0.0);
    }
}
