//! No import circles inside any crate: within each crate of the workspace, the top-level
//! modules (`src/NAME.rs` or `src/NAME/`) import one another without a loop (ARCHITECTURE.md,
//! "Architecture Invariant"). A name the crate root re-exports (`pub use module::Name`) counts as
//! an import of its module. Test code is left out: `#[cfg(test)]` items, and the files of test
//! modules (`tests.rs`, `*_tests.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::source::{rust_files, without_tests};

/// Per top-level module of the crate at `src`, the other top-level modules it imports.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.retain(|f| {
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
        name != "tests.rs" && !name.ends_with("_tests.rs")
    });
    let module_of = |file: &Path| -> Option<String> {
        let relative = file.strip_prefix(src).ok()?;
        let first = relative.components().next()?.as_os_str().to_str()?;
        let name = first.strip_suffix(".rs").unwrap_or(first);
        (!["lib", "main"].contains(&name)).then(|| name.to_string())
    };
    let modules: BTreeSet<String> = files.iter().filter_map(|f| module_of(f)).collect();
    // What the root re-exports, by name: `pub use module::{A, B};` or `pub use module::A;`.
    let mut exported: BTreeMap<String, String> = BTreeMap::new();
    for root in ["lib.rs", "main.rs"] {
        let Ok(text) = std::fs::read_to_string(src.join(root)) else {
            continue;
        };
        let text = text.replace('\n', " ");
        for statement in text.split(';') {
            let Some(rest) = statement.trim().strip_prefix("pub use ") else {
                continue;
            };
            let Some((module, names)) = rest.split_once("::") else {
                continue;
            };
            if !modules.contains(module) {
                continue;
            }
            let names = names.trim().trim_start_matches('{').trim_end_matches('}');
            for name in names.split(',') {
                let name = name.trim().rsplit("::").next().unwrap_or("").trim();
                if !name.is_empty() {
                    exported.insert(name.to_string(), module.to_string());
                }
            }
        }
    }
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let Some(module) = module_of(file) else {
            continue;
        };
        let text = without_tests(&std::fs::read_to_string(file).unwrap());
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let targets = out.entry(module.clone()).or_default();
        for (at, _) in code.match_indices("crate::") {
            let after = &code[at + "crate::".len()..];
            let mut names: Vec<&str> = Vec::new();
            if let Some(group) = after.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                names.extend(group[..end].split(',').map(|n| n.trim()));
            } else {
                names.push(after);
            }
            for name in names {
                let word: String = name
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let target = if modules.contains(&word) {
                    Some(word)
                } else {
                    exported.get(&word).cloned()
                };
                if let Some(target) = target.filter(|t| *t != module) {
                    targets.insert(target);
                }
            }
        }
    }
    out
}

/// A loop in `graph`, as the modules along it, if there is one.
fn a_loop(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

/// The workspace's crates and tools: every folder with a `src/`.
fn crates() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    for group in ["crates", "tools"] {
        for entry in std::fs::read_dir(root.join(group)).unwrap() {
            let src = entry.unwrap().path().join("src");
            if src.is_dir() {
                out.push(src);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn no_crate_imports_its_own_modules_in_a_loop() {
    let mut loops = Vec::new();
    for src in crates() {
        if let Some(cycle) = a_loop(&imports(&src)) {
            loops.push(format!("{}: {}", src.display(), cycle.join(" -> ")));
        }
    }
    assert!(loops.is_empty(), "import circles:\n{}", loops.join("\n"));
}

/// The check finds a loop when there is one (the issue's `error -> simulation -> navigation ->
/// error`), and none in a chain.
#[test]
fn a_loop_is_found_and_a_chain_is_not() {
    let graph = |edges: &[(&str, &str)]| {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    };
    let cycle = graph(&[
        ("error", "simulation"),
        ("simulation", "navigation"),
        ("navigation", "error"),
    ]);
    assert_eq!(
        a_loop(&cycle).unwrap(),
        ["error", "simulation", "navigation", "error"]
    );
    assert_eq!(a_loop(&graph(&[("a", "b"), ("b", "c"), ("a", "c")])), None);
}
