//! The cspace simulator and its command line, `sim`.
//!
//! This crate is the only one that knows files, TOML, the command line and (later) hecs and
//! plotting. Its parts:
//! - [`world_file`]: worlds from `.map` files and TOML worlds of inline brushes;
//! - [`backend`]: the collision backends a run can choose by name;
//! - [`segments`]: `sim trace`, segments in, one JSON hit per line out;
//! - [`shape_arg`] and [`location`]: command-line shapes, and errors located in files.

pub mod agent;
pub mod backend;
pub mod bench;
pub mod location;
pub mod map_report;
pub mod params;
pub mod plot;
pub mod record;
pub mod report;
pub mod run;
pub mod scenario;
pub mod segments;
pub mod shape_arg;
pub mod sim;
pub mod snapshot;
pub mod summary;
pub mod trace;
pub mod tree_report;
pub mod world_file;
