//! Whether the solids touching a point cover every direction around it: the point query of a
//! shape without width across some plane, exactly.
//!
//! A shape is in solid where it overlaps the union of the brushes by more than [`CONTACT`]. A
//! configuration point deeper than that inside one solid is inside; one within [`CONTACT`] of the
//! boundaries of several (a point on the seam of two touching brushes, on the common edge of four
//! floor tiles, in the corner of a floor and a wall) is inside exactly when those solids together
//! cover a small ball around it. Near the point each solid is the cone of its planes through it
//! (its *active* planes), so the question is one of cones: the planes through the point cut the
//! space around it into faces (open cells, and the facets, edges and the point itself between
//! them: the faces of a central arrangement), and every face must lie in some solid. A face lies
//! in a solid when it is behind each of the solid's active planes, or in one that is *closed*:
//! a plane along which the shape has no width, where two touching solids are one (their seam is
//! inside the union). A plane along which the shape has width is open: a shape that fits a gap
//! between two solids with no room to spare touches both and overlaps neither.
//!
//! The faces are enumerated by sign vectors over the distinct planes (each normal up to its sign),
//! extended one plane at a time and kept while some direction realises them: the directions
//! orthogonal to the planes a face lies in, strictly in front of or behind the others. Such a
//! direction exists exactly when the minimum-norm point of the (projected, unit) constraint
//! normals' convex hull is not the origin, and that point lies on a face of the hull spanned by at
//! most three of them (Carathéodory): each such face's nearest point to the origin is a
//! candidate, tested against every constraint.

use glam::DVec3;

use crate::tolerance::NORMAL_EQUAL;

/// A plane of a solid's boundary through the point: its outward normal (unit), and whether two
/// solids touching across it are one ([`covers_point`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ActivePlane {
    /// The outward unit normal.
    pub normal: DVec3,
    /// True across a plane along which the shape has no width.
    pub closed: bool,
}

/// The most distinct planes through one point the test enumerates (a central arrangement of `k`
/// planes has `O(k^2)` faces); beyond it the answer is the solids' own (a point is inside only
/// if some solid has no active plane: deeper than [`CONTACT`] inside it). Sixteen planes through
/// one point is far beyond any map's (a corner of many brushes' bevels).
///
/// [`CONTACT`]: crate::tolerance::CONTACT
pub const MAX_PLANES: usize = 16;

/// True when the solids, each given by its active planes at a point, together cover every
/// direction around it: every face of the arrangement of their planes lies in one of them (a
/// face lies in a solid when it is behind each of the solid's active planes, or in one that is
/// closed). A solid without active planes contains a ball around the point. How and why: the
/// `cover` module's docs (`crates/geom/src/exact/cover.rs`).
pub fn covers_point<'a>(solids: impl IntoIterator<Item = &'a [ActivePlane]> + Clone) -> bool {
    // The distinct planes (normals up to their sign), and each solid's planes as (line, sign,
    // closed).
    let mut lines: Vec<DVec3> = Vec::new();
    let mut cones: Vec<Vec<(usize, f64, bool)>> = Vec::new();
    for planes in solids {
        if planes.is_empty() {
            return true;
        }
        let mut cone = Vec::with_capacity(planes.len());
        for p in planes {
            let same = |l: &DVec3| {
                if (*l - p.normal).abs().max_element() <= NORMAL_EQUAL {
                    Some(1.0)
                } else if (*l + p.normal).abs().max_element() <= NORMAL_EQUAL {
                    Some(-1.0)
                } else {
                    None
                }
            };
            let (line, sign) = match lines
                .iter()
                .enumerate()
                .find_map(|(i, l)| Some((i, same(l)?)))
            {
                Some(found) => found,
                None => {
                    lines.push(p.normal);
                    (lines.len() - 1, 1.0)
                }
            };
            cone.push((line, sign, p.closed));
        }
        cones.push(cone);
    }
    if cones.is_empty() || lines.len() > MAX_PLANES {
        return false;
    }
    // Every face of the arrangement, as a sign per line: the directions in front of it (+1),
    // behind it (-1), or in it (0).
    let mut faces: Vec<Vec<i8>> = vec![Vec::new()];
    for m in 0..lines.len() {
        let mut next = Vec::with_capacity(faces.len() * 3);
        for face in &faces {
            for s in [-1i8, 0, 1] {
                let mut extended = face.clone();
                extended.push(s);
                if realisable(&lines[..=m], &extended) {
                    next.push(extended);
                }
            }
        }
        faces = next;
    }
    faces.iter().all(|face| {
        cones.iter().any(|cone| {
            cone.iter().all(|&(line, sign, closed)| {
                let side = f64::from(face[line]) * sign;
                side < 0.0 || (side == 0.0 && closed)
            })
        })
    })
}

/// True when some direction lies in the planes of `lines` whose sign is 0 and strictly on the
/// signed side of the others.
fn realisable(lines: &[DVec3], signs: &[i8]) -> bool {
    let within = lines
        .iter()
        .zip(signs)
        .filter(|(_, s)| **s == 0)
        .map(|(l, _)| *l);
    let strict = lines
        .iter()
        .zip(signs)
        .filter(|(_, s)| **s != 0)
        .map(|(l, s)| *l * f64::from(*s));
    exists(strict, within)
}

/// True when some direction `w` lies in every plane through the origin with a normal of
/// `within` (`n . w = 0`) and strictly in front of every one of `strict` (`n . w > 0`, by more
/// than [`NORMAL_EQUAL`] as a sine): whether a face of an arrangement of planes through a point
/// exists (see [`covers_point`]).
///
/// A tree walk that takes both sides of every plane a segment or a point lies on meets every
/// combination of sides of those planes down its path, and some name no place around it (in
/// front of a wall's face, beyond a diagonal face through the same edge, and behind a third plane
/// there); such a combination must not make the segment or the point free. For a segment along
/// `axis`, the directions across it: `within = [axis]`.
pub fn direction_exists(strict: &[DVec3], within: &[DVec3]) -> bool {
    exists(strict.iter().copied(), within.iter().copied())
}

fn exists(strict: impl Iterator<Item = DVec3>, within: impl Iterator<Item = DVec3>) -> bool {
    // An orthonormal basis of the normals of the planes the direction lies in.
    let mut basis: Vec<DVec3> = Vec::with_capacity(3);
    for l in within {
        let rest = basis.iter().fold(l, |v, q| v - *q * q.dot(v));
        if let Some(q) = rest.try_normalize()
            && rest.length() > NORMAL_EQUAL * l.length()
        {
            basis.push(q);
        }
    }
    // The strict constraints, projected onto the directions left.
    let mut constraints: Vec<DVec3> = Vec::new();
    for c in strict {
        let c = c.normalize_or_zero();
        let projected = basis.iter().fold(c, |v, q| v - *q * q.dot(v));
        if projected.length() <= NORMAL_EQUAL {
            // The direction would lie in this plane too.
            return false;
        }
        constraints.push(projected.normalize());
    }
    if constraints.is_empty() {
        return true;
    }
    let strictly_inside = |w: DVec3| {
        w.try_normalize()
            .is_some_and(|w| constraints.iter().all(|c| c.dot(w) > NORMAL_EQUAL))
    };
    let n = constraints.len();
    for i in 0..n {
        let a = constraints[i];
        if strictly_inside(a) {
            return true;
        }
        for j in i + 1..n {
            let b = constraints[j];
            if let Some(w) = nearest_on_segment(a, b)
                && strictly_inside(w)
            {
                return true;
            }
            for &c in &constraints[j + 1..] {
                if let Some(w) = nearest_on_triangle(a, b, c)
                    && strictly_inside(w)
                {
                    return true;
                }
            }
        }
    }
    false
}

/// The point of segment `ab` nearest the origin, when it lies strictly between its ends.
fn nearest_on_segment(a: DVec3, b: DVec3) -> Option<DVec3> {
    let e = b - a;
    let t = -a.dot(e) / e.length_squared();
    (t > 0.0 && t < 1.0).then(|| a + e * t)
}

/// The point of triangle `abc` nearest the origin, when it lies inside the triangle (not on its
/// boundary, which the segments give).
fn nearest_on_triangle(a: DVec3, b: DVec3, c: DVec3) -> Option<DVec3> {
    let (e1, e2) = (b - a, c - a);
    let (p, q, r) = (e1.dot(e1), e1.dot(e2), e2.dot(e2));
    let det = p * r - q * q;
    if det <= 0.0 {
        return None;
    }
    let (u, v) = (-a.dot(e1), -a.dot(e2));
    let s = (u * r - v * q) / det;
    let t = (v * p - u * q) / det;
    (s > 0.0 && t > 0.0 && s + t < 1.0).then(|| a + e1 * s + e2 * t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn closed(normals: &[DVec3]) -> Vec<ActivePlane> {
        normals
            .iter()
            .map(|&normal| ActivePlane {
                normal,
                closed: true,
            })
            .collect()
    }

    #[test]
    fn seams_corners_and_gaps() {
        let (x, y, z) = (DVec3::X, DVec3::Y, DVec3::Z);
        // Two floor tiles meeting at x = 0, the point on their common top edge: free.
        let a = closed(&[x, z]);
        let b = closed(&[-x, z]);
        assert!(!covers_point([&a[..], &b[..]]));
        // Below the top, on the seam: inside.
        let a = closed(&[x]);
        let b = closed(&[-x]);
        assert!(covers_point([&a[..], &b[..]]));
        // One tile alone: a face, touched.
        assert!(!covers_point([&a[..]]));
        // Four tiles meeting at an edge: inside; three of them: not.
        let q = [
            closed(&[x, y]),
            closed(&[-x, y]),
            closed(&[x, -y]),
            closed(&[-x, -y]),
        ];
        assert!(covers_point(q.iter().map(Vec::as_slice)));
        assert!(!covers_point(q[..3].iter().map(Vec::as_slice)));
        // A floor and a wall meeting at a concave edge: free (the corner above the floor and
        // beside the wall is empty).
        let floor = closed(&[z]);
        let wall = closed(&[-x]);
        assert!(!covers_point([&floor[..], &wall[..]]));
        // A gap a shape fits exactly (open across the plane): free; the same plane closed: in.
        let open = |n: DVec3| {
            vec![ActivePlane {
                normal: n,
                closed: false,
            }]
        };
        assert!(!covers_point([&open(x)[..], &open(-x)[..]]));
        // A wedge beyond a diagonal face through the same edge adds no uncovered place: the
        // three planes through one line leave six cells, all covered.
        let d = DVec3::new(-1.0, -1.0, 0.0).normalize();
        let wedge = closed(&[x, d]);
        let rest = [closed(&[-x, y]), closed(&[-x, -y]), closed(&[x, -d])];
        assert!(covers_point(
            std::iter::once(&wedge[..]).chain(rest.iter().map(Vec::as_slice))
        ));
        // A solid the point is deep inside.
        assert!(covers_point([&[][..]]));
    }
}
