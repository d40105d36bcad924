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

/// `path` with `.` components dropped and each `name/..` pair removed, lexically (the
/// filesystem is not asked, so a symbolic link is not followed): how messages show a path,
/// `scenarios/../snapshots/traces` as `snapshots/traces`. A relative path stays relative (its
/// leading `..` kept), an absolute one absolute (`..` above the root dropped); an empty result
/// is `.`.
pub fn normalised(path: &std::path::Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(c),
            },
            _ => out.push(c),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::normalised;

    #[test]
    fn paths_are_normalised_lexically() {
        let n = |p: &str| normalised(Path::new(p)).display().to_string();
        assert_eq!(n("scenarios/../snapshots/traces"), "snapshots/traces");
        assert_eq!(n("./scenarios/./tunnel.toml"), "scenarios/tunnel.toml");
        assert_eq!(
            n("../shared/maps/../maps/e1m1.map"),
            "../shared/maps/e1m1.map"
        );
        assert_eq!(n("a/b/../../.."), "..");
        assert_eq!(n("a/.."), ".");
        assert_eq!(n("/x/../../y"), "/y");
        assert_eq!(n("-"), "-");
    }
}
