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

/// The feature sets `cargo tree` resolves for a build: package (name and version) to the
/// feature lists it is built with (a package built for the host and for the target may have
/// two).
fn resolved_features(
    args: &[&str],
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out =
        std::process::Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .arg("tree")
            .args(args)
            .args(["--prefix", "none", "--format", "{p}|{f}", "--offline"])
            .current_dir(root)
            .output()
            .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut map: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let line = line.trim_end_matches(" (*)");
        let Some((package, features)) = line.split_once('|') else {
            continue;
        };
        // The name and version (a path package also shows its folder).
        let id: Vec<&str> = package.split_whitespace().take(2).collect();
        map.entry(id.join(" "))
            .or_default()
            .insert(features.to_string());
    }
    map
}

/// Issue 34: after `cargo test --workspace`, each `cargo test -p X` or `cargo run -p X` the
/// documents give rebuilt 16 or 17 dependencies, because cargo resolves features per selection
/// of packages. Every member depends on the workspace-hack crate (`cargo hakari generate`), so
/// that each package's build, with or without its dev-dependencies, resolves every dependency
/// with features the workspace build already built it with. After a dependency change, run
/// `cargo hakari generate && cargo hakari manage-deps` (CONTRIBUTING.md).
#[test]
fn building_one_package_after_the_workspace_rebuilds_no_dependency() {
    let workspace = resolved_features(&["--workspace", "-e", "normal,build,dev"]);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let metadata =
        std::process::Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args([
                "metadata",
                "--no-deps",
                "--format-version",
                "1",
                "--offline",
            ])
            .current_dir(root)
            .output()
            .expect("cargo runs");
    let metadata: serde_json::Value = serde_json::from_slice(&metadata.stdout).unwrap();
    // Each member, and whether it has a binary (`cargo run -p` builds it without
    // dev-dependencies; everything else is built with them, by `cargo test` or `cargo bench`).
    let members: Vec<(String, bool)> = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let runs = p["targets"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t["kind"].as_array().unwrap().iter().any(|k| k == "bin"));
            (p["name"].as_str().unwrap().to_string(), runs)
        })
        .collect();
    assert!(members.len() > 10, "{members:?}");
    let mut rebuilt = Vec::new();
    for (name, runs) in &members {
        let builds: &[&str] = if *runs {
            &["normal,build,dev", "normal,build"]
        } else {
            &["normal,build,dev"]
        };
        for &edges in builds {
            for (id, features) in resolved_features(&["-p", name, "-e", edges]) {
                let built = workspace.get(&id);
                for f in &features {
                    if built.is_none_or(|b| !b.contains(f)) {
                        rebuilt.push(format!(
                            "cargo {} -p {name}: {id} with [{f}] (the workspace built it with {:?})",
                            if edges.contains("dev") { "test" } else { "run" },
                            built
                        ));
                    }
                }
            }
        }
    }
    assert!(
        rebuilt.is_empty(),
        "these builds compile a dependency again (run `cargo hakari generate && cargo hakari \
         manage-deps`):\n{}",
        rebuilt.join("\n")
    );
}
