//! The harness end to end on a tiny world: every part runs and the report has every section.
//! Figures are measured, never asserted.

mod quick;
