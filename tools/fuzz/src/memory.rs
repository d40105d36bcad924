//! The memory cap of a case (issue 35, item 5: a 652-byte map needed more than 8 GB).
//!
//! A counting global allocator would say exactly what a case holds, but implementing
//! [`std::alloc::GlobalAlloc`] takes an `unsafe impl`, and the workspace sets `unsafe_code =
//! "forbid"` (root `Cargo.toml`, `[workspace.lints.rust]`), which no crate may lift; no
//! allocator-counting crate does it without the same `unsafe impl` in its user's code or a
//! global allocator of its own in place of the system one. So the cap is measured from
//! outside: the process's resident memory (`VmRSS` of `/proc/self/status`, Linux), above what it
//! held once the fixtures were built. The fuzzer reads it after every case and at every tick of
//! its watchdog (while a case runs), and a case past the cap is a [`Failure::Memory`]. With
//! several worker threads the resident memory is the sum of the cases running, so the process
//! may hold the cap once per thread; a case is charged with all of it (with one thread the
//! charge is exact). Freed memory that the allocator keeps (small blocks; large ones are
//! unmapped when freed) stays counted, so a cap far above a case's ordinary use is wanted:
//! the default is 1,024 MB per case. Where `/proc` is missing, nothing is measured.

use crate::Failure;

/// The process's resident memory in bytes (`VmRSS`), or `None` where `/proc` does not say.
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line
        .trim_start_matches("VmRSS:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// A cap on the memory the cases hold above what the process held when it was made.
#[derive(Debug, Clone, Copy)]
pub struct MemoryCap {
    /// The resident bytes when the cap was made (the fixtures, the binary).
    baseline: u64,
    /// The most bytes above `baseline` the running cases may hold.
    cap: u64,
}

impl MemoryCap {
    /// A cap of `cap` bytes above the process's resident memory now.
    pub fn new(cap: u64) -> MemoryCap {
        MemoryCap {
            baseline: resident_bytes().unwrap_or(0),
            cap,
        }
    }

    /// The bytes the cases hold now (resident memory above the baseline).
    pub fn live(&self) -> u64 {
        resident_bytes().map_or(0, |r| r.saturating_sub(self.baseline))
    }

    /// A [`Failure::Memory`] when the cases hold more than the cap.
    pub fn check(&self) -> Result<(), Failure> {
        let live = self.live();
        if live > self.cap {
            Err(Failure::Memory {
                live,
                cap: self.cap,
            })
        } else {
            Ok(())
        }
    }
}
