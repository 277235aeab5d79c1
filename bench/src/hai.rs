//! A batch shaped like ReB's hardest setting (§6.2: many jobs, few cores, θ = 1) for HAI and
//! its baseline.
//!
//! Job `j` has work `W_j = A_j²` and JCT `W_j / a + a` on `a` cores (the work shared by the
//! cores plus an overhead growing with them: the U shape of the paper's Fig. 1), `+∞` on none
//! (it waits). Its optimum is `A_j = 10 + (j · 7919 mod 51)` cores, where the JCT is `2 A_j`,
//! and its table covers `0..=2 A_j`. Optima add up to far more than the capacity, so the
//! shortest-job-optimal start satisfies the shortest jobs and leaves the others waiting, and
//! the transfers then give cores to every job: the most work HAI can be given per job.

use fairsched::hai::Batch;

/// The naive reference of the tests (a linear scan per transfer), shared rather than copied.
pub use fairsched_testkit::hai_naive as naive;

/// The jobs of one batch.
pub struct Workload {
    capacity: u32,
    caps: Vec<u32>,
    jct: Vec<f64>,
}

impl Workload {
    /// `jobs` jobs on `capacity` cores.
    pub fn new(jobs: u32, capacity: u32) -> Self {
        let optima = (0..jobs).map(|j| 10 + (j * 7919) % 51);
        let caps: Vec<u32> = optima.clone().map(|optimum| 2 * optimum).collect();
        let jct = optima
            .flat_map(|optimum| {
                let work = f64::from(optimum * optimum);
                (0..=2 * optimum).map(move |a| match a {
                    0 => f64::INFINITY,
                    a => work / f64::from(a) + f64::from(a),
                })
            })
            .collect();
        Workload {
            capacity,
            caps,
            jct,
        }
    }

    /// The batch, with θ = 1.
    pub fn batch(&self) -> Batch<'_> {
        Batch {
            capacity: self.capacity,
            theta: 1,
            caps: &self.caps,
            jct: &self.jct,
        }
    }

    /// Number of jobs.
    pub fn jobs(&self) -> usize {
        self.caps.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairsched::hai::{Hai, Inline};

    /// The baseline answers exactly as the library does, and the workload makes HAI work.
    #[test]
    fn baseline_and_library_agree() {
        for (jobs, capacity) in [(50, 200), (1000, 10_000)] {
            let workload = Workload::new(jobs, capacity);
            let batch = workload.batch();
            let mut hai = Box::new(Hai::<Inline<1000>>::new().expect("a capacity of 1,000"));
            let mut cores = vec![0; workload.jobs()];
            let mut jct = vec![0.0; workload.jobs()];
            let summary = hai.allocate(&batch, &mut cores, &mut jct).unwrap();
            let naive = naive::run(&batch, None, naive::Steps::Transfers);
            assert_eq!((cores, summary.transfers), (naive.cores, naive.transfers));
            assert!(summary.transfers as usize > workload.jobs());
            assert_eq!(summary.jct_sum_start, f64::INFINITY);
            assert!(summary.jct_sum.is_finite());
        }
    }
}
