//! Integration tests of cspace-udop: the paper's algorithms against brute force, k-UDOPs against
//! the exact backend, the free-space cache against the bare exact backend, the broadphase
//! against all pairs.

mod algorithms;
mod broadphase;
mod cache;
mod cells;
mod common;
mod conservative;
mod corpus;
mod patches;
mod touching;
