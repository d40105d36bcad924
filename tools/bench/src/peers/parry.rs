//! parry3d-f64: the world as a [`Compound`] of convex polyhedra (one per brush, in parry's BVH),
//! answering `cast_local_ray_and_get_normal` for rays and `cast_shapes` for cuboids, balls and
//! cylinders.

use std::time::{Duration, Instant};

use cspace_geom::{DVec3, Shape, World};
use parry3d_f64::math::{Pose, Rot3, Vector};
use parry3d_f64::query::{Ray, RayCast, ShapeCastOptions, cast_shapes};
use parry3d_f64::shape::{Ball, Compound, ConvexPolyhedron, Cuboid, Cylinder, SharedShape};

use super::to_peer;
use crate::ours::Memory;
use crate::timing::Tracer;

/// The world as parry sees it.
pub struct ParryWorld {
    /// The compound shape (its handle is shared with rapier's collider).
    pub shape: SharedShape,
    /// How long turning the brushes into polyhedra and building the BVH took.
    pub build: Duration,
    /// What it occupies: polyhedra, their poses and the BVH (approximate: parry's own
    /// `total_memory_size` for the BVH, array lengths times element sizes for the rest).
    pub memory: Memory,
    /// Brushes parry could not turn into a polyhedron (left out).
    pub skipped: usize,
}

impl ParryWorld {
    /// The compound of `world`'s brushes: each brush's vertices through
    /// `ConvexPolyhedron::from_convex_hull`, then `Compound::new`.
    pub fn new(world: &World) -> ParryWorld {
        let clock = Instant::now();
        let mut parts = Vec::with_capacity(world.len());
        let mut polyhedra_bytes = 0;
        let mut skipped = 0;
        for b in world.brushes() {
            let points: Vec<Vector> = b.brush.vertices().iter().map(|&v| to_peer(v)).collect();
            match ConvexPolyhedron::from_convex_hull(&points) {
                Some(p) => {
                    polyhedra_bytes += polyhedron_bytes(&p);
                    parts.push((Pose::IDENTITY, SharedShape::new(p)));
                }
                None => skipped += 1,
            }
        }
        let compound = Compound::new(parts);
        let build = clock.elapsed();
        let bytes = std::mem::size_of::<Compound>()
            + polyhedra_bytes
            + std::mem::size_of_val(compound.shapes())
            + compound.bvh().total_memory_size();
        ParryWorld {
            shape: SharedShape::new(compound),
            build,
            memory: Memory { bytes, nodes: None },
            skipped,
        }
    }

    /// The compound.
    pub fn compound(&self) -> &Compound {
        self.shape
            .as_compound()
            .expect("the world shape is a compound")
    }

    /// A caster sweeping `shape` (our shape, converted) against the world.
    pub fn caster(&self, shape: &Shape) -> ParryCaster<'_> {
        let world = self.compound();
        match shape {
            Shape::Box(b) if b.mins == b.maxs => ParryCaster::Ray { world },
            Shape::Box(b) => ParryCaster::Shape {
                world,
                shape: SharedShape::new(Cuboid::new(to_peer((b.maxs - b.mins) * 0.5))),
                offset: (b.mins + b.maxs) * 0.5,
                rotation: Rot3::IDENTITY,
            },
            Shape::Sphere { radius } => ParryCaster::Shape {
                world,
                shape: SharedShape::new(Ball::new(*radius)),
                offset: DVec3::ZERO,
                rotation: Rot3::IDENTITY,
            },
            // parry's cylinder stands on y: a quarter turn about x stands it on z.
            Shape::Cylinder {
                radius,
                half_height,
            } => ParryCaster::Shape {
                world,
                shape: SharedShape::new(Cylinder::new(*half_height, *radius)),
                offset: DVec3::ZERO,
                rotation: Rot3::from_rotation_x(std::f64::consts::FRAC_PI_2),
            },
            Shape::Hull(h) => {
                let points: Vec<Vector> = h
                    .polyhedron()
                    .vertices()
                    .iter()
                    .map(|&v| to_peer(v))
                    .collect();
                ParryCaster::Shape {
                    world,
                    shape: SharedShape::new(
                        ConvexPolyhedron::from_convex_hull(&points)
                            .expect("a valid hull is a valid polyhedron"),
                    ),
                    offset: DVec3::ZERO,
                    rotation: Rot3::IDENTITY,
                }
            }
        }
    }
}

/// Bytes of one polyhedron: its struct and arrays, plus the shared handle's header.
fn polyhedron_bytes(p: &ConvexPolyhedron) -> usize {
    use std::mem::size_of_val;
    std::mem::size_of::<ConvexPolyhedron>()
        + 2 * std::mem::size_of::<usize>()
        + size_of_val(p.points())
        + size_of_val(p.vertices())
        + size_of_val(p.edges())
        + size_of_val(p.faces())
        + size_of_val(p.vertices_adj_to_face())
        + size_of_val(p.edges_adj_to_face())
        + size_of_val(p.faces_adj_to_vertex())
}

/// A parry query against the world, as a [`Tracer`].
pub enum ParryCaster<'a> {
    /// A ray cast (with the normal, as our traces return the plane).
    Ray {
        /// The world.
        world: &'a Compound,
    },
    /// A shape cast.
    Shape {
        /// The world.
        world: &'a Compound,
        /// The moving shape.
        shape: SharedShape,
        /// Where the shape's centre sits relative to our agent's origin (Quake boxes are not
        /// centred).
        offset: DVec3,
        /// The shape's orientation.
        rotation: Rot3,
    },
}

impl Tracer for ParryCaster<'_> {
    fn trace(&mut self, start: DVec3, end: DVec3) -> Option<f64> {
        match self {
            ParryCaster::Ray { world } => {
                let ray = Ray::new(to_peer(start), to_peer(end - start));
                world
                    .cast_local_ray_and_get_normal(&ray, 1.0, true)
                    .map(|hit| hit.time_of_impact)
            }
            ParryCaster::Shape {
                world,
                shape,
                offset,
                rotation,
            } => {
                let pose = Pose::from_parts(to_peer(start + *offset), *rotation);
                cast_shapes(
                    &pose,
                    to_peer(end - start),
                    shape.as_ref(),
                    &Pose::IDENTITY,
                    Vector::ZERO,
                    *world,
                    ShapeCastOptions::with_max_time_of_impact(1.0),
                )
                .ok()
                .flatten()
                .map(|hit| hit.time_of_impact)
            }
        }
    }
}
