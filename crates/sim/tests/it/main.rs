//! Integration tests of the simulator library: the movement model, stepping, backends sharing a
//! world, the numeric domain's edge, patches, navigation on the corpus, and goto in a living
//! world.

mod domain;
mod driving;
mod fired;
mod goto_living;
mod killtarget;
mod living;
mod movement;
mod movers;
mod nav_brute_force;
mod nav_validation;
mod patches;
mod profiles;
mod sharing;
mod stepping;
mod triggers;
mod water;
