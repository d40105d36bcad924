//! Blow's "segregation is good": a uniform grid over the ground plane (xy), each agent listed in
//! every cell its bounds overlap.
//!
//! The grid is unbounded but stored without hashing. Cells are grouped two by two into blocks,
//! and block `(x, y)` lives in bucket `(x mod SIDE, y mod SIDE)` of a flat table; each agent is
//! listed, with the rectangle of cells it covers, in every block those cells meet. A query reads
//! the buckets of its own blocks, keeps the agents whose cells meet its cells, and reports each
//! once, from the first block the two rectangles share; agents folded in from far blocks fail
//! that test. (The blocks only store: the answer is the agents sharing a cell with the query,
//! but a query reads one to four buckets, not four to nine, and each read is a cache miss in a
//! large crowd.) The last answer is kept until the grid changes and answers later queries inside
//! its cells (a mover's traces in one step mostly stay in the same cells), filtered by their
//! cells.

use cspace_geom::Aabb;

use super::Slot;

/// Buckets per side of the table: 64 blocks of two 32-unit cells span a 4,096-unit world
/// without folding.
const SIDE: i32 = 64;

/// Cells per block side, as a shift: blocks of 2 x 2 cells.
const BLOCK_SHIFT: u32 = 1;
const _: () = assert!(SIDE.count_ones() == 1, "bucket() masks by SIDE - 1");

/// A rectangle of cells, inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cells {
    x0: i32,
    y0: i32,
    x1: i32,
    y1: i32,
}

impl Cells {
    fn overlaps(&self, other: &Cells) -> bool {
        self.x0 <= other.x1 && other.x0 <= self.x1 && self.y0 <= other.y1 && other.y0 <= self.y1
    }

    fn contains(&self, other: &Cells) -> bool {
        self.x0 <= other.x0 && other.x1 <= self.x1 && self.y0 <= other.y0 && other.y1 <= self.y1
    }

    /// The blocks these cells meet (floor division by the block side, negative cells included).
    fn blocks(&self) -> Cells {
        Cells {
            x0: self.x0 >> BLOCK_SHIFT,
            y0: self.y0 >> BLOCK_SHIFT,
            x1: self.x1 >> BLOCK_SHIFT,
            y1: self.y1 >> BLOCK_SHIFT,
        }
    }

    /// Blocks wider or deeper than the table: they fold onto some buckets twice.
    fn folds(&self) -> bool {
        (self.x1 as i64 - self.x0 as i64) >= SIDE as i64
            || (self.y1 as i64 - self.y0 as i64) >= SIDE as i64
    }

    /// The buckets covering these blocks, each once: `(x, y)` blocks, at most `SIDE` per side.
    fn buckets(&self) -> impl Iterator<Item = (i32, i32)> {
        let x1 = self.x1.min(self.x0.saturating_add(SIDE - 1));
        let y1 = self.y1.min(self.y0.saturating_add(SIDE - 1));
        let y0 = self.y0;
        (self.x0..=x1).flat_map(move |x| (y0..=y1).map(move |y| (x, y)))
    }
}

/// The table slot of block `(x, y)`.
fn bucket(x: i32, y: i32) -> usize {
    // `rem_euclid` by a power of two: the low bits of the two's complement.
    ((x & (SIDE - 1)) * SIDE + (y & (SIDE - 1))) as usize
}

/// A 2D uniform grid of agent ids.
#[derive(Debug, Clone)]
pub struct Grid {
    /// Cells per unit: the reciprocal of the cell size.
    per_unit: f64,
    /// `SIDE * SIDE` lists of ids with their cells (read without a second lookup), in id order,
    /// one per block.
    buckets: Vec<Vec<(Slot, Cells)>>,
    /// Per agent id, the cells it is listed in.
    listed: Vec<Option<Cells>>,
    /// The cells of the last query, while the grid is unchanged since.
    recent: Option<Cells>,
    /// The agents listed in `recent`'s cells, with their cells, in id order.
    nearby: Vec<(Slot, Cells)>,
    /// `nearby`'s ids alone.
    nearby_ids: Vec<Slot>,
}

impl Grid {
    /// An empty grid of square cells `cell` units wide.
    pub fn new(cell: f64) -> Grid {
        assert!(
            cell > 0.0 && cell.is_finite(),
            "grid cells need a positive size"
        );
        Grid {
            per_unit: 1.0 / cell,
            buckets: vec![Vec::new(); (SIDE * SIDE) as usize],
            listed: Vec::new(),
            recent: None,
            nearby: Vec::new(),
            nearby_ids: Vec::new(),
        }
    }

    /// The cell of coordinate `v`: `floor(v * (1 / cell))` clamped to `i32`, the floor taken by
    /// truncation (a libm call otherwise on baseline x86-64).
    fn coordinate(&self, v: f64) -> i32 {
        let q = v * self.per_unit;
        // Saturating, and 0 for NaN, as `floor` then `as` would give.
        let t = q as i32;
        if (t as f64) > q {
            t.saturating_sub(1)
        } else {
            t
        }
    }

    fn cells(&self, bounds: &Aabb) -> Cells {
        Cells {
            x0: self.coordinate(bounds.min.x),
            y0: self.coordinate(bounds.min.y),
            x1: self.coordinate(bounds.max.x),
            y1: self.coordinate(bounds.max.y),
        }
    }

    fn list(&mut self, id: Slot, cells: Cells) {
        self.recent = None;
        for (x, y) in cells.blocks().buckets() {
            let list = &mut self.buckets[bucket(x, y)];
            let at = list.partition_point(|&(other, _)| other < id);
            list.insert(at, (id, cells));
        }
        let index = id.0 as usize;
        if index >= self.listed.len() {
            self.listed.resize(index + 1, None);
        }
        self.listed[index] = Some(cells);
    }

    /// Lists `id` in every cell `bounds` overlaps (replacing where it was listed before).
    pub fn insert(&mut self, id: Slot, bounds: &Aabb) {
        self.remove(id);
        self.list(id, self.cells(bounds));
    }

    /// Lists `id` in the cells of `bounds` instead of where it was; nothing to do when they are
    /// the same cells, as for most moves of one step.
    pub fn update(&mut self, id: Slot, bounds: &Aabb) {
        let cells = self.cells(bounds);
        if self.listed.get(id.0 as usize).copied().flatten() != Some(cells) {
            self.remove(id);
            self.list(id, cells);
        }
    }

    /// Removes every agent, keeping the table's memory (a grid rebuilt every step).
    pub fn clear(&mut self) {
        for index in 0..self.listed.len() {
            self.remove(Slot(index as u32));
        }
        self.listed.clear();
    }

    /// Removes `id` from the grid.
    pub fn remove(&mut self, id: Slot) {
        let Some(cells) = self.listed.get_mut(id.0 as usize).and_then(Option::take) else {
            return;
        };
        self.recent = None;
        for (x, y) in cells.blocks().buckets() {
            let list = &mut self.buckets[bucket(x, y)];
            if let Some(at) = list.iter().position(|&(other, _)| other == id) {
                list.remove(at);
            }
        }
    }

    /// Appends to `out` the ids listed in the cells `bounds` overlaps, sorted and without
    /// duplicates.
    pub fn query(&mut self, bounds: &Aabb, out: &mut Vec<Slot>) {
        self.query_except(bounds, None, out);
    }

    /// [`Grid::query`] leaving out `except` (the mover itself).
    pub fn query_except(&mut self, bounds: &Aabb, except: Option<Slot>, out: &mut Vec<Slot>) {
        let q = self.cells(bounds);
        let except = except.unwrap_or(Slot(u32::MAX));
        match self.recent {
            // The cells of the last query again (most of a mover's traces): all of its agents.
            Some(r) if r == q => {
                out.reserve(self.nearby_ids.len());
                for &id in &self.nearby_ids {
                    if id != except {
                        out.push(id);
                    }
                }
                return;
            }
            Some(r) if r.contains(&q) => {}
            _ => self.gather(q),
        }
        out.reserve(self.nearby.len());
        for &(id, c) in &self.nearby {
            if id != except && c.overlaps(&q) {
                out.push(id);
            }
        }
    }

    /// Fills `nearby` with the agents listed in cells `q` and remembers `q`.
    fn gather(&mut self, q: Cells) {
        self.nearby.clear();
        let qb = q.blocks();
        if qb.folds() {
            // Larger than the table: every listed agent, in id order.
            self.nearby
                .extend(self.listed.iter().enumerate().filter_map(|(id, cells)| {
                    cells
                        .filter(|c| c.overlaps(&q))
                        .map(|c| (Slot(id as u32), c))
                }));
        } else {
            // Not folding: at most `SIDE` blocks per side, each bucket once.
            for x in qb.x0..=qb.x1 {
                for y in qb.y0..=qb.y1 {
                    for &(id, c) in &self.buckets[bucket(x, y)] {
                        // Sharing a cell; once per agent: from the lowest block both cover.
                        let cb = c.blocks();
                        if c.overlaps(&q) && x == cb.x0.max(qb.x0) && y == cb.y0.max(qb.y0) {
                            self.nearby.push((id, c));
                        }
                    }
                }
            }
            // Sorted runs, one per bucket: often one run, or nearly in order.
            if !self.nearby.is_sorted_by_key(|&(id, _)| id) {
                self.nearby.sort_unstable_by_key(|&(id, _)| id);
            }
        }
        self.nearby_ids.clear();
        self.nearby_ids
            .extend(self.nearby.iter().map(|&(id, _)| id));
        self.recent = Some(q);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cspace_geom::DVec3;

    fn cube(at: DVec3) -> Aabb {
        Aabb::new(at - DVec3::splat(16.0), at + DVec3::splat(16.0))
    }

    fn found(grid: &mut Grid, at: DVec3) -> Vec<Slot> {
        let mut out = Vec::new();
        grid.query(&cube(at), &mut out);
        out
    }

    #[test]
    fn update_moves_an_agent_between_cells_and_keeps_it_within_one() {
        let mut grid = Grid::new(64.0);
        let a = Slot(3);
        let start = DVec3::new(32.0, 32.0, 0.0);
        grid.insert(a, &cube(start));
        // A small move inside the same cells.
        let near = start + DVec3::new(1.0, 0.0, 0.0);
        grid.update(a, &cube(near));
        assert_eq!(found(&mut grid, near), vec![a]);
        // A move far away: listed there, and no longer at the start.
        let far = DVec3::new(1000.0, -500.0, 0.0);
        grid.update(a, &cube(far));
        assert_eq!(found(&mut grid, far), vec![a]);
        assert!(found(&mut grid, start).is_empty());
    }

    #[test]
    fn cell_coordinates_are_floors_clamped_to_i32() {
        let grid = Grid::new(64.0);
        for v in [
            0.0,
            -0.0,
            63.999,
            64.0,
            -1e-300,
            -64.0,
            -64.5,
            1e12,
            -1e12,
            1e300,
            -1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -137438953472.0,
            -137438953472.5,
        ] {
            let floor = (v / 64.0).floor().clamp(i32::MIN as f64, i32::MAX as f64) as i32;
            assert_eq!(grid.coordinate(v), floor, "{v}");
        }
    }

    /// Agents folded onto the same buckets from far cells, agents wider than the table, queries
    /// larger than it, and queries inside the last one (answered from it): the answers are the
    /// brute-force overlaps of cell rectangles, with or without the mover.
    #[test]
    fn queries_match_brute_force_across_folds() {
        let mut rng = cspace_geom::generate::Rng::new(5);
        let mut grid = Grid::new(16.0);
        let size = |rng: &mut cspace_geom::generate::Rng| {
            if rng.below(20) == 0 {
                rng.range(100.0, 4000.0)
            } else {
                rng.range(0.0, 40.0)
            }
        };
        let mut boxes = Vec::new();
        for id in 0..300 {
            let min = DVec3::new(rng.range(-3000.0, 3000.0), rng.range(-3000.0, 3000.0), 0.0);
            let b = Aabb::new(min, min + DVec3::new(size(&mut rng), size(&mut rng), 1.0));
            grid.insert(Slot(id), &b);
            boxes.push(b);
        }
        for round in 0..600 {
            let id = rng.below(300);
            let min = DVec3::new(rng.range(-3000.0, 3000.0), rng.range(-3000.0, 3000.0), 0.0);
            let b = Aabb::new(min, min + DVec3::new(size(&mut rng), size(&mut rng), 1.0));
            if round % 2 == 0 {
                grid.update(Slot(id as u32), &b);
                boxes[id] = b;
            }
            // The box, then the same cells again, then a part of it, each also without one
            // agent (the mover).
            let part = Aabb::new(b.min, b.min + (b.max - b.min) * rng.range(0.0, 1.0));
            let except = Slot(rng.below(300) as u32);
            for b in [b, b, part] {
                let q = grid.cells(&b);
                let expected: Vec<Slot> = (0..300)
                    .filter(|&i| grid.cells(&boxes[i]).overlaps(&q))
                    .map(|i| Slot(i as u32))
                    .collect();
                let mut out = Vec::new();
                grid.query(&b, &mut out);
                assert_eq!(out, expected);
                out.clear();
                grid.query_except(&b, Some(except), &mut out);
                let without: Vec<Slot> = expected
                    .iter()
                    .copied()
                    .filter(|&id| id != except)
                    .collect();
                assert_eq!(out, without);
            }
        }
    }
}
