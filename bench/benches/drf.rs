//! DRF's next-user decision against a full sort per decision (the YARN/Mesos way) and a
//! min-scan, and
//! QKnobler's efficiency linear program at the sizes.
//!
//! Run: `cargo bench -p fairsched-bench --bench drf`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use fairsched::drf::Users;
use fairsched::lp;
use fairsched::qknobler::EfficiencyProgram;
use fairsched::resources::Resources;
use fairsched_bench::drf::{busy_queue, instance, Memory, PerDecision, Pick, Queue};
use fairsched_bench::lockstep::{side_by_side, Contender};
use std::hint::black_box;
use std::time::Duration;

/// Pick the next user and start its task (its key rises in the heap), against sorting every
/// user per decision (YARN, Mesos; not run at 100,000 users: about 15 ms a decision) and a
/// min-scan, from one warmed state and agreeing on every answer.
fn next_user(c: &mut Criterion) {
    let mut group = c.benchmark_group("drf_next_user");
    group.measurement_time(Duration::from_secs(3));
    for n in [1_000usize, 10_000, 100_000] {
        group.sample_size(if n >= 100_000 { 20 } else { 100 });
        let mut memory = Memory::new(n);
        let mut queue = Queue(busy_queue(&mut memory, n));
        let mut scan = PerDecision::new(Pick::MinScan, n);
        let mut resort = PerDecision::new(Pick::Resort, n);
        let mut contenders: Vec<(&str, &mut dyn Contender<Answer = u64>)> =
            vec![("queue", &mut queue), ("min_scan", &mut scan)];
        if n <= 10_000 {
            contenders.push(("sort_every_decision", &mut resort));
        }
        side_by_side(&mut group, n, &mut contenders);
    }
    group.finish();
}

/// The efficiency-oriented stage's linear program, residual half the capacity.
fn efficiency_lp(c: &mut Criterion) {
    let mut group = c.benchmark_group("qknobler_lp");
    group.measurement_time(Duration::from_secs(2));
    for kinds in [2usize, 4] {
        for n in [10usize, 100, 1_000] {
            let (capacity, weights, demands) = instance(n, kinds);
            let users = Users::new(&capacity, &weights, &demands).expect("valid users");
            let half: Vec<f64> = capacity.iter().map(|c| c / 2.0).collect();
            let residual = Resources::amounts(&half).expect("valid residual");
            let program = EfficiencyProgram::new(&users, &residual).expect("valid program");
            group.bench_function(BenchmarkId::new(format!("m{kinds}"), n), |b| {
                b.iter(|| black_box(lp::maximize(&program).expect("bounded")))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, next_user, efficiency_lp);
criterion_main!(benches);
