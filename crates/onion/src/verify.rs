//! Verifying what a tree means against its world ([`OnionTree::verify`]): the tree's planes are
//! planes of its configuration spaces, no face of a space crosses a leaf, and each leaf is solid
//! where the exact reference's point query is.
//!
//! The checks, with the world's configuration spaces expanded and unioned as the compiler does
//! ([`crate::compile`]):
//!
//! - every plane of the tree is a plane of a face of a space's union, within the compiler's
//!   plane merge tolerance (its plane table);
//! - the union's faces, pushed down the tree as Listing 2 distributes them, end on the boundary of
//!   the cells they reach (coplanar with an ancestor's plane): no surface of a space crosses a
//!   leaf, so each leaf is all solid or all empty in each space;
//! - each leaf's solidity matches the exact backend's point query ([`ExactCollider`]) at its
//!   interior point and at points toward its cell's vertices; a leaf too thin for that is matched
//!   against the compiler's classification; a leaf without volume is solid in every space.
//!
//! A space whose outer leaves (cells on the box the tree was cut from) are all solid was filled
//! outside ([`crate::CompileOptions::fill_outside`]): there a leaf may be solid where the world is
//! empty, and a face may cross a solid leaf, for the outside of a sealed map is solid by design.
//! What the fill made solid is not proven to be outside: a leaf made solid by an edit inside a
//! filled space is not caught.

use std::sync::Arc;
use std::time::Instant;

use cspace_geom::tolerance::{CONTACT, PLANE_THICKNESS};
use cspace_geom::{
    Collider, DVec3, ExactCollider, Plane, Prepared, QueryContext, Shape, World, WorldMismatch,
};

use crate::compile::fill::on_box;
use crate::compile::{
    BuildPolygon, Cell, CompileError, LeafCell, Space, Union, all_spaces, cut_half, leaf_point,
    partition, solid_spaces,
};
use crate::tree::{NodeRef, OnionTree};

/// How each further point checked in a leaf lies from the cell's interior point toward a vertex
/// (not a tolerance: a fraction of the way). The golden ratio's fraction keeps the points off round
/// coordinates, where seams between touching brushes lie, and keeps at least `1 - 0.618` of the
/// interior point's depth inside the cell.
const TOWARD_VERTEX: f64 = 0.618_033_988_749_894_9;

/// How much of a tree [`OnionTree::verify`] checks.
#[derive(Debug, Clone, PartialEq)]
pub struct VerifyOptions {
    /// The leaves checked: all of them (`None`, the default), or this many chosen at random from
    /// [`VerifyOptions::seed`]. The planes are always checked, and the faces are pushed down to
    /// every leaf checked and every outer leaf.
    pub leaves: Option<usize>,
    /// The seed of the leaf sample.
    pub seed: u64,
    /// Points checked per leaf against the exact point query: the interior point and points
    /// toward the cell's vertices (default 4; at least 1).
    pub points_per_leaf: usize,
}

impl Default for VerifyOptions {
    fn default() -> VerifyOptions {
        VerifyOptions {
            leaves: None,
            seed: 0,
            points_per_leaf: 4,
        }
    }
}

/// What [`OnionTree::verify`] checked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VerifyReport {
    /// Leaves in the tree.
    pub leaf_count: usize,
    /// Leaves checked.
    pub leaves: usize,
    /// Of those, leaves without volume (solid in every space).
    pub zero_volume_leaves: usize,
    /// Of those, leaves with no point deep enough inside for the exact query (deeper than
    /// [`PLANE_THICKNESS`]), matched against the compiler's classification instead.
    pub thin_leaves: usize,
    /// Points checked against the exact point query (each in every space).
    pub points: usize,
    /// Exact point queries made.
    pub queries: usize,
    /// Faces of the spaces' unions pushed down the tree.
    pub faces: usize,
    /// The spaces found filled outside, as a bit mask.
    pub filled_spaces: u64,
    /// Points solid in the tree and empty in the world, in filled spaces.
    pub filled_points: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Where a tree and its world disagree.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// The tree was compiled from another world.
    #[error(transparent)]
    World(#[from] WorldMismatch),
    /// The world cannot be expanded by a pose of the tree.
    #[error(transparent)]
    Expansion(#[from] CompileError),
    /// A plane of the tree is no plane of any configuration space.
    #[error(
        "plane {plane} ({normal} . x = {dist}{}) is no plane of any configuration space",
        node.map_or(", no node's".into(), |n| format!(", node {n}'s"))
    )]
    Plane {
        /// The plane's index.
        plane: u32,
        /// Its normal.
        normal: DVec3,
        /// Its distance.
        dist: f64,
        /// A node splitting by it.
        node: Option<u32>,
    },
    /// A face of a configuration space crosses a leaf's cell: the leaf is part solid, part empty.
    #[error(
        "leaf {leaf}: a face of pose {pose} (space {space}) on {normal} . x = {dist} crosses it at {point}"
    )]
    Surface {
        /// The leaf.
        leaf: u32,
        /// The space.
        space: usize,
        /// The space's pose.
        pose: String,
        /// The face's plane normal.
        normal: DVec3,
        /// The face's plane distance.
        dist: f64,
        /// A point of the face inside the leaf.
        point: DVec3,
    },
    /// A leaf is solid or empty where the world is not.
    #[error(
        "leaf {leaf}: pose {pose} (space {space}) at {point}: the tree says {}, the world says {}",
        solidity(*tree_solid),
        solidity(*world_solid)
    )]
    Solidity {
        /// The leaf.
        leaf: u32,
        /// The space.
        space: usize,
        /// The space's pose.
        pose: String,
        /// The point.
        point: DVec3,
        /// The leaf's solidity there.
        tree_solid: bool,
        /// The world's.
        world_solid: bool,
    },
    /// A leaf's cell reaches beyond the numeric domain (a compiled tree's cells stay inside the
    /// box it was compiled in, which is inside the domain).
    #[error(
        "leaf {leaf}: its cell reaches {}, beyond cspace's numeric domain (tolerance::WORLD_HALF_EXTENT)",
        cspace_geom::domain::vector(*point)
    )]
    Beyond {
        /// The leaf.
        leaf: u32,
        /// A point of its cell beyond the domain.
        point: DVec3,
    },
    /// A leaf without volume is empty in a space (the compiler makes them solid in every space).
    #[error("leaf {leaf} has no volume and is empty for pose {pose} (space {space})")]
    NoVolume {
        /// The leaf.
        leaf: u32,
        /// The space.
        space: usize,
        /// The space's pose.
        pose: String,
    },
    /// Outer leaves disagree: the outside of a space is neither all empty nor all filled.
    #[error(
        "pose {pose} (space {space}): outer leaf {solid} is solid and outer leaf {empty} empty"
    )]
    Outside {
        /// The space.
        space: usize,
        /// The space's pose.
        pose: String,
        /// A solid outer leaf.
        solid: u32,
        /// An empty outer leaf.
        empty: u32,
    },
}

fn solidity(solid: bool) -> &'static str {
    if solid { "solid" } else { "empty" }
}

/// A finding allowed in a filled space and an error otherwise (the first in each space).
#[derive(Default)]
struct Pending {
    first: Option<VerifyError>,
    points: usize,
}

/// A node or leaf still to visit, with its cell, the faces reaching it and its place on the path.
struct Frame {
    at: NodeRef,
    cell: Cell,
    polygons: Vec<BuildPolygon>,
    depth: usize,
    /// The parent's plane facing this side (the compiler's ancestor list).
    step: Option<Plane>,
}

impl OnionTree {
    /// Checks what the tree means against `world` (see the module docs of `verify.rs`): its
    /// planes, that no face of a space crosses a leaf, and the solidity of the leaves `options`
    /// selects against the exact point query. The first disagreement is the error.
    pub fn verify(
        &self,
        world: &Arc<World>,
        options: &VerifyOptions,
    ) -> Result<VerifyReport, VerifyError> {
        let started = Instant::now();
        let fingerprint = world.fingerprint();
        if fingerprint != self.world {
            return Err(WorldMismatch {
                tree: self.world,
                world: fingerprint,
            }
            .into());
        }
        let spaces = self
            .poses
            .iter()
            .enumerate()
            .map(|(s, pose)| Space::new(world, pose, s))
            .collect::<Result<Vec<_>, _>>()?;
        let union = Union::of(&spaces);
        // Each tree plane's entry in the table of the union's planes.
        let mut entry = Vec::with_capacity(self.planes.len());
        for (i, plane) in self.planes.iter().enumerate() {
            let Some((e, _)) = union.table.get(plane) else {
                return Err(VerifyError::Plane {
                    plane: i as u32,
                    normal: plane.normal(),
                    dist: plane.dist(),
                    node: self
                        .nodes
                        .iter()
                        .position(|n| n.plane as usize == i)
                        .map(|n| n as u32),
                });
            };
            entry.push(e);
        }
        let wanted = self.sample(options);
        // want[n]: a wanted leaf lies below node n (children follow their parents).
        let mut want = vec![false; self.nodes.len()];
        for n in (0..self.nodes.len()).rev() {
            want[n] = self.nodes[n]
                .children
                .iter()
                .any(|&c| match NodeRef::unpack(c) {
                    NodeRef::Leaf(l) => wanted[l as usize],
                    NodeRef::Node(c) => want[c as usize],
                });
        }

        let exact = ExactCollider::new(world.clone());
        let prepared: Vec<Prepared> = self
            .poses
            .iter()
            .map(|p| exact.prepare(&Shape::from(p)))
            .collect::<Result<_, _>>()
            .expect("the exact backend takes every box");
        let mut ctx = QueryContext::new();
        let mut report = VerifyReport {
            leaf_count: self.leaves.len(),
            faces: union.polygons.len(),
            ..VerifyReport::default()
        };
        let mut pending: Vec<Pending> = (0..self.spaces()).map(|_| Pending::default()).collect();
        // Per space, an outer leaf found solid and one found empty.
        let mut outer: Vec<[Option<u32>; 2]> = vec![[None; 2]; self.spaces()];
        let half = cut_half(union.bounds);
        let mut ancestors: Vec<Plane> = Vec::new();
        let mut stack = vec![Frame {
            at: self.root(),
            cell: Cell::from_box(union.bounds),
            polygons: union.polygons,
            depth: 0,
            step: None,
        }];
        while let Some(frame) = stack.pop() {
            ancestors.truncate(frame.depth);
            ancestors.extend(frame.step);
            let touches_box = || frame.cell.faces.iter().any(|f| on_box(f, &union.bounds));
            let leaf = match frame.at {
                NodeRef::Node(n) => {
                    if !want[n as usize] && !touches_box() {
                        continue;
                    }
                    let plane = self.node_plane(n);
                    let e = entry[self.nodes[n as usize].plane as usize];
                    let (front, back) = partition(frame.polygons, &plane, |p| p.plane == e);
                    let (front_cell, back_cell) = frame.cell.split(&plane, half);
                    let [f, b] = self.node_children(n);
                    let depth = ancestors.len();
                    stack.push(Frame {
                        at: b,
                        cell: back_cell,
                        polygons: back,
                        depth,
                        step: Some(plane.flipped()),
                    });
                    stack.push(Frame {
                        at: f,
                        cell: front_cell,
                        polygons: front,
                        depth,
                        step: Some(plane),
                    });
                    continue;
                }
                NodeRef::Leaf(l) => l,
            };
            let mask = self.leaves[leaf as usize];
            let cell = leaf_point(&frame.cell, &ancestors);
            if matches!(cell, LeafCell::InBox(..)) && touches_box() {
                for (s, o) in outer.iter_mut().enumerate() {
                    o[usize::from(mask >> s & 1 == 0)].get_or_insert(leaf);
                }
            }
            if !wanted[leaf as usize] {
                continue;
            }
            report.leaves += 1;
            for p in frame.polygons.iter().filter(|p| p.candidate) {
                let s = p.space as usize;
                let error = VerifyError::Surface {
                    leaf,
                    space: s,
                    pose: self.poses[s].name.clone(),
                    normal: p.polygon.plane.normal(),
                    dist: p.polygon.plane.dist(),
                    point: p.centre,
                };
                if mask >> s & 1 == 0 {
                    return Err(error);
                }
                pending[s].first.get_or_insert(error);
            }
            if cell.zero_volume() {
                report.zero_volume_leaves += 1;
                let all = all_spaces(self.spaces());
                if mask != all {
                    let s = (all & !mask).trailing_zeros() as usize;
                    return Err(VerifyError::NoVolume {
                        leaf,
                        space: s,
                        pose: self.poses[s].name.clone(),
                    });
                }
                continue;
            }
            let mut checked = false;
            for point in self.leaf_points(&cell, options.points_per_leaf.max(1)) {
                checked = true;
                report.points += 1;
                let inside = point.abs().max_element() <= cspace_geom::tolerance::WORLD_HALF_EXTENT;
                if !inside {
                    return Err(VerifyError::Beyond { leaf, point });
                }
                for (s, shape) in prepared.iter().enumerate() {
                    report.queries += 1;
                    // A point on a seam between touching brushes is free for the exact query
                    // (each brush judged alone) and solid in the union (within CONTACT of a brush).
                    let world_solid = exact.is_solid(&mut ctx, shape, point)
                        || (mask >> s & 1 != 0 && spaces[s].contains(point, CONTACT));
                    self.compare(leaf, s, point, mask, world_solid, &mut pending)?;
                }
            }
            if !checked {
                report.thin_leaves += 1;
                let (point, depth) = cell.point();
                let classified = solid_spaces(&spaces, point, depth);
                for s in 0..self.spaces() {
                    let world_solid = classified >> s & 1 != 0;
                    self.compare(leaf, s, point, mask, world_solid, &mut pending)?;
                }
            }
        }
        for (s, o) in outer.iter().enumerate() {
            match *o {
                [Some(solid), Some(empty)] => {
                    return Err(VerifyError::Outside {
                        space: s,
                        pose: self.poses[s].name.clone(),
                        solid,
                        empty,
                    });
                }
                [Some(_), None] => {
                    report.filled_spaces |= 1 << s;
                    report.filled_points += pending[s].points;
                }
                _ => {
                    if let Some(error) = pending[s].first.take() {
                        return Err(error);
                    }
                }
            }
        }
        report.seconds = started.elapsed().as_secs_f64();
        Ok(report)
    }

    /// The leaves `options` selects, as flags.
    fn sample(&self, options: &VerifyOptions) -> Vec<bool> {
        let count = self.leaves.len();
        match options.leaves {
            Some(k) if k < count => {
                // The first k of a partial Fisher-Yates shuffle.
                let mut order: Vec<u32> = (0..count as u32).collect();
                let mut rng = cspace_geom::generate::Rng::new(options.seed);
                let mut wanted = vec![false; count];
                for i in 0..k {
                    let j = i + rng.below(count - i);
                    order.swap(i, j);
                    wanted[order[i] as usize] = true;
                }
                wanted
            }
            _ => vec![true; count],
        }
    }

    /// Up to `count` points of a leaf's cell deeper than [`PLANE_THICKNESS`] inside it: its
    /// interior point, then points [`TOWARD_VERTEX`] of the way to vertices spread over its faces.
    fn leaf_points(&self, cell: &LeafCell<'_>, count: usize) -> Vec<DVec3> {
        let (centre, _) = cell.point();
        let faces = &cell.cell().faces;
        let depth = |p: DVec3| {
            faces
                .iter()
                .map(|f| -f.plane.signed_distance(p))
                .fold(f64::INFINITY, f64::min)
        };
        let further = count.saturating_sub(1);
        std::iter::once(centre)
            .chain((0..further).filter_map(|k| {
                let face = faces.get(k * faces.len() / further.max(1))?;
                let vertex = *face.vertices.first()?;
                Some(centre + (vertex - centre) * TOWARD_VERTEX)
            }))
            .take(count)
            .filter(|&p| depth(p) > PLANE_THICKNESS)
            .collect()
    }

    /// Compares leaf `leaf`'s solidity in space `s` with the world's at `point`: an empty leaf
    /// where the world is solid is an error; a solid leaf where it is empty is one unless the
    /// space turns out filled.
    fn compare(
        &self,
        leaf: u32,
        s: usize,
        point: DVec3,
        mask: u64,
        world_solid: bool,
        pending: &mut [Pending],
    ) -> Result<(), VerifyError> {
        let tree_solid = mask >> s & 1 != 0;
        if tree_solid == world_solid {
            return Ok(());
        }
        let error = VerifyError::Solidity {
            leaf,
            space: s,
            pose: self.poses[s].name.clone(),
            point,
            tree_solid,
            world_solid,
        };
        if !tree_solid {
            return Err(error);
        }
        pending[s].points += 1;
        pending[s].first.get_or_insert(error);
        Ok(())
    }
}
