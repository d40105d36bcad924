//! The k-UDOPs of grid cells: the same bits whoever builds them and on any thread count, free of
//! solid as stored, and the cache's answers outside the world's bounds and in an empty world.

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::{Collider, DVec3, ExactCollider, QueryCounters, WithContext, World};
use cspace_udop::{CacheConfig, CellUdops, Directions, GridConfig, UdopBuilder};

use crate::common;

/// Every cell's stored distances, as bits (`None` for a cell not built).
fn bits(cells: &CellUdops) -> Vec<Option<Vec<u64>>> {
    (0..cells.cells())
        .map(|c| {
            cells
                .stored(c)
                .map(|u| u.distances().iter().map(|h| h.to_bits()).collect())
        })
        .collect()
}

fn grid(world: &World, k: usize, edge: f64) -> CellUdops {
    let directions = Arc::new(Directions::<DVec3>::standard(k).unwrap());
    let builder = UdopBuilder::new(directions, 64.0).unwrap();
    CellUdops::new(
        world,
        builder,
        GridConfig {
            edge,
            max_cells: 1 << 16,
        },
    )
    .unwrap()
}

/// Built all at once on 1, 2 and 3 threads, and lazily by four threads asking for the cells in
/// four different random orders (each with its own scratch and counters), the grids hold the
/// same bits in every cell; the lazy builds are counted once each over the four threads.
#[test]
fn cells_are_the_same_bits_whoever_builds_them() {
    let named = common::floors_and_walls();
    let world = &named.world;
    for k in [6, 26] {
        let reference = grid(world, k, 48.0);
        reference.build_all(world, 1);
        let expected = bits(&reference);
        assert!(expected.iter().all(Option::is_some));
        for threads in [2, 3] {
            let other = grid(world, k, 48.0);
            other.build_all(world, threads);
            assert!(bits(&other) == expected, "{k}-DOP on {threads} threads");
        }
        let lazy = grid(world, k, 48.0);
        let cells = lazy.cells();
        let counters = std::thread::scope(|s| {
            let workers: Vec<_> = (0..4u64)
                .map(|t| {
                    let lazy = &lazy;
                    s.spawn(move || {
                        let mut rng = Rng::new(t);
                        let mut order: Vec<usize> = (0..cells).collect();
                        for i in (1..order.len()).rev() {
                            order.swap(i, rng.below(i + 1));
                        }
                        let mut scratch = Default::default();
                        let mut counters = QueryCounters::default();
                        for cell in order {
                            lazy.ensure(world, cell, &mut scratch, &mut counters);
                        }
                        counters
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).fold(
                QueryCounters::default(),
                |mut a, c| {
                    a += c;
                    a
                },
            )
        });
        assert_eq!(counters.cache_rebuilds, cells as u64);
        assert!(
            bits(&lazy) == expected,
            "{k}-DOP built lazily on four threads"
        );
        let stats = lazy.stats();
        assert_eq!(stats.built, cells);
        assert!(stats.centred > cells / 4, "{stats:?}");
    }
}

/// Random points in the stored k-UDOPs of every cell (rounded inward, empty cells included) are
/// free for the exact backend's point query, and a cell's region is inside Algorithm 1's.
#[test]
fn stored_cells_hold_no_solid() {
    for named in [common::floors_and_walls(), common::convex_brushes()] {
        let world = &named.world;
        let mut exact = WithContext::new(ExactCollider::new(world.clone()));
        let point = exact.prepare(&cspace_geom::Shape::POINT).unwrap();
        let mut rng = Rng::new(5);
        for k in [6, 26] {
            let cells = grid(world, k, 64.0);
            cells.build_all(world, 2);
            let (mut inside, mut empty) = (0, 0);
            for cell in 0..cells.cells() {
                let stored = cells.stored(cell).unwrap();
                let built = cells
                    .builder()
                    .clone()
                    .build(world, cells.cell_centre(cell));
                for (q, h) in stored.distances().iter().zip(built.distances()) {
                    assert!(q <= h, "{}: cell {cell}: {q} > {h}", named.name);
                }
                if stored.distances().iter().all(|q| *q <= 0.0) {
                    empty += 1;
                }
                let centre = stored.centre();
                for _ in 0..8 {
                    let p = centre + rng.unit_vector() * rng.range(0.0, 64.0);
                    if stored.contains_point(p) {
                        inside += 1;
                        assert!(
                            !exact.is_solid(&point, p),
                            "{}: {p} in cell {cell}'s {k}-UDOP is solid",
                            named.name
                        );
                    }
                }
            }
            assert!(inside > 1000, "{}: {inside} points inside", named.name);
            eprintln!(
                "{} / {k}-DOP: {} cells, {empty} empty, {inside} points checked",
                named.name,
                cells.cells()
            );
        }
    }
}

/// A move that stays outside the bounds of every brush (falling past the edge of the world) is
/// certified, and answered as the exact backend answers it; in an empty world every move is.
#[test]
fn moves_outside_the_worlds_bounds_are_certified() {
    let named = common::floors_and_walls();
    let shape = common::shapes()[0].clone();
    let bounds = named.world.bounds();
    let mut cache = common::exact_cache(&named.world, CacheConfig::default());
    let mut exact = WithContext::new(ExactCollider::new(named.world.clone()));
    let (p, e) = (
        cache.prepare(&shape).unwrap(),
        exact.prepare(&shape).unwrap(),
    );
    let below = DVec3::new(0.0, 0.0, bounds.min.z - 200.0);
    for (start, end) in [
        (below, below - DVec3::Z * 30.0),
        (below, below + DVec3::X * 5000.0),
        // Ends just short of the bounds (within the shape's reach: not certified).
        (below, DVec3::new(0.0, 0.0, bounds.min.z - 1.0)),
    ] {
        assert_eq!(cache.trace(&p, start, end), exact.trace(&e, start, end));
    }
    assert_eq!(cache.counters().certified, 2, "{}", cache.counters());
    assert_eq!(cache.counters().fall_throughs, 1);
    // No cell was needed: every start lies outside the grid.
    assert_eq!(cache.counters().cache_rebuilds, 0);

    let empty = Arc::new(World::from_brushes(Vec::<cspace_geom::Brush>::new()));
    let mut cache = common::exact_cache(&empty, CacheConfig::default());
    let mut exact = WithContext::new(ExactCollider::new(empty.clone()));
    let (p, e) = (
        cache.prepare(&shape).unwrap(),
        exact.prepare(&shape).unwrap(),
    );
    let mut rng = Rng::new(9);
    for _ in 0..100 {
        let start = rng.unit_vector() * rng.range(0.0, 1000.0);
        let end = start + rng.unit_vector() * rng.range(0.0, 100.0);
        assert_eq!(cache.trace(&p, start, end), exact.trace(&e, start, end));
        assert_eq!(cache.is_solid(&p, start), exact.is_solid(&e, start));
    }
    assert_eq!(cache.counters().certified, 100);
}

/// Non-finite ends are never certified, even in a cell whose k-UDOP holds the finite end (the
/// exact backend refuses them in debug builds, so the cells are asked directly).
#[test]
fn non_finite_moves_are_not_held() {
    let named = common::floors_and_walls();
    let cells = grid(&named.world, 6, 64.0);
    let shape = common::shapes()[1].clone();
    let mut supports = Vec::new();
    cells.supports(&shape, 0.0, &mut supports);
    let start = DVec3::new(0.0, 0.0, 100.0);
    let (cell, centre) = cells.cell_of(start).unwrap();
    cells.ensure(
        &named.world,
        cell,
        &mut Default::default(),
        &mut QueryCounters::default(),
    );
    assert!(cells.holds(cell, centre, start, start + DVec3::X, &supports));
    for end in [
        DVec3::new(f64::NAN, 0.0, 100.0),
        DVec3::new(f64::INFINITY, 0.0, 100.0),
        DVec3::new(0.0, f64::NEG_INFINITY, 100.0),
    ] {
        assert!(!cells.holds(cell, centre, start, end, &supports), "{end}");
        assert!(!cells.holds(cell, centre, end, start, &supports), "{end}");
    }
    assert!(cells.cell_of(DVec3::NAN).is_none());
}

/// Prebuilt and lazy caches answer the same and certify the same traces.
#[test]
fn prebuilt_and_lazy_caches_certify_the_same_traces() {
    let named = common::random_boxes();
    let shape = common::shapes()[2].clone();
    let make = |prebuild| {
        common::exact_cache(
            &named.world,
            CacheConfig {
                prebuild,
                ..CacheConfig::default()
            },
        )
    };
    let (mut lazy, mut built) = (make(None), make(Some(2)));
    assert_eq!(
        built.collider.cells().stats().built,
        built.collider.cells().cells()
    );
    assert_eq!(lazy.collider.cells().stats().built, 0);
    let (a, b) = (
        lazy.prepare(&shape).unwrap(),
        built.prepare(&shape).unwrap(),
    );
    let mut rng = Rng::new(4);
    let bounds = named.world.bounds();
    for _ in 0..5000 {
        let start = rng.point_in(&bounds);
        let end = start + rng.unit_vector() * rng.range(0.0, 16.0);
        assert_eq!(lazy.trace(&a, start, end), built.trace(&b, start, end));
    }
    let (l, p) = (lazy.counters(), built.counters());
    assert_eq!(
        (l.certified, l.fall_throughs),
        (p.certified, p.fall_throughs)
    );
    assert!(
        l.certified > 500 && l.cache_rebuilds > 0 && p.cache_rebuilds == 0,
        "{l}\n{p}"
    );
}
