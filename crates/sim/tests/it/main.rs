//! Integration tests of the simulator library: the movement model, stepping, backends sharing a
//! world, the numeric domain's edge, patches, and navigation on the corpus.

mod domain;
mod driving;
mod living;
mod movement;
mod movers;
mod nav_brute_force;
mod nav_validation;
mod patches;
mod profiles;
mod sharing;
mod stepping;
mod water;
