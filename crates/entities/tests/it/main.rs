//! The integration tests of `cspace-entities`.

mod bad_input;
mod firing;
mod machinery;
mod random;
mod spawn;
