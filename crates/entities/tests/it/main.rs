//! The integration tests of `cspace-entities`.

mod spawn;
