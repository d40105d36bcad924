//! Where a relative path typed by a user points.

use std::path::PathBuf;

/// What `CSPACE_MAPS` should be, for the messages of everything that needs the map corpus and
/// finds the variable unset: the corpus lies beside the repository (`../shared/maps`).
pub const CORPUS_HINT: &str = "from the repository root: CSPACE_MAPS=../shared/maps";

/// The folder the user typed the command in: the shell's `PWD` when it names a folder, else the
/// current directory.
///
/// `cargo test` runs each test binary in its package's folder but passes the environment on, so
/// `PWD` still names the folder `cargo test` was typed in: a relative `CSPACE_MAPS` (the corpus
/// tests', or a scenario's `map = "${CSPACE_MAPS}/..."`) means a path from there.
pub fn invocation_dir() -> PathBuf {
    std::env::var_os("PWD")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute() && p.is_dir())
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_default()
}
