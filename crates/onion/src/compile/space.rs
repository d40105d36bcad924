//! Configuration spaces: the world's brushes expanded by one pose's box, and the CSG union of
//! their faces (the parts of faces inside another brush of the same space are dropped).

use cspace_geom::aabb_tree::AabbTree;
use cspace_geom::expand::box_expanded_planes;
use cspace_geom::polygon::PolygonSide;
use cspace_geom::shape::BoxShape;
use cspace_geom::tolerance::{CONTACT, ONION_CUT, PLANE_MERGE};
use cspace_geom::{Aabb, Brush, Plane, Polygon, World};
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
}

/// One configuration space: the world expanded by one pose.
#[derive(Debug, Clone)]
pub(crate) struct Space {
    pub brushes: Vec<SpaceBrush>,
    pub index: AabbTree,
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
            let brush = Brush::from_planes(&planes).map_err(|error| CompileError::Expansion {
                brush: i,
                pose: pose.name.clone(),
                space,
                error,
            })?;
            brushes.push(SpaceBrush { planes, brush });
        }
        let boxes: Vec<Aabb> = brushes.iter().map(|b| b.brush.bounds()).collect();
        Ok(Space {
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
                let mut pieces = vec![sb.brush.face_polygon(f)];
                for &j in &near {
                    let other = &self.brushes[j as usize].brush;
                    if !other
                        .bounds()
                        .intersects(&polygon_bounds(&pieces).loosened(BOX_GROWTH))
                    {
                        continue;
                    }
                    let mut next = Vec::with_capacity(pieces.len());
                    for piece in pieces {
                        clip_outside(piece, other, i < j as usize, &mut next);
                    }
                    pieces = next;
                    if pieces.is_empty() {
                        break;
                    }
                }
                out.extend(pieces);
            }
        }
        out
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
