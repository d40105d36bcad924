//! What cspace shows people: trajectory plots over the world's brushes ([`plot`]), the
//! self-contained HTML page of `sim report` ([`report`]), run summaries, comparisons and the
//! verdict line ([`summary`]), and the text and JSON tables of `sim map`, `sim compile` and
//! `sim nav` ([`map_report`], [`tree_report`], [`nav_report`]).
//!
//! It takes typed values (scenarios, runs, traces, statistics) and returns text, SVG, PNG or
//! HTML; only it knows plotters and the bundled font. The command line (`cspace-cli`) decides
//! where they go.

pub mod entities_report;
pub mod map_report;
pub mod nav_report;
pub mod plot;
pub mod report;
pub mod summary;
pub mod tree_report;
