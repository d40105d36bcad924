//! Bevel planes for a solid cell (Melax Sections 5 and 8).
//!
//! Every bevel plane supports the cell (touches it with the whole cell behind), so inserting it
//! below the cell's leaf never changes the solid space; it only trims what the cell's shifted
//! planes let protrude when the cell is expanded by a shape.

use cspace_geom::tolerance::{BEVEL_ANGLE_SLACK, BEVEL_SAME_NORMAL};
use cspace_geom::{Brush, DVec3, Plane};

/// Which bevel planes go below each solid leaf.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BevelMode {
    /// No bevel: the plain tree (Melax's first experiments: "invisible walls", Section 5).
    None,
    /// Melax's rule: where two adjacent faces of the cell meet with normals more than
    /// `angle_degrees` apart (`n1 . n2 < cos(angle)`), a plane through their edge with normal
    /// along `n1 + n2`, repeated on the halves until every angle is below the threshold (Section
    /// 5: 90 degrees; MDK2 used 95, Section 8); the same at sharp vertices; and for a cell not
    /// topped by a nearly level face, a horizontal plane at its highest vertex (Section 8).
    Paper {
        /// The largest angle between adjacent normals left unbevelled, in degrees.
        angle_degrees: f64,
    },
    /// The complete set for boxes: the axial planes and the planes through each edge along the
    /// edge crossed with each axis ([`Brush::box_planes`]), so a shifted cell is its Minkowski sum
    /// with any axis-aligned box and box traces are exact.
    Exact,
}

impl BevelMode {
    /// The paper's default: 90 degrees (Section 5).
    pub const PAPER: BevelMode = BevelMode::Paper {
        angle_degrees: 90.0,
    };

    /// The mode as the command line spells it (`none`, `paper`, `paper:95`, `exact`).
    pub fn describe(&self) -> String {
        match self {
            BevelMode::None => "none".into(),
            BevelMode::Paper { angle_degrees } if *angle_degrees == 90.0 => "paper".into(),
            BevelMode::Paper { angle_degrees } => format!("paper:{angle_degrees}"),
            BevelMode::Exact => "exact".into(),
        }
    }
}

/// A bevel mode the command line could not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown bevel mode {0:?}: expected none, paper, paper:DEGREES (0 < DEGREES < 180) or exact"
)]
pub struct BevelModeError(pub String);

impl std::str::FromStr for BevelMode {
    type Err = BevelModeError;

    /// Reads what [`BevelMode::describe`] writes: `none`, `paper`, `paper:95`, `exact`.
    fn from_str(text: &str) -> Result<BevelMode, BevelModeError> {
        let error = || BevelModeError(text.to_string());
        match text {
            "none" => Ok(BevelMode::None),
            "paper" => Ok(BevelMode::PAPER),
            "exact" => Ok(BevelMode::Exact),
            _ => {
                let degrees = text.strip_prefix("paper:").ok_or_else(error)?;
                let angle_degrees: f64 = degrees.parse().map_err(|_| error())?;
                if angle_degrees > 0.0 && angle_degrees < 180.0 {
                    Ok(BevelMode::Paper { angle_degrees })
                } else {
                    Err(error())
                }
            }
        }
    }
}

/// A face is "nearly level" (a cell topped by it gets no horizontal bevel) when its normal's z is
/// at least this: within about 8 degrees of straight up (Section 8 does not give the figure).
pub const NEARLY_LEVEL_Z: f64 = 0.99;

/// The halving of one sharp edge stops after this many levels (an angle below 180 degrees is
/// under 1 degree after 8).
const MAX_HALVINGS: u32 = 8;

/// The bevel planes of the solid cell `cell` for `mode`, none duplicating a face plane.
pub fn bevel_planes(cell: &Brush, mode: BevelMode) -> Vec<Plane> {
    match mode {
        BevelMode::None => Vec::new(),
        BevelMode::Exact => cell.box_planes()[cell.face_count()..].to_vec(),
        BevelMode::Paper { angle_degrees } => paper_planes(cell, angle_degrees),
    }
}

fn paper_planes(cell: &Brush, angle_degrees: f64) -> Vec<Plane> {
    // cos(90 degrees) is 6e-17 in floating point: a right angle is not sharper than 90 degrees.
    let cos_limit = angle_degrees.to_radians().cos() - BEVEL_ANGLE_SLACK;
    let mut out = Vec::new();
    let faces = cell.faces();
    for edge in cell.edges() {
        let n1 = faces[edge.faces[0] as usize].plane.normal();
        let n2 = faces[edge.faces[1] as usize].plane.normal();
        let at = cell.vertices()[edge.vertices[0] as usize];
        halve(cell, n1, n2, at, cos_limit, MAX_HALVINGS, &mut out);
    }
    // Sharp vertices: the mean of the normals of the faces meeting there, when one of them is
    // further than the threshold from it.
    for (index, &vertex) in cell.vertices().iter().enumerate() {
        let normals: Vec<DVec3> = faces
            .iter()
            .filter(|f| f.vertices.contains(&(index as u32)))
            .map(|f| f.plane.normal())
            .collect();
        let Some(mean) = normals.iter().copied().sum::<DVec3>().try_normalize() else {
            continue;
        };
        if normals.iter().any(|n| n.dot(mean) < cos_limit) {
            push_unique(cell, &mut out, mean, vertex);
        }
    }
    // Section 8: a level top for cells not topped by a nearly level face.
    if !faces.iter().any(|f| f.plane.normal().z >= NEARLY_LEVEL_Z) {
        let top = cell.bounds().max;
        push_unique(cell, &mut out, DVec3::Z, top);
    }
    out
}

/// Bevels the edge between faces with normals `n1` and `n2` through `at`, and the two halves in
/// turn while they are still sharper than the limit.
fn halve(
    cell: &Brush,
    n1: DVec3,
    n2: DVec3,
    at: DVec3,
    cos_limit: f64,
    levels: u32,
    out: &mut Vec<Plane>,
) {
    if levels == 0 || n1.dot(n2) >= cos_limit {
        return;
    }
    let Some(mid) = (n1 + n2).try_normalize() else {
        // Opposite faces meeting along an edge: a cell of no thickness.
        return;
    };
    push_unique(cell, out, mid, at);
    halve(cell, n1, mid, at, cos_limit, levels - 1, out);
    halve(cell, mid, n2, at, cos_limit, levels - 1, out);
}

/// Appends the plane with unit normal `normal` supporting the cell (through its furthest vertex
/// along `normal`, which is `at` up to rounding) unless a face or an earlier bevel has that
/// normal.
fn push_unique(cell: &Brush, out: &mut Vec<Plane>, normal: DVec3, at: DVec3) {
    let same = |n: DVec3| n.abs_diff_eq(normal, BEVEL_SAME_NORMAL);
    if cell.planes().any(|p| same(p.normal())) || out.iter().any(|p| same(p.normal())) {
        return;
    }
    // The support keeps every vertex behind, whatever the rounding of `at`.
    let dist = cell.support(normal).max(normal.dot(at));
    out.push(Plane::new(normal, dist).expect("a unit normal and a finite distance"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use cspace_geom::Aabb;

    fn wedge(apex_angle_degrees: f64) -> Brush {
        // A wedge along y with its sharp edge on top at z = 10; the two slopes make the given
        // angle at the top edge.
        let half = (apex_angle_degrees / 2.0).to_radians();
        let left = DVec3::new(-half.cos(), 0.0, half.sin());
        let right = DVec3::new(half.cos(), 0.0, half.sin());
        let top = DVec3::new(0.0, 0.0, 10.0);
        Brush::from_planes(&[
            Plane::new(left, left.dot(top)).unwrap(),
            Plane::new(right, right.dot(top)).unwrap(),
            Plane::new(DVec3::NEG_Z, 0.0).unwrap(),
            Plane::new(DVec3::Y, 10.0).unwrap(),
            Plane::new(DVec3::NEG_Y, 10.0).unwrap(),
        ])
        .unwrap()
    }

    #[test]
    fn a_sharp_wedge_gets_a_ridge_bevel_that_supports_it() {
        let cell = wedge(30.0);
        let planes = bevel_planes(&cell, BevelMode::PAPER);
        // The ridge: the normals of the slopes are 150 degrees apart, so a bevel along +z.
        assert!(
            planes
                .iter()
                .any(|p| p.normal().abs_diff_eq(DVec3::Z, 1e-9) && (p.dist() - 10.0).abs() < 1e-9),
            "{planes:?}"
        );
        for p in &planes {
            assert!(
                cell.support(p.normal()) <= p.dist() + 1e-9,
                "{p:?} cuts the cell"
            );
        }
        // A cube has 90-degree edges only: nothing to bevel at 90 degrees but, being topped by a
        // level face, no top plane either.
        let cube = Brush::from_aabb(Aabb::new(DVec3::ZERO, DVec3::ONE)).unwrap();
        assert!(bevel_planes(&cube, BevelMode::PAPER).is_empty());
        // At 50 degrees every edge (90 degrees, halved to 45) and corner (54.7 degrees from the
        // mean normal) of the cube is bevelled.
        let planes = bevel_planes(
            &cube,
            BevelMode::Paper {
                angle_degrees: 50.0,
            },
        );
        assert_eq!(planes.len(), 12 + 8, "{planes:?}");
    }

    #[test]
    fn modes_read_back_what_they_write() {
        for mode in [
            BevelMode::None,
            BevelMode::PAPER,
            BevelMode::Paper {
                angle_degrees: 95.0,
            },
            BevelMode::Exact,
        ] {
            assert_eq!(mode.describe().parse::<BevelMode>(), Ok(mode));
        }
        assert!("paper:180".parse::<BevelMode>().is_err());
        assert!("bevelled".parse::<BevelMode>().is_err());
    }

    #[test]
    fn exact_bevels_are_the_box_planes() {
        let cell = wedge(60.0);
        let planes = bevel_planes(&cell, BevelMode::Exact);
        assert_eq!(planes.len() + cell.face_count(), cell.box_planes().len());
        assert!(bevel_planes(&cell, BevelMode::None).is_empty());
    }
}
