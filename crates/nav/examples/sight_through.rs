//! How often a point's line of sight sees through what the sight cube's is blocked by (curved
//! walls: patch facets have no interior, so a point passes through them; docs/navigation.md,
//! "Line of sight"). Random segments, half anywhere around the map and half short ones starting
//! free for the cube, answered over a tree of the sight cube and the point.
//!
//! `CSPACE_MAPS=../shared/maps cargo run --release -p cspace-nav --example sight_through -- unvanquished_chasm.map`
//!
//! Optional: the number of segments (default 100,000) and the seed (default 11).

use cspace_geom::generate::{Rng, free_moves};
use cspace_geom::{Aabb, Shape};
use cspace_nav::{LineOfSight, NavContext};
use cspace_onion::{CompileOptions, Pose, compile};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(file) = args.next() else {
        eprintln!("usage: sight_through MAP.map [SEGMENTS] [SEED] (the map in CSPACE_MAPS)");
        std::process::exit(2);
    };
    let number = |a: Option<String>, default: u64| {
        a.map_or(default, |v| {
            v.parse().unwrap_or_else(|_| {
                eprintln!("sight_through: {v:?} is not a count");
                std::process::exit(2)
            })
        })
    };
    let count = number(args.next(), 100_000) as usize;
    let seed = number(args.next(), 11);
    let Some(map) = cspace_corpus::map("sight_through", &file) else {
        std::process::exit(2);
    };
    let world = map.world;
    let tree = compile(
        &world,
        &[Pose::sight(), Pose::point()],
        &CompileOptions::default(),
    )
    .expect("the map compiles")
    .tree;
    let (sight, point) = (
        LineOfSight::new(&tree, 0).expect("space 0"),
        LineOfSight::new(&tree, 1).expect("space 1"),
    );
    let bounds: Aabb = world.bounds().loosened(64.0);
    let mut rng = Rng::new(seed);
    let mut segments: Vec<_> = (0..count / 2)
        .map(|_| (rng.point_in(&bounds), rng.point_in(&bounds)))
        .collect();
    let cube = Shape::from(&Pose::sight());
    segments.extend(free_moves(
        &world,
        &cube,
        &world.bounds(),
        count - count / 2,
        (1.0, 200.0),
        0.0,
        seed,
    ));
    let mut ctx = NavContext::new();
    let (mut blocked, mut through) = (0, 0);
    for &(a, b) in &segments {
        if !sight.visible(a, b, &mut ctx) {
            blocked += 1;
            through += usize::from(point.visible(a, b, &mut ctx));
        }
    }
    let facets = world.brushes().iter().filter(|b| b.brush.is_flat()).count();
    println!(
        "{}: {facets} facets; {} segments; the sight cube is blocked on {blocked}, of which the \
         point sees through {through}",
        map.name,
        segments.len()
    );
}
