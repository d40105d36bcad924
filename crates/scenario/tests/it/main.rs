//! Integration tests of the scenario format, runs and crowds.

mod crowds;
mod scenario_errors;
