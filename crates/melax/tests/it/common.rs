//! Worlds, shapes and helpers shared by the tests.

use std::sync::Arc;

use cspace_geom::generate::{RandomBoxes, RandomPatches, Rng, oriented_box, random_convex_brushes};
use cspace_geom::patch::TessellationOptions;
use cspace_geom::{Aabb, Brush, DVec3, Shape, World};

/// A world with a name for messages.
pub struct NamedWorld {
    pub name: String,
    pub world: Arc<World>,
}

/// Random boxes at the benchmark's density (300 of them, half rotated).
pub fn random_boxes() -> NamedWorld {
    NamedWorld {
        name: "random boxes".into(),
        world: Arc::new(RandomBoxes::BENCHMARK.scaled(300).world()),
    }
}

/// Random convex brushes (hulls of 10 points) in a 400-unit cube.
pub fn convex_brushes() -> NamedWorld {
    let region = Aabb::new(DVec3::ZERO, DVec3::splat(400.0));
    let brushes = random_convex_brushes(31, 60, region);
    NamedWorld {
        name: "convex brushes".into(),
        world: Arc::new(World::from_brushes(brushes)),
    }
}

fn axial(min: DVec3, max: DVec3) -> Brush {
    Brush::from_aabb(Aabb::new(min, max)).expect("a box with volume")
}

/// A room: floor, walls, a stair of touching steps, a ramp and rotated crates.
pub fn room() -> NamedWorld {
    let mut brushes = vec![
        axial(
            DVec3::new(-512.0, -512.0, -16.0),
            DVec3::new(512.0, 512.0, 0.0),
        ),
        axial(
            DVec3::new(-528.0, -528.0, -16.0),
            DVec3::new(-512.0, 528.0, 300.0),
        ),
        axial(
            DVec3::new(512.0, -528.0, -16.0),
            DVec3::new(528.0, 528.0, 300.0),
        ),
        axial(DVec3::new(-8.0, -512.0, 0.0), DVec3::new(8.0, -64.0, 192.0)),
        axial(DVec3::new(-8.0, 64.0, 0.0), DVec3::new(8.0, 512.0, 192.0)),
    ];
    for i in 0..8 {
        let x = 100.0 + 16.0 * i as f64;
        brushes.push(axial(
            DVec3::new(x, 200.0, 0.0),
            DVec3::new(x + 16.0, 328.0, 16.0 * (i + 1) as f64),
        ));
    }
    let (s, c) = 20f64.to_radians().sin_cos();
    brushes.push(oriented_box(
        DVec3::new(-300.0, 0.0, 20.0),
        DVec3::new(120.0, 64.0, 16.0),
        [DVec3::new(c, 0.0, s), DVec3::Y, DVec3::new(-s, 0.0, c)],
    ));
    let mut rng = Rng::new(32);
    for _ in 0..10 {
        let centre = DVec3::new(rng.range(-450.0, 450.0), rng.range(-450.0, 450.0), 20.0);
        let (s, c) = rng.range(0.0, std::f64::consts::TAU).sin_cos();
        brushes.push(oriented_box(
            centre,
            DVec3::new(rng.range(8.0, 32.0), rng.range(8.0, 32.0), 20.0),
            [DVec3::new(c, s, 0.0), DVec3::new(-s, c, 0.0), DVec3::Z],
        ));
    }
    NamedWorld {
        name: "room".into(),
        world: Arc::new(World::from_brushes(brushes)),
    }
}

/// Random Quake III patches (terrain, arches on pillars, pipes, sheets, cones) tessellated within
/// 2 units: facets, and brushes they rest on.
pub fn patches() -> NamedWorld {
    let options = TessellationOptions::new(2.0).expect("a positive bound");
    NamedWorld {
        name: "random patches".into(),
        world: Arc::new(RandomPatches::TEST.world(&options)),
    }
}

/// `RandomPatches::LARGE` at the default bound (4 units, as maps are tessellated).
pub fn larger_patches() -> NamedWorld {
    NamedWorld {
        name: "random patches (large)".into(),
        world: Arc::new(RandomPatches::LARGE.world(&TessellationOptions::default())),
    }
}

/// The generated worlds.
pub fn generated() -> Vec<NamedWorld> {
    vec![random_boxes(), convex_brushes(), room()]
}

/// Every `.map` of the corpus (`cspace_corpus::maps`), or `None` when `CSPACE_MAPS` is unset.
pub fn corpus(test: &str) -> Option<Vec<NamedWorld>> {
    Some(
        cspace_corpus::maps(test)?
            .into_iter()
            .map(|m| NamedWorld {
                name: m.name,
                world: m.world,
            })
            .collect(),
    )
}

/// Quake's standing player box.
pub fn player() -> Shape {
    Shape::new_box(
        DVec3::new(-16.0, -16.0, -24.0),
        DVec3::new(16.0, 16.0, 32.0),
    )
    .unwrap()
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
