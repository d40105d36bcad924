//! Trace snapshots on disk: one insta snapshot per scenario and backend,
//! `snapshots/traces/BACKEND@SCENARIO.toml.snap`, beside the `scenarios/` folder.
//!
//! The snapshot tests (the `cspace-snapshots` package in `snapshots/`) write them through insta;
//! `sim report`, `sim plot --against` and `tools/render-regression-plots.sh` read them. The
//! naming is insta's `glob!` convention (`NAME@INPUT_FILE`), kept so that `cargo insta review`
//! shows which scenario a pending snapshot belongs to.

use std::path::{Path, PathBuf};

use cspace_sim::backend::BackendKind;

/// The snapshot name of `scenario` (a scenario file) on `backend`: `exact@tunnel.toml`.
pub fn name(backend: BackendKind, scenario: &Path) -> String {
    let file = scenario.file_name().map_or_else(
        || scenario.display().to_string(),
        |f| f.to_string_lossy().into_owned(),
    );
    format!("{}@{file}", backend.name())
}

/// The snapshot folder of a scenario file: `snapshots/traces` beside the scenario's folder
/// (`scenarios/tunnel.toml` has its snapshots in `snapshots/traces`, `tunnel.toml` in
/// `../snapshots/traces`). The scenario's folder is left lexically, as messages name it (a
/// symbolic link to the folder is not followed back).
pub fn dir_for(scenario: &Path) -> PathBuf {
    let mut folder = scenario.parent().unwrap_or(Path::new("")).to_path_buf();
    match folder.components().next_back() {
        Some(std::path::Component::Normal(_)) => {
            folder.pop();
        }
        _ => folder.push(".."),
    }
    folder.join("snapshots").join("traces")
}

/// The snapshot file of `scenario` on `backend` in `dir`: `dir/exact@tunnel.toml.snap`.
pub fn path_in(dir: &Path, backend: BackendKind, scenario: &Path) -> PathBuf {
    dir.join(format!("{}.snap", name(backend, scenario)))
}

/// The body of a snapshot file (the trace), without insta's `---`-delimited header; the text as
/// it is when it has no header.
pub fn body(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("---\n") else {
        return text;
    };
    match rest.find("\n---\n") {
        Some(end) => &rest[end + "\n---\n".len()..],
        None => text,
    }
}

/// How a trace stands against its snapshot file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Comparison {
    /// The snapshot holds this trace.
    Matches,
    /// The snapshot holds another trace (its whole text, header included).
    Differs(String),
    /// There is no snapshot file.
    Missing,
}

/// Compares `trace` with the snapshot file `file`.
pub fn compare(file: &Path, trace: &str) -> Comparison {
    match std::fs::read_to_string(file) {
        Err(_) => Comparison::Missing,
        Ok(text) if body(&text) == trace => Comparison::Matches,
        Ok(text) => Comparison::Differs(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_insta_glob() {
        let scenario = Path::new("scenarios/tunnel.toml");
        assert_eq!(
            name(BackendKind::UdopExact, scenario),
            "udop+exact@tunnel.toml"
        );
        assert_eq!(
            path_in(Path::new("snapshots/traces"), BackendKind::Onion, scenario),
            Path::new("snapshots/traces/onion@tunnel.toml.snap")
        );
        assert_eq!(dir_for(scenario), Path::new("snapshots/traces"));
        assert_eq!(
            dir_for(Path::new("a.toml")),
            Path::new("../snapshots/traces")
        );
        assert_eq!(
            dir_for(Path::new("../a.toml")),
            Path::new("../../snapshots/traces")
        );
        assert_eq!(
            dir_for(Path::new("/work/x/scenarios/a.toml")),
            Path::new("/work/x/snapshots/traces")
        );
    }

    #[test]
    fn the_body_follows_the_header() {
        let snap =
            "---\nsource: x.rs\ninput_file: scenarios/a.toml\n---\ncspace trace 1\nscenario a\n";
        assert_eq!(body(snap), "cspace trace 1\nscenario a\n");
        assert_eq!(body("cspace trace 1\n"), "cspace trace 1\n");
    }
}
