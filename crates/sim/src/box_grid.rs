//! Which of a fixed set of boxes a box may meet: a static grid in x and y over the boxes, so that
//! a query far from all of them (most queries) tests none. The movers' reaches
//! ([`crate::movers::Scene`]) and the liquid brushes' bounds ([`crate::simulation::Liquids`]) use
//! it.

use cspace_geom::Aabb;

/// The most cells along x or y.
const MAX_CELLS: usize = 32;

/// A uniform grid in x and y over the union of a fixed set of boxes (a mover's *reach*: the bounds
/// of every place it can be, [`cspace_entities::Mover::travel_bounds`]; a liquid brush's bounds),
/// each cell a bit set of the boxes that meet it. A box moved outside its reach (a mover at a
/// caller's own offset) is *loose*: listed for every query. Candidates come in increasing order,
/// so a scene that merges their hits in that order answers exactly as one that tests every
/// mover.
#[derive(Debug, Clone)]
pub(crate) struct BoxGrid {
    /// Each mover's reach.
    reach: Vec<Aabb>,
    /// The union of the reaches.
    bounds: Aabb,
    /// Cells along x and y.
    cells: [usize; 2],
    /// One over the side of a cell along x and y, per unit: a coordinate's cell is a product,
    /// monotone in the coordinate as a quotient is, so the cells [`BoxGrid::new`] files a box in
    /// and those a query inside it finds agree.
    per_unit: [f64; 2],
    /// 64-bit words per bit set.
    words: usize,
    /// The cells' bit sets, `words` per cell, row by row.
    masks: Vec<u64>,
    /// Per cell, the lowest and highest z of the reaches filed in it (`[inf, -inf]` for none): a
    /// query above or below them meets none of them, and skips the cell.
    heights: Vec<[f64; 2]>,
    /// The loose movers' bit set.
    loose: Vec<u64>,
}

impl BoxGrid {
    /// The grid over items that can be anywhere in `reach` (one box per item).
    pub fn new(reach: Vec<Aabb>) -> BoxGrid {
        let words = reach.len().div_ceil(64).max(1);
        let bounds = reach.iter().fold(Aabb::EMPTY, |a, r| a.merged(*r));
        let size = bounds.size();
        let cells = if reach.is_empty() {
            [1, 1]
        } else {
            [0, 1].map(|k| {
                let n = (size[k] / 64.0).ceil();
                if n.is_finite() && n >= 1.0 {
                    (n as usize).min(MAX_CELLS)
                } else {
                    1
                }
            })
        };
        let per_unit = [0, 1].map(|k| {
            let side = (size[k] / cells[k] as f64).max(f64::MIN_POSITIVE);
            let per = 1.0 / side;
            if per.is_finite() { per } else { 0.0 }
        });
        let mut grid = BoxGrid {
            reach,
            bounds,
            cells,
            per_unit,
            words,
            masks: vec![0; cells[0] * cells[1] * words],
            heights: vec![[f64::INFINITY, f64::NEG_INFINITY]; cells[0] * cells[1]],
            loose: vec![0; words],
        };
        for m in 0..grid.reach.len() {
            let r = grid.reach[m];
            if let Some([x, y]) = grid.range(&r) {
                for j in y.0..=y.1 {
                    for i in x.0..=x.1 {
                        let cell = j * grid.cells[0] + i;
                        grid.masks[cell * grid.words + m / 64] |= 1 << (m % 64);
                        let h = &mut grid.heights[cell];
                        *h = [h[0].min(r.min.z), h[1].max(r.max.z)];
                    }
                }
            }
        }
        grid
    }

    /// The cells (inclusive ranges along x and y) a box meets, `None` when it misses the grid.
    fn range(&self, b: &Aabb) -> Option<[(usize, usize); 2]> {
        if !b.intersects(&self.bounds) {
            return None;
        }
        Some([0, 1].map(|k| {
            let cell = |v: f64| {
                // A float-to-integer cast truncates (the floor, for the non-negative) and
                // saturates: NaN and below the grid go to the first cell, beyond it to the last.
                let c = (v - self.bounds.min[k]) * self.per_unit[k];
                (c as usize).min(self.cells[k] - 1)
            };
            (cell(b.min[k]), cell(b.max[k]))
        }))
    }

    /// Notes item `m` placed at `placed`: outside its reach, it becomes loose (for good).
    pub fn placed(&mut self, m: usize, placed: &Aabb) {
        let r = self.reach[m];
        let inside = (0..3).all(|k| placed.min[k] >= r.min[k] && placed.max[k] <= r.max[k]);
        if !inside {
            self.loose[m / 64] |= 1 << (m % 64);
        }
    }

    /// Calls `each` with every item whose reach's cells a box meets, and every loose item, in
    /// increasing order, each once, until it says stop.
    pub fn candidates(&self, b: &Aabb, mut each: impl FnMut(usize) -> bool) {
        let range = self.range(b);
        for w in 0..self.words {
            let mut bits = self.loose[w];
            if let Some([x, y]) = range {
                for j in y.0..=y.1 {
                    for i in x.0..=x.1 {
                        let cell = j * self.cells[0] + i;
                        let [low, high] = self.heights[cell];
                        if b.max.z >= low && b.min.z <= high {
                            bits |= self.masks[cell * self.words + w];
                        }
                    }
                }
            }
            while bits != 0 {
                let m = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if !each(m) {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cspace_geom::DVec3;
    use cspace_geom::generate::Rng;

    fn cube(at: DVec3, half: f64) -> Aabb {
        Aabb::new(at - DVec3::splat(half), at + DVec3::splat(half))
    }

    /// The grid's candidates, once filtered by the boxes themselves, are exactly the movers a
    /// linear scan finds, in the same order: for random reaches (more than 64 movers, so several
    /// words), places inside and outside them, and boxes anywhere, touching included.
    #[test]
    fn candidates_filtered_by_bounds_are_the_linear_scans() {
        let mut rng = Rng::new(7);
        let mut v = |lo: f64, hi: f64| rng.range(lo, hi);
        let reach: Vec<Aabb> = (0..150)
            .map(|_| {
                cube(
                    DVec3::new(v(-2000.0, 2000.0), v(-2000.0, 2000.0), v(-500.0, 500.0)),
                    v(1.0, 200.0),
                )
            })
            .collect();
        let mut grid = BoxGrid::new(reach.clone());
        let mut placed = reach.clone();
        for m in (0..placed.len()).step_by(7) {
            // Some movers go where their reach does not say (loose).
            placed[m] = placed[m].translated(DVec3::new(v(-900.0, 900.0), 0.0, 0.0));
            grid.placed(m, &placed[m]);
        }
        for _ in 0..3000 {
            let b = cube(
                DVec3::new(v(-2600.0, 2600.0), v(-2600.0, 2600.0), v(-700.0, 700.0)),
                v(0.0, 300.0),
            );
            let linear: Vec<usize> = (0..placed.len())
                .filter(|&m| placed[m].intersects(&b))
                .collect();
            let mut found = Vec::new();
            grid.candidates(&b, |m| {
                if placed[m].intersects(&b) {
                    found.push(m);
                }
                true
            });
            assert_eq!(found, linear);
        }
        // A box touching a reach's face exactly meets it.
        let m0 = reach[3];
        let touching = Aabb::new(
            DVec3::new(m0.max.x, m0.min.y, m0.min.z),
            DVec3::new(m0.max.x + 5.0, m0.max.y, m0.max.z),
        );
        let mut found = Vec::new();
        grid.candidates(&touching, |m| {
            found.push(m);
            true
        });
        assert!(found.contains(&3));
    }

    /// No mover: nothing is a candidate, and nothing panics.
    #[test]
    fn an_empty_grid_lists_nothing() {
        let grid = BoxGrid::new(Vec::new());
        grid.candidates(&cube(DVec3::ZERO, 10.0), |_| panic!("no mover"));
    }
}
