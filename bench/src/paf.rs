//! The PAF paper's large cluster (§V-B): 200 jobs on 8,000 slots, degrees of parallelism
//! 1..=200 and weights 1..=20, each job's progress curve from an Ernest model
//! `t(x) = a0 + a2 / x + a1 x` with seeded random coefficients (concave here: `a1` is 0 for
//! half the jobs and small for the others, whose curves then flatten at their best size), and
//! ten Ernest samples to fit.

use fairsched::paf::{Allocation, Curve, Ernest, Inline, Job, Method, Paf, Totals};
use fairsched_testkit::rng::SplitMix;

/// Jobs of the workload.
pub const JOBS: usize = 200;
/// Slots of the workload.
pub const SLOTS: u32 = 8_000;
/// The fairness knob of the paper's simulations.
pub const ALPHA: f64 = 0.9;

/// Uniform in [0, 1).
fn unit(rng: &mut SplitMix) -> f64 {
    rng.below(1 << 53) as f64 / (1u64 << 53) as f64
}

/// The jobs' weights and tabulated curves.
pub struct Workload {
    pub weights: Vec<u32>,
    pub curves: Vec<Vec<f64>>,
}

impl Workload {
    pub fn new() -> Self {
        let mut rng = SplitMix(2017);
        let mut weights = Vec::with_capacity(JOBS);
        let mut curves = Vec::with_capacity(JOBS);
        for j in 0..JOBS {
            let demand = 1 + rng.below(200) as usize;
            weights.push(1 + rng.below(20) as u32);
            let a1 = if j % 2 == 0 {
                0.0
            } else {
                1e-4 * unit(&mut rng)
            };
            let model = Ernest::new([
                0.05 + 0.3 * unit(&mut rng),
                a1,
                0.5 + 5.0 * unit(&mut rng),
                0.0,
            ])
            .expect("valid coefficients");
            let mut curve = vec![0.0; demand + 1];
            model.tabulate(&mut curve).expect("a valid curve");
            curves.push(curve);
        }
        Workload { weights, curves }
    }

    /// The jobs, checked once (what a scheduler keeps between allocations).
    pub fn jobs(&self) -> Vec<Job<'_>> {
        self.weights
            .iter()
            .zip(&self.curves)
            .map(|(&w, c)| Job::new(w, Curve::new(c).expect("a valid curve")).expect("weight >= 1"))
            .collect()
    }
}

impl Default for Workload {
    fn default() -> Self {
        Self::new()
    }
}

/// A workspace and the output buffers of one allocation.
pub struct Allocator {
    paf: Box<Paf<Inline<JOBS>>>,
    fair: Vec<u32>,
    min: Vec<u32>,
    x: Vec<u32>,
    fair_progress: Vec<f64>,
    paf_progress: Vec<f64>,
}

impl Allocator {
    pub fn new() -> Self {
        Allocator {
            paf: Box::new(Paf::new().expect("capacity")),
            fair: vec![0; JOBS],
            min: vec![0; JOBS],
            x: vec![0; JOBS],
            fair_progress: vec![0.0; JOBS],
            paf_progress: vec![0.0; JOBS],
        }
    }

    /// One allocation (fair shares, minAlloc, Algorithm 1, progress) of all the jobs.
    pub fn allocate(&mut self, jobs: &[Job<'_>], method: Method) -> Totals {
        let out = Allocation {
            fair: &mut self.fair,
            min: &mut self.min,
            paf: &mut self.x,
            fair_progress: &mut self.fair_progress,
            paf_progress: &mut self.paf_progress,
        };
        self.paf
            .allocate(jobs, SLOTS, ALPHA, method, out)
            .expect("valid input")
    }
}

impl Default for Allocator {
    fn default() -> Self {
        Self::new()
    }
}

/// Ten samples (slots, normalized run time) of `t(x) = 0.2 + 0.001 x + 3 / x + 0.05 ln x`,
/// with ±2% deterministic noise: the input of the fit benchmark (and of bench/paf_nnls_scipy.py).
pub fn ernest_samples() -> ([u32; 10], [f64; 10]) {
    let slots = [1, 2, 4, 6, 8, 12, 16, 24, 32, 48];
    let noise = [
        0.01, -0.02, 0.015, 0.0, -0.01, 0.02, -0.015, 0.005, -0.005, 0.01,
    ];
    let mut runtimes = [0.0; 10];
    for ((t, &x), e) in runtimes.iter_mut().zip(&slots).zip(noise) {
        let x = f64::from(x);
        *t = (0.2 + 0.001 * x + 3.0 / x + 0.05 * x.ln()) * (1.0 + e);
    }
    (slots, runtimes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The workload moves many slots, so the literal algorithm has work to do, and both
    /// methods agree.
    #[test]
    fn workload_moves_slots_and_methods_agree() {
        let workload = Workload::new();
        let jobs = workload.jobs();
        let mut allocator = Allocator::new();
        let literal = allocator.allocate(&jobs, Method::Literal);
        let literal_x = allocator.x.clone();
        let fast = allocator.allocate(&jobs, Method::Fast);
        assert_eq!(literal, fast);
        assert_eq!(literal_x, allocator.x);
        assert_eq!(literal.slots, u64::from(SLOTS));
        assert!(literal.moved > 500, "{literal:?}");
    }

    /// The fit of the benchmark's samples matches scipy.optimize.nnls on them (the values
    /// bench/paf_nnls_scipy.py prints).
    #[test]
    fn fit_matches_scipy() {
        let (slots, runtimes) = ernest_samples();
        let ours = fairsched::paf::ernest::fit(&slots, &runtimes)
            .unwrap()
            .coefficients();
        let scipy = [
            0.13193126015330667,
            0.0,
            3.0920693893951343,
            0.07937370861980947,
        ];
        for (a, b) in ours.iter().zip(scipy) {
            assert!((a - b).abs() < 1e-9, "{ours:?} against scipy's {scipy:?}");
        }
    }
}
