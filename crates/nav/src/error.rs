//! Why a navigation graph could not be built or a query could not be answered.

use std::fmt;

use glam::DVec3;

/// Which point of a query an error is about: the start or the goal of a path, or the one point of
/// a point query ([`crate::NavMesh::nearest_walkable`]). Written as the error messages name it
/// (`start`, `goal`, `point`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Endpoint {
    /// A path's start.
    Start,
    /// A path's goal.
    Goal,
    /// A point query's point.
    Point,
}

impl Endpoint {
    /// The word the error messages use.
    pub fn as_str(self) -> &'static str {
        match self {
            Endpoint::Start => "start",
            Endpoint::Goal => "goal",
            Endpoint::Point => "point",
        }
    }
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a navigation graph could not be built, or a query not answered. A point that simply has
/// no path is not an error: [`crate::NavMesh::path`] answers `Ok(None)`.
///
/// ```
/// use cspace_nav::NavError;
/// use glam::DVec3;
///
/// use cspace_nav::Endpoint;
///
/// let e = NavError::InSolid { what: Endpoint::Start, point: DVec3::new(1.0, 2.0, 3.0), pose: "stand".into() };
/// assert_eq!(e.to_string(), "start [1, 2, 3] is inside solid for pose stand");
/// // Callers match the endpoint, not a string.
/// assert!(matches!(e, NavError::InSolid { what: Endpoint::Start, .. }));
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
    /// A teleporter, push pad or door given to [`crate::NavMesh::build_with`] is out of the
    /// numeric domain (a bound, destination or velocity not finite or beyond it, an empty
    /// volume, a negative opening time).
    #[error("{what} {index}: {reason}")]
    BadVolume {
        /// `teleporter`, `push pad` or `door`.
        what: &'static str,
        /// Its index in its list.
        index: usize,
        /// What is wrong.
        reason: String,
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
        /// Which point.
        what: Endpoint,
        /// The point.
        point: DVec3,
    },
    /// A query point inside solid for the pose.
    #[error("{what} {point} is inside solid for pose {pose}")]
    InSolid {
        /// Which point.
        what: Endpoint,
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
        what: Endpoint,
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
