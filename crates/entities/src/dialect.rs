//! Which game's rules entities are read and run with.

use std::fmt;

/// The rules a map's entities follow: Quake 1's QuakeC (`doors.qc`, `plats.qc`, `buttons.qc`,
/// `triggers.qc`, `subs.qc` of id's `qw-qc`, and the engine's `sv_phys.c`, `sv_user.c`) or Quake
/// III's game code (`g_mover.c`, `g_trigger.c`, `g_misc.c`, `bg_pmove.c`). A map's format names
/// its dialect (Quake and Valve 220 face lines: Quake 1; Quake 2 / Quake III face lines or
/// patches: Quake III), and a scenario may choose the other (`docs/entities.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dialect {
    /// Quake 1 (QuakeC).
    Quake1,
    /// Quake III Arena (its game module).
    Quake3,
}

impl Dialect {
    /// Both dialects.
    pub const ALL: [Dialect; 2] = [Dialect::Quake1, Dialect::Quake3];

    /// The name scenarios and traces use: `quake1`, `quake3`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Quake1 => "quake1",
            Dialect::Quake3 => "quake3",
        }
    }

    /// The dialect of a name ([`Dialect::name`]).
    pub fn from_name(name: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|d| d.name() == name)
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
