//! The onion BSP compiler (Golodetz Listings 1-4): configuration spaces, their CSG union, the
//! tree over the polygons of all spaces, leaf solidity.

mod build;
mod cell;
pub(crate) mod fill;
mod planes;
pub(crate) mod space;
pub(crate) mod stats;

use std::time::Instant;

use cspace_geom::{BrushError, World};
use glam::DVec3;

use crate::pose::Pose;
use crate::tree::{MAX_SPACES, OnionTree};
use build::Builder;
pub(crate) use build::{BuildPolygon, LeafCell, cut_half, leaf_point, partition, solid_spaces};
pub(crate) use build::{LeafInfo as LeafInfoView, all_spaces};
pub use cell::Cell;
pub(crate) use planes::PlaneTable;
pub(crate) use space::Space;
use stats::{FillOutcome, StageSeconds, TreeStats};

/// Splitter scoring weights and compiler switches.
///
/// A candidate plane's score is (lower is better; Hammersley's weighted splitter score, with
/// hesperus2's weights as defaults):
/// `balance_weight * |front - back| + split_weight * splits - coplanar_weight * coplanar`,
/// plus `non_axial_penalty * polygons` when the plane is not axial; the counts are of polygons
/// of all spaces in the node.
#[derive(Debug, Clone, PartialEq)]
pub struct CompileOptions {
    /// Weight of the imbalance between the front and back polygon counts (default 1).
    pub balance_weight: f64,
    /// Weight of each polygon the plane splits (default 4, hesperus2's).
    pub split_weight: f64,
    /// Reward for each polygon lying on the plane (default 1: they leave the candidate set).
    pub coplanar_weight: f64,
    /// Penalty, per polygon in the node, of a plane that is not axial (default 0.1): axial
    /// planes are cheaper to cut with and give boxier cells.
    pub non_axial_penalty: f64,
    /// How many candidate planes are scored per node (default 48; axial ones first, the rest
    /// sampled evenly). Scoring is linear in the node's polygons per candidate.
    pub max_candidates: usize,
    /// Fill the outside of sealed maps (default off): in each space, empty leaves that cannot be
    /// reached from [`CompileOptions::spawn_points`] through empty leaves become solid, and
    /// sibling leaves left alike are merged (qbsp's and hesperus2's outside fill). A space whose
    /// flood reaches the world box leaks and is left unfilled, and so are the spaces of poses
    /// inside its pose (to keep the nesting invariant).
    pub fill_outside: bool,
    /// Where agents start (configuration space: their origins), for [`CompileOptions::fill_outside`].
    pub spawn_points: Vec<DVec3>,
}

impl Default for CompileOptions {
    fn default() -> CompileOptions {
        CompileOptions {
            balance_weight: 1.0,
            split_weight: 4.0,
            coplanar_weight: 1.0,
            non_axial_penalty: 0.1,
            max_candidates: 48,
            fill_outside: false,
            spawn_points: Vec::new(),
        }
    }
}

/// Why a tree could not be compiled.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CompileError {
    /// No pose was given.
    #[error("no pose to compile: give at least one box pose")]
    NoPoses,
    /// More poses than a leaf's solidity bits hold.
    #[error("{count} poses; an onion tree holds at most {max}")]
    TooManyPoses {
        /// Poses given.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A pose's box is not valid.
    #[error("pose {pose}: {reason}")]
    BadPose {
        /// The pose's name.
        pose: String,
        /// What is wrong.
        reason: String,
    },
    /// Two poses have the same name.
    #[error("pose name {pose} is given twice")]
    DuplicatePose {
        /// The name.
        pose: String,
    },
    /// The compiled tree failed the compiler's own check of it: a bug of the compiler on this
    /// world, refused rather than used (E1M1's lone eight-sided door brushes, compiled as
    /// movers' worlds of their own, issue 32: a leaf's interior point outside its cell).
    #[error("the compiled tree fails its own check ({0}); a compiler bug on this world")]
    Unsound(String),
    /// A brush could not be expanded.
    #[error("brush {brush} expanded by pose {pose} (space {space}): {error}")]
    Expansion {
        /// The brush's index in the world.
        brush: usize,
        /// The pose's name.
        pose: String,
        /// The space index.
        space: usize,
        /// What went wrong.
        error: BrushError,
    },
}

/// A compiled tree with its statistics.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The tree.
    pub tree: OnionTree,
    /// What compiling it found.
    pub stats: TreeStats,
    /// The interior point of each leaf's cell its solidity was taken from (Listing 4); `None`
    /// for leaves without volume.
    pub leaf_points: Vec<Option<DVec3>>,
}

/// Stack size of the compiler thread: trees of maps with many nearly parallel faces reach depths
/// of several hundred (`ericw_qbsp_many_sided_face.map`), and each level keeps its polygons.
const BUILD_STACK: usize = 512 << 20;

/// Compiles the onion tree of `world` for `poses` (one configuration space each, in order).
pub fn compile(
    world: &World,
    poses: &[Pose],
    options: &CompileOptions,
) -> Result<Compiled, CompileError> {
    check_poses(poses)?;
    let started = Instant::now();
    let mut seconds = StageSeconds::default();

    let spaces = poses
        .iter()
        .enumerate()
        .map(|(s, pose)| Space::new(world, pose, s))
        .collect::<Result<Vec<_>, _>>()?;
    seconds.expand = started.elapsed().as_secs_f64();

    let t = Instant::now();
    let Union {
        table,
        polygons,
        bounds,
    } = Union::of(&spaces);
    let mut polygons_before = vec![0usize; spaces.len()];
    for p in &polygons {
        polygons_before[p.space as usize] += 1;
    }
    seconds.union = t.elapsed().as_secs_f64();

    let t = Instant::now();
    let planes = table.planes;
    let polygons = std::sync::Mutex::new(Some(polygons));
    let run = || {
        let polygons = polygons
            .lock()
            .expect("no thread panicked holding it")
            .take()
            .expect("the polygons are built once");
        let mut builder = Builder::new(&spaces, &planes, options, bounds);
        builder.build(polygons, Cell::from_box(bounds));
        (
            builder.nodes,
            builder.leaves,
            builder.leaf_info,
            builder.polygons_after,
            builder.cells,
        )
    };
    // On a thread with a deep stack; where no thread can be started, on this one.
    let (nodes, leaves, leaf_info, polygons_after, cells) = std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .name("onion-compile".into())
            .stack_size(BUILD_STACK)
            .spawn_scoped(scope, run)
        {
            Ok(handle) => handle.join().expect("the compiler does not panic"),
            Err(_) => run(),
        }
    });
    seconds.build = t.elapsed().as_secs_f64();

    let mut leaf_points: Vec<Option<DVec3>> = leaf_info
        .iter()
        .map(|l| (!l.zero_volume).then_some(l.point))
        .collect();
    let mut tree = OnionTree::from_parts(poses.to_vec(), planes, nodes, leaves);
    let t = Instant::now();
    let fill = match cells {
        Some(cells) => {
            let (filled, outcomes) =
                fill::fill_outside(tree, &cells, &options.spawn_points, bounds, &leaf_points);
            tree = filled.0;
            leaf_points = filled.1;
            outcomes
        }
        None => vec![FillOutcome::Off; poses.len()],
    };
    seconds.fill = t.elapsed().as_secs_f64();
    tree.world = world.fingerprint();
    seconds.total = started.elapsed().as_secs_f64();
    let mut stats = TreeStats::new(&tree, &leaf_info, polygons_before, polygons_after, seconds);
    stats.outside_fill = fill;
    tree.validate()
        .map_err(|e| CompileError::Unsound(e.to_string()))?;
    tree.validate_leaf_points(&leaf_points)
        .map_err(|e| CompileError::Unsound(e.to_string()))?;
    Ok(Compiled {
        tree,
        stats,
        leaf_points,
    })
}

/// The faces of every configuration space's union, the tree is built over.
pub(crate) struct Union {
    /// Their planes, deduplicated: the tree's plane table.
    pub table: PlaneTable,
    /// The faces, space by space, each a candidate splitter on its table entry.
    pub polygons: Vec<BuildPolygon>,
    /// The box the cells are cut from: the faces' bounds loosened by 64 units.
    pub bounds: cspace_geom::Aabb,
}

impl Union {
    /// The union faces of `spaces`.
    pub fn of(spaces: &[Space]) -> Union {
        let mut table = PlaneTable::default();
        let mut polygons = Vec::new();
        let mut bounds = cspace_geom::Aabb::EMPTY;
        for (s, space) in spaces.iter().enumerate() {
            for polygon in space.union_faces() {
                let (plane, _) = table.insert(polygon.plane);
                for v in &polygon.vertices {
                    bounds = bounds.including(*v);
                }
                polygons.push(BuildPolygon::new(polygon, plane, s as u16, true));
            }
        }
        if bounds.is_empty() {
            bounds = cspace_geom::Aabb::new(DVec3::splat(-1.0), DVec3::splat(1.0));
        }
        Union {
            table,
            polygons,
            bounds: bounds.loosened(64.0),
        }
    }
}

fn check_poses(poses: &[Pose]) -> Result<(), CompileError> {
    if poses.is_empty() {
        return Err(CompileError::NoPoses);
    }
    if poses.len() > MAX_SPACES {
        return Err(CompileError::TooManyPoses {
            count: poses.len(),
            max: MAX_SPACES,
        });
    }
    for (i, pose) in poses.iter().enumerate() {
        if !pose.mins.is_finite() || !pose.maxs.is_finite() {
            return Err(CompileError::BadPose {
                pose: pose.name.clone(),
                reason: "a corner has a non-finite number".into(),
            });
        }
        if pose.mins.cmpgt(pose.maxs).any() {
            return Err(CompileError::BadPose {
                pose: pose.name.clone(),
                reason: format!(
                    "mins {} exceed maxs {}",
                    cspace_geom::domain::vector(pose.mins),
                    cspace_geom::domain::vector(pose.maxs)
                ),
            });
        }
        if poses[..i].iter().any(|p| p.name == pose.name) {
            return Err(CompileError::DuplicatePose {
                pose: pose.name.clone(),
            });
        }
    }
    Ok(())
}
