//! The machine's floor for the largest benchmarks: one dependent load from a random place in a
//! 64 MB array (a pointer chase over a random cycle, so neither the caches nor the prefetchers
//! help), the cost of each main-memory miss that a heap level of a million-entry heap pays.
//!
//! Run: `cargo bench -p fairsched-bench --bench memory`

use criterion::{criterion_group, criterion_main, Criterion};
use fairsched_testkit::rng::SplitMix;
use std::hint::black_box;
use std::time::Duration;

/// Entries of the chase: 8 M words, 64 MB (the CFQ benchmark's rows at 1M jobs).
const WORDS: usize = 8 << 20;

/// `next[i]` is the entry after `i` on one random cycle through every entry (Sattolo's
/// shuffle).
fn random_cycle(words: usize) -> Vec<u64> {
    let mut order: Vec<u64> = (0..words as u64).collect();
    let mut rng = SplitMix(7);
    for i in (1..words).rev() {
        let j = rng.below(i as u64) as usize;
        order.swap(i, j);
    }
    let mut next = vec![0; words];
    for (k, &at) in order.iter().enumerate() {
        next[at as usize] = order[(k + 1) % words];
    }
    next
}

fn chase(c: &mut Criterion) {
    let next = random_cycle(WORDS);
    let mut at = 0u64;
    let mut group = c.benchmark_group("memory");
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("dependent_load_64mb", |b| {
        b.iter(|| {
            at = next[at as usize];
            black_box(at)
        })
    });
    group.finish();
}

criterion_group!(benches, chase);
criterion_main!(benches);
