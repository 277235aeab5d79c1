//! Running PAF from tests on heap-held curves: one call, its outputs and totals owned.

use crate::paf_outputs::Outputs;
use fairsched::paf::{Curve, Inline, Job, Method, Paf, Totals};

/// One call's results, owned.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub out: Outputs,
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
    let mut paf = Box::new(Paf::<Inline<CAPACITY>>::new()?);
    let mut out = Outputs::filled(jobs.len(), 0, 0.0);
    let totals = paf.allocate(jobs.as_slice(), slots, alpha, method, out.allocation())?;
    Ok(Outcome { out, totals })
}
