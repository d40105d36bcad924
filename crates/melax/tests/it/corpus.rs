//! The paper's bevels are an approximation for spheres and cylinders: the error against the exact
//! backend is measured here (and tabled in docs/melax.md by `melax-report`), and what can be
//! justified is asserted: plane shifting with the true support keeps every shifted cell around the
//! cell's Minkowski sum with the shape, so the backend is conservative (it never lets a shape
//! further than the exact one: nothing tunnels). Bevels only trim, so they never add a hit.

use std::sync::Arc;

use cspace_geom::generate::free_moves;
use cspace_geom::{DVec3, ExactCollider, QueryContext, Shape};
use cspace_melax::compile::{PointSpace, compile_plain};
use cspace_melax::measure::compare;
use cspace_melax::{BevelMode, MelaxCollider, MelaxTree};
use cspace_onion::CompileOptions;

use crate::common::{self, NamedWorld};

fn measure(named: &NamedWorld, count: usize) {
    let world = &named.world;
    let plain = compile_plain(world, &CompileOptions::default()).unwrap();
    let shapes = [
        Shape::new_sphere(16.0).unwrap(),
        Shape::new_cylinder(16.0, 28.0).unwrap(),
    ];
    let exact = ExactCollider::new(world.clone());
    for (k, shape) in shapes.iter().enumerate() {
        let moves = free_moves(
            world,
            shape,
            &world.bounds(),
            count,
            (8.0, 256.0),
            0.5,
            40 + k as u64,
        );
        let mut walls = Vec::new();
        for mode in [BevelMode::None, BevelMode::PAPER] {
            let tree = MelaxTree::from_bsp(world, &PointSpace(&plain.tree), mode);
            let melax = MelaxCollider::new(world.clone(), Arc::new(tree)).unwrap();
            let report = compare(&mut QueryContext::new(), &melax, &exact, shape, &moves);
            eprintln!(
                "{} {} bevel {}: {} traces, hit/miss differs {:.2}%, invisible walls {} (worst {:.2} u), toi diff p50 {:.3} p99 {:.3} max {:.3} u, tunnels {}",
                named.name,
                shape.describe(),
                mode.describe(),
                report.traces,
                100.0 * report.hit_differs_share(),
                report.invisible_walls,
                report.worst_invisible_wall,
                report.toi_quantile(0.5),
                report.toi_quantile(0.99),
                report.toi_quantile(1.0),
                report.tunnels
            );
            // A start free for the exact shape may be inside the approximate one (a phantom
            // start in solid, counted in the table): that is the approximation, not a tunnel.
            assert_eq!(
                report.tunnels,
                0,
                "{} {}: the shape went further than the exact one",
                named.name,
                mode.describe()
            );

            assert!(
                report.toi_quantile(0.0) >= -1e-6,
                "{}: a hit later than the exact one",
                named.name
            );
            walls.push(report.invisible_walls);
        }
        assert!(
            walls[1] <= walls[0],
            "{}: bevels added invisible walls {walls:?}",
            named.name
        );
    }
}

#[test]
fn paper_bevels_are_conservative_in_generated_worlds() {
    for named in common::generated() {
        measure(&named, 400);
    }
}

#[test]
fn paper_bevels_are_conservative_on_the_corpus() {
    let Some(maps) = common::corpus("paper_bevels_are_conservative_on_the_corpus") else {
        return;
    };
    for named in maps.iter().filter(|m| !m.world.is_empty()) {
        measure(named, 150);
    }
}

/// Section 8 reports bevelled trees 2 to 2.5 times the plain size; the target here is at most 2
/// on E1M1 with the paper's 90 degrees.
#[test]
fn e1m1_paper_tree_is_at_most_twice_the_plain_tree() {
    let Some(maps) = common::corpus("e1m1_paper_tree_is_at_most_twice_the_plain_tree") else {
        return;
    };
    let e1m1 = maps
        .iter()
        .find(|m| m.name == "quake_e1m1.map")
        .expect("quake_e1m1.map in the corpus");
    let plain = compile_plain(&e1m1.world, &CompileOptions::default()).unwrap();
    let none = MelaxTree::from_bsp(&e1m1.world, &PointSpace(&plain.tree), BevelMode::None);
    let paper = MelaxTree::from_bsp(&e1m1.world, &PointSpace(&plain.tree), BevelMode::PAPER);
    let growth = paper.stats().size() as f64 / none.stats().size() as f64;
    eprintln!(
        "E1M1: plain {} nodes, paper {} nodes ({growth:.2}x)",
        none.node_count(),
        paper.node_count()
    );
    assert!(growth <= 2.0, "E1M1 grew {growth:.2} times");
    let _ = DVec3::ZERO;
}
