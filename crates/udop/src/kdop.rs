//! Bounding k-DOPs: `{x : (x - c) . v_i <= g_i}` over the same directions as the k-UDOPs they are
//! tested against (Section 4.3).

use std::sync::Arc;

use cspace_geom::Shape;
use glam::DVec3;

use crate::directions::Directions;
use crate::vector::Vector;

/// A bounding k-DOP: the closed region `{x : (x - c) . v_i <= g_i}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Kdop<V: Vector> {
    directions: Arc<Directions<V>>,
    centre: V,
    extents: Vec<f64>,
}

impl<V: Vector> Kdop<V> {
    /// The smallest k-DOP around `centre` holding every point (empty, every `g_i = -inf`,
    /// without points).
    pub fn of_points(
        directions: Arc<Directions<V>>,
        centre: V,
        points: impl IntoIterator<Item = V>,
    ) -> Kdop<V> {
        let mut kdop = Kdop {
            extents: vec![f64::NEG_INFINITY; directions.len()],
            directions,
            centre,
        };
        for p in points {
            kdop.include(p);
        }
        kdop
    }

    /// Grows the k-DOP to hold `point`.
    pub fn include(&mut self, point: V) {
        let offset = point - self.centre;
        for (g, v) in self.extents.iter_mut().zip(self.directions.vectors()) {
            *g = g.max(offset.dot(*v));
        }
    }

    /// Grows the k-DOP to hold `other` (over the same directions).
    ///
    /// # Panics
    /// When `other` is over another direction set.
    pub fn merge(&mut self, other: &Kdop<V>) {
        assert!(
            same_directions(&self.directions, &other.directions),
            "k-DOPs over different direction sets cannot be merged"
        );
        let shift = other.centre - self.centre;
        for ((g, o), v) in self
            .extents
            .iter_mut()
            .zip(&other.extents)
            .zip(self.directions.vectors())
        {
            *g = g.max(o + shift.dot(*v));
        }
    }

    /// Pushes every side out by `margin` units (holds the region grown by a ball of that radius).
    pub fn grow(&mut self, margin: f64) {
        for g in &mut self.extents {
            *g += margin;
        }
    }

    /// The direction set.
    pub fn directions(&self) -> &Arc<Directions<V>> {
        &self.directions
    }

    /// The centre `c`.
    pub fn centre(&self) -> V {
        self.centre
    }

    /// The extents `g_i`, in units along each direction from the centre.
    pub fn extents(&self) -> &[f64] {
        &self.extents
    }

    /// True when `point` lies in the closed region.
    pub fn contains_point(&self, point: V) -> bool {
        let offset = point - self.centre;
        self.directions
            .vectors()
            .iter()
            .zip(&self.extents)
            .all(|(v, g)| offset.dot(*v) <= *g)
    }
}

impl Kdop<DVec3> {
    /// The bounding k-DOP of `shape` with its origin at `position` (centred there):
    /// `g_i` is the shape's support along `v_i`.
    pub fn of_shape(directions: Arc<Directions<DVec3>>, shape: &Shape, position: DVec3) -> Self {
        let extents = directions
            .vectors()
            .iter()
            .map(|v| shape.support_distance(*v))
            .collect();
        Kdop {
            directions,
            centre: position,
            extents,
        }
    }

    /// The bounding k-DOP of `shape` swept from `start` to `end`, grown by `margin`: the shape's
    /// k-DOPs at both ends merged (a convex shape moving on a segment stays in the convex hull
    /// of its two end poses, and the k-DOP of a union of convex sets is convex), centred on
    /// `start`.
    pub fn of_swept_shape(
        directions: Arc<Directions<DVec3>>,
        shape: &Shape,
        start: DVec3,
        end: DVec3,
        margin: f64,
    ) -> Self {
        let travel = end - start;
        let extents = directions
            .vectors()
            .iter()
            .map(|v| shape.support_distance(*v) + travel.dot(*v).max(0.0) + margin)
            .collect();
        Kdop {
            directions,
            centre: start,
            extents,
        }
    }
}

/// True when two direction sets are the same (the same allocation, or equal).
pub(crate) fn same_directions<V: Vector>(a: &Arc<Directions<V>>, b: &Arc<Directions<V>>) -> bool {
    Arc::ptr_eq(a, b) || a.vectors() == b.vectors()
}
