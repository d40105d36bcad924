//! k-UDOPs next to Quake III patches (seed 004, Section 3.3 in 3D over biquadratic pieces): the
//! bounding k-DOP of each piece, from its Section 3.3 distances, holds dense samples of the
//! analytic surface; k-UDOPs built next to patches hold no point of the surface (when pieces are
//! inserted by their curves) and no point of any facet (either way). The cache's agreement with
//! the exact backend near patches is `cache::wander_near_patches`; the corpus's is in `corpus`.

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::patch::PatchPiece;
use cspace_geom::tolerance::BEZIER_GAP;
use cspace_geom::{Aabb, DVec3, World};
use cspace_udop::{Directions, Geometry, PatchBound, Udop, UdopBuilder};

use crate::common;
use crate::conservative::builders;

/// Samples per side of a piece's parameter square.
const GRID: usize = 40;

/// `(GRID + 1)^2` points of the piece's surface, corners and borders included.
pub fn surface_samples(piece: &PatchPiece) -> Vec<DVec3> {
    (0..=GRID)
        .flat_map(|i| {
            (0..=GRID).map(move |j| piece.point(i as f64 / GRID as f64, j as f64 / GRID as f64))
        })
        .collect()
}

/// The vertices of a facet's flat brush and random points of the hull of the facet's vertices.
pub fn facet_samples(rng: &mut Rng, world: &World, piece: &PatchPiece, out: &mut Vec<DVec3>) {
    for facet in &piece.facets {
        let vertices = world.brush(facet.brush).brush.vertices();
        out.extend_from_slice(vertices);
        for _ in 0..8 {
            let weights: Vec<f64> = vertices.iter().map(|_| rng.next_f64()).collect();
            let total: f64 = weights.iter().sum();
            out.push(
                vertices
                    .iter()
                    .zip(&weights)
                    .fold(DVec3::ZERO, |sum, (v, w)| sum + *v * (w / total)),
            );
        }
    }
}

/// The bounds of the control net.
fn net_bounds(piece: &PatchPiece) -> Aabb {
    Aabb::from_points(piece.net.iter().flatten().copied())
}

#[test]
fn piece_kdops_hold_dense_samples_of_the_surface() {
    let world = common::random_patches().world;
    let directions = Directions::<DVec3>::standard(26).unwrap();
    let even = Directions::<DVec3>::evenly_spread(40).unwrap();
    let mut checked = 0;
    for piece in world.patch_pieces() {
        let samples = surface_samples(piece);
        let centre = net_bounds(piece).centre();
        for v in directions.vectors().iter().chain(even.vectors()) {
            // The side of the bounding k-DOP along v: the support of the surface, from the lower
            // bound of the distance along -v.
            let side = -piece.signed_distance(centre, -*v);
            let reach = samples
                .iter()
                .map(|p| (*p - centre).dot(*v))
                .fold(f64::NEG_INFINITY, f64::max);
            assert!(
                reach <= side + 1e-9,
                "a sample reaches {reach} along {v}, beyond the side at {side}"
            );
            // Tight: within the gap and the grid's reach of the farthest sample.
            let extent = net_bounds(piece).size().length();
            assert!(
                side - reach <= BEZIER_GAP + extent * 1e-3,
                "side {side} is {} beyond the farthest sample (piece {extent} across)",
                side - reach
            );
            checked += samples.len();
        }
    }
    assert!(checked > 1_000_000, "{checked}");
}

/// Centres within 48 units of a piece: k-UDOPs of every builder, with the pieces by their curves
/// and by their facets, hold no facet point; by their curves, no surface point either.
#[test]
fn udops_next_to_patches_hold_no_point_of_the_surface_or_the_facets() {
    let world = common::random_patches().world;
    let pieces = world.patch_pieces();
    let mut rng = Rng::new(71);
    let (mut surface_checked, mut facet_checked, mut degenerate) = (0usize, 0usize, 0usize);
    for patches in [PatchBound::Curves, PatchBound::Facets] {
        for builder in builders() {
            let mut builder = builder.with_patches(patches);
            for _ in 0..40 {
                let near = &pieces[rng.below(pieces.len())];
                let centre = rng.point_in(&net_bounds(near).loosened(48.0));
                let udop = builder.build(&world, centre);
                if !udop.contains_centre() {
                    degenerate += 1;
                }
                let query = builder.query_box(centre);
                for piece in pieces {
                    if !net_bounds(piece).intersects(&query) {
                        continue;
                    }
                    if patches == PatchBound::Curves {
                        for p in surface_samples(piece) {
                            assert_outside(&udop, p, "surface", &builder);
                            surface_checked += 1;
                        }
                    }
                    let mut samples = Vec::new();
                    facet_samples(&mut rng, &world, piece, &mut samples);
                    for p in samples {
                        assert_outside(&udop, p, "facet", &builder);
                        facet_checked += 1;
                    }
                }
            }
        }
    }
    eprintln!(
        "next to patches: {surface_checked} surface points, {facet_checked} facet points, \
         {degenerate} degenerate k-UDOPs"
    );
    assert!(surface_checked > 500_000 && facet_checked > 500_000);
}

fn assert_outside(udop: &Udop<DVec3>, p: DVec3, what: &str, builder: &UdopBuilder) {
    assert!(
        !udop.contains_point(p),
        "{} / {:?}: the k-UDOP at {} holds the {what} point {p}",
        builder.directions().name(),
        builder.patches(),
        udop.centre()
    );
}

/// The curves give no looser k-UDOPs than the facets, less the guard: a piece's surface bound
/// is at most its facets' (every facet vertex is a surface point, up to the weld), so no side of
/// a k-UDOP built from the curves passes where the facets' stops.
#[test]
fn curves_bound_every_facet_of_their_piece() {
    let world = common::random_patches().world;
    let directions = Arc::new(Directions::<DVec3>::standard(26).unwrap());
    let mut rng = Rng::new(72);
    for piece in world.patch_pieces() {
        let centre = rng.point_in(&net_bounds(piece).loosened(64.0));
        for v in directions.vectors() {
            let curve = piece.signed_distance(centre, *v);
            for facet in &piece.facets {
                let flat = world.brush(facet.brush).brush.signed_distance(centre, *v);
                assert!(
                    curve - cspace_udop::world::PIECE_GUARD <= flat,
                    "along {v}: the curve's bound {curve} is beyond a facet's {flat}"
                );
            }
        }
    }
}
