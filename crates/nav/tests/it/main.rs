//! Integration tests of cspace-nav: leaf adjacency against brute force, links on small worlds
//! built for each kind, paths (free waypoints, determinism), line of sight against the exact
//! point trace, every error, the links of a living world (teleporters, push pads, doors), and
//! the corpus (`CSPACE_MAPS`).

mod common;
mod corpus;
mod errors;
mod floors;
mod links;
mod los;
mod paths;
mod portals;
mod volumes;
