//! The bounds of what a scenario and a trace may hold, shared by their readers (issue 35: counts
//! refused before anything is allocated for them, names that never forge a line).

/// The most agents a scenario may hold (its agents and crowds together), and a trace: a
/// million, each a few hundred bytes of state and a place in the agent grid.
pub const MAX_AGENTS: usize = 1_000_000;

/// The longest name a scenario, an agent or a pose may have, bytes. Names hold no control
/// character (a newline in a name would forge a line of the trace format or of a summary).
pub const MAX_NAME_BYTES: usize = 256;

/// What is wrong with `name` as a name (`what`: "agent name", "the backend name", ...): longer
/// than [`MAX_NAME_BYTES`], or holding a control character (a name is drawn into plots, reports
/// and the trace's lines, where a newline forges a line and an escape is not valid SVG or
/// HTML); `None` when it is a name.
pub fn name_problem(name: &str, what: &str) -> Option<String> {
    if name.len() > MAX_NAME_BYTES {
        Some(format!(
            "{what} is {} bytes long; a name holds at most {MAX_NAME_BYTES}",
            name.len()
        ))
    } else {
        name.chars().find(|c| c.is_control()).map(|c| {
            format!(
                "{what} {name:?} holds the control character {c:?}; names are one line of printable text"
            )
        })
    }
}
