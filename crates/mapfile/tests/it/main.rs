//! Integration tests of cspace-mapfile: the corpus against the SOURCES.md table (through
//! `CSPACE_MAPS`), every syntax error path, invalid brushes, and corrupted input. The formats and
//! lexical pitfalls are unit-tested beside the parser (`src/parse/tests.rs`).

mod corpus;
mod corrupt;
mod entities;
mod errors;
mod invalid_brush;
mod many_faces;
mod patch_budget;
mod patches;
mod support;
