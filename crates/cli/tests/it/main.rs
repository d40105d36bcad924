//! Integration tests of the `sim` binary, as a user runs it.

mod bench_living;
mod budgets;
mod cli;
mod corpus_unset;
mod docs;
mod hostile;
mod living;
mod nav;
mod pictures;
mod report;
mod soak;
mod sweep;
mod whole_outputs;
mod words;
