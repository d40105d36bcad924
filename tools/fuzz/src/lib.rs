//! Hostile input for cspace (issue 17): every file and stream a user hands cspace, mutated as a
//! fuzzer would, must give a located error or a valid, finite answer, without a panic and within
//! a time bound.
//!
//! Six targets, each seeded from the project's own files (and the map corpus when
//! `CSPACE_MAPS` names it):
//!
//! | target | input | accepted means | refused means |
//! | --- | --- | --- | --- |
//! | `map` | `.map` text (excerpts of real maps, with entities of every class `cspace-entities` reads, keys with hostile values and names that loop) | the world builds; exact traces across it are finite; every warning located; half the time it lives: 24 steps with up to three agents, every state finite, no agent ever in solid | `fuzz.map:LINE:COLUMN: ...` |
//! | `scenario` | scenario TOML | it runs a few steps on one backend; every state is finite | an error naming the scenario file |
//! | `world` | TOML world | exact and Melax traces across it are finite | `fuzz-world.toml:LINE:COLUMN: ...` |
//! | `trace` | `sim trace` input | one finite JSON answer per segment, on every backend | `stdin:LINE:COLUMN: ...` |
//! | `tree` | onion tree files (checksum recomputed half the time) | a tree that loads and verifies answers as the original | a load or verify error |
//! | `baseline` | a recorded trace or a trace snapshot ([`baseline`]) | every number finite and within the domain, names printable; compared and drawn | `FILE:LINE:COLUMN: ...` |
//!
//! Issue 35's classes are among the mutations ([`classes`], [`mutate::HOSTILE_TRACE_NUMBERS`],
//! [`mutate::HOSTILE_COUNTS`], [`mutate::HOSTILE_NAMES`]): crowds near and past `MAX_AGENTS`
//! with long scripts, stacked crowds, patches past `MAX_PATCH_FACETS`, brushes past
//! `MAX_BRUSH_FACES`, names with control characters and path separators. A case that holds more
//! memory than the cap fails too ([`memory`]).
//!
//! Case `i` of a run with seed `s` is a pure function of `(s, i)`: a failure is replayed with
//! `--seed s --case i`, and saved inputs are replayed by the regression test.

pub mod baseline;
pub mod classes;
pub mod memory;
pub mod mutate;
pub mod targets;
mod verdicts;

use std::panic::AssertUnwindSafe;
use std::sync::Mutex;

pub use targets::{Fixtures, Target};

/// How a case ended well.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The input was valid and the answers were checked.
    Accepted,
    /// The input was refused with a located error (the error).
    Refused(String),
}

/// How a case ended badly: what a fuzzer reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// A panic, with its message and place.
    Panic(String),
    /// An error that does not say where.
    Unlocated(String),
    /// An answer that is not finite or not valid.
    Invalid(String),
    /// A case that held more memory than the cap ([`memory::MemoryCap`]), in bytes.
    Memory {
        /// Bytes held above the fixtures' (resident memory).
        live: u64,
        /// The cap.
        cap: u64,
    },
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Panic(m) => write!(f, "panic: {m}"),
            Failure::Unlocated(m) => write!(f, "error without a location: {m}"),
            Failure::Invalid(m) => write!(f, "invalid answer: {m}"),
            Failure::Memory { live, cap } => write!(f, "memory: {live} bytes live, cap {cap}"),
        }
    }
}

/// The seed of case `index` of a run seeded `seed`.
pub fn case_seed(seed: u64, index: u64) -> u64 {
    seed ^ index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

static PANIC_MESSAGE: Mutex<Option<String>> = Mutex::new(None);

/// Replaces the panic hook with one that keeps the message and place for [`run_input`] instead
/// of printing them (a fuzzing run would otherwise print every caught panic twice).
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string());
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        *PANIC_MESSAGE.lock().unwrap_or_else(|e| e.into_inner()) = Some(message + &place);
    }));
}

/// Runs `target` on `input`, a panic caught and reported as a [`Failure`].
pub fn run_input(fixtures: &Fixtures, target: Target, input: &[u8]) -> Result<Verdict, Failure> {
    match std::panic::catch_unwind(AssertUnwindSafe(|| fixtures.run(target, input))) {
        Ok(result) => result,
        Err(_) => Err(Failure::Panic(
            PANIC_MESSAGE
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
                .unwrap_or_else(|| "a panic (the quiet hook was not installed)".to_string()),
        )),
    }
}
