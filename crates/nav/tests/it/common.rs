//! Worlds and graphs the tests share.

use std::sync::Arc;

use cspace_geom::generate::RandomBoxes;
use cspace_geom::{Aabb, Brush, Collider, DVec3, ExactCollider, Shape, WithContext, World};
use cspace_nav::{NavMesh, NavParams, NavPose};
use cspace_onion::{CompileOptions, OnionTree, Pose, compile};

/// A world of axis-aligned boxes, each `(min, max)`.
pub fn boxes(list: &[([f64; 3], [f64; 3])]) -> Arc<World> {
    Arc::new(World::from_brushes(list.iter().map(|(a, b)| {
        Brush::from_aabb(Aabb::new(DVec3::from_array(*a), DVec3::from_array(*b)))
            .expect("a box brush")
    })))
}

/// A small world of random boxes (half of them rotated).
pub fn random_world(seed: u64, count: usize, extent: f64) -> Arc<World> {
    Arc::new(
        RandomBoxes {
            count,
            extent,
            seed,
            ..RandomBoxes::BENCHMARK
        }
        .world(),
    )
}

/// Quake's standing and crouching players and the sight cube (the line of sight's pose), in that
/// order.
pub fn quake_poses() -> [Pose; 3] {
    [
        Pose::quake_standing(),
        Pose::quake_crouching(),
        Pose::sight(),
    ]
}

/// The tree of the Quake poses and the sight cube.
pub fn tree(world: &World) -> OnionTree {
    compile(world, &quake_poses(), &CompileOptions::default())
        .expect("the world compiles")
        .tree
}

/// The tree and the graph for standing and crouching.
pub fn nav(world: &World) -> (OnionTree, NavMesh) {
    let tree = tree(world);
    let nav = NavMesh::build(
        &tree,
        world,
        &[NavPose::stand(), NavPose::crouch()],
        &NavParams::default(),
    )
    .expect("the graph builds");
    (tree, nav)
}

/// The exact backend with one prepared shape per navigation pose.
pub struct Exact {
    pub collider: WithContext<ExactCollider>,
    pub shapes: Vec<cspace_geom::Prepared>,
}

impl Exact {
    pub fn new(world: &Arc<World>, nav: &NavMesh) -> Exact {
        let collider = WithContext::new(ExactCollider::new(world.clone()));
        let shapes = nav
            .poses()
            .iter()
            .map(|p| {
                collider
                    .prepare(&Shape::new_box(p.mins, p.maxs).expect("a box"))
                    .expect("exact takes boxes")
            })
            .collect();
        Exact { collider, shapes }
    }

    /// True when the pose's box at `p` overlaps solid (exact backend).
    pub fn is_solid(&mut self, pose: usize, p: DVec3) -> bool {
        let shape = self.shapes[pose].clone();
        self.collider.is_solid(&shape, p)
    }
}

/// A point where an agent of the area's pose stands: the area's centre, lifted by the skin.
pub fn standing_point(nav: &NavMesh, area: u32) -> DVec3 {
    nav.areas()[area as usize].centre + DVec3::Z * nav.params().clearance
}
