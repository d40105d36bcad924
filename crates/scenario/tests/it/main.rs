//! Integration tests of the scenario format, runs and crowds.

mod crowds;
mod driving;
mod scenario_errors;
mod shaders;
mod triggers;
