//! Listing 2 (`build_subtree`): splitter choice, polygon classification and splitting, leaves
//! with solidity bit-vectors from an interior point (Listings 3-4).

use cspace_geom::polygon::PolygonSide;
use cspace_geom::tolerance::{CONTACT, ONION_CUT, PLANE_MERGE, WORLD_HALF_EXTENT};
use cspace_geom::{Aabb, Plane, Polygon};
use glam::DVec3;

use super::CompileOptions;
use super::cell::{Cell, covering_half};
use super::space::Space;
use crate::tree::{NodeRef, PackedNode};
use cspace_geom::tolerance::SPHERE_GROWTH;

/// A polygon of one configuration space on its way down the tree.
#[derive(Debug, Clone)]
pub(crate) struct BuildPolygon {
    pub polygon: Polygon,
    /// Its entry in the plane table.
    pub plane: u32,
    /// Its space.
    pub space: u16,
    /// Whether its plane may still split (Listing 1's `splitCandidate`).
    pub candidate: bool,
    /// A bounding sphere of the vertices: centre and radius (for quick classification).
    pub centre: glam::DVec3,
    pub radius: f64,
}

impl BuildPolygon {
    /// A polygon with its bounding sphere.
    pub fn new(polygon: Polygon, plane: u32, space: u16, candidate: bool) -> BuildPolygon {
        let centre = polygon.vertex_mean();
        let radius = polygon
            .vertices
            .iter()
            .map(|v| v.distance(centre))
            .fold(0.0, f64::max);
        BuildPolygon {
            polygon,
            plane,
            space,
            candidate,
            centre,
            radius,
        }
    }
}

/// The most polygons of a node a candidate splitter is scored on: above it, an even sample of
/// the node's polygons (every `k`-th). 2,048: the nodes of sealed maps below a few levels have
/// fewer, and the score of a sample this large picks splitters as good (the tree's depth and
/// size stay within a few percent: `docs/onion.md`, "Compile cost").
const SCORE_SAMPLE: usize = 2048;

/// A leaf cell whose interior point is no deeper than this inside it, in units, has no volume
/// (its faces coincide to rounding): solid in every space.
const LEAF_MIN_DEPTH: f64 = PLANE_MERGE;

/// What the recursion collects.
pub(crate) struct Builder<'a> {
    pub spaces: &'a [Space],
    pub planes: &'a [Plane],
    pub options: &'a CompileOptions,
    pub nodes: Vec<PackedNode>,
    pub leaves: Vec<u64>,
    /// Per leaf: whether its cell had no volume, and its interior point.
    pub leaf_info: Vec<LeafInfo>,
    /// Polygons reaching leaves, per space (after all splits).
    pub polygons_after: Vec<usize>,
    /// Each leaf's cell, when kept (for filling the outside).
    pub cells: Option<Vec<Cell>>,
    /// Half side of the squares used to cut cells.
    pub half: f64,
    /// Scratch: the last node that looked at each plane (candidate deduplication).
    seen: Vec<u32>,
    visits: u32,
    ancestors: Vec<Plane>,
}

/// What the compiler knows about a leaf.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LeafInfo {
    pub zero_volume: bool,
    pub point: glam::DVec3,
}

impl<'a> Builder<'a> {
    pub fn new(
        spaces: &'a [Space],
        planes: &'a [Plane],
        options: &'a CompileOptions,
        bounds: Aabb,
    ) -> Builder<'a> {
        Builder {
            spaces,
            planes,
            options,
            nodes: Vec::new(),
            leaves: Vec::new(),
            leaf_info: Vec::new(),
            cells: options.fill_outside.then(Vec::new),
            polygons_after: vec![0; spaces.len()],
            half: cut_half(bounds),
            seen: vec![u32::MAX; planes.len()],
            visits: 0,
            ancestors: Vec::new(),
        }
    }

    /// Builds the subtree over `polygons` in `cell` (Listing 2).
    pub fn build(&mut self, polygons: Vec<BuildPolygon>, cell: Cell) -> NodeRef {
        let Some(splitter) = self.choose_splitter(&polygons) else {
            for p in &polygons {
                self.polygons_after[p.space as usize] += 1;
            }
            return self.leaf(&cell);
        };
        let plane = self.planes[splitter as usize];
        let (front, back) = partition(polygons, &plane, |p| p.plane == splitter);
        let (front_cell, back_cell) = cell.split(&plane, self.half);
        drop(cell);
        let index = self.nodes.len();
        self.nodes.push(PackedNode {
            plane: splitter,
            children: [0; 2],
        });
        self.ancestors.push(plane);
        let f = self.build(front, front_cell);
        self.ancestors.pop();
        self.ancestors.push(plane.flipped());
        let b = self.build(back, back_cell);
        self.ancestors.pop();
        self.nodes[index].children = [f.pack(), b.pack()];
        NodeRef::Node(index as u32)
    }

    /// A leaf: solidity from an interior point of its cell classified against each space
    /// (Listing 3; [`leaf_point`]), solid in every space for a cell without volume.
    fn leaf(&mut self, cell: &Cell) -> NodeRef {
        let (point, depth_inside) = leaf_point(cell, &self.ancestors).point();
        let zero_volume = depth_inside <= LEAF_MIN_DEPTH;
        let mask = if zero_volume {
            all_spaces(self.spaces.len())
        } else {
            solid_spaces(self.spaces, point, depth_inside)
        };
        let index = self.leaves.len() as u32;
        self.leaves.push(mask);
        if let Some(cells) = &mut self.cells {
            cells.push(cell.clone());
        }
        self.leaf_info.push(LeafInfo { zero_volume, point });
        NodeRef::Leaf(index)
    }

    /// The candidate plane with the lowest score (see [`CompileOptions`]), `None` when no polygon
    /// may split any more.
    fn choose_splitter(&mut self, polygons: &[BuildPolygon]) -> Option<u32> {
        self.visits += 1;
        let stamp = self.visits;
        let mut candidates: Vec<u32> = Vec::new();
        for p in polygons {
            if p.candidate && self.seen[p.plane as usize] != stamp {
                self.seen[p.plane as usize] = stamp;
                candidates.push(p.plane);
            }
        }
        if candidates.is_empty() {
            return None;
        }
        if candidates.len() == 1 {
            return Some(candidates[0]);
        }
        // Axial planes first: when there are more candidates than we score, keep every axial one
        // that fits, then sample the rest evenly (deterministic).
        let max = self.options.max_candidates.max(1);
        if candidates.len() > max {
            let (axial, other): (Vec<u32>, Vec<u32>) = candidates
                .iter()
                .partition(|&&c| self.planes[c as usize].is_axial());
            let mut picked = Vec::with_capacity(max);
            let sample = |list: &[u32], n: usize, out: &mut Vec<u32>| {
                if list.len() <= n {
                    out.extend_from_slice(list);
                } else {
                    for k in 0..n {
                        out.push(list[k * list.len() / n]);
                    }
                }
            };
            sample(&axial, max, &mut picked);
            let left = max - picked.len();
            sample(&other, left, &mut picked);
            candidates = picked;
        }
        let o = self.options;
        // A node of many polygons scores the candidates on an even sample of them: the counts
        // scale alike, and scoring all of them is what made the tree's cost grow faster than
        // its polygons (48 candidates times every polygon, at every level).
        let stride = polygons.len().div_ceil(SCORE_SAMPLE).max(1);
        let sample = || polygons.iter().step_by(stride);
        let total = sample().count() as f64;
        let mut best: Option<(f64, u32)> = None;
        for &c in &candidates {
            let plane = self.planes[c as usize];
            let (mut front, mut back, mut splits, mut coplanar) = (0usize, 0usize, 0usize, 0usize);
            for p in sample() {
                match classify(p, p.plane == c, &plane) {
                    PolygonSide::Front => front += 1,
                    PolygonSide::Back => back += 1,
                    PolygonSide::Coplanar => coplanar += 1,
                    PolygonSide::Straddle => splits += 1,
                }
            }
            let mut score = o.balance_weight * (front as f64 - back as f64).abs()
                + o.split_weight * splits as f64
                - o.coplanar_weight * coplanar as f64;
            if !plane.is_axial() {
                score += o.non_axial_penalty * total;
            }
            if best.is_none_or(|(s, _)| score < s) {
                best = Some((score, c));
            }
        }
        best.map(|(_, c)| c)
    }
}

/// The leaf cell a leaf's solidity is taken from, with its interior point and depth
/// ([`LeafCell::point`]).
pub(crate) enum LeafCell<'a> {
    /// The cell cut down the tree from the world box, with volume.
    InBox(&'a Cell, DVec3, f64),
    /// The cell recomputed from the ancestor planes inside a box beyond the world limit (Listing
    /// 4), for a cell without volume in the world box; it may have none there either.
    Beyond(Cell, DVec3, f64),
}

impl LeafCell<'_> {
    /// The cell's interior point and its depth inside the cell (at most [`LEAF_MIN_DEPTH`]: no
    /// volume).
    pub fn point(&self) -> (DVec3, f64) {
        match self {
            LeafCell::InBox(_, p, d) | LeafCell::Beyond(_, p, d) => (*p, *d),
        }
    }

    /// The cell.
    pub fn cell(&self) -> &Cell {
        match self {
            LeafCell::InBox(c, ..) => c,
            LeafCell::Beyond(c, ..) => c,
        }
    }

    /// True when the cell has no volume (the compiler makes such a leaf solid in every space).
    pub fn zero_volume(&self) -> bool {
        self.point().1 <= LEAF_MIN_DEPTH
    }
}

/// A leaf's cell and interior point (Listings 3-4): `cell` cut from the world box, or, when it has
/// no volume there, the cell of the `ancestors` (the planes down to the leaf, each facing the
/// leaf's side) inside a box beyond the world limit.
pub(crate) fn leaf_point<'a>(cell: &'a Cell, ancestors: &[Plane]) -> LeafCell<'a> {
    let (point, depth) = cell.interior_point();
    if depth > LEAF_MIN_DEPTH {
        return LeafCell::InBox(cell, point, depth);
    }
    let limit = 2.0 * WORLD_HALF_EXTENT;
    let mut planes: Vec<Plane> = ancestors.iter().map(|p| p.flipped()).collect();
    for n in [
        DVec3::X,
        DVec3::NEG_X,
        DVec3::Y,
        DVec3::NEG_Y,
        DVec3::Z,
        DVec3::NEG_Z,
    ] {
        planes.push(Plane::new(n, limit).expect("axial normals are unit"));
    }
    let beyond = Cell::from_planes(&planes, 8.0 * limit);
    let (point, depth) = beyond.interior_point();
    LeafCell::Beyond(beyond, point, depth)
}

/// The spaces a leaf's interior `point`, `depth` inside its cell, is solid in (Listing 3): inside
/// or on an expanded brush.
pub(crate) fn solid_spaces(spaces: &[Space], point: DVec3, depth: f64) -> u64 {
    let mut mask = 0u64;
    for (s, space) in spaces.iter().enumerate() {
        // A leaf thinner than the contact tolerance (a gap of 1e-9 between two brushes) is
        // classified within half its depth, so that its point is not taken for the brushes'
        // surface.
        if space.contains(point, CONTACT.min(0.5 * depth)) {
            mask |= 1 << s;
        }
    }
    mask
}

/// The half side of the squares that cut the cells of a tree over `bounds` (beyond any cell,
/// wherever the box lies: [`covering_half`]).
pub(crate) fn cut_half(bounds: Aabb) -> f64 {
    (bounds.size().max_element() * 4.0 + 1024.0).max(covering_half(bounds))
}

/// Listing 2's polygon distribution at a node splitting by `plane`: the polygons in front and
/// behind, straddling ones split with [`ONION_CUT`]; those `on_plane` or coplanar with it are
/// no longer candidates and go to the side they face.
pub(crate) fn partition(
    polygons: Vec<BuildPolygon>,
    plane: &Plane,
    on_plane: impl Fn(&BuildPolygon) -> bool,
) -> (Vec<BuildPolygon>, Vec<BuildPolygon>) {
    let mut front = Vec::new();
    let mut back = Vec::new();
    for p in polygons {
        match classify(&p, on_plane(&p), plane) {
            PolygonSide::Front => front.push(p),
            PolygonSide::Back => back.push(p),
            PolygonSide::Coplanar => {
                let p = BuildPolygon {
                    candidate: false,
                    ..p
                };
                if p.polygon.plane.normal().dot(plane.normal()) > 0.0 {
                    front.push(p);
                } else {
                    back.push(p);
                }
            }
            PolygonSide::Straddle => {
                let (b, f) = p.polygon.split_with(plane, ONION_CUT);
                if let Some(f) = f {
                    front.push(BuildPolygon::new(f, p.plane, p.space, p.candidate));
                }
                if let Some(b) = b {
                    back.push(BuildPolygon::new(b, p.plane, p.space, p.candidate));
                }
            }
        }
    }
    (front, back)
}

/// Listing 2's `classify_against_plane`: polygons on the splitter's plane-table entry
/// (`on_plane`) are coplanar by construction; others by their vertices with [`ONION_CUT`].
fn classify(p: &BuildPolygon, on_plane: bool, plane: &Plane) -> PolygonSide {
    if on_plane {
        return PolygonSide::Coplanar;
    }
    // The bounding sphere settles most polygons without looking at their vertices (the margin
    // covers the rounding of the sphere).
    let d = plane.signed_distance(p.centre);
    let margin = p.radius * (1.0 + SPHERE_GROWTH) + ONION_CUT + SPHERE_GROWTH;
    if d > margin {
        PolygonSide::Front
    } else if d < -margin {
        PolygonSide::Back
    } else {
        p.polygon.side_of(plane, ONION_CUT)
    }
}

/// The mask with a bit for each of `spaces` spaces.
pub(crate) fn all_spaces(spaces: usize) -> u64 {
    if spaces >= 64 {
        u64::MAX
    } else {
        (1u64 << spaces) - 1
    }
}
