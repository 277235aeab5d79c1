//! HAI's cost for a whole batch (shortest-job-optimal start plus transfers, inputs checked)
//! against the naive version that rescans every job for each transfer (the paper's O(n) a
//! transfer, §4.4; it checks nothing), and the cost of an online rebalance when one job
//! arrives.
//!
//! Run: `cargo bench -p fairsched-bench --bench hai`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use fairsched::hai::{Batch, Hai, Inline};
use fairsched_bench::hai::{naive, Workload};
use std::hint::black_box;
use std::time::Duration;

/// The paper's hardest setting (n = 50, C = 200, θ = 1; ReB reports about a second at n = 10,
/// §6.2) and a larger one (n = 1,000, C = 10,000).
const SIZES: [(u32, u32); 2] = [(50, 200), (1_000, 10_000)];

fn allocate(c: &mut Criterion) {
    let mut group = c.benchmark_group("hai_allocate");
    group.measurement_time(Duration::from_secs(3));
    let mut hai = Box::new(Hai::<Inline<1_000>>::new().expect("a capacity of 1,000"));
    for (jobs, capacity) in SIZES {
        let workload = Workload::new(jobs, capacity);
        let batch = workload.batch();
        let mut cores = vec![0; workload.jobs()];
        let mut jct = vec![0.0; workload.jobs()];
        let id = format!("n={jobs},C={capacity}");
        group.bench_function(BenchmarkId::new("heaps", &id), |b| {
            b.iter(|| black_box(hai.allocate(&batch, &mut cores, &mut jct).unwrap()))
        });
        group.bench_function(BenchmarkId::new("naive_scan", &id), |b| {
            b.iter(|| black_box(naive::run(&batch, None, naive::Steps::Transfers)))
        });
    }
    group.finish();
}

/// The online step: the last job arrives at the others' HAI allocation (which it does not
/// change: the benchmark restores it each time) and the cluster rebalances, against
/// re-planning the whole batch.
fn arrival(c: &mut Criterion) {
    let mut group = c.benchmark_group("hai_arrival");
    group.measurement_time(Duration::from_secs(3));
    let mut hai = Box::new(Hai::<Inline<1_000>>::new().expect("a capacity of 1,000"));
    for (jobs, capacity) in SIZES {
        let workload = Workload::new(jobs, capacity);
        let batch = workload.batch();
        let n = workload.jobs();
        let mut before = vec![0; n];
        let mut jct = vec![0.0; n];
        let others = Batch {
            caps: &batch.caps[..n - 1],
            jct: &batch.jct[..batch.jct.len() - (batch.caps[n - 1] as usize + 1)],
            ..batch
        };
        hai.allocate(&others, &mut before[..n - 1], &mut jct[..n - 1])
            .unwrap();
        let mut cores = before.clone();
        let id = format!("n={jobs},C={capacity}");
        group.bench_function(BenchmarkId::new("rebalance", &id), |b| {
            b.iter(|| {
                cores.copy_from_slice(&before);
                black_box(hai.rebalance(&batch, &mut cores, &mut jct).unwrap())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, allocate, arrival);
criterion_main!(benches);
