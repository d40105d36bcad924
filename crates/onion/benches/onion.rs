//! Benchmarks of cspace-onion (criterion; see the crate docs for the list).

use criterion::{Criterion, criterion_group, criterion_main};

fn placeholder(_: &mut Criterion) {}

criterion_group!(benches, placeholder);
criterion_main!(benches);
