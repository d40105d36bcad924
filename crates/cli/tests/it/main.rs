//! Integration tests of the `sim` binary, as a user runs it.

mod cli;
mod corpus_unset;
mod docs;
mod hostile;
mod living;
mod nav;
mod report;
mod soak;
mod sweep;
