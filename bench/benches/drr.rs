//! MinFrag's heartbeat (100 pending executors, 4 kinds, 64 steps) against the naive
//! transcription of Algorithm 1, and one executor scored on 1,000 machines.
//!
//! Run: `cargo bench -p fairsched-bench --bench drr`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use fairsched::drr::{min_frag, score_machines, Executor, Executors, Machines, Metric};
use fairsched_bench::drr::{cluster, executors, machine, naive_min_frag, CAPACITY, HORIZON};
use std::hint::black_box;
use std::time::Duration;

/// A running executor finishes at step 40.
const T_RUN: u32 = 40;

/// One heartbeat; each iteration starts from the same available series (a 2 KB copy, timed).
fn heartbeat(c: &mut Criterion) {
    let mut group = c.benchmark_group("drr_heartbeat");
    group.measurement_time(Duration::from_secs(3));
    let given = machine(1);
    let (demands, steps) = executors(100, 2);
    let pending = Executors::new(&demands, &steps, CAPACITY.len()).expect("valid executors");
    let mut available = given.clone();
    let mut placements = vec![0u32; steps.len()];
    for metric in [Metric::Drr, Metric::Trc, Metric::Tetris] {
        group.bench_function(BenchmarkId::new("min_frag", format!("{metric:?}")), |b| {
            b.iter(|| {
                available.copy_from_slice(&given);
                let beat = min_frag(
                    &CAPACITY,
                    &mut available,
                    T_RUN,
                    &pending,
                    metric,
                    &mut placements,
                );
                black_box(beat.expect("valid heartbeat"))
            })
        });
    }
    let mut placed = Vec::with_capacity(steps.len());
    group.bench_function(BenchmarkId::new("naive", "Drr"), |b| {
        b.iter(|| {
            available.copy_from_slice(&given);
            naive_min_frag(
                &mut available,
                T_RUN as usize,
                &demands,
                &steps,
                &mut placed,
            );
            black_box(placed.len())
        })
    });
    group.finish();
}

/// One executor (the workload's first: 53 steps) scored on every machine.
fn across_machines(c: &mut Criterion) {
    let mut group = c.benchmark_group("drr_score_machines");
    group.measurement_time(Duration::from_secs(3));
    let n = 1_000;
    let capacities = CAPACITY.repeat(n);
    let available = cluster(n);
    let t_runs: Vec<u32> = (0..n as u32).map(|j| 1 + j % HORIZON as u32).collect();
    let (demand, steps) = executors(1, 2);
    assert_eq!(steps, [53]);
    let executor = Executor::new(&demand, CAPACITY.len()).expect("valid executor");
    let (mut fits, mut scores) = (vec![false; n], vec![0.0; n]);
    group.bench_function(BenchmarkId::new("validate_and_score", n), |b| {
        b.iter(|| {
            let machines = Machines::new(&capacities, CAPACITY.len(), &available, &t_runs)
                .expect("valid machines");
            score_machines(&machines, &executor, Metric::Drr, &mut fits, &mut scores)
                .expect("valid scoring");
            black_box(scores[0])
        })
    });
    let machines =
        Machines::new(&capacities, CAPACITY.len(), &available, &t_runs).expect("valid machines");
    group.bench_function(BenchmarkId::new("score_only", n), |b| {
        b.iter(|| {
            score_machines(&machines, &executor, Metric::Drr, &mut fits, &mut scores)
                .expect("valid scoring");
            black_box(scores[0])
        })
    });
    group.finish();
}

criterion_group!(benches, heartbeat, across_machines);
criterion_main!(benches);
