//! The crate's error: what went wrong, and where when there is a place to name.

use std::path::PathBuf;

use cspace_sim::navigation::NavBuildError;
use cspace_sim::{BuildError, SimError};

use crate::location::LocatedError;

/// Why a `cspace-scenario` operation failed. Every variant says where: the file (with line and column
/// when the fault is inside it), the scenario, or the backend.
///
/// ```
/// use std::path::Path;
/// use cspace_scenario::{Error, Scenario};
///
/// let text = "name = \"broken\"\ntime_step = -1\nsteps = 10\n[world]\n";
/// match Scenario::parse(Path::new("broken.toml"), text) {
///     Err(Error::Located(e)) => {
///         assert_eq!((e.line, e.column), (2, 13));
///         assert!(e.message.contains("time_step must be positive"));
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file cannot be read or written.
    #[error("{}: cannot {action}: {error}", cspace_mapfile::normalised(path).display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done (`read the scenario`, `write the trace`).
        action: &'static str,
        /// Why.
        error: std::io::Error,
    },
    /// A scenario, TOML world or trace is malformed: `file:line:column: what`.
    #[error(transparent)]
    Located(#[from] LocatedError),
    /// A `.map` file is malformed (`file:line:column: what`).
    #[error(transparent)]
    Map(#[from] cspace_mapfile::MapError),
    /// A backend's structure cannot be built for a world (the onion or Melax compiler refused it).
    #[error(
        "{}{backend}: cannot build it for this world: {message}",
        scenario.as_ref().map(|p| format!("{}: ", cspace_mapfile::normalised(p).display())).unwrap_or_default()
    )]
    Build {
        /// The scenario whose world it is, when there is one.
        scenario: Option<PathBuf>,
        /// The backend.
        backend: &'static str,
        /// The compiler's refusal.
        message: String,
    },
    /// A backend cannot run a scenario: it cannot trace an agent's shape.
    #[error("{}: the {backend} backend cannot run it: {reason}", cspace_mapfile::normalised(scenario).display())]
    Unsupported {
        /// The scenario file.
        scenario: PathBuf,
        /// The backend.
        backend: &'static str,
        /// Which agent and why.
        reason: String,
    },
    /// A crowd is to be placed around a world's spawn points, and it has none.
    #[error("{world}: no spawn points to place a crowd around")]
    NoSpawnPoints {
        /// The world.
        world: String,
    },
    /// A compiled tree does not belong to the world it was given with.
    #[error("{}: {error}", cspace_mapfile::normalised(tree).display())]
    WorldMismatch {
        /// The tree file.
        tree: PathBuf,
        /// The fingerprints.
        error: cspace_geom::WorldMismatch,
    },
    /// The navigation graph cannot be built, or a query refused its point (a start or goal in
    /// solid or over a void): `context` says which world or which argument.
    #[error("{context}: {error}")]
    Nav {
        /// The world, or the argument at fault (`--from 1,2,3`).
        context: String,
        /// The planner's refusal.
        error: cspace_nav::NavError,
    },
    /// The simulation cannot be built (its agents or constants).
    #[error(transparent)]
    Sim(#[from] SimError),
    /// A world's navigation cannot be built.
    #[error(transparent)]
    NavBuild(#[from] NavBuildError),
}

impl From<BuildError> for Error {
    fn from(e: BuildError) -> Error {
        Error::Build {
            scenario: None,
            backend: e.backend,
            message: e.message,
        }
    }
}

impl Error {
    /// This error, naming `scenario` if it is a [`Error::Build`] that names none.
    pub fn in_scenario(self, path: &std::path::Path) -> Error {
        match self {
            Error::Build {
                scenario: None,
                backend,
                message,
            } => Error::Build {
                scenario: Some(path.to_path_buf()),
                backend,
                message,
            },
            other => other,
        }
    }

    /// An I/O error on `path` while doing `action`.
    pub fn io(path: impl Into<PathBuf>, action: &'static str, error: std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            action,
            error,
        }
    }
}
