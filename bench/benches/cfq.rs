//! CFQ's decision cost against what the peers do on every offer (re-sort every job, as Spark
//! does) and against a linear min-scan, all three from one warmed state and agreeing on every
//! answer; CFQ with its clock moving; and the per-decision cost of batch offers (the Rust side
//! of the JNI and cgo comparison).
//!
//! Run: `cargo bench -p fairsched-bench --bench cfq`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fairsched_bench::cfq::{CfqMemory, ClockMoving, DrainAndReenter, PerOffer, Pick};
use fairsched_bench::lockstep::{side_by_side, Contender};
use std::hint::black_box;
use std::time::Duration;

/// One decision (pick plus the update it causes) with `n` jobs, half of them backlogged:
/// `cfq_drain_and_reenter` drains the picked job (it leaves the backlog) and lets an idle job
/// re-enter, two heap updates a decision; `cfq_tasks_left` picks a job that keeps tasks
/// waiting; `resort_every_offer` collects, sorts and picks among all backlogged jobs on every
/// offer (not run at 1M jobs: about 15 ms a decision); `min_scan` passes over every job once.
fn decision(c: &mut Criterion) {
    let mut group = c.benchmark_group("cfq_decision");
    group.measurement_time(Duration::from_secs(3));
    for n in [1_000u64, 10_000, 100_000, 1_000_000] {
        group.sample_size(if n >= 100_000 { 20 } else { 100 });
        let mut memory = CfqMemory::new(n as usize);
        let mut cfq = DrainAndReenter::new(&mut memory, n, n / 2, 1);
        let mut scan = PerOffer::new(Pick::MinScan, n, n / 2);
        let mut resort = PerOffer::new(Pick::Resort, n, n / 2);
        let mut contenders: Vec<(&str, &mut dyn Contender<Answer = u64>)> =
            vec![("cfq_drain_and_reenter", &mut cfq), ("min_scan", &mut scan)];
        if n <= 100_000 {
            contenders.push(("resort_every_offer", &mut resort));
        }
        side_by_side(&mut group, n, &mut contenders);

        let mut memory = CfqMemory::new(n as usize);
        let mut cfq = DrainAndReenter::with_pending(&mut memory, n, n / 2, 1, u32::MAX);
        group.bench_function(BenchmarkId::new("cfq_tasks_left", n), |b| {
            b.iter(|| black_box(cfq.decide_keep()))
        });
    }
    group.finish();
}

/// A job's whole life a step, the clock moving: advance (GPS departures), one slot given,
/// the picked job removed, a new job arriving with a pending task.
fn clock_moving(c: &mut Criterion) {
    let mut group = c.benchmark_group("cfq_clock_moving");
    group.measurement_time(Duration::from_secs(3));
    for n in [10_000u64, 100_000, 1_000_000] {
        let mut memory = CfqMemory::new(3 * n as usize);
        let mut cfq = ClockMoving::new(&mut memory, n);
        // GPS settles at about 1.5 n active jobs within a few n steps.
        for _ in 0..4 * n {
            cfq.step();
        }
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| black_box(cfq.step()))
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

criterion_group!(benches, decision, clock_moving, batch);
criterion_main!(benches);
