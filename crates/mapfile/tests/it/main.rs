//! Integration tests of cspace-mapfile: the corpus (through `CSPACE_MAPS`), inline maps of every
//! format and pitfall, every error path, invalid brushes, and corrupted input.

mod corpus;
mod corrupt;
mod errors;
mod invalid_brush;
mod support;
