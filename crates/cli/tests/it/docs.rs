//! The documented commands as a newcomer meets them: README.md's install command builds what
//! the tests were built against and warns of nothing, and its command table lists every `sim`
//! subcommand.

use super::cli::sim;

fn read(file: &str) -> String {
    let path = format!("{}/../../{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `cargo install --path crates/cli` without `--locked` re-resolved the dependencies (newer
/// `toml` than the tests used) and warned three times that `[profile.dev.package.insta]` matched
/// no package of the install. The README's command is locked, and the manifest overrides no
/// package's profile.
#[test]
fn the_install_command_is_locked_and_nothing_makes_it_warn() {
    let readme = read("README.md");
    let install: Vec<&str> = readme
        .lines()
        .filter(|l| l.trim_start().starts_with("cargo install"))
        .collect();
    assert!(
        !install.is_empty(),
        "README.md shows no cargo install command"
    );
    for line in install {
        assert!(line.contains("--locked"), "{line:?} is not --locked");
    }
    let manifest: toml::Table = read("Cargo.toml").parse().unwrap();
    if let Some(profiles) = manifest.get("profile").and_then(|p| p.as_table()) {
        for (name, profile) in profiles {
            assert!(
                profile.get("package").is_none(),
                "[profile.{name}.package] makes `cargo install --path crates/cli` warn"
            );
        }
    }
}

#[test]
fn every_subcommand_is_in_the_readme_command_table() {
    let help = String::from_utf8(sim(&["--help"], "").stdout).unwrap();
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 9, "{help}");
    let readme = read("README.md");
    for command in commands {
        assert!(
            readme.contains(&format!("| `sim {command}")),
            "README.md's command table lacks `sim {command}`"
        );
    }
}
