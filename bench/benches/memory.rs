//! The machine's floors for the largest benchmarks: one dependent load from a random place in
//! an array (a pointer chase over a random cycle, so neither the prefetchers nor any pattern
//! help), at the sizes those benchmarks work in. What such a load costs depends on whether
//! the array fits the part of the last-level cache the machine gives us, and on a virtual
//! machine that part shrinks and grows with the neighbours' load.
//!
//! Each probe's id carries the array's size in bytes (`memory/<probe>/<bytes>`), which
//! `scripts/bench-report` prints beside its time.
//!
//! Run: `cargo bench -p fairsched-bench --bench memory`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use fairsched::drf::UserRow;
use fairsched::heap::{HeapSlot, Key};
use fairsched_testkit::rng::SplitMix;
use std::hint::black_box;
use std::mem::size_of;
use std::time::Duration;

/// Bytes a DRF decision among 100,000 users works in: the users' rows and the loser tree's
/// slots (`drf_next_user_scattered/queue/100000`; their demands, which a decision does not
/// read, are not counted).
const DRF_100K_USERS: usize = 100_000 * (size_of::<UserRow>() + size_of::<HeapSlot<Key>>());

/// The probes: a name, and the bytes of the array.
const PROBES: [(&str, usize); 3] = [
    // Well inside the last-level cache: a cache hit, for scale.
    ("dependent_load_cache_hit", 4_000_000),
    ("dependent_load_drf_100k_users", DRF_100K_USERS),
    // Far beyond the caches: a main-memory miss (the CFQ benchmark's rows at 1M jobs).
    ("dependent_load_main_memory", 64_000_000),
];

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
    let mut group = c.benchmark_group("memory");
    group.measurement_time(Duration::from_secs(3));
    for (name, bytes) in PROBES {
        let next = random_cycle(bytes / size_of::<u64>());
        let mut at = 0u64;
        group.bench_function(BenchmarkId::new(name, bytes), |b| {
            b.iter(|| {
                at = next[at as usize];
                black_box(at)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, chase);
criterion_main!(benches);
