//! One collider, many threads: every backend is `Send + Sync`, answers from `&self` with a
//! context per thread, and gives each thread the answers it gives one thread alone.

use std::sync::Arc;

use cspace_geom::generate::{RandomBoxes, free_segments};
use cspace_geom::{Collider, ExactCollider, QueryContext, QueryCounters, Shape};
use cspace_melax::MelaxCollider;
use cspace_onion::OnionCollider;
use cspace_sim::backend::BackendKind;
use cspace_udop::UdopCache;

fn send_and_sync<T: Send + Sync + ?Sized>() {}

#[test]
fn every_backend_is_send_and_sync() {
    send_and_sync::<ExactCollider>();
    send_and_sync::<OnionCollider>();
    send_and_sync::<MelaxCollider>();
    send_and_sync::<UdopCache>();
    send_and_sync::<dyn Collider>();
    send_and_sync::<QueryContext>();
}

#[test]
fn threads_sharing_one_collider_get_the_answers_of_one_thread() {
    let world = Arc::new(
        RandomBoxes {
            count: 60,
            ..RandomBoxes::BENCHMARK
        }
        .world(),
    );
    let player = Shape::new_box((-16.0, -16.0, -24.0).into(), (16.0, 16.0, 32.0).into()).unwrap();
    let segments = free_segments(&world, &player, &world.bounds(), 2000, (10.0, 120.0), 5);
    for kind in BackendKind::ALL {
        let collider = kind
            .build_for(&world, std::slice::from_ref(&player))
            .unwrap()
            .expect("every backend takes a box");
        let prepared = collider.prepare(&player).unwrap();
        let mut alone = QueryContext::new();
        let expected: Vec<_> = segments
            .iter()
            .map(|&(a, b)| collider.trace(&mut alone, &prepared, a, b))
            .collect();
        // Four threads, each its own context, all on one collider; their counters add up to the
        // lone thread's.
        let (answers, counters) = std::thread::scope(|s| {
            let threads: Vec<_> = segments
                .chunks(500)
                .map(|chunk| {
                    let (collider, prepared) = (&collider, &prepared);
                    s.spawn(move || {
                        let mut ctx = QueryContext::new();
                        let hits: Vec<_> = chunk
                            .iter()
                            .map(|&(a, b)| collider.trace(&mut ctx, prepared, a, b))
                            .collect();
                        (hits, ctx.counters)
                    })
                })
                .collect();
            let mut answers = Vec::new();
            let mut counters = QueryCounters::default();
            for t in threads {
                let (hits, c) = t.join().unwrap();
                answers.extend(hits);
                counters += c;
            }
            (answers, counters)
        });
        assert_eq!(answers, expected, "{}", kind.name());
        // Every backend counts the same work however it is split; the k-UDOP cache's cells
        // were built by the lone thread's queries, which the four threads then share, so only
        // the builds differ.
        let built = |c: QueryCounters| QueryCounters {
            cache_rebuilds: 0,
            cache_build_nanos: 0,
            ..c
        };
        assert_eq!(built(counters), built(alone.counters), "{}", kind.name());
        if kind == BackendKind::UdopExact {
            assert!(alone.counters.cache_rebuilds > 0 && counters.cache_rebuilds == 0);
            assert!(alone.counters.certified > 0, "{}", alone.counters);
        }
        assert!(
            alone.counters.hits > 0,
            "{}: {}",
            kind.name(),
            alone.counters
        );
    }
}
