//! The bounds of what a scenario and a trace may hold, shared by their readers (issue 35: counts
//! refused before anything is allocated for them, names that never forge a line).

/// The most agents a scenario may hold (its agents and crowds together), and a trace: a
/// million, each a few hundred bytes of state and a place in the agent grid.
pub const MAX_AGENTS: usize = 1_000_000;

/// The longest name a scenario, an agent or a pose may have, bytes. Names hold no control
/// character (a newline in a name would forge a line of the trace format or of a summary).
pub const MAX_NAME_BYTES: usize = 256;
