//! Welding the control points of a set of patches (see [`PATCH_WELD`]).

use std::collections::BTreeMap;

use glam::DVec3;

use super::ControlGrid;
use crate::tolerance::PATCH_WELD;

/// The grids with every control point within [`PATCH_WELD`] of an earlier one (in patch order,
/// then row after row) replaced by it, and for each grid the largest distance a point moved.
/// Deterministic: points are looked up in a sorted map of cells of side `PATCH_WELD`.
pub(super) fn weld(patches: &[ControlGrid]) -> (Vec<ControlGrid>, Vec<f64>) {
    let cell = |p: DVec3| -> [i64; 3] { (p / PATCH_WELD).floor().to_array().map(|x| x as i64) };
    let mut kept: BTreeMap<[i64; 3], Vec<DVec3>> = BTreeMap::new();
    let mut grids = Vec::with_capacity(patches.len());
    let mut moved = Vec::with_capacity(patches.len());
    for grid in patches {
        let mut most: f64 = 0.0;
        let points = grid
            .points
            .iter()
            .map(|&p| {
                let home = cell(p);
                let mut found: Option<DVec3> = None;
                'search: for dx in -1..=1 {
                    for dy in -1..=1 {
                        for dz in -1..=1 {
                            let key = [home[0] + dx, home[1] + dy, home[2] + dz];
                            if let Some(list) = kept.get(&key)
                                && let Some(&q) = list.iter().find(|q| q.distance(p) <= PATCH_WELD)
                            {
                                found = Some(q);
                                break 'search;
                            }
                        }
                    }
                }
                match found {
                    Some(q) => {
                        most = most.max(q.distance(p));
                        q
                    }
                    None => {
                        kept.entry(home).or_default().push(p);
                        p
                    }
                }
            })
            .collect();
        grids.push(ControlGrid {
            rows: grid.rows,
            columns: grid.columns,
            points,
        });
        moved.push(most);
    }
    (grids, moved)
}
