//! One module per subcommand: its arguments and what it does.

pub(crate) mod bench;
pub(crate) mod check;
pub(crate) mod compare;
pub(crate) mod compile;
pub(crate) mod los;
pub(crate) mod map;
pub(crate) mod nav;
pub(crate) mod path;
pub(crate) mod plot;
pub(crate) mod report;
pub(crate) mod run;
pub(crate) mod sweep;
pub(crate) mod trace;
