//! cspace's backends against the peers, side by side in one run (issue 8): writes
//! `docs/PERFORMANCE.md` and its plots.
//!
//! The suite ([`suite::run`]) builds the benchmark world (`RandomBoxes::BENCHMARK`), the rest
//! of the scaling series and the corpus maps, draws segments that start in free space, and times
//! every backend of [`ours::backends`] against parry ([`peers::parry`]) on the same segments,
//! interleaved ([`timing`]), beside how far their answers are apart ([`agreement`]). The agent
//! step runs `sim bench`'s crowds on our simulator per backend and on rapier's character
//! controller ([`peers::rapier`]). [`report::markdown`] and [`plot`] write the results.
//!
//! The peers' heavy dependencies stay here: this crate is not published and no library crate
//! depends on it. They are built only with the `peers` feature (`cargo run --release -p
//! cspace-bench --features peers`); without it the crate is empty, so that `cargo test
//! --workspace` does not build them.
//!
//! ```no_run
//! # #[cfg(feature = "peers")] {
//! let report = cspace_bench::suite::run(&cspace_bench::suite::Config::quick(None))?;
//! println!("{}", cspace_bench::report::markdown(&report));
//! # }
//! # Ok::<(), anyhow::Error>(())
//! ```

#![cfg(feature = "peers")]

pub mod agreement;
pub mod format;
pub mod machine;
pub mod ours;
pub mod peers;
pub mod plot;
pub mod query;
pub mod report;
pub mod suite;
pub mod timing;

use std::path::{Path, PathBuf};

/// Where a run writes its report when `--out` does not say: the published `docs/PERFORMANCE.md`
/// for the full suite, `target/bench-quick/PERFORMANCE.md` for a smoke run (`--quick`), which
/// must never replace the published figures with seconds' worth of them.
pub fn default_out(quick: bool) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    if quick {
        root.join("target/bench-quick/PERFORMANCE.md")
    } else {
        root.join("docs/PERFORMANCE.md")
    }
}

/// Runs the suite and writes the report to `out` with its plots beside it; returns the report.
pub fn write(config: &suite::Config, out: &Path) -> anyhow::Result<suite::Report> {
    use anyhow::Context;
    let report = suite::run(config)?;
    let dir = out.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
    let plots = [
        (
            report::SCALING_PLOT,
            plot::svg(
                "Trace cost against world size",
                "ns per trace (median)",
                &plot::trace_series(&report),
            )?,
        ),
        (
            report::BUILD_PLOT,
            plot::svg(
                "Build time against world size",
                "build time (ms)",
                &plot::build_series(&report),
            )?,
        ),
        (
            report::THREADS_PLOT,
            plot::svg_with(
                "One simulation on many threads",
                "threads",
                "agent steps per second (median)",
                &plot::thread_series(&report),
            )?,
        ),
    ];
    for (name, svg) in plots {
        let path = dir.join(name);
        cspace_scenario::write::write_whole(&path, svg.as_bytes())
            .with_context(|| format!("{}: cannot write", path.display()))?;
    }
    cspace_scenario::write::write_whole(out, report::markdown(&report).as_bytes())
        .with_context(|| format!("{}: cannot write", out.display()))?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_smoke_run_writes_under_target_and_the_full_run_into_docs() {
        let quick = super::default_out(true);
        assert!(
            quick.ends_with("target/bench-quick/PERFORMANCE.md"),
            "{quick:?}"
        );
        assert!(super::default_out(false).ends_with("docs/PERFORMANCE.md"));
    }
}
