//! Leaf adjacency: the portals of every space lie on a plane of the tree, inside both cells;
//! every portal is found from both cells; the adjacency is the brute-force one (every pair of
//! cells intersected); the flood over the portals reaches wherever a free straight move goes.

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::tolerance::{PLANE_THICKNESS, PORTAL_MIN_AREA};
use cspace_geom::{Aabb, Collider, DVec3, ExactCollider, Polygon, Shape, WithContext, World};
use cspace_nav::LeafGraph;
use cspace_onion::{CompileOptions, Pose, compile};

use crate::common::random_world;

/// The worlds: random boxes at two densities, and two rooms joined by a door.
fn worlds() -> Vec<(String, Arc<World>)> {
    let rooms = crate::common::boxes(&[
        ([-256.0, -128.0, -16.0], [256.0, 128.0, 0.0]),
        ([-256.0, -128.0, 128.0], [256.0, 128.0, 144.0]),
        ([-272.0, -128.0, -16.0], [-256.0, 128.0, 144.0]),
        ([256.0, -128.0, -16.0], [272.0, 128.0, 144.0]),
        ([-256.0, -144.0, -16.0], [256.0, -128.0, 144.0]),
        ([-256.0, 128.0, -16.0], [256.0, 144.0, 144.0]),
        // The wall between the rooms, with a door 64 wide and 96 high.
        ([-8.0, -128.0, 0.0], [8.0, -32.0, 128.0]),
        ([-8.0, 32.0, 0.0], [8.0, 128.0, 128.0]),
        ([-8.0, -32.0, 96.0], [8.0, 32.0, 128.0]),
    ]);
    vec![
        ("rooms".into(), rooms),
        ("random 30".into(), random_world(11, 30, 250.0)),
        ("random 60".into(), random_world(12, 60, 300.0)),
    ]
}

/// The spaces whose portals are checked: Quake's standing and crouching players and the plain
/// solid BSP (the point). (The sight cube's space has 1/32-wide slivers where a portal and the
/// brute-force clip below differ by more than the rounding bound, 2.7e-4 square units on a
/// 0.77-square-unit portal in "random 60"; the navigation builds no leaf graph of it.)
fn portal_poses() -> [Pose; 3] {
    [
        Pose::quake_standing(),
        Pose::quake_crouching(),
        Pose::point(),
    ]
}

fn graphs(world: &World) -> (cspace_onion::Compiled, Vec<LeafGraph>) {
    let compiled = compile(world, &portal_poses(), &CompileOptions::default()).unwrap();
    let graphs = (0..3)
        .map(|s| LeafGraph::build(&compiled.tree, world, s).unwrap())
        .collect();
    (compiled, graphs)
}

/// The largest distance of `p` outside the cell's faces (0 or less: inside).
fn outside(cell: &[Polygon], p: DVec3) -> f64 {
    cell.iter()
        .map(|f| f.plane.signed_distance(p))
        .fold(f64::NEG_INFINITY, f64::max)
}

#[test]
fn portals_lie_on_tree_planes_inside_both_cells_and_are_found_from_both() {
    for (name, world) in worlds() {
        let (compiled, graphs) = graphs(&world);
        let planes = compiled.tree.planes();
        for g in &graphs {
            assert!(g.one_sided().is_empty(), "{name}: {:?}", g.one_sided());
            assert!(
                !g.portals().is_empty(),
                "{name}: space {} has portals",
                g.space()
            );
            for (i, portal) in g.portals().iter().enumerate() {
                let [a, b] = portal.regions;
                assert!(a < b);
                let plane = portal.polygon.plane;
                let on_tree = planes.iter().any(|p| *p == plane || p.flipped() == plane);
                assert!(on_tree, "{name}: portal {i} is not on a plane of the tree");
                for &v in &portal.polygon.vertices {
                    assert!(plane.signed_distance(v).abs() <= PLANE_THICKNESS);
                    for r in [a, b] {
                        let d = outside(g.cell(r), v);
                        assert!(d <= PLANE_THICKNESS, "{name}: portal {i} {d} outside {r}");
                    }
                }
                // It faces out of `a`: a face of a's cell lies on its plane, facing the same way.
                let faces_out = g.cell(a).iter().any(|f| {
                    f.plane.normal().abs_diff_eq(plane.normal(), 1e-9)
                        && (f.plane.dist() - plane.dist()).abs() <= PLANE_THICKNESS
                });
                assert!(
                    faces_out,
                    "{name}: portal {i} does not face out of region {a}"
                );
                assert!(portal.polygon.area() >= PORTAL_MIN_AREA);
                // Listed with both regions.
                assert!(g.portals_of(a).contains(&(i as u32)));
                assert!(g.portals_of(b).contains(&(i as u32)));
                assert!(g.neighbours(a).contains(&b) && g.neighbours(b).contains(&a));
            }
        }
    }
}

/// The area of the part of `face` inside the closed cell (faces with outward planes).
fn area_inside(face: &Polygon, cell: &[Polygon]) -> f64 {
    let mut part = Some(face.clone());
    for f in cell {
        part = part.and_then(|p| p.clipped_behind_with(&f.plane, PLANE_THICKNESS));
    }
    part.map_or(0.0, |p| p.area())
}

fn cell_bounds(cell: &[Polygon]) -> Aabb {
    Aabb::from_points(cell.iter().flat_map(|f| f.vertices.iter().copied()))
}

#[test]
fn adjacency_is_the_brute_force_intersection_of_every_pair_of_cells() {
    for (name, world) in worlds() {
        let (_, graphs) = graphs(&world);
        for g in &graphs {
            let n = g.region_count() as u32;
            let bounds: Vec<Aabb> = (0..n).map(|r| cell_bounds(g.cell(r))).collect();
            let mut pairs = 0;
            for a in 0..n {
                for b in a + 1..n {
                    if !bounds[a as usize]
                        .loosened(PLANE_THICKNESS)
                        .intersects(&bounds[b as usize].loosened(PLANE_THICKNESS))
                    {
                        assert!(!g.neighbours(a).contains(&b));
                        continue;
                    }
                    let brute: f64 = g
                        .cell(a)
                        .iter()
                        .map(|f| area_inside(f, g.cell(b)))
                        .fold(0.0, f64::max);
                    let portal: f64 = g
                        .portals_of(a)
                        .iter()
                        .map(|&p| &g.portals()[p as usize])
                        .filter(|p| p.regions == [a, b])
                        .map(|p| p.polygon.area())
                        .sum();
                    let scale = brute.max(portal).max(1.0);
                    assert!(
                        (brute - portal).abs() <= 1e-6 * scale,
                        "{name} space {}: regions {a} {b}: brute force {brute}, portals {portal}",
                        g.space()
                    );
                    pairs += usize::from(portal > 0.0);
                }
            }
            assert_eq!(
                pairs * 2,
                (0..n).map(|r| g.neighbours(r).len()).sum::<usize>()
            );
        }
    }
}

#[test]
fn flood_reaches_every_region_a_free_straight_move_reaches() {
    for (name, world) in worlds() {
        let (_, graphs) = graphs(&world);
        let mut exact = WithContext::new(ExactCollider::new(world.clone()));
        let bounds = world.bounds().loosened(32.0);
        let mut rng = Rng::new(5);
        for (g, pose) in graphs.iter().zip(portal_poses()) {
            let shape = exact
                .prepare(&Shape::new_box(pose.mins, pose.maxs).unwrap())
                .unwrap();
            let floods: Vec<Vec<u32>> = (0..g.region_count() as u32).map(|r| g.flood(r)).collect();
            let mut checked = 0;
            while checked < 300 {
                let (a, b) = (rng.point_in(&bounds), rng.point_in(&bounds));
                let hit = exact.trace(&shape, a, b);
                if hit.start_solid() || hit.is_hit() {
                    continue;
                }
                let (ra, rb) = (g.region_at(a).unwrap(), g.region_at(b).unwrap());
                assert!(
                    floods[ra as usize].binary_search(&rb).is_ok(),
                    "{name} {}: {a} -> {b} is free, regions {ra} -> {rb} not flooded",
                    pose.name
                );
                checked += 1;
            }
            // A flood stays in its connected part: symmetric, and closed under neighbours.
            for (r, flood) in floods.iter().enumerate() {
                for &other in flood {
                    assert!(floods[other as usize].binary_search(&(r as u32)).is_ok());
                }
            }
        }
    }
}

#[test]
fn every_empty_leaf_has_the_region_whose_cell_holds_its_point() {
    for (name, world) in worlds() {
        let (compiled, graphs) = graphs(&world);
        let tree = &compiled.tree;
        for g in &graphs {
            for leaf in 0..tree.leaf_count() as u32 {
                let region = g.region_of_leaf(leaf);
                assert_eq!(
                    region.is_none(),
                    tree.leaf_is_solid(leaf, g.space()),
                    "{name}"
                );
                if let (Some(r), Some(p)) = (region, compiled.leaf_points[leaf as usize]) {
                    // Leaves near the box around the world may lie outside the cells' box.
                    if cell_bounds(g.cell(r)).loosened(1.0).contains_point(p) {
                        assert!(
                            outside(g.cell(r), p) <= PLANE_THICKNESS,
                            "{name}: leaf {leaf}"
                        );
                    }
                    assert_eq!(g.region_at(p), Some(r), "{name}: leaf {leaf} at {p}");
                }
            }
        }
    }
}

#[test]
fn a_leaf_graph_refuses_another_world_and_a_missing_space() {
    let (name, world) = worlds().remove(0);
    let (compiled, _) = graphs(&world);
    let other = random_world(1, 5, 100.0);
    assert!(matches!(
        LeafGraph::build(&compiled.tree, &other, 0),
        Err(cspace_nav::NavError::WorldMismatch { .. })
    ));
    let e = LeafGraph::build(&compiled.tree, &world, 3).unwrap_err();
    assert_eq!(
        e.to_string(),
        "pose index 3: the navigation graph has 3 poses",
        "{name}"
    );
}
