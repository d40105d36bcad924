//! The corpus maps (directory in `CSPACE_MAPS`): k-UDOPs around the spawn points hold no solid,
//! and the cache answers agents walking from the spawn points exactly as the exact backend.
//! Unset: the tests print `skipped: <test> (CSPACE_MAPS unset)` and pass; set but unreadable:
//! they fail.

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::{Aabb, Collider, DVec3, ExactCollider, Shape, WithContext, World};
use cspace_udop::CacheConfig;
use cspace_udop::cache::Margin;

use crate::conservative::{builders, sample};

/// A corpus map: file name, world, spawn origins.
type CorpusMap = (String, Arc<World>, Vec<DVec3>);

/// Every `.map` of the corpus (`cspace_corpus::maps`), or `None` when `CSPACE_MAPS` is unset.
fn corpus(test: &str) -> Option<Vec<CorpusMap>> {
    Some(
        cspace_corpus::maps(test)?
            .into_iter()
            .map(|m| (m.name, m.world, m.spawns))
            .collect(),
    )
}

/// Centres: the spawn points, and random points near them (or in the map's bounds).
fn centres(rng: &mut Rng, world: &World, spawns: &[DVec3], count: usize) -> Vec<DVec3> {
    (0..count)
        .map(|i| match spawns.get(i % spawns.len().max(1)) {
            Some(s) if i < spawns.len() => *s,
            Some(s) => *s + rng.unit_vector() * rng.range(0.0, 256.0),
            None => rng.point_in(&world.bounds()),
        })
        .collect()
}

#[test]
fn corpus_udops_hold_no_solid() {
    let Some(maps) = corpus("corpus_udops_hold_no_solid") else {
        return;
    };
    for (name, world, spawns) in &maps {
        if world.is_empty() {
            continue;
        }
        let mut exact = WithContext::new(ExactCollider::new(world.clone()));
        let point = exact.prepare(&Shape::POINT).unwrap();
        let mut rng = Rng::new(61);
        for mut builder in builders() {
            for centre in centres(&mut rng, world, spawns, 48) {
                let udop = builder.build(world, centre);
                let query = builder.query_box(centre);
                for _ in 0..20 {
                    let Some(p) = sample(&mut rng, &udop, &query) else {
                        break;
                    };
                    assert!(
                        !exact.is_solid(&point, p),
                        "{name} / {}: k-UDOP at {centre} holds {p}, which is in solid",
                        builder.directions().name()
                    );
                }
            }
        }
    }
}

/// Player boxes wander from the spawn points of every map (1,000 moves each, every tenth of zero
/// length, a point query every fiftieth), through the default cache (skin margin) and the
/// simulator's (no margin); every answer is the exact backend's, `==` on the whole `Hit`.
#[test]
fn corpus_cache_answers_as_the_exact_backend() {
    let Some(maps) = corpus("corpus_cache_answers_as_the_exact_backend") else {
        return;
    };
    let shape = Shape::new_box(
        DVec3::new(-16.0, -16.0, -24.0),
        DVec3::new(16.0, 16.0, 32.0),
    )
    .unwrap();
    let configs = [
        CacheConfig::default(),
        CacheConfig {
            margin: Margin::Units(0.0),
            ..CacheConfig::default()
        },
    ];
    let (mut moves, mut skipped) = (0u64, 0u64);
    for (name, world, spawns) in &maps {
        if world.is_empty() {
            continue;
        }
        for config in &configs {
            let mut cache = crate::common::exact_cache(world, config.clone());
            let mut exact = WithContext::new(ExactCollider::new(world.clone()));
            let reference = exact.prepare(&shape).unwrap();
            let prepared = cache.prepare(&shape).unwrap();
            let mut rng = Rng::new(62);
            let starts: Vec<DVec3> = if spawns.is_empty() {
                let bounds: Aabb = world.bounds();
                (0..4).map(|_| rng.point_in(&bounds)).collect()
            } else {
                spawns.iter().take(8).copied().collect()
            };
            for (id, start) in starts.into_iter().enumerate() {
                let mut position = start;
                let mut heading = rng.unit_vector();
                for i in 0..1000 {
                    if rng.next_f64() < 0.1 {
                        heading = rng.unit_vector();
                    }
                    let length = if i % 10 == 0 {
                        0.0
                    } else {
                        rng.range(0.0, 12.0)
                    };
                    let end = position + heading * length;
                    let before = cache.counters().certified;
                    let cached = cache.trace(&prepared, position, end);
                    let expected = exact.trace(&reference, position, end);
                    assert_eq!(
                        cached, expected,
                        "{name}: mover {id} from {position} to {end} ({config:?})"
                    );
                    skipped += cache.counters().certified - before;
                    moves += 1;
                    if i % 50 == 0 {
                        assert_eq!(
                            cache.is_solid(&prepared, position),
                            exact.is_solid(&reference, position),
                            "{name}: point query at {position}"
                        );
                    }
                    position = expected.end();
                    if expected.is_hit() {
                        heading = rng.unit_vector();
                    }
                }
            }
        }
    }
    assert!(skipped > moves / 4, "{skipped} of {moves} moves skipped");
    eprintln!("corpus cache: {moves} moves, {skipped} skipped");
}

/// Near the patches of `unvanquished_chasm.map` (12,872 facets at the default bound), the cache
/// answers as the exact backend with the pieces by their facets and by their curves: the player
/// box, 12 agents x 400 moves per configuration.
#[test]
fn chasm_cache_near_patches_answers_as_the_exact_backend() {
    let Some(map) = cspace_corpus::map(
        "chasm_cache_near_patches_answers_as_the_exact_backend",
        "unvanquished_chasm.map",
    ) else {
        return;
    };
    let [shape, ..] = cspace_geom::generate::agent_shapes();
    for (what, t) in crate::cache::wander_near_facets(&map.name, &map.world, &shape, 12, 400, 63) {
        assert!(t.skipped > t.moves / 10, "{what}: {t:?}");
        eprintln!("chasm near patches / {what}: {t:?}");
    }
}
