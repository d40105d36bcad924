//! The corpus maps (directory in `CSPACE_MAPS`): every map compiles for the three Quake poses,
//! passes the validator and the nesting invariant on every leaf, and answers random box traces as the exact
//! backend. `CSPACE_ONION_CORPUS_TRACES` sets the traces per map and pose (default 300).
//! Unset `CSPACE_MAPS`: the tests print `skipped: <test> (CSPACE_MAPS unset)` and pass; set but
//! unreadable: they fail.

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::{Collider, DVec3, ExactCollider, WithContext, World};

use cspace_onion::{CompileOptions, FillOutcome, OnionCollider, OnionTree, VerifyOptions, compile};

use crate::common::{assert_agrees, compare_with, contact_scale, differ, quake_poses, shape};

/// The validator's invariants on a compiled tree, among them the nesting invariant on every leaf
/// (solid for a smaller box implies solid for a larger one: crouching, standing, large), and the
/// tree verified against its world.
fn valid_and_verified(name: &str, world: &Arc<World>, tree: &OnionTree) {
    if let Err(e) = tree.validate() {
        panic!("{name}: {e}");
    }
    match tree.verify(world, &VerifyOptions::default()) {
        Ok(report) => eprintln!("{name}: verified {report:?}"),
        Err(e) => panic!("{name}: {e}"),
    }
}

/// A corpus map: file name, world, spawn origins.
pub type CorpusMap = (String, Arc<World>, Vec<DVec3>);

/// Every `.map` of the corpus (`cspace_corpus::maps`), or `None` when `CSPACE_MAPS` is unset.
pub fn corpus(test: &str) -> Option<Vec<CorpusMap>> {
    Some(
        cspace_corpus::maps(test)?
            .into_iter()
            .map(|m| (m.name, m.world, m.spawns))
            .collect(),
    )
}

fn trace_count() -> usize {
    std::env::var("CSPACE_ONION_CORPUS_TRACES")
        .ok()
        .map(|v| v.parse().expect("CSPACE_ONION_CORPUS_TRACES is a count"))
        .unwrap_or(300)
}

#[test]
fn corpus_maps_agree_with_exact() {
    let Some(maps) = corpus("corpus_maps_agree_with_exact") else {
        return;
    };
    let count = trace_count();
    let mut failed = Vec::new();
    for (i, (name, world, _)) in maps.iter().enumerate() {
        let t = std::time::Instant::now();
        let poses = quake_poses();
        let compiled = compile(world, &poses, &CompileOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        eprintln!("{name}: {}", compiled.stats);
        valid_and_verified(name, world, &compiled.tree);
        let tally = compare_with(world, compiled, &poses, count, 100 + i as u64);
        eprintln!("{name}: {:.2} s", t.elapsed().as_secs_f64());
        if std::panic::catch_unwind(|| assert_agrees(name, &tally)).is_err() {
            failed.push(name.clone());
        }
    }
    assert!(failed.is_empty(), "disagreements on {failed:?}");
}

/// `unvanquished_chasm.map` with its 266 collidable patches (12,872 facets at the default error
/// bound) against the exact backend: `CSPACE_ONION_PATCH_TRACES` traces per pose (default
/// 34,000, so 102,000 over the three poses), a third starting on a face of an expanded brush,
/// most of which are facets.
#[test]
fn chasm_patches_agree_with_exact() {
    let Some(maps) = corpus("chasm_patches_agree_with_exact") else {
        return;
    };
    let (name, world, _) = maps
        .iter()
        .find(|(name, _, _)| name == "unvanquished_chasm.map")
        .expect("the corpus has chasm");
    let facets = world.brushes().iter().filter(|b| b.brush.is_flat()).count();
    assert!(facets > 10_000, "{facets} facets");
    let count = std::env::var("CSPACE_ONION_PATCH_TRACES")
        .ok()
        .map(|v| v.parse().expect("CSPACE_ONION_PATCH_TRACES is a count"))
        .unwrap_or(34_000);
    let poses = quake_poses();
    let compiled = compile(world, &poses, &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    eprintln!("{name}: {}", compiled.stats);
    // The same tree is verified by `corpus_maps_agree_with_exact` (25 s in the dev profile).
    if let Err(e) = compiled.tree.validate() {
        panic!("{name}: {e}");
    }
    let tally = compare_with(world, compiled, &poses, count, 7);
    assert_agrees(name, &tally);
    assert!(tally.hits * 50 > tally.traces, "{} hits", tally.hits);
}

/// The largest map the fill test compiles, in brushes.
const FILL_MAX_BRUSHES: usize = 1500;

/// Maps with spawn points (up to [`FILL_MAX_BRUSHES`] brushes) compiled with the outside filled: the nesting invariant still holds,
/// and moves from the spawn points answer as the exact backend (they stay inside).
#[test]
fn filled_corpus_maps_answer_moves_from_spawn_points_as_exact() {
    let Some(maps) = corpus("filled_corpus_maps_answer_moves_from_spawn_points_as_exact") else {
        return;
    };
    let mut filled_maps = 0;
    let (mut walked, mut excluded) = (0, 0);
    for (name, world, spawns) in &maps {
        if spawns.is_empty() {
            continue;
        }
        // The largest maps are compiled (without the fill) by the agreement test already; here
        // they would double the suite's time.
        if world.len() > FILL_MAX_BRUSHES {
            eprintln!(
                "{name}: fill not tested ({} brushes > {FILL_MAX_BRUSHES})",
                world.len()
            );
            continue;
        }
        let poses = quake_poses();
        let options = CompileOptions {
            fill_outside: true,
            spawn_points: spawns.clone(),
            ..CompileOptions::default()
        };
        let compiled = compile(world, &poses, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        eprintln!(
            "{name}: {} fill {:?}",
            compiled.stats, compiled.stats.outside_fill
        );
        valid_and_verified(name, world, &compiled.tree);
        filled_maps += usize::from(
            compiled
                .stats
                .outside_fill
                .iter()
                .any(|o| matches!(o, FillOutcome::Filled { .. })),
        );
        let mut onion = WithContext::new(
            OnionCollider::from_compiled(world.clone(), compiled)
                .expect("the tree was compiled from this world"),
        );
        let mut exact = WithContext::new(ExactCollider::new(world.clone()));
        let mut rng = Rng::new(5);
        for pose in &poses {
            let (o, e) = (
                onion.prepare(&shape(pose)).unwrap(),
                exact.prepare(&shape(pose)).unwrap(),
            );
            // Random walks from each spawn point: every move starts where the last one ended, so
            // it stays in space reachable from the spawn point.
            for (i, &spawn) in spawns.iter().enumerate().take(8) {
                let mut a = spawn;
                for _ in 0..40 {
                    let b = a + rng.unit_vector() * rng.range(1.0, 96.0);
                    let (x, y) = (onion.trace(&o, a, b), exact.trace(&e, a, b));
                    if differ(&x, &y).is_some() && contact_scale(world, &shape(pose), a, b) {
                        excluded += 1;
                        break;
                    }
                    assert_eq!(
                        differ(&x, &y),
                        None,
                        "{name} {} spawn {i} {a} -> {b}: {x:?} {y:?}",
                        pose.name
                    );
                    walked += 1;
                    if y.start_solid() {
                        break;
                    }
                    a = y.end();
                }
            }
        }
    }
    eprintln!(
        "{walked} moves agree, {excluded} excluded (contact scale: a spawn point touching two surfaces)"
    );
    assert!(filled_maps > 0, "no corpus map was sealed");
}
