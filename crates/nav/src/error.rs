//! Why a navigation graph could not be built or a query could not be answered.

use glam::DVec3;

/// Why a navigation graph could not be built, or a query not answered. A point that simply has
/// no path is not an error: [`crate::NavMesh::path`] answers `Ok(None)`.
///
/// ```
/// use cspace_nav::NavError;
/// use glam::DVec3;
///
/// let e = NavError::InSolid { what: "start", point: DVec3::new(1.0, 2.0, 3.0), pose: "stand".into() };
/// assert_eq!(e.to_string(), "start [1, 2, 3] is inside solid for pose stand");
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum NavError {
    /// The tree was compiled from another world.
    #[error("the onion tree was compiled from world {tree:016x}, not from this world {world:016x}")]
    WorldMismatch {
        /// The tree's world fingerprint.
        tree: u64,
        /// The given world's fingerprint.
        world: u64,
    },
    /// No pose was given.
    #[error("no pose to plan for: give at least one (the first is the primary, standing pose)")]
    NoPoses,
    /// A pose name the tree does not have.
    #[error("pose {name}: the onion tree has no such pose (it has {available})")]
    UnknownPose {
        /// The name asked for.
        name: String,
        /// The tree's poses, comma separated.
        available: String,
    },
    /// A pose given twice.
    #[error("pose {name} is given twice")]
    DuplicatePose {
        /// The name.
        name: String,
    },
    /// A secondary pose whose box does not fit in the primary pose's box.
    #[error(
        "pose {pose} does not fit inside the primary pose {primary}: crouch and stand-up links need nested boxes"
    )]
    PoseNotNested {
        /// The secondary pose.
        pose: String,
        /// The primary pose.
        primary: String,
    },
    /// A pose's speed scale is not a finite positive number.
    #[error("pose {pose}: speed scale {value} must be finite and positive")]
    BadSpeed {
        /// The pose.
        pose: String,
        /// The scale given.
        value: f64,
    },
    /// A [`crate::NavParams`] field is out of its range.
    #[error("navigation parameter {field} = {value}: {reason}")]
    BadParams {
        /// The field.
        field: &'static str,
        /// Its value.
        value: f64,
        /// Its range.
        reason: &'static str,
    },
    /// A pose index beyond the navigation graph's poses.
    #[error("pose index {pose}: the navigation graph has {poses} poses")]
    PoseIndex {
        /// The index given.
        pose: usize,
        /// How many poses there are.
        poses: usize,
    },
    /// A query point that is not finite or lies beyond the world's limit
    /// ([`cspace_geom::tolerance::WORLD_HALF_EXTENT`]).
    #[error("{what} {point} is not a finite point within the world's limit")]
    BadPoint {
        /// Which point (`start`, `goal`, `point`, ...).
        what: &'static str,
        /// The point.
        point: DVec3,
    },
    /// A query point inside solid for the pose.
    #[error("{what} {point} is inside solid for pose {pose}")]
    InSolid {
        /// Which point.
        what: &'static str,
        /// The point.
        point: DVec3,
        /// The pose.
        pose: String,
    },
    /// A query point with no walkable floor below it within the deepest fall.
    #[error(
        "{what} {point} has no walkable floor below it for pose {pose} (within the deepest fall)"
    )]
    NoGround {
        /// Which point.
        what: &'static str,
        /// The point.
        point: DVec3,
        /// The pose.
        pose: String,
    },
    /// More areas or links than the graph's 32-bit indices hold.
    #[error("{what}: more than {max} in one navigation graph")]
    TooLarge {
        /// Areas or links.
        what: &'static str,
        /// The limit.
        max: u64,
    },
}
