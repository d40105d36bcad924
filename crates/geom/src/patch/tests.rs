use glam::DVec3;

use super::*;
use crate::Brush;
use crate::generate::Rng;

fn grid(rows: usize, columns: usize, f: impl Fn(usize, usize) -> DVec3) -> ControlGrid {
    let points = (0..rows)
        .flat_map(|r| (0..columns).map(move |c| (r, c)))
        .map(|(r, c)| f(r, c))
        .collect();
    ControlGrid::new(rows, columns, points).unwrap()
}

fn random_grid(rng: &mut Rng, rows: usize, columns: usize, scale: f64) -> ControlGrid {
    let origin = DVec3::new(
        rng.range(-200.0, 200.0),
        rng.range(-200.0, 200.0),
        rng.range(-200.0, 200.0),
    );
    let mut points = Vec::new();
    for r in 0..rows {
        for c in 0..columns {
            let base = DVec3::new(r as f64 * scale, c as f64 * scale, 0.0);
            points.push(origin + base + rng.unit_vector() * rng.range(0.0, scale));
        }
    }
    ControlGrid::new(rows, columns, points).unwrap()
}

fn options(max_error: f64) -> TessellationOptions {
    TessellationOptions::new(max_error).unwrap()
}

#[test]
fn bad_grids_and_bounds_are_refused() {
    let p = vec![DVec3::ZERO; 12];
    assert_eq!(
        ControlGrid::new(3, 4, p.clone()).unwrap_err(),
        PatchError::Size {
            rows: 3,
            columns: 4
        }
    );
    assert_eq!(
        ControlGrid::new(1, 3, vec![DVec3::ZERO; 3]).unwrap_err(),
        PatchError::Size {
            rows: 1,
            columns: 3
        }
    );
    assert_eq!(
        ControlGrid::new(3, 3, p).unwrap_err(),
        PatchError::PointCount {
            rows: 3,
            columns: 3,
            found: 12
        }
    );
    let mut p = vec![DVec3::ZERO; 15];
    p[7] = DVec3::new(0.0, f64::NAN, 0.0);
    assert_eq!(
        ControlGrid::new(5, 3, p.clone()).unwrap_err(),
        PatchError::NonFinite { row: 2, column: 1 }
    );
    p[7] = DVec3::new(0.0, 3e6, 0.0);
    assert!(matches!(
        ControlGrid::new(5, 3, p).unwrap_err(),
        PatchError::OutOfWorld {
            row: 2,
            column: 1,
            ..
        }
    ));
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            TessellationOptions::new(bad),
            Err(PatchError::ErrorBound { .. })
        ));
    }
    assert_eq!(
        PatchError::Size {
            rows: 4,
            columns: 3
        }
        .to_string(),
        "patch is 4 x 3 control points; both sides must be odd and at least 3 (biquadratic \
         pieces share their border rows)"
    );
}

#[test]
fn curves_give_the_same_bits_both_ways_at_binary_fractions() {
    let mut rng = Rng::new(5);
    for _ in 0..1000 {
        let p = [0, 1, 2].map(|_| rng.unit_vector() * rng.range(0.0, 5000.0));
        let level = rng.below(12) as i32;
        let k = rng.below((1 << level) + 1) as f64;
        let t = k * 0.5f64.powi(level);
        let forward = eval_curve(p, t);
        let backward = eval_curve([p[2], p[1], p[0]], 1.0 - t);
        assert_eq!(
            forward.to_array().map(f64::to_bits),
            backward.to_array().map(f64::to_bits),
            "{p:?} at {t}"
        );
    }
}

#[test]
fn piece_borders_are_their_curves_exactly() {
    let mut rng = Rng::new(6);
    let g = random_grid(&mut rng, 3, 3, 40.0);
    let net = g.piece([0, 0]);
    for k in 0..=8 {
        let x = k as f64 / 8.0;
        assert_eq!(eval_piece(&net, 0.0, x), eval_curve(net[0], x));
        assert_eq!(eval_piece(&net, 1.0, x), eval_curve(net[2], x));
        let column = |b: usize| [net[0][b], net[1][b], net[2][b]];
        assert_eq!(eval_piece(&net, x, 0.0), eval_curve(column(0), x));
        assert_eq!(eval_piece(&net, x, 1.0), eval_curve(column(2), x));
    }
}

/// The largest distance, at equal parameters, between the surface and the facets of its cell:
/// the bilinear patch of the cell's corners for a quadrilateral (or a triangle whose fourth
/// corner was welded onto another), the linear interpolation of its three corners for one of
/// two triangles. This is what [`Facet::error_bound`] bounds, both ways.
fn parametric_error(g: &ControlGrid, t: &PatchTessellation) -> f64 {
    let mut worst: f64 = 0.0;
    let mut excess: f64 = f64::NEG_INFINITY;
    let n = 10;
    for facet in &t.facets {
        let net = g.piece(facet.piece.map(|x| x as usize));
        let [[s0, s1], [t0, t1]] = facet.cell;
        let corner_params = [(s0, t0), (s0, t1), (s1, t1), (s1, t0)];
        let corners = corner_params.map(|(s, t)| eval_piece(&net, s, t));
        let matches = |v: DVec3| -> Vec<usize> {
            (0..4)
                .filter(|&k| corners[k].abs_diff_eq(v, 1e-6))
                .collect()
        };
        let whole =
            facet.vertices.len() == 4 || facet.vertices.iter().any(|&v| matches(v).len() > 1);
        for a in 0..=n {
            for b in 0..=n {
                let (x, y) = (a as f64 / n as f64, b as f64 / n as f64);
                let (p, s, t) = if whole {
                    let p = (corners[0] * (1.0 - y) + corners[1] * y) * (1.0 - x)
                        + (corners[3] * (1.0 - y) + corners[2] * y) * x;
                    (p, s0 + (s1 - s0) * x, t0 + (t1 - t0) * y)
                } else {
                    if a + b > n {
                        continue;
                    }
                    let w = [1.0 - x - y, x, y];
                    let mut p = DVec3::ZERO;
                    let (mut s, mut t) = (0.0, 0.0);
                    for (k, &v) in facet.vertices.iter().enumerate() {
                        let corner = matches(v)[0];
                        p += v * w[k];
                        s += corner_params[corner].0 * w[k];
                        t += corner_params[corner].1 * w[k];
                    }
                    (p, s, t)
                };
                let d = eval_piece(&net, s, t).distance(p);
                worst = worst.max(d);
                excess = excess.max(d - facet.error_bound);
            }
        }
    }
    // Each facet within its own bound.
    assert!(excess <= 1e-9, "a facet is {excess} beyond its bound");
    worst
}

#[test]
fn facets_stay_within_the_bound_both_ways() {
    let mut rng = Rng::new(7);
    let mut checked = 0;
    for round in 0..24 {
        let (rows, columns) = ([3, 5, 7][round % 3], [3, 5][round % 2]);
        let scale = rng.range(10.0, 120.0);
        let g = random_grid(&mut rng, rows, columns, scale);
        let max_error = [4.0, 1.0, 0.25][round % 3];
        let t = &tessellate(std::slice::from_ref(&g), &options(max_error)).unwrap()[0];
        assert!(!t.facets.is_empty());
        assert!(
            t.error_bound <= max_error,
            "{} > {max_error}",
            t.error_bound
        );
        for f in &t.facets {
            assert!(f.error_bound <= t.error_bound);
            Brush::from_polygon(&f.vertices).unwrap_or_else(|e| panic!("{e}: {f:?}"));
        }
        // Surface to facets (nearest facet of the cell), and both ways at equal parameters.
        let measured = measured_error(&g, t, 9);
        assert!(measured <= max_error, "{measured} > {max_error}");
        let parametric = parametric_error(&g, t);
        assert!(parametric <= max_error + 1e-9, "{parametric} > {max_error}");
        assert!(measured <= parametric + 1e-9);
        checked += t.facets.len();
    }
    assert!(checked > 2000, "{checked}");
}

#[test]
fn a_tighter_bound_makes_more_facets_and_a_smaller_error() {
    let mut rng = Rng::new(8);
    let g = random_grid(&mut rng, 5, 5, 64.0);
    let coarse = &tessellate(std::slice::from_ref(&g), &options(8.0)).unwrap()[0];
    let fine = &tessellate(std::slice::from_ref(&g), &options(0.5)).unwrap()[0];
    assert!(fine.facets.len() > 4 * coarse.facets.len());
    assert!(measured_error(&g, fine, 8) < measured_error(&g, coarse, 8));
    // Quake III's flatness of 16 measured on this surface is well above our bound.
    assert!(measured_error(&g, coarse, 8) > 0.5);
}

#[test]
fn a_bilinear_patch_is_one_quad_per_piece_with_no_error() {
    // Control points evenly spaced on a plane: the surface is the plane, linearly parametrised.
    let g = grid(5, 3, |r, c| {
        DVec3::new(16.0 * r as f64, 32.0 * c as f64, 8.0)
    });
    let t = &tessellate(std::slice::from_ref(&g), &options(0.01)).unwrap()[0];
    assert_eq!(t.facets.len(), 2);
    assert!(t.facets.iter().all(|f| f.vertices.len() == 4));
    assert_eq!(t.error_bound, 0.0);
    assert_eq!(t.grid, [3, 2]);
}

#[test]
fn a_cylinder_is_cut_around_and_not_along() {
    // A half cylinder of radius 64 along x, two quarter circles as quadratic pieces (the
    // standard Quake III arch: the middle control point at the corner of the square).
    let ring = [
        DVec3::new(0.0, 64.0, 0.0),
        DVec3::new(0.0, 64.0, 64.0),
        DVec3::new(0.0, 0.0, 64.0),
        DVec3::new(0.0, -64.0, 64.0),
        DVec3::new(0.0, -64.0, 0.0),
    ];
    let g = grid(3, 5, |r, c| ring[c] + DVec3::X * (128.0 * r as f64));
    let t = &tessellate(std::slice::from_ref(&g), &options(1.0)).unwrap()[0];
    // One cell along x (the rulings are straight and evenly spaced), several around.
    assert_eq!(t.grid[0], 2);
    assert!(t.grid[1] > 8, "{:?}", t.grid);
    // Cells of a cylinder are planar rectangles.
    assert!(t.facets.iter().all(|f| f.vertices.len() == 4));
    assert!(measured_error(&g, t, 8) <= 1.0);
}

#[test]
fn collapsed_rows_and_points_give_triangles_or_nothing() {
    // Row 0 collapsed to a point: a cone-like fan.
    let g = grid(3, 5, |r, c| {
        if r == 0 {
            DVec3::new(0.0, 0.0, 100.0)
        } else {
            DVec3::new(
                (c as f64 - 2.0) * 20.0,
                r as f64 * 30.0,
                (c as f64 * 7.0).sin() * 10.0,
            )
        }
    });
    let t = &tessellate(std::slice::from_ref(&g), &options(0.5)).unwrap()[0];
    assert!(!t.facets.is_empty());
    for f in &t.facets {
        Brush::from_polygon(&f.vertices).unwrap();
    }
    assert!(measured_error(&g, t, 8) <= 0.5);
    // Every control point the same: no facet at all, every cell degenerate.
    let point = grid(3, 3, |_, _| DVec3::splat(5.0));
    let t = &tessellate(std::slice::from_ref(&point), &options(0.5)).unwrap()[0];
    assert!(t.facets.is_empty());
    assert_eq!(t.degenerate_cells, 1);
    // Every control point on a line: no area.
    let line = grid(3, 5, |r, c| DVec3::X * (r as f64 * 3.0 + c as f64 * 5.0));
    let t = &tessellate(std::slice::from_ref(&line), &options(0.5)).unwrap()[0];
    assert!(t.facets.is_empty());
    assert!(t.degenerate_cells > 0);
    // A column of coincident control points in the middle of a row (a zero-length piece
    // border) still tessellates.
    let pinched = grid(3, 5, |r, c| {
        let x = if c == 2 { 0.0 } else { (c as f64 - 2.0) * 30.0 };
        DVec3::new(
            x,
            if c == 2 { 0.0 } else { r as f64 * 30.0 },
            (r * c) as f64,
        )
    });
    let t = &tessellate(std::slice::from_ref(&pinched), &options(0.5)).unwrap()[0];
    for f in &t.facets {
        Brush::from_polygon(&f.vertices).unwrap();
    }
}

/// The vertices of a tessellation that lie on a curve's points (bit for bit), in order along
/// the grid's border row or column.
fn border_vertices(t: &PatchTessellation, side: usize) -> Vec<[u64; 3]> {
    // Rebuild the vertex grid from the facets' corners: the grid is implied by the cells.
    let mut out: Vec<[u64; 3]> = t
        .facets
        .iter()
        .filter(|f| match side {
            0 => f.cell[0][0] == 0.0 && f.piece[0] == 0,
            _ => f.cell[1][0] == 0.0 && f.piece[1] == 0,
        })
        .flat_map(|f| f.vertices.iter().map(|v| v.to_array().map(f64::to_bits)))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Two patches sharing a border curve: `a`'s first row is `b`'s first column, reversed. They
/// bend differently, so each alone is cut differently along the curve.
fn neighbours(rng: &mut Rng) -> (ControlGrid, ControlGrid) {
    let a = random_grid(rng, 3, 5, 48.0);
    let shared: Vec<DVec3> = (0..5).map(|c| a.point(0, c)).rev().collect();
    let mut points = Vec::new();
    for &start in &shared {
        for c in 0..3 {
            points.push(if c == 0 {
                start
            } else {
                start + DVec3::new(0.0, -40.0 * c as f64, 30.0) + rng.unit_vector() * 60.0
            });
        }
    }
    (a, ControlGrid::new(5, 3, points).unwrap())
}

#[test]
fn patches_sharing_a_curve_share_its_vertices() {
    let mut rng = Rng::new(9);
    let mut differed_alone = 0;
    for _ in 0..20 {
        let (a, b) = neighbours(&mut rng);
        let on_curve = |t: &PatchTessellation, grid: &ControlGrid, side: usize| {
            // Vertices of the facets touching the shared border that lie on the shared curve.
            let curve: Vec<[DVec3; 3]> = if side == 0 {
                (0..2)
                    .map(|j| [0, 1, 2].map(|k| grid.point(0, 2 * j + k)))
                    .collect()
            } else {
                (0..2)
                    .map(|i| [0, 1, 2].map(|k| grid.point(2 * i + k, 0)))
                    .collect()
            };
            let mut v = border_vertices(t, side);
            v.retain(|bits| {
                let p = DVec3::from_array(bits.map(f64::from_bits));
                curve.iter().any(|c| {
                    (0..=1024).any(|k| eval_curve(*c, k as f64 / 1024.0).distance(p) < 1e-9)
                })
            });
            v
        };
        let together = tessellate(&[a.clone(), b.clone()], &options(0.5)).unwrap();
        let (va, vb) = (on_curve(&together[0], &a, 0), on_curve(&together[1], &b, 1));
        assert!(va.len() >= 3);
        assert_eq!(va, vb, "the shared curve's vertices differ");
        let alone_a = &tessellate(std::slice::from_ref(&a), &options(0.5)).unwrap()[0];
        let alone_b = &tessellate(std::slice::from_ref(&b), &options(0.5)).unwrap()[0];
        if on_curve(alone_a, &a, 0) != on_curve(alone_b, &b, 1) {
            differed_alone += 1;
        }
    }
    // The test means something: alone, most pairs would crack.
    assert!(differed_alone >= 10, "{differed_alone}");
}

#[test]
fn tessellation_is_deterministic() {
    let mut rng = Rng::new(10);
    let grids: Vec<ControlGrid> = (0..6).map(|_| random_grid(&mut rng, 5, 5, 30.0)).collect();
    let one = tessellate(&grids, &options(0.3)).unwrap();
    let two = tessellate(&grids, &options(0.3)).unwrap();
    assert_eq!(one, two);
}

#[test]
fn borders_written_with_float_rounding_are_welded_and_shared() {
    // The second patch's border is the first's as a 32-bit float writes it: off by up to 1.2e-4.
    let mut rng = Rng::new(12);
    let (a, b) = neighbours(&mut rng);
    let rounded: Vec<DVec3> = b
        .points()
        .iter()
        .map(|p| p.as_vec3().as_dvec3() + DVec3::splat(1e-4))
        .collect();
    let b = ControlGrid::new(5, 3, rounded).unwrap();
    let together = tessellate(&[a.clone(), b], &options(0.5)).unwrap();
    let shared_a = border_vertices(&together[0], 0);
    let shared_b = border_vertices(&together[1], 1);
    let common = shared_a.iter().filter(|v| shared_b.contains(v)).count();
    // Every vertex of the first's border row is one of the second's border column.
    let on_row: Vec<_> = shared_a
        .iter()
        .filter(|bits| {
            let p = DVec3::from_array(bits.map(f64::from_bits));
            (0..2).any(|j| {
                let curve = [0, 1, 2].map(|k| a.point(0, 2 * j + k));
                (0..=1024).any(|k| eval_curve(curve, k as f64 / 1024.0).distance(p) < 1e-9)
            })
        })
        .collect();
    assert!(on_row.len() >= 3);
    assert_eq!(common, on_row.len());
    // The second patch moved by its rounding, and its facets say so.
    assert!(together[1].error_bound > 0.0);
    assert!(together[1].facets.iter().all(|f| f.error_bound >= 1e-4));
}

#[test]
fn a_coordinate_shared_by_a_curve_is_exact_all_along() {
    // A cap's collapsed column and a curve in a plane x = const: the evaluation's rounding
    // would move them by an ulp.
    let apex = DVec3::new(63.9999694824, 0.0, 224.0);
    let arc = [
        DVec3::new(63.9999694824, -32.0, 288.0),
        DVec3::new(63.9999694824, 17.3, 101.1),
        DVec3::new(63.9999694824, 5.0, 0.3),
    ];
    for k in 0..=64 {
        let t = k as f64 / 64.0;
        assert_eq!(eval_curve([apex; 3], t), apex);
        assert_eq!(eval_curve(arc, t).x, 63.9999694824);
    }
}

#[test]
fn a_world_keeps_the_pieces_behind_its_facets() {
    let world = crate::generate::RandomPatches::TEST.world(&options(4.0));
    let pieces = world.patch_pieces();
    assert!(pieces.len() > 50, "{}", pieces.len());
    let facets = world.brushes().iter().filter(|b| b.brush.is_flat()).count();
    assert_eq!(
        pieces.iter().map(|p| p.facets.len()).sum::<usize>(),
        facets,
        "every facet belongs to one piece"
    );
    for (p, piece) in pieces.iter().enumerate() {
        assert!(piece.error_bound <= 4.0);
        for f in &piece.facets {
            assert_eq!(world.facet_piece(f.brush), Some(p));
        }
        // The corners of each cell are facet vertices: the surface there is on the facets.
        let measured = world.piece_error(piece, 5);
        assert!(
            measured <= piece.error_bound,
            "{measured} > {}",
            piece.error_bound
        );
    }
    let brush = world
        .brushes()
        .iter()
        .position(|b| !b.brush.is_flat())
        .unwrap();
    assert_eq!(world.facet_piece(crate::BrushId(brush as u32)), None);
    assert_eq!(world.facet_piece(crate::BrushId(u32::MAX)), None);
    // The brushes and their fingerprint are those of the bare world.
    let bare = crate::World::new(world.brushes().to_vec());
    assert_eq!(bare.fingerprint(), world.fingerprint());
    assert!(bare.patch_pieces().is_empty());
}

#[test]
fn pieces_that_do_not_fit_the_world_are_refused() {
    let world = crate::generate::RandomPatches::TEST.world(&options(8.0));
    let bare = || crate::World::new(world.brushes().to_vec());
    let piece = world.patch_pieces()[0].clone();
    let wall = world
        .brushes()
        .iter()
        .position(|b| !b.brush.is_flat())
        .unwrap();
    let with = |f: &dyn Fn(&mut PatchPiece)| {
        let mut p = piece.clone();
        f(&mut p);
        bare().with_patch_pieces(vec![p]).unwrap_err()
    };
    assert!(matches!(
        with(&|p| p.facets[0].brush = crate::BrushId(world.len() as u32)),
        PieceError::UnknownBrush { piece: 0, .. }
    ));
    assert!(matches!(
        with(&|p| p.facets[0].brush = crate::BrushId(wall as u32)),
        PieceError::NotAFacet { piece: 0, .. }
    ));
    assert!(matches!(
        with(&|p| p.facets.clear()),
        PieceError::Malformed { piece: 0, .. }
    ));
    assert!(matches!(
        with(&|p| p.net[1][1].x = f64::NAN),
        PieceError::Malformed { piece: 0, .. }
    ));
    let error = with(&|p| p.error_bound = -1.0);
    assert!(error.to_string().contains("error bound"), "{error}");
    let error = bare()
        .with_patch_pieces(vec![piece.clone(), piece.clone()])
        .unwrap_err();
    assert!(
        matches!(
            error,
            PieceError::SharedFacet {
                piece: 1,
                other: 0,
                ..
            }
        ),
        "{error}"
    );
}

/// The facet budget is counted while the cuts are refined: a patch past it is refused (the
/// patch, the count reached, the limit), one within it makes its facets, and the count is never
/// below the facets made.
#[test]
fn a_tessellation_past_the_facet_budget_is_refused_before_it_is_made() {
    let g = grid(5, 5, |i, j| {
        let z = if (i + j) % 2 == 0 {
            500_000.0
        } else {
            -500_000.0
        };
        DVec3::new(64.0 * i as f64, 64.0 * j as f64, z)
    });
    let bumpy = grid(3, 3, |i, j| {
        DVec3::new(
            64.0 * i as f64,
            64.0 * j as f64,
            if i == 1 && j == 1 { 96.0 } else { 0.0 },
        )
    });
    let over = tessellate(&[bumpy.clone(), g.clone()], &options(4.0)).unwrap_err();
    assert_eq!(over.patch, 1);
    assert_eq!(over.limit, crate::tolerance::MAX_PATCH_FACETS);
    assert!(over.facets > over.limit);
    let made = tessellate(std::slice::from_ref(&bumpy), &options(0.5)).unwrap()[0]
        .facets
        .len();
    let tight = options(0.5).with_max_facets(made - 1);
    let refused = tessellate(std::slice::from_ref(&bumpy), &tight).unwrap_err();
    assert!(
        refused.facets >= made && refused.limit == made - 1,
        "{refused}"
    );
    let enough = options(0.5).with_max_facets(made);
    assert_eq!(
        tessellate(std::slice::from_ref(&bumpy), &enough).unwrap()[0]
            .facets
            .len(),
        made
    );
}
