//! Spans of rounded shapes: spheres and vertical cylinders, exactly.
//!
//! The set of agent positions overlapping brush `B` is `K = B + S` (shapes are symmetric here).
//! Its boundary is covered by *patches*, each a subset of `K`:
//! - sphere of radius `r`: each face moved out by `r` (over its polygon), a cylinder of radius `r`
//!   around each edge (over the edge's length), a sphere of radius `r` at each vertex;
//! - vertical cylinder of radius `r` and half-height `h`: first the prism `P = B + [-h, h] z`
//!   (a polyhedron: the faces moved by `h |n_z|`, horizontal caps and vertical bevels through the
//!   edges), then `K = P + D` with `D` the horizontal disc of radius `r`. Patches: each non-
//!   horizontal face of `P` moved out by `r |n_xy|` along `n_xy` (Melax's cylinder offset), each
//!   horizontal face grown by `r` in its plane, each non-horizontal edge swept by the rim of `D`
//!   (a sheared cylinder with horizontal circular sections), and each horizontal edge and vertex
//!   grown by `D` in its horizontal plane (the flat places where a cylinder rests on a ridge or a
//!   peak).
//!
//! Since every patch lies in `K` and the boundary of `K` lies in the patches, the line meets `K`
//! (a convex set) over `[min t, max t]` of the parameters at which it meets any patch.
//! "Deeper than CONTACT" is the same set for `r - CONTACT` (and `h - CONTACT`), which lies in `K`
//! eroded by CONTACT.

use glam::{DVec2, DVec3};

use super::Span;
use crate::brush::Brush;
use crate::plane::Plane;
use crate::polygon::closest_on_segment;
use crate::tolerance::{CONTACT, PLANE_THICKNESS};
use crate::tolerance::{PARALLEL, PATCH_SLACK, PATCH_SLACK_LIMIT};
use crate::world::BrushId;

/// The line meets `K` over `[enter, leave]`; the normal of `K` where it enters.
#[derive(Debug, Clone, Copy)]
struct Crossing {
    enter: f64,
    enter_normal: DVec3,
    leave: f64,
}

impl Crossing {
    fn new() -> Crossing {
        Crossing {
            enter: f64::INFINITY,
            enter_normal: DVec3::ZERO,
            leave: f64::NEG_INFINITY,
        }
    }

    fn add(&mut self, t: f64, normal: DVec3) {
        if t < self.enter {
            self.enter = t;
            self.enter_normal = normal;
        }
        self.leave = self.leave.max(t);
    }

    fn finish(self) -> Option<Crossing> {
        (self.enter <= self.leave).then_some(self)
    }
}

/// Builds the span from the line's crossings of the eroded set (strict), the set itself (touch)
/// and the dilated set (loose).
fn span_from(
    strict: Option<Crossing>,
    touch: Option<Crossing>,
    loose: Option<Crossing>,
    start: DVec3,
    end: DVec3,
) -> Option<Span> {
    let strict = strict?;
    if strict.enter >= strict.leave {
        return None;
    }
    let touch = touch.unwrap_or(strict);
    let loose = loose.unwrap_or(touch);
    let at = start + (end - start) * touch.enter;
    let normal = touch.enter_normal.normalize();
    Some(Span {
        enter: strict.enter,
        leave: strict.leave,
        leave_loose: loose.leave,
        entry: Some((Plane::from_unit(normal, normal.dot(at)), touch.enter)),
    })
}

/// The span of a sphere of `radius` against `brush`.
pub(crate) fn span_sphere(brush: &Brush, radius: f64, start: DVec3, end: DVec3) -> Option<Span> {
    let d = end - start;
    span_from(
        sphere_crossing(brush, radius - CONTACT, start, d),
        sphere_crossing(brush, radius, start, d),
        sphere_crossing(brush, radius + CONTACT, start, d),
        start,
        end,
    )
}

/// Roots of `a t^2 + b t + c = 0`, in increasing order (none when `a` is 0 or no real root).
fn quadratic(a: f64, b: f64, c: f64) -> Option<(f64, f64)> {
    if a <= 0.0 {
        return None;
    }
    let disc = b * b - 4.0 * a * c;
    if disc < 0.0 {
        return None;
    }
    let q = -0.5 * (b + b.signum() * disc.sqrt());
    if q == 0.0 {
        return Some((0.0, 0.0));
    }
    let (r1, r2) = (q / a, c / q);
    Some((r1.min(r2), r1.max(r2)))
}

fn sphere_crossing(brush: &Brush, rho: f64, s: DVec3, d: DVec3) -> Option<Crossing> {
    let mut crossing = Crossing::new();
    let slack = patch_slack(rho, d);
    // Faces moved out by rho.
    for (i, face) in brush.faces().iter().enumerate() {
        let n = face.plane.normal();
        let nd = n.dot(d);
        if nd == 0.0 {
            continue;
        }
        let t = (face.plane.dist() + rho - n.dot(s)) / nd;
        let q = s + d * t - n * rho;
        if inside_face(brush, i, q, slack) {
            crossing.add(t, n);
        }
    }
    // Cylinders around edges.
    for edge in brush.edges() {
        let a = brush.vertices()[edge.vertices[0] as usize];
        let b = brush.vertices()[edge.vertices[1] as usize];
        let axis = b - a;
        let length = axis.length();
        let u = axis / length;
        let w0 = s - a;
        let w0p = w0 - u * w0.dot(u);
        let dp = d - u * d.dot(u);
        let Some((t1, t2)) = quadratic(dp.dot(dp), 2.0 * w0p.dot(dp), w0p.dot(w0p) - rho * rho)
        else {
            continue;
        };
        for t in [t1, t2] {
            let along = (w0 + d * t).dot(u);
            if (-slack..=length + slack).contains(&along) {
                crossing.add(t, w0p + dp * t);
            }
        }
    }
    // Spheres at vertices.
    for &v in brush.vertices() {
        let w = s - v;
        if let Some((t1, t2)) = quadratic(d.dot(d), 2.0 * w.dot(d), w.dot(w) - rho * rho) {
            crossing.add(t1, w + d * t1);
            crossing.add(t2, w + d * t2);
        }
    }
    crossing.finish()
}

/// True when `q` (on the plane of face `index`) lies within the face polygon, with `slack`.
fn inside_face(brush: &Brush, index: usize, q: DVec3, slack: f64) -> bool {
    let face = &brush.faces()[index];
    let n = face.plane.normal();
    let loop_ = &face.vertices;
    let count = loop_.len();
    (0..count).all(|i| {
        let a = brush.vertices()[loop_[i] as usize];
        let b = brush.vertices()[loop_[(i + 1) % count] as usize];
        let outward = (b - a).cross(n);
        outward.dot(q - a) <= slack * outward.length()
    })
}

/// The 2D (xy) distance from `p` to the polygon of face `index` (0 inside).
fn xy_distance_to_face(brush: &Brush, index: usize, p: DVec2) -> f64 {
    let face = &brush.faces()[index];
    let pts: Vec<DVec2> = face
        .vertices
        .iter()
        .map(|&v| brush.vertices()[v as usize].truncate())
        .collect();
    let count = pts.len();
    // The polygon's orientation in xy follows the sign of its normal's z.
    let sign = face.plane.normal().z.signum();
    let inside = (0..count).all(|i| {
        let (a, b) = (pts[i], pts[(i + 1) % count]);
        sign * (b - a).perp_dot(p - a) >= 0.0
    });
    if inside {
        return 0.0;
    }
    (0..count)
        .map(|i| xy_distance_to_segment(pts[i], pts[(i + 1) % count], p))
        .fold(f64::INFINITY, f64::min)
}

fn xy_distance_to_segment(a: DVec2, b: DVec2, p: DVec2) -> f64 {
    let q = closest_on_segment(a.extend(0.0), b.extend(0.0), p.extend(0.0));
    q.truncate().distance(p)
}

/// The span of a vertical cylinder against a brush, given the brush's prisms
/// `B + [-h, h] z` for `h - CONTACT`, `h` and `h + CONTACT`.
pub(crate) fn span_cylinder(
    prisms: &[Brush; 3],
    radius: f64,
    start: DVec3,
    end: DVec3,
) -> Option<Span> {
    let d = end - start;
    span_from(
        cylinder_crossing(&prisms[0], radius - CONTACT, start, d),
        cylinder_crossing(&prisms[1], radius, start, d),
        cylinder_crossing(&prisms[2], radius + CONTACT, start, d),
        start,
        end,
    )
}

/// How far outside a patch a crossing is accepted: [`PATCH_SLACK`] of the figures the crossing
/// point is computed from, at most [`PATCH_SLACK_LIMIT`].
fn patch_slack(rho: f64, d: DVec3) -> f64 {
    (PATCH_SLACK * (rho.max(1.0) + d.length())).min(PATCH_SLACK_LIMIT)
}

fn cylinder_crossing(prism: &Brush, rho: f64, s: DVec3, d: DVec3) -> Option<Crossing> {
    let mut crossing = Crossing::new();
    let slack = patch_slack(rho, d);
    // `K = P + D` spans exactly the prism's heights (the disc is flat): the side patches take no
    // slack beyond them. Their slack (relative, of the move's length) would otherwise let a
    // line just above the top cap, where no flat patch meets a level line, cross a side face:
    // a cylinder resting on a floor, or sliding a hair above it, was found in solid (issue 35,
    // item 4).
    let (zmin, zmax) = (prism.bounds().min.z, prism.bounds().max.z);
    // Flat patches (horizontal faces, horizontal edges, vertices grown by the disc) are met where
    // the line crosses their height; their outward normal faces the incoming line.
    let flat_normal = DVec3::new(0.0, 0.0, -d.z.signum());
    let flat_t = |z: f64| (d.z != 0.0).then(|| (z - s.z) / d.z);
    for (i, face) in prism.faces().iter().enumerate() {
        let n = face.plane.normal();
        let horizontal = n.truncate().length();
        if horizontal > PARALLEL {
            let nd = n.dot(d);
            if nd == 0.0 {
                continue;
            }
            let t = (face.plane.dist() + rho * horizontal - n.dot(s)) / nd;
            let rim = (n.truncate() / horizontal * rho).extend(0.0);
            let q = s + d * t - rim;
            if (zmin..=zmax).contains(&q.z) && inside_face(prism, i, q, slack) {
                crossing.add(t, n);
            }
        } else if let Some(t) = flat_t(face.plane.dist() * n.z) {
            let q = s + d * t;
            if xy_distance_to_face(prism, i, q.truncate()) <= rho + slack {
                crossing.add(t, flat_normal);
            }
        }
    }
    for edge in prism.edges() {
        let a = prism.vertices()[edge.vertices[0] as usize];
        let b = prism.vertices()[edge.vertices[1] as usize];
        let delta = b - a;
        if delta.z.abs() > PARALLEL * delta.length() {
            // Sheared cylinder: |x_xy - c(x_z)| = rho with c(z) = a_xy + (z - a_z) / dz * dxy.
            let slope = delta.truncate() / delta.z;
            let w0 = (s.truncate() - a.truncate()) - slope * (s.z - a.z);
            let w1 = d.truncate() - slope * d.z;
            let Some((t1, t2)) = quadratic(w1.dot(w1), 2.0 * w0.dot(w1), w0.dot(w0) - rho * rho)
            else {
                continue;
            };
            let (zlo, zhi) = (
                (a.z.min(b.z) - slack).max(zmin),
                (a.z.max(b.z) + slack).min(zmax),
            );
            for t in [t1, t2] {
                let z = s.z + d.z * t;
                if (zlo..=zhi).contains(&z) {
                    let w = w0 + w1 * t;
                    crossing.add(t, DVec3::new(w.x, w.y, -w.dot(slope)));
                }
            }
        } else if let Some(t) = flat_t(a.z) {
            let q = (s + d * t).truncate();
            if xy_distance_to_segment(a.truncate(), b.truncate(), q) <= rho + slack {
                crossing.add(t, flat_normal);
            }
        }
    }
    for &v in prism.vertices() {
        if let Some(t) = flat_t(v.z)
            && (s + d * t).truncate().distance(v.truncate()) <= rho + slack
        {
            crossing.add(t, flat_normal);
        }
    }
    crossing.finish()
}

/// The prism `B + [-h, h] z` of a brush: faces moved by `h |n_z|`, horizontal caps, and the
/// vertical planes through each edge with the brush behind. Exact (the Minkowski sum with a
/// segment has no other face normals). A flat brush (a facet) takes
/// [`Brush::flat_prism`](crate::Brush).
pub(crate) fn prism(brush: &Brush, half_height: f64) -> Brush {
    if brush.is_flat() {
        // A facet: the same prism, built from its boundary (it may be a thin slab, or flat).
        return brush.flat_prism(half_height);
    }
    let mut planes: Vec<Plane> = brush
        .planes()
        .map(|p| p.shifted(half_height * p.normal().z.abs()))
        .collect();
    let bounds = brush.bounds();
    planes.push(Plane::from_unit(DVec3::Z, bounds.max.z + half_height));
    planes.push(Plane::from_unit(
        DVec3::NEG_Z,
        -(bounds.min.z - half_height),
    ));
    for edge in brush.edges() {
        let a = brush.vertices()[edge.vertices[0] as usize];
        let b = brush.vertices()[edge.vertices[1] as usize];
        let Some(n) = (b - a).cross(DVec3::Z).try_normalize() else {
            continue;
        };
        if (b - a).truncate().length() <= PARALLEL * (b - a).length() {
            continue;
        }
        for n in [n, -n] {
            if brush.support(n) <= n.dot(a) + PLANE_THICKNESS {
                planes.push(Plane::from_unit(n, n.dot(a)));
            }
        }
    }
    // Inside the numeric domain (a brush within MAX_COORDINATE, a half-height within
    // MAX_SHAPE_EXTENT) the prism lies within WORLD_HALF_EXTENT, so it is a valid brush.
    Brush::from_planes(&planes).expect("the prism of a brush inside the numeric domain is a brush")
}

/// The prisms of one brush for `h - CONTACT`, `h` and `h + CONTACT`.
type Prisms = Box<[Brush; 3]>;

/// Prisms per brush for the cylinder half-heights in use, per collider: one context may serve
/// several exact colliders of different worlds (the static world and each mover's model, issue
/// 32), whose brush ids mean different brushes, so an entry belongs to its collider's key.
#[derive(Debug, Clone, Default)]
pub(crate) struct Cache {
    /// (collider key, half-height bits, prisms per brush id, built on first use).
    entries: Vec<(u64, u64, Vec<Option<Prisms>>)>,
    /// The entry found last: a trace asks for one collider and height many times in a row.
    last: usize,
}

impl Cache {
    /// Entries kept before the cache starts over (colliders times half-heights in use).
    const MAX_ENTRIES: usize = 64;

    /// The prisms of brush `id` of the collider keyed `owner` for `half_height` (`h - CONTACT`,
    /// `h`, `h + CONTACT`).
    pub(crate) fn prism(
        &mut self,
        owner: u64,
        id: BrushId,
        brush: &Brush,
        half_height: f64,
    ) -> &[Brush; 3] {
        let key = half_height.to_bits();
        let found = |e: &(u64, u64, Vec<Option<Prisms>>)| e.0 == owner && e.1 == key;
        let slot = if self.entries.get(self.last).is_some_and(found) {
            self.last
        } else {
            match self.entries.iter().position(found) {
                Some(i) => i,
                None => {
                    if self.entries.len() == Self::MAX_ENTRIES {
                        self.entries.clear();
                    }
                    self.entries.push((owner, key, Vec::new()));
                    self.entries.len() - 1
                }
            }
        };
        self.last = slot;
        let per_brush = &mut self.entries[slot].2;
        let index = id.0 as usize;
        if per_brush.len() <= index {
            per_brush.resize_with(index + 1, || None);
        }
        per_brush[index].get_or_insert_with(|| {
            Box::new([
                prism(brush, half_height - CONTACT),
                prism(brush, half_height),
                prism(brush, half_height + CONTACT),
            ])
        })
    }
}
