//! DRF's next-user decision against a full sort per decision (the YARN/Mesos way) and a
//! min-scan, and
//! QKnobler's efficiency linear program at the sizes; and the Rust twins of two
//! binding benchmarks (bindings/java's JniBench, bindings/go's bench_test.go): a whole
//! `allocate_round` (`drf_round`) and QKnobler's whole allocation (`qknobler_allocate`).
//!
//! Run: `cargo bench -p fairsched-bench --bench drf`; with GLPK beside the linear program
//! (Debian: `apt-get install libglpk-dev`): `cargo bench -p fairsched-bench --features glpk
//! --bench drf -- qknobler_lp`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use fairsched::drf::Users;
use fairsched::lp;
use fairsched::qknobler::EfficiencyProgram;
use fairsched::resources::Resources;
use fairsched_bench::drf::{
    busy_queue, instance, round, DrfMemory, Knobbed, PerDecision, Pick, Queue, Shares, ROUND_TASKS,
};
use fairsched_bench::lockstep::{side_by_side, Contender};
use std::hint::black_box;
use std::time::Duration;

/// Pick the next user and start its task (its key rises in the tree), against sorting every
/// user per decision (YARN, Mesos; patterned shares only, up to 10,000 users: about 15 ms a
/// decision at 100,000) and a min-scan, from one warmed state and agreeing on every answer:
/// `drf_next_user` on patterned shares, `drf_next_user_scattered` on scattered ones.
fn next_user(c: &mut Criterion) {
    for (name, shares) in [
        ("drf_next_user", Shares::Patterned),
        ("drf_next_user_scattered", Shares::Scattered),
    ] {
        let mut group = c.benchmark_group(name);
        group.measurement_time(Duration::from_secs(3));
        for n in [1_000usize, 10_000, 100_000] {
            group.sample_size(if n >= 100_000 { 20 } else { 100 });
            let mut memory = DrfMemory::for_users(n);
            let mut queue = Queue(busy_queue(&mut memory, n, shares));
            let mut scan = PerDecision::new(Pick::MinScan, n, shares);
            let mut resort = PerDecision::new(Pick::Resort, n, shares);
            let mut contenders: Vec<(&str, &mut dyn Contender<Answer = u64>)> =
                vec![("queue", &mut queue), ("min_scan", &mut scan)];
            if shares == Shares::Patterned && n <= 10_000 {
                contenders.push(("sort_every_decision", &mut resort));
            }
            side_by_side(&mut group, n, &mut contenders);
        }
        group.finish();
    }
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
            #[cfg(feature = "glpk")]
            glpk_baseline(&mut group, kinds, n, &program);
        }
    }
    group.finish();
}

/// GLPK on the same program (`--features glpk`), checked to reach the same optimum (objective
/// within 1e-9 relative) before it is timed: `qknobler_lp/glpk_m{kinds}/{n}`.
#[cfg(feature = "glpk")]
fn glpk_baseline(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    kinds: usize,
    n: usize,
    program: &EfficiencyProgram<'_>,
) {
    let glpk = fairsched_bench::glpk::GlpkProgram::new(program);
    let ours = lp::maximize(program).expect("bounded").objective;
    let theirs = glpk.solve().expect("GLPK finds the optimum");
    assert!(
        (ours - theirs).abs() <= 1e-9 * ours.abs().max(theirs.abs()),
        "m = {kinds}, n = {n}: GLPK's optimum {theirs} is not ours, {ours}"
    );
    group.bench_function(BenchmarkId::new(format!("glpk_m{kinds}"), n), |b| {
        b.iter(|| black_box(glpk.solve()))
    });
}

/// One round of discrete DRF placing 256 tasks among 10,000 users (free resources fixed, always
/// room for them all): the batched form of `drf_next_user/queue`, the Rust twin of the Java and
/// Go benchmarks' `allocateRound` / `AllocateRound`. Time per round.
fn drf_round(c: &mut Criterion) {
    let mut group = c.benchmark_group("drf_round");
    group.measurement_time(Duration::from_secs(3));
    let n = 10_000;
    let mut memory = DrfMemory::for_users(n);
    let mut queue = busy_queue(&mut memory, n, Shares::Patterned);
    let mut out = [0u64; ROUND_TASKS];
    group.bench_function(BenchmarkId::new("queue", n), |b| {
        b.iter(|| black_box(round(&mut queue, &mut out)))
    });
    group.finish();
}

/// QKnobler's whole allocation at ρ = 0.5 (users checked, divisible DRF, the fairness stage,
/// the linear program on what it leaves, whole tasks), as `fairsched_qknobler_allocate` runs
/// it: the Rust twin of the bindings' `QKnobler.allocate` / `QKnoblerAllocate`.
fn qknobler_allocate(c: &mut Criterion) {
    let mut group = c.benchmark_group("qknobler_allocate");
    group.measurement_time(Duration::from_secs(2));
    for n in [10usize, 1_000] {
        let mut knobbed = Knobbed::new(n, 4);
        group.bench_function(BenchmarkId::new("m4", n), |b| {
            b.iter(|| black_box(knobbed.allocate()))
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    next_user,
    efficiency_lp,
    drf_round,
    qknobler_allocate
);
criterion_main!(benches);
