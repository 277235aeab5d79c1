//! MinFrag's heartbeat (100 pending executors, 4 kinds, 64 steps) against the naive
//! transcription of Algorithm 1, and one executor scored on 1,000 machines; the same heartbeat
//! on a machine's timeline, and the timeline's other events (advancing a step, placing and
//! releasing one executor).
//!
//! Run: `cargo bench -p fairsched-bench --bench drr`

use criterion::BatchSize;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use fairsched::drr::timeline::{self, ExecutorRow, HEAPS};
use fairsched::drr::{min_frag, score_machines, Executor, Executors, Machines, Metric, Timeline};
use fairsched_bench::drr::{cluster, executors, machine, naive_min_frag, CAPACITY, HORIZON};
use fairsched_testkit::memory::Memory;
use std::hint::black_box;
use std::time::Duration;

/// A running executor finishes at step 40.
const T_RUN: u32 = 40;

/// Fresh timelines built (untimed) before each run of that many timed events: few enough to stay
/// in cache, as a scheduler's one live timeline of a machine is. The JNI and cgo harnesses build
/// the same number before each of their runs. A timeline of 64 executors over 64 steps of 4 kinds
/// holds 133 KB of amounts: when the cgo harness built 64 at a time, its heartbeat took 14.5 to
/// 17.0 µs, against 9.1 to 13.3 µs with 4 (3 alternated rounds on a loaded machine).
const FRESH: BatchSize = BatchSize::NumIterations(4);

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

/// A timeline of the heartbeat's machine: room for 64 executors, one running until `T_RUN`
/// that leaves `machine(1)` available before it ends (all the capacity after).
fn busy_timeline() -> Timeline<Memory<ExecutorRow, HEAPS>> {
    let memory = Memory::with_amounts(64, timeline::amounts(64, HORIZON, CAPACITY.len()));
    let mut t = Timeline::with_storage(memory, &CAPACITY, HORIZON as u32).expect("valid timeline");
    let given = machine(1);
    let running: Vec<f64> = given
        .iter()
        .take(T_RUN as usize * CAPACITY.len())
        .enumerate()
        .map(|(i, have)| (CAPACITY[i % CAPACITY.len()] - have).max(0.0))
        .collect();
    let executor = Executor::new(&running, CAPACITY.len()).expect("valid executor");
    t.place(&executor).expect("fits an empty machine");
    t
}

/// The timeline's events on the heartbeat's workload; each iteration on a fresh timeline (its
/// setup not timed, `FRESH` of them at a time).
fn timeline_events(c: &mut Criterion) {
    let mut group = c.benchmark_group("drr_timeline");
    group.measurement_time(Duration::from_secs(3));
    let (demands, steps) = executors(100, 2);
    let pending = Executors::new(&demands, &steps, CAPACITY.len()).expect("valid executors");
    let counts = vec![1u32; steps.len()];
    let mut placements = vec![0u32; steps.len()];
    group.bench_function("heartbeat", |b| {
        b.iter_batched(
            busy_timeline,
            // The timeline is returned, so that criterion frees it outside the timing.
            |mut t| {
                let placed = t.heartbeat(&pending, &counts, Metric::Drr, &mut placements);
                black_box(placed.expect("valid heartbeat"));
                t
            },
            FRESH,
        )
    });
    // Four executors besides the busy one: the heartbeat's first choices.
    let four = || {
        let mut t = busy_timeline();
        let first = Executors::new(&demands, &steps, CAPACITY.len()).expect("valid");
        let mut placed = [0u32; 4];
        t.heartbeat(&first, &counts, Metric::Drr, &mut placed)
            .expect("valid heartbeat");
        t
    };
    group.bench_function("advance_one_step", |b| {
        b.iter_batched(
            four,
            |mut t| {
                black_box(t.advance(1).expect("valid"));
                t
            },
            FRESH,
        )
    });
    group.bench_function("release_one_of_five", |b| {
        b.iter_batched(
            four,
            |mut t| {
                t.release(3).expect("running");
                t
            },
            FRESH,
        )
    });
    let (demand, one) = executors(1, 2);
    let executor = Executor::new(&demand, CAPACITY.len()).expect("valid executor");
    assert_eq!(one, [53]);
    group.bench_function("place_one", |b| {
        b.iter_batched(
            busy_timeline,
            |mut t| {
                black_box(t.place(&executor).expect("fits"));
                t
            },
            FRESH,
        )
    });
    group.finish();
}

criterion_group!(benches, heartbeat, across_machines, timeline_events);
criterion_main!(benches);
