//! Syntax errors: what is wrong, and where (file, line, column).

use std::fmt;
use std::sync::Arc;

/// A position in a `.map` file: the file's display name, a 1-based line and a 1-based column.
///
/// Columns count bytes from the start of the line (the corpus is ASCII, where bytes and
/// characters agree).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Location {
    /// The display name of the file (what was passed to [`MapFile::parse`](crate::MapFile::parse)).
    pub file: Arc<str>,
    /// The 1-based line.
    pub line: u32,
    /// The 1-based column, in bytes.
    pub column: u32,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// Why a `.map` file could not be parsed.
///
/// A syntax error stops the parse: a map whose structure is broken cannot be trusted. (A brush
/// that parses but is not a valid convex volume is not an error: [`build_world`](crate::build_world)
/// reports and skips it.) Every variant names the place with [`Location`] and quotes what was
/// found there; tokens are quoted as written (`"classname"` for a quoted string, `'nan'` for a bare
/// word) and shortened to 48 characters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MapError {
    /// A token that does not fit the grammar at this place.
    #[error("{at}: expected {expected}, found {found}")]
    Unexpected {
        /// Where the token starts.
        at: Location,
        /// What the grammar allows here.
        expected: String,
        /// The token found, quoted.
        found: String,
    },
    /// The file ends inside an entity, a brush or a patch.
    #[error(
        "{at}: unexpected end of file: expected {expected}; the {inside} opened at line {opened} is not closed"
    )]
    UnexpectedEof {
        /// The end of the file.
        at: Location,
        /// What the grammar needed next.
        expected: String,
        /// The block left open: `entity`, `brush` or `patch`.
        inside: &'static str,
        /// The line of the block's opening `{`.
        opened: u32,
    },
    /// A quoted string with no closing quote on its line (Quake's tools refuse a line break inside
    /// quotes too).
    #[error("{at}: unterminated quoted string {found}: no closing '\"' before the end of the line")]
    UnterminatedString {
        /// Where the opening quote is.
        at: Location,
        /// The text from the opening quote to the end of the line.
        found: String,
    },
    /// A token where a number is required that is not one.
    #[error("{at}: expected {expected}, found {found}, which is not a number")]
    InvalidNumber {
        /// Where the token starts.
        at: Location,
        /// Which number was expected (e.g. `the x coordinate of a plane point`).
        expected: &'static str,
        /// The token found, quoted.
        found: String,
    },
    /// A number that is NaN or infinite, written so (`nan`, `inf`) or too large for `f64` (`1e999`).
    #[error("{at}: {found} is not a finite number")]
    NonFiniteNumber {
        /// Where the token starts.
        at: Location,
        /// The token found, quoted.
        found: String,
    },
    /// A token where an integer is required (Quake 2 / Quake 3 face flags, patch sizes) that is not
    /// one, or is out of range.
    #[error("{at}: expected {expected}, found {found}")]
    InvalidInteger {
        /// Where the token starts.
        at: Location,
        /// Which integer was expected, with its range.
        expected: &'static str,
        /// The token found, quoted.
        found: String,
    },
    /// A face line whose fields after the texture name match no supported format.
    #[error(
        "{at}: face has {count} fields after texture {texture}; expected 5 (Quake: xoff yoff rot xscale yscale), \
         8 (Quake 2 / Quake 3: the same and contents flags value) or a Valve 220 projection \
         ([ ux uy uz uoff ] [ vx vy vz voff ] rot xscale yscale)"
    )]
    FaceFieldCount {
        /// Where the first field (or the texture name, when there is none) starts.
        at: Location,
        /// How many fields follow the texture name on its line.
        count: usize,
        /// The texture name, quoted.
        texture: String,
    },
    /// A construct of a map format this crate does not read (Quake 3 brush primitives, Doom 3
    /// brushes and patches).
    #[error(
        "{at}: {found} ({format}) is not supported; convert the map to Quake standard, Valve 220 \
         or Quake 3 legacy brushes"
    )]
    Unsupported {
        /// Where the keyword starts.
        at: Location,
        /// The keyword found, quoted (`'brushDef'`, `'brushDef3'`, `'patchDef3'`, `'Version'`).
        found: String,
        /// The format it belongs to.
        format: &'static str,
    },
    /// The collidable patches would be cut into more facets than a world may hold
    /// ([`cspace_geom::tolerance::MAX_PATCH_FACETS`]): counted before any is made (issue 35).
    #[error(
        "{at}: patch subdivision needs {facets} facets or more to stay within {bound} units of the \
         curved surfaces (this patch the most), beyond the limit of {limit} facets per map \
         (cspace_geom::tolerance::MAX_PATCH_FACETS); its control points bend too sharply for \
         their spacing"
    )]
    PatchBudget {
        /// The size header `( W H 0 0 0 )` of the patch with the most cells when the count
        /// passed the limit.
        at: Location,
        /// The facets counted then: what the subdivision needs at the least.
        facets: usize,
        /// The error bound of the tessellation, in units, written out (the error stays `Eq`).
        bound: String,
        /// The limit.
        limit: usize,
    },
}

impl MapError {
    /// Where the error is.
    pub fn location(&self) -> &Location {
        match self {
            MapError::Unexpected { at, .. }
            | MapError::UnexpectedEof { at, .. }
            | MapError::UnterminatedString { at, .. }
            | MapError::InvalidNumber { at, .. }
            | MapError::NonFiniteNumber { at, .. }
            | MapError::InvalidInteger { at, .. }
            | MapError::FaceFieldCount { at, .. }
            | MapError::Unsupported { at, .. }
            | MapError::PatchBudget { at, .. } => at,
        }
    }
}
