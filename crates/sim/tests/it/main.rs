//! Integration tests of the `sim` binary and the simulator library.

mod cli;
mod docs;
mod domain;
mod hostile;
mod movement;
mod nav;
mod nav_brute_force;
mod nav_validation;
mod patches;
mod report;
mod scenario_errors;
mod sharing;
mod soak;
mod stepping;
mod sweep;
