//! Bevel nodes add cells of no volume only: the bevelled trees (paper and exact) answer point and
//! ray queries (zero-size shapes) as the unbevelled tree does, and all of them as the onion
//! tree they came from and the exact backend.

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::{Collider, ExactCollider, Shape, WithContext};
use cspace_melax::compile::{PointSpace, compile_plain};
use cspace_melax::{BevelMode, MelaxCollider, MelaxTree};
use cspace_onion::CompileOptions;

use crate::common::{self, NamedWorld};

fn check(named: &NamedWorld, points: usize, rays: usize) {
    let world = &named.world;
    let plain = compile_plain(world, &CompileOptions::default()).unwrap();
    let trees: Vec<WithContext<MelaxCollider>> =
        [BevelMode::None, BevelMode::PAPER, BevelMode::Exact]
            .into_iter()
            .map(|mode| {
                let tree = MelaxTree::from_bsp(world, &PointSpace(&plain.tree), mode);
                tree.validate().unwrap();
                WithContext::new(MelaxCollider::new(world.clone(), Arc::new(tree)).unwrap())
            })
            .collect();
    let mut trees = trees;
    let mut exact = WithContext::new(ExactCollider::new(world.clone()));
    let point = exact.prepare(&Shape::POINT).unwrap();
    // Each tree's own prepared point (a prepared shape belongs to the collider that made it).
    let points_of: Vec<_> = trees
        .iter()
        .map(|t| t.prepare(&Shape::POINT).unwrap())
        .collect();
    let mut rng = Rng::new(7);
    let bounds = world.bounds().loosened(32.0);
    let mut solid = 0;
    for _ in 0..points {
        let p = rng.point_in(&bounds);
        let want = exact.is_solid(&point, p);
        assert_eq!(
            plain.tree.is_solid(0, p),
            want,
            "{}: onion tree at {p}",
            named.name
        );
        for (t, point) in trees.iter_mut().zip(&points_of) {
            assert_eq!(
                t.is_solid(point, p),
                want,
                "{}: {} at {p}",
                named.name,
                t.name()
            );
        }
        solid += usize::from(want);
    }
    assert!(
        solid > 0 && solid < points,
        "{}: {solid} of {points} points solid",
        named.name
    );
    for i in 0..rays {
        let start = rng.point_in(&bounds);
        let end = start + rng.unit_vector() * rng.range(1.0, 512.0);
        let hits: Vec<_> = trees
            .iter_mut()
            .zip(&points_of)
            .map(|(t, point)| t.trace(point, start, end))
            .collect();
        for h in &hits[1..] {
            let context = || {
                format!(
                    "{} ray {i} {start} -> {end}: {:?} vs {h:?}",
                    named.name, hits[0]
                )
            };
            assert_eq!(
                (h.is_hit(), h.start_solid(), h.all_solid()),
                (hits[0].is_hit(), hits[0].start_solid(), hits[0].all_solid()),
                "{}",
                context()
            );
            assert!(
                (h.fraction() - hits[0].fraction()).abs() < 1e-9,
                "{}",
                context()
            );
        }
    }
}

#[test]
fn bevels_leave_points_and_rays_unchanged_in_generated_worlds() {
    for named in common::generated() {
        check(&named, 3000, 3000);
    }
}

#[test]
fn bevels_leave_points_and_rays_unchanged_on_the_corpus() {
    let Some(maps) = common::corpus("bevels_leave_points_and_rays_unchanged_on_the_corpus") else {
        return;
    };
    for named in maps.iter().filter(|m| !m.world.is_empty()) {
        check(named, 1000, 1000);
    }
}
