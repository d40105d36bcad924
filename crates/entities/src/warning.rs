//! Warnings: what was odd in an entity, where, and what was done instead.

use std::fmt;

/// Something odd in an entity that did not stop the import: a target naming nothing, a broken
/// `path_corner` chain, a teleporter without a destination, a liquid inside a brush entity, a
/// key that is not a number. Each says what was done instead (a defined behaviour).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntityWarning {
    /// The index of the entity in the file.
    pub entity: u32,
    /// The 1-based line of its opening `{`.
    pub line: u32,
    /// Its class (empty when it has none).
    pub classname: String,
    /// What is odd, and what was done.
    pub message: String,
}

impl fmt::Display for EntityWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: entity {} ({}): {}",
            self.line, self.entity, self.classname, self.message
        )
    }
}
