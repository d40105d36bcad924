//! Integration tests of the simulator library: the movement model, stepping, backends sharing a
//! world, the numeric domain's edge, patches, navigation on the corpus, and goto in a living
//! world.

mod domain;
mod driving;
mod fired;
mod goto_living;
mod killtarget;
mod living;
mod movement;
mod movers;
mod nav_brute_force;
mod nav_validation;
mod patches;
mod profiles;
mod sharing;
mod stepping;
mod triggers;
mod water;

/// Runs `f` on a rayon pool of its own with `threads` threads (the determinism tests compare one
/// thread with two).
fn on_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
        .install(f)
}
