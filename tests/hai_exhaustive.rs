//! HAI is a heuristic (the problem is NP-hard, §4.3): on small random batches, its Σ JCT
//! against the least an exhaustive search of every allocation reaches, with the
//! shortest-job-optimal start, and HAI followed by one rebalance, for comparison. Prints the
//! gap statistics
//! (`cargo test --test hai_exhaustive -- --nocapture`) and asserts what must hold: nothing
//! beats the optimum, HAI never loses to its start, and the comparison can see a gap.
//!
//! Cases come from a fixed seed, so the figures are the same on every run.

use fairsched::hai::{Batch, Hai, Inline};
use fairsched_testkit::hai_cases::{Case, Kind};
use fairsched_testkit::hai_naive::tables;
use quickcheck::Gen;

const CASES: usize = 2_000;

/// Two to four jobs, up to 6 steps a table, up to 12 steps of capacity.
const MIXED: Kind = Kind {
    min_jobs: 2,
    max_jobs: 4,
    max_steps: 6,
    max_capacity_steps: 12,
    u_shaped_only: false,
};

/// The same with every table U-shaped, as ReB's predictor draws them (Fig. 1).
const U_SHAPED: Kind = Kind {
    u_shaped_only: true,
    ..MIXED
};

/// The least Σ JCT over every allocation of whole steps within the caps and the capacity.
fn optimum(batch: &Batch) -> f64 {
    fn search(tables: &[&[f64]], free: usize, sum: f64) -> f64 {
        match tables.split_first() {
            None => sum,
            Some((table, rest)) => (0..table.len().min(free + 1))
                .map(|steps| search(rest, free - steps, sum + table[steps]))
                .fold(f64::INFINITY, f64::min),
        }
    }
    search(&tables(batch), (batch.capacity / batch.theta) as usize, 0.0)
}

/// How a method's Σ JCT compares with the optimum over many cases.
#[derive(Default, Debug)]
struct Gaps {
    optimal: usize,
    /// Relative gaps (sum / optimum - 1) where both are finite and differ.
    finite: Vec<f64>,
    /// Cases where the method leaves a job waiting (+∞) though the optimum is finite.
    waiting: usize,
}

impl Gaps {
    fn record(&mut self, sum: f64, optimum: f64) {
        assert!(sum >= optimum, "{sum} beats the optimum {optimum}");
        if sum == optimum {
            self.optimal += 1;
        } else if sum.is_finite() {
            self.finite.push(sum / optimum - 1.0);
        } else {
            self.waiting += 1;
        }
    }

    fn report(&mut self, name: &str, cases: usize) {
        self.finite.sort_by(f64::total_cmp);
        let percent = |count: usize| 100.0 * count as f64 / cases as f64;
        let mean = self.finite.iter().sum::<f64>() / self.finite.len().max(1) as f64;
        let at = |q: f64| {
            self.finite
                .get((q * self.finite.len() as f64) as usize)
                .copied()
        };
        println!(
            "{name}: optimal {:.1}%, finite gap {:.1}% of cases (mean {:.2}%, median {:.2}%, \
             max {:.2}%), a job left waiting though none need {:.1}%",
            percent(self.optimal),
            percent(self.finite.len()),
            100.0 * mean,
            100.0 * at(0.5).unwrap_or(0.0),
            100.0 * self.finite.last().copied().unwrap_or(0.0),
            percent(self.waiting),
        );
    }
}

/// Runs `CASES` cases of `kind`, prints the statistics and returns them: (HAI's gaps, the
/// start's gaps, cases where HAI improved on its start). Also prints the gaps after one
/// rebalance of HAI's own allocation, whose split lets every running job give.
fn compare(kind: Kind, seed: u64) -> (Gaps, Gaps, usize) {
    let mut g = Gen::from_size_and_seed(100, seed);
    let (mut hai_gaps, mut sjo_gaps) = (Gaps::default(), Gaps::default());
    let mut rebalanced_gaps = Gaps::default();
    let mut hai = Hai::<Inline<4>>::new().unwrap();
    let mut improved = 0;
    for _ in 0..CASES {
        let case = Case::generate(&mut g, kind);
        let batch = case.batch();
        let n = case.caps.len();
        let (mut cores, mut jct) = (vec![0; n], vec![0.0; n]);
        let start = hai
            .shortest_job_optimal(&batch, &mut cores, &mut jct)
            .unwrap();
        let end = hai.allocate(&batch, &mut cores, &mut jct).unwrap();
        assert!(end.jct_sum <= start.jct_sum, "{case:?}");
        improved += usize::from(end.jct_sum < start.jct_sum);
        let best = optimum(&batch);
        hai_gaps.record(end.jct_sum, best);
        sjo_gaps.record(start.jct_sum, best);
        let again = hai.rebalance(&batch, &mut cores, &mut jct).unwrap();
        rebalanced_gaps.record(again.jct_sum, best);
    }
    let tables = if kind.u_shaped_only {
        "U-shaped"
    } else {
        "mixed"
    };
    println!(
        "{CASES} random batches of 2 to 4 jobs, {tables} tables of up to 6 steps, up to 12 \
         steps of capacity:"
    );
    hai_gaps.report("  HAI", CASES);
    sjo_gaps.report("  shortest-job-optimal", CASES);
    rebalanced_gaps.report("  HAI, then a rebalance of its allocation", CASES);
    println!("  HAI improved on its start in {improved} cases");
    (hai_gaps, sjo_gaps, improved)
}

#[test]
fn gap_to_the_exhaustive_optimum() {
    for (kind, seed) in [(MIXED, 0x4841_4921), (U_SHAPED, 0x5265_4221)] {
        let (hai, sjo, improved) = compare(kind, seed);
        // HAI beats its start often and is mostly optimal, yet a heuristic: the search sees
        // where it falls short.
        assert!(improved > CASES / 10);
        assert!(hai.optimal > sjo.optimal && hai.optimal > CASES / 2);
        assert!(!hai.finite.is_empty());
    }
}
