//! Outputs are written whole or not at all (issue 36): with a write error on the way (here the
//! file size limit, `ulimit -f`, which a full disk behaves like), every command that writes a
//! file exits 2 and leaves the previous file as it was, with no partial file beside it.

use std::path::Path;
use std::process::Command;

use super::cli::{scenario_path, scratch_dir};

/// Runs `sim ARGS` in `dir` with files limited to one block, its write errors returned as errors
/// (`SIGXFSZ` ignored): `(exit code, standard error)`.
fn sim_on_a_full_disk(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("sh runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_write_error_leaves_the_previous_file_and_nothing_else() {
    let scratch = scratch_dir();
    let dir = scratch.path();
    let drop = scenario_path("drop.toml");
    let rooms = scenario_path("rooms.map");
    let cases: [(&str, Vec<&str>); 6] = [
        (
            "out.trace",
            vec!["run", &drop, "--backend", "exact", "--trace", "out.trace"],
        ),
        (
            "lines.jsonl",
            vec!["sweep", &drop, "--seeds", "0..8", "--out", "lines.jsonl"],
        ),
        ("rooms.tree", vec!["compile", &rooms, "-o", "rooms.tree"]),
        ("report.html", vec!["report", &drop, "-o", "report.html"]),
        (
            "plot.svg",
            vec!["plot", &drop, "--backend", "exact", "-o", "plot.svg"],
        ),
        (
            "plot.png",
            vec!["plot", &drop, "--backend", "exact", "-o", "plot.png"],
        ),
    ];
    for (file, args) in cases {
        let target = dir.join(file);
        std::fs::write(&target, "the previous file\n").unwrap();
        let (code, stderr) = sim_on_a_full_disk(dir, &args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("File too large"), "{args:?}: {stderr}");
        assert_eq!(
            std::fs::read_to_string(&target).unwrap(),
            "the previous file\n",
            "{args:?} cut the previous file"
        );
        let left: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".partial"))
            .collect();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
}
