//! Our backends, one entry each: how to build it for a world and a shape, and which rows it
//! fills. A backend whose crate is not in the workspace yet keeps its entry and reports its
//! rows as "not built", so the tables keep their shape as backends land.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cspace_geom::aabb_tree::AabbTree;
use cspace_geom::{
    Collider, DVec3, ExactCollider, Prepared, QueryContext, QueryCounters, Shape, World,
};
use cspace_melax::{BevelMode, MelaxCollider, MelaxTree};
use cspace_onion::{CompileOptions, OnionCollider, Pose};
use cspace_sim::BackendKind;

use crate::query::Query;
use crate::timing::Tracer;

/// Memory of a built structure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Memory {
    /// Bytes it occupies (struct and arrays).
    pub bytes: usize,
    /// Nodes of its tree, when it is one.
    pub nodes: Option<usize>,
}

impl Memory {
    /// Bytes per node, for trees.
    pub fn bytes_per_node(&self) -> Option<f64> {
        self.nodes
            .filter(|&n| n > 0)
            .map(|n| self.bytes as f64 / n as f64)
    }
}

/// Makes a fresh backend over an already built structure (cheap: the structure is shared), so
/// that every timed run starts from the same state.
pub type Factory = Box<dyn Fn() -> Arc<dyn Collider>>;

/// A backend built for a world and a shape.
pub struct Built {
    /// Makes the backend.
    pub factory: Factory,
    /// How long building it took.
    pub build: Duration,
    /// What it occupies, when the backend can tell.
    pub memory: Option<Memory>,
    /// What was built, for the build table (`AABB tree over brush bounds`, `1 pose`, ...).
    pub structure: String,
}

/// Why a backend has no row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unavailable {
    /// Its crate is not in the workspace yet.
    NotBuilt(&'static str),
    /// It refused the shape.
    Unsupported(String),
}

impl std::fmt::Display for Unavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unavailable::NotBuilt(why) => write!(f, "not built ({why})"),
            Unavailable::Unsupported(why) => write!(f, "unsupported ({why})"),
        }
    }
}

/// One of our backends in the suite.
pub struct OurBackend {
    /// The row label.
    pub label: &'static str,
    /// The queries it has rows for (the exact reference has all).
    pub queries: &'static [Query],
    /// Builds it for the world, ready for the shape.
    pub build: fn(&Arc<World>, &Shape) -> Result<Built, Unavailable>,
    /// Whether it claims exact answers (its rows must agree with the exact reference).
    pub exact: bool,
}

/// The label of the exact reference.
pub const EXACT: &str = "exact";
/// The label of the plain solid BSP: the onion tree of the zero-size pose, for rays.
pub const PLAIN_BSP: &str = "plain BSP (onion, zero-size pose)";
/// The label of the onion tree for the box traces.
pub const ONION: &str = "onion";
/// The label of Melax's tree with the exact bevels for boxes.
pub const MELAX_EXACT: &str = "melax-exact (exact bevels)";
/// The label of Melax's tree with the paper's bevels.
pub const MELAX_PAPER: &str = "melax (paper bevels)";
/// The label of the exact reference behind the k-UDOP cells, as the simulator builds it.
pub const UDOP_EXACT: &str = "udop+exact (k-UDOP cells)";

/// Bytes of one packed Melax node (plane normal and distance, two child references), as
/// `cspace-melax` documents its layout.
const MELAX_NODE_BYTES: usize = 40;

/// Every backend, the exact reference first.
pub fn backends() -> Vec<OurBackend> {
    vec![
        OurBackend {
            label: EXACT,
            queries: &Query::ALL,
            build: build_exact,
            exact: true,
        },
        OurBackend {
            label: PLAIN_BSP,
            queries: &[Query::Ray],
            build: build_onion,
            exact: true,
        },
        OurBackend {
            label: ONION,
            queries: &[Query::Box],
            build: build_onion,
            exact: true,
        },
        OurBackend {
            label: MELAX_EXACT,
            queries: &[Query::Box],
            build: |world, shape| build_melax(world, shape, BevelMode::Exact),
            exact: true,
        },
        OurBackend {
            label: MELAX_PAPER,
            queries: &[Query::Sphere, Query::Cylinder],
            build: |world, shape| build_melax(world, shape, BevelMode::PAPER),
            exact: false,
        },
        OurBackend {
            label: UDOP_EXACT,
            queries: &Query::ALL,
            build: build_udop_exact,
            exact: true,
        },
    ]
}

/// The simulator's `udop+exact` (`cspace_sim::BackendKind::UdopExact`): the exact reference
/// behind the k-UDOP cells, which certify misses and narrow hits to a cell's nearest brushes.
/// Its cells are built by the first traces that need them (the first passes), so the build
/// column is the grid's allocation only, and its memory is left out (the cells' bytes are in
/// docs/udop.md).
fn build_udop_exact(world: &Arc<World>, shape: &Shape) -> Result<Built, Unavailable> {
    let clock = Instant::now();
    let collider = BackendKind::UdopExact
        .build_for(world, std::slice::from_ref(shape))
        .map_err(|e| Unavailable::Unsupported(e.to_string()))?
        .ok_or_else(|| Unavailable::Unsupported(format!("no {}", shape.describe())))?;
    let build = clock.elapsed();
    Ok(Built {
        factory: Box::new(move || collider.clone()),
        build,
        memory: None,
        structure: "k-UDOP cells over the exact reference, built on first use".to_string(),
    })
}

/// The exact reference: its structure is the world's AABB tree over the brush bounds (timed by
/// building that tree again), and its memory the whole world's.
fn build_exact(world: &Arc<World>, _shape: &Shape) -> Result<Built, Unavailable> {
    let bounds: Vec<_> = world.brushes().iter().map(|b| b.brush.bounds()).collect();
    let clock = Instant::now();
    let tree = AabbTree::new(&bounds);
    let build = clock.elapsed();
    std::hint::black_box(tree);
    let shared = world.clone();
    Ok(Built {
        factory: Box::new(move || Arc::new(ExactCollider::new(shared.clone()))),
        build,
        // Not a tree backend: the node count stays in the description, not in bytes per node.
        memory: Some(Memory {
            bytes: world.memory_bytes(),
            nodes: None,
        }),
        structure: format!(
            "brushes + AABB tree of their bounds ({} nodes)",
            world.index_node_count()
        ),
    })
}

/// The onion tree of one pose, the shape's box (a zero-size box gives the plain solid BSP).
/// Its memory is what [`OnionTree::memory_bytes`] counts (the packed tree as saved and the query
/// tree of the pose); its nodes are branch nodes and leaves.
fn build_onion(world: &Arc<World>, shape: &Shape) -> Result<Built, Unavailable> {
    let Shape::Box(b) = shape else {
        return Err(Unavailable::Unsupported(format!(
            "onion trees hold boxes, not {}",
            shape.describe()
        )));
    };
    let pose = if b.mins == b.maxs {
        Pose::point()
    } else {
        Pose::new("query", b.mins, b.maxs)
    };
    let clock = Instant::now();
    let compiled = cspace_onion::compile(world, &[pose], &CompileOptions::default())
        .map_err(|e| Unavailable::Unsupported(e.to_string()))?;
    let build = clock.elapsed();
    let stats = &compiled.stats;
    let bytes = compiled.tree.memory_bytes();
    let structure = format!(
        "onion tree, 1 pose: {} branch nodes, {} leaves, depth {} (mean leaf {:.1})",
        stats.nodes, stats.leaves, stats.depth_max, stats.depth_mean
    );
    let nodes = stats.nodes + stats.leaves;
    let shared = Arc::new(compiled.tree);
    let world = world.clone();
    Ok(Built {
        factory: Box::new(move || {
            Arc::new(
                OnionCollider::new(world.clone(), shared.clone())
                    .expect("the tree was compiled from this world"),
            )
        }),
        build,
        memory: Some(Memory {
            bytes,
            nodes: Some(nodes),
        }),
        structure,
    })
}

/// Melax's tree (the plain BSP of the zero-size pose, bevelled with `bevel`): one tree for every
/// shape. Its memory is the packed nodes and the solid cells' brush ranges (the cells' brush
/// lists are not counted); its nodes are the internal ones (leaves are packed references). A
/// sphere or a cylinder also gets its free-space index (certified misses, built at the shape's
/// first prepare): built here, counted in the build time and the memory, and shared by every
/// backend the factory makes (clones of one collider).
fn build_melax(world: &Arc<World>, shape: &Shape, bevel: BevelMode) -> Result<Built, Unavailable> {
    let clock = Instant::now();
    let tree =
        cspace_melax::compile(world, bevel).map_err(|e| Unavailable::Unsupported(e.to_string()))?;
    let compile = clock.elapsed();
    let stats = *tree.stats();
    let mut bytes = std::mem::size_of::<MelaxTree>()
        + tree.node_count() * MELAX_NODE_BYTES
        + stats.solid_cells * 2 * std::mem::size_of::<u32>();
    let mut structure = format!(
        "Melax tree, {} bevels: {} nodes ({} bevel), depth {}",
        bevel.describe(),
        tree.node_count(),
        stats.bevel_nodes,
        stats.depth_max
    );
    let nodes = tree.node_count();
    let collider = MelaxCollider::new(world.clone(), Arc::new(tree))
        .expect("the tree was built from this world");
    let clock = Instant::now();
    let prepared = collider
        .prepare(shape)
        .map_err(|e| Unavailable::Unsupported(e.reason))?;
    let index = clock.elapsed();
    if let Some(free) = collider.free_index(&prepared) {
        let free = free.stats();
        bytes += free.bytes;
        structure += &format!(
            " + free-space index: {} cells, {} boxes, {} bytes, {:.1} ms",
            free.cells,
            free.boxes,
            free.bytes,
            index.as_secs_f64() * 1e3
        );
    }
    let build = compile + index;
    Ok(Built {
        factory: Box::new(move || Arc::new(collider.clone())),
        build,
        memory: Some(Memory {
            bytes,
            nodes: Some(nodes),
        }),
        structure,
    })
}

/// One of our backends with its prepared shape and a query context, as a [`Tracer`].
pub struct OurTracer {
    collider: Arc<dyn Collider>,
    ctx: QueryContext,
    prepared: Prepared,
}

impl OurTracer {
    /// The tracer for `collider` sweeping `shape`.
    pub fn new(collider: Arc<dyn Collider>, shape: &Shape) -> Result<OurTracer, Unavailable> {
        let prepared = collider
            .prepare(shape)
            .map_err(|e| Unavailable::Unsupported(e.reason))?;
        Ok(OurTracer {
            collider,
            ctx: QueryContext::new(),
            prepared,
        })
    }

    /// The counters of the traces so far.
    pub fn counters(&self) -> QueryCounters {
        self.ctx.counters
    }
}

impl Tracer for OurTracer {
    fn trace(&mut self, start: DVec3, end: DVec3) -> Option<f64> {
        let hit = self
            .collider
            .trace(&mut self.ctx, &self.prepared, start, end);
        if hit.all_solid() {
            return Some(0.0);
        }
        hit.surface().map(|s| s.time_of_impact)
    }
}
