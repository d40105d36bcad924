//! Cache hints for the tree walks of the backends and the brush lookups after them.
//!
//! A walk down a tree reads each node only after the test at its parent, so every node fetched
//! from beyond the first-level cache stalls the walk. Asking for both children of a node while
//! its plane is tested lets the one taken arrive early; asking for a cold brush's arrays at once
//! (`Brush::closest_point`) waits for their misses together. A hint never changes a result.

/// Asks the processor to fetch the cache line holding `value` into every cache level, without
/// waiting for it (x86-64's `prefetcht0`, through `safe_arch`: this workspace has no `unsafe`).
/// On other targets it does nothing.
///
/// A real prefetch, not a load of a field kept with `std::hint::black_box`: such a load must
/// complete before it retires, and a miss then holds up everything behind it (the measurements
/// are in `tools/bench/findings.md`).
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    safe_arch::prefetch_t0(value);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
