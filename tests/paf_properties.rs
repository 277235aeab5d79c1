//! PAF's promises on random inputs: the fast algorithm returns exactly what the literal one
//! does (which returns exactly what a naive scan of Algorithm 1 does), on concave and
//! non-concave curves with many ties; with concave curves the result is optimal for problem
//! (1) (an exact dynamic program), transfers go one way (Theorem 1's proof), and α = 1 hurts
//! no job. Plus the paper's fair shares (§V-A).

use fairsched::paf::Method;
use fairsched_testkit::paf::{allocate, Outcome};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};

/// Increments on a 1/8 grid, so that ties between jobs and within a curve are frequent and
/// prefix sums are exact.
fn eighths(g: &mut Gen, count: usize) -> Vec<f64> {
    (0..count)
        .map(|_| f64::from(u8::arbitrary(g) % 9) / 8.0)
        .collect()
}

fn curve_of(increments: &[f64]) -> Vec<f64> {
    let mut p = vec![0.0];
    for d in increments {
        p.push(p.last().unwrap() + d);
    }
    p
}

#[derive(Clone, Debug)]
struct Instance {
    weights: Vec<u32>,
    curves: Vec<Vec<f64>>,
    slots: u32,
    alpha: f64,
}

fn instance(g: &mut Gen, concave: bool) -> Instance {
    let n = usize::arbitrary(g) % 7 + 1;
    let weights = (0..n).map(|_| u32::arbitrary(g) % 4 + 1).collect();
    let curves = (0..n)
        .map(|_| {
            let count = usize::arbitrary(g) % 11;
            let mut increments = eighths(g, count);
            if concave {
                increments.sort_by(|a, b| b.total_cmp(a));
            }
            curve_of(&increments)
        })
        .collect();
    let alphas = [0.0, 0.5, 0.75, 0.9, 1.0];
    Instance {
        weights,
        curves,
        slots: u32::arbitrary(g) % 40 + 1,
        alpha: alphas[usize::arbitrary(g) % alphas.len()],
    }
}

#[derive(Clone, Debug)]
struct Concave(Instance);

impl Arbitrary for Concave {
    fn arbitrary(g: &mut Gen) -> Self {
        Concave(instance(g, true))
    }
}

#[derive(Clone, Debug)]
struct Any(Instance);

impl Arbitrary for Any {
    fn arbitrary(g: &mut Gen) -> Self {
        let concave = bool::arbitrary(g);
        Any(instance(g, concave))
    }
}

fn run(i: &Instance, method: Method) -> Outcome {
    allocate(&i.weights, &i.curves, i.slots, i.alpha, method).unwrap()
}

fn increment(curve: &[f64], x: u32) -> f64 {
    let x = x as usize;
    if x == 0 || x >= curve.len() {
        0.0
    } else {
        curve[x] - curve[x - 1]
    }
}

/// Algorithm 1 as the `paf` module words it, by scanning every job each time: the giver has the
/// smallest sacrifice among jobs above their minimum (ties: lower index), the taker the
/// largest benefit among the others (ties: lower index). Returns the allocation and, per job,
/// whether it ever gave and ever took.
fn naive(curves: &[Vec<f64>], min: &[u32], fair: &[u32]) -> (Vec<u32>, Vec<(bool, bool)>) {
    let mut x = fair.to_vec();
    let mut moves = vec![(false, false); x.len()];
    loop {
        let giver = (0..x.len()).filter(|&j| x[j] > min[j]).min_by(|&a, &b| {
            increment(&curves[a], x[a])
                .total_cmp(&increment(&curves[b], x[b]))
                .then(a.cmp(&b))
        });
        let Some(g) = giver else { break };
        let taker = (0..x.len()).filter(|&j| j != g).min_by(|&a, &b| {
            increment(&curves[b], x[b] + 1)
                .total_cmp(&increment(&curves[a], x[a] + 1))
                .then(a.cmp(&b))
        });
        let Some(t) = taker else { break };
        if increment(&curves[g], x[g]) >= increment(&curves[t], x[t] + 1) {
            break;
        }
        x[g] -= 1;
        x[t] += 1;
        moves[g].0 = true;
        moves[t].1 = true;
    }
    (x, moves)
}

/// The optimum of problem (1) on whole slots: the largest Σ p_j(x_j) over integers with
/// min_j <= x_j <= d_j and Σ x_j = Σ fair_j (slots past a demand add nothing, so the upper
/// bound loses no optimum). Dynamic program over jobs and slots used.
fn optimum(curves: &[Vec<f64>], min: &[u32], fair: &[u32]) -> f64 {
    let total: usize = fair.iter().map(|&f| f as usize).sum();
    let mut best = vec![f64::NEG_INFINITY; total + 1];
    best[0] = 0.0;
    for (curve, &m) in curves.iter().zip(min) {
        let mut next = vec![f64::NEG_INFINITY; total + 1];
        for used in 0..=total {
            if best[used] == f64::NEG_INFINITY {
                continue;
            }
            for x in m as usize..curve.len() {
                if used + x > total {
                    break;
                }
                next[used + x] = next[used + x].max(best[used] + curve[x]);
            }
        }
        best = next;
    }
    best[total]
}

#[test]
fn fast_literal_and_naive_agree_exactly() {
    fn prop(Any(i): Any) -> TestResult {
        let literal = run(&i, Method::Literal);
        let fast = run(&i, Method::Fast);
        let (naive, _) = naive(&i.curves, &literal.out.min, &literal.out.fair);
        if literal != fast || literal.out.paf != naive {
            return TestResult::error(format!(
                "literal {literal:?}\nfast {fast:?}\nnaive {naive:?}"
            ));
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(3000)
        .quickcheck(prop as fn(Any) -> TestResult);
}

#[test]
fn concave_curves_reach_the_optimum_of_problem_1() {
    fn prop(Concave(i): Concave) -> TestResult {
        let result = run(&i, Method::Fast);
        let best = optimum(&i.curves, &result.out.min, &result.out.fair);
        let got: f64 = result.out.paf_progress.iter().sum();
        if (got - best).abs() > 1e-9 {
            return TestResult::error(format!("PAF {got} < optimum {best}: {result:?}"));
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(Concave) -> TestResult);
}

#[test]
fn concave_transfers_go_one_way() {
    fn prop(Concave(i): Concave) -> bool {
        let result = run(&i, Method::Literal);
        let (_, moves) = naive(&i.curves, &result.out.min, &result.out.fair);
        moves.iter().all(|&(gave, took)| !(gave && took))
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(Concave) -> bool);
}

/// Not vacuous: some random non-concave instances do make a job give and then take.
#[test]
fn non_concave_transfers_can_go_both_ways() {
    let mut g = Gen::new(100);
    let both = (0..2000).any(|_| {
        let i = instance(&mut g, false);
        let result = run(&i, Method::Literal);
        let (_, moves) = naive(&i.curves, &result.out.min, &result.out.fair);
        moves.iter().any(|&(gave, took)| gave && took)
    });
    assert!(both);
}

#[test]
fn alpha_one_hurts_no_job() {
    fn prop(Any(mut i): Any) -> bool {
        i.alpha = 1.0;
        let result = run(&i, Method::Fast);
        result
            .out
            .paf_progress
            .iter()
            .zip(&result.out.fair_progress)
            .all(|(paf, fair)| paf >= fair)
            && result.totals.largest_loss == 0.0
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(Any) -> bool);
}

#[test]
fn every_job_keeps_alpha_of_its_fair_progress() {
    fn prop(Any(i): Any) -> bool {
        let result = run(&i, Method::Fast);
        let slots: u32 = result.out.paf.iter().sum();
        slots == result.out.fair.iter().sum::<u32>()
            && result.totals.paf_progress >= result.totals.fair_progress
            && result.totals.largest_loss <= 1.0 - i.alpha + 1e-12
            && result
                .out
                .paf_progress
                .iter()
                .zip(&result.out.fair_progress)
                .all(|(paf, fair)| *paf >= i.alpha * fair)
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(Any) -> bool);
}

/// §V-A: weights 12:3:1 on 128 slots, every job demanding 128, give 96, 24 and 8.
#[test]
fn fair_shares_of_the_testbed_experiment() {
    let linear: Vec<f64> = (0..=128).map(|x| f64::from(x) / 128.0).collect();
    let curves = vec![linear.clone(), linear.clone(), linear];
    let result = allocate(&[12, 3, 1], &curves, 128, 0.9, Method::Fast).unwrap();
    assert_eq!(result.out.fair, [96, 24, 8]);
}

/// Water-filling caps small demands and rounds the rest by largest remainder (ties: lower
/// index): 10 slots, demands 1, 9, 9, 9 with equal weights: 1 capped, 9 left for three jobs.
#[test]
fn fair_shares_cap_and_round() {
    let flat = |d: usize| vec![0.0; d + 1];
    let result = allocate(
        &[1, 1, 1, 1],
        &[flat(1), flat(9), flat(9), flat(9)],
        10,
        1.0,
        Method::Fast,
    )
    .unwrap();
    assert_eq!(result.out.fair, [1, 3, 3, 3]);
    let result = allocate(
        &[1, 1, 1],
        &[flat(9), flat(9), flat(9)],
        10,
        1.0,
        Method::Fast,
    )
    .unwrap();
    assert_eq!(result.out.fair, [4, 3, 3]);
    let result = allocate(&[1, 2], &[flat(1), flat(2)], 10, 1.0, Method::Fast).unwrap();
    assert_eq!(result.out.fair, [1, 2], "demands below the slots are met");
    assert_eq!(result.totals.slots, 3);
}

/// Jobs without a curve (§IV-A: "we simply allocate them the fair share and exclude them from
/// the slot transferring process"), exactly: the fair shares are those of the same jobs all
/// with curves (they depend on weights and demands only); a job without a curve gets
/// `paf = min = fair` and NaN progress; the others get exactly what Algorithm 1 (the naive
/// scan) gives on them alone, started from those fair shares with the same minimum
/// allocations; the totals count the jobs with curves only.
fn without_curves_keep_fair_shares(i: Any, drop: Vec<bool>, method: bool) -> TestResult {
    use fairsched::paf::{Curve, Inline, Job, Paf};
    use fairsched_testkit::paf_outputs::Outputs;
    let i = i.0;
    let method = if method {
        Method::Fast
    } else {
        Method::Literal
    };
    let none = |j: usize| drop.get(j).copied().unwrap_or(false);
    let jobs: Vec<Job> = (0..i.weights.len())
        .map(|j| {
            let demand = i.curves[j].len() as u32 - 1;
            if none(j) {
                Job::without_curve(i.weights[j], demand)
            } else {
                Job::new(i.weights[j], Curve::new(&i.curves[j]).unwrap())
            }
            .unwrap()
        })
        .collect();
    let mut paf = Paf::<Inline<8>>::new().unwrap();
    let mut out = Outputs::filled(jobs.len(), 0, 0.0);
    let t = paf
        .allocate(jobs.as_slice(), i.slots, i.alpha, method, out.allocation())
        .unwrap();
    let all = run(&i, method);
    if out.fair != all.out.fair || t.slots != all.totals.slots {
        return TestResult::failed();
    }
    let curved: Vec<usize> = (0..jobs.len()).filter(|&j| !none(j)).collect();
    let pick = |xs: &[u32]| curved.iter().map(|&j| xs[j]).collect::<Vec<_>>();
    let curves: Vec<Vec<f64>> = curved.iter().map(|&j| i.curves[j].clone()).collect();
    let (expected, _) = naive(&curves, &pick(&all.out.min), &pick(&all.out.fair));
    let kept = (0..jobs.len()).filter(|&j| none(j)).all(|j| {
        out.paf[j] == out.fair[j]
            && out.min[j] == out.fair[j]
            && out.fair_progress[j].is_nan()
            && out.paf_progress[j].is_nan()
    });
    let at = |j: usize, x: u32| i.curves[j][(x as usize).min(i.curves[j].len() - 1)];
    let fair_total: f64 = curved.iter().map(|&j| at(j, out.fair[j])).sum();
    TestResult::from_bool(
        kept && pick(&out.min) == pick(&all.out.min)
            && pick(&out.paf) == expected
            && out.paf.iter().sum::<u32>() == out.fair.iter().sum::<u32>()
            && t.fair_progress == fair_total,
    )
}

#[test]
fn jobs_without_curves_keep_their_fair_share() {
    QuickCheck::new()
        .tests(2000)
        .quickcheck(without_curves_keep_fair_shares as fn(Any, Vec<bool>, bool) -> TestResult);
}
