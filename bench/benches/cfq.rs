//! CFQ's decision cost against re-sorting every job on every offer (Spark's way), and the
//! per-decision cost of batch offers (the Rust side of the JNI and cgo comparison).
//!
//! Run: `cargo bench -p fairsched-bench --bench cfq`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fairsched_bench::cfq::{CfqMemory, DrainAndReenter, ResortEveryOffer};
use std::hint::black_box;
use std::time::Duration;

/// One decision (pick plus the update it causes) with `n` jobs, half of them backlogged:
/// `cfq_drain_and_reenter` drains the picked job (it leaves the backlog) and lets an idle job
/// re-enter, two heap updates a decision; `cfq_tasks_left` picks a job that keeps tasks
/// waiting; the baseline collects, sorts and scans all backlogged jobs on every offer.
fn decision(c: &mut Criterion) {
    let mut group = c.benchmark_group("cfq_decision");
    group.measurement_time(Duration::from_secs(3));
    for n in [1_000u64, 10_000, 100_000] {
        let mut memory = CfqMemory::new(n as usize);
        let mut cfq = DrainAndReenter::new(&mut memory, n, n / 2, 1);
        group.bench_function(BenchmarkId::new("cfq_drain_and_reenter", n), |b| {
            b.iter(|| black_box(cfq.decide_one()))
        });
        let mut memory = CfqMemory::new(n as usize);
        let mut cfq = DrainAndReenter::with_pending(&mut memory, n, n / 2, 1, u32::MAX);
        group.bench_function(BenchmarkId::new("cfq_tasks_left", n), |b| {
            b.iter(|| black_box(cfq.decide_keep()))
        });
        let mut baseline = ResortEveryOffer::new(n, n / 2);
        group.bench_function(BenchmarkId::new("resort_every_offer", n), |b| {
            b.iter(|| black_box(baseline.decide_one()))
        });
    }
    group.finish();
}

/// Batches of k decisions on 10,000 jobs (5,000 backlogged): the workload the Java and Go
/// benchmarks run through JNI and cgo. Throughput is in decisions.
fn batch(c: &mut Criterion) {
    let mut group = c.benchmark_group("cfq_batch_10k");
    group.measurement_time(Duration::from_secs(3));
    for k in [1usize, 16, 256] {
        let mut memory = CfqMemory::new(10_000);
        let mut cfq = DrainAndReenter::new(&mut memory, 10_000, 5_000, k);
        group.throughput(Throughput::Elements(k as u64));
        group.bench_function(BenchmarkId::from_parameter(k), |b| {
            b.iter(|| black_box(cfq.decide_batch()))
        });
    }
    group.finish();
}

criterion_group!(benches, decision, batch);
criterion_main!(benches);
