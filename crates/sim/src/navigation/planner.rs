//! The planner of a simulation: one onion tree of the goto agents' box poses and the zero-size
//! pose, and a navigation graph per pair of standing and crouching boxes, built once per run.

use cspace_entities::Entities;
use cspace_geom::{Shape, World};
use cspace_nav::{NavMesh, NavPose, NavVolumes};
use cspace_onion::{CompileOptions, OnionTree, Pose};

use super::living::living_nav;
use super::nav_params;
use crate::agent::{AgentId, AgentSpec};
use crate::params::MoveParams;

/// Why a simulation's planner cannot be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PlanError {
    /// A goto agent's pose is not a box: the planner's configuration spaces are the onion
    /// tree's, one per box pose.
    #[error(
        "agent {agent}: goto plans in the onion tree's configuration spaces, which are boxes; {shape} is not one"
    )]
    NotABox {
        /// The agent.
        agent: u32,
        /// Its shape.
        shape: String,
    },
    /// A goto agent's crouching box does not fit in its standing box.
    #[error(
        "agent {agent}: its crouching box must fit inside its standing box for the planner's crouch and stand-up links"
    )]
    NotNested {
        /// The agent.
        agent: u32,
    },
    /// A planner given to a simulation has no graph for a goto agent's poses.
    #[error("agent {agent}: the planner given has no graph for its poses")]
    NotPlanned {
        /// The agent.
        agent: u32,
    },
    /// The onion tree or a graph could not be built.
    #[error("the planner cannot be built for this world: {0}")]
    Build(String),
    /// A planner built for another world.
    #[error("the planner was built for world {planner:016x}, not for this world {world:016x}")]
    WorldMismatch {
        /// The planner's world fingerprint.
        planner: u64,
        /// The simulation's.
        world: u64,
    },
}

/// A navigation graph and the agent poses it plans for.
#[derive(Debug)]
struct AgentMesh {
    standing: Shape,
    crouching: Option<Shape>,
    mesh: NavMesh,
}

/// The planner of a simulation: the graphs of its goto agents' poses over one tree. Shared by
/// reference (`&self`); the caller keeps the [`cspace_nav::NavContext`].
#[derive(Debug)]
pub struct Planner {
    meshes: Vec<AgentMesh>,
    tree_nodes: usize,
    world_fingerprint: u64,
}

/// The onion pose of a box shape.
fn box_pose(shape: &Shape, name: String) -> Option<Pose> {
    match shape {
        Shape::Box(b) => Some(Pose::new(name, b.mins, b.maxs)),
        _ => None,
    }
}

impl Planner {
    /// Builds the planner of the goto agents `agents` in `world`: one onion tree of their
    /// distinct boxes and the zero-size pose, then one graph per pair of standing and crouching
    /// boxes, crouching at `params.crouch_speed_scale`.
    ///
    /// With `fill_from` points (a map's spawn points), the tree's outside is filled from them and
    /// from the goto agents' starts ([`CompileOptions::fill_outside`]), so that a sealed map has
    /// no floors outside it (the tops of its outer walls) to plan over; a space whose flood leaks
    /// is kept as it is. Without, nothing is filled.
    pub fn build(
        world: &World,
        agents: &[(AgentId, &AgentSpec)],
        params: &MoveParams,
        fill_from: &[cspace_geom::DVec3],
    ) -> Result<Planner, PlanError> {
        Planner::build_with(world, agents, params, fill_from, &[Pose::point()])
    }

    /// [`Planner::build`] with `extra` poses compiled into the tree after the agents' boxes
    /// instead of the zero-size pose (none, the sight cube, ...): they are planned for by no
    /// agent, but they split the tree, so the agents' spaces fall into other regions and areas
    /// and the paths differ. The validation measures how much (`CSPACE_GOTO_EXTRA_POSES`,
    /// docs/navigation.md).
    pub fn build_with(
        world: &World,
        agents: &[(AgentId, &AgentSpec)],
        params: &MoveParams,
        fill_from: &[cspace_geom::DVec3],
        extra: &[Pose],
    ) -> Result<Planner, PlanError> {
        Planner::build_all(world, None, agents, params, fill_from, extra)
    }

    /// [`Planner::build`] for a living world: `world` is the static world (without the movers,
    /// as the simulation's collider has it) and `entities` the map's. The doors an agent opens
    /// by walking into their field are passable at the cost of their opening time, every other
    /// mover is solid where it spawns, and teleporters and push pads are the graph's one-way
    /// links (docs/navigation.md, "Links of a living world"). The teleporters' destinations are
    /// filled from as well. A Quake III jump pad's link flies to the apex `apexes` gives it (per
    /// trigger of `entities`: the simulation's pick, [`crate::Sim::jump_pad_apexes`], so the
    /// graph is the simulation's; a pad without one gets no link).
    pub fn build_living(
        world: &World,
        entities: &Entities,
        apexes: &[Option<cspace_geom::DVec3>],
        agents: &[(AgentId, &AgentSpec)],
        params: &MoveParams,
        fill_from: &[cspace_geom::DVec3],
    ) -> Result<Planner, PlanError> {
        Planner::build_all(
            world,
            Some((entities, apexes)),
            agents,
            params,
            fill_from,
            &[Pose::point()],
        )
    }

    fn build_all(
        world: &World,
        entities: Option<(&Entities, &[Option<cspace_geom::DVec3>])>,
        agents: &[(AgentId, &AgentSpec)],
        params: &MoveParams,
        fill_from: &[cspace_geom::DVec3],
        extra: &[Pose],
    ) -> Result<Planner, PlanError> {
        let living = entities
            .map(|(e, apexes)| living_nav(world, e, apexes, params.gravity))
            .transpose()?;
        let (solid, volumes) = match &living {
            Some(l) => (&l.world, l.volumes.clone()),
            None => (world, NavVolumes::default()),
        };
        let mut boxes: Vec<Shape> = Vec::new();
        let mut pairs: Vec<(Shape, Option<Shape>)> = Vec::new();
        for &(id, a) in agents {
            for shape in std::iter::once(&a.standing).chain(a.crouching.as_ref()) {
                if !matches!(shape, Shape::Box(_)) {
                    return Err(PlanError::NotABox {
                        agent: id.0,
                        shape: shape.describe(),
                    });
                }
                if !boxes.contains(shape) {
                    boxes.push(shape.clone());
                }
            }
            if let (Shape::Box(s), Some(Shape::Box(c))) = (&a.standing, &a.crouching)
                && !(s.mins.cmple(c.mins).all() && c.maxs.cmple(s.maxs).all())
            {
                return Err(PlanError::NotNested { agent: id.0 });
            }
            let pair = (
                a.standing.clone(),
                planned_crouch(&a.standing, a.crouching.as_ref()).cloned(),
            );
            if !pairs.contains(&pair) {
                pairs.push(pair);
            }
        }
        let name = |shape: &Shape| {
            let i = boxes
                .iter()
                .position(|b| b == shape)
                .expect("every box is listed");
            format!("box{i}")
        };
        let mut poses: Vec<Pose> = boxes
            .iter()
            .map(|b| box_pose(b, name(b)).expect("boxes only"))
            .collect();
        poses.extend_from_slice(extra);
        let mut seeds = fill_from.to_vec();
        if !seeds.is_empty() {
            seeds.extend(agents.iter().map(|(_, a)| a.start));
            for t in &volumes.teleporters {
                seeds.extend(t.destinations.iter().map(|d| d.origin));
            }
        }
        let options = CompileOptions {
            fill_outside: !seeds.is_empty(),
            spawn_points: seeds,
            ..CompileOptions::default()
        };
        let compiled = cspace_onion::compile(solid, &poses, &options)
            .map_err(|e| PlanError::Build(e.to_string()))?;
        let tree: OnionTree = compiled.tree;
        let nav = nav_params(params);
        let meshes = pairs
            .into_iter()
            .map(|(standing, crouching)| {
                let mut nav_poses = vec![NavPose::new(name(&standing), 1.0)];
                if let Some(c) = &crouching {
                    nav_poses.push(NavPose {
                        name: name(c),
                        speed_scale: params.crouch_speed_scale,
                        can_jump: false,
                    });
                }
                let mesh = NavMesh::build_with(&tree, solid, &nav_poses, &nav, &volumes)
                    .map_err(|e| PlanError::Build(e.to_string()))?;
                Ok(AgentMesh {
                    standing,
                    crouching,
                    mesh,
                })
            })
            .collect::<Result<Vec<_>, PlanError>>()?;
        Ok(Planner {
            meshes,
            tree_nodes: tree.node_count(),
            world_fingerprint: world.fingerprint(),
        })
    }

    /// The graph that plans for an agent of these poses, by index.
    pub fn mesh_index(&self, standing: &Shape, crouching: Option<&Shape>) -> Option<usize> {
        let crouching = planned_crouch(standing, crouching);
        self.meshes
            .iter()
            .position(|m| &m.standing == standing && m.crouching.as_ref() == crouching)
    }

    /// A graph by index ([`Planner::mesh_index`]).
    pub fn mesh(&self, index: usize) -> &NavMesh {
        &self.meshes[index].mesh
    }

    /// How many graphs it holds (one per pair of standing and crouching boxes).
    pub fn mesh_count(&self) -> usize {
        self.meshes.len()
    }

    /// The nodes of its onion tree.
    pub fn tree_nodes(&self) -> usize {
        self.tree_nodes
    }

    /// Checks that it was built for `world`.
    pub fn check_world(&self, world: &World) -> Result<(), PlanError> {
        if self.world_fingerprint == world.fingerprint() {
            Ok(())
        } else {
            Err(PlanError::WorldMismatch {
                planner: self.world_fingerprint,
                world: world.fingerprint(),
            })
        }
    }
}

/// The crouching box an agent is planned with: none when it equals the standing box (the same
/// configuration space; a second pose of the same name would be refused).
fn planned_crouch<'a>(standing: &Shape, crouching: Option<&'a Shape>) -> Option<&'a Shape> {
    crouching.filter(|c| *c != standing)
}
