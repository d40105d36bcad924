//! The memory cap of a case (`cspace_fuzz::memory`), alone in its test binary so that no other
//! test's allocations are counted.

use cspace_fuzz::Failure;
use cspace_fuzz::memory::MemoryCap;

#[test]
fn the_memory_cap_fails_a_case_that_holds_more() {
    let cap = MemoryCap::new(16 << 20);
    assert_eq!(cap.check(), Ok(()));
    // 64 MB written (so resident), held while the cap is checked.
    let held = vec![1u8; 64 << 20];
    match cap.check() {
        Err(Failure::Memory { live, cap: limit }) => {
            assert!(live > limit && limit == 16 << 20, "{live} {limit}");
            let message = Failure::Memory { live, cap: limit }.to_string();
            assert_eq!(message, format!("memory: {live} bytes live, cap {limit}"));
        }
        other => panic!("{other:?} with {} bytes held", held.len()),
    }
    assert_eq!(held.iter().map(|&b| b as usize).sum::<usize>(), 64 << 20);
    drop(held);
}
