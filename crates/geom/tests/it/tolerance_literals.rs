//! Every epsilon of the library code is a named constant of `cspace_geom::tolerance`, with its
//! unit, source and reason: this test fails on a bare small number (written `1e-9`, `2.5e-7` or
//! `0.001`) in any crate's `src/`, outside `tolerance.rs` and test code. A small number that is
//! not a tolerance (a unit conversion, an axis's floor) says so in a comment containing "not a
//! tolerance", on its line or the line above.

use std::path::Path;

use crate::source::{rust_files, without_tests};

/// The small number literals of a line of code (comments excluded): `1e-9`, `2.5e-7`, `0.001`.
fn small_literals(code: &str) -> Vec<String> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts = bytes[i].is_ascii_digit()
            && (i == 0
                || !(bytes[i - 1].is_ascii_alphanumeric()
                    || bytes[i - 1] == b'_'
                    || bytes[i - 1] == b'.'));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < bytes.len()
            && (bytes[j].is_ascii_alphanumeric()
                || bytes[j] == b'.'
                || bytes[j] == b'_'
                || (j > i && bytes[j] == b'-' && bytes[j - 1] == b'e'))
        {
            j += 1;
        }
        let word = &code[i..j];
        let scientific = word.split_once("e-").is_some_and(|(m, e)| {
            !m.is_empty() && !e.is_empty() && e.chars().all(|c| c.is_ascii_digit())
        });
        if scientific || word.starts_with("0.00") {
            found.push(word.to_string());
        }
        i = j.max(i + 1);
    }
    found
}

#[test]
fn library_code_names_its_tolerances() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&crates).unwrap() {
        let src = entry.unwrap().path().join("src");
        if src.is_dir() {
            rust_files(&src, &mut files);
        }
    }
    files.sort();
    assert!(files.len() > 50, "only {} files found", files.len());
    let mut bare = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy();
        if matches!(name.as_ref(), "tolerance.rs" | "tests.rs" | "testing.rs") {
            continue;
        }
        let text = without_tests(&std::fs::read_to_string(file).unwrap());
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let marked = |l: &str| l.contains("not a tolerance");
            if marked(line) || (i > 0 && marked(lines[i - 1])) {
                continue;
            }
            let code = line.split("//").next().unwrap_or("");
            for literal in small_literals(code) {
                bare.push(format!(
                    "{}:{}: {literal} in `{}`",
                    file.strip_prefix(&crates).unwrap_or(file).display(),
                    i + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        bare.is_empty(),
        "bare tolerances (name them in cspace_geom::tolerance, with unit, source and reason):\n{}",
        bare.join("\n")
    );
}

#[test]
fn the_scanner_finds_small_literals_and_skips_test_code() {
    assert_eq!(
        small_literals("x > 1e-9 && y < 2.5e-7 + 0.001"),
        ["1e-9", "2.5e-7", "0.001"]
    );
    assert!(small_literals("let a = 1.0e3 * b10 + 0.5 + c1e-9;").is_empty());
    let text = "a\n#[cfg(test)]\nmod tests {\n    const X: f64 = 1e-9;\n}\nb 1e-3\n";
    let kept = without_tests(text);
    assert_eq!(kept.lines().count(), text.lines().count());
    assert_eq!(small_literals(&kept), ["1e-3"]);
}
