//! PAF on the paper's large cluster (200 jobs, 8,000 slots, α = 0.9): Algorithm 1 one slot at a
//! time against the fast algorithm (same result); and the Ernest fit from ten samples (the
//! independent NNLS baseline is scipy's, timed by bench/paf_nnls_scipy.py on the same samples).
//!
//! Run: `cargo bench -p fairsched-bench --bench paf`

use criterion::{criterion_group, criterion_main, Criterion};
use fairsched::paf::{ernest, Method};
use fairsched_bench::paf::{ernest_samples, Allocator, Workload};
use std::hint::black_box;
use std::time::Duration;

fn allocate(c: &mut Criterion) {
    let workload = Workload::new();
    let jobs = workload.jobs();
    let mut allocator = Allocator::new();
    let totals = allocator.allocate(&jobs, Method::Fast);
    println!(
        "workload: {} slots, {} moved, progress {:.2} -> {:.2}",
        totals.slots, totals.moved, totals.fair_progress, totals.paf_progress
    );
    let mut group = c.benchmark_group("paf_allocate_200_jobs_8000_slots");
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("literal", |b| {
        b.iter(|| black_box(allocator.allocate(black_box(&jobs), Method::Literal)))
    });
    group.bench_function("fast", |b| {
        b.iter(|| black_box(allocator.allocate(black_box(&jobs), Method::Fast)))
    });
    group.finish();
}

fn fit(c: &mut Criterion) {
    let (slots, runtimes) = ernest_samples();
    let mut group = c.benchmark_group("ernest_fit");
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("10_samples", |b| {
        b.iter(|| black_box(ernest::fit(black_box(&slots), black_box(&runtimes))))
    });
    group.finish();
}

criterion_group!(benches, allocate, fit);
criterion_main!(benches);
