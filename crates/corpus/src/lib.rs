//! The map corpus for tests and benchmarks: the `.map` files in the directory named by the
//! `CSPACE_MAPS` environment variable (CI sets it to `../shared/maps`; the maps are never copied
//! into the repository).
//!
//! The contract every corpus test keeps (CONTRIBUTING.md): with `CSPACE_MAPS` unset, the test
//! prints `skipped: <test> (CSPACE_MAPS unset; ... CSPACE_MAPS=../shared/maps)` in the test
//! output and passes; set but unreadable, or a map that does not load, fails it loudly.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cspace_geom::{DVec3, World};
use cspace_mapfile::{BuildOptions, invocation_dir, load_world};

/// One corpus map, loaded.
#[derive(Debug, Clone)]
pub struct CorpusMap {
    /// The file name (`quake_e1m1.map`).
    pub name: String,
    /// Its collision world.
    pub world: Arc<World>,
    /// The origins of its spawn points.
    pub spawns: Vec<DVec3>,
}

/// The corpus directory, or `None` (after printing that `test` is skipped) when `CSPACE_MAPS` is
/// unset. A relative value is a path from the folder the command was typed in
/// ([`cspace_mapfile::invocation_dir`]). Panics when it is set but not a readable directory.
pub fn dir(test: &str) -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("CSPACE_MAPS") else {
        say_skipped(test);
        return None;
    };
    let written = PathBuf::from(dir);
    let dir = invocation_dir().join(&written);
    if let Err(e) = std::fs::read_dir(&dir) {
        panic!(
            "CSPACE_MAPS={} cannot be read (as {}): {e}",
            written.display(),
            dir.display()
        );
    }
    Some(dir)
}

/// Says that `what` is skipped for want of the corpus, with the value to set, in the test output:
/// written to the process's standard output directly, beside the harness's `test ... ok` lines
/// (the harness captures `println!` of passing tests, and a skip must never pass silently).
pub fn say_skipped(what: &str) {
    let _ = writeln!(
        std::io::stdout().lock(),
        "skipped: {what} (CSPACE_MAPS unset; {})",
        cspace_mapfile::CORPUS_HINT
    );
}

/// The `.map` files of the corpus, sorted by name; `None` when `CSPACE_MAPS` is unset.
pub fn paths(test: &str) -> Option<Vec<PathBuf>> {
    Some(map_paths_in(&dir(test)?))
}

/// The `.map` files in `dir`, sorted by name; panics when there is none.
pub fn map_paths_in(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("CSPACE_MAPS={} cannot be read: {e}", dir.display()))
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "map"))
        .collect();
    paths.sort();
    assert!(
        !paths.is_empty(),
        "CSPACE_MAPS={} holds no .map file",
        dir.display()
    );
    paths
}

/// Loads one map file; panics naming the file when it cannot be read or loaded.
pub fn load(path: &Path) -> CorpusMap {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let bytes =
        std::fs::read(path).unwrap_or_else(|e| panic!("{} cannot be read: {e}", path.display()));
    let loaded = load_world(&bytes, &name, &BuildOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    CorpusMap {
        spawns: loaded.spawn_points.iter().map(|s| s.origin).collect(),
        world: Arc::new(loaded.world),
        name,
    }
}

/// Every map of the corpus, loaded, in name order; `None` when `CSPACE_MAPS` is unset.
pub fn maps(test: &str) -> Option<Vec<CorpusMap>> {
    Some(paths(test)?.iter().map(|p| load(p)).collect())
}

/// One map of the corpus by file name; `None` when `CSPACE_MAPS` is unset. Panics when the
/// corpus lacks it.
pub fn map(test: &str, file: &str) -> Option<CorpusMap> {
    let path = dir(test)?.join(file);
    assert!(path.is_file(), "the corpus has no {}", path.display());
    Some(load(&path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_files_are_listed_in_name_order_and_loaded_by_name() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        // Our own map (scenarios/rooms.map), standing in for corpus files.
        let room = include_str!("../../../scenarios/rooms.map");
        for name in ["b.map", "a.map"] {
            std::fs::write(dir.join(name), room).unwrap();
        }
        std::fs::write(dir.join("notes.txt"), "not a map").unwrap();
        let paths = map_paths_in(dir);
        let names: Vec<_> = paths
            .iter()
            .map(|p| p.file_name().unwrap().to_owned())
            .collect();
        assert_eq!(names, ["a.map", "b.map"]);
        let map = load(&paths[0]);
        assert_eq!(map.name, "a.map");
        let expected = load_world(room.as_bytes(), "a.map", &BuildOptions::default()).unwrap();
        assert!(!map.world.is_empty());
        assert_eq!(map.world.len(), expected.world.len());
        let spawns: Vec<DVec3> = expected.spawn_points.iter().map(|s| s.origin).collect();
        assert_eq!(map.spawns, spawns);
    }
}
