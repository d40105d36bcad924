//! `sim check`: validate scenarios, sweep files, TOML worlds and `.map` files without running them.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cspace_report::summary;
use cspace_scenario::Scenario;
use cspace_scenario::world_file;

#[derive(Debug, clap::Args)]
pub(crate) struct CheckArgs {
    /// Scenario files, sweep files, TOML worlds or .map files.
    #[arg(required = true)]
    pub(crate) files: Vec<PathBuf>,
}

/// `sim check` on a sweep file: the file, and every scenario on every map it names (all their
/// errors, one per line).
pub(crate) fn check_sweep(file: &Path, text: &str) -> anyhow::Result<String> {
    use cspace_scenario::sweep::{Plan, Sweep};
    let plan = Plan::parse(file, text)?;
    let sweep = Sweep::load(&plan).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        anyhow::anyhow!("{}", lines.join("\nerror: "))
    })?;
    Ok(format!(
        "sweep of {} ({} scenario-map pairs, {} seeds)",
        summary::count(sweep.runs() as usize, "run"),
        sweep.groups.len(),
        sweep.seeds.len()
    ))
}

pub(crate) fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let mut bad = 0;
    for file in &args.files {
        let result = match file.extension().and_then(|e| e.to_str()) {
            Some("map") => world_file::load_world(file)
                .map(|w| summary::count(w.world.len(), "brush"))
                .map_err(anyhow::Error::from),
            Some("toml") => {
                let text = match cspace_scenario::read::read_text(file, "read it") {
                    Ok(text) => text,
                    Err(e) => {
                        bad += 1;
                        note!("error: {e}");
                        continue;
                    }
                };
                // A sweep names scenarios, a scenario has agents; anything else is a world.
                if cspace_scenario::sweep::is_sweep_file(&text) {
                    check_sweep(file, &text)
                } else if text.lines().any(|l| {
                    l.trim_start().starts_with("[[agent]]")
                        || l.trim_start().starts_with("[[crowd]]")
                }) {
                    Scenario::parse(file, &text)
                        .map(|s| {
                            // What `sim run` leaves out and why (a shape it cannot trace, a
                            // limit of its structure), not the backends the file's list omits.
                            let refused: String = s
                                .left_out
                                .iter()
                                .filter_map(|(b, _)| s.refusal(*b).map(|why| (b, why)))
                                .map(|(b, why)| format!("; not {}: {why}", b.name()))
                                .collect();
                            format!(
                                "scenario {:?}: {}, backends {}{refused}",
                                s.name,
                                summary::count(s.agents.len(), "agent"),
                                s.backends
                                    .iter()
                                    .map(|b| b.name())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )
                        })
                        .map_err(anyhow::Error::from)
                } else {
                    world_file::load_world(file)
                        .map(|w| summary::count(w.world.len(), "brush"))
                        .map_err(anyhow::Error::from)
                }
            }
            _ => Err(anyhow::anyhow!(
                "{}: expected a .toml scenario or world, or a .map file",
                cspace_mapfile::normalised(file).display()
            )),
        };
        match result {
            Ok(what) => outln!("ok {}: {what}", cspace_mapfile::normalised(file).display()),
            Err(e) => {
                bad += 1;
                note!("error: {e:#}");
            }
        }
    }
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}
