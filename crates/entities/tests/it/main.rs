//! The integration tests of `cspace-entities`.

mod machinery;
mod spawn;
