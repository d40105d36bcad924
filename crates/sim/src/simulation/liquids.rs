//! The liquids of a living world as a contents query (issue 32, `docs/entities.md`, "Liquids"):
//! which liquid, if any, holds a point. The movement model samples three points per agent per
//! sub-step (`movement/water.rs`), so the query is a coarse grid over the liquid brushes' bounds
//! (`BoxGrid`: a point far from every liquid, as most are, costs a cell look-up) and a plane
//! test of the few brushes whose bounds hold the point.
//!
//! It reads the map's brushes, never the collision backend: every backend gets the same answers
//! (`crates/sim/tests/it/water.rs` runs every backend on one pool).
//!
//! A point exactly on a liquid brush's face follows the dialect:
//!
//! - Quake III (`CM_PointContents`, `cm_test.c`): a brush holds a point unless the point is in
//!   front of one of its planes (`d > dist`): a point on a face is in the liquid.
//! - Quake 1 (`SV_HullPointContents`, `world.c`, on the BSP `qbsp` builds): a point on a node's
//!   plane goes to its front child (`d >= 0`), and `qbsp` stores every plane with its largest
//!   component positive (`NormalizePlane`, `brush.c`; ties x, then y, then z). So a point on a
//!   face is in the liquid when the face's outward normal has its largest component negative (a
//!   floor, a west or a south face) and out of it otherwise (the surface, east and north faces):
//!   a box of water holds `[min, max)` on each axis.
//!
//! The static world's solid brushes answer the water jump's point and line tests the same way
//! (closed brushes, as Quake III's point test; Quake 1's `traceline` meets a brush where it
//! enters it); movers are not tested (a water jump onto a mover's top is not seen).

use cspace_entities::{Dialect, Entities, LiquidKind};
use cspace_geom::tolerance::BOX_GROWTH;
use cspace_geom::{
    Aabb, BrushId, BrushSource, Collider, Contents, DVec3, Plane, World, WorldBrush,
};

use crate::box_grid::BoxGrid;

use crate::movers::Scene;
use crate::params::{WaterParams, WaterRules};

/// A world's liquid brushes, indexed, and the water rules of its dialect.
#[derive(Debug)]
pub struct Liquids {
    params: WaterParams,
    brushes: World,
    kinds: Vec<LiquidKind>,
    /// The brushes' bounds, and a grid over them.
    bounds: Vec<Aabb>,
    grid: BoxGrid,
}

impl Liquids {
    /// The liquids of `entities`, with the water rules of their dialect; `None` when there are
    /// none (the world then moves as a dry one, bit for bit).
    pub fn new(entities: &Entities) -> Option<Liquids> {
        if entities.liquids.is_empty() {
            return None;
        }
        let rules = match entities.dialect {
            Dialect::Quake1 => WaterRules::Quake1,
            Dialect::Quake3 => WaterRules::Quake3,
        };
        let brushes = entities
            .liquids
            .iter()
            .enumerate()
            .map(|(i, l)| WorldBrush {
                brush: l.brush.clone(),
                contents: Contents::Solid,
                source: BrushSource {
                    brush: i as u32,
                    ..BrushSource::default()
                },
            })
            .collect();
        let brushes = World::new(brushes);
        let bounds: Vec<Aabb> = (0..brushes.len())
            .map(|i| brushes.brush(BrushId(i as u32)).brush.bounds())
            .collect();
        Some(Liquids {
            params: WaterParams::of(rules),
            grid: BoxGrid::new(bounds.clone()),
            bounds,
            brushes,
            kinds: entities.liquids.iter().map(|l| l.kind).collect(),
        })
    }

    /// The water rules.
    pub fn params(&self) -> &WaterParams {
        &self.params
    }

    /// Whether no point of `b` is in a liquid, as [`Liquids::contents`] decides: no liquid
    /// brush's bounds meet `b` grown by [`BOX_GROWTH`] (so none meets the box `contents` looks
    /// around any point of `b`).
    pub fn is_dry(&self, b: &Aabb) -> bool {
        let near = b.loosened(BOX_GROWTH);
        let mut dry = true;
        self.grid.candidates(&near, |k| {
            dry = !self.bounds[k].intersects(&near);
            dry
        });
        dry
    }

    /// The liquid holding `point` (the strongest when several do: lava, then slime, then water,
    /// as a brush's contents are chosen), on a face per the dialect (the module's doc).
    pub fn contents(&self, point: DVec3) -> Option<LiquidKind> {
        let rules = self.params.rules;
        let mut found: Option<LiquidKind> = None;
        let near = point_box(point);
        // The brushes whose bounds meet `near`, as the world's index finds them.
        self.grid.candidates(&near, |k| {
            if !self.bounds[k].intersects(&near) {
                return true;
            }
            let id = BrushId(k as u32);
            let brush = &self.brushes.brush(id).brush;
            let inside = brush.planes().all(|plane| match rules {
                WaterRules::Quake3 => plane.signed_distance(point) <= 0.0,
                WaterRules::Quake1 => holds_quake1(&plane, point),
            });
            if inside {
                let kind = self.kinds[id.0 as usize];
                if found.is_none_or(|f| strength(kind) > strength(f)) {
                    found = Some(kind);
                }
            }
            true
        });
        found
    }
}

/// Whether the half-space behind `plane` holds `point` as Quake 1's BSP decides (the module's
/// doc): behind it, or on it when the plane's largest normal component is negative.
fn holds_quake1(plane: &Plane, point: DVec3) -> bool {
    let d = plane.signed_distance(point);
    if d != 0.0 {
        return d < 0.0;
    }
    let n = plane.normal();
    let a = n.abs();
    let largest = if a.x >= a.y && a.x >= a.z {
        n.x
    } else if a.y >= a.x && a.y >= a.z {
        n.y
    } else {
        n.z
    };
    largest < 0.0
}

/// Lava over slime over water.
fn strength(kind: LiquidKind) -> u8 {
    match kind {
        LiquidKind::Water => 0,
        LiquidKind::Slime => 1,
        LiquidKind::Lava => 2,
    }
}

/// A box around a point, grown by [`BOX_GROWTH`] so that a brush whose vertices round inside a
/// face through the point is still found (the planes decide).
fn point_box(point: DVec3) -> Aabb {
    Aabb::new(
        point - DVec3::splat(BOX_GROWTH),
        point + DVec3::splat(BOX_GROWTH),
    )
}

/// Whether a static world brush holds `point` (closed: a point on a face is inside):
/// `Some(true)` when a solid one does, `Some(false)` when only clip brushes do, `None` when none.
pub(crate) fn solid_at(world: &World, point: DVec3) -> Option<bool> {
    let mut found = None;
    world.for_each_overlapping(&point_box(point), |id| {
        let b = world.brush(id);
        if found != Some(true) && b.brush.planes().all(|p| p.signed_distance(point) <= 0.0) {
            found = Some(b.contents == Contents::Solid);
        }
    });
    found
}

/// [`solid_at`] in the run's scene: the static world and every mover where it stands now (a
/// mover's brushes at its offset: the point moved back by it), as Quake's point contents see
/// brush models (`SV_PointContents` / `CM_PointContents` over the entities' clip models):
/// `Some(true)` when a solid brush of any holds the point, `Some(false)` when only clip brushes
/// do, `None` when none. A mover a `killtarget` removed holds nothing.
pub(crate) fn solid_in_scene(scene: &Scene, point: DVec3) -> Option<bool> {
    let mut found = solid_at(scene.world(), point);
    let near = point_box(point);
    for m in 0..scene.models().len() {
        if found == Some(true) {
            break;
        }
        let Some(mover) = scene.models().collider(m) else {
            continue;
        };
        if !scene.placed(m).intersects(&near) {
            continue;
        }
        match solid_at(mover.world(), point - scene.offset(m)) {
            Some(true) => found = Some(true),
            Some(false) => found = found.or(Some(false)),
            None => {}
        }
    }
    found
}

/// [`line_hit`] in the run's scene: the first brush the line meets among the static world's and
/// every mover's where it stands now (the line moved back by the mover's offset); on a tie the
/// static world's, then the first mover's.
pub(crate) fn line_hit_in_scene(scene: &Scene, start: DVec3, end: DVec3) -> Option<DVec3> {
    let mut best = line_entry(scene.world(), start, end);
    let reach = grown_box(start, end);
    for m in 0..scene.models().len() {
        let Some(mover) = scene.models().collider(m) else {
            continue;
        };
        if !scene.placed(m).intersects(&reach) {
            continue;
        }
        let offset = scene.offset(m);
        if let Some(hit) = line_entry(mover.world(), start - offset, end - offset)
            && best.is_none_or(|(t, _)| hit.0 < t)
        {
            best = Some(hit);
        }
    }
    best.map(|(_, normal)| normal)
}

/// The box from `start` to `end`, grown by [`BOX_GROWTH`].
fn grown_box(start: DVec3, end: DVec3) -> Aabb {
    let bounds = Aabb::new(start.min(end), start.max(end));
    Aabb::new(
        bounds.min - DVec3::splat(BOX_GROWTH),
        bounds.max + DVec3::splat(BOX_GROWTH),
    )
}

/// The outward normal of the first static world brush the line from `start` to `end` meets
/// (Quake 1's `traceline` with `nomonsters`: where it enters a brush; a line starting inside a
/// brush meets it at once, with the normal of the plane nearest behind the start). `None` when
/// it meets none.
pub(crate) fn line_hit(world: &World, start: DVec3, end: DVec3) -> Option<DVec3> {
    line_entry(world, start, end).map(|(_, normal)| normal)
}

/// [`line_hit`] with where the line enters: (its fraction along the line, the normal).
fn line_entry(world: &World, start: DVec3, end: DVec3) -> Option<(f64, DVec3)> {
    let grown = grown_box(start, end);
    let mut best: Option<(f64, DVec3)> = None;
    world.for_each_overlapping(&grown, |id| {
        let (mut enter, mut leave) = (0.0, 1.0);
        // The plane the line enters by, and (for a start inside) the plane nearest behind it.
        let mut entered: Option<DVec3> = None;
        let mut behind = (f64::NEG_INFINITY, DVec3::ZERO);
        for plane in world.brush(id).brush.planes() {
            let (d0, d1) = (plane.signed_distance(start), plane.signed_distance(end));
            // A line ending on a face stays in front of it (`SV_RecursiveHullCheck`: both ends
            // `>= 0` go to the front child).
            if d0 > 0.0 && d1 >= 0.0 {
                return;
            }
            if d0 <= 0.0 {
                if d0 > behind.0 {
                    behind = (d0, plane.normal());
                }
                if d1 > 0.0 {
                    leave = f64::min(leave, d0 / (d0 - d1));
                }
                continue;
            }
            let t = d0 / (d0 - d1);
            if entered.is_none() || t > enter {
                enter = t;
                entered = Some(plane.normal());
            }
        }
        if enter > leave {
            return;
        }
        let normal = entered.unwrap_or(behind.1);
        if best.is_none_or(|(t, _)| enter < t) {
            best = Some((enter, normal));
        }
    });
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use cspace_entities::Liquid;
    use cspace_geom::Brush;

    fn pool(dialect: Dialect) -> Liquids {
        let mut entities = Entities::empty(dialect);
        let brush = Brush::from_aabb(Aabb::new(
            DVec3::new(0.0, 0.0, -64.0),
            DVec3::new(128.0, 128.0, 0.0),
        ))
        .unwrap();
        entities.liquids.push(Liquid {
            kind: LiquidKind::Water,
            brush,
            source: BrushSource::default(),
        });
        Liquids::new(&entities).unwrap()
    }

    /// Quake III's brushes are closed; Quake 1's BSP holds `[min, max)` on each axis of a box.
    #[test]
    fn a_point_on_a_face_is_in_the_liquid_as_each_dialect_says() {
        let q3 = pool(Dialect::Quake3);
        let q1 = pool(Dialect::Quake1);
        let water = Some(LiquidKind::Water);
        // The surface (z = 0, outward +z), the floor (z = -64, outward -z), the walls.
        for (point, quake3, quake1) in [
            (DVec3::new(64.0, 64.0, 0.0), water, None),
            (DVec3::new(64.0, 64.0, -64.0), water, water),
            (DVec3::new(0.0, 64.0, -32.0), water, water),
            (DVec3::new(128.0, 64.0, -32.0), water, None),
            (DVec3::new(64.0, 0.0, -32.0), water, water),
            (DVec3::new(64.0, 128.0, -32.0), water, None),
            (DVec3::new(64.0, 64.0, -32.0), water, water),
            (DVec3::new(64.0, 64.0, 1e-12), None, None),
            (DVec3::new(64.0, 64.0, -1e-12), water, water),
        ] {
            assert_eq!(q3.contents(point), quake3, "Quake III at {point}");
            assert_eq!(q1.contents(point), quake1, "Quake 1 at {point}");
        }
    }

    #[test]
    fn a_line_meets_the_face_it_enters_and_a_point_test_is_closed() {
        let wall = Brush::from_aabb(Aabb::new(
            DVec3::new(100.0, -50.0, 0.0),
            DVec3::new(120.0, 50.0, 50.0),
        ))
        .unwrap();
        let world = World::from_brushes([wall]);
        let n = line_hit(
            &world,
            DVec3::new(80.0, 0.0, 8.0),
            DVec3::new(104.0, 0.0, 8.0),
        );
        assert_eq!(n, Some(DVec3::NEG_X));
        assert_eq!(
            line_hit(
                &world,
                DVec3::new(80.0, 0.0, 60.0),
                DVec3::new(104.0, 0.0, 60.0)
            ),
            None
        );
        assert_eq!(
            line_hit(
                &world,
                DVec3::new(80.0, 0.0, 8.0),
                DVec3::new(99.0, 0.0, 8.0)
            ),
            None
        );
        // From inside: met at once, by the nearest plane behind the start.
        assert_eq!(
            line_hit(
                &world,
                DVec3::new(101.0, 0.0, 8.0),
                DVec3::new(130.0, 0.0, 8.0)
            ),
            Some(DVec3::NEG_X)
        );
        assert_eq!(solid_at(&world, DVec3::new(100.0, 0.0, 8.0)), Some(true));
        assert_eq!(solid_at(&world, DVec3::new(99.999, 0.0, 8.0)), None);
    }
}
