//! Touching configurations and the exact definition's oracle: the defence of issue 35.
//!
//! The promise is that touching is free and that touching brushes form one solid without seams,
//! in every backend: a shape is in solid where it overlaps the union of the brushes by more than
//! [`CONTACT`](crate::tolerance::CONTACT). The failures that promise met were all at the edges
//! of it, where a shape rests exactly on, beside or under a face, lies in the plane of a seam of
//! two touching brushes, or in a plane a tree splits by, and where a shape has no width across
//! such a plane (a point, a flat box). This module makes those configurations on purpose and
//! answers them from the definition alone, without any backend's arithmetic:
//!
//! - [`LatticeWorld`]: axis-aligned boxes with corners on a lattice of [`LATTICE`] units (a floor
//!   cut into touching tiles, boxes stacked on it and on each other, pillars with gaps a shape
//!   fits exactly, boxes hanging from above), so faces meet faces, edges and corners everywhere;
//! - [`lattice_shapes`]: every shape kind with sizes on the half lattice, boxes with and without
//!   width on each axis;
//! - [`touching_segments`]: segments from positions on the half lattice (where the shapes' faces
//!   lie exactly on the brushes' planes): point queries, moves along an axis lying in planes,
//!   diagonal moves through edges and corners, the same a quarter unit off a plane, and moves in
//!   general position;
//! - [`Oracle`]: the answer of the definition for a shape, computed by exact reasoning on the
//!   lattice (no tolerance is involved: every position is on a plane or a quarter unit or more
//!   off it);
//! - [`Tally`]: a test's disagreements with the oracle, or with the exact backend
//!   ([`Expected::of`] its answer), counted and shown.
//!
//! The definition, as the oracle computes it. A box shape overlaps box brush `B` when its origin
//! lies in `B + [-maxs, -mins]`, a box; the configuration point is in solid when a small ball
//! around it lies in the union of those boxes, each taken *closed* across the axes along which
//! the shape has no width (touching brushes are one solid: their seam is inside the union) and
//! *open* across the others (a shape that fits a gap between two brushes with no room to spare
//! touches both and overlaps neither: free). The ball is tested symbolically, the point moved an
//! infinitesimal amount in each of the 27 directions of `{-1, 0, 1}^3`, which is exact for unions
//! of axis-aligned boxes. A sphere or a cylinder (which have width everywhere) is in solid where
//! it overlaps some brush's interior. [`Union::Closed`] takes every box closed: the union of the
//! configuration spaces, which the onion's CSG union computes (it closes the gaps a shape fits
//! exactly, ARCHITECTURE.md "Zero-clearance gaps"); [`Union::Overlap`] reads the definition
//! literally for flat boxes, where it differs in one double degeneracy (see there). A move's
//! answer follows from the solidity along it, between the times it crosses the boxes' planes: the
//! start's solidity, whether it never leaves solid (the end in solid too), and the first time it
//! enters solid after the solid it starts in (a free instant between two solid stretches, where
//! it crosses a gap no wider than a point, does not end a stretch).

use glam::DVec3;

use crate::aabb::Aabb;
use crate::brush::Brush;
use crate::collider::Hit;
use crate::generate::Rng;
use crate::shape::Shape;
use crate::tolerance::{AGREEMENT, LATER};
use crate::world::World;

/// The lattice of the worlds' box corners, in units.
pub const LATTICE: f64 = 16.0;

/// The lattice of the shapes' sizes and of the queries' positions, in units: half the world's,
/// so that shapes fit gaps exactly and their faces lie on the brushes' planes.
pub const STEP: f64 = LATTICE / 2.0;

/// How far a query's position is moved off a plane, in units: far above every tolerance, so the
/// answer is decided without them.
pub const OFF_PLANE: f64 = 0.25;

/// A world of axis-aligned boxes with corners on the [`LATTICE`].
#[derive(Debug, Clone, PartialEq)]
pub struct LatticeWorld {
    /// The boxes, in brush id order.
    pub boxes: Vec<Aabb>,
}

impl LatticeWorld {
    /// A world from a seed: a floor `[-64, 64]^2 x [-16, 0]` cut into touching tiles, boxes
    /// standing on it and on each other, two pillars with gaps of one and two lattice cells
    /// between them, and boxes hanging from a ceiling slab.
    pub fn generate(seed: u64) -> LatticeWorld {
        let mut rng = Rng::new(seed);
        let mut boxes = Vec::new();
        let cell = |rng: &mut Rng, lo: i32, hi: i32| {
            (lo + rng.below((hi - lo + 1) as usize) as i32) as f64 * LATTICE
        };
        // The floor, cut into tiles along lattice lines.
        let mut pending = vec![Aabb::new(
            DVec3::new(-64.0, -64.0, -16.0),
            DVec3::new(64.0, 64.0, 0.0),
        )];
        let pieces = 3 + rng.below(6);
        while let Some(tile) = pending.pop() {
            let size = tile.size();
            let axis = if size.x >= size.y { 0 } else { 1 };
            if boxes.len() + pending.len() + 1 >= pieces || size[axis] <= LATTICE {
                boxes.push(tile);
                continue;
            }
            let cells = (size[axis] / LATTICE) as i32;
            let at = tile.min[axis] + cell(&mut rng, 1, cells - 1);
            let (mut a, mut b) = (tile, tile);
            a.max[axis] = at;
            b.min[axis] = at;
            pending.push(a);
            pending.push(b);
        }
        // Boxes standing on the floor, some on each other.
        for _ in 0..3 + rng.below(4) {
            let min = DVec3::new(cell(&mut rng, -4, 3), cell(&mut rng, -4, 3), 0.0);
            let size = DVec3::new(
                cell(&mut rng, 1, 2),
                cell(&mut rng, 1, 2),
                cell(&mut rng, 1, 2),
            );
            let mut b = Aabb::new(min, (min + size).min(DVec3::new(64.0, 64.0, 64.0)));
            // On top of whatever it overlaps already, at times.
            if rng.below(2) == 0
                && let Some(top) = boxes
                    .iter()
                    .filter(|o| o.min.z >= 0.0 && overlaps_xy(o, &b))
                    .map(|o| o.max.z)
                    .reduce(f64::max)
            {
                b.max.z += top - b.min.z;
                b.min.z = top;
            }
            boxes.push(b);
        }
        // Two pillars with a gap of one or two cells between them.
        let gap = cell(&mut rng, 1, 2);
        let x = cell(&mut rng, -3, 1);
        let y = cell(&mut rng, -3, 2);
        boxes.push(Aabb::new(
            DVec3::new(x - LATTICE, y, 0.0),
            DVec3::new(x, y + LATTICE, 3.0 * LATTICE),
        ));
        boxes.push(Aabb::new(
            DVec3::new(x + gap, y, 0.0),
            DVec3::new(x + gap + LATTICE, y + LATTICE, 3.0 * LATTICE),
        ));
        // A ceiling slab over part of the floor, with boxes hanging from it.
        let ceiling = Aabb::new(
            DVec3::new(cell(&mut rng, -4, -1), cell(&mut rng, -4, -1), 80.0),
            DVec3::new(cell(&mut rng, 1, 4), cell(&mut rng, 1, 4), 96.0),
        );
        boxes.push(ceiling);
        for _ in 0..rng.below(3) {
            let min = DVec3::new(
                cell(&mut rng, -4, 3).max(ceiling.min.x),
                cell(&mut rng, -4, 3).max(ceiling.min.y),
                ceiling.min.z - cell(&mut rng, 1, 2),
            );
            let max = DVec3::new(
                (min.x + LATTICE).min(ceiling.max.x),
                (min.y + LATTICE).min(ceiling.max.y),
                ceiling.min.z,
            );
            if min.x < max.x && min.y < max.y {
                boxes.push(Aabb::new(min, max));
            }
        }
        LatticeWorld { boxes }
    }

    /// The world of these boxes (brush `i` is box `i`).
    pub fn world(&self) -> World {
        World::from_brushes(
            self.boxes
                .iter()
                .map(|b| Brush::from_aabb(*b).expect("lattice boxes have volume")),
        )
    }

    /// The box around every brush.
    pub fn bounds(&self) -> Aabb {
        self.boxes
            .iter()
            .copied()
            .reduce(Aabb::merged)
            .expect("a lattice world has boxes")
    }
}

fn overlaps_xy(a: &Aabb, b: &Aabb) -> bool {
    a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y
}

/// Every shape kind with sizes on the [`STEP`] lattice: a point, boxes without width across
/// one axis (each axis) and across two (a vertical segment), a box and Quake's standing player,
/// a sphere and a vertical cylinder.
pub fn lattice_shapes() -> Vec<Shape> {
    let b = |mins: [f64; 3], maxs: [f64; 3]| {
        Shape::new_box(DVec3::from_array(mins), DVec3::from_array(maxs))
            .expect("a lattice shape is valid")
    };
    vec![
        Shape::POINT,
        b([0.0, -8.0, -8.0], [0.0, 8.0, 8.0]),
        b([-8.0, 0.0, -8.0], [8.0, 0.0, 8.0]),
        b([-8.0, -8.0, 0.0], [8.0, 8.0, 0.0]),
        b([0.0, 0.0, -8.0], [0.0, 0.0, 8.0]),
        b([-8.0, -8.0, -8.0], [8.0, 8.0, 8.0]),
        b([-16.0, -16.0, -24.0], [16.0, 16.0, 32.0]),
        Shape::new_sphere(8.0).expect("a valid sphere"),
        Shape::new_cylinder(8.0, 16.0).expect("a valid cylinder"),
    ]
}

/// Which union of the brushes a shape is in solid in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Union {
    /// The rule of the exact backend, which every backend but the onion follows: each brush's
    /// configuration space closed across the axes along which the shape has no width (the seam
    /// of two touching brushes is inside their union), open across the others (a gap the shape
    /// fits exactly is free).
    Exact,
    /// Every space closed: gaps a shape fits exactly are solid (the onion's union).
    Closed,
    /// The overlap of the shape itself with the union of the brushes, the definition read
    /// literally. The same as [`Union::Exact`] for every shape but a box without width along one
    /// axis only (a flat box) pressed between faces of two brushes on its plane, from its two
    /// sides, that do not overlap each other under it: it touches both and overlaps neither
    /// (free here), while the rule joins the two spaces across the plane (solid).
    Overlap,
}

/// What the definition answers for a move (or a point query, when its ends are equal).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Expected {
    /// The start is in solid.
    pub start_solid: bool,
    /// The move never leaves solid.
    pub all_solid: bool,
    /// When the move first enters solid after the solid it starts in, if it does.
    pub time_of_impact: Option<f64>,
}

impl Expected {
    /// What `hit` answers, to compare another backend's answer to the same query with it.
    pub fn of(hit: &Hit) -> Expected {
        Expected {
            start_solid: hit.start_solid(),
            all_solid: hit.all_solid(),
            time_of_impact: hit.surface().map(|s| s.time_of_impact),
        }
    }

    /// `Ok` when `hit` answers the same (times of impact within [`LATER`]), else why not.
    pub fn check(&self, hit: &Hit) -> Result<(), String> {
        let time = hit.surface().map(|s| s.time_of_impact);
        let same_time = match (time, self.time_of_impact) {
            (Some(a), Some(b)) => (a - b).abs() <= LATER,
            (None, None) => true,
            _ => false,
        };
        if hit.start_solid() == self.start_solid && hit.all_solid() == self.all_solid && same_time {
            Ok(())
        } else {
            Err(format!(
                "expected start_solid {}, all_solid {}, time of impact {:?}; got {}, {}, {:?}",
                self.start_solid,
                self.all_solid,
                self.time_of_impact,
                hit.start_solid(),
                hit.all_solid(),
                time
            ))
        }
    }
}

/// The disagreements of a test with the oracle (or with the exact backend), counted as its
/// queries are checked; [`Tally::assert_none`] fails the test showing the first twenty.
#[derive(Debug, Default)]
pub struct Tally {
    checked: usize,
    failures: Vec<String>,
}

impl Tally {
    /// Counts one query; a disagreement (`outcome`, as [`Expected::check`] gives it) is kept
    /// with the query's description, `what` (called only then).
    pub fn record(&mut self, outcome: Result<(), String>, what: impl FnOnce() -> String) {
        self.checked += 1;
        if let Err(why) = outcome {
            self.failures.push(format!("{}: {why}", what()));
        }
    }

    /// The queries counted.
    pub fn checked(&self) -> usize {
        self.checked
    }

    /// Panics when any query disagreed, with their count and the first twenty.
    pub fn assert_none(&self) {
        let shown: Vec<&String> = self.failures.iter().take(20).collect();
        assert!(
            self.failures.is_empty(),
            "{} of {} disagree:\n{shown:#?}",
            self.failures.len(),
            self.checked
        );
    }
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    Box {
        mins: DVec3,
        maxs: DVec3,
        closed: [bool; 3],
    },
    /// A box without width along axis `thin` only, in the definition's union: see
    /// [`Oracle::flat_solid`].
    Flat {
        mins: DVec3,
        maxs: DVec3,
        thin: usize,
    },
    Sphere(f64),
    Cylinder(f64, f64),
}

/// The definition's answers for one shape in a [`LatticeWorld`] (see the module docs).
#[derive(Debug, Clone)]
pub struct Oracle<'a> {
    boxes: &'a [Aabb],
    kind: Kind,
}

impl<'a> Oracle<'a> {
    /// The oracle for `shape` (a box, sphere or cylinder; a hull is refused with `None`).
    pub fn new(world: &'a LatticeWorld, shape: &Shape, union: Union) -> Option<Oracle<'a>> {
        let kind = match shape {
            Shape::Box(b) => {
                let width = b.maxs - b.mins;
                let thin: Vec<usize> = (0..3).filter(|&k| width[k] == 0.0).collect();
                match (union, thin.as_slice()) {
                    (Union::Overlap, &[k]) => Kind::Flat {
                        mins: b.mins,
                        maxs: b.maxs,
                        thin: k,
                    },
                    _ => {
                        // Exact and Overlap agree for every other box.
                        let closed = |k: usize| union == Union::Closed || width[k] == 0.0;
                        Kind::Box {
                            mins: b.mins,
                            maxs: b.maxs,
                            closed: [closed(0), closed(1), closed(2)],
                        }
                    }
                }
            }
            Shape::Sphere { radius } => Kind::Sphere(*radius),
            Shape::Cylinder {
                radius,
                half_height,
            } => Kind::Cylinder(*radius, *half_height),
            Shape::Hull(_) => return None,
        };
        Some(Oracle {
            boxes: &world.boxes,
            kind,
        })
    }

    /// The oracle for the box bounding `shape` (open on every axis): what plane shifting
    /// answers for a sphere or a cylinder against axis-aligned cells, whose planes it shifts by
    /// the shape's support without rounding their edges (Melax Section 3).
    pub fn bounding_box(world: &'a LatticeWorld, shape: &Shape) -> Oracle<'a> {
        let bounds = shape.bounds();
        Oracle {
            boxes: &world.boxes,
            kind: Kind::Box {
                mins: bounds.min,
                maxs: bounds.max,
                closed: [false; 3],
            },
        }
    }

    /// True when the shape at `p` is in solid.
    pub fn is_solid(&self, p: DVec3) -> bool {
        match self.kind {
            Kind::Box { mins, maxs, closed } => {
                let offsets = [-1i8, 0, 1];
                offsets.iter().all(|&vx| {
                    offsets.iter().all(|&vy| {
                        offsets.iter().all(|&vz| {
                            self.boxes.iter().any(|b| {
                                (0..3).all(|k| {
                                    let lo = b.min[k] - maxs[k];
                                    let hi = b.max[k] - mins[k];
                                    within(p[k], [vx, vy, vz][k], lo, hi, closed[k])
                                })
                            })
                        })
                    })
                })
            }
            Kind::Flat { mins, maxs, thin } => self.flat_solid(mins, maxs, thin, p),
            Kind::Sphere(r) => self.boxes.iter().any(|b| {
                let gap = (b.min - p).max(p - b.max).max(DVec3::ZERO);
                gap.length_squared() < r * r
            }),
            Kind::Cylinder(r, h) => self.boxes.iter().any(|b| {
                let gap = (b.min - p).max(p - b.max).max(DVec3::ZERO);
                p.z - h < b.max.z && p.z + h > b.min.z && gap.truncate().length_squared() < r * r
            }),
        }
    }

    /// A box without width along axis `k` only, at `p`, in [`Union::Overlap`]: the overlap of
    /// the shape with the union of the brushes, where it differs from the union of the
    /// configuration spaces closed across `k`. The shape is in solid
    /// when, moved an infinitesimal amount in each of the 27 directions, it still overlaps the
    /// interior of the union of the brushes. Moved off its plane (across `k`), it is a rectangle
    /// meeting a brush's interior: its origin in the brush's configuration space, open on every
    /// axis. Moved within its plane, it must meet the union's interior there: a brush crossing
    /// the plane (its space open on every axis, the plane strictly inside it across `k`), or the
    /// seam of two brushes touching the plane from its two sides, where their faces overlap
    /// (the overlap's space, open across the other axes). Two faces that meet the shape on both
    /// sides of its plane without overlapping each other under it (offset by the shape's width or
    /// less) leave it free: it touches both and overlaps neither.
    fn flat_solid(&self, mins: DVec3, maxs: DVec3, k: usize, p: DVec3) -> bool {
        let plane = p[k] + mins[k];
        let open_space = |lo: DVec3, hi: DVec3, v: [i8; 3], axes: &[usize]| {
            axes.iter()
                .all(|&j| within(p[j], v[j], lo[j] - maxs[j], hi[j] - mins[j], false))
        };
        let all = [0, 1, 2];
        let across: Vec<usize> = all.into_iter().filter(|&j| j != k).collect();
        let offsets = [-1i8, 0, 1];
        offsets.iter().all(|&vx| {
            offsets.iter().all(|&vy| {
                offsets.iter().all(|&vz| {
                    let v = [vx, vy, vz];
                    if v[k] != 0 {
                        return self.boxes.iter().any(|b| open_space(b.min, b.max, v, &all));
                    }
                    let crossing = self.boxes.iter().any(|b| {
                        b.min[k] < plane && plane < b.max[k] && open_space(b.min, b.max, v, &across)
                    });
                    crossing
                        || self.boxes.iter().any(|above| {
                            above.min[k] == plane
                                && self.boxes.iter().any(|below| {
                                    let (lo, hi) =
                                        (above.min.max(below.min), above.max.min(below.max));
                                    below.max[k] == plane
                                        && across.iter().all(|&j| lo[j] < hi[j])
                                        && open_space(lo, hi, v, &across)
                                })
                        })
                })
            })
        })
    }

    /// The answer for the move `start -> end` (a point query when they are equal). Spheres and
    /// cylinders take moves along an axis only.
    pub fn trace(&self, start: DVec3, end: DVec3) -> Expected {
        let start_solid = self.is_solid(start);
        if start == end {
            return Expected {
                start_solid,
                all_solid: start_solid,
                time_of_impact: None,
            };
        }
        let d = end - start;
        let mut times = vec![0.0, 1.0];
        self.crossings(start, d, &mut times);
        times.retain(|t| (0.0..=1.0).contains(t));
        times.sort_by(f64::total_cmp);
        times.dedup();
        // Solidity between consecutive crossings (constant there), at each stretch's middle.
        let stretches: Vec<(f64, bool)> = times
            .windows(2)
            .map(|w| (w[0], self.is_solid(start + d * ((w[0] + w[1]) * 0.5))))
            .collect();
        let mut i = 0;
        if start_solid {
            // The solid the move starts in, joined across free instants.
            while i < stretches.len() && stretches[i].1 {
                i += 1;
            }
            if i == stretches.len() {
                // In solid to the end: all solid, unless the end itself is free (the move
                // leaves solid there, touching).
                return Expected {
                    start_solid,
                    all_solid: self.is_solid(end),
                    time_of_impact: None,
                };
            }
        }
        let time_of_impact = stretches[i..].iter().find(|s| s.1).map(|s| s.0);
        Expected {
            start_solid,
            all_solid: false,
            time_of_impact,
        }
    }

    /// The times at which `start + t d` crosses the boundary of a brush's configuration space
    /// (for a sphere or a cylinder, on a move along an axis).
    fn crossings(&self, start: DVec3, d: DVec3, out: &mut Vec<f64>) {
        let mut add = |k: usize, x: f64| out.push((x - start[k]) / d[k]);
        match self.kind {
            Kind::Box { mins, maxs, .. } | Kind::Flat { mins, maxs, .. } => {
                for b in self.boxes {
                    for k in (0..3).filter(|&k| d[k] != 0.0) {
                        add(k, b.min[k] - maxs[k]);
                        add(k, b.max[k] - mins[k]);
                    }
                }
            }
            Kind::Sphere(r) | Kind::Cylinder(r, _) => {
                let axes: Vec<usize> = (0..3).filter(|&k| d[k] != 0.0).collect();
                assert_eq!(axes.len(), 1, "rounded shapes move along an axis");
                let k = axes[0];
                for b in self.boxes {
                    let gap = (b.min - start).max(start - b.max).max(DVec3::ZERO);
                    let reach = match self.kind {
                        Kind::Cylinder(_, h) if k == 2 => Some(h),
                        Kind::Cylinder(..) => {
                            let j = 1 - k;
                            (r * r - gap[j] * gap[j]).max(0.0).sqrt().into()
                        }
                        _ => {
                            let others = gap.length_squared() - gap[k] * gap[k];
                            (r * r - others).max(0.0).sqrt().into()
                        }
                    };
                    if let Some(w) = reach {
                        add(k, b.min[k] - w);
                        add(k, b.max[k] + w);
                    }
                }
            }
        }
    }
}

/// True when coordinate `x`, moved an infinitesimal amount in direction `v`, lies in `[lo, hi]`
/// (`closed`) or `(lo, hi)`.
fn within(x: f64, v: i8, lo: f64, hi: f64, closed: bool) -> bool {
    match v {
        1 => lo <= x && x < hi,
        -1 => lo < x && x <= hi,
        _ if closed => lo <= x && x <= hi,
        _ => lo < x && x < hi,
    }
}

/// `count` queries of touching configurations in `world` (see the module docs): point queries
/// (equal ends) and moves, from positions on the [`STEP`] lattice over the world's bounds grown
/// by 24 units. With `axis_only`, every move is along an axis (what the oracle answers for
/// spheres and cylinders).
pub fn touching_segments(
    world: &LatticeWorld,
    rng: &mut Rng,
    count: usize,
    axis_only: bool,
) -> Vec<(DVec3, DVec3)> {
    let region = world.bounds().loosened(24.0);
    let lattice = |rng: &mut Rng, lo: f64, hi: f64| {
        let steps = ((hi - lo) / STEP) as usize;
        (lo / STEP).ceil() * STEP + rng.below(steps + 1) as f64 * STEP
    };
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let p = DVec3::new(
            lattice(rng, region.min.x, region.max.x),
            lattice(rng, region.min.y, region.max.y),
            lattice(rng, region.min.z, region.max.z),
        );
        let axis = rng.below(3);
        let sign = if rng.below(2) == 0 { 1.0 } else { -1.0 };
        let along = DVec3::AXES[axis] * sign * STEP * (1 + rng.below(8)) as f64;
        let kinds = if axis_only { 5 } else { 7 };
        let segment = match rng.below(kinds) {
            0 => (p, p),
            1 | 2 => (p, p + along),
            // A quarter unit off a plane, across the move.
            3 => {
                let off = DVec3::AXES[(axis + 1 + rng.below(2)) % 3] * sign * OFF_PLANE;
                (p + off, p + off + along)
            }
            // Starting a quarter unit off the lattice, along the move.
            4 => {
                let off = along.normalize() * OFF_PLANE * sign;
                (p + off, p + off + along)
            }
            // Diagonal through edges and corners.
            5 => {
                let mut step = || (rng.below(7) as f64 - 3.0) * STEP;
                let delta = DVec3::new(step(), step(), step());
                if delta == DVec3::ZERO {
                    continue;
                }
                (p, p + delta)
            }
            _ => (p, rng.point_in(&region)),
        };
        out.push(segment);
    }
    out
}

/// Rays along the axes on a grid over `bounds` (grown by a step): vertical ones through every
/// grid point of the `xy` plane, and horizontal ones along `x` and along `y` at every grid
/// height, from one side of the bounds to the other. The grid's step is the smallest multiple of
/// [`STEP`] that keeps the rays within `most`. Maps are built on such grids, so most of these
/// rays lie in faces and in the planes a tree splits by: the corpus side of issue 35's defence.
pub fn grid_rays(bounds: &Aabb, most: usize) -> Vec<(DVec3, DVec3)> {
    let region = bounds.loosened(STEP);
    let size = region.size();
    let count = |step: f64| {
        let n = (size / step).ceil() + 1.0;
        (n.x * n.y + n.y * n.z + n.x * n.z) as usize
    };
    let mut step = STEP;
    while count(step) > most {
        step += STEP;
    }
    let ticks = |lo: f64, hi: f64| {
        let first = (lo / step).ceil() * step;
        (0..)
            .map(move |i| first + f64::from(i) * step)
            .take_while(move |v| *v <= hi)
    };
    let (lo, hi) = (region.min, region.max);
    let mut rays = Vec::new();
    for x in ticks(lo.x, hi.x) {
        for y in ticks(lo.y, hi.y) {
            rays.push((DVec3::new(x, y, hi.z), DVec3::new(x, y, lo.z)));
        }
    }
    for z in ticks(lo.z, hi.z) {
        for y in ticks(lo.y, hi.y) {
            rays.push((DVec3::new(lo.x, y, z), DVec3::new(hi.x, y, z)));
        }
        for x in ticks(lo.x, hi.x) {
            rays.push((DVec3::new(x, hi.y, z), DVec3::new(x, lo.y, z)));
        }
    }
    rays
}

/// Why two backends' answers to one move differ, or `None` when they agree: the same hit or
/// miss, the same start-in-solid and never-left-solid, ends within [`AGREEMENT`] units and hit
/// normals within [`AGREEMENT`] per component (the onion's and the movers' agreement tests).
pub fn differ(a: &Hit, b: &Hit) -> Option<String> {
    if a.is_hit() != b.is_hit() {
        return Some("hit/miss".into());
    }
    if a.start_solid() != b.start_solid() || a.all_solid() != b.all_solid() {
        return Some("start_solid/all_solid".into());
    }
    if a.end().distance(b.end()) > AGREEMENT {
        return Some(format!("end differs by {:e}", a.end().distance(b.end())));
    }
    if let (Some(x), Some(y)) = (a.surface(), b.surface())
        && !x.plane.normal().abs_diff_eq(y.plane.normal(), AGREEMENT)
    {
        return Some("plane normal".into());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oracle's own cases, by hand: a seam, a gap a shape fits, resting on a face.
    #[test]
    fn the_oracle_answers_the_definition_on_hand_made_cases() {
        let world = LatticeWorld {
            boxes: vec![
                Aabb::new(DVec3::new(-32.0, -32.0, -16.0), DVec3::new(0.0, 32.0, 0.0)),
                Aabb::new(DVec3::new(0.0, -32.0, -16.0), DVec3::new(32.0, 32.0, 0.0)),
                Aabb::new(DVec3::new(-48.0, 0.0, 0.0), DVec3::new(-32.0, 16.0, 48.0)),
                Aabb::new(DVec3::new(-16.0, 0.0, 0.0), DVec3::new(0.0, 16.0, 48.0)),
            ],
        };
        let point = Oracle::new(&world, &Shape::POINT, Union::Exact).unwrap();
        // Down the seam of the two floor tiles: inside the floor below its top.
        assert!(point.is_solid(DVec3::new(0.0, 0.0, -8.0)));
        assert!(!point.is_solid(DVec3::new(0.0, 0.0, 0.0)));
        let down = point.trace(DVec3::new(0.0, 0.0, 16.0), DVec3::new(0.0, 0.0, -16.0));
        assert_eq!(down.time_of_impact, Some(0.5));
        // The seam's outer face: touching.
        assert!(!point.is_solid(DVec3::new(32.0, 0.0, -8.0)));
        // A 16-unit box in the 16-unit gap between the pillars: free, solid in the closed union.
        let cube = Shape::new_box(DVec3::splat(-8.0), DVec3::splat(8.0)).unwrap();
        let exact = Oracle::new(&world, &cube, Union::Exact).unwrap();
        let closed = Oracle::new(&world, &cube, Union::Closed).unwrap();
        let slot = DVec3::new(-24.0, 8.0, 24.0);
        assert!(!exact.is_solid(slot));
        assert!(closed.is_solid(slot));
        // Resting on the floor, for every shape kind.
        let sphere = Shape::new_sphere(8.0).unwrap();
        let cylinder = Shape::new_cylinder(8.0, 16.0).unwrap();
        for (shape, height) in [(cube, 8.0), (sphere, 8.0), (cylinder, 16.0)] {
            let oracle = Oracle::new(&world, &shape, Union::Exact).unwrap();
            let at = DVec3::new(16.0, -16.0, height);
            assert!(!oracle.is_solid(at), "{}", shape.describe());
            assert!(oracle.is_solid(at - DVec3::Z * OFF_PLANE));
            let slide = oracle.trace(at, at + DVec3::X * 8.0);
            assert_eq!(slide.time_of_impact, None, "{}", shape.describe());
        }
    }
}
