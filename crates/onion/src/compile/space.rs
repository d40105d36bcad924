//! Configuration spaces: the world's brushes expanded by one pose's box, and the CSG union of
//! their faces (the parts of faces inside another brush of the same space are dropped).

use cspace_geom::aabb_tree::AabbTree;
use cspace_geom::expand::box_expanded_planes;
use cspace_geom::polygon::PolygonSide;
use cspace_geom::shape::BoxShape;
use cspace_geom::tolerance::{CONTACT, ONION_CUT, PLANE_MERGE};
use cspace_geom::{Aabb, Brush, BrushError, Plane, Polygon, World};
use glam::DVec3;

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
    /// The world's brushes expanded by `pose` (geom's exact box expansion).
    pub fn new(world: &World, pose: &Pose, space: usize) -> Result<Space, CompileError> {
        let shape = BoxShape {
            mins: pose.mins,
            maxs: pose.maxs,
        };
        let mut brushes = Vec::with_capacity(world.len());
        for (i, wb) in world.brushes().iter().enumerate() {
            let planes = box_expanded_planes(&wb.brush, &shape);
            let brush = match Brush::from_planes(&planes) {
                Ok(brush) => brush,
                // A facet (a flat brush) expanded by a box of no extent along its normal (the
                // point pose) is a slab of zero thickness, or thinner than the brush builder's
                // plane thickness (2e-6 units): no point is deeper than CONTACT inside it, so the
                // facet is never solid in this space and leaves no face (rays pass facets).
                Err(BrushError::Empty) if wb.brush.is_flat() => continue,
                Err(error) => {
                    return Err(CompileError::Expansion {
                        brush: i,
                        pose: pose.name.clone(),
                        space,
                        error,
                    });
                }
            };
            brushes.push(SpaceBrush {
                planes,
                brush,
                facet: wb.brush.is_flat(),
            });
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
    pub fn union_faces(&self) -> Vec<Polygon> {
        let mut out = Vec::new();
        let mut near: Vec<u32> = Vec::new();
        for (i, sb) in self.brushes.iter().enumerate() {
            near.clear();
            self.index
                .for_each_overlapping(&sb.brush.bounds().loosened(BOX_GROWTH), |j| {
                    if j as usize != i {
                        near.push(j)
                    }
                });
            near.sort_unstable();
            for f in 0..sb.brush.face_count() {
                let face = sb.brush.face_polygon(f);
                if self.facets {
                    out.extend(self.face_outside(i, face, &near));
                    continue;
                }
                out.extend(self.cut(i, face, near.iter().copied(), clip_outside));
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
    fn face_outside(&self, i: usize, face: Polygon, near: &[u32]) -> Vec<Polygon> {
        let bounds = polygon_bounds(std::slice::from_ref(&face)).loosened(BOX_GROWTH);
        let centre = face.vertex_mean();
        let mut candidates: Vec<(f64, u32)> = near
            .iter()
            .filter(|&&j| self.brushes[j as usize].brush.bounds().intersects(&bounds))
            .map(|&j| {
                let d = self.brushes[j as usize]
                    .brush
                    .bounds()
                    .centre()
                    .distance_squared(centre);
                (d, j)
            })
            .collect();
        let inside = |brush: &Brush| {
            brush.planes().all(|plane| {
                face.vertices
                    .iter()
                    .all(|v| plane.signed_distance(*v) < -ONION_CUT)
            })
        };
        if candidates
            .iter()
            .any(|&(_, j)| inside(&self.brushes[j as usize].brush))
        {
            return Vec::new();
        }
        candidates.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        self.cut(
            i,
            face,
            candidates.iter().map(|&(_, j)| j),
            clip_outside_separated,
        )
    }

    /// The parts of face `face` of brush `i` outside the brushes `others`, cut by each in turn
    /// with `clip` (whose `keep_same` is `i < j`, so of two equal coplanar faces the first
    /// brush's is kept).
    fn cut(
        &self,
        i: usize,
        face: Polygon,
        others: impl Iterator<Item = u32>,
        clip: fn(Polygon, &Brush, bool, &mut Vec<Polygon>),
    ) -> Vec<Polygon> {
        let mut pieces = vec![face];
        for j in others {
            let other = &self.brushes[j as usize].brush;
            if !other
                .bounds()
                .intersects(&polygon_bounds(&pieces).loosened(BOX_GROWTH))
            {
                continue;
            }
            let mut next = Vec::with_capacity(pieces.len());
            for piece in pieces {
                clip(piece, other, i < j as usize, &mut next);
            }
            pieces = next;
            if pieces.is_empty() {
                break;
            }
        }
        pieces
    }
}

fn polygon_bounds(polygons: &[Polygon]) -> Aabb {
    Aabb::from_points(polygons.iter().flat_map(|p| p.vertices.iter().copied()))
}

/// Pushes the parts of `polygon` outside convex `brush` into `out`. A part lying on a face of
/// `brush` facing the same way is kept when `keep_same` (and the face is not further out), or
/// when the polygon's plane is further out than the face.
fn clip_outside(polygon: Polygon, brush: &Brush, keep_same: bool, out: &mut Vec<Polygon>) {
    let mut rest = polygon;
    for plane in brush.planes() {
        match rest.side_of(&plane, ONION_CUT) {
            PolygonSide::Front => {
                out.push(rest);
                return;
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
                        return;
                    }
                }
                // Facing each other (touching brushes), or an inner copy: the part inside is
                // dropped if it lies within the rest of the brush.
            }
            PolygonSide::Straddle => {
                let (back, front) = rest.split_with(&plane, ONION_CUT);
                if let Some(front) = front {
                    out.push(front);
                }
                match back {
                    Some(back) => rest = back,
                    None => return,
                }
            }
        }
    }
}

/// [`clip_outside`] for faces of facets and faces clipped by facets: a piece lying wholly in
/// front of one of the brush's face planes is kept whole before any split (the plain rule splits
/// by the planes in order and only then finds the one the piece is in front of, leaving
/// fragments that are all outside). The union is the same set; the pieces are fewer. A patch's
/// facets overlap their neighbours' expansions by most of the agent's box, so without this the
/// fragments of the plain rule multiply with every neighbour.
fn clip_outside_separated(
    polygon: Polygon,
    brush: &Brush,
    keep_same: bool,
    out: &mut Vec<Polygon>,
) {
    if brush
        .planes()
        .any(|plane| polygon.side_of(&plane, ONION_CUT) == PolygonSide::Front)
    {
        out.push(polygon);
        return;
    }
    clip_outside(polygon, brush, keep_same, out);
}
