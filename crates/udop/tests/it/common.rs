//! Worlds, shapes and helpers shared by the tests.

use std::sync::Arc;

use cspace_geom::generate::{RandomBoxes, RandomPatches, Rng, oriented_box, random_convex_brushes};
use cspace_geom::patch::TessellationOptions;
use cspace_geom::{Aabb, Brush, Collider, DVec3, ExactCollider, Shape, WithContext, World};
use cspace_udop::{CacheConfig, UdopCache};

/// The free-space cache in front of the exact backend over `world`, with its own context.
pub fn exact_cache(world: &Arc<World>, config: CacheConfig) -> WithContext<UdopCache> {
    WithContext::new(
        UdopCache::new(
            world.clone(),
            Box::new(ExactCollider::new(world.clone())),
            config,
        )
        .expect("the exact backend takes every shape"),
    )
}

/// A generated world with a name for messages.
pub struct NamedWorld {
    pub name: &'static str,
    pub world: Arc<World>,
}

/// Random boxes at the benchmark's density (300 of them, half rotated).
pub fn random_boxes() -> NamedWorld {
    NamedWorld {
        name: "random boxes",
        world: Arc::new(RandomBoxes::BENCHMARK.scaled(300).world()),
    }
}

/// The generated patch world (`RandomPatches::TEST` at the default error bound).
pub fn random_patches() -> NamedWorld {
    NamedWorld {
        name: "random patches",
        world: Arc::new(RandomPatches::TEST.world(&TessellationOptions::default())),
    }
}

/// Random convex brushes (hulls of 10 points) in a 400-unit cube.
pub fn convex_brushes() -> NamedWorld {
    let region = Aabb::new(DVec3::ZERO, DVec3::splat(400.0));
    let brushes = random_convex_brushes(31, 80, region);
    NamedWorld {
        name: "convex brushes",
        world: Arc::new(World::from_brushes(brushes)),
    }
}

fn axial(min: DVec3, max: DVec3) -> Brush {
    Brush::from_aabb(Aabb::new(min, max)).expect("a box with volume")
}

/// Floors and walls: two storeys of 1024 x 1024 with walls, pillars, a stair, a ramp and a few
/// rotated crates.
pub fn floors_and_walls() -> NamedWorld {
    let mut brushes = vec![
        // Ground floor and the upper floor (with a hole for the stair).
        axial(
            DVec3::new(-512.0, -512.0, -16.0),
            DVec3::new(512.0, 512.0, 0.0),
        ),
        axial(
            DVec3::new(-512.0, -512.0, 192.0),
            DVec3::new(0.0, 512.0, 208.0),
        ),
        axial(
            DVec3::new(128.0, -512.0, 192.0),
            DVec3::new(512.0, 512.0, 208.0),
        ),
        // Outer walls.
        axial(
            DVec3::new(-528.0, -528.0, -16.0),
            DVec3::new(-512.0, 528.0, 400.0),
        ),
        axial(
            DVec3::new(512.0, -528.0, -16.0),
            DVec3::new(528.0, 528.0, 400.0),
        ),
        axial(
            DVec3::new(-512.0, -528.0, -16.0),
            DVec3::new(512.0, -512.0, 400.0),
        ),
        axial(
            DVec3::new(-512.0, 512.0, -16.0),
            DVec3::new(512.0, 528.0, 400.0),
        ),
        // Inner walls with a doorway.
        axial(DVec3::new(-8.0, -512.0, 0.0), DVec3::new(8.0, -64.0, 192.0)),
        axial(DVec3::new(-8.0, 64.0, 0.0), DVec3::new(8.0, 512.0, 192.0)),
        axial(DVec3::new(-8.0, -64.0, 128.0), DVec3::new(8.0, 64.0, 192.0)),
    ];
    // Pillars.
    for (x, y) in [
        (-256.0, -256.0),
        (-256.0, 256.0),
        (256.0, -256.0),
        (256.0, 256.0),
    ] {
        brushes.push(axial(
            DVec3::new(x - 24.0, y - 24.0, 0.0),
            DVec3::new(x + 24.0, y + 24.0, 192.0),
        ));
    }
    // A stair of 16-unit steps up to the upper floor.
    for i in 0..12 {
        let x = 0.0 + 16.0 * i as f64;
        brushes.push(axial(
            DVec3::new(x.min(112.0), 200.0, 0.0),
            DVec3::new(x.min(112.0) + 16.0, 328.0, 16.0 * (i + 1) as f64),
        ));
    }
    // A ramp: a box rotated 20 degrees about y, and rotated crates.
    let (s, c) = 20f64.to_radians().sin_cos();
    brushes.push(oriented_box(
        DVec3::new(-300.0, 0.0, 20.0),
        DVec3::new(120.0, 64.0, 16.0),
        [DVec3::new(c, 0.0, s), DVec3::Y, DVec3::new(-s, 0.0, c)],
    ));
    let mut rng = Rng::new(32);
    for _ in 0..12 {
        let centre = DVec3::new(rng.range(-450.0, 450.0), rng.range(-450.0, 450.0), 20.0);
        let angle: f64 = rng.range(0.0, std::f64::consts::TAU);
        let (s, c) = angle.sin_cos();
        brushes.push(oriented_box(
            centre,
            DVec3::new(rng.range(8.0, 32.0), rng.range(8.0, 32.0), 20.0),
            [DVec3::new(c, s, 0.0), DVec3::new(-s, c, 0.0), DVec3::Z],
        ));
    }
    NamedWorld {
        name: "floors and walls",
        world: Arc::new(World::from_brushes(brushes)),
    }
}

/// The agent shapes: Quake's player box, a sphere and a vertical cylinder.
pub fn shapes() -> [Shape; 3] {
    cspace_geom::generate::agent_shapes()
}

/// A random position in `bounds` where `shape` is free (tries up to 1000 times).
pub fn free_position(
    rng: &mut Rng,
    exact: &mut WithContext<ExactCollider>,
    shape: &Shape,
    bounds: &Aabb,
) -> Option<DVec3> {
    let prepared = exact.prepare(shape).unwrap();
    (0..1000)
        .map(|_| rng.point_in(bounds))
        .find(|p| !exact.is_solid(&prepared, *p))
}

/// A random unit vector, horizontal with probability `flat`.
pub fn direction(rng: &mut Rng, flat: f64) -> DVec3 {
    if rng.next_f64() < flat {
        let a = rng.range(0.0, std::f64::consts::TAU);
        DVec3::new(a.cos(), a.sin(), 0.0)
    } else {
        rng.unit_vector()
    }
}
