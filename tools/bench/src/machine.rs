//! The machine a report was measured on (Linux `/proc`, the toolchain and the commit).

use std::process::Command;

/// Where the figures come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Machine {
    /// The CPU model (`/proc/cpuinfo`).
    pub cpu: String,
    /// Logical CPUs.
    pub cpus: usize,
    /// Memory (`/proc/meminfo`).
    pub memory: String,
    /// The kernel release.
    pub kernel: String,
    /// `rustc --version`.
    pub rustc: String,
    /// The commit measured (`git describe`), `-dirty` when the tree had changes.
    pub commit: String,
    /// The load averages over 1, 5 and 15 minutes when the run started (`/proc/loadavg`): other
    /// work on the machine during the run.
    pub load: String,
}

impl Machine {
    /// This machine; "unknown" where something cannot be read.
    pub fn here() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let field = |text: &str, key: &str| {
            text.lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        };
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        let memory = field(&meminfo, "MemTotal")
            .and_then(|v| v.trim_end_matches(" kB").trim().parse::<f64>().ok())
            .map_or_else(
                || "unknown".to_string(),
                |kb| format!("{:.1} GiB", kb / 1024.0 / 1024.0),
            );
        Machine {
            cpu: field(&cpuinfo, "model name").unwrap_or_else(|| "unknown".to_string()),
            cpus: cpuinfo
                .lines()
                .filter(|l| l.starts_with("processor"))
                .count(),
            memory,
            kernel: std::fs::read_to_string("/proc/sys/kernel/osrelease")
                .map_or_else(|_| "unknown".to_string(), |s| s.trim().to_string()),
            rustc: output("rustc", &["--version"]),
            commit: output(
                "git",
                &["describe", "--always", "--dirty", "--exclude", "*"],
            ),
            load: load_average(),
        }
    }
}

/// The 1, 5 and 15-minute load averages, or "unknown".
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").map_or_else(
        |_| "unknown".to_string(),
        |s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
    )
}

/// The first line a command prints, or "unknown".
fn output(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.lines().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".to_string())
}
