//! The integration tests of `cspace-entities`.

mod bad_input;
mod firing;
mod machinery;
mod spawn;
