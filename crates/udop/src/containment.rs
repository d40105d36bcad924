//! Algorithm 3 (bounding k-DOP containment test).

use cspace_geom::Shape;
use glam::DVec3;

use crate::kdop::{Kdop, same_directions};
use crate::udop::Udop;
use crate::vector::Vector;

impl<V: Vector> Udop<V> {
    /// Algorithm 3 (bounding k-DOP containment test): true only if the closed k-DOP lies in this
    /// k-UDOP's open region, i.e. `(c_2 - c_1) . v_i < h_i - g_i` for every common direction.
    ///
    /// Written so that a NaN (infinite `h_i` and `g_i`) answers "not contained".
    ///
    /// # Panics
    /// When the k-DOP is over another direction set.
    pub fn contains_kdop(&self, kdop: &Kdop<V>) -> bool {
        assert!(
            same_directions(self.directions(), kdop.directions()),
            "Algorithm 3 needs the k-DOP and the k-UDOP over the same directions"
        );
        let shift = kdop.centre() - self.centre();
        self.directions()
            .vectors()
            .iter()
            .zip(self.distances())
            .zip(kdop.extents())
            .all(|((v, h), g)| shift.dot(*v) < h - g)
    }
}

impl Udop<DVec3> {
    /// Algorithm 3 for the swept bounding k-DOP of `shape` moving from `start` to `end`, grown by
    /// `margin` ([`Kdop::of_swept_shape`]), without building it: true only if the shape, grown
    /// by `margin`, stays inside the open region all along the move.
    pub fn contains_swept_shape(
        &self,
        shape: &Shape,
        start: DVec3,
        end: DVec3,
        margin: f64,
    ) -> bool {
        let shift = start - self.centre();
        let travel = end - start;
        self.directions()
            .vectors()
            .iter()
            .zip(self.distances())
            .all(|(v, h)| {
                let g = shape.support_distance(*v) + travel.dot(*v).max(0.0) + margin;
                shift.dot(*v) < h - g
            })
    }
}
