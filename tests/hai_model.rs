//! Model-based test: the library's HAI (loser trees, O(log n) a transfer) against the naive one
//! (a linear scan of every job for each transfer, tests/kit/src/hai_naive.rs) on random
//! batches. Both follow the `hai` module's rules with the same tie rules and arithmetic, so they must
//! agree bit for bit: allocation, JCTs, both sums and the transfer count, for the
//! shortest-job-optimal start, the allocation and a rebalance from a random current allocation.

use fairsched::hai::{Hai, Inline, Summary};
use fairsched_testkit::hai_cases::Case;
use fairsched_testkit::hai_naive::{self, Outcome, Steps};
use quickcheck::{QuickCheck, TestResult};

/// The library's entry points, by the naive run they must match.
#[derive(Clone, Copy, Debug)]
enum Call {
    ShortestJobOptimal,
    Allocate,
    Rebalance,
}

/// Runs `call` on `case` through the library, in the shape of a naive outcome.
fn library(case: &Case, call: Call) -> Outcome {
    let mut hai = Hai::<Inline<8>>::new().unwrap();
    let batch = case.batch();
    let mut cores = case.current.clone();
    let mut jct = vec![f64::NAN; case.caps.len()];
    let summary: Summary = match call {
        Call::ShortestJobOptimal => hai.shortest_job_optimal(&batch, &mut cores, &mut jct),
        Call::Allocate => hai.allocate(&batch, &mut cores, &mut jct),
        Call::Rebalance => hai.rebalance(&batch, &mut cores, &mut jct),
    }
    .expect("a valid case");
    Outcome {
        cores,
        jct,
        jct_sum_start: summary.jct_sum_start,
        jct_sum: summary.jct_sum,
        transfers: summary.transfers,
        donors: Vec::new(),
        trace: Vec::new(),
    }
}

/// The outcome's numbers as bits, so that equality is exact (and +∞ equals +∞).
fn bits(outcome: &Outcome) -> (Vec<u32>, Vec<u64>, u64, u64, u32) {
    (
        outcome.cores.clone(),
        outcome.jct.iter().map(|x| x.to_bits()).collect(),
        outcome.jct_sum_start.to_bits(),
        outcome.jct_sum.to_bits(),
        outcome.transfers,
    )
}

fn agrees_with_naive(case: Case) -> TestResult {
    let batch = case.batch();
    for (call, naive) in [
        (
            Call::ShortestJobOptimal,
            hai_naive::run(&batch, None, Steps::Start),
        ),
        (
            Call::Allocate,
            hai_naive::run(&batch, None, Steps::Transfers),
        ),
        (
            Call::Rebalance,
            hai_naive::run(&batch, Some(&case.current), Steps::Transfers),
        ),
    ] {
        let fast = library(&case, call);
        if bits(&fast) != bits(&naive) {
            return TestResult::error(format!("{call:?}: library {fast:?}, naive {naive:?}"));
        }
    }
    TestResult::passed()
}

#[test]
fn heaps_agree_with_linear_scans() {
    QuickCheck::new()
        .tests(600)
        .quickcheck(agrees_with_naive as fn(Case) -> TestResult);
}
