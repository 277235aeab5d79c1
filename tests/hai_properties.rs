//! What ReB's paper (Tsinghua Science and Technology, 2020) proves or the `hai` module
//! promises, on random batches (tests/kit/src/hai_cases.rs: whole-number tables, so every Σ JCT
//! is exact).
//!
//! The transfer-by-transfer properties are checked on the naive HAI's trace
//! (tests/kit/src/hai_naive.rs): tests/hai_model.rs shows the library makes exactly the same
//! transfers.

use fairsched::hai::{Batch, Hai, Inline, Summary};
use fairsched_testkit::hai_cases::Case;
use fairsched_testkit::hai_naive::{self, Steps};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};

/// An allocation and its summary.
struct Allocation {
    cores: Vec<u32>,
    jct: Vec<f64>,
    summary: Summary,
}

type Entry = fn(&mut Hai<Inline<8>>, &Batch, &mut [u32], &mut [f64]) -> fairsched::Result<Summary>;

/// Calls `entry` from `current`.
fn call(case: &Case, entry: Entry, current: &[u32]) -> Allocation {
    let mut cores = current.to_vec();
    let mut jct = vec![f64::NAN; current.len()];
    let summary = entry(
        &mut Hai::new().unwrap(),
        &case.batch(),
        &mut cores,
        &mut jct,
    )
    .expect("valid");
    Allocation {
        cores,
        jct,
        summary,
    }
}

fn allocate(case: &Case) -> Allocation {
    call(case, Hai::allocate, &vec![0; case.caps.len()])
}

fn shortest_job_optimal(case: &Case) -> Allocation {
    call(case, Hai::shortest_job_optimal, &vec![0; case.caps.len()])
}

fn rebalance(case: &Case) -> Allocation {
    call(case, Hai::rebalance, &case.current)
}

fn check(failures: &mut Vec<String>, ok: bool, what: impl FnOnce() -> String) {
    if !ok {
        failures.push(what());
    }
}

fn verdict(case: &Case, failures: Vec<String>) -> TestResult {
    if failures.is_empty() {
        TestResult::passed()
    } else {
        TestResult::error(format!("{case:?}: {failures:?}"))
    }
}

fn quickcheck(property: fn(Case) -> TestResult) {
    QuickCheck::new().tests(500).quickcheck(property);
}

/// Every allocation written is one: multiples of θ within the caps and the capacity, the
/// JCTs read from the tables at it, the sum theirs (in job order from +0).
fn allocations_are_well_formed(case: Case) -> TestResult {
    let tables = hai_naive::tables(&case.batch());
    let mut failures = Vec::new();
    for allocation in [
        shortest_job_optimal(&case),
        allocate(&case),
        rebalance(&case),
    ] {
        let Allocation {
            cores,
            jct,
            summary,
        } = &allocation;
        check(
            &mut failures,
            cores.iter().sum::<u32>() <= case.capacity,
            || format!("over capacity: {cores:?}"),
        );
        for (j, (&c, &t)) in cores.iter().zip(jct).enumerate() {
            check(
                &mut failures,
                c % case.theta == 0 && c <= case.caps[j],
                || format!("job {j}: {c} cores"),
            );
            let expected = tables[j][(c / case.theta) as usize];
            check(&mut failures, t.to_bits() == expected.to_bits(), || {
                format!("job {j}: JCT {t}, table says {expected}")
            });
        }
        let sum = jct.iter().fold(0.0, |sum, t| sum + t);
        check(
            &mut failures,
            sum.to_bits() == summary.jct_sum.to_bits(),
            || format!("sum {} of {jct:?}", summary.jct_sum),
        );
    }
    verdict(&case, failures)
}

#[test]
fn allocations_are_well_formed_everywhere() {
    quickcheck(allocations_are_well_formed);
}

/// Σ JCT never increases across transfers (Theorem 1, §4.4): each transfer either starts a
/// job that waited at `+∞` or, with none waiting, lowers the finite sum; the transfers end at
/// the allocation written; and there are at most Σ_{J1} A_j / θ of them, A_j being the
/// allocation the start gave. For an allocation and for a rebalance.
fn transfers_lower_the_sum_within_the_bound(case: Case) -> TestResult {
    let batch = case.batch();
    let tables = hai_naive::tables(&batch);
    // (jobs waiting at +∞, Σ of the finite JCTs): Σ JCT in a form that can fall while +∞.
    let sum = |cores: &[u32]| {
        let jct = cores
            .iter()
            .enumerate()
            .map(|(j, &c)| tables[j][(c / case.theta) as usize]);
        let waiting = jct.clone().filter(|t| t.is_infinite()).count();
        (waiting, jct.filter(|t| t.is_finite()).sum::<f64>())
    };
    let mut failures = Vec::new();
    for current in [None, Some(&case.current[..])] {
        let start = hai_naive::run(&batch, current, Steps::Start).cores;
        let run = hai_naive::run(&batch, current, Steps::Traced);
        let sums: Vec<(usize, f64)> = std::iter::once(&start)
            .chain(&run.trace)
            .map(|cores| sum(cores))
            .collect();
        check(&mut failures, sums.windows(2).all(|w| w[1] < w[0]), || {
            format!("Σ JCT did not fall at every transfer: {sums:?}")
        });
        check(
            &mut failures,
            run.trace.last().unwrap_or(&start) == &run.cores,
            || {
                format!(
                    "the transfers end at {:?}, not {:?}",
                    run.trace.last(),
                    run.cores
                )
            },
        );
        let bound: u32 = (0..start.len())
            .filter(|&j| run.donors[j])
            .map(|j| start[j] / case.theta)
            .sum();
        check(&mut failures, run.transfers <= bound, || {
            format!("{} transfers, bound {bound}", run.transfers)
        });
    }
    verdict(&case, failures)
}

#[test]
fn theorem_1_sum_falls_and_transfers_are_bounded() {
    quickcheck(transfers_lower_the_sum_within_the_bound);
}

/// HAI is never worse than the shortest-job-optimal start it begins from, which the summary
/// reports as its starting sum.
fn never_worse_than_shortest_job_optimal(case: Case) -> TestResult {
    let (hai, sjo) = (allocate(&case), shortest_job_optimal(&case));
    let mut failures = Vec::new();
    check(
        &mut failures,
        hai.summary.jct_sum <= sjo.summary.jct_sum,
        || {
            format!(
                "HAI {} above SJO {}",
                hai.summary.jct_sum, sjo.summary.jct_sum
            )
        },
    );
    check(
        &mut failures,
        hai.summary.jct_sum_start.to_bits() == sjo.summary.jct_sum.to_bits(),
        || format!("start {} is not SJO's sum", hai.summary.jct_sum_start),
    );
    check(
        &mut failures,
        sjo.summary.transfers == 0 && sjo.summary.jct_sum_start == sjo.summary.jct_sum,
        || format!("SJO alone transferred: {:?}", sjo.summary),
    );
    verdict(&case, failures)
}

#[test]
fn hai_never_worse_than_shortest_job_optimal() {
    quickcheck(never_worse_than_shortest_job_optimal);
}

/// Rebalancing from no allocation is allocating; rebalancing keeps every running job running
/// (a donor keeps θ) and never raises Σ JCT past its start.
fn rebalance_semantics(case: Case) -> TestResult {
    let mut failures = Vec::new();
    let zeros = vec![0; case.caps.len()];
    let from_nothing = call(&case, Hai::rebalance, &zeros);
    let allocated = allocate(&case);
    check(
        &mut failures,
        from_nothing.cores == allocated.cores && from_nothing.summary == allocated.summary,
        || "rebalance from nothing differs from allocate".into(),
    );
    let rebalanced = rebalance(&case);
    for (j, (&before, &after)) in case.current.iter().zip(&rebalanced.cores).enumerate() {
        check(&mut failures, before == 0 || after >= case.theta, || {
            format!("running job {j} stopped: {before} -> {after}")
        });
    }
    check(
        &mut failures,
        rebalanced.summary.jct_sum <= rebalanced.summary.jct_sum_start,
        || format!("{:?}", rebalanced.summary),
    );
    verdict(&case, failures)
}

#[test]
fn rebalance_from_nothing_allocates_and_keeps_running_jobs() {
    quickcheck(rebalance_semantics);
}

/// The properties above are not vacuous: random cases make transfers, HAI often beats the
/// start, and rebalances move cores too.
#[test]
fn random_cases_exercise_the_transfers() {
    let mut g = Gen::new(100);
    let (mut transferred, mut improved, mut rebalanced) = (0, 0, 0);
    for _ in 0..300 {
        let case = Case::arbitrary(&mut g);
        let hai = allocate(&case);
        transferred += usize::from(hai.summary.transfers > 0);
        improved += usize::from(hai.summary.jct_sum < hai.summary.jct_sum_start);
        rebalanced += usize::from(rebalance(&case).summary.transfers > 0);
    }
    // About a quarter of random cases improve (seen: 56 to 90 of 300); the thresholds sit far
    // below that, so that an unseeded generator cannot make the test flaky.
    assert!(
        transferred > 30 && improved > 30 && rebalanced > 15,
        "{transferred} allocations transferred, {improved} improved, {rebalanced} rebalances moved"
    );
}
