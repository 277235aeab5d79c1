//! Theorem 1 of the CFQ paper through the simulator: on one stage of unweighted jobs with
//! exact slot-times, no job completes later than `2 l_max + L_max / M` after its GPS
//! completion.

use fairsched_sim::metrics::gps_completions;
use fairsched_sim::policy::{PolicyKind, Profiler};
use fairsched_sim::synthetic;
use fairsched_sim::workload::{Job, Workload};
use quickcheck::{Arbitrary, Gen, TestResult};

/// A random single-stage, unweighted workload and a cluster size.
#[derive(Clone, Debug)]
struct Scenario {
    slots: u32,
    workload: Workload,
}

/// The same with weights from 1 to 8.
#[derive(Clone, Debug)]
struct Weighted(Scenario);

impl Arbitrary for Weighted {
    fn arbitrary(g: &mut Gen) -> Self {
        let Scenario { slots, workload } = Scenario::arbitrary(g);
        let jobs = workload
            .jobs()
            .iter()
            .map(|job| Job {
                weight: u32::arbitrary(g) % 8 + 1,
                ..job.clone()
            })
            .collect();
        Weighted(Scenario {
            slots,
            workload: Workload::new(jobs),
        })
    }
}

impl Arbitrary for Scenario {
    fn arbitrary(g: &mut Gen) -> Self {
        let slots = u32::arbitrary(g) % 6 + 1;
        let count = usize::arbitrary(g) % 25 + 1;
        // Quarter-second grid: plenty of ties between arrivals and task completions.
        let quarter = |g: &mut Gen, range: u32| f64::from(u32::arbitrary(g) % range) / 4.0;
        let jobs = (0..count)
            .map(|_| Job {
                arrival: quarter(g, 200),
                weight: 1,
                tasks: (0..usize::arbitrary(g) % 8 + 1)
                    .map(|_| quarter(g, 40) + 0.25)
                    .collect(),
                warmup: 1.0,
            })
            .collect();
        Scenario {
            slots,
            workload: Workload::new(jobs),
        }
    }
}

/// The largest `f - f̄` of any job under CFQ with exact profiling, over the bound.
fn worst_delay_over_bound(slots: u32, workload: &Workload) -> f64 {
    let gps = gps_completions(workload, slots).unwrap();
    let run = PolicyKind::Cfq(Profiler::Exact)
        .run(workload, slots)
        .unwrap();
    let worst = run
        .completions
        .iter()
        .zip(&gps)
        .map(|(done, reference)| done - reference)
        .fold(f64::NEG_INFINITY, f64::max);
    worst / workload.delay_bound(slots).unwrap()
}

fn bound_holds(scenario: Scenario) -> TestResult {
    let ratio = worst_delay_over_bound(scenario.slots, &scenario.workload);
    if ratio <= 1.0 + 1e-9 {
        TestResult::passed()
    } else {
        TestResult::error(format!("a job is late by {ratio} times the bound"))
    }
}

#[test]
fn delay_bound_on_random_workloads() {
    quickcheck::QuickCheck::new()
        .tests(400)
        .quickcheck(bound_holds as fn(Scenario) -> TestResult);
}

/// Weighted jobs: the paper proves the bound for unweighted jobs; its argument (packet-by-packet
/// GPS, Parekh and Gallager) does not depend on the weights, and the bound holds with them.
#[test]
fn delay_bound_on_random_weighted_workloads() {
    quickcheck::QuickCheck::new()
        .tests(400)
        .quickcheck((|Weighted(scenario)| bound_holds(scenario)) as fn(Weighted) -> TestResult);
}

/// The property is not vacuous: on random workloads some jobs do finish after their GPS
/// completion (CFQ is not simply ahead of GPS everywhere).
#[test]
fn delays_against_gps_occur() {
    let mut g = Gen::new(100);
    let closest = (0..300)
        .map(|_| {
            let Scenario { slots, workload } = Scenario::arbitrary(&mut g);
            worst_delay_over_bound(slots, &workload)
        })
        .fold(f64::MIN, f64::max);
    assert!(closest > 0.0, "no job was ever late against GPS");
}

/// The CFQ §V-A workload: no job later than the bound, on three seeds.
#[test]
fn delay_bound_on_the_paper_workload() {
    for seed in 1..=3 {
        let workload = synthetic::cfq_paper(synthetic::CFQ_PAPER_JOBS, seed);
        let ratio = worst_delay_over_bound(synthetic::CFQ_PAPER_SLOTS, &workload);
        assert!(ratio <= 1.0, "seed {seed}: late by {ratio} times the bound");
    }
}
