//! The deduplicated plane table: planes within [`PLANE_MERGE`] are one entry, and a plane facing
//! the other way shares its entry (with a flip flag).

use std::collections::HashMap;

use cspace_geom::Plane;
use cspace_geom::tolerance::PLANE_KEY_STEP;
use cspace_geom::tolerance::PLANE_MERGE;

const STEP: f64 = PLANE_KEY_STEP;

#[derive(Debug, Default)]
pub(crate) struct PlaneTable {
    pub planes: Vec<Plane>,
    lookup: HashMap<[i64; 4], Vec<u32>>,
}

fn key_values(plane: &Plane) -> [f64; 4] {
    let n = plane.normal();
    [n.x, n.y, n.z, plane.dist()]
}

impl PlaneTable {
    /// The entry of `plane`: its index and whether it faces the other way.
    pub fn insert(&mut self, plane: Plane) -> (u32, bool) {
        if let Some(entry) = self.get(&plane) {
            return entry;
        }
        let id = self.planes.len() as u32;
        self.planes.push(plane);
        let v = key_values(&plane);
        let key = v.map(|x| (x / STEP).floor() as i64);
        self.lookup.entry(key).or_default().push(id);
        (id, false)
    }

    /// The entry `plane` merges into, if any: its index and whether it faces the other way.
    pub fn get(&self, plane: &Plane) -> Option<(u32, bool)> {
        if let Some(id) = self.find(plane) {
            return Some((id, false));
        }
        self.find(&plane.flipped()).map(|id| (id, true))
    }

    fn find(&self, plane: &Plane) -> Option<u32> {
        let v = key_values(plane);
        let lo = v.map(|x| ((x - PLANE_MERGE) / STEP).floor() as i64);
        let hi = v.map(|x| ((x + PLANE_MERGE) / STEP).floor() as i64);
        for a in lo[0]..=hi[0] {
            for b in lo[1]..=hi[1] {
                for c in lo[2]..=hi[2] {
                    for d in lo[3]..=hi[3] {
                        if let Some(ids) = self.lookup.get(&[a, b, c, d]) {
                            for &id in ids {
                                if self.planes[id as usize].approx_eq(
                                    plane,
                                    PLANE_MERGE,
                                    PLANE_MERGE,
                                ) {
                                    return Some(id);
                                }
                            }
                        }
                    }
                }
            }
        }
        None
    }
}
