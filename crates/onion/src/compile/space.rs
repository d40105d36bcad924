//! Configuration spaces: the world's brushes expanded by one pose's box, and the CSG union of
//! their faces (the parts of faces inside another brush of the same space are dropped).

use cspace_geom::aabb_tree::AabbTree;
use cspace_geom::expand::box_expanded_planes;
use cspace_geom::polygon::PolygonSide;
use cspace_geom::shape::BoxShape;
use cspace_geom::tolerance::{CONTACT, ONION_CUT, PLANE_MERGE};
use cspace_geom::{Aabb, Brush, BrushError, Plane, Polygon, World};
use glam::DVec3;
use rayon::prelude::*;

use super::CompileError;
use crate::pose::Pose;
use cspace_geom::tolerance::BOX_GROWTH;

/// One world brush expanded by a pose's box.
#[derive(Debug, Clone)]
pub(crate) struct SpaceBrush {
    /// Every configuration-space plane (faces and bevels, pushed out): the exact Minkowski sum.
    pub planes: Vec<Plane>,
    /// The expanded brush with its faces.
    pub brush: Brush,
    /// True for the expansion of a facet (a flat world brush): see [`clip_outside_separated`].
    pub facet: bool,
    /// Per face of `brush`, its axis when its normal is one (`Some((axis, positive))`).
    pub axes: Vec<Option<(usize, bool)>>,
}

/// The axis of an axial plane and whether its normal points along it.
fn axis_of(plane: &Plane) -> Option<(usize, bool)> {
    if !plane.is_axial() {
        return None;
    }
    let n = plane.normal();
    let axis = (0..3).find(|&k| n[k] != 0.0)?;
    Some((axis, n[axis] > 0.0))
}

/// One configuration space: the world expanded by one pose.
#[derive(Debug, Clone)]
pub(crate) struct Space {
    pub brushes: Vec<SpaceBrush>,
    pub index: AabbTree,
    /// True when a brush of the space is an expanded facet: the union then takes
    /// [`Space::face_outside`] (worlds of brushes alone keep the plain loop, and their trees).
    pub facets: bool,
}

impl Space {
    /// The world's brushes expanded by `pose` (geom's exact box expansion), on rayon's threads
    /// (collected in brush order: the space does not depend on the thread count).
    pub fn new(world: &World, pose: &Pose, space: usize) -> Result<Space, CompileError> {
        let shape = BoxShape {
            mins: pose.mins,
            maxs: pose.maxs,
        };
        let expanded: Vec<Result<Option<SpaceBrush>, BrushError>> = world
            .brushes()
            .par_iter()
            .map(|wb| {
                let planes = box_expanded_planes(&wb.brush, &shape);
                match Brush::from_planes(&planes) {
                    Ok(brush) => Ok(Some(SpaceBrush {
                        axes: brush.planes().map(|p| axis_of(&p)).collect(),
                        planes,
                        brush,
                        facet: wb.brush.is_flat(),
                    })),
                    // A facet (a flat brush) expanded by a box of no extent along its normal
                    // (the point pose) is a slab of zero thickness, or thinner than the brush
                    // builder's plane thickness (2e-6 units): no point is deeper than CONTACT
                    // inside it, so the facet is never solid in this space and leaves no face
                    // (rays pass facets).
                    Err(BrushError::Empty) if wb.brush.is_flat() => Ok(None),
                    Err(error) => Err(error),
                }
            })
            .collect();
        let mut brushes = Vec::with_capacity(world.len());
        for (i, result) in expanded.into_iter().enumerate() {
            match result {
                Ok(Some(brush)) => brushes.push(brush),
                Ok(None) => {}
                Err(error) => {
                    return Err(CompileError::Expansion {
                        brush: i,
                        pose: pose.name.clone(),
                        space,
                        error,
                    });
                }
            }
        }
        let boxes: Vec<Aabb> = brushes.iter().map(|b| b.brush.bounds()).collect();
        Ok(Space {
            facets: brushes.iter().any(|b| b.facet),
            brushes,
            index: AabbTree::new(&boxes),
        })
    }

    /// True when `point` is inside or on an expanded brush (within `tolerance`, at most
    /// [`CONTACT`]): a leaf's interior point may sit exactly on a seam between touching brushes
    /// (Listing 3's classification).
    pub fn contains(&self, point: DVec3, tolerance: f64) -> bool {
        let query = Aabb::new(point, point).loosened(CONTACT);
        let mut inside = false;
        self.index.for_each_overlapping(&query, |i| {
            if !inside {
                inside = self.brushes[i as usize]
                    .planes
                    .iter()
                    .all(|p| p.signed_distance(point) <= tolerance);
            }
        });
        inside
    }

    /// The CSG union's boundary: every face of every expanded brush, less its parts inside other
    /// brushes. Faces facing each other on one plane are both dropped; of two coplanar faces
    /// facing the same way only one is kept (the outer, or the first brush's when equal).
    ///
    /// Brushes are taken on rayon's threads and their faces collected in brush order: the
    /// polygons do not depend on the thread count.
    pub fn union_faces(&self) -> Vec<Polygon> {
        let per_brush: Vec<Vec<Polygon>> = (0..self.brushes.len())
            .into_par_iter()
            .map_init(
                || (Vec::new(), Vec::new()),
                |(near, near_boxes), i| self.brush_union_faces(i, near, near_boxes),
            )
            .collect();
        per_brush.into_iter().flatten().collect()
    }

    /// The faces of brush `i` in the union (`near` and `near_boxes` are scratch).
    fn brush_union_faces(
        &self,
        i: usize,
        near: &mut Vec<u32>,
        near_boxes: &mut Vec<(Aabb, u32)>,
    ) -> Vec<Polygon> {
        let sb = &self.brushes[i];
        let mut out = Vec::new();
        near.clear();
        self.index
            .for_each_overlapping(&sb.brush.bounds().loosened(BOX_GROWTH), |j| {
                if j as usize != i {
                    near.push(j)
                }
            });
        near.sort_unstable();
        if self.facets {
            // The bounds of the brushes near, side by side for the faces' filter.
            near_boxes.clear();
            near_boxes.extend(
                near.iter()
                    .map(|&j| (self.brushes[j as usize].brush.bounds(), j)),
            );
        }
        for f in 0..sb.brush.face_count() {
            let face = sb.brush.face_polygon(f);
            if self.facets {
                out.extend(self.face_outside(i, face, near_boxes));
            } else {
                out.extend(self.cut_halving(i, face, near, clip_outside));
            }
        }
        out
    }

    /// The parts of face `face` of brush `i` outside the other brushes `near`, in a space with
    /// facets. The same union as the plain loop of [`Space::union_faces`], in fewer pieces: the
    /// brushes are those whose bounds meet the face's own (an expanded facet's bounds are mostly
    /// the agent's box, its faces far smaller), a face strictly inside one of them is dropped
    /// before any split, the nearest brushes cut first (they cover the most), and a piece in
    /// front of a face plane of a brush is kept whole ([`clip_outside_separated`]).
    fn face_outside(&self, i: usize, face: Polygon, near: &[(Aabb, u32)]) -> Vec<Polygon> {
        let face_bounds = polygon_bounds(std::slice::from_ref(&face));
        let bounds = face_bounds.loosened(BOX_GROWTH);
        let centre = face.vertex_mean();
        // A brush holding the face strictly inside its planes holds the face's vertices, so its
        // bounds (from its own vertices, whose rounding is far below BOX_GROWTH) grown by
        // BOX_GROWTH hold the face's bounds: a necessary test of six comparisons before the
        // planes, which most of the brushes near a face fail.
        let inside = |brush: &Brush| {
            brush.bounds().loosened(BOX_GROWTH).contains(&face_bounds)
                && brush.planes().all(|plane| {
                    face.vertices
                        .iter()
                        .all(|v| plane.signed_distance(*v) < -ONION_CUT)
                })
        };
        // Nearest first by the squared distance between centres, ties by index: one sort key
        // (the bits of a non-negative finite double order as the number does).
        let mut candidates: Vec<u128> = Vec::new();
        for &(brush_bounds, j) in near {
            if !brush_bounds.intersects(&bounds) {
                continue;
            }
            if inside(&self.brushes[j as usize].brush) {
                return Vec::new();
            }
            let d = brush_bounds.centre().distance_squared(centre);
            candidates.push((u128::from(d.to_bits()) << 32) | u128::from(j));
        }
        candidates.sort_unstable();
        self.cut(
            i,
            face,
            candidates.iter().map(|&key| key as u32),
            clip_outside_separated,
        )
    }

    /// [`Space::cut`] of face `face` of brush `i` by the brushes `others` (in a space of brushes
    /// alone).
    ///
    /// A face that more than [`CUT_DIRECT`] brushes may cut (a floor under thousands of
    /// pillars) is first split in two by an axial plane through it, each half cut by the
    /// brushes its bounds meet, recursively ([`Space::cut_halves`]): cutting one face by each of
    /// `n` brushes in turn touches every piece left by the brushes before, `O(n^2)` (the union
    /// of a 2,000-pillar world took 21 s and grew 8 times per doubling). The union is the same
    /// set (a difference of sets does not depend on the order of the cuts, nor on where the face
    /// is split first); the pieces are more, along the halving lines. Faces of fewer brushes,
    /// and spaces with facets (whose union takes [`Space::face_outside`] and its own order),
    /// keep the cut in turn, and their trees bit for bit.
    fn cut_halving(
        &self,
        i: usize,
        face: Polygon,
        others: &[u32],
        clip: fn(Polygon, &SpaceBrush, bool, &mut Vec<Polygon>) -> bool,
    ) -> Vec<Polygon> {
        if others.len() > CUT_DIRECT {
            let mut out = Vec::new();
            self.cut_halves(i, face, others, clip, 0, &mut out);
            return out;
        }
        self.cut(i, face, others.iter().copied(), clip)
    }

    /// [`Space::cut`] by halving: `face` split by an axial plane at the median of the brushes'
    /// middles along the axis its bounds are longest on, each half cut by the brushes its bounds
    /// meet, until at most [`CUT_DIRECT`] are left (or no plane parts them), which cut in turn.
    fn cut_halves(
        &self,
        i: usize,
        face: Polygon,
        others: &[u32],
        clip: fn(Polygon, &SpaceBrush, bool, &mut Vec<Polygon>) -> bool,
        depth: usize,
        out: &mut Vec<Polygon>,
    ) {
        let bounds = polygon_bounds(std::slice::from_ref(&face)).loosened(BOX_GROWTH);
        let near: Vec<u32> = others
            .iter()
            .copied()
            .filter(|&j| self.brushes[j as usize].brush.bounds().intersects(&bounds))
            .collect();
        let halve = near.len() > CUT_DIRECT && depth < MAX_HALVINGS;
        let size = bounds.size();
        let axis = (0..3)
            .max_by(|&a, &b| size[a].total_cmp(&size[b]))
            .expect("three axes");
        let at = halve.then(|| {
            let mut middles: Vec<f64> = near
                .iter()
                .map(|&j| self.brushes[j as usize].brush.bounds().centre()[axis])
                .collect();
            middles.sort_by(f64::total_cmp);
            middles[middles.len() / 2]
        });
        // A plane strictly inside the face's bounds, well clear of their ends.
        let margin = size[axis] / 64.0;
        match at {
            Some(at) if at > bounds.min[axis] + margin && at < bounds.max[axis] - margin => {
                let plane = Plane::new(DVec3::AXES[axis], at).expect("an axis is a unit normal");
                let (back, front) = face.split_with(&plane, ONION_CUT);
                for half in [back, front].into_iter().flatten() {
                    self.cut_halves(i, half, &near, clip, depth + 1, out);
                }
            }
            _ => out.extend(self.cut(i, face, near.into_iter(), clip)),
        }
    }

    /// The parts of face `face` of brush `i` outside the brushes `others`, cut by each in turn
    /// with `clip` (whose `keep_same` is `i < j`, so of two equal coplanar faces the first
    /// brush's is kept).
    fn cut(
        &self,
        i: usize,
        face: Polygon,
        others: impl Iterator<Item = u32>,
        clip: fn(Polygon, &SpaceBrush, bool, &mut Vec<Polygon>) -> bool,
    ) -> Vec<Polygon> {
        let mut pieces = vec![face];
        let mut next = Vec::new();
        let mut bounds = polygon_bounds(&pieces).loosened(BOX_GROWTH);
        for j in others {
            let other = &self.brushes[j as usize];
            if !other.brush.bounds().intersects(&bounds) {
                continue;
            }
            let mut whole = true;
            for piece in pieces.drain(..) {
                whole &= clip(piece, other, i < j as usize, &mut next);
            }
            std::mem::swap(&mut pieces, &mut next);
            if pieces.is_empty() {
                break;
            }
            // Pieces all kept whole have the same bounds.
            if !whole {
                bounds = polygon_bounds(&pieces).loosened(BOX_GROWTH);
            }
        }
        pieces
    }
}

/// The most brushes that cut a face in turn (see [`Space::cut_halving`]); more split it in
/// halves first. Sixty-four: below it the halving saves little, and the worlds of the tests keep
/// their trees (a cluttered floor of 60 boxes stays below it).
const CUT_DIRECT: usize = 64;

/// How many times a face is halved at most (2^24 pieces: far beyond any world in the domain).
const MAX_HALVINGS: usize = 24;

fn polygon_bounds(polygons: &[Polygon]) -> Aabb {
    Aabb::from_points(polygons.iter().flat_map(|p| p.vertices.iter().copied()))
}

/// Pushes the parts of `polygon` outside convex `brush` into `out`. A part lying on a face of
/// `brush` facing the same way is kept when `keep_same` (and the face is not further out), or
/// when the polygon's plane is further out than the face. True when `polygon` was pushed whole.
fn clip_outside(
    polygon: Polygon,
    brush: &SpaceBrush,
    keep_same: bool,
    out: &mut Vec<Polygon>,
) -> bool {
    clip_outside_known(polygon, &brush.brush, keep_same, out, &[])
}

/// [`clip_outside`] given `known[k]`, the side of `polygon` of the brush's plane `k` for the
/// first `known.len()` planes: used until the polygon is first split (the same answers, not
/// computed twice).
fn clip_outside_known(
    polygon: Polygon,
    brush: &Brush,
    keep_same: bool,
    out: &mut Vec<Polygon>,
    known: &[PolygonSide],
) -> bool {
    let mut rest = polygon;
    let mut whole = true;
    for (k, plane) in brush.planes().enumerate() {
        let side = match known.get(k) {
            Some(&side) if whole => side,
            _ => rest.side_of(&plane, ONION_CUT),
        };
        match side {
            PolygonSide::Front => {
                out.push(rest);
                return whole;
            }
            PolygonSide::Back => {}
            PolygonSide::Coplanar => {
                let same = rest.plane.normal().dot(plane.normal()) > 0.0;
                if same {
                    let (mine, theirs) = (rest.plane.dist(), plane.dist());
                    let keep = if mine > theirs + PLANE_MERGE {
                        true
                    } else if theirs > mine + PLANE_MERGE {
                        false
                    } else {
                        keep_same
                    };
                    if keep {
                        out.push(rest);
                        return whole;
                    }
                }
                // Facing each other (touching brushes), or an inner copy: the part inside is
                // dropped if it lies within the rest of the brush.
            }
            PolygonSide::Straddle => {
                whole = false;
                let (back, front) = rest.split_with(&plane, ONION_CUT);
                if let Some(front) = front {
                    out.push(front);
                }
                match back {
                    Some(back) => rest = back,
                    None => return false,
                }
            }
        }
    }
    false
}

/// Planes of a brush whose sides [`clip_outside_separated`] keeps for [`clip_outside_known`]
/// (an expanded facet has about 16; sides of further planes are computed again).
const KNOWN_SIDES: usize = 32;

/// [`clip_outside`] for faces of facets and faces clipped by facets: a piece lying wholly in
/// front of one of the brush's face planes is kept whole before any split (the plain rule splits
/// by the planes in order and only then finds the one the piece is in front of, leaving
/// fragments that are all outside). The union is the same set; the pieces are fewer. A patch's
/// facets overlap their neighbours' expansions by most of the agent's box, so without this the
/// fragments of the plain rule multiply with every neighbour.
fn clip_outside_separated(
    polygon: Polygon,
    brush: &SpaceBrush,
    keep_same: bool,
    out: &mut Vec<Polygon>,
) -> bool {
    // The polygon's side of an axial plane is read off its extreme coordinates: the distance to
    // an axial plane is the coordinate (exactly: the other products are zeros) less the plane's
    // distance, a monotone function of it.
    let bounds = polygon_bounds(std::slice::from_ref(&polygon));
    let axial_side = |axis: usize, positive: bool, dist: f64| {
        let (low, high) = if positive {
            (bounds.min[axis] - dist, bounds.max[axis] - dist)
        } else {
            (-bounds.max[axis] - dist, -bounds.min[axis] - dist)
        };
        match (high > ONION_CUT, low < -ONION_CUT) {
            (true, true) => PolygonSide::Straddle,
            (true, false) => PolygonSide::Front,
            (false, true) => PolygonSide::Back,
            (false, false) => PolygonSide::Coplanar,
        }
    };
    let mut known = [PolygonSide::Coplanar; KNOWN_SIDES];
    for (k, (plane, axis)) in brush.brush.planes().zip(&brush.axes).enumerate() {
        let side = match *axis {
            Some((axis, positive)) => axial_side(axis, positive, plane.dist()),
            None => polygon.side_of(&plane, ONION_CUT),
        };
        if side == PolygonSide::Front {
            out.push(polygon);
            return true;
        }
        if let Some(slot) = known.get_mut(k) {
            *slot = side;
        }
    }
    let count = brush.brush.face_count().min(KNOWN_SIDES);
    clip_outside_known(polygon, &brush.brush, keep_same, out, &known[..count])
}
