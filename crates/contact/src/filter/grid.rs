//! Blow's "segregation is good": a uniform grid over the ground plane (xy), each agent listed in
//! every cell its bounds overlap.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use cspace_geom::Aabb;

use crate::contact::AgentId;

/// A small, fixed (not randomly seeded) hasher for integer cell keys. Lookups only: nothing
/// iterates the map, so its order never reaches an output.
#[derive(Default)]
struct CellHasher(u64);

impl Hasher for CellHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_i32(&mut self, x: i32) {
        self.write_u64(x as u32 as u64);
    }
}

/// A 2D uniform grid of agent ids.
#[derive(Debug, Clone)]
pub struct Grid {
    cell: f64,
    cells: HashMap<(i32, i32), Vec<AgentId>, BuildHasherDefault<CellHasher>>,
}

impl std::fmt::Debug for CellHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CellHasher")
    }
}

impl Grid {
    /// An empty grid of square cells `cell` units wide.
    pub fn new(cell: f64) -> Grid {
        assert!(
            cell > 0.0 && cell.is_finite(),
            "grid cells need a positive size"
        );
        Grid {
            cell,
            cells: HashMap::default(),
        }
    }

    fn range(&self, bounds: &Aabb) -> (i32, i32, i32, i32) {
        let c = |v: f64| {
            (v / self.cell)
                .floor()
                .clamp(i32::MIN as f64, i32::MAX as f64) as i32
        };
        (
            c(bounds.min.x),
            c(bounds.min.y),
            c(bounds.max.x),
            c(bounds.max.y),
        )
    }

    /// Lists `id` in every cell `bounds` overlaps.
    pub fn insert(&mut self, id: AgentId, bounds: &Aabb) {
        let (x0, y0, x1, y1) = self.range(bounds);
        for x in x0..=x1 {
            for y in y0..=y1 {
                self.cells.entry((x, y)).or_default().push(id);
            }
        }
    }

    /// Moves `id` from the cells of `old` (the bounds it was inserted with) to those of `new`;
    /// nothing to do when both cover the same cells, as for most moves of one step.
    pub fn update(&mut self, id: AgentId, old: &Aabb, new: &Aabb) {
        if self.range(old) != self.range(new) {
            self.remove(id, old);
            self.insert(id, new);
        }
    }

    /// Removes `id` from the cells `bounds` overlaps (the bounds it was inserted with).
    pub fn remove(&mut self, id: AgentId, bounds: &Aabb) {
        let (x0, y0, x1, y1) = self.range(bounds);
        for x in x0..=x1 {
            for y in y0..=y1 {
                if let Some(list) = self.cells.get_mut(&(x, y)) {
                    list.retain(|&other| other != id);
                }
            }
        }
    }

    /// Appends to `out` the ids listed in the cells `bounds` overlaps, sorted and without
    /// duplicates.
    pub fn query(&self, bounds: &Aabb, out: &mut Vec<AgentId>) {
        let start = out.len();
        let (x0, y0, x1, y1) = self.range(bounds);
        for x in x0..=x1 {
            for y in y0..=y1 {
                if let Some(list) = self.cells.get(&(x, y)) {
                    out.extend_from_slice(list);
                }
            }
        }
        out[start..].sort_unstable();
        let mut write = start;
        for read in start..out.len() {
            if write == start || out[read] != out[write - 1] {
                out[write] = out[read];
                write += 1;
            }
        }
        out.truncate(write);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cspace_geom::DVec3;

    fn cube(at: DVec3) -> Aabb {
        Aabb::new(at - DVec3::splat(16.0), at + DVec3::splat(16.0))
    }

    fn found(grid: &Grid, at: DVec3) -> Vec<AgentId> {
        let mut out = Vec::new();
        grid.query(&cube(at), &mut out);
        out
    }

    #[test]
    fn update_moves_an_agent_between_cells_and_keeps_it_within_one() {
        let mut grid = Grid::new(64.0);
        let a = AgentId(3);
        let start = DVec3::new(32.0, 32.0, 0.0);
        grid.insert(a, &cube(start));
        // A small move inside the same cells.
        let near = start + DVec3::new(1.0, 0.0, 0.0);
        grid.update(a, &cube(start), &cube(near));
        assert_eq!(found(&grid, near), vec![a]);
        // A move far away: listed there, and no longer at the start.
        let far = DVec3::new(1000.0, -500.0, 0.0);
        grid.update(a, &cube(near), &cube(far));
        assert_eq!(found(&grid, far), vec![a]);
        assert!(found(&grid, start).is_empty());
    }
}
