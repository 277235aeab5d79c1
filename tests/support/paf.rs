//! Running PAF from tests on heap-held curves.

use fairsched::paf::{Allocation, Curve, Inline, Job, Method, Paf, Totals};

/// One call's per-job results, owned.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub fair: Vec<u32>,
    pub min: Vec<u32>,
    pub paf: Vec<u32>,
    pub fair_progress: Vec<f64>,
    pub paf_progress: Vec<f64>,
    pub totals: Totals,
}

/// The most jobs a test allocates among.
pub const CAPACITY: usize = 256;

/// Allocates `slots` among jobs with `weights` and `curves` (tables p(0..=d)).
pub fn allocate(
    weights: &[u32],
    curves: &[Vec<f64>],
    slots: u32,
    alpha: f64,
    method: Method,
) -> fairsched::Result<Outcome> {
    let jobs: Vec<Job> = weights
        .iter()
        .zip(curves)
        .map(|(&w, c)| Job::new(w, Curve::new(c)?))
        .collect::<fairsched::Result<_>>()?;
    let n = jobs.len();
    let mut paf = Box::new(Paf::<Inline<CAPACITY>>::new()?);
    let mut out = Outcome {
        fair: vec![0; n],
        min: vec![0; n],
        paf: vec![0; n],
        fair_progress: vec![0.0; n],
        paf_progress: vec![0.0; n],
        totals: Totals::default(),
    };
    out.totals = paf.allocate(
        jobs.as_slice(),
        slots,
        alpha,
        method,
        Allocation {
            fair: &mut out.fair,
            min: &mut out.min,
            paf: &mut out.paf,
            fair_progress: &mut out.fair_progress,
            paf_progress: &mut out.paf_progress,
        },
    )?;
    Ok(out)
}
